//! Extraction: how each handler argument is obtained from one routed request.
//!
//! The generated handler of a route calls into this layer once per argument, in declaration
//! order, collecting every validation error before answering (the runtime's half of the handler,
//! `routing::handler`, puts them in FastAPI's order). Its files:
//!
//! - `versioned`: reading a model with version changes (a forward step's refusal, the check of
//!   its dates);
//! - `request`: [`RequestCx`], what a handler sees of a request (all borrowed from the dispatcher),
//!   and where the router found the path parameters' values ([`PathParams`]);
//! - `path`: extracting a path parameter (percent-decoding, conversion);
//! - `query`: finding one query parameter without decoding the others;
//! - `param`: an argument's declaration ([`Param`]: name, default, constraints);
//! - `arg`: the two kinds of argument, a synchronous extractor ([`Extract`], [`Body`] for one
//!   that reads the body) or a dependency, and [`Arg`], the generated code's one call per
//!   argument, which picks between them by trait;
//! - `dependency`: the [`Dependency`] trait, its second step ([`Resolve`]) and the per-request
//!   cache ([`Deps`]); `arguments`, a route's arguments between extraction and the call, as one
//!   list;
//! - `query_param`, `injected`: the query parameter kinds, and the values the server injects
//!   (`State<T>`, `HeaderMap`, ...);
//! - `group_deps`: dependencies a route group runs for their effect ([`DependencyFn`]);
//!   `overrides`, a test's replacements of dependencies;
//! - `header`: header and cookie parameters ([`Header<T>`], [`Cookie<T>`]);
//! - `security`: security schemes, dependencies that read a credential and document themselves;
//!   `single`, the fields the framework reads itself that a request must send once;
//!   `oauth2_form`, the form of OAuth2's password flow ([`OAuth2PasswordRequestForm`]);
//! - `json_body`, `form`: the JSON body and form arguments, from the body as `body/` read it;
//! - `multipart`: uploads, streamed part by part ([`Multipart`]);
//! - `file_args`: files as arguments ([`UploadFile`]), taken from the form `body/` read (files
//!   spooled to temporary files) before the route's arguments are converted;
//! - `client_cert`: the verified client certificate of a TLS connection ([`ClientCert`], the
//!   `tls` feature);
//! - `state`: application state, `State<T>`; `background`, work a route leaves to do after it
//!   answered ([`BackgroundTasks`]);
//! - `trace_context`: the request's trace context as an argument
//!   ([`TraceContext`](crate::trace::TraceContext));
//! - `validation`: the app's answer to errors a route finds itself ([`Validation`]).
//!
//! Rules enforced here: nothing of a request is copied or decoded until an argument asks for it;
//! which kind an argument is (path, query, header, cookie, body, injected, dependency) is decided at
//! compile time, by the argument's name and the trait its type implements; every failure is a validation error in pydantic's shape, or a
//! dependency's own answer, never a panic; what an argument needs from the app (a state) is checked
//! when the app is built; a route without a dependency pays nothing for them (see `arguments`).

mod arg;
mod arguments;
mod background;
#[cfg(feature = "tls")]
mod client_cert;
mod dependency;
mod file_args;
mod form;
mod group_deps;
mod header;
mod injected;
mod json_body;
mod memory;
mod multipart;
mod oauth2_form;
mod overrides;
mod param;
mod path;
mod query;
mod query_param;
mod request;
mod security;
mod single;
mod state;
mod trace_context;
mod validation;
mod versioned;

pub use crate::body::UploadFile;
pub use arg::{Arg, Body, ByDependency, ByExtract, Extract};
pub use arguments::{depend, Arguments, Extracted};
pub use background::{BackgroundTasks, TaskOutcome};
#[cfg(feature = "tls")]
pub use client_cert::ClientCert;
pub use dependency::{Cacheable, Dependency, Deps, Resolve};
pub use form::{enum_form_doc, enum_form_field, Form, FormField, FormValue};
pub use group_deps::{DependencyFn, EffectFuture, GroupInputs};
pub use header::{Cookie, CookieValue, FromArgument, Header, ParamName, ParamValue};
pub use json_body::body_model;
pub use memory::{Memory, NoRoom, Reserved};
pub use multipart::{AnyParts, Multipart, Part, PartDoc, UploadDoc};
pub use oauth2_form::OAuth2PasswordRequestForm;
pub(crate) use overrides::Overrides;
pub use param::Param;
pub use path::path_param;
pub(crate) use request::MAX_PARAMS;
pub use request::{PathParams, RequestCx};
pub use security::{
    ApiKeyCookie, ApiKeyHeader, ApiKeyQuery, HttpBasic, HttpBearer, OAuth2PasswordBearer, TokenUrl,
};
pub(crate) use single::{repeated, single_field, sole_field};
pub(crate) use state::Shared;
pub use state::{State, StateMap};
pub use validation::Validation;
pub use versioned::{forward_field, forward_model};
