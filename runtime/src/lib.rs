//! A route framework on hyper: annotate an `async fn`, and its arguments become typed path,
//! query and body parameters, validated with FastAPI's (pydantic v2's) error format and
//! documented in an OpenAPI 3.1 document, with Swagger UI and ReDoc served from the binary.
//!
//! ```
//! use ferrapi::prelude::*;
//!
//! /// An item, read from a JSON body and validated like a pydantic model.
//! #[derive(Model)]
//! struct Item {
//!     name: String,
//!     price: f64,
//!     tax: Option<f64>,
//! }
//!
//! /// Read one item.
//! #[get("/item/{id}")]
//! async fn read_item(id: i64, q: Option<String>) -> Json<Value> {
//!     Json(json!({ "id": id, "q": q }))
//! }
//!
//! #[post("/item")]
//! async fn create_item(item: Item) -> Json<Value> {
//!     Json(json!({ "name": item.name, "total": item.price + item.tax.unwrap_or(0.0) }))
//! }
//!
//! let app = App::new().routes(routes![read_item, create_item]);
//! // `app.serve("127.0.0.1:8000").await` serves it until Ctrl-C; here it answers in-process.
//! let client = ferrapi::testing::TestClient::new(app);
//! let response = client.get("/item/42?q=x").send_blocking();
//! assert_eq!((response.status().as_u16(), response.text()), (200, r#"{"id":42,"q":"x"}"#.into()));
//! let response = client
//!     .post("/item")
//!     .json(&json!({ "name": "Hammer", "price": 10, "tax": 2.5 }))
//!     .send_blocking();
//! assert_eq!(response.json::<Value>(), json!({ "name": "Hammer", "total": 12.5 }));
//! assert_eq!(
//!     client.get("/item/forty-two").send_blocking().text(),
//!     r#"{"detail":[{"type":"int_parsing","loc":["path","id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"forty-two"}]}"#
//! );
//! ```
//!
//! This page is the framework's manual, written for someone who knows FastAPI: twenty chapters,
//! about 4,300 lines, a reference to come back to rather than a page to read through. Every
//! example on it is a test that runs (except the ones that listen on a socket): it builds an app
//! and sends it requests in-process, with the [`TestClient`](testing::TestClient) of
//! [Testing](#testing-in-process) or with [`Service::handle`].
//!
//! **The fifteen-minute path**: the example above; [Adding a route](#adding-a-route); the table
//! at the top of [How arguments are read](#how-arguments-are-read) (where each argument comes
//! from); [The errors a client sees](#the-errors-a-client-sees); the
//! [limits](#limits) and [serving](#serving) of chapter 9; and
//! [Differences from FastAPI](#differences-from-fastapi) if you are porting an app. Then the
//! chapter of what you need next.
//!
//! **Words used throughout** (one word per concept, in the code as on this page):
//! - a *route* is one method and path and the function that answers it; the attribute makes its
//!   *handler*, which reads and validates every argument. As values: [`route::Route`] is
//!   what the attribute makes, [`route::RouteDef`] its definition (what
//!   [`App::routes`] takes), [`RouteInfo`](route::RouteInfo) a row of the app's route table, and
//!   [`MatchedRoute`](layer::MatchedRoute) the route a request matched, as its layers see it;
//! - an *argument* is what a route's function takes, read from the path, the query, the headers,
//!   the body, or *injected* (the app's state, a dependency, background tasks); its type is an
//!   *extractor* ([`arg::Extract`]: read from the request at once) or a *dependency*
//!   ([`Dependency`]: may await, may answer the request itself, resolved once per request);
//! - the *state* is the values the app was given with [`App::state`], by type, and nothing else;
//! - a *response* is what goes back to the client; an *answer* is a response the framework writes
//!   for the app when something is wrong (a 404, a 422, a 500, a 503 refusal), which the app may
//!   replace with an answer of its own ([error answers of your own](#error-answers-of-your-own));
//!   what a route returns is its response, never its answer;
//! - a *group* is routes sharing a prefix, tags, responses, dependencies and layers; what a route
//!   *inherits* is what its groups state, outermost first;
//! - a *layer* is `tower` middleware; a *layer stack* is an app's or a group's layers around the
//!   rest of the way to the route;
//! - an *override* is a test's replacement of a dependency
//!   ([`TestClient::override_dependency`](testing::TestClient::override_dependency)).
//!
//! How the code is laid out: `ARCHITECTURE.md` at the repository's root.
//!
//! # Contents
//!
//! 1. [Adding a route](#adding-a-route): the route attributes, their options, doc comments.
//! 2. [How arguments are read](#how-arguments-are-read): path, query, body and injected values.
//! 3. [Constraints and defaults](#constraints-and-defaults): `#[ge(0)]`, `#[max_length(50)]`,
//!    `#[default(..)]`.
//! 4. [Models and string enums](#models-and-string-enums): `#[derive(Model)]`,
//!    `#[derive(StrEnum)]`.
//! 5. [Routing](#routing): declaration order, shadowing, 404/405, HEAD, trailing slashes,
//!    percent-decoding.
//! 6. [Responses](#responses): what a handler may return.
//! 7. [The errors a client sees](#the-errors-a-client-sees): 422, 400, 413, 500, 503 and the rest;
//!    [error answers of your own](#error-answers-of-your-own) in place of FastAPI's.
//! 8. [The OpenAPI document and the docs pages](#the-openapi-document-and-the-docs-pages).
//! 9. [State, configuration and serving](#state-configuration-and-serving): `App`, limits,
//!    `Server`, graceful shutdown, logging.
//! 10. [Middleware: tower layers](#middleware-tower-layers): `App::layer`, CORS, compression,
//!     timeouts, a layer of your own, the matched route.
//! 11. [Testing in-process](#testing-in-process): [`TestClient`](testing::TestClient), no socket;
//!     its cookies.
//! 12. [Custom parameter and field types](#custom-parameter-and-field-types): the traits of
//!     [`convert`] and [`schema`].
//! 13. [Dependencies](#dependencies): `#[dependency]`, the [`Dependency`] trait, sub-dependencies,
//!     the per-request cache, answering 401.
//! 14. [Route groups](#route-groups): `group!`, a prefix, tags, default responses, dependencies
//!     and layers shared by routes, nested groups.
//! 15. [Differences from FastAPI](#differences-from-fastapi): what is different, and why.
//! 16. [Streaming, events, files and WebSockets](#streaming-events-files-and-websockets):
//!     `StreamingResponse`, `JsonLines<T>`, `Sse` and `Sse<T>`, `FileResponse`, `StaticDir`,
//!     `ws::WebSocketUpgrade`.
//! 17. [Headers, cookies, forms, uploads and security
//!     schemes](#headers-cookies-forms-uploads-and-security-schemes): `Header<T>`, `Cookie<T>`,
//!     `Form<T>`, `UploadFile`, `Multipart`, the schemes of [`security`].
//! 18. [Safe writes](#safe-writes-conditional-requests-and-idempotency-keys): `ETag`,
//!     `If-Match`/`If-None-Match` ([`conditional`]), `Idempotency-Key` ([`idempotency`]).
//! 19. [Types](#types): dates, times, durations, UUIDs, decimals, e-mail addresses, URLs and IP
//!     addresses ([`types`]); the cargo features that bring them.
//! 20. [Clients](#clients): a typed Rust client generated from an app's document (or a FastAPI
//!     app's), each status an enum variant, streams, safe retries, an app tested with its own
//!     client; the table "OpenAPI construct → Rust type".
//!
//! The API in one screen: [`App`] builds an app (its routes alone or in [`Group`]s, made by
//! [`group!`]) and [`Service`] answers requests; [`Server`] serves a service over HTTP/1.1 and
//! HTTP/2 ([`serve`]: its error, the shutdown signal); [`prelude`] has what a route author writes
//! with. The crate root holds what nearly every app names; the rest is in the module of its
//! concept: [`arg`] (the argument traits: an extractor, a dependency, and what they work with), [`convert`]
//! and [`schema`] (a custom parameter or field type), [`validation`] (the errors), [`route`]
//! (routes as values), [`http`] (status codes, methods, headers, from `hyper`), [`html`],
//! [`streaming`] (streamed bodies, server-sent events) and [`ws`] (WebSockets), [`files`] (sent
//! and uploaded), [`security`] (credentials), [`layer`] (what `tower` middleware meets),
//! [`testing`] (an app called in-process, as FastAPI's `TestClient` does), [`docs`] (the
//! documentation pages), [`logging::init`] (the log). CHANGELOG.md lists the names that moved.
//!
// The manual links TLS items (`App::tls`, `tls::TlsConfig`, `Scheme::Https`), which exist with
// the `tls` feature only: documentation built without it leaves those links as text rather than
// failing. CI and docs.rs build it with the feature, where a broken link still fails.
#![cfg_attr(not(feature = "tls"), allow(rustdoc::broken_intra_doc_links))]
#![doc = include_str!("../manual/01-routes.md")]
#![doc = include_str!("../manual/02-arguments.md")]
#![doc = include_str!("../manual/03-constraints.md")]
#![doc = include_str!("../manual/04-models.md")]
#![doc = include_str!("../manual/05-routing.md")]
#![doc = include_str!("../manual/06-responses.md")]
#![doc = include_str!("../manual/07-errors.md")]
#![doc = include_str!("../manual/08-openapi.md")]
#![doc = include_str!("../manual/09-serving.md")]
#![doc = include_str!("../manual/10-layers.md")]
#![doc = include_str!("../manual/11-testing.md")]
#![doc = include_str!("../manual/12-custom-types.md")]
#![doc = include_str!("../manual/13-dependencies.md")]
#![doc = include_str!("../manual/14-groups.md")]
#![doc = include_str!("../manual/15-fastapi.md")]
#![doc = include_str!("../manual/16-streaming.md")]
#![doc = include_str!("../manual/17-inputs.md")]
#![doc = include_str!("../manual/18-safe-writes.md")]
#![doc = include_str!("../manual/19-types.md")]
#![doc = include_str!("../manual/20-clients.md")]
#![doc = include_str!("../manual/21-versions.md")]
// Early answers travel as `Err(Response)`; a response is large, but boxing it on every error
// path would cost an allocation for nothing.
#![allow(clippy::result_large_err)]
// `pub` means public API (or the hidden paths below), never "visible in the crate".
#![warn(unreachable_pub)]

