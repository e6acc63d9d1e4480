//! A file as a response: its validators, conditional requests and byte ranges.
//!
//! Rules enforced here (RFC 9110 §8.8, §13, §14):
//! - every answer carries `ETag` (the file's modification time and length: it changes when the
//!   file does), `Last-Modified` and `Accept-Ranges: bytes`;
//! - `If-None-Match` (weak comparison, `*` too, a list over any number of lines) decides a 304;
//!   only without it does `If-Modified-Since` (to the second); a 304 has no body;
//! - `Range` is honoured for one range (see `range.rs`): 206 with `Content-Range`, or 416 with
//!   `Content-Range: bytes */len`; under `If-Range` only when it names the current version (the
//!   same strong `ETag`, or exactly the `Last-Modified` date), else the whole file;
//! - `Range`, `If-Range` and `If-Modified-Since` are single-valued: sent twice, `Range` and
//!   `If-Modified-Since` are ignored (RFC 9110 §14.2, §13.1.3) and `If-Range` does not hold
//!   (§13.1.5): the whole file, never a part chosen by one of two values;
//! - the body is read from disk in chunks as the client takes them, with its exact length;
//! - the content type comes from the extension (a short table of the web's types, text ones
//!   with `charset=utf-8`), `application/octet-stream` otherwise.

use std::io;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use hyper::header::{
    HeaderValue, ACCEPT_RANGES, CONTENT_RANGE, ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, IF_RANGE,
    LAST_MODIFIED, RANGE,
};
use hyper::{HeaderMap, StatusCode};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::range::{parse_range, Ranged};
use crate::extract::sole_field;
use crate::response::{error_response, Body, IntoResponse, Response, StreamingResponse};

/// A file to answer with: `FileResponse::open(path).await?`, then
/// [`respond`](FileResponse::respond) to the request's headers (conditional requests, ranges) or
/// return it as it is (the whole file, 200).
#[derive(Debug)]
pub struct FileResponse {
    file: tokio::fs::File,
    len: u64,
    modified: Option<SystemTime>,
    content_type: HeaderValue,
}

