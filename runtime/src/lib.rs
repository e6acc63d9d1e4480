//! # ferrapi
//!
//! A route framework on hyper: annotate an async function, and its arguments become typed path,
//! query and body parameters, validated with FastAPI's (pydantic v2's) error format and
//! documented in an OpenAPI 3.1 document.
//!
//! ```no_run
//! use ferrapi::prelude::*;
//!
//! #[derive(Model)]
//! struct Item { name: String, price: f64, tax: Option<f64> }
//!
//! /// Read one item.
//! #[get("/item/{id}")]
//! async fn read_item(id: i64, q: Option<String>) -> Json<Value> {
//!     Json(json!({ "id": id, "q": q }))
//! }
//!
//! #[post("/item")]
//! async fn create_item(item: Item) -> Json<Value> {
//!     Json(json!({ "name": item.name, "price": item.price }))
//! }
//!
//! # async fn run() -> Result<(), ferrapi::ServeError> {
//! App::new().routes(routes![read_item, create_item]).serve("127.0.0.1:8000").await
//! # }
//! ```

// Early answers travel as `Err(Response)`; a response is large, but boxing it on every error
// path would cost an allocation for nothing.
#![allow(clippy::result_large_err)]

mod app;
mod arg;
mod body;
mod conn_timer;
mod constraint;
mod convert;
mod dispatch;
mod docs;
mod drain;
mod error;
mod fast_json;
mod json;
mod json_error;
pub mod logging;
mod model;
mod openapi;
mod panic;
mod protocol;
mod query;
mod request;
mod response;
mod route;
mod router;
mod schema;
mod server;
mod state;
mod template;

pub use app::{App, BuildError, Config, RouteInfo, Service, ServiceFuture};
pub use arg::{Arg, ArgDoc, Source};
pub use body::BodyInput;
pub use constraint::{Bound, Constrainable, Constraint};
pub use convert::FromParam;
pub use dispatch::HandleFuture;
pub use docs::{CONTENT_SECURITY_POLICY_VALUE, REDOC_VERSION, SWAGGER_UI_VERSION};
pub use error::{BadBody, ErrorItem, Failure, Loc, LocItem, ValidationErrors};
pub use fast_json::FastJson;
pub use json::FromJson;
pub use model::{Model, StrEnum};
pub use request::RequestCx;
pub use response::{
    escape_html, Body, Html, HttpError, IntoResponse, Json, Response, HTML_CONTENT_SECURITY_POLICY,
};
pub use route::{BoxFuture, Handler, Route, RouteDef};
pub use router::{Lookup, PathParams, RouteStatus, Router};
pub use schema::{JsonSchema, SchemaRegistry};
pub use server::{shutdown_signal, ServeError, Server};
pub use state::State;
pub use template::{Segment, Template, TemplateError};

pub use ferrapi_macros::{delete, get, head, options, patch, post, put, Model, StrEnum};
pub use hyper::{header, HeaderMap, Method, StatusCode};

/// Everything a route author needs: `use ferrapi::prelude::*;`.
pub mod prelude {
    pub use crate::{
        delete, escape_html, get, patch, post, put, routes, App, Html, HttpError, IntoResponse, Json, Model,
        Response, State, StatusCode, StrEnum,
    };
    pub use hyper::HeaderMap;
    pub use serde_json::{json, Value};
}

