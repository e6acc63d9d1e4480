//! Running a matched route: its body read in the route's mode, its `RequestCx` built, its one
//! generated handler called with its groups' dependencies; and [`Run`], where the answer is
//! while the request is under way.
//!
//! Rules enforced here:
//! - the body is taken as the route's [`BodyMode`] says: not at all; read whole, never beyond the
//!   body limit (413), after one poll without a waker (a small body is usually whole by the time
//!   its head is routed, and then the route runs at once, without boxing the request to wait);
//!   or handed over unread, after a declared length over the upload limit is refused (413); or,
//!   for a route that takes files, read as a form (`extract::read_form`, files spooled to
//!   temporary files) in the route's future, before the handler runs on it;
//! - the handler is called in one place ([`call`]), with its `RequestCx` built in one place
//!   ([`request_cx`]), whichever way the body came: at once, once a body that was not whole has
//!   come, or inside the future that read a form with files ([`form_then_call`]);
//! - the route's answer (its reader's or its handler's) is looked at here, below any layer, for a
//!   refusal of the memory budget, which is told to the server ([`note`]; `body/handed.rs`): a
//!   layer may replace the answer;
//! - a panic in the handler, before or after it returns its future, is a logged 500 (the app's,
//!   when it has one: `App::on_internal_error`).

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::http::request::Parts;

use hyper::StatusCode;

use super::panic::{panic_message, CatchPanic};
use super::{Compiled, Received, Target};
use crate::body::{
    body_input, read_form, BodyInput, BodyReader, FormLimits, Heard, Limit, Look, News, StreamSlot,
    SPOOL_THRESHOLD,
};
use crate::budget::Charge;
use crate::extract::{PathParams, RequestCx};
use crate::response::{
    internal_answer, internal_error, Body, BoxError, ErrorAnswers, InternalAnswer, MemoryRefused, Response,
};
use crate::routing::{BodyMode, BoxFuture, Started};
use crate::trace::TraceIds;
use crate::versions::{routed_path, Chosen};

/// Where the answer to a request is, until it is ready.
pub(crate) enum Run<B> {
    /// The answer; `Pending` once handed out. (A `Poll`, the future's own output type, so the
    /// answer leaves in one copy, by `mem::replace`, rather than through `Option::take` and a
    /// rewrap: two copies of a 150-byte value.)
    Ready(Poll<Response>),
    /// A future of the answer: a handler's, or a layer stack's.
    Running {
        future: CatchPanic,
        /// The route's name, for the log of a panic.
        route: &'static str,
        /// The app's 500, when it overrides FastAPI's (so a request of an app without the
        /// override carries an empty slot, and no reference count).
        on_panic: Option<InternalAnswer>,
        /// What the request's body and its parse hold against the memory budget, given back
        /// with the answer (the values the handler took go with its future).
        _charge: Option<Charge>,
        /// Where the server hears of a refusal in the answer: a route's future only (a layer
        /// stack's answers are not the route's).
        heard: Option<Arc<Heard>>,
    },
    /// A route waiting for its body.
    Reading(Box<Reading<B>>),
}

/// A route that still needs its body.
pub(crate) struct Reading<B> {
    inner: Arc<Compiled>,
    route: usize,
    parts: Parts,
    params: PathParams,
    version: Chosen,
    trace: Option<TraceIds>,
    reader: BodyReader<B>,
}

impl<B> Run<B> {
    /// The answer, now.
    #[inline(always)]
    pub(super) fn ready(response: Response) -> Self {
        Run::Ready(Poll::Ready(response))
    }

    /// `future` answers, under the name `route` (for the log of a panic), holding `charge`
    /// until it does; a route's answer is told to `heard` when it is a refusal.
    pub(super) fn running(
        future: BoxFuture,
        route: &'static str,
        answers: &ErrorAnswers,
        (charge, heard): (Option<Charge>, Option<&Arc<Heard>>),
    ) -> Self {
        Run::Running {
            future: CatchPanic::new(future),
            route,
            on_panic: answers.internal.clone(),
            _charge: charge,
            heard: heard.cloned(),
        }
    }
}

impl<B> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    /// Poll the answer, once it is not [`Run::Ready`]; a route whose body is whole goes on to
    /// its handler here.
    pub(super) fn poll_answer(&mut self, cx: &mut Context<'_>) -> Poll<Response> {
        loop {
            match self {
                Run::Ready(slot) => {
                    // Polled again after answering.
                    if slot.is_pending() {
                        *slot = Poll::Ready(internal_error());
                    }
                    return std::mem::replace(slot, Poll::Pending);
                }
                Run::Running {
                    future,
                    route,
                    on_panic,
                    heard,
                    ..
                } => {
                    return Pin::new(future).poll(cx).map(|outcome| {
                        let response = outcome.unwrap_or_else(|message| {
                            tracing::error!(route = *route, panic = %message, "handler panicked");
                            internal_answer(on_panic.as_ref())
                        });
                        note(heard.as_ref(), &response);
                        response
                    });
                }
                Run::Reading(reading) => match reading.poll_on(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(next) => *self = next,
                },
            }
        }
    }
}

