//! A request at the server's door: what hyper calls for every request of a connection, before the
//! app ([`ConnService`]).
//!
//! Rules enforced here, in order:
//! - HTTP/1: the strict scanner's verdict on the head (`strict.rs`): a refused head is answered
//!   400 or 501 `{"detail": …}` and the connection closed; a head asking for an upgrade is served,
//!   and its connection closed unless the answer is 101 (the scanner no longer follows it);
//! - HTTP/2: a `Host` header that names another authority than `:authority` is a malformed
//!   request (RFC 9113 §8.3.1): 400 `{"detail": …}`;
//! - the concurrency limit (`gate.rs`): over it, 503 with `Retry-After: 1` at once;
//! - the request body gets its deadline (`body_deadline.rs`), and is handed over with where its
//!   readers tell what became of it (`body/handed.rs`, the connection's `Heard`): when the
//!   answer is ready, a missed deadline, a memory refusal and a reset told there are counted, and
//!   an HTTP/1 connection whose body was cut is closed after the answer, whatever the app's
//!   layers made of the answer;
//! - the response body carries the request's place (and on HTTP/2 its stream's clock) until it
//!   is sent (`served.rs`);
//! - (the `tls` feature) the client certificate a connection's handshake verified goes with each
//!   of its requests, as an extension (`extract/client_cert.rs`); a TLS connection's answers
//!   carry `Strict-Transport-Security` when the app asks for it (every answer, refusals included,
//!   unless it set its own); a plain listener that redirects to HTTPS answers every request
//!   with its redirect (`redirect.rs`), never the app, and takes no place under the
//!   concurrency limit. All of them in this one service: each service type is another copy of
//!   hyper's server (see `socket.rs`);
//! - every refusal is counted and reported (`refusals.rs`), and answered with a JSON `detail`,
//!   or as problem details when the app answers them (`App::problem_details`).

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONNECTION, HOST, RETRY_AFTER};
use hyper::{Request, StatusCode, Version};

use super::body_deadline::{BodyRules, TimedBody};
use super::conn_state::ConnState;
use super::gate::{Gate, Pass};
use super::h2::{current_stream, Activity};
#[cfg(feature = "tls")]
use super::redirect::Redirect;
use super::served::{ServedBody, Stream};
use super::strict::{Verdict, Verdicts};
use crate::body::{Handed, News};
use crate::budget::Share;
use crate::dispatch::{ResponseFuture, Service};
use crate::metrics::Refusal;
use crate::response::{charge_answer, error_response, MemoryRefused, Response};

/// The app as one connection's requests meet it (see the module rules).
#[derive(Clone)]
pub(crate) struct ConnService {
    service: Service,
    gate: Arc<Gate>,
    body_rules: BodyRules,
    protocol: Protocol,
    /// The client certificate its TLS handshake verified, read once for all its requests.
    #[cfg(feature = "tls")]
    peer: Option<crate::extract::ClientCert>,
    /// Its answers' `Strict-Transport-Security` (a TLS connection of an app that asks for it).
    #[cfg(feature = "tls")]
    hsts: Option<Arc<HeaderValue>>,
    /// Where its requests are sent instead of to the app (a plain listener that redirects).
    #[cfg(feature = "tls")]
    redirect: Option<Arc<Redirect>>,
}

/// Give `response` the connection's `Strict-Transport-Security` value, unless it has its own.
#[cfg(feature = "tls")]
fn add_hsts(response: &mut hyper::Response<ServedBody>, value: &HeaderValue) {
    response
        .headers_mut()
        .entry(hyper::header::STRICT_TRANSPORT_SECURITY)
        .or_insert_with(|| value.clone());
}

/// What a connection's service keeps of its protocol.
#[derive(Clone)]
enum Protocol {
    /// HTTP/1: the strict scanner's verdicts on the heads, and the connection's state (a head
    /// makes it busy, its answer's body idle again).
    Http1(Arc<Verdicts>, Arc<ConnState>),
    /// HTTP/2: the connection's requests in progress, and the share of the memory budget its
    /// bodies being received may hold (when the app has a budget and the share is on).
    Http2(Arc<Activity>, Option<Arc<Share>>),
}

impl ConnService {
    /// The service of one HTTP/1 connection, whose heads the scanner judges in `verdicts` and
    /// whose state is `state`.
    pub(crate) fn http1(
        service: Service,
        gate: Arc<Gate>,
        body_rules: BodyRules,
        (verdicts, state): (Arc<Verdicts>, Arc<ConnState>),
    ) -> Self {
        ConnService {
            service,
            gate,
            body_rules,
            protocol: Protocol::Http1(verdicts, state),
            #[cfg(feature = "tls")]
            peer: None,
            #[cfg(feature = "tls")]
            hsts: None,
            #[cfg(feature = "tls")]
            redirect: None,
        }
    }

