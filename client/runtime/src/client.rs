//! The client a generated API wraps: where the server is, how requests reach it, and the one
//! loop every call goes through (build, send, time out, retry, decode).
//!
//! Rules enforced here: a call's request is built afresh for each attempt by the operation's own
//! code (nothing is cloned on the way when there is no retry); each attempt, from sending to the
//! end of a buffered body, is bounded by the call's timeout (a stream's body, handed over unread,
//! is not); a retry happens only as [`RetryPolicy`](crate::RetryPolicy) allows (its attempts, and
//! its budget of time from the call's start), with the same `Idempotency-Key`; every attempt of a
//! call carries the call's one `X-Request-Id` (made unless the call, the client or the operation
//! gives one, or the client turned ids off), and every error of an attempt names it; a request
//! that cannot be built is an error before anything is sent. The client is cheap to clone: clones
//! share their connections.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use hyper::header::{Entry, HeaderMap, HeaderName, HeaderValue, AUTHORIZATION};
use hyper::http::uri::{Authority, PathAndQuery, Scheme};
use hyper::{Method, Request, Uri};

use crate::answer::{Answer, X_REQUEST_ID};
use crate::body::RequestBody;
use crate::decode::{Decode, Incoming};
use crate::error::{Error, ErrorKind};
use crate::request::RequestBuilder;
use crate::request_id;
use crate::retry::{Attempted, RetryPolicy};
use crate::stream::Resume;
use crate::transport::{Carrier, HyperTransport, Transport};

/// The span a call's attempts report to: the `otel` feature's, or nothing.
#[cfg(feature = "otel")]
type Span<'a> = crate::otel::CallSpan<'a>;
/// The span a call's attempts report to: the `otel` feature's, or nothing.
#[cfg(not(feature = "otel"))]
type Span<'a> = ();

/// How long a call's attempt may take, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection to one API: its base URL, transport, default headers, timeout and retry policy.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

