//! Files sent and received: a file as a response ([`FileResponse`]) and a directory served
//! under a path prefix ([`StaticDir`], a layer), with the caching and range behaviour browsers
//! expect; an uploaded file ([`UploadFile`]) and a multipart body read part by part
//! ([`Multipart`], its [`Part`]s, [`MultipartError`]). See the manual's [Streaming, events, files
//! and WebSockets](crate#streaming-events-files-and-websockets) and [Headers, cookies, forms,
//! uploads and security schemes](crate#headers-cookies-forms-uploads-and-security-schemes).
//!
//! Its files:
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
// The uploads are read by `extract` and `body`: this module is their public door.
pub use crate::body::{MultipartError, UploadFile};
pub use crate::extract::{Multipart, Part};