    /// The service of one HTTP/2 connection, whose requests `activity` counts: its bodies
    /// being received hold at most its share of the memory budget (`Config::connection_body_share`).
    pub(crate) fn http2(
        service: Service,
        gate: Arc<Gate>,
        body_rules: BodyRules,
        activity: Arc<Activity>,
    ) -> Self {
        let config = service.config();
        let share = match (service.budget(), config.connection_body_share) {
            (Some(_), Some(share)) => Some(Share::new(share.max(config.body_limit))),
            _ => None,
        };
        ConnService {
            service,
            gate,
            body_rules,
            protocol: Protocol::Http2(activity, share),
            #[cfg(feature = "tls")]
            peer: None,
            #[cfg(feature = "tls")]
            hsts: None,
            #[cfg(feature = "tls")]
            redirect: None,
        }
    }

    /// Hand `peer`, the certificate the connection's TLS handshake verified, to each request;
    /// give every answer `hsts` (its `Strict-Transport-Security`), when set; send every request
    /// to `redirect` instead of the app, when set.
    #[cfg(feature = "tls")]
    pub(crate) fn answering(
        self,
        peer: Option<crate::extract::ClientCert>,
        hsts: Option<Arc<HeaderValue>>,
        redirect: Option<Arc<Redirect>>,
    ) -> Self {
        ConnService {
            peer,
            hsts,
            redirect,
            ..self
        }
    }

    /// Answer `request` on a connection that redirects or gives its answers HSTS (out of line:
    /// a plain connection does neither, and pays one test for both).
    #[cfg(feature = "tls")]
    #[cold]
    #[inline(never)]
    fn call_tls(&self, request: Request<Incoming>) -> ConnFuture<ResponseFuture<TimedBody>> {
        let answer = match &self.redirect {
            Some(to) => self.redirected(to, &request),
            None => self.serve(request, false),
        };
        match &self.hsts {
            Some(value) => ConnFuture::Hsts(Box::new(answer), value.clone()),
            None => answer,
        }
    }

    /// Answer `request` with the redirect to HTTPS (a plain listener that redirects; see
    /// `redirect.rs`).
    #[cfg(feature = "tls")]
    #[cold]
    #[inline(never)]
    fn redirected(
        &self,
        to: &Redirect,
        request: &Request<Incoming>,
    ) -> ConnFuture<ResponseFuture<TimedBody>> {
        let verdict = match &self.protocol {
            Protocol::Http1(verdicts, state) => {
                state.head_arrived();
                verdicts.next()
            }
            Protocol::Http2(..) => Verdict::Serve,
        };
        self.now(to.answer(request, verdict, self.gate.refusals()))
    }

    /// Refuse `request` for overload: 503, counted, with its request id when the app gives ids.
    #[cold]
    fn busy(&self, request: &Request<Incoming>) -> ConnFuture<ResponseFuture<TimedBody>> {
        let mut response = error_response(
            StatusCode::SERVICE_UNAVAILABLE,
            &serde_json::json!("The server is busy; retry shortly"),
        );
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from_static("1"));
        self.gate.refusals().count(Refusal::Overload);
        self.service.refused(request, &mut response);
        self.now(self.shaped(response, request))
    }

    /// Refuse a malformed request: `status` with `detail`, counted, the connection closed.
    #[cold]
    fn malformed(
        &self,
        request: &Request<Incoming>,
        status: StatusCode,
        detail: &'static str,
    ) -> ConnFuture<ResponseFuture<TimedBody>> {
        tracing::debug!(status = status.as_u16(), detail, "malformed request refused");
        let mut response = error_response(status, &serde_json::json!(detail));
        response
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
        self.gate.refusals().count(Refusal::Malformed);
        self.now(self.shaped(response, request))
    }

    /// A refusal in the app's shape of errors: problem details when it answers them.
    #[cold]
    fn shaped(&self, response: Response, request: &Request<Incoming>) -> Response {
        if self.service.config().problem_details {
            crate::problem::to_problem(response, request.uri().path())
        } else {
            response
        }
    }

    /// Answer `response` without the app (on HTTP/2 its stream is still watched).
    fn now(&self, response: Response) -> ConnFuture<ResponseFuture<TimedBody>> {
        ConnFuture::Now {
            response: Some(response),
            stream: self.stream(),
            idle_after: self.idle_after(),
        }
    }

    /// The verdict on an HTTP/1 head; `Ok(true)` when it asks for an upgrade.
    #[inline(always)]
    fn judge(&self, request: &Request<Incoming>) -> Result<bool, ConnFuture<ResponseFuture<TimedBody>>> {
        match &self.protocol {
            Protocol::Http1(verdicts, _) => match verdicts.next() {
                Verdict::Serve => Ok(false),
                Verdict::Upgrade => Ok(true),
                Verdict::Refuse(violation) => {
                    Err(self.malformed(request, violation.status(), violation.detail()))
                }
            },
            Protocol::Http2(..) if host_differs_from_authority(request) => Err(self.malformed(
                request,
                StatusCode::BAD_REQUEST,
                "The Host header names another authority than the request's :authority",
            )),
            Protocol::Http2(..) => Ok(false),
        }
    }

    /// What an HTTP/2 request holds while it is answered; the stream's clock is found when the
    /// answer is ready: hyper calls the service in the connection's task, and polls the future
    /// in the stream's.
    #[inline]
    fn stream(&self) -> Option<Stream> {
        match &self.protocol {
            Protocol::Http1(..) => None,
            Protocol::Http2(activity, _) => Some(Stream {
                _active: activity.start(),
                clock: None,
            }),
        }
    }

    /// HTTP/1: the connection a request's answer makes idle again.
    #[inline]
    fn idle_after(&self) -> Option<Arc<ConnState>> {
        match &self.protocol {
            Protocol::Http1(_, state) => Some(state.clone()),
            Protocol::Http2(..) => None,
        }
    }
}