#[derive(Clone)]
struct Inner {
    scheme: Scheme,
    authority: Authority,
    /// The base URL's path, without its last `/` (`""` for none).
    prefix: String,
    carrier: Carrier,
    headers: HeaderMap,
    timeout: Option<Duration>,
    retry: RetryPolicy,
    /// Calls without an id of their own are sent with a made one.
    request_ids: bool,
    /// The global providers' tracer and histogram, taken when the client is built.
    #[cfg(feature = "otel")]
    instruments: crate::otel::Instruments,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.base_url())
            .field("timeout", &self.inner.timeout)
            .field("retry", &self.inner.retry)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client of the API at `base_url` (`http://127.0.0.1:8000`, `https://api.example.com/v1`)
    /// with the default settings: hyper-util's pooled client, a 30 s timeout, retries as
    /// [`RetryPolicy::new`] says.
    pub fn new(base_url: &str) -> Result<Client, Error> {
        Client::builder(base_url).build()
    }

    /// A client of the API at `base_url`, configured.
    pub fn builder(base_url: &str) -> ClientBuilder {
        ClientBuilder {
            base_url: base_url.to_owned(),
            transport: None,
            http2_only: false,
            headers: HeaderMap::new(),
            timeout: Some(DEFAULT_TIMEOUT),
            retry: RetryPolicy::new(),
            request_ids: true,
            error: None,
            #[cfg(feature = "rustls")]
            root_certificates: None,
            #[cfg(feature = "rustls")]
            identity: None,
            #[cfg(feature = "rustls")]
            http1_only: false,
        }
    }

    /// This client, also sending `name: value` with every request, unless it already sends a
    /// `name` header of its own ([`ClientBuilder::header`]); a call's own header
    /// ([`Call::with_header`]) wins over both. The returned client shares this one's connections.
    ///
    /// A generated client of a versioned API sends the version it was generated for this way
    /// (`API-Version: 2026-01-15`, the document's `x-api-version`): a client built with
    /// `.header("API-Version", "2026-03-01")` asks for another version, and so does one call.
    pub fn with_default_header(mut self, name: HeaderName, value: HeaderValue) -> Client {
        if !self.inner.headers.contains_key(&name) {
            // Cloned only when shared (the settings; the transport's pool is shared either way).
            Arc::make_mut(&mut self.inner).headers.insert(name, value);
        }
        self
    }

    /// The base URL.
    pub fn base_url(&self) -> String {
        format!(
            "{}://{}{}",
            self.inner.scheme, self.inner.authority, self.inner.prefix
        )
    }

    /// Send the request `build` makes (called again for each attempt) and decode its answer.
    ///
    /// Call it directly for a route the document does not describe; generated operations call
    /// [`call_route`](Client::call_route). With the `otel` feature, the call's span is named
    /// `{method}` alone (it has no route template).
    // A plain `fn` returning the loop's future: without `otel`, a call is that future alone,
    // with no wrapper around it (the feature off costs nothing).
    pub fn call<R, F>(
        &self,
        method: Method,
        options: CallOptions,
        build: F,
    ) -> impl Future<Output = Result<Answer<R>, Error>> + use<'_, R, F>
    where
        R: Decode,
        F: Fn(&mut RequestBuilder) + Send + Sync,
    {
        self.traced(method, None, options, build)
    }

    /// [`call`](Client::call) for the operation at route `template` (`/item/{id}`, as the
    /// document writes its path): with the `otel` feature, the call's span is named
    /// `{method} {template}` and its points carry `url.template`. Generated operations call this.
    pub fn call_route<R, F>(
        &self,
        method: Method,
        template: &'static str,
        options: CallOptions,
        build: F,
    ) -> impl Future<Output = Result<Answer<R>, Error>> + use<'_, R, F>
    where
        R: Decode,
        F: Fn(&mut RequestBuilder) + Send + Sync,
    {
        self.traced(method, Some(template), options, build)
    }

    /// The call, in its span (the `otel` feature).
    #[cfg(feature = "otel")]
    async fn traced<R, F>(
        &self,
        method: Method,
        template: Option<&'static str>,
        options: CallOptions,
        build: F,
    ) -> Result<Answer<R>, Error>
    where
        R: Decode,
        F: Fn(&mut RequestBuilder) + Send + Sync,
    {
        let span = crate::otel::CallSpan::start(&self.inner.instruments, &method, template);
        let result = self.run::<R, F>(method, options, build, &span).await;
        span.end(match &result {
            Ok(answer) => crate::otel::Outcome::Answered(answer.status()),
            Err(error) => crate::otel::Outcome::Failed(error),
        });
        result
    }

    /// The call: the loop alone (the `otel` feature is off).
    #[cfg(not(feature = "otel"))]
    fn traced<R, F>(
        &self,
        method: Method,
        _template: Option<&'static str>,
        options: CallOptions,
        build: F,
    ) -> impl Future<Output = Result<Answer<R>, Error>> + use<'_, R, F>
    where
        R: Decode,
        F: Fn(&mut RequestBuilder) + Send + Sync,
    {
        self.run(method, options, build, &())
    }

    /// The loop of attempts of one call; `span` is the call's span (`()` without `otel`).
    #[cfg_attr(not(feature = "otel"), allow(unused_variables))]
    async fn run<R, F>(
        &self,
        method: Method,
        options: CallOptions,
        build: F,
        span: &Span<'_>,
    ) -> Result<Answer<R>, Error>
    where
        R: Decode,
        F: Fn(&mut RequestBuilder) + Send + Sync,
    {
        options.check()?;
        let inner = &*self.inner;
        let policy = options.retry.as_ref().unwrap_or(&inner.retry);
        let timeout = options.timeout.or(inner.timeout);
        // The retry budget counts from here (one clock read per call).
        let started = Instant::now();
        let mut retry = 0;
        // The call's id, made at its first attempt when it needs one, sent by every attempt.
        let mut made = None;
        loop {
            let mut request = RequestBuilder::new(method.clone(), &inner.prefix);
            build(&mut request);
            for (name, value) in &options.query {
                request.query(name, value);
            }
            request.extra_headers(&options.headers);
            request.extra_headers(&inner.headers);
            request.finish_cookies();
            if let Some(why) = request.error.take() {
                return Err(ErrorKind::InvalidRequest(why).into());
            }
            let sent = self.identify(&mut request, &mut made);
            let attempted = Attempted {
                method: &method,
                keyed: request.keyed,
                replayable: request.replayable,
            };
            #[cfg(feature = "otel")]
            let traced = span.attempt(retry, &mut request.headers, &request.target, &options.query);
            let resume = options
                .resumable
                .then(|| self.resume(&request, &options.query, span))
                .transpose()?;
            let answered = self.attempt::<R>(request, resume, timeout, sent.clone());
            match answered.await {
                Ok(answer) => {
                    #[cfg(feature = "otel")]
                    span.attempted(traced, crate::otel::Outcome::Answered(answer.status()));
                    let elapsed = started.elapsed();
                    match attempted.after_answer(policy, retry, elapsed, answer.status(), answer.headers()) {
                        Some(wait) => tokio::time::sleep(wait).await,
                        None => return Ok(answer),
                    }
                }
                Err(error) => {
                    #[cfg(feature = "otel")]
                    span.attempted(traced, crate::otel::Outcome::Failed(&error));
                    match attempted.after_error(policy, retry, started.elapsed(), &error) {
                        Some(wait) => tokio::time::sleep(wait).await,
                        None => return Err(error.named(request_id::boxed(sent.as_ref()))),
                    }
                }
            }
            retry += 1;
        }
    }

    /// The id `request` is sent with: its own `X-Request-Id` (the operation's, the call's or
    /// the client's), else the call's made id (`made`, made at the first attempt that needs it),
    /// unless ids are turned off.
    fn identify(&self, request: &mut RequestBuilder, made: &mut Option<HeaderValue>) -> Option<HeaderValue> {
        // One lookup: the entry is the header if present, else the place to put it.
        match request.headers.try_entry(X_REQUEST_ID).ok()? {
            Entry::Occupied(given) => Some(given.get().clone()),
            Entry::Vacant(slot) if self.inner.request_ids => {
                if made.is_none() {
                    *made = request_id::made();
                }
                // Clones share the id's bytes.
                let id = made.clone()?;
                slot.try_insert(id.clone()).ok()?;
                Some(id)
            }
            Entry::Vacant(_) => None,
        }
    }

    /// One attempt: send, then decode, within `timeout`; `sent` is the request's id.
    async fn attempt<R: Decode>(
        &self,
        request: RequestBuilder,
        resume: Option<Resume>,
        timeout: Option<Duration>,
        sent: Option<HeaderValue>,
    ) -> Result<Answer<R>, Error> {
        let request = self.request(request)?;
        let exchange = async move {
            let response = self.inner.carrier.send(request).await?;
            let (head, body) = response.into_parts();
            let mut incoming = Incoming::new(head.status, head.headers, body, resume, sent);
            let decoded = R::decode(&mut incoming).await?;
            Ok(Answer::received(
                incoming.status(),
                incoming.headers,
                decoded,
                incoming.raw,
            ))
        };
        match timeout {
            Some(limit) => tokio::time::timeout(limit, exchange)
                .await
                .unwrap_or_else(|_| Err(ErrorKind::Timeout(limit).into())),
            None => exchange.await,
        }
    }

    /// The request `built` describes, addressed to this client's server.
    fn request(&self, built: RequestBuilder) -> Result<Request<RequestBody>, Error> {
        let uri = self.uri(built.target)?;
        let mut request = Request::new(built.body);
        *request.method_mut() = built.method;
        *request.uri_mut() = uri;
        *request.headers_mut() = built.headers;
        Ok(request)
    }

    fn uri(&self, target: String) -> Result<Uri, Error> {
        let path = PathAndQuery::from_maybe_shared(Bytes::from(target))
            .map_err(|error| ErrorKind::InvalidRequest(format!("the request's path: {error}")))?;
        // The parts set at once: `Uri::builder` moves them through a `Result` per part.
        let mut parts = hyper::http::uri::Parts::default();
        parts.scheme = Some(self.inner.scheme.clone());
        parts.authority = Some(self.inner.authority.clone());
        parts.path_and_query = Some(path);
        Uri::from_parts(parts)
            .map_err(|error| ErrorKind::InvalidRequest(format!("the request's URL: {error}")).into())
    }

    /// What a stream needs to send `request` again: with `otel`, as spans under the call's
    /// (`span`; `added`, the query parameters the call added, redacted in their `url.full`).
    #[cfg_attr(not(feature = "otel"), allow(unused_variables))]
    fn resume(
        &self,
        request: &RequestBuilder,
        added: &[(String, String)],
        span: &Span<'_>,
    ) -> Result<Resume, Error> {
        Ok(Resume {
            carrier: self.inner.carrier.clone(),
            method: request.method.clone(),
            uri: self.uri(request.target.clone())?,
            headers: request.headers.clone(),
            body: Bytes::copy_from_slice(request.body.as_bytes().unwrap_or_default()),
            #[cfg(feature = "otel")]
            spans: span.reconnections(&request.target, added),
        })
    }
}

