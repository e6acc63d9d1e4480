//! The [`IdempotencyKey`] argument and the app's [`IdempotencyKeys`] (where keys are kept, for how
//! long): a route taking it honours the `Idempotency-Key` request header.
//!
//! Rules enforced here:
//! - the key is read before the route runs (the argument is a dependency): a retry of a finished
//!   request gets the kept answer with `Idempotent-Replayed: true`, one while the first is running
//!   409 with `Retry-After` (the time left on the first attempt's lease, in whole seconds rounded
//!   up, at least 1), the same key with another request 422, all without running the route; a
//!   store of keys that fails is 503;
//! - a request that took its key holds it by a short lease ([`IdempotencyKeys::lease`], 6 s unless
//!   set) that a task of its own renews every third of it until the answer is kept or the key
//!   given up ([`KeyStore::renew`]): a slow route keeps its key however long it runs, and the key
//!   of a process that died frees a lease after its last renewal, not a minute. Issue 43: with a
//!   fixed lease of a minute and no `Retry-After`, a client's default retries gave up with 409
//!   after a killed process. Only a request that took a key starts the task; the task holds no
//!   reference to the request, and ends with it;
//! - the key is `1` to `255` visible ASCII characters, bare or as a structured-field string
//!   (`"…"`, as the draft writes it); anything else is a validation error at
//!   `["header", "idempotency-key"]`; without the header the route runs as it would without the
//!   argument;
//! - the header is single-valued: two `Idempotency-Key` fields, or one holding a list as HTTP
//!   combines repeated fields (`one, two`: a comma outside a quoted key), are a validation error
//!   saying so, before any key is looked up or stored (`extract::single`); before, the first was
//!   used, and a gateway deduplicating on the last one booked twice;
//! - a request's fingerprint is its method, path with query, and body bytes (length and a 64-bit
//!   FNV-1a hash), and in an app with API versions the version served: a retry must send the
//!   same request, at the same version, to be replayed;
//! - the answer is kept by [`IdempotencyKey::keep`], with its status, headers and body, for the
//!   retention period; a 5xx or a streamed answer is not kept (the key is released, so a retry
//!   runs again), nor is an answer when the route never called `keep` (released when the
//!   argument is dropped);
//! - a kept answer has a maximum size ([`IdempotencyKeys::max_kept`], 64 KiB unless set: its body
//!   and its headers' names and values): a larger one is answered but not kept, and the key is
//!   released with it (logged), so a retry runs the route again. Issue 41: a 900 KB id echoed in
//!   a 422 was kept for a day, 1.8 MB in the store, and replayed to every retry;
//! - a request with a key reserves room in the memory budget before its key is looked up: what
//!   reading back the largest answer it may be replayed, or keeping its own, holds (the answer,
//!   and what the store holds per byte of it, [`KeyStore::memory_per_byte`]), held until its
//!   answer is kept or replayed. A request the budget has no room for is answered 503 (with
//!   `Retry-After`) before its key is taken, so a route never runs only to find its answer cannot
//!   be kept; a budget smaller than that room serves keys without it (as a bird read does).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hyper::header::{HeaderName, HeaderValue};
use hyper::StatusCode;
use serde_json::{json, Value};

use super::keys::{Begin, KeptResponse, KeyStore};
use super::memory::MemoryKeys;
use crate::body::BodyInput;
use crate::extract::{
    repeated, single_field, Dependency, Deps, Memory, RequestCx, Reserved, Resolve, StateMap,
};
use crate::openapi::Operation;
use crate::response::{fnv1a, HttpError, IntoResponse, Response};
use crate::validate::{Failure, LocItem, SchemaRegistry, ValidationErrors};

/// The header a replayed answer carries.
pub const REPLAYED: &str = "idempotent-replayed";
/// The request header.
const HEADER: &str = "idempotency-key";
/// The request header as the error messages write it.
const SHOWN: &str = "Idempotency-Key";
/// How long a first attempt holds its key past its last renewal (renewed every third of it while
/// it runs), unless [`IdempotencyKeys::lease`] says otherwise: when its process dies, a retry runs
/// at most this long after. A few seconds: two renewals may be late before a live attempt loses
/// its key, and a client's default retries (`ferrapi-client`'s, 30 s in all) outlast it.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(6);
/// The largest answer kept for a key unless [`IdempotencyKeys::max_kept`] says otherwise: 64 KiB,
/// far above a created resource's answer, far below what a key's retention should hold.
pub const DEFAULT_MAX_KEPT: usize = 64 * 1024;
/// What a key's record holds beside its answer (the key, at most 255 bytes, the fingerprint, the
/// status and the record's own fields), counted in the room a key reserves.
const RECORD_BYTES: usize = 1024;

