//! Reading the form of a route that takes files (`UploadFile` arguments) before its arguments
//! are converted: [`read_form`], run by the dispatcher, gives the [`FormParts`] the arguments
//! read synchronously (files and `Form<T>` fields alike).
//!
//! Rules enforced here (FastAPI 0.165's, measured: tests/fastapi/observed_uploads.json):
//! - a `multipart/form-data` body with a boundary is read part by part as it arrives: a part with
//!   a file name is a file, kept in memory up to [`SPOOL_THRESHOLD`] bytes and in an unnamed
//!   temporary file beyond (`tempfile::tempfile`: the OS removes it when it is closed, even if
//!   the process dies), so an upload of any size costs a bounded amount of memory; a part
//!   without a file name is text; a part with an empty file name and no content is no part (a
//!   browser's empty file input);
//! - an `application/x-www-form-urlencoded` body is read whole, within the body limit, each pair
//!   a text part (FastAPI reads it as a form: the files are then `missing`, a `file=x` pair is
//!   text where a file is expected); any other body, or none, is an empty form and is not read;
//! - the limits are the uploads' (`Config::upload_limit`, all parts; `Config::upload_part_limit`,
//!   one part): a part or a body over its limit is answered 413 as soon as the excess arrives, a
//!   malformed body 400, a text part that is not UTF-8 400, a body that misses its deadline 408
//!   (the answers of [`MultipartError`]); a temporary file that cannot be written is a logged 500;
//! - what a form keeps in memory (text parts, the in-memory part of files, an urlencoded body) is
//!   charged against the memory budget before it is kept (503 or 413 when it does not fit); what
//!   goes to temporary files is not memory.

use std::sync::Mutex;

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Body as _;
use hyper::header::CONTENT_TYPE;
use hyper::HeaderMap;
use tokio::io::{AsyncSeekExt, AsyncWriteExt};

use super::form::{FormParts, PartValue};
use super::limit::{Limit, Limited};
use super::multipart::{boundary_of, MultipartError};
use super::reader::BodyReader;
use super::upload::{Data, UploadFile};
use crate::budget::Charge;
use crate::response::{over_budget, Body, IntoResponse, Response};

/// The bytes of one file kept in memory before it goes to a temporary file: Starlette's
/// `SpooledTemporaryFile` threshold (1 MiB), so a small upload never touches the disk.
pub(crate) const SPOOL_THRESHOLD: usize = 1 << 20;

/// The limits a form is read within.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FormLimits {
    /// All parts of a multipart body (`Config::upload_limit`).
    pub(crate) total: Limit,
    /// One part (`Config::upload_part_limit`).
    pub(crate) part: u64,
    /// An urlencoded body (`Config::body_limit`).
    pub(crate) urlencoded: Limit,
    /// The bytes of a file kept in memory.
    pub(crate) spool_threshold: usize,
}

/// The media types a form is read from.
enum FormKind {
    Multipart(String),
    Urlencoded,
    Other,
}

fn form_kind(headers: &HeaderMap) -> FormKind {
    let Some(value) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return FormKind::Other;
    };
    let essence = value.split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
        return FormKind::Urlencoded;
    }
    match boundary_of(headers) {
        Some(boundary) if essence.eq_ignore_ascii_case("multipart/form-data") => {
            FormKind::Multipart(boundary)
        }
        _ => FormKind::Other,
    }
}

/// Read the form `body` (see the rules at the top); an `Err` is the request's answer. What it
/// keeps in memory is charged to `charge` first, when the app has a memory budget.
pub(crate) async fn read_form(
    headers: &HeaderMap,
    body: Body,
    limits: FormLimits,
    charge: Option<&Charge>,
) -> Result<FormParts, Response> {
    let budget = Budget(charge);
    match form_kind(headers) {
        FormKind::Multipart(boundary) => read_multipart(body, boundary, limits, budget).await,
        FormKind::Urlencoded => {
            // The body, then its pairs as strings: charged before they are read, by the declared
            // length, and again for what arrived beyond it.
            let declared = usize::try_from(body.size_hint().lower()).unwrap_or(usize::MAX);
            budget.grow(declared.saturating_mul(2))?;
            let mut reader = BodyReader::new(body, limits.urlencoded, None, (super::Handed::default(), 0))?;
            let bytes = std::future::poll_fn(|cx| reader.poll_read(cx)).await?;
            budget.grow(bytes.len().saturating_sub(declared).saturating_mul(2))?;
            let parts = form_urlencoded::parse(&bytes)
                .map(|(name, value)| (name.into_owned(), PartValue::Text(value.into_owned())))
                .collect();
            Ok(FormParts::new(parts))
        }
        FormKind::Other => Ok(FormParts::default()),
    }
}