/// Items the generated code names. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::arg::{path_param, Arg, ArgDoc, Source};
    pub use crate::constraint::{Bound, Constrainable, Constraint};
    pub use crate::convert::FromParam;
    pub use crate::error::Failure;
    pub use crate::error::{Loc, LocItem, ValidationErrors};
    pub use crate::fast_json::{fast_enum, FastJson, FieldDecline, FieldFast, FieldProbe, Skip};
    pub use crate::json::{field, FromJson};
    pub use crate::model::{
        body_model, enum_failure, enum_from_json, enum_from_param, enum_schema, validate_model, Model,
        StrEnum,
    };
    pub use crate::openapi::Operation;
    pub use crate::request::RequestCx;
    pub use crate::response::{internal_error, IntoResponse, Response};
    pub use crate::route::{answer_now, BoxFuture, Handler, Route, RouteDef};
    pub use crate::schema::{field_schema, title_case, JsonSchema, SchemaRegistry};
    pub use crate::state::StateMap;
    pub use hyper::Method;
    pub use serde;
    pub use serde_json::{self, json, Map, Value};

    /// Finds a response body's schema when its type has one; `Json<T>` of a type that is only
    /// `Serialize` is documented without a schema instead of failing to compile. (Autoref
    /// specialization: `(&SchemaProbe::<T>(PhantomData)).probe_schema(r)` picks [`ProbeKnown`]
    /// when `T: JsonSchema`, else [`ProbeUnknown`].)
    pub struct SchemaProbe<T: ?Sized>(pub std::marker::PhantomData<T>);

    /// The probe for types with a schema.
    pub trait ProbeKnown {
        /// The schema.
        fn probe_schema(&self, registry: &mut SchemaRegistry) -> Option<Value>;
    }

    impl<T: JsonSchema + ?Sized> ProbeKnown for SchemaProbe<T> {
        fn probe_schema(&self, registry: &mut SchemaRegistry) -> Option<Value> {
            Some(T::schema(registry))
        }
    }

    /// The fallback for types without one.
    pub trait ProbeUnknown {
        /// No schema.
        fn probe_schema(&self, registry: &mut SchemaRegistry) -> Option<Value>;
    }

    impl<T: ?Sized> ProbeUnknown for &SchemaProbe<T> {
        fn probe_schema(&self, _registry: &mut SchemaRegistry) -> Option<Value> {
            None
        }
    }

    /// Box a handler future.
    pub fn boxed<F>(future: F) -> BoxFuture
    where
        F: std::future::Future<Output = Response> + Send + 'static,
    {
        Box::pin(future)
    }

    /// Compile-time check that a path parameter's type can be parsed from a segment.
    pub const fn assert_path_param<T: FromParam>() {}

    /// Compile-time check that a constrained value is a number.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot take a numeric constraint",
        label = "`ge`, `gt`, `le` and `lt` apply to integers and floats",
        note = "use `min_length`/`max_length` for strings"
    )]
    pub trait Numeric {}
    macro_rules! numeric {
        ($($t:ty),*) => {$(impl Numeric for $t {})*};
    }
    numeric!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);
    impl<T: Numeric> Numeric for Option<T> {}
    impl<T: Numeric> Numeric for Vec<T> {}

    /// Compile-time check that a constrained value is a string.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot take a length constraint",
        label = "`min_length` and `max_length` apply to strings",
        note = "use `ge`/`gt`/`le`/`lt` for numbers"
    )]
    pub trait Text {}
    impl Text for String {}
    impl<T: Text> Text for Option<T> {}
    impl<T: Text> Text for Vec<T> {}

    /// Assert `T: Numeric`.
    pub const fn assert_numeric<T: Numeric>() {}
    /// Assert `T: Text`.
    pub const fn assert_text<T: Text>() {}
    /// Assert `T: Arg`.
    pub const fn assert_arg<T: Arg>() {}
    /// Assert `T: IntoResponse`.
    pub const fn assert_into_response<T: IntoResponse>() {}
    /// Assert `T: FromJson` (model fields).
    pub const fn assert_from_json<T: FromJson>() {}

    /// Compile-time check that a route has at most one JSON body: implemented for every type
    /// unless an earlier argument is the body (`EARLIER`) and this one is too (`BODY`).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` would be another JSON body, and a route takes at most one",
        label = "another argument whose type derives `Model`",
        note = "an earlier argument is already the JSON body; put the fields of both in one struct deriving `Model`"
    )]
    pub trait OneBody<const EARLIER: bool, const BODY: bool> {}
    impl<T: ?Sized> OneBody<false, false> for T {}
    impl<T: ?Sized> OneBody<false, true> for T {}
    impl<T: ?Sized> OneBody<true, false> for T {}

    /// Assert that argument `T` is not a second JSON body.
    pub const fn assert_one_body<T: OneBody<EARLIER, BODY>, const EARLIER: bool, const BODY: bool>() {}
}