// The layers, from the top (the server) to the bottom (validation); each depends only on those
// below it (scripts/layers.toml gives their order, and scripts/check-cycles.py checks it, and
// that no two modules import each other in a circle).
mod app;
mod body;
mod budget;
pub mod conditional;
mod config;
mod dispatch;
mod extract;
pub mod files;
mod group;
mod head;
pub mod idempotency;
mod moved;
mod openapi;
pub mod problem;
mod response;
mod route_checks;
mod routing;
mod server;
mod validate;
pub mod versions;
pub mod ws;

pub mod logging;
pub mod metrics;
pub mod testing;
pub mod trace;

// The crate root holds what nearly every app names (the app, the server, the argument and
// response types a route is written with, the attributes); everything else is in the module of
// its concept below. A name moved from here is listed in CHANGELOG.md.
pub use app::{App, BuildError};
pub use config::Config;
pub use dispatch::Service;
pub use extract::{BackgroundTasks, Cookie, Dependency, Form, Header, State, UploadFile};
pub use group::Group;
pub use response::{Body, Html, HttpError, IntoResponse, Json, Response};
pub use server::Server;
pub use validate::{Model, StrEnum};
// The paths issue 33 moved from here, as deprecated aliases for one release (see `moved.rs`).
#[doc(hidden)]
pub use moved::*;