/// The request's memory charge, when the app has a budget.
#[derive(Clone, Copy)]
struct Budget<'a>(Option<&'a Charge>);

impl Budget<'_> {
    /// Charge `bytes` before they are kept; the answer to a refusal.
    fn grow(self, bytes: usize) -> Result<(), Response> {
        match self.0 {
            Some(charge) => charge.grow(bytes).map_err(over_budget),
            None => Ok(()),
        }
    }
}

async fn read_multipart(
    body: Body,
    boundary: String,
    limits: FormLimits,
    budget: Budget<'_>,
) -> Result<FormParts, Response> {
    // The body's limit is checked as its bytes arrive (`limit.rs`), a part's by the parser.
    let size_limit = multer::SizeLimit::new().per_field(limits.part);
    let constraints = multer::Constraints::new().size_limit(size_limit);
    let stream = Limited::new(body, limits.total).into_data_stream();
    let mut multipart = multer::Multipart::with_constraints(stream, boundary, constraints);
    let mut parts = Vec::new();
    while let Some(mut field) = multipart.next_field().await.map_err(refused_part)? {
        let name = field.name().unwrap_or("").to_owned();
        let Some(filename) = field.file_name().map(str::to_owned) else {
            let mut text = Vec::new();
            while let Some(chunk) = field.chunk().await.map_err(refused_part)? {
                // Twice: the text grows by doubling.
                budget.grow(chunk.len().saturating_mul(2))?;
                text.extend_from_slice(&chunk);
            }
            let text = String::from_utf8(text).map_err(|_| MultipartError::not_utf8().into_response())?;
            parts.push((name, PartValue::Text(text)));
            continue;
        };
        let content_type = field.content_type().map(|mime| mime.to_string());
        let headers = field.headers().clone();
        let mut spool = Spool::new(limits.spool_threshold);
        while let Some(chunk) = field.chunk().await.map_err(refused_part)? {
            if spool.keeps_in_memory(chunk.len()) {
                budget.grow(chunk.len().saturating_mul(2))?;
            }
            spool
                .push(chunk)
                .await
                .map_err(|error| MultipartError::io(error).into_response())?;
        }
        if filename.is_empty() && spool.size == 0 {
            continue;
        }
        let (size, data) = spool
            .finish()
            .await
            .map_err(|error| MultipartError::io(error).into_response())?;
        let file = UploadFile::new(Some(filename), content_type, headers, size, data);
        parts.push((name, PartValue::File(Mutex::new(Some(Box::new(file))))));
    }
    Ok(FormParts::new(parts))
}

/// The answer to a part that could not be read.
fn refused_part(error: multer::Error) -> Response {
    MultipartError::parse(error).into_response()
}

/// One file being received: in memory up to the threshold, then in a temporary file.
struct Spool {
    threshold: usize,
    memory: BytesMut,
    file: Option<tokio::fs::File>,
    size: u64,
}

impl Spool {
    fn new(threshold: usize) -> Self {
        Spool {
            threshold,
            memory: BytesMut::new(),
            file: None,
            size: 0,
        }
    }

    /// True when a chunk of `len` bytes would be kept in memory (not in the file).
    fn keeps_in_memory(&self, len: usize) -> bool {
        self.file.is_none() && self.memory.len() + len <= self.threshold
    }

    async fn push(&mut self, chunk: Bytes) -> std::io::Result<()> {
        self.size += chunk.len() as u64;
        if let Some(file) = &mut self.file {
            return file.write_all(&chunk).await;
        }
        if self.memory.len() + chunk.len() <= self.threshold {
            self.memory.extend_from_slice(&chunk);
            return Ok(());
        }
        // Created in the blocking pool: a file system call may block the worker.
        let file = tokio::task::spawn_blocking(tempfile::tempfile)
            .await
            .map_err(std::io::Error::other)??;
        let mut file = tokio::fs::File::from_std(file);
        file.write_all(&std::mem::take(&mut self.memory)).await?;
        file.write_all(&chunk).await?;
        self.file = Some(file);
        Ok(())
    }