/// Where an app keeps idempotency keys and for how long; add it with `App::state`. A route taking
/// an [`IdempotencyKey`] needs it (checked when the app is built).
#[derive(Clone)]
pub struct IdempotencyKeys {
    store: Arc<dyn KeyStore>,
    retention: Duration,
    lease: Duration,
    max_kept: usize,
}

impl std::fmt::Debug for IdempotencyKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdempotencyKeys")
            .field("retention", &self.retention)
            .field("lease", &self.lease)
            .field("max_kept", &self.max_kept)
            .finish()
    }
}

impl IdempotencyKeys {
    /// Keys kept in `store`, each answer for `retention`.
    pub fn new(store: impl KeyStore, retention: Duration) -> Self {
        IdempotencyKeys {
            store: Arc::new(store),
            retention,
            lease: DEFAULT_LEASE,
            max_kept: DEFAULT_MAX_KEPT,
        }
    }

    /// Keys kept in this process ([`MemoryKeys`]), each answer for `retention`.
    pub fn in_memory(retention: Duration) -> Self {
        Self::new(MemoryKeys::new(), retention)
    }

    /// How long a first attempt holds its key past its last renewal ([`DEFAULT_LEASE`], 6 s,
    /// unless set). The attempt renews it every third of it while it runs, so the lease need not
    /// outlast the route's slowest answer; it is how soon a retry runs after the process holding
    /// the key died, and what a retry meanwhile is told to wait (`Retry-After` on the 409). Longer
    /// than the store of keys may take to answer a renewal.
    pub fn lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// The largest answer kept for a key, in bytes: its body and its headers' names and values
    /// ([`DEFAULT_MAX_KEPT`], 64 KiB, unless set). A larger answer is sent but not kept, and its
    /// key is released, so a retry runs the route again: a route that may answer more must
    /// derive what it creates from the key (see the manual's "Safe writes"), or raise this.
    /// Every request with a key reserves room for reading back, or keeping, an answer this
    /// large in the memory budget while it runs.
    pub fn max_kept(mut self, bytes: usize) -> Self {
        self.max_kept = bytes;
        self
    }

    /// The room a request with a key reserves in the memory budget: the largest answer it may
    /// replay or keep, its record, and what the store holds per byte of them while it reads or
    /// writes them.
    fn room(&self) -> usize {
        self.max_kept
            .saturating_add(RECORD_BYTES)
            .saturating_mul(self.store.memory_per_byte().saturating_add(1))
    }
}

/// A route argument that makes the route honour `Idempotency-Key`: take it, and answer with
/// [`keep`](IdempotencyKey::keep), which keeps the answer for the key's retries.
#[derive(Clone, Debug)]
pub struct IdempotencyKey(Option<Arc<Held>>);

/// A key this request took.
struct Held {
    keys: IdempotencyKeys,
    key: String,
    fingerprint: String,
    /// Set once `keep` has the answer: nothing to release on drop.
    kept: AtomicBool,
    /// The room reserved for keeping the answer, given back when the key is kept or released.
    _room: Option<Reserved>,
    /// The task renewing the key's lease, stopped when the answer is kept or the key given up.
    renewal: Option<tokio::task::AbortHandle>,
}

impl Held {
    /// Stop renewing the lease: the key is about to be kept or given up.
    fn stop_renewing(&self) {
        if let Some(renewal) = &self.renewal {
            renewal.abort();
        }
    }
}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Held").field("key", &self.key).finish()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.stop_renewing();
        if self.kept.load(Ordering::Acquire) {
            return;
        }
        // The route ended without `keep` (it answered early, or panicked): give the key up so a
        // retry runs, in a task of its own (a drop cannot wait).
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let (keys, key, fingerprint) = (self.keys.clone(), self.key.clone(), self.fingerprint.clone());
            runtime.spawn(async move {
                if let Err(err) = keys.store.release(&key, &fingerprint).await {
                    tracing::warn!(error = %err, "an idempotency key could not be released");
                }
            });
        }
    }
}

impl IdempotencyKey {
    /// The key the request sent, if any.
    pub fn key(&self) -> Option<&str> {
        self.0.as_deref().map(|held| held.key.as_str())
    }