impl<B> Reading<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    /// Read on; once the body is whole, call the handler: what answers the request next.
    fn poll_on(&mut self, cx: &mut Context<'_>) -> Poll<Run<B>> {
        let bytes = match self.reader.poll_read(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Err(response)) => return Poll::Ready(refused_now(self.reader.heard(), response)),
            Poll::Ready(Ok(bytes)) => bytes,
        };
        let charge = self.reader.take_charge();
        let Some(target) = self.inner.targets.get(self.route) else {
            return Poll::Ready(Run::ready(internal_error()));
        };
        let input = body_input(&self.parts.headers, bytes);
        let heard = self.reader.heard();
        Poll::Ready(call(
            (&self.inner, target),
            (&self.parts, &self.params, self.version, self.trace.as_ref()),
            &input,
            (charge, heard),
        ))
    }
}

/// Run route `index`, which `parts` matched with `params`: take its body in its mode, then call
/// its handler. The head is lent, not moved: the handler only borrows it, and each move of its
/// 224 bytes down the path was a copy (≈ 30 instructions, callgrind `GET /item/42`); the ways
/// that keep it past this call (a body still to come, a form) take it out ([`take_parts`]).
#[inline(always)]
pub(super) fn run<B>(
    inner: &Arc<Compiled>,
    index: usize,
    target: &Target,
    parts: &mut Parts,
    (body, handed): Received<'_, B>,
    (params, version, trace): (PathParams, Chosen, Option<&TraceIds>),
) -> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Look + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let heard = handed.heard;
    let (input, charge) = match target.def.body {
        BodyMode::None => (BodyInput::Missing, None),
        BodyMode::Whole => {
            let charge = inner.budget.as_ref().map(Charge::new);
            let limit = Limit::of_usize(inner.config.body_limit);
            let step = inner.config.body_min_rate.unwrap_or(0);
            let mut reader = match BodyReader::new(body, limit, charge, (handed, step)) {
                Ok(reader) => reader,
                Err(response) => return refused_now(heard, response),
            };
            // If the body is not whole yet, the future polls it again with its task's waker
            // before waiting.
            match reader.first_look() {
                Poll::Ready(Ok(bytes)) => (body_input(&parts.headers, bytes), reader.take_charge()),
                Poll::Ready(Err(response)) => return refused_now(heard, response),
                Poll::Pending => {
                    return Run::Reading(Box::new(Reading {
                        inner: inner.clone(),
                        route: index,
                        parts: take_parts(parts),
                        params,
                        version,
                        trace: trace.copied(),
                        reader,
                    }))
                }
            }
        }
        BodyMode::Stream => match unread(inner, body) {
            Ok(slot) => (BodyInput::Stream(slot), None),
            Err(response) => return Run::ready(response),
        },
        BodyMode::Form => {
            return form_then_call(
                inner,
                (index, target),
                take_parts(parts),
                (body, heard),
                (params, version, trace),
            )
        }
    };
    call(
        (inner, target),
        (parts, &params, version, trace),
        &input,
        (charge, heard),
    )
}

/// The request head `parts` lends, taken out of it (left a blank head, which is only dropped):
/// for the ways that keep the head past the call that lent it.
#[cold]
pub(super) fn take_parts(parts: &mut Parts) -> Parts {
    let (blank, ()) = hyper::Request::new(()).into_parts();
    std::mem::replace(parts, blank)
}

/// The answer `response` of the route's reader, now, told to `heard` when it is a refusal.
#[cold]
fn refused_now<B>(heard: Option<&Arc<Heard>>, response: Response) -> Run<B> {
    note(heard, &response);
    Run::ready(response)
}

/// The unread body of a route that streams it, or the 413 of one declared over the upload limit.
#[cold]
fn unread<B>(inner: &Compiled, body: B) -> Result<StreamSlot, Response>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let config = &inner.config;
    StreamSlot::unread(body, Limit::new(config.upload_limit), config.upload_part_limit)
}