/// Security schemes (FastAPI's `fastapi.security`): dependencies that read a credential, answer 401
/// `Not authenticated` when it is missing, and document themselves, so the docs page can
/// "Authorize". Whether a credential is valid is yours to decide, in a dependency that takes one.
pub mod security {
    /// Declare a [`TokenUrl`]: `token_url!(Login = "token");`.
    #[doc(inline)]
    pub use crate::__token_url as token_url;
    pub use crate::extract::{
        ApiKeyCookie, ApiKeyHeader, ApiKeyQuery, HttpBasic, HttpBearer, OAuth2PasswordBearer,
        OAuth2PasswordRequestForm, TokenUrl,
    };
}

/// Streaming responses: a body sent as it is made ([`StreamingResponse`](streaming::StreamingResponse)),
/// models sent as JSON lines ([`JsonLines`](streaming::JsonLines)) and server-sent events
/// ([`Sse`](streaming::Sse), its [`Event`](streaming::Event)s or typed
/// [`JsonEvent`](streaming::JsonEvent)s, the
/// [`KeepAlive`](streaming::KeepAlive) comments, and the [`LastEventId`](streaming::LastEventId)
/// a reconnecting client sends). WebSockets are in [`ws`]. See the manual's [Streaming, events,
/// files and WebSockets](crate#streaming-events-files-and-websockets).
pub mod streaming {
    pub use crate::response::{
        Event, JsonEvent, JsonLines, KeepAlive, LastEventId, Sse, StreamingResponse, Untyped,
    };
}