    /// The request's fingerprint (method, path with query, body), when it sent a key: with
    /// [`key`](Self::key), what a route may derive the id of what it creates from, so that an
    /// attempt run again after its first one's process died finds what the first created.
    pub fn fingerprint(&self) -> Option<&str> {
        self.0.as_deref().map(|held| held.fingerprint.as_str())
    }

    /// Answer with `answer`, kept for the key's retries (when the request sent a key, the answer
    /// is not a 5xx and its body is not a stream). [`Kept<R>`] documents the route's answer as
    /// `R` would.
    pub async fn keep<R: IntoResponse>(self, answer: R) -> Kept<R> {
        Kept(self.kept(answer.into_response()).await, PhantomData)
    }

    async fn kept(self, response: Response) -> Response {
        let Some(held) = self.0 else {
            return response;
        };
        held.kept.store(true, Ordering::Release);
        held.stop_renewing();
        let store = &held.keys.store;
        let size = kept_size(&response);
        let kept = match response.body().whole() {
            Some(body) if !response.status().is_server_error() && size <= held.keys.max_kept => {
                KeptResponse {
                    status: response.status().as_u16(),
                    headers: response
                        .headers()
                        .iter()
                        .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
                        .collect(),
                    body: body.clone(),
                }
            }
            whole => {
                if whole.is_some() && !response.status().is_server_error() {
                    tracing::warn!(
                        bytes = size,
                        max_kept = held.keys.max_kept,
                        "an answer is larger than an idempotency key keeps (max_kept): sent, not kept; \
                         the key is released, so a retry runs the route again"
                    );
                }
                if let Err(err) = store.release(&held.key, &held.fingerprint).await {
                    tracing::warn!(error = %err, "an idempotency key could not be released");
                }
                return response;
            }
        };
        let expires = now_ms().saturating_add(millis(held.keys.retention));
        if let Err(err) = store.finish(&held.key, &held.fingerprint, kept, expires).await {
            // The answer still goes out; a retry gets 409 until the lease ends, then runs again.
            tracing::error!(error = %err, "an idempotency key's answer could not be kept");
        }
        response
    }
}

/// An answer [`IdempotencyKey::keep`] kept: made from an `R`, and documented as one (the route
/// macros read through it, as through `Result`).
pub struct Kept<R>(Response, PhantomData<fn() -> R>);

impl<R> std::fmt::Debug for Kept<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Kept").field(&self.0.status()).finish()
    }
}

impl<R> IntoResponse for Kept<R> {
    fn into_response(self) -> Response {
        self.0
    }
}

/// What keeping `response` counts against [`IdempotencyKeys::max_kept`]: its body (a stream
/// counts nothing: it is never kept) and its headers' names and values.
fn kept_size(response: &Response) -> usize {
    let body = response.body().whole().map_or(0, bytes::Bytes::len);
    response.headers().iter().fold(body, |size, (name, value)| {
        size.saturating_add(name.as_str().len() + value.len())
    })
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, millis)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The `Retry-After` of a 409 at `now` for a key held until `lease_until` (both ms since the Unix
/// epoch): the seconds left, rounded up (a retry sent then finds the lease over, not a
/// millisecond early), at least 1 (`0` would invite a retry at once, into the same 409).
fn retry_after_secs(lease_until: u64, now: u64) -> u64 {
    lease_until.saturating_sub(now).div_ceil(1000).max(1)
}

/// Keep the key of a running attempt: renew its lease every third of it, until aborted (the
/// answer is kept or the key given up) or the key is no longer the attempt's. A failed renewal is
/// logged and tried again at the next; the key is lost only if renewals fail for a whole lease.
async fn renew(keys: IdempotencyKeys, key: String, fingerprint: String) {
    // A lease under 3 ms renews every millisecond rather than in a loop that never sleeps.
    let every = (keys.lease / 3).max(Duration::from_millis(1));
    loop {
        tokio::time::sleep(every).await;
        let lease_until = now_ms().saturating_add(millis(keys.lease));
        match keys.store.renew(&key, &fingerprint, lease_until).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(
                    "an idempotency key's lease ran out while its request ran (renewals failed for \
                     a whole lease): a retry may have run the route again"
                );
                return;
            }
            Err(err) => tracing::warn!(error = %err, "an idempotency key's lease could not be renewed"),
        }
    }
}

