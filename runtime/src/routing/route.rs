//! The contract between the route macros and the runtime.
//!
//! Rules enforced here: a route is plain data (method, template, handler pointer, body mode,
//! OpenAPI fragment builder) produced by `#[get]`/`#[post]`/…; the runtime never needs to know the
//! handler's argument types. Each route has one generated [`Handler`]: it takes the request and
//! the dependencies of the route's groups (an empty slice outside such groups, which costs the
//! route one length test) and says whether it answered now or will later ([`Started`]).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use hyper::Method;

use crate::extract::{DependencyFn, RequestCx, StateMap};
use crate::openapi::Operation;
use crate::response::{internal_error, Response};
use crate::validate::SchemaRegistry;
use crate::versions::VersionRange;

/// The boxed future a handler returns.
pub(crate) type BoxFuture = Pin<Box<dyn Future<Output = Response> + Send + 'static>>;

/// What a generated handler did with a request.
// Not boxed: `Now` is the common answer, and it is moved once into the response future.
#[allow(clippy::large_enum_variant)]
pub enum Started {
    /// It answered at once: a 422, say, or the answer of a function that cannot suspend (see
    /// `complete_now`).
    Now(Response),
    /// The answer comes from this future: the boxed call of the route function (and of its
    /// dependencies, its groups' first).
    Later(BoxFuture),
}

/// A generated handler: extracts and validates the arguments, reads the inputs of `group` (the
/// dependencies of the route's groups, outermost group first; empty outside such groups) with
/// them, and starts the answer ([`Started`]). The groups' dependencies are resolved before the
/// route's own, in the request's one [`Deps`](crate::arg::Deps), so a dependency both use runs
/// once. Extraction borrows the request, so nothing of it is copied into the future.
pub type Handler = for<'a, 'b> fn(&'b RequestCx<'a>, &'b [DependencyFn]) -> Started;

/// Run the call of a route function whose body has no `.await` (the route macro checked its
/// tokens) to completion, here and now, and convert its result with `respond`: such a future is
/// ready on its first poll, so it needs neither a box nor a waker. Should it suspend after all (a
/// macro the check trusted expanded to an `.await`), the request is answered with a logged 500
/// rather than left hanging.
///
/// The bound on the future is the boxed path's, so whether a route compiles does not depend on
/// its body having an `.await`.
pub(crate) fn complete_now<F, R>(route: &'static str, future: F, respond: R) -> Response
where
    F: Future + Send + 'static,
    R: FnOnce(F::Output) -> Response,
{
    match poll_now(future) {
        Some(output) => respond(output),
        None => suspended(route),
    }
}

/// `future`'s output if it is ready on its first poll (no waker), else `None`.
#[inline(always)]
fn poll_now<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    match future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => Some(output),
        Poll::Pending => None,
    }
}

/// The answer when [`complete_now`]'s future suspended; out of line, it never happens.
#[cold]
fn suspended(route: &'static str) -> Response {
    tracing::error!(route, "handler suspended although its body has no `.await`");
    internal_error()
}

/// One route of an app, as a route attribute (`#[get("/item/{id}")]`) declares it: method, path
/// template, the generated handler and its OpenAPI operation. Made by [`routes!`](crate::routes)
/// and [`Route::def`]; given to [`App::routes`](crate::App::routes).
#[derive(Clone)]
pub struct RouteDef {
    pub(crate) name: &'static str,
    pub(crate) method: Method,
    pub(crate) path: &'static str,
    pub(crate) handler: Handler,
    pub(crate) body: BodyMode,
    pub(crate) include_in_schema: bool,
    pub(crate) operation: fn(&mut SchemaRegistry) -> Operation,
    pub(crate) check: fn(&StateMap) -> Result<(), String>,
    /// The API versions the route exists in (`versions = ..`; every version unless it says).
    pub(crate) versions: VersionRange,
    /// The day the route was deprecated and its last day, if known (`deprecated(since = ..)`).
    pub(crate) deprecation: Option<(&'static str, Option<&'static str>)>,
    /// The success status the route had before each version its status changed at
    /// (`status_before(..)`; empty for most routes).
    pub(crate) status_before: &'static [(&'static str, u16)],
}

/// How a route takes its request body: read by the dispatcher before the handler runs, handed
/// over unread, or not at all. One byte, read once per request; the route macros write it as the
/// route's data (its arguments' modes folded with [`BodyMode::with`], or [`BodyMode::Form`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum BodyMode {
    /// The route takes no body: the handler runs on the request head.
    None = 0,
    /// The body is read whole (bounded by the body limit), then the handler runs (JSON, a form).
    Whole = 1,
    /// The body is handed to the handler unread (an upload, read as it arrives).
    Stream = 2,
    /// The body is read as a form, files spooled to temporary files, then the handler runs (a
    /// route that takes `UploadFile` arguments).
    Form = 3,
}

impl BodyMode {
    /// The mode of a route that also takes an argument read in `mode`: streamed when it is read
    /// as it arrives, read whole when it is the body.
    pub const fn with(self, mode: BodyMode) -> BodyMode {
        match (self, mode) {
            (BodyMode::None | BodyMode::Whole, BodyMode::Stream) => BodyMode::Stream,
            (BodyMode::None, mode) => mode,
            (mode, _) => mode,
        }
    }

