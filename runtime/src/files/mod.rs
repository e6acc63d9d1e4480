//! Files: a file as a response ([`FileResponse`]) and a directory served under a path prefix
//! ([`StaticDir`], a layer), with the caching and range behaviour browsers expect. Its files:
//! `file` (validators, 304, ranges), `dir` (the layer, resolution inside the root), `range` (the
//! `Range` header), `path` (the request path, normalised).
//!
//! Rules enforced here: this layer sits on top (it uses `dispatch`'s layers and `response`'s
//! bodies); nothing below depends on it.

mod dir;
mod file;
mod path;
mod range;

pub use dir::{ServeStatic, ServeStaticFuture, StaticDir};
pub use file::FileResponse;
