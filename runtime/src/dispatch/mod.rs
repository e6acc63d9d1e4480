//! Dispatch: answering one request. This is the per-request path; the server calls
//! [`dispatch`] for every request it reads, and [`Service::handle`] calls it in-process. Every
//! request takes the same way, top to bottom:
//!
//! 1. **observe** (`observe.rs`): only when the access line is on or the app has request ids or
//!    metrics; the request's id, clock and metrics start here (else one check, then nothing);
//! 2. **route** (`routed.rs`): the one routing function: the metrics endpoint, the docs pages, or
//!    the router (a route, 404 or 405);
//! 3. **the app's layers** (`proceed.rs`), when it has them: the request goes down the stack,
//!    whose innermost service (`innermost.rs`) routes the request it is given and carries it on;
//! 4. **the route's own layers** (`proceed.rs`), when its groups have them: its groups' layers,
//!    composed for the route when the app is built, ending in the route itself (`innermost.rs`);
//! 5. **run the route** (`run.rs`): read its body in the route's mode (none, whole, handed over
//!    unread), build its `RequestCx` (in one place), and call its one generated handler with its
//!    groups' dependencies, which answers now or returns the future of the answer;
//! 6. **answer** (`response_future.rs`): the one response future polls that, records the answer
//!    (id, access line, metrics; an answer ready at once is recorded before the future is made,
//!    so its observer need not be boxed) and strips a HEAD answer's body.
//!
//! What differs between apps and routes (layers or not, group stacks or dependencies or not, body
//! mode, observed or not) is data chosen when the app is built (`compiled.rs`: [`Compiled`],
//! [`Target`]), not another copy of this path. Its other files: `service` (the compiled app as a
//! service), `endpoint` (what a layer wraps), `innermost` (the bottoms of the stacks, and where
//! stacks are built), `panic` (a panic is a 500).
//!
//! Rules enforced here:
//! - everything up to the handler's future runs synchronously when the route takes no body, or
//!   when its body is already whole (one poll without a waker tells): the returned future is
//!   small (the boxed user future, or a ready response) and owns nothing of the request but what
//!   the user's function took;
//! - nothing comes back up from a layer stack into this path: what the bottom of a stack needs
//!   it reads from the request it is given, or was built with;
//! - what the server hands over with a body (`body/handed.rs`) goes to the route's reader, and
//!   what became of the body goes back to the server that way, never in the answer;
//! - a route outside groups with layers or dependencies pays one test for them each;
//!   an app without layers pays one `Option` test; an unobserved request one test (the observer
//!   is monomorphised away);
//! - routes with a body read it by polling, never beyond the limit (413), then validate it;
//! - a panic while extracting, inside the handler or inside a layer is a logged 500; the 404, 405,
//!   validation and 500 answers are the app's (FastAPI's unless overridden,
//!   `response/answers.rs`);
//! - HEAD responses keep GET's headers (with the length) and drop the body.

use std::sync::Arc;
use std::task::Poll;

use bytes::Bytes;
use hyper::http::request::Parts;
use hyper::Method;

mod compiled;
mod endpoint;
mod innermost;
mod observe;
mod panic;
mod proceed;
mod response_future;
mod routed;
mod run;
mod service;
mod span;

pub use compiled::MatchedRoute;
pub(crate) use compiled::{Compiled, Target};
pub(crate) use endpoint::LayerFn;
pub use endpoint::{Endpoint, EndpointFuture};
pub(crate) use observe::{Observed, RequestId, X_REQUEST_ID_NAME};
pub(crate) use response_future::ResponseFuture;
pub use response_future::ServiceFuture;
pub use service::Service;

use crate::body::{Handed, Look};
use crate::logging::ACCESS_TARGET;
use crate::response::BoxError;
use crate::versions::{Chosen, Echo};
use observe::Hook;
use routed::route;
use run::Run;

/// A request body, and what the server handed over with it (`body/handed.rs`).
pub(crate) type Received<'a, B> = (B, Handed<'a>);

/// Whether the access line is on: decided once by ferrapi's log, else asked of `tracing` (a
/// callsite's cached interest, which still consults the subscriber's filter per request).
#[inline(always)]
fn access_log_on() -> bool {
    match crate::logging::access_on() {
        Some(on) => on,
        None => tracing::enabled!(target: ACCESS_TARGET, tracing::Level::INFO),
    }
}