/// Start renewing the lease of a key this request took, in a task of its own (none without a
/// runtime: nothing then renews, and the key is held for one lease).
fn start_renewing(keys: &IdempotencyKeys, key: &str, fingerprint: &str) -> Option<tokio::task::AbortHandle> {
    let runtime = tokio::runtime::Handle::try_current().ok()?;
    let task = runtime.spawn(renew(keys.clone(), key.to_owned(), fingerprint.to_owned()));
    Some(task.abort_handle())
}

/// Why a header value is not a key.
#[derive(Debug, PartialEq, Eq)]
enum BadKey {
    /// Not 1 to 255 visible ASCII characters, bare or quoted.
    Invalid,
    /// A list: several keys, as HTTP combines repeated fields.
    List,
}

/// The key in the header's value: bare or a structured-field string, 1 to 255 visible ASCII; a
/// comma outside a quoted key makes it a list.
fn parse_key(value: &[u8]) -> Result<String, BadKey> {
    let text = std::str::from_utf8(value).map_err(|_| BadKey::Invalid)?.trim();
    let (key, rest) = match text.strip_prefix('"') {
        Some(quoted) => quoted.split_once('"').ok_or(BadKey::Invalid)?,
        None if text.contains(',') => return Err(BadKey::List),
        None => (text, ""),
    };
    let rest = rest.trim_start();
    if rest.starts_with(',') {
        return Err(BadKey::List);
    }
    let valid = rest.is_empty()
        && (1..=255).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\');
    if valid {
        Ok(key.to_owned())
    } else {
        Err(BadKey::Invalid)
    }
}

/// The request's fingerprint: method, path with query, body.
fn fingerprint(cx: &RequestCx<'_>) -> String {
    let parts = cx.parts();
    let body: &[u8] = match cx.body_input() {
        BodyInput::Json(bytes) | BodyInput::Text(bytes) => bytes,
        BodyInput::Missing | BodyInput::Stream(_) | BodyInput::Form(_) => &[],
    };
    let target = parts.uri.path_and_query().map_or("", |pq| pq.as_str());
    // In an app with versions, the version too: the same request at another version is another
    // request (its answer differs). Without versions, the hash is what it was.
    let version: &[u8] = cx.version_date.map_or(&[], str::as_bytes);
    let hash = fnv1a([
        parts.method.as_str().as_bytes(),
        b"\n",
        target.as_bytes(),
        b"\n",
        body,
        version,
    ]);
    format!("{}-{hash:016x}", body.len())
}

/// The answer to a request whose key is busy or used for another request.
fn refusal(status: u16, detail: &str) -> Response {
    HttpError::new(status, detail).into_response()
}

/// The 409 of a key whose first attempt still holds it until `lease_until`, at `now`: in the
/// app's error format, with `Retry-After` (see [`retry_after_secs`]).
fn busy(lease_until: u64, now: u64) -> Response {
    HttpError::new(
        409,
        "A request with this Idempotency-Key is being processed; retry later",
    )
    .with_header(
        hyper::header::RETRY_AFTER,
        HeaderValue::from(retry_after_secs(lease_until, now)),
    )
    .into_response()
}

/// The 422 of a key used for another request, in the shape of every other 422 (the document's
/// `HTTPValidationError`, which generated clients parse), at the header's location.
fn reused(key: &str) -> Response {
    crate::response::error_response(
        StatusCode::UNPROCESSABLE_ENTITY,
        &json!([{
            "type": "idempotency_key_reused",
            "loc": ["header", HEADER],
            "msg": "This Idempotency-Key was used for another request",
            "input": key,
        }]),
    )
}

/// A kept answer, replayed with the marker header.
fn replay(kept: KeptResponse) -> Response {
    let mut response = hyper::Response::new(crate::response::Body::from(kept.body));
    *response.status_mut() = StatusCode::from_u16(kept.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    for (name, value) in kept.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::from_bytes(&value)) {
            headers.append(name, value);
        }
    }
    headers.insert(
        HeaderName::from_static(REPLAYED),
        HeaderValue::from_static("true"),
    );
    response
}

/// What the first step hands the second: the keys, the key, the fingerprint and the memory budget
/// (`None`: no key).
pub struct Pending(Option<(IdempotencyKeys, String, String, Memory)>);