/// How a [`Client`] is made.
#[must_use = "a builder does nothing until `build` is called"]
pub struct ClientBuilder {
    base_url: String,
    transport: Option<Carrier>,
    http2_only: bool,
    headers: HeaderMap,
    timeout: Option<Duration>,
    retry: RetryPolicy,
    request_ids: bool,
    error: Option<String>,
    #[cfg(feature = "rustls")]
    root_certificates: Option<Vec<u8>>,
    #[cfg(feature = "rustls")]
    identity: Option<(Vec<u8>, Vec<u8>)>,
    #[cfg(feature = "rustls")]
    http1_only: bool,
}

impl ClientBuilder {
    /// Send requests by `transport` instead of hyper-util's pooled client (an app in-process,
    /// see [`ServiceTransport`](crate::ServiceTransport)).
    pub fn transport(mut self, transport: impl Transport) -> Self {
        self.transport = Some(Carrier::Custom(Arc::new(transport)));
        self
    }

    /// Speak HTTP/2 to the server without TLS (h2c, prior knowledge). Over TLS, HTTP/2 is
    /// negotiated by itself.
    pub fn http2_only(mut self, http2_only: bool) -> Self {
        self.http2_only = http2_only;
        self
    }

    /// Send header `name: value` with every request (an API key, a tenant).
    pub fn header(mut self, name: &str, value: &str) -> Self {
        match (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            (Ok(name), Ok(value)) => {
                self.headers.append(name, value);
            }
            _ => self.fail(format!("default header `{name}`: not a valid header")),
        }
        self
    }