/// Start answering the request of head `parts` and body `body` (with what the server handed over
/// with it) with the app `inner`, whose layer stack (if it has layers) is `stack`. Taken apart
/// rather than as a `Request`: the server wraps the body it hands over, and a `Request` rebuilt
/// around it cost a copy of the head. The head is lent, and stays where the server took the
/// request apart: each move of its 224 bytes down the path was a copy (≈ 30 instructions,
/// callgrind `GET /item/42`); only the ways that keep it past the call take it (`run::take_parts`).
#[inline]
pub(crate) fn dispatch<B>(
    inner: &Arc<Compiled>,
    stack: Option<&Endpoint>,
    parts: &mut Parts,
    body: Received<'_, B>,
) -> ResponseFuture<B>
where
    B: hyper::body::Body<Data = Bytes> + Look + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let is_head = parts.method == Method::HEAD;
    let log = access_log_on();
    if log || inner.observe {
        return dispatch_observed(inner, stack, parts, body, log, is_head);
    }
    let mut echo = None;
    let mut run = begin(inner, stack, parts, body, (&mut (), &mut echo));
    let echo = echo_now_or_later(inner, &mut run, echo);
    ResponseFuture::new(run, None, is_head, echo)
}

/// In an app with versions, the echo of the version `chosen` (see `versions/chosen.rs`): given
/// to an answer ready at once now, from the app's set, else returned for the future to give.
#[inline(always)]
fn echo_now_or_later<B>(inner: &Compiled, run: &mut Run<B>, chosen: Option<Chosen>) -> Option<Echo> {
    let (Some(chosen), Some(versions)) = (chosen, &inner.versions) else {
        return None;
    };
    match run {
        Run::Ready(Poll::Ready(response)) => {
            versions.echo(chosen.index, response.headers_mut());
            None
        }
        _ => Some(Echo::new(versions, chosen)),
    }
}

/// [`dispatch`] for a request that is observed (see `observe.rs`).
#[inline(never)]
fn dispatch_observed<B>(
    inner: &Arc<Compiled>,
    stack: Option<&Endpoint>,
    parts: &mut Parts,
    body: Received<'_, B>,
    log: bool,
    is_head: bool,
) -> ResponseFuture<B>
where
    B: hyper::body::Body<Data = Bytes> + Look + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let mut observed = Observed::begin(inner, parts, log);
    // The answer is recorded where it was made, then moved once, into the future built where it
    // is returned: a future finished in a local was copied out again (≈ 30 instructions per
    // request, callgrind), and moving the answer out of its `Run` cost three copies (≈ 90).
    let mut echo = None;
    let mut run = begin(inner, stack, parts, body, (&mut observed, &mut echo));
    // Echoed before it is recorded (the access line and the id come after), once.
    let echo = echo_now_or_later(inner, &mut run, echo);
    // Answered synchronously (most requests): recorded now, so the observer stays on the stack;
    // only an answer still under way takes it along, boxed.
    let pending = match &mut run {
        Run::Ready(Poll::Ready(response)) => {
            observed.record(response);
            None
        }
        _ => Some(Box::new(observed)),
    };
    ResponseFuture::new(run, pending, is_head, echo)
}

/// Steps 2 to 5 of the module's flow for the request of `parts` and `body`: route it, then down
/// the app's layers (when it has them) or on to the route; in an app with versions, the version
/// the answer echoes is set in `echo`.
// `echo` is written through rather than returned beside the `Run`: returned as a tuple, the
// answer took one more copy (callgrind `GET /item/42` without versions: +64 instructions over the
// base with the tuple, -30 written through; BENCHMARKS.md, issue 44).
#[inline(always)]
fn begin<B, H: Hook>(
    inner: &Arc<Compiled>,
    stack: Option<&Endpoint>,
    parts: &mut Parts,
    body: Received<'_, B>,
    (hook, echo): (&mut H, &mut Option<Chosen>),
) -> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Look + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let routed = route(inner, parts, hook);
    if let Some(versions) = &inner.versions {
        let chosen = routed.version();
        *echo = Some(chosen);
        // Tags sent back from this version's answers, as the route made them (`versions/tags.rs`).
        versions.untag(&mut parts.headers, chosen);
        hook.versioned(versions, chosen);
    }
    let trace = hook.trace();
    // The layers' `call`, the extraction and the handler's first poll run in the request.
    let _entered = hook.enter();
    match stack {
        // The app's stack routes again what reaches its bottom: routed here for the layers'
        // `MatchedRoute` and the observer.
        Some(stack) => {
            let target = match &routed {
                routed::Routed::Route { index, .. } => inner.targets.get(*index),
                _ => None,
            };
            proceed::through(stack, inner, run::take_parts(parts), body, (target, trace))
        }
        None => proceed::onward(inner, parts, body, routed, trace),
    }
}