/// The HTTP vocabulary, as `hyper` (and the `http` crate) names it: the [`StatusCode`](http::StatusCode)
/// a route answers with, the [`http::Method`] and [`Uri`](http::Uri) of a request, its
/// [`HeaderMap`](http::HeaderMap), and the [`header`](http::header) names and values.
pub mod http {
    pub use hyper::{header, HeaderMap, Method, StatusCode, Uri, Version};
}

/// HTML answers beside [`Html`]: escaping a value written into a page
/// ([`escape_html`](html::escape_html)) and the Content-Security-Policy an [`Html`] answer
/// carries unless it sets its own ([`HTML_CONTENT_SECURITY_POLICY`](html::HTML_CONTENT_SECURITY_POLICY)).
pub mod html {
    pub use crate::response::{escape_html, HTML_CONTENT_SECURITY_POLICY};
}

/// Routes as values: what a route attribute makes ([`route::Route`], whose
/// [`route::RouteDef`] [`App::routes`] takes, as `routes!` lists them), and a row of an
/// app's route table ([`RouteInfo`](route::RouteInfo), [`App::route_table`]).
pub mod route {
    pub use crate::routing::{Route, RouteDef, RouteInfo};
}

/// Building an app, beside [`BuildError`]: each of the mistakes it reports
/// ([`Mistake`](build::Mistake), [`BuildError::errors`]), what is wrong
/// ([`MistakeKind`](build::MistakeKind)) and where the culprit was declared
/// ([`Declared`](build::Declared)).
pub mod build {
    pub use crate::app::{Declared, Mistake, MistakeKind};
}

/// Serving, beside [`Server`]: why serving stopped ([`ServeError`](serve::ServeError))
/// and the signal that starts a graceful shutdown ([`shutdown_signal`](serve::shutdown_signal)),
/// and what a listener speaks ([`Scheme`](serve::Scheme)).
pub mod serve {
    pub use crate::server::{shutdown_signal, Scheme, ServeError};
}

/// TLS on the listener (the `tls` feature): [`App::tls`] with a [`TlsConfig`](tls::TlsConfig);
/// client certificates ([`ClientAuth`](tls::ClientAuth)) and the verified one as a route argument
/// ([`ClientCert`](tls::ClientCert)).
#[cfg(feature = "tls")]
pub mod tls {
    pub use crate::config::{ClientAuth, TlsConfig};
    pub use crate::extract::ClientCert;
}