    /// Send `Authorization: Bearer <token>` with every request.
    pub fn bearer_token(mut self, token: &str) -> Self {
        match HeaderValue::try_from(format!("Bearer {token}")) {
            Ok(mut value) => {
                value.set_sensitive(true);
                self.headers.insert(AUTHORIZATION, value);
            }
            Err(_) => self.fail("the bearer token is not a valid header value".to_owned()),
        }
        self
    }

    /// How long each attempt of a call may take, from sending to the end of a buffered body
    /// (`None`: no limit). Default 30 s.
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// When calls are retried (default [`RetryPolicy::new`]).
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Send each call without an id of its own with a made `X-Request-Id` (32 lowercase hex
    /// digits, the same on every retry of the call), which its errors name. On by default;
    /// `false` sends only the ids calls give ([`Call::with_request_id`], a default header).
    pub fn request_ids(mut self, on: bool) -> Self {
        self.request_ids = on;
        self
    }

    /// Trust only the TLS root certificates of `pem` (a private CA, a test's self-signed
    /// certificate) instead of Mozilla's.
    #[cfg(feature = "rustls")]
    pub fn root_certificates(mut self, pem: &[u8]) -> Self {
        self.root_certificates = Some(pem.to_vec());
        self
    }

    /// Over TLS, offer only HTTP/1.1 by ALPN (default `false`: HTTP/2 too, which a server that
    /// offers it chooses).
    #[cfg(feature = "rustls")]
    pub fn http1_only(mut self, http1_only: bool) -> Self {
        self.http1_only = http1_only;
        self
    }

    /// Present the client certificate `cert_chain_pem` (the client's own first, then any
    /// intermediates) with its private key `key_pem` (PKCS#8, PKCS#1 or SEC1) to a server that
    /// asks for one (mutual TLS). Text that holds no certificate or key is an error of
    /// [`build`](ClientBuilder::build).
    #[cfg(feature = "rustls")]
    pub fn identity(mut self, cert_chain_pem: &[u8], key_pem: &[u8]) -> Self {
        self.identity = Some((cert_chain_pem.to_vec(), key_pem.to_vec()));
        self
    }

    fn fail(&mut self, why: String) {
        self.error.get_or_insert(why);
    }

    /// The client.
    pub fn build(self) -> Result<Client, Error> {
        if let Some(why) = self.error {
            return Err(ErrorKind::InvalidRequest(why).into());
        }
        let invalid = |why: &str| {
            Error::from(ErrorKind::InvalidRequest(format!(
                "base URL `{}`: {why}",
                self.base_url
            )))
        };
        let uri: Uri = self.base_url.parse().map_err(|_| invalid("not a URL"))?;
        let scheme = uri.scheme().cloned().ok_or_else(|| invalid("no scheme"))?;
        if scheme != Scheme::HTTP && scheme != Scheme::HTTPS {
            return Err(invalid("the scheme must be http or https"));
        }
        #[cfg(not(feature = "rustls"))]
        if scheme == Scheme::HTTPS && self.transport.is_none() {
            return Err(invalid("https needs ferrapi-client's `rustls` feature"));
        }
        let authority = uri.authority().cloned().ok_or_else(|| invalid("no host"))?;
        if uri.query().is_some() {
            return Err(invalid("a base URL has no query"));
        }
        let prefix = uri.path().trim_end_matches('/').to_owned();
        let carrier = match self.transport {
            Some(carrier) => carrier,
            None => Carrier::Hyper(Box::new(HyperTransport::with(
                &crate::transport::HyperSettings {
                    http2_only: self.http2_only,
                    #[cfg(feature = "rustls")]
                    root_certificates: self.root_certificates,
                    #[cfg(feature = "rustls")]
                    identity: self.identity,
                    #[cfg(feature = "rustls")]
                    http1_only: self.http1_only,
                    ..Default::default()
                },
            )?)),
        };
        Ok(Client {
            inner: Arc::new(Inner {
                #[cfg(feature = "otel")]
                instruments: crate::otel::Instruments::new(&scheme, &authority),
                scheme,
                authority,
                prefix,
                carrier,
                headers: self.headers,
                timeout: self.timeout,
                retry: self.retry,
                request_ids: self.request_ids,
            }),
        })
    }
}

/// What one call changes of the client's settings.
#[derive(Clone, Debug, Default)]
pub struct CallOptions {
    headers: HeaderMap,
    query: Vec<(String, String)>,
    timeout: Option<Duration>,
    retry: Option<RetryPolicy>,
    resumable: bool,
    error: Option<String>,
}

impl CallOptions {
    /// Send `X-Request-Id: id` instead of a made id (the server logs it and returns it:
    /// [`Answer::request_id`](crate::Answer::request_id); the call's errors name it). A ferrapi
    /// server keeps an id of letters, digits and `-_.:/+=@`, at most 128 bytes, and replaces
    /// any other.
    pub fn request_id(&mut self, id: &str) {
        self.set_header(X_REQUEST_ID, id);
    }