impl hyper::service::Service<Request<Incoming>> for ConnService {
    type Response = hyper::Response<ServedBody>;
    type Error = Infallible;
    type Future = ConnFuture<ResponseFuture<TimedBody>>;

    #[inline]
    fn call(&self, request: Request<Incoming>) -> ConnFuture<ResponseFuture<TimedBody>> {
        self.serve(request, true)
    }
}

impl ConnService {
    /// Admit `request` and start the app's answer (see the module rules); first, when `tls`,
    /// send it the TLS way if the connection redirects or gives its answers HSTS (`call_tls`,
    /// which comes back here with `tls` false). One body for both ways, inlined into `call`, so
    /// the plain way is the code it was before the TLS way existed, behind one test.
    #[inline(always)]
    #[cfg_attr(not(feature = "tls"), allow(unused_variables))]
    fn serve(&self, request: Request<Incoming>, tls: bool) -> ConnFuture<ResponseFuture<TimedBody>> {
        #[cfg(feature = "tls")]
        if tls && (self.redirect.is_some() || self.hsts.is_some()) {
            return self.call_tls(request);
        }
        if let Protocol::Http1(_, state) = &self.protocol {
            state.head_arrived();
        }
        let upgrade = match self.judge(&request) {
            Ok(upgrade) => upgrade,
            Err(refused) => return refused,
        };
        let Some(pass) = self.gate.enter() else {
            return self.busy(&request);
        };
        let stream = self.stream();
        let rules = self.body_rules;
        let (mut parts, body) = request.into_parts();
        // A clone of the connection's `Arc`, only where a certificate was presented.
        #[cfg(feature = "tls")]
        if let Some(peer) = &self.peer {
            parts.extensions.insert(peer.clone());
        }
        let (conn, share, heard) = match &self.protocol {
            Protocol::Http1(_, state) => (Some(state), None, state.heard()),
            Protocol::Http2(activity, share) => (None, share.as_ref(), activity.heard()),
        };
        let body = TimedBody::new(body, rules, &self.gate, (conn, heard));
        let handed = Handed {
            share,
            heard: Some(heard),
        };
        ConnFuture::Serving {
            future: self.service.start_parts(&mut parts, body, handed),
            pass: Some(pass),
            stream,
            idle_after: self.idle_after(),
            upgrade,
        }
    }
}

/// HTTP/2: a `Host` header is allowed only when it names the `:authority` (any case).
fn host_differs_from_authority(request: &Request<Incoming>) -> bool {
    if request.version() != Version::HTTP_2 {
        return false;
    }
    let mut hosts = request.headers().get_all(HOST).iter();
    let Some(host) = hosts.next() else {
        return false;
    };
    if hosts.next().is_some() {
        return true;
    }
    match request.uri().authority() {
        Some(authority) => !host
            .as_bytes()
            .eq_ignore_ascii_case(authority.as_str().as_bytes()),
        None => false,
    }
}

/// `response` with its body carrying `pass` and `stream` (whose clock is the stream task's), and
/// making `idle_after` idle when dropped.
#[inline(always)]
fn served(
    response: Response,
    pass: Option<Pass>,
    mut stream: Option<Stream>,
    idle_after: Option<Arc<ConnState>>,
) -> hyper::Response<ServedBody> {
    if let Some(stream) = &mut stream {
        stream.clock = current_stream();
    }
    response.map(|body| ServedBody::new(body, pass, stream, idle_after))
}

