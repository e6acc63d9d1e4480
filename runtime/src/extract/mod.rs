//! Extraction: how each handler argument is obtained from one routed request.
//!
//! The generated handler of a route calls into this layer once per argument, in the order path,
//! query, body, collecting every validation error before answering. Its files:
//!
//! - `request`: [`RequestCx`], what a handler sees of a request (all borrowed from the dispatcher);
//! - `path`: path parameter values (byte ranges from the router) and their extraction;
//! - `query`: finding one query parameter without decoding the others;
//! - `arg`: the [`Arg`] trait and its query, state and injected kinds;
//! - `body`, `json_body`: reading the body (bounded) and the JSON body argument;
//! - `state`: application state, `State<T>`.
//!
//! Rules enforced here: nothing of a request is copied or decoded until an argument asks for it;
//! which kind an argument is (path, query, body, injected) is decided at compile time, by the
//! argument's name and type; every failure is a validation error in pydantic's shape, never a
//! panic; what an argument needs from the app (a state) is checked when the app is built.

mod arg;
mod body;
mod json_body;
mod path;
mod query;
mod request;
mod state;

pub use arg::{Arg, Source};
pub(crate) use body::BodyInput;
pub(crate) use body::{classify, BodyReader};
pub use json_body::body_model;
pub(crate) use path::MAX_PARAMS;
pub use path::{path_param, PathParams};
pub use request::RequestCx;
pub use state::{State, StateMap};