impl Dependency for IdempotencyKey {
    fn extract(cx: &RequestCx<'_>, errors: &mut ValidationErrors) -> Option<impl Resolve<Self> + use<>> {
        let value = match single_field(cx.headers(), HEADER, SHOWN) {
            Ok(Some(value)) => value,
            Ok(None) => return Some(Pending(None)),
            Err(repeated_fields) => {
                errors.push(repeated_fields);
                return None;
            }
        };
        let key = match parse_key(value.as_bytes()) {
            Ok(key) => key,
            Err(BadKey::List) => {
                errors.push(repeated(HEADER, SHOWN, std::iter::once(value.as_bytes())));
                return None;
            }
            Err(BadKey::Invalid) => {
                errors.push(
                    Failure::new(
                        "value_error",
                        "Value error, an idempotency key is 1 to 255 visible ASCII characters",
                    )
                    .at(
                        vec![LocItem::Static("header"), LocItem::Static(HEADER)],
                        Value::from(String::from_utf8_lossy(value.as_bytes()).into_owned()),
                    ),
                );
                return None;
            }
        };
        let Some(keys) = cx.state::<IdempotencyKeys>() else {
            tracing::error!("a route takes `IdempotencyKey` but the app holds no `IdempotencyKeys`");
            return None;
        };
        Some(Pending(Some((
            (*keys).clone(),
            key,
            fingerprint(cx),
            Memory::of(cx),
        ))))
    }

    fn doc(op: &mut Operation, _registry: &mut SchemaRegistry) {
        op.header_param(
            "Idempotency-Key",
            json!({ "type": "string", "title": "Idempotency-Key", "maxLength": 255 }),
            false,
        );
        op.dependency_response(409, "A request with this Idempotency-Key is being processed");
        op.dependency_response_header(
            409,
            "Retry-After",
            json!({
                "description": "Seconds until the first attempt's lease on the key ends (at least 1): \
                                when a retry may run",
                "schema": { "type": "integer", "minimum": 1 }
            }),
        );
    }

    fn check(state: &StateMap) -> Result<(), String> {
        if state.contains(std::any::TypeId::of::<IdempotencyKeys>()) {
            Ok(())
        } else {
            Err(
                "a route takes `IdempotencyKey` but the app holds no `IdempotencyKeys`; add one with \
                 `App::state(IdempotencyKeys::in_memory(retention))`"
                    .to_owned(),
            )
        }
    }
}

