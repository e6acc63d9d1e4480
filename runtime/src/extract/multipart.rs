//! File uploads: [`Multipart`], a `multipart/form-data` body read part by part as it arrives
//! (parsed by `multer`), each part a [`Part`] (a file, or a text field). (Files as route arguments, read before the
//! route runs, are `UploadFile`s: see `body/upload.rs`.)
//!
//! Rules enforced here:
//! - an upload is never held whole: the route reads each part as a stream of chunks
//!   ([`Part::chunk`]), or saves it to a file ([`Part::save_to`]) chunk by chunk; only
//!   [`Part::bytes`] and [`Part::text`] collect a part, within the part limit;
//! - a file `save_to` writes is whole or gone: a guard (`body/partial_file.rs`) removes it on every way
//!   out but success, the route's future dropped by a client gone or a timeout included (the
//!   removal after an error return alone left the file then);
//! - bytes are bytes: nothing of a part is decoded unless the route asks for text;
//! - limits (`Config::upload_limit`, all parts; `Config::upload_part_limit`, one part): a declared
//!   `Content-Length` over the total is answered 413 before any byte is read (by the dispatcher),
//!   and a part or a stream that grows over its limit fails with [`MultipartError`], answered
//!   413, as soon as the excess arrives: the rest is not read; a stream that misses its deadline
//!   (`Config::body_timeout`) fails too, answered 408 and the connection closed;
//! - a body that is not `multipart/form-data` with a boundary (none, JSON, an urlencoded form) is a
//!   422 with each required part [`UploadDoc`] declares `missing` at `["body", name]`, as FastAPI
//!   answers a file route given no file (`missing` at `["body"]` when none is declared); a
//!   malformed body is a 400;
//! - documented as `multipart/form-data` with the parts [`UploadDoc`] lists, files as
//!   `type: string, format: binary` (Swagger UI shows a file picker for them).

use std::marker::PhantomData;
use std::path::Path;

use bytes::Bytes;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

use super::arg::{Body, Extract};
use super::param::Param;
use crate::body::{boundary_of, BodyInput, MultipartError, PartialFile};

use super::request::RequestCx;
use crate::openapi::{form_schema, Operation};
use crate::validate::{title_case, LocItem, SchemaRegistry, ValidationErrors};

/// One part of an upload, as it is declared in the document.
#[derive(Debug, Clone, Copy)]
pub struct PartDoc {
    name: &'static str,
    file: bool,
    many: bool,
    required: bool,
}

impl PartDoc {
    /// A file part `name` (required).
    pub const fn file(name: &'static str) -> Self {
        PartDoc {
            name,
            file: true,
            many: false,
            required: true,
        }
    }

    /// Any number of file parts named `name`.
    pub const fn files(name: &'static str) -> Self {
        PartDoc {
            name,
            file: true,
            many: true,
            required: false,
        }
    }

    /// A text part `name` (required).
    pub const fn text(name: &'static str) -> Self {
        PartDoc {
            name,
            file: false,
            many: false,
            required: true,
        }
    }

    /// The same part, optional.
    pub const fn optional(self) -> Self {
        PartDoc {
            required: false,
            ..self
        }
    }

    fn schema(&self) -> Value {
        let one = if self.file {
            json!({ "type": "string", "format": "binary", "contentMediaType": "application/octet-stream" })
        } else {
            json!({ "type": "string" })
        };
        let mut schema = if self.many {
            json!({ "type": "array", "items": one })
        } else {
            one
        };
        if let Value::Object(map) = &mut schema {
            map.insert("title".into(), json!(title_case(self.name)));
        }
        schema
    }
}

/// What an upload's parts are, for the document: `Multipart<MyUpload>` where `MyUpload`
/// implements it. The parts are not checked: the route reads what it finds.
pub trait UploadDoc: Send + 'static {
    /// The schema's name in `components.schemas`.
    const NAME: &'static str;
    /// The parts.
    const PARTS: &'static [PartDoc];
}

/// The [`UploadDoc`] of an upload documented as any parts.
#[derive(Debug, Clone, Copy, Default)]
pub struct AnyParts;

impl UploadDoc for AnyParts {
    const NAME: &'static str = "";
    const PARTS: &'static [PartDoc] = &[];
}

/// A `multipart/form-data` body, read part by part as it arrives (FastAPI's `UploadFile` and
/// `Form` fields, in one stream): `while let Some(part) = upload.next_part().await? { .. }`.
/// `D` documents the parts (see [`UploadDoc`]).
pub struct Multipart<D = AnyParts> {
    inner: multer::Multipart<'static>,
    doc: PhantomData<fn() -> D>,
}

impl<D> std::fmt::Debug for Multipart<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Multipart")
    }
}