/// Declares a `DELETE` route on an `async fn`: `#[delete("/items/{item_id}")]`.
#[doc = include_str!("../manual/macros/delete.md")]
#[doc = include_str!("../manual/macros/route_options.md")]
pub use ferrapi_macros::delete;
/// Makes an `async fn` a dependency: `#[dependency] async fn current_user(..) -> Result<User, E>`
/// implements [`Dependency`] for the type it returns, with its arguments read as a route's are.
#[doc = include_str!("../manual/macros/dependency.md")]
pub use ferrapi_macros::dependency;
/// Declares a `GET` route on an `async fn`: `#[get("/items/{item_id}")]`.
#[doc = include_str!("../manual/macros/get.md")]
#[doc = include_str!("../manual/macros/route_options.md")]
pub use ferrapi_macros::get;
/// Makes a route group: `group!("/clinic", tags("clinic"), responses(503 = UNAVAILABLE),
/// dependencies(CurrentUser))`, its prefix checked at compile time; see [`Group`].
#[doc = include_str!("../manual/macros/group.md")]
pub use ferrapi_macros::group;
/// Declares a `HEAD` route on an `async fn`: `#[head("/files/{name}")]`.
#[doc = include_str!("../manual/macros/head.md")]
#[doc = include_str!("../manual/macros/route_options.md")]
pub use ferrapi_macros::head;
/// Declares an `OPTIONS` route on an `async fn`: `#[options("/items")]`.
#[doc = include_str!("../manual/macros/options.md")]
#[doc = include_str!("../manual/macros/route_options.md")]
pub use ferrapi_macros::options;
/// Declares a `PATCH` route on an `async fn`: `#[patch("/items/{item_id}")]`.
#[doc = include_str!("../manual/macros/patch.md")]
#[doc = include_str!("../manual/macros/route_options.md")]
pub use ferrapi_macros::patch;
/// Declares a `POST` route on an `async fn`: `#[post("/items")]`.
#[doc = include_str!("../manual/macros/post.md")]
#[doc = include_str!("../manual/macros/route_options.md")]
pub use ferrapi_macros::post;
/// Declares a `PUT` route on an `async fn`: `#[put("/items/{item_id}")]`.
#[doc = include_str!("../manual/macros/put.md")]
#[doc = include_str!("../manual/macros/route_options.md")]
pub use ferrapi_macros::put;
/// Derives a JSON body model: `#[derive(Model)]` on a struct with named fields, validated as
/// pydantic validates a model and documented as a JSON Schema.
#[doc = include_str!("../manual/macros/model.md")]
pub use ferrapi_macros::Model;
/// Derives a string enumeration: `#[derive(StrEnum)]` on an enum of unit variants, each one
/// string value.
#[doc = include_str!("../manual/macros/str_enum.md")]
pub use ferrapi_macros::StrEnum;

/// The argument contract: the two traits an argument type implements, one or the other — a
/// synchronous extractor ([`Extract`](arg::Extract), [`Body`](arg::Body) for one that reads the
/// body) or an async, cached dependency ([`Dependency`], its second step
/// [`Resolve`](arg::Resolve)) — and what they work with: the request
/// ([`RequestCx`](arg::RequestCx), its head [`Parts`](arg::Parts)), the argument's declaration
/// ([`Param`](arg::Param)), the request's resolved dependencies ([`Deps`](arg::Deps)), the app's
/// state ([`StateMap`](arg::StateMap)); [`Arg`](arg::Arg), what generated code calls for each
/// argument; and the traits and documentation helpers of header, cookie and multipart arguments.
/// See the manual's [Dependencies](crate#dependencies).
pub mod arg {
    /// Declare a [`ParamName`]: `param_name!(RequestId = "X-Request_ID");` makes a unit type
    /// `RequestId` for `Header<String, RequestId>`, which reads header `X-Request_ID` exactly.
    #[doc(inline)]
    pub use crate::__param_name as param_name;
    pub use crate::extract::{
        AnyParts, Arg, Body, ByDependency, ByExtract, Cacheable, CookieValue, Dependency, Deps, Extract,
        Extracted, FormValue, FromArgument, Param, ParamName, ParamValue, PartDoc, RequestCx, Resolve,
        StateMap, TaskOutcome, UploadDoc,
    };
    /// The head of a request (method, URI, headers, extensions): what [`RequestCx::parts`] gives,
    /// and what the app's error answers read ([`App::on_not_found`](crate::App::on_not_found)).
    pub use hyper::http::request::Parts;
}

