//! The crate-root paths issue 33 moved into the modules of their concepts, kept for one release
//! as deprecated, hidden aliases, so old code compiles with a warning that names the new path
//! instead of failing with a bare "could not find". Remove this file in the next release.
//!
//! Rules enforced here: each alias names the moved item, never a copy of it (a type alias, a
//! function or constant that forwards to it, a macro that expands to it), so code written
//! against either path is the same code; each carries `#[deprecated(note = "moved to
//! ferrapi::…")]`, whose note the warning shows, and `#[doc(hidden)]`; the aliases are tested by
//! `tests/ui/moved_paths.rs` (each warns) and `tests/ui/pass/moved_paths.rs` (each works).
//!
//! Why aliases and not `#[deprecated] pub use`: rustc ignores `#[deprecated]` on a re-export
//! (rust-lang/rust#30827), so the old path would compile silently until it is removed. For the
//! same reason the module `ferrapi::header` (now `ferrapi::http::header`) has no alias: a
//! deprecated module does not warn on the paths through it, and a silent alias would leave the
//! bare error for the release that removes it. A trait (`Route`) is aliased by a deprecated
//! subtrait implemented for every implementor: it serves as a bound and for method calls, not
//! for an `impl` of it (which the route macros write, never a user).

#![allow(deprecated)]

/// Moved to `ferrapi::files::FileResponse`.
#[deprecated(note = "moved to ferrapi::files::FileResponse")]
#[doc(hidden)]
pub type FileResponse = crate::files::FileResponse;

/// Moved to `ferrapi::files::StaticDir`.
#[deprecated(note = "moved to ferrapi::files::StaticDir")]
#[doc(hidden)]
pub type StaticDir = crate::files::StaticDir;

/// Moved to `ferrapi::files::ServeStatic`.
#[deprecated(note = "moved to ferrapi::files::ServeStatic")]
#[doc(hidden)]
pub type ServeStatic<S> = crate::files::ServeStatic<S>;

/// Moved to `ferrapi::files::ServeStaticFuture`.
#[deprecated(note = "moved to ferrapi::files::ServeStaticFuture")]
#[doc(hidden)]
pub type ServeStaticFuture<E> = crate::files::ServeStaticFuture<E>;

/// Moved to `ferrapi::files::Multipart`.
#[deprecated(note = "moved to ferrapi::files::Multipart")]
#[doc(hidden)]
pub type Multipart<D = crate::extract::AnyParts> = crate::extract::Multipart<D>;

/// Moved to `ferrapi::files::Part`.
#[deprecated(note = "moved to ferrapi::files::Part")]
#[doc(hidden)]
pub type Part = crate::extract::Part;

/// Moved to `ferrapi::files::MultipartError`.
#[deprecated(note = "moved to ferrapi::files::MultipartError")]
#[doc(hidden)]
pub type MultipartError = crate::body::MultipartError;

/// Moved to `ferrapi::streaming::StreamingResponse`.
#[deprecated(note = "moved to ferrapi::streaming::StreamingResponse")]
#[doc(hidden)]
pub type StreamingResponse = crate::response::StreamingResponse;

/// Moved to `ferrapi::streaming::Sse`.
#[deprecated(note = "moved to ferrapi::streaming::Sse")]
#[doc(hidden)]
pub type Sse = crate::response::Sse;

/// Moved to `ferrapi::streaming::Event`.
#[deprecated(note = "moved to ferrapi::streaming::Event")]
#[doc(hidden)]
pub type Event = crate::response::Event;

/// Moved to `ferrapi::streaming::KeepAlive`.
#[deprecated(note = "moved to ferrapi::streaming::KeepAlive")]
#[doc(hidden)]
pub type KeepAlive = crate::response::KeepAlive;

/// Moved to `ferrapi::streaming::LastEventId`.
#[deprecated(note = "moved to ferrapi::streaming::LastEventId")]
#[doc(hidden)]
pub type LastEventId = crate::response::LastEventId;

/// Moved to `ferrapi::http::StatusCode` (still in the prelude).
#[deprecated(note = "moved to ferrapi::http::StatusCode (also in ferrapi::prelude)")]
#[doc(hidden)]
pub type StatusCode = hyper::StatusCode;