impl<D> Multipart<D> {
    /// The next part, or `None` after the last. A part must be read (or dropped) before the next.
    pub async fn next_part(&mut self) -> Result<Option<Part>, MultipartError> {
        let field = self.inner.next_field().await.map_err(MultipartError::parse)?;
        Ok(field.map(|inner| Part { inner, size: 0 }))
    }
}

/// One part of a [`Multipart`] upload, read as it arrives: a file (with a file name and content
/// type) or a text field. (Named `UploadFile` before files could be route arguments.)
pub struct Part {
    inner: multer::Field<'static>,
    size: u64,
}

impl std::fmt::Debug for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part")
            .field("name", &self.name())
            .field("file_name", &self.file_name())
            .field("content_type", &self.content_type())
            .field("size", &self.size)
            .finish()
    }
}

impl Part {
    /// The part's name (the form field's).
    pub fn name(&self) -> Option<&str> {
        self.inner.name()
    }

    /// The file name the client gave, for a file.
    pub fn file_name(&self) -> Option<&str> {
        self.inner.file_name()
    }

    /// The part's content type, as the client declared it.
    pub fn content_type(&self) -> Option<&str> {
        self.inner.content_type().map(|mime| mime.as_ref())
    }

    /// The bytes read from the part so far; its whole size once read.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The next chunk of the part, as it arrives; `None` at its end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, MultipartError> {
        let chunk = self.inner.chunk().await.map_err(MultipartError::parse)?;
        if let Some(chunk) = &chunk {
            self.size += chunk.len() as u64;
        }
        Ok(chunk)
    }

    /// The whole part, within the part limit.
    pub async fn bytes(&mut self) -> Result<Bytes, MultipartError> {
        let mut out = Vec::new();
        while let Some(chunk) = self.chunk().await? {
            out.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(out))
    }

    /// The whole part as UTF-8 text (invalid UTF-8 is a 400).
    pub async fn text(&mut self) -> Result<String, MultipartError> {
        let bytes = self.bytes().await?;
        String::from_utf8(bytes.to_vec()).map_err(|_| MultipartError::not_utf8())
    }

    /// Write the part to a new file at `path` (replacing one there), chunk by chunk; returns its
    /// size. The file is removed unless the whole part was written: on an error (a limit
    /// reached, a malformed body, a failed write) and when the route's future is dropped
    /// mid-way (the client went away, a timeout cancelled the request).
    pub async fn save_to(&mut self, path: impl AsRef<Path>) -> Result<u64, MultipartError> {
        let io = |error: std::io::Error| MultipartError::io(error);
        // Declared before the file, so dropped after it: the file is closed (or its last write
        // handed to the blocking pool) before it is removed.
        let (partial, file) = PartialFile::create(path.as_ref()).map_err(io)?;
        let mut file = tokio::fs::File::from_std(file);
        let start = self.size;
        while let Some(chunk) = self.chunk().await? {
            file.write_all(&chunk).await.map_err(io)?;
        }
        file.flush().await.map_err(io)?;
        partial.keep();
        Ok(self.size - start)
    }
}

/// The errors of a body that is not multipart: each required part `D` declares is `missing` at
/// `["body", name]`, as FastAPI reports a file route's declared parts; without a declared part,
/// the body is `missing` at `["body"]`.
fn missing_parts<D: UploadDoc>(errors: &mut ValidationErrors) {
    let mut required = D::PARTS.iter().filter(|part| part.required).peekable();
    if required.peek().is_none() {
        errors.missing(vec![LocItem::Static("body")]);
    }
    for part in required {
        errors.missing(vec![LocItem::Static("body"), LocItem::Static(part.name)]);
    }
}

/// The boundary of a `multipart/form-data` request.
fn boundary(cx: &RequestCx<'_>) -> Option<String> {
    boundary_of(cx.headers())
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl<D: UploadDoc> Extract for Multipart<D> {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let taken = match cx.body_input() {
            BodyInput::Stream(slot) => boundary(cx).and_then(|b| slot.take().map(|body| (slot, body, b))),
            _ => None,
        };
        let Some((slot, body, boundary)) = taken else {
            missing_parts::<D>(errors);
            return None;
        };
        // The body's limit is checked as its bytes arrive (`body/limit.rs`), a part's by the
        // parser.
        let limits = multer::SizeLimit::new().per_field(slot.part);
        let constraints = multer::Constraints::new().size_limit(limits);
        let stream = body.into_data_stream();
        Some(Multipart {
            inner: multer::Multipart::with_constraints(stream, boundary, constraints),
            doc: PhantomData,
        })
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let name = if D::NAME.is_empty() {
            format!("Body_{}", param.name())
        } else {
            D::NAME.to_owned()
        };
        let parts = D::PARTS
            .iter()
            .map(|part| (part.name, part.schema(), part.required));
        let reference = form_schema(&name, parts, registry);
        op.request_body_as("multipart/form-data", reference);
    }
}

impl<D: UploadDoc> Body for Multipart<D> {
    const STREAMED: bool = true;
}