impl Resolve<IdempotencyKey> for Pending {
    async fn resolve(self, _deps: &mut Deps) -> Result<IdempotencyKey, Response> {
        let Some((keys, key, fingerprint, memory)) = self.0 else {
            return Ok(IdempotencyKey(None));
        };
        // Before the key is looked up: a replay's answer is read under this room, and a first
        // attempt keeps its answer under it.
        let room = match memory.reserve(keys.room()).await {
            Ok(room) => Some(room),
            // A budget smaller than the room: keys are served without it, as a bird read is.
            Err(refused) if refused.is_too_large() => None,
            Err(refused) => return Err(refused.into_response()),
        };
        let now = now_ms();
        let lease_until = now.saturating_add(millis(keys.lease));
        match keys.store.begin(&key, &fingerprint, now, lease_until).await {
            Ok(Begin::Run) => {
                let renewal = start_renewing(&keys, &key, &fingerprint);
                Ok(IdempotencyKey(Some(Arc::new(Held {
                    keys,
                    key,
                    fingerprint,
                    kept: AtomicBool::new(false),
                    _room: room,
                    renewal,
                }))))
            }
            // The room is given back as the replayed answer is handed on (charged in its turn
            // when it is 4 KiB or more).
            Ok(Begin::Replay(kept)) => Err(replay(kept)),
            Ok(Begin::InProgress { lease_until }) => Err(busy(lease_until, now)),
            Ok(Begin::Mismatch) => Err(reused(&key)),
            Err(err) => {
                tracing::error!(error = %err, "idempotency keys unavailable");
                Err(refusal(503, "Service Unavailable"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_bare_or_quoted_visible_ascii() {
        assert_eq!(parse_key(b"abc-123").as_deref(), Ok("abc-123"));
        assert_eq!(parse_key(b"\"8e03978e-40d5\"").as_deref(), Ok("8e03978e-40d5"));
        assert_eq!(
            parse_key(b" \"a,b\" ").as_deref(),
            Ok("a,b"),
            "a comma inside a quoted key"
        );
        for bad in [
            &b""[..],
            b"\"\"",
            b"a b",
            b"\"abc",
            "é".as_bytes(),
            &[b'a'; 256],
            b"\"a\"b",
        ] {
            assert_eq!(parse_key(bad), Err(BadKey::Invalid), "{bad:?}");
        }
        assert!(parse_key(&[b'a'; 255]).is_ok());
    }

    #[test]
    fn retry_after_is_the_lease_left_in_whole_seconds_rounded_up_at_least_one() {
        assert_eq!(retry_after_secs(10_000, 4_000), 6, "a whole lease left");
        assert_eq!(retry_after_secs(10_000, 8_999), 2, "1.001 s: 2, never early");
        assert_eq!(retry_after_secs(10_000, 9_000), 1);
        assert_eq!(retry_after_secs(10_000, 9_999), 1);
        assert_eq!(retry_after_secs(10_000, 10_000), 1, "never 0");
        assert_eq!(retry_after_secs(10_000, 20_000), 1, "a clock past the lease");
        assert_eq!(retry_after_secs(u64::MAX, 0), u64::MAX.div_ceil(1000));
    }

    use crate::idempotency::KeyFuture;

    /// A store of keys that counts its renewals, and answers them "no longer yours" once `lost`.
    #[derive(Default)]
    struct Renewals {
        renewed: std::sync::Mutex<Vec<u64>>,
        lost: AtomicBool,
    }

    impl KeyStore for Arc<Renewals> {
        fn begin<'a>(&'a self, _: &'a str, _: &'a str, _: u64, _: u64) -> KeyFuture<'a, Begin> {
            Box::pin(std::future::ready(Ok(Begin::Run)))
        }
        fn finish<'a>(&'a self, _: &'a str, _: &'a str, _: KeptResponse, _: u64) -> KeyFuture<'a, ()> {
            Box::pin(std::future::ready(Ok(())))
        }
        fn release<'a>(&'a self, _: &'a str, _: &'a str) -> KeyFuture<'a, ()> {
            Box::pin(std::future::ready(Ok(())))
        }
        fn renew<'a>(&'a self, _: &'a str, _: &'a str, lease_until: u64) -> KeyFuture<'a, bool> {
            if let Ok(mut renewed) = self.renewed.lock() {
                renewed.push(lease_until);
            }
            Box::pin(std::future::ready(Ok(!self.lost.load(Ordering::SeqCst))))
        }
    }

    fn renewals(store: &Arc<Renewals>) -> Vec<u64> {
        store.renewed.lock().map(|r| r.clone()).unwrap_or_default()
    }

    #[tokio::test(start_paused = true)]
    async fn a_running_key_is_renewed_every_third_of_its_lease_until_stopped() {
        let store = Arc::new(Renewals::default());
        let keys = IdempotencyKeys::new(store.clone(), Duration::from_secs(60)).lease(Duration::from_secs(3));
        let renewal = start_renewing(&keys, "k", "f");
        assert!(renewal.is_some(), "a runtime: renewed");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(renewals(&store).len(), 0, "not before a third of the lease");
        tokio::time::sleep(Duration::from_millis(2_600)).await;
        let renewed = renewals(&store);
        assert_eq!(renewed.len(), 3, "at 1 s, 2 s and 3 s");
        let now = now_ms();
        assert!(
            renewed.iter().all(|until| *until > now && *until <= now + 3_000),
            "each holds a lease from its time: {renewed:?} at {now}"
        );
        if let Some(renewal) = renewal {
            renewal.abort();
        }
        tokio::time::sleep(Duration::from_secs(10)).await;
        assert_eq!(renewals(&store).len(), 3, "stopped: the answer is kept");

        // A key no longer the attempt's: the renewals end by themselves.
        let lost = Arc::new(Renewals::default());
        lost.lost.store(true, Ordering::SeqCst);
        let keys = IdempotencyKeys::new(lost.clone(), Duration::from_secs(60)).lease(Duration::from_secs(3));
        let renewal = start_renewing(&keys, "k", "f");
        tokio::time::sleep(Duration::from_secs(10)).await;
        assert_eq!(renewals(&lost).len(), 1, "one renewal found the key gone");
        assert!(renewal.is_some_and(|task| task.is_finished()));
    }

    #[test]
    fn without_a_runtime_nothing_renews() {
        let keys = IdempotencyKeys::in_memory(Duration::from_secs(60));
        assert!(start_renewing(&keys, "k", "f").is_none());
    }

    #[test]
    fn a_list_of_keys_is_told_apart() {
        for list in [
            &b"one, two"[..],
            b"one,two",
            b"\"one\", \"two\"",
            b"\"one\",two",
            b"one,",
        ] {
            assert_eq!(parse_key(list), Err(BadKey::List), "{list:?}");
        }
    }
}