/// Run a route that takes files: a future that reads the body as a form (the 413 of a declared
/// length over the upload limit at once), then calls the handler on it and awaits its answer.
#[cold]
fn form_then_call<B>(
    inner: &Arc<Compiled>,
    (index, target): (usize, &Target),
    parts: Parts,
    (body, heard): (B, Option<&Arc<Heard>>),
    (params, version, trace): (PathParams, Chosen, Option<&TraceIds>),
) -> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let config = &inner.config;
    let limits = FormLimits {
        total: Limit::new(config.upload_limit),
        part: config.upload_part_limit,
        urlencoded: Limit::of_usize(config.body_limit),
        spool_threshold: SPOOL_THRESHOLD,
    };
    if let Err(response) = limits.total.check_declared(&body.size_hint()) {
        return Run::ready(response);
    }
    let (name, answers) = (target.def.name, &inner.shared.answers);
    let inner = inner.clone();
    let trace = trace.copied();
    let future = async move {
        let charge = inner.budget.as_ref().map(Charge::new);
        let input = match read_form(&parts.headers, Body::new(body), limits, charge.as_ref()).await {
            Ok(form) => BodyInput::Form(form),
            Err(response) => return response,
        };
        let Some(target) = inner.targets.get(index) else {
            return internal_error();
        };
        // This future's answer is told to the server (`heard`), the handler's with it.
        let mut run: Run<B> = call(
            (&inner, target),
            (&parts, &params, version, trace.as_ref()),
            &input,
            (charge, None),
        );
        std::future::poll_fn(|cx| run.poll_answer(cx)).await
    };
    Run::running(Box::pin(future), name, answers, (None, heard))
}

/// The request as a route's handler sees it: the one place a `RequestCx` is built.
#[inline(always)]
fn request_cx<'a>(
    inner: &'a Compiled,
    parts: &'a Parts,
    (params, version): (&'a PathParams, Chosen),
    input: &'a BodyInput,
    (charge, trace): (Option<&'a Charge>, Option<&'a TraceIds>),
) -> RequestCx<'a> {
    let full = parts.uri.path();
    // Without versions, one test of the loaded `Option`; the version's path prefix (when it
    // came from there) is not the routes'.
    let (path, version_date, shape_date) = match &inner.versions {
        None => (full, None, None),
        Some(set) => (
            routed_path(full, version),
            set.date(version.index),
            set.shape_date(version.index),
        ),
    };
    RequestCx {
        parts,
        path,
        params,
        body_input: input,
        shared: &inner.shared,
        charge,
        budget: inner.budget.as_ref(),
        version,
        trace,
        tracer: inner.tracer.as_ref(),
        version_date,
        shape_date,
    }
}

/// Call the handler of `target` on the request: the one place a handler is called. Its answer
/// is told to `heard` when it is a refusal of the memory budget.
// Inlined into `run`, so the answer is built where the future is: each function boundary
// otherwise copies the 150-byte response once more (-45 instructions).
#[inline(always)]
fn call<B>(
    (inner, target): (&Arc<Compiled>, &Target),
    (parts, params, version, trace): (&Parts, &PathParams, Chosen, Option<&TraceIds>),
    input: &BodyInput,
    (charge, heard): (Option<Charge>, Option<&Arc<Heard>>),
) -> Run<B> {
    let cx = request_cx(inner, parts, (params, version), input, (charge.as_ref(), trace));
    let def = &target.def;
    let answers = &inner.shared.answers;
    match catch_unwind(AssertUnwindSafe(|| (def.handler)(&cx, &target.dependencies))) {
        Ok(Started::Later(future)) => Run::running(future, def.name, answers, (charge, heard)),
        // Only a refusal is lent out to be noted, so a plain answer is only moved. The answer's
        // one copy into the `Run` (≈ 29 instructions of `memcpy`, callgrind `GET /item/42`) is
        // still there: not made by the lending (BENCHMARKS.md, "One hyper server").
        Ok(Started::Now(response)) => {
            if is_refusal(response.status()) {
                note_refusal(heard, &response);
            }
            Run::Ready(Poll::Ready(response))
        }
        Err(payload) => Run::ready(panicked(def.name, &*payload, answers)),
    }
}

/// Tell `heard` of `response` when it answers a refusal of the memory budget (see
/// [`note_refusal`]).
#[inline(always)]
fn note(heard: Option<&Arc<Heard>>, response: &Response) {
    if is_refusal(response.status()) {
        note_refusal(heard, response);
    }
}

/// Whether an answer of `status` may be a refusal of the memory budget (a 413 or 503), which
/// `heard` is told of (see [`note_refusal`]).
#[inline(always)]
fn is_refusal(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::PAYLOAD_TOO_LARGE | StatusCode::SERVICE_UNAVAILABLE
    )
}

/// Tell `heard` of `response` when it answers a refusal of the memory budget (a 413 or 503
/// marked so): the route's answer, before any layer can replace it.
#[cold]
fn note_refusal(heard: Option<&Arc<Heard>>, response: &Response) {
    if let (Some(heard), Some(_)) = (heard, response.extensions().get::<MemoryRefused>()) {
        heard.tell(News::MemoryRefused);
    }
}

/// The answer to a handler that panicked before returning (out of line, as the misses above).
#[cold]
fn panicked(route: &'static str, payload: &(dyn std::any::Any + Send), answers: &ErrorAnswers) -> Response {
    tracing::error!(route, panic = %panic_message(payload), "handler panicked");
    answers.internal()
}
