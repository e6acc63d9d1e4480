//! A directory served under a path prefix, as a layer ([`StaticDir`], added with `App::layer`).
//!
//! Rules enforced here:
//! - only `GET` and `HEAD` requests whose path is the prefix or under it (`/static/...`, never
//!   `/staticfoo`) are answered here; every other request goes on to the app untouched;
//! - the rest of the path is normalised by `path.rs` (traversal refused), then resolved to its
//!   canonical path, which must lie inside the canonical root: a symlink pointing out of the
//!   directory is refused like a `..`; a refused or missing file is the app's plain 404, never a
//!   hint of what exists outside;
//! - a directory is answered with its `index.html` (resolved and checked the same way), if any;
//! - a file is answered by [`FileResponse::respond`] (validators, 304, ranges).

use std::future::Future;
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::{HeaderMap, Method, Request, StatusCode};
use serde_json::json;

use super::file::FileResponse;
use super::path::normalise;
use crate::response::{error_response, Body, BoxError, Response};

/// Serve the files of a directory under a path prefix: `App::new().layer(StaticDir::new("/static",
/// "public")?)` answers `GET /static/css/site.css` with `public/css/site.css`.
#[derive(Debug, Clone)]
pub struct StaticDir {
    inner: Arc<Dir>,
}

#[derive(Debug)]
struct Dir {
    /// The prefix, without a trailing `/` (empty for the root).
    prefix: String,
    /// The canonical root.
    root: PathBuf,
}

impl StaticDir {
    /// Serve `root` under `prefix` (e.g. `"/static"`; `"/"` serves it at the root). Fails when
    /// `root` is not a directory that can be resolved.
    pub fn new(prefix: &str, root: impl AsRef<Path>) -> io::Result<Self> {
        let root = std::fs::canonicalize(root)?;
        if !root.is_dir() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a directory"));
        }
        let prefix = prefix.trim_end_matches('/');
        let prefix = if prefix.is_empty() || prefix.starts_with('/') {
            prefix.to_owned()
        } else {
            format!("/{prefix}")
        };
        Ok(StaticDir {
            inner: Arc::new(Dir { prefix, root }),
        })
    }

    /// The answer to `GET`/`HEAD` of `rest` (the path after the prefix, still encoded).
    async fn serve(&self, rest: &str, headers: &HeaderMap) -> Response {
        let Some(relative) = normalise(rest) else {
            return not_found();
        };
        let Some(mut path) = self.resolve(&self.inner.root.join(relative)).await else {
            return not_found();
        };
        if tokio::fs::metadata(&path).await.is_ok_and(|m| m.is_dir()) {
            match self.resolve(&path.join("index.html")).await {
                Some(index) => path = index,
                None => return not_found(),
            }
        }
        match FileResponse::open(&path).await {
            Ok(file) => file.respond(headers).await,
            Err(_) => not_found(),
        }
    }

    /// The canonical form of `candidate` when it exists and lies inside the root.
    async fn resolve(&self, candidate: &Path) -> Option<PathBuf> {
        let resolved = tokio::fs::canonicalize(candidate).await.ok()?;
        if resolved.starts_with(&self.inner.root) {
            Some(resolved)
        } else {
            tracing::warn!(path = %candidate.display(), "static file outside the root refused (a symlink out of it)");
            None
        }
    }

    /// The part of `path` after the prefix, when the request is one of ours.
    fn rest<'p>(&self, path: &'p str) -> Option<&'p str> {
        let rest = path.strip_prefix(self.inner.prefix.as_str())?;
        (rest.is_empty() || rest.starts_with('/')).then_some(rest)
    }
}

fn not_found() -> Response {
    error_response(StatusCode::NOT_FOUND, &json!("Not Found"))
}

impl<S> tower::Layer<S> for StaticDir {
    type Service = ServeStatic<S>;

    fn layer(&self, inner: S) -> ServeStatic<S> {
        ServeStatic {
            dir: self.clone(),
            inner,
        }
    }
}

/// The service of a [`StaticDir`] layer: its files, or the service it wraps.
#[derive(Debug, Clone)]
pub struct ServeStatic<S> {
    dir: StaticDir,
    inner: S,
}

/// The future of [`ServeStatic`].
pub type ServeStaticFuture<E> = Pin<Box<dyn Future<Output = Result<Response, E>> + Send>>;

impl<S, ReqBody, ResBody> tower::Service<Request<ReqBody>> for ServeStatic<S>
where
    S: tower::Service<Request<ReqBody>, Response = hyper::Response<ResBody>>,
    S::Future: Send + 'static,
    ResBody: hyper::body::Body<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = ServeStaticFuture<S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<ReqBody>) -> Self::Future {
        let ours = matches!(*request.method(), Method::GET | Method::HEAD);
        if let Some(rest) = ours.then(|| self.dir.rest(request.uri().path())).flatten() {
            let rest = rest.to_owned();
            let dir = self.dir.clone();
            let (parts, _body) = request.into_parts();
            return Box::pin(async move { Ok(dir.serve(&rest, &parts.headers).await) });
        }
        let future = self.inner.call(request);
        Box::pin(async move {
            let response = future.await?;
            Ok(response.map(Body::new))
        })
    }
}