/// A request being answered (holding its place until its response is ready, then handing it to
/// the response body), or refused.
pub(crate) enum ConnFuture<F> {
    Serving {
        future: F,
        pass: Option<Pass>,
        stream: Option<Stream>,
        idle_after: Option<Arc<ConnState>>,
        /// The head asked for an upgrade: unless the answer is 101, close the connection.
        upgrade: bool,
    },
    Now {
        response: Option<Response>,
        stream: Option<Stream>,
        idle_after: Option<Arc<ConnState>>,
    },
    /// (the `tls` feature) An answer of a connection whose answers carry
    /// `Strict-Transport-Security`, and its value. Boxed: a variant as big as the others made
    /// every request's future bigger, and a plain request paid ≈ 55 instructions of copies
    /// (callgrind `GET /item/42`).
    #[cfg(feature = "tls")]
    Hsts(Box<ConnFuture<F>>, Arc<HeaderValue>),
}

impl<F: Future<Output = Response> + Unpin> Future for ConnFuture<F> {
    type Output = Result<hyper::Response<ServedBody>, Infallible>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            ConnFuture::Serving {
                future,
                pass,
                stream,
                idle_after,
                upgrade,
            } => {
                let mut response = match Pin::new(future).poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(response) => response,
                };
                let heard = match (&*idle_after, &*stream) {
                    (Some(state), _) => Some(state.heard()),
                    (None, Some(stream)) => Some(stream._active.heard()),
                    (None, None) => None,
                };
                if let Some(news) = heard.and_then(|heard| heard.take()) {
                    told(&mut response, news, pass.as_ref(), idle_after.is_some());
                }
                if *upgrade {
                    if response.status() == StatusCode::SWITCHING_PROTOCOLS {
                        // The connection is the route's now: never idle, no head deadline.
                        *idle_after = None;
                    } else {
                        response
                            .headers_mut()
                            .insert(CONNECTION, HeaderValue::from_static("close"));
                    }
                }
                let pass = pass.take();
                if let Some(budget) = pass.as_ref().and_then(Pass::budget) {
                    charge_answer(&mut response, budget);
                    // Refused here, by the server itself, after every layer.
                    if response.status() == StatusCode::SERVICE_UNAVAILABLE {
                        count_refused_answer(&response, pass.as_ref());
                    }
                }
                Poll::Ready(Ok(served(response, pass, stream.take(), idle_after.take())))
            }
            ConnFuture::Now {
                response,
                stream,
                idle_after,
            } => {
                let response = response.take().unwrap_or_else(crate::response::internal_error);
                Poll::Ready(Ok(served(response, None, stream.take(), idle_after.take())))
            }
            #[cfg(feature = "tls")]
            ConnFuture::Hsts(answer, value) => poll_hsts(answer, value, cx),
        }
    }
}

/// Poll `answer`, and give its response the connection's `Strict-Transport-Security` `value`
/// (out of line: only a TLS connection of an app that asks for HSTS comes here).
#[cfg(feature = "tls")]
#[inline(never)]
fn poll_hsts<F: Future<Output = Response> + Unpin>(
    answer: &mut ConnFuture<F>,
    value: &HeaderValue,
    cx: &mut Context<'_>,
) -> Poll<Result<hyper::Response<ServedBody>, Infallible>> {
    let polled = Pin::new(answer).poll(cx);
    if let Poll::Ready(Ok(mut response)) = polled {
        add_hsts(&mut response, value);
        return Poll::Ready(Ok(response));
    }
    polled
}

/// Count what the bodies of the connection told since its last answer (a missed deadline, a
/// memory refusal, a reset), and close an HTTP/1 connection (`http1`) after `response` when a
/// body was cut: the rest of it may still be on its way.
#[cold]
fn told(response: &mut Response, news: [(News, u64); 3], pass: Option<&Pass>, http1: bool) {
    let mut close = false;
    for (news, count) in news {
        if count == 0 {
            continue;
        }
        close |= news.closes();
        let reason = match news {
            News::DeadlineMissed => Refusal::BodyTimeout,
            News::MemoryRefused => Refusal::MemoryBudget,
            News::MemoryReset => Refusal::MemoryReset,
        };
        if let Some(pass) = pass {
            for _ in 0..count {
                pass.refusals().count(reason);
            }
        }
    }
    if close && http1 {
        response
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
}

/// Count the 503 of a response the memory budget had no room for.
#[cold]
fn count_refused_answer(response: &Response, pass: Option<&Pass>) {
    if let (Some(pass), Some(_)) = (pass, response.extensions().get::<MemoryRefused>()) {
        pass.refusals().count(Refusal::MemoryBudget);
    }
}