/// Parameter and field conversion: the traits a type implements to be a path, query, header or
/// cookie parameter ([`FromParam`](convert::FromParam)) or a field of a JSON body
/// ([`FromJson`](convert::FromJson), with its fast path [`FastJson`](convert::FastJson)), and to
/// take the numeric and length constraints ([`Constrainable`](convert::Constrainable),
/// [`Bound`](convert::Bound)). The manual's [Custom parameter and field
/// types](crate#custom-parameter-and-field-types) implements them for a date type.
pub mod convert {
    pub use crate::validate::{Bound, Constrainable, FastJson, FromJson, FromParam, NumberKind};
}

/// Validation errors as pydantic v2 reports them: the request's errors
/// ([`ValidationErrors`](validation::ValidationErrors)), each one's kind
/// ([`Failure`](validation::Failure)) and location ([`Loc`](validation::Loc)), the items of a
/// 422 body ([`ErrorItem`](validation::ErrorItem)), and the argument that answers the errors a
/// route finds itself as the app answers its own ([`Validation`](validation::Validation)).
pub mod validation {
    pub use crate::extract::Validation;
    pub use crate::validate::{ErrorItem, Failure, Loc, LocItem, ValidationErrors};
}

/// JSON Schemas and the OpenAPI operation: what a type's [`JsonSchema`](schema::JsonSchema)
/// writes into the document's [`SchemaRegistry`](schema::SchemaRegistry), and the
/// [`Operation`](schema::Operation) an argument documents itself in, and the
/// [`Tag`](schema::Tag) descriptions an app adds to the document ([`App::tag`]).
pub mod schema {
    pub use crate::openapi::{Operation, Tag};
    pub use crate::validate::{JsonSchema, SchemaMode, SchemaRegistry};
}

/// The data types a real API carries, beside the ones the crates of their features bring as they
/// are (`chrono`'s dates and times, `uuid::Uuid`, `rust_decimal::Decimal`, `url::Url`, std's IP
/// addresses): a duration read as pydantic reads a `timedelta`, an e-mail address, an HTTP URL,
/// /// a compiled pattern, and [`Strict`](types::Strict), pydantic's strict mode for a date or time.
/// Each is behind a default-on cargo feature; see the manual's [Types](crate#types).
pub mod types {
    #[cfg(feature = "email")]
    pub use crate::validate::EmailStr;
    #[cfg(feature = "url")]
    pub use crate::validate::HttpUrl;
    #[cfg(feature = "pattern")]
    pub use crate::validate::Pattern;
    #[cfg(feature = "datetime")]
    pub use crate::validate::{Datetime, Duration};
    pub use crate::validate::{Nullable, Strict, StrictValue};
}

/// The memory budget as a route sees it ([`App::memory_budget`]): a route about to load something
/// large that the request did not bring takes a [`Memory`](memory::Memory) argument and asks it
/// for room first, so a request the budget has no room for is refused (503, or 413) before the
/// memory is taken.
pub mod memory {
    pub use crate::extract::{Memory, NoRoom, Reserved};
}

/// `tower` middleware around an app: what [`App::layer`] wraps ([`Endpoint`](layer::Endpoint)),
/// what a layer can read of the request ([`MatchedRoute`](layer::MatchedRoute)), the future of a
/// [`Service`] as a `tower::Service` ([`ServiceFuture`](layer::ServiceFuture)), and the errors
/// of bodies and layers ([`BoxError`](layer::BoxError), [`BodyError`](layer::BodyError)).
pub mod layer {
    pub use crate::dispatch::{Endpoint, EndpointFuture, MatchedRoute, ServiceFuture};
    pub use crate::response::{BodyError, BoxError};
}

/// The documentation pages: which versions of Swagger UI and ReDoc are served, and the
/// Content-Security-Policy their pages carry (see the manual's [The OpenAPI document and the docs
/// pages](crate#the-openapi-document-and-the-docs-pages)).
pub mod docs {
    pub use crate::openapi::{
        CONTENT_SECURITY_POLICY_VALUE as CONTENT_SECURITY_POLICY, REDOC_VERSION, SWAGGER_UI_VERSION,
    };
}