    /// True when the route takes a body.
    pub const fn reads(self) -> bool {
        !matches!(self, BodyMode::None)
    }
}

impl RouteDef {
    /// The handler function's name (the OpenAPI `operationId` is FastAPI's, made of it, the path
    /// and the method).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The HTTP method.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The path template as written (`/item/{id}` or `/item/:id`), without the prefix of any
    /// group it is added to.
    pub fn path(&self) -> &'static str {
        self.path
    }

    /// The API versions the route exists in.
    pub fn versions(&self) -> VersionRange {
        self.versions
    }

    /// The route in the versions from `from` until, not including, `until` (the route option
    /// `versions = "from".."until"` writes this call).
    pub fn in_versions(mut self, from: Option<&'static str>, until: Option<&'static str>) -> Self {
        self.versions = VersionRange::new(from, until);
        self
    }

    /// The route deprecated since the day `since` (`YYYY-MM-DD`), served until `sunset` if given
    /// (its last day, not before `since`): every answer of it carries `Deprecation` (RFC 9745)
    /// and `Sunset` (RFC 8594) (the route option `deprecated(since = "..", sunset = "..")` writes
    /// this call, and marks the operation `deprecated: true`). A date that is not one does not
    /// build ([`MistakeKind::RouteVersions`](crate::build::MistakeKind::RouteVersions)).
    pub fn deprecated_at(mut self, since: &'static str, sunset: Option<&'static str>) -> Self {
        self.deprecation = Some((since, sunset));
        self
    }

    /// When the route was deprecated and its last day, if it says (`deprecated(since = ..)`).
    pub fn deprecation(&self) -> Option<(&'static str, Option<&'static str>)> {
        self.deprecation
    }

    /// The route answered `status` before each version `date` of `before` (the route option
    /// `status_before("2026-03-01" = 200)` writes this call, and gives its answers and each
    /// version's document that status): each date must be a version of the app, or it does
    /// not build ([`MistakeKind::RouteVersions`](crate::build::MistakeKind::RouteVersions)).
    pub fn status_before(mut self, before: &'static [(&'static str, u16)]) -> Self {
        self.status_before = before;
        self
    }

    /// The success statuses the route had before the versions its status changed at.
    pub fn statuses_before(&self) -> &'static [(&'static str, u16)] {
        self.status_before
    }
}

/// What a route attribute generates for one route; [`RouteDef`] is made from it. Named fields,
/// so the generated code says what each value is.
pub struct RouteParts {
    /// The function's name.
    pub name: &'static str,
    /// The HTTP method.
    pub method: Method,
    /// The path template as written (`{name}` or `:name`).
    pub path: &'static str,
    /// The generated handler.
    pub handler: Handler,
    /// How the route takes its body.
    pub body: BodyMode,
    /// False to leave the route out of the OpenAPI document.
    pub include_in_schema: bool,
    /// Builds the OpenAPI operation (the app finishes it, adding what the route's groups add).
    pub operation: fn(&mut SchemaRegistry) -> Operation,
    /// Checks, at build time, that the app holds what the arguments need.
    pub check: fn(&StateMap) -> Result<(), String>,
}

impl From<RouteParts> for RouteDef {
    fn from(parts: RouteParts) -> Self {
        let RouteParts {
            name,
            method,
            path,
            handler,
            body,
            include_in_schema,
            operation,
            check,
        } = parts;
        RouteDef {
            name,
            method,
            path,
            handler,
            body,
            include_in_schema,
            operation,
            check,
            versions: VersionRange::ALL,
            deprecation: None,
            status_before: &[],
        }
    }
}

impl std::fmt::Debug for RouteDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RouteDef")
            .field("name", &self.name)
            .field("method", &self.method)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Implemented by the unit type each route macro generates next to the function.
pub trait Route {
    /// The route's definition.
    fn def(&self) -> RouteDef;
}

impl Route for RouteDef {
    fn def(&self) -> RouteDef {
        self.clone()
    }
}

/// A list of routes for `App::routes`: `routes![create_item, read_item]`.
#[doc = include_str!("../../manual/macros/routes.md")]
#[macro_export]
macro_rules! routes {
    ($($($segment:ident)::+),* $(,)?) => {
        ::std::vec![$($crate::route::Route::def(&$($segment)::+ {})),*]
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::IntoResponse;
    use hyper::StatusCode;

    #[test]
    fn a_ready_future_is_answered_in_place() {
        let response = complete_now("ready", async { StatusCode::CREATED }, StatusCode::into_response);
        assert_eq!(response.status(), StatusCode::CREATED);
    }

    #[test]
    fn a_future_that_suspends_after_all_is_a_500() {
        let mut polled = false;
        let pending_once = std::future::poll_fn(move |_| {
            if std::mem::replace(&mut polled, true) {
                Poll::Ready(StatusCode::OK)
            } else {
                Poll::Pending
            }
        });
        let response = complete_now("suspends", pending_once, StatusCode::into_response);
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