    /// Send header `name: value` with this call.
    pub fn header(&mut self, name: &str, value: &str) {
        match HeaderName::try_from(name) {
            Ok(name) => self.set_header(name, value),
            Err(_) => {
                self.error.get_or_insert(format!("`{name}` is not a header name"));
            }
        }
    }

    fn set_header(&mut self, name: HeaderName, value: &str) {
        match HeaderValue::try_from(value) {
            Ok(value) => {
                self.headers.insert(name, value);
            }
            Err(_) => {
                self.error
                    .get_or_insert(format!("header `{name}`: not a valid header value"));
            }
        }
    }

    /// Add query parameter `name=value` to this call (an API key the document's security scheme
    /// puts in the query, a parameter the document does not list).
    pub fn query(&mut self, name: &str, value: &str) {
        self.query.push((name.to_owned(), value.to_owned()));
    }

    /// This call's timeout per attempt.
    pub fn timeout(&mut self, timeout: Duration) {
        self.timeout = Some(timeout);
    }

    /// This call's retry policy.
    pub fn retry(&mut self, retry: RetryPolicy) {
        self.retry = Some(retry);
    }

    /// Keep what is needed to send the request again after the call (an event stream's
    /// reconnection). Generated operations that answer with a stream set it.
    pub fn resumable(&mut self) {
        self.resumable = true;
    }

    /// The first invalid option, as the call's error.
    pub fn check(&self) -> Result<(), Error> {
        match &self.error {
            Some(why) => Err(ErrorKind::InvalidRequest(why.clone()).into()),
            None => Ok(()),
        }
    }
}

/// The per-call options of a generated operation's request (`with_request_id`, `with_timeout`,
/// …), for every operation alike.
pub trait Call: Sized {
    /// The request's options.
    fn options(&mut self) -> &mut CallOptions;

    /// Send `X-Request-Id: id` with this call, instead of a made id (see
    /// [`CallOptions::request_id`]).
    fn with_request_id(mut self, id: &str) -> Self {
        self.options().request_id(id);
        self
    }

    /// Send header `name: value` with this call.
    fn with_header(mut self, name: &str, value: &str) -> Self {
        self.options().header(name, value);
        self
    }

    /// Add query parameter `name=value` to this call.
    fn with_query(mut self, name: &str, value: &str) -> Self {
        self.options().query(name, value);
        self
    }

    /// Bound each attempt of this call by `timeout`.
    fn with_timeout(mut self, timeout: Duration) -> Self {
        self.options().timeout(timeout);
        self
    }

    /// Retry this call as `retry` says.
    fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.options().retry(retry);
        self
    }
}