/// Everything an everyday app needs: `use ferrapi::prelude::*;`. The route attributes and
/// argument kinds, the app and its documentation's [`Tag`](schema::Tag), the answers, and the
/// value types of the manual's [Types](crate#types) with the crates' own (`NaiveDate`, `Uuid`,
/// `Decimal`, `Url`, ..., each with its cargo feature). The route attributes `head` and
/// `options`, rarer, are imported by name (`use ferrapi::head;`), as are the security schemes
/// ([`security`]).
pub mod prelude {
    pub use crate::arg::param_name;
    pub use crate::html::escape_html;
    pub use crate::http::StatusCode;
    pub use crate::schema::Tag;
    pub use crate::trace::TraceContext;
    #[cfg(feature = "email")]
    pub use crate::types::EmailStr;
    pub use crate::types::{Nullable, Strict};
    #[cfg(feature = "datetime")]
    pub use crate::{
        chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc},
        types::{Datetime, Duration},
    };
    pub use crate::{
        delete, dependency, get, group, patch, post, put, routes, App, BackgroundTasks, Cookie, Form, Group,
        Header, Html, HttpError, IntoResponse, Json, Model, Response, State, StrEnum, UploadFile,
    };
    #[cfg(feature = "url")]
    pub use crate::{types::HttpUrl, url::Url};
    pub use hyper::HeaderMap;
    #[cfg(feature = "decimal")]
    pub use rust_decimal::Decimal;
    pub use serde_json::{json, Value};
    #[cfg(feature = "uuid")]
    pub use uuid::Uuid;
}

/// Items the generated code names. Not a public API: it changes without notice.
///
/// Generated code names nothing else of ferrapi, items of the public API included (re-exported
/// here by the crate's own paths): moving a public item is one line here, and no expansion
/// changes.
#[doc(hidden)]
pub mod __private {
    pub use crate::extract::{
        body_model, depend, enum_form_doc, enum_form_field, path_param, Arg, Arguments, Body, Dependency,
        DependencyFn, Deps, EffectFuture, Extract, Form, FormField, FormValue, GroupInputs, Param, RequestCx,
        Resolve, StateMap,
    };
    pub use crate::extract::{forward_field, forward_model};
    pub use crate::group::{Group, GroupParts};
    pub use crate::openapi::{field_schema, with_examples, Operation};
    pub use crate::response::{IntoResponse, Invalid, Response};
    pub use crate::route_checks::*;
    pub use crate::routing::{start, BodyMode, Call, Handler, Route, RouteDef, RouteParts, Started};
    pub use crate::validate::{
        enum_failure, enum_from_json, enum_from_param, enum_schema, fast_enum, field, generic_schema,
        generic_title, param_field, tagged_schema, title_case, untagged_schema, validate_field,
        validate_model, validate_tagged, validate_untagged, validate_whole, Bound, Constrainable, Constraint,
        Failure, FastJson, FieldDecline, FieldFast, FieldProbe, FromJson, FromParam, JsonSchema, Loc, Model,
        SchemaMode, SchemaRegistry, Skip, StrEnum, TaggedVariant, UntaggedVariant, ValidationErrors,
    };
    #[cfg(feature = "pattern")]
    pub use crate::validate::{Pattern, PatternCell};
    pub use crate::versions::{
        current as current_version, shape_at, status_at, ChangeKind, FieldChange, Versioned,
    };
    pub use ferrapi_macros::Model as DeriveModel;
    pub use hyper::Method;
    pub use serde;
    pub use serde_json::{self, json, Map, Value};
}

/// The crates whose value types ferrapi reads (see the manual's [Types](crate#types)), at the
/// versions ferrapi implements its traits for.
#[cfg(feature = "datetime")]
pub use chrono;
#[cfg(feature = "decimal")]
pub use rust_decimal;
#[cfg(feature = "url")]
pub use url;
#[cfg(feature = "uuid")]
pub use uuid;

/// The router, for the fuzz targets (fuzz/), and the JSON tree's reader and cost, for the memory
/// tests (tests/tests/memory/). Not a public API.
#[doc(hidden)]
pub mod __fuzz {
    pub use crate::extract::PathParams;
    pub use crate::routing::{Lookup, Router};
    pub use crate::validate::json_tree::{parse_value as parse_json_tree, tree_peak as json_tree_peak};
}
