//! The contract between the route macros and the runtime.
//!
//! Rules enforced here: a route is plain data (method, template, handler pointer, OpenAPI
//! fragment builder) produced by `#[get]`/`#[post]`/…; the runtime never needs to know the
//! handler's argument types.

use std::future::Future;
use std::pin::Pin;

use hyper::Method;
use serde_json::Value;

use crate::request::RequestCx;
use crate::response::Response;
use crate::schema::SchemaRegistry;
use crate::state::StateMap;

/// The boxed future a handler returns.
pub type BoxFuture = Pin<Box<dyn Future<Output = Response> + Send + 'static>>;

/// A generated handler: extracts and validates the arguments, then either answers at once (a 422,
/// say) or returns the boxed call of the user's function. Extraction borrows the request, so
/// nothing of it is copied into the future.
pub type Handler = for<'a, 'b> fn(&'b RequestCx<'a>) -> Result<BoxFuture, Response>;

/// Everything the runtime knows of one route.
#[derive(Clone)]
pub struct RouteDef {
    /// The function's name, also the OpenAPI `operationId`.
    pub name: &'static str,
    /// The HTTP method.
    pub method: Method,
    /// The path template as written (`{name}` or `:name`).
    pub path: &'static str,
    /// The generated handler.
    pub handler: Handler,
    /// True when the route has a JSON body argument, so the body must be read.
    pub reads_body: bool,
    /// False to leave the route out of the OpenAPI document.
    pub include_in_schema: bool,
    /// Builds the OpenAPI operation object.
    pub operation: fn(&mut SchemaRegistry) -> Value,
    /// Checks, at build time, that the app holds what the arguments need.
    pub check: fn(&StateMap) -> Result<(), String>,
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
#[macro_export]
macro_rules! routes {
    ($($($segment:ident)::+),* $(,)?) => {
        ::std::vec![$($crate::Route::def(&$($segment)::+ {})),*]
    };
}
