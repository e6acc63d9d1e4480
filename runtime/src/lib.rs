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
// `pub` means public API (or the hidden paths below), never "visible in the crate".
#![warn(unreachable_pub)]

// The layers, from the top (the server) to the bottom (validation); each depends only on those
// below it (scripts/check-cycles.py checks that no two modules import each other in a circle).
mod app;
mod codegen;
mod config;
mod dispatch;
mod extract;
mod openapi;
mod response;
mod routing;
mod server;
mod validate;

pub mod logging;

pub use app::{App, BuildError};
pub use config::Config;
pub use dispatch::{Service, ServiceFuture};
pub use extract::State;
pub use response::{
    escape_html, Body, Html, HttpError, IntoResponse, Json, Response, HTML_CONTENT_SECURITY_POLICY,
};
pub use routing::{Route, RouteDef, RouteInfo};
pub use server::{shutdown_signal, ServeError, Server};
pub use validate::{Model, StrEnum};

pub use ferrapi_macros::{delete, get, head, options, patch, post, put, Model, StrEnum};
pub use hyper::{header, HeaderMap, Method, StatusCode, Uri};

/// Custom parameter and field types: the traits a type implements to be a path or query parameter
/// ([`FromParam`](types::FromParam)) or a field of a JSON body ([`FromJson`](types::FromJson)),
/// with its JSON Schema ([`JsonSchema`](types::JsonSchema)), and the error types their
/// conversions report.
pub mod types {
    pub use crate::validate::{
        Bound, Constrainable, ErrorItem, Failure, FastJson, FromJson, FromParam, JsonSchema, Loc, LocItem,
        SchemaRegistry, ValidationErrors,
    };
}

/// The documentation pages: which versions of Swagger UI and ReDoc are served, and the
/// Content-Security-Policy their pages carry.
pub mod docs {
    pub use crate::openapi::{
        CONTENT_SECURITY_POLICY_VALUE as CONTENT_SECURITY_POLICY, REDOC_VERSION, SWAGGER_UI_VERSION,
    };
}

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
    pub use crate::codegen::*;
    pub use crate::extract::{body_model, path_param, Arg, RequestCx, Source, StateMap};
    pub use crate::openapi::{field_schema, ArgDoc, Operation};
    pub use crate::response::internal_error;
    pub use crate::routing::{answer_now, BoxFuture, Handler, RouteParts};
    pub use crate::validate::{
        enum_failure, enum_from_json, enum_from_param, enum_schema, fast_enum, field, title_case,
        validate_model, Constraint, FieldDecline, FieldFast, FieldProbe, Skip,
    };
    pub use serde;
    pub use serde_json::{self, json, Map, Value};
}

/// The router, for the fuzz targets (fuzz/). Not a public API.
#[doc(hidden)]
pub mod __fuzz {
    pub use crate::extract::PathParams;
    pub use crate::routing::{Lookup, Router};
}