impl FileResponse {
    /// Open the file at `path` (an error when it cannot be opened or is not a regular file).
    pub async fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref();
        let file = tokio::fs::File::open(path).await?;
        let meta = file.metadata().await?;
        if !meta.is_file() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
        }
        Ok(FileResponse {
            file,
            len: meta.len(),
            modified: meta.modified().ok(),
            content_type: content_type(path),
        })
    }

    /// Set the `Content-Type` (default: from the file's extension).
    pub fn content_type(mut self, content_type: HeaderValue) -> Self {
        self.content_type = content_type;
        self
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The answer to a request with `headers`: 304 when the client's copy is current, 206 (or
    /// 416) for a `Range`, else the whole file.
    pub async fn respond(self, headers: &HeaderMap) -> Response {
        let etag = self.etag();
        let modified = self.modified.map(httpdate::fmt_http_date);
        if not_modified(headers, &etag, self.modified) {
            let mut response = hyper::Response::new(Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            Self::set_validators(&mut response, etag, modified);
            return response;
        }
        let ranged = match sole_field(headers, RANGE).and_then(|v| v.to_str().ok()) {
            Some(range) if if_range_holds(headers, &etag, modified.as_deref()) => {
                parse_range(range, self.len)
            }
            _ => Ranged::Whole,
        };
        match ranged {
            Ranged::Whole => self.whole(etag, modified),
            Ranged::Part { start, end } => self.part(start, end, etag, modified).await,
            Ranged::Unsatisfiable => {
                let mut response =
                    error_response(StatusCode::RANGE_NOT_SATISFIABLE, &json!("Range Not Satisfiable"));
                let range = format!("bytes */{}", self.len);
                if let Ok(value) = HeaderValue::try_from(range) {
                    response.headers_mut().insert(CONTENT_RANGE, value);
                }
                response
            }
        }
    }

    fn etag(&self) -> String {
        let since = self
            .modified
            .and_then(|m| m.duration_since(UNIX_EPOCH).ok())
            .unwrap_or_default();
        format!(
            "\"{:x}.{:x}-{:x}\"",
            since.as_secs(),
            since.subsec_nanos(),
            self.len
        )
    }

    fn whole(self, etag: String, modified: Option<String>) -> Response {
        let content_type = self.content_type.clone();
        let len = self.len;
        let mut response = StreamingResponse::from_reader(self.file)
            .content_type(content_type)
            .content_length(len)
            .into_response();
        Self::set_validators(&mut response, etag, modified);
        response
    }

    async fn part(mut self, start: u64, end: u64, etag: String, modified: Option<String>) -> Response {
        if let Err(error) = self.file.seek(io::SeekFrom::Start(start)).await {
            tracing::error!(error = %error, "cannot seek in a file to answer a range");
            return crate::response::internal_error();
        }
        let len = end - start + 1;
        let mut response = StreamingResponse::from_reader(self.file.take(len))
            .content_type(self.content_type)
            .content_length(len)
            .status(StatusCode::PARTIAL_CONTENT)
            .into_response();
        let range = format!("bytes {start}-{end}/{}", self.len);
        if let Ok(value) = HeaderValue::try_from(range) {
            response.headers_mut().insert(CONTENT_RANGE, value);
        }
        Self::set_validators(&mut response, etag, modified);
        response
    }

    fn set_validators(response: &mut Response, etag: String, modified: Option<String>) {
        let headers = response.headers_mut();
        headers.insert(ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        if let Ok(value) = HeaderValue::try_from(etag) {
            headers.insert(ETAG, value);
        }
        if let Some(Ok(value)) = modified.map(HeaderValue::try_from) {
            headers.insert(LAST_MODIFIED, value);
        }
    }
}

// Not recommended: kept out of the return types a compile error lists (the common ones).
#[diagnostic::do_not_recommend]
impl IntoResponse for FileResponse {
    /// The whole file, 200, with its validators.
    fn into_response(self) -> Response {
        let etag = self.etag();
        let modified = self.modified.map(httpdate::fmt_http_date);
        self.whole(etag, modified)
    }
}

/// True when the client's copy is current: `If-None-Match` names the `etag` (or is `*`), or,
/// without it, `If-Modified-Since` is not before the modification time.
fn not_modified(headers: &HeaderMap, etag: &str, modified: Option<SystemTime>) -> bool {
    let mut lines = headers.get_all(IF_NONE_MATCH).iter().peekable();
    if lines.peek().is_some() {
        let ours = etag.trim_start_matches("W/");
        return lines.any(|list| {
            list.to_str().is_ok_and(|list| {
                list.split(',')
                    .map(str::trim)
                    .any(|tag| tag == "*" || tag.trim_start_matches("W/") == ours)
            })
        });
    }
    let since = sole_field(headers, IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| httpdate::parse_http_date(v).ok());
    match (since, modified) {
        (Some(since), Some(modified)) => seconds(modified) <= seconds(since),
        _ => false,
    }
}

/// True when the `Range` applies: there is no `If-Range`, or it names this version exactly (a
/// repeated one names nothing).
fn if_range_holds(headers: &HeaderMap, etag: &str, modified: Option<&str>) -> bool {
    let mut values = headers.get_all(IF_RANGE).into_iter();
    let Some(value) = values.next() else {
        return true;
    };
    if values.next().is_some() {
        return false;
    }
    let Ok(value) = value.to_str() else {
        return false;
    };
    let value = value.trim();
    if value.starts_with('"') || value.starts_with("W/") {
        // A strong comparison: a weak tag never matches.
        return value == etag;
    }
    modified == Some(value)
}

fn seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The content type of a file, from its extension.
pub(crate) fn content_type(path: &Path) -> HeaderValue {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let mime = match extension.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        Some("md") => "text/markdown; charset=utf-8",
        Some("csv") => "text/csv; charset=utf-8",
        Some("xml") => "application/xml",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("avif") => "image/avif",
        Some("ico") => "image/x-icon",
        Some("wasm") => "application/wasm",
        Some("pdf") => "application/pdf",
        Some("zip") => "application/zip",
        Some("gz") => "application/gzip",
        Some("woff") => "font/woff",
        Some("woff2") => "font/woff2",
        Some("ttf") => "font/ttf",
        Some("otf") => "font/otf",
        Some("mp3") => "audio/mpeg",
        Some("ogg") => "audio/ogg",
        Some("wav") => "audio/wav",
        Some("mp4") => "video/mp4",
        Some("webm") => "video/webm",
        _ => "application/octet-stream",
    };
    HeaderValue::from_static(mime)
}
