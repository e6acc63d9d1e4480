//! The injected arguments: values the server hands a route, which are not part of the API
//! (`State<T>`, `HeaderMap`, `Method`, `Uri`, `Version`, `LastEventId`, `ApiVersion`).
//!
//! Rules enforced here: an injected value records no validation error and documents nothing; a
//! route taking `State<T>` of a type the app does not hold is refused when the app is built
//! ([`Extract::check`](super::Extract::check)), and were one to get through, the miss is logged as an error.

use std::any::type_name;

use super::arg::Extract;
use super::param::Param;
use super::request::RequestCx;
use super::state::{State, StateMap};
use crate::validate::ValidationErrors;
use crate::versions::{ApiVersion, VersionSet};

impl<S: Send + Sync + 'static> Extract for State<S> {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        let state = cx.state::<S>().map(State);
        if state.is_none() {
            tracing::error!(
                state = type_name::<S>(),
                "route asks for state the app does not hold"
            );
        }
        state
    }

    fn check(state: &StateMap) -> Result<(), String> {
        if state.contains(std::any::TypeId::of::<S>()) {
            Ok(())
        } else {
            Err(format!(
                "a route takes `State<{}>` but the app holds no such state; add it with `App::state(value)`",
                type_name::<S>()
            ))
        }
    }
}

macro_rules! injected {
    ($ty:ty, |$cx:ident| $get:expr) => {
        impl Extract for $ty {
            fn extract(
                $cx: &RequestCx<'_>,
                _param: Param<Self>,
                _errors: &mut ValidationErrors,
            ) -> Option<Self> {
                Some($get)
            }
        }
    };
}

injected!(hyper::HeaderMap, |cx| cx.headers().clone());
injected!(hyper::Method, |cx| cx.parts().method.clone());
injected!(hyper::Uri, |cx| cx.parts().uri.clone());
injected!(hyper::Version, |cx| cx.parts().version);

impl Extract for ApiVersion {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        let version = cx
            .state::<VersionSet>()
            .and_then(|set| set.get(cx.version.index))
            .map(|(date, released)| ApiVersion::new(date, cx.version.source, released));
        if version.is_none() {
            tracing::error!("route asks for its API version in an app without versions");
        }
        version
    }

    fn check(state: &StateMap) -> Result<(), String> {
        if state.contains(std::any::TypeId::of::<VersionSet>()) {
            Ok(())
        } else {
            Err("a route takes `ApiVersion` but the app declares no versions; declare them with `App::versions(Versions::released([...]))`".to_owned())
        }
    }
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds'; this one is for event streams only).
#[diagnostic::do_not_recommend]
impl Extract for crate::response::LastEventId {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        let id = cx
            .headers()
            .get("last-event-id")
            .and_then(|value| value.to_str().ok());
        Some(crate::response::LastEventId(id.map(str::to_owned)))
    }
}