    async fn finish(self) -> std::io::Result<(u64, Data)> {
        let data = match self.file {
            None => Data::memory(self.memory.freeze()),
            Some(mut file) => {
                file.flush().await?;
                file.rewind().await?;
                Data::Disk(file)
            }
        };
        Ok((self.size, data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;
    use tokio::io::AsyncReadExt;

    const LIMITS: FormLimits = FormLimits {
        total: Limit::new(1 << 20),
        part: 1 << 16,
        urlencoded: Limit::new(64),
        spool_threshold: 8,
    };

    fn headers(content_type: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        headers
    }

    async fn read(
        content_type: &'static str,
        body: &'static str,
        limits: FormLimits,
    ) -> Result<FormParts, u16> {
        read_bytes(content_type, body.as_bytes(), limits).await
    }

    async fn read_bytes(
        content_type: &'static str,
        body: &'static [u8],
        limits: FormLimits,
    ) -> Result<FormParts, u16> {
        let body = Body::from(Bytes::from_static(body));
        read_form(&headers(content_type), body, limits, None)
            .await
            .map_err(|response| response.status().as_u16())
    }

    const MULTIPART: &str = "multipart/form-data; boundary=b";

    fn take(form: &FormParts, name: &str) -> Option<UploadFile> {
        match form.named(name).last()? {
            PartValue::File(slot) => slot.lock().ok()?.take().map(|file| *file),
            PartValue::Text(_) => None,
        }
    }

    #[tokio::test]
    async fn files_and_text_in_order_small_files_in_memory_large_ones_on_disk() {
        let body = "--b\r\nContent-Disposition: form-data; name=\"small\"; filename=\"s.txt\"\r\nContent-Type: text/plain\r\n\r\nabc\r\n\
                    --b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n\
                    --b\r\nContent-Disposition: form-data; name=\"large\"; filename=\"l.bin\"\r\n\r\n0123456789abcdef\r\n\
                    --b\r\nContent-Disposition: form-data; name=\"none\"; filename=\"\"\r\n\r\n\r\n--b--\r\n";
        let form = read(MULTIPART, body, LIMITS).await.expect("read");
        assert_eq!(form.texts().collect::<Vec<_>>(), [("note", "hi")]);
        assert_eq!(form.named("none").count(), 0, "an empty file input is no part");
        let mut small = take(&form, "small").expect("small");
        assert_eq!(
            (small.filename(), small.content_type(), small.size()),
            (Some("s.txt"), Some("text/plain"), 3)
        );
        assert!(!small.on_disk());
        assert_eq!(small.read_all().await.expect("read").as_ref(), b"abc");
        let mut large = take(&form, "large").expect("large");
        assert!(large.on_disk());
        let mut content = String::new();
        large.read_to_string(&mut content).await.expect("read");
        assert_eq!((content.as_str(), large.size()), ("0123456789abcdef", 16));
        assert!(take(&form, "large").is_none(), "a file is taken once");
    }

    #[tokio::test]
    async fn urlencoded_pairs_are_text_and_other_bodies_are_an_empty_form() {
        let form = read("application/x-www-form-urlencoded", "file=x&note=a+b", LIMITS)
            .await
            .expect("read");
        assert_eq!(form.texts().collect::<Vec<_>>(), [("file", "x"), ("note", "a b")]);
        for content_type in ["application/json", "multipart/form-data", "text/plain"] {
            let form = read(content_type, "file=x", LIMITS).await.expect("read");
            assert_eq!(form.len(), 0, "{content_type}");
        }
    }

    #[tokio::test]
    async fn limits_and_malformed_bodies_are_answered() {
        let long = "a=0123456789012345678901234567890123456789012345678901234567890123456789";
        assert_eq!(
            read("application/x-www-form-urlencoded", long, LIMITS)
                .await
                .err(),
            Some(413)
        );
        let body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\r\n\r\n0123456789\r\n--b--\r\n";
        let small_part = FormLimits { part: 4, ..LIMITS };
        assert_eq!(read(MULTIPART, body, small_part).await.err(), Some(413));
        assert_eq!(read(MULTIPART, "garbage", LIMITS).await.err(), Some(400));
        let not_utf8 = b"--b\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\n\xff\r\n--b--\r\n";
        assert_eq!(
            read_bytes(MULTIPART, not_utf8, LIMITS).await.err(),
            Some(400),
            "a text part not UTF-8"
        );
    }
}