/// Moved to `ferrapi::http::Method`.
#[deprecated(note = "moved to ferrapi::http::Method")]
#[doc(hidden)]
pub type Method = hyper::Method;

/// Moved to `ferrapi::http::Uri`.
#[deprecated(note = "moved to ferrapi::http::Uri")]
#[doc(hidden)]
pub type Uri = hyper::Uri;

/// Moved to `ferrapi::http::HeaderMap` (still in the prelude).
#[deprecated(note = "moved to ferrapi::http::HeaderMap (also in ferrapi::prelude)")]
#[doc(hidden)]
pub type HeaderMap<T = hyper::header::HeaderValue> = hyper::HeaderMap<T>;

/// Moved to `ferrapi::html::escape_html` (still in the prelude).
#[deprecated(note = "moved to ferrapi::html::escape_html (also in ferrapi::prelude)")]
#[doc(hidden)]
pub fn escape_html(input: &str) -> String {
    crate::response::escape_html(input)
}

/// Moved to `ferrapi::html::HTML_CONTENT_SECURITY_POLICY`.
#[deprecated(note = "moved to ferrapi::html::HTML_CONTENT_SECURITY_POLICY")]
#[doc(hidden)]
pub const HTML_CONTENT_SECURITY_POLICY: &str = crate::response::HTML_CONTENT_SECURITY_POLICY;

/// Moved to `ferrapi::route::Route`.
#[deprecated(note = "moved to ferrapi::route::Route")]
#[doc(hidden)]
pub trait Route: crate::routing::Route {}

impl<R: crate::routing::Route + ?Sized> Route for R {}

/// Moved to `ferrapi::route::RouteDef`.
#[deprecated(note = "moved to ferrapi::route::RouteDef")]
#[doc(hidden)]
pub type RouteDef = crate::routing::RouteDef;

/// Moved to `ferrapi::route::RouteInfo`.
#[deprecated(note = "moved to ferrapi::route::RouteInfo")]
#[doc(hidden)]
pub type RouteInfo = crate::routing::RouteInfo;

/// Moved to `ferrapi::serve::ServeError`.
#[deprecated(note = "moved to ferrapi::serve::ServeError")]
#[doc(hidden)]
pub type ServeError = crate::server::ServeError;

/// Moved to `ferrapi::serve::shutdown_signal`.
#[deprecated(note = "moved to ferrapi::serve::shutdown_signal")]
#[doc(hidden)]
pub async fn shutdown_signal() {
    crate::server::shutdown_signal().await;
}

/// Moved to `ferrapi::layer::ServiceFuture`.
#[deprecated(note = "moved to ferrapi::layer::ServiceFuture")]
#[doc(hidden)]
pub type ServiceFuture<B> = crate::dispatch::ServiceFuture<B>;

/// Moved to `ferrapi::layer::BoxError`.
#[deprecated(note = "moved to ferrapi::layer::BoxError")]
#[doc(hidden)]
pub type BoxError = crate::response::BoxError;

/// Moved to `ferrapi::layer::BodyError`.
#[deprecated(note = "moved to ferrapi::layer::BodyError")]
#[doc(hidden)]
pub type BodyError = crate::response::BodyError;

/// Moved to `ferrapi::validation::Validation`.
#[deprecated(note = "moved to ferrapi::validation::Validation")]
#[doc(hidden)]
pub type Validation = crate::extract::Validation;

/// Moved to `ferrapi::security::token_url!`.
#[deprecated(note = "moved to ferrapi::security::token_url")]
#[doc(hidden)]
#[macro_export]
macro_rules! token_url {
    ($($input:tt)*) => {
        $crate::security::token_url! { $($input)* }
    };
}

/// Moved to `ferrapi::arg::param_name!` (still in the prelude).
#[deprecated(note = "moved to ferrapi::arg::param_name (also in ferrapi::prelude)")]
#[doc(hidden)]
#[macro_export]
macro_rules! param_name {
    ($($input:tt)*) => {
        $crate::arg::param_name! { $($input)* }
    };
}
