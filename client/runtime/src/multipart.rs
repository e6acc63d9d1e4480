//! `multipart/form-data` bodies: form fields and files (uploads from bytes, a path or a stream).
//!
//! Rules enforced here: names and file names are quoted as the HTML standard's form encoding
//! does (`"` as `%22`, line breaks as `%0D%0A`), so no field can forge a part; the boundary is
//! random per body; a body of in-memory parts is sent with its length (and can be retried), a
//! file from a path is streamed from disk chunk by chunk (opened anew for a retry), a file from a
//! stream is sent once (its request is never retried).

use std::path::PathBuf;
use std::sync::Mutex;

use bytes::{BufMut, Bytes, BytesMut};
use futures_util::StreamExt as _;
use hyper::header::HeaderValue;
use serde::Serialize;

use crate::body::{ChunkStream, RequestBody};
use crate::error::BoxError;
use crate::param::ParamValues;
use crate::request::RequestBuilder;

/// A file to upload: its content, name and type.
pub struct File {
    name: Option<String>,
    content_type: Option<String>,
    source: Source,
}

enum Source {
    Bytes(Bytes),
    Path(PathBuf),
    /// Taken by the first attempt.
    Stream(Mutex<Option<ChunkStream>>),
}

impl std::fmt::Debug for File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = match &self.source {
            Source::Bytes(bytes) => format!("{} bytes", bytes.len()),
            Source::Path(path) => path.display().to_string(),
            Source::Stream(_) => "a stream".to_owned(),
        };
        f.debug_struct("File")
            .field("name", &self.name)
            .field("content_type", &self.content_type)
            .field("source", &source)
            .finish()
    }
}

impl File {
    /// A file of `bytes`, named `name`.
    pub fn from_bytes(name: impl Into<String>, bytes: impl Into<Bytes>) -> File {
        File {
            name: Some(name.into()),
            content_type: None,
            source: Source::Bytes(bytes.into()),
        }
    }

    /// The file at `path`, read as the request is sent (named by its file name).
    pub fn from_path(path: impl Into<PathBuf>) -> File {
        let path = path.into();
        File {
            name: path.file_name().map(|name| name.to_string_lossy().into_owned()),
            content_type: None,
            source: Source::Path(path),
        }
    }

    /// A file whose content comes from `chunks`, named `name` (sent once: not retried).
    pub fn from_stream<S, E>(name: impl Into<String>, chunks: S) -> File
    where
        S: futures_core::Stream<Item = Result<Bytes, E>> + Send + 'static,
        E: Into<BoxError>,
    {
        File {
            name: Some(name.into()),
            content_type: None,
            source: Source::Stream(Mutex::new(Some(Box::pin(
                chunks.map(|chunk| chunk.map_err(Into::into)),
            )))),
        }
    }

    /// The file's `Content-Type` (default `application/octet-stream`).
    pub fn content_type(mut self, content_type: impl Into<String>) -> File {
        self.content_type = Some(content_type.into());
        self
    }

    /// The file's name, as sent.
    pub fn name(mut self, name: impl Into<String>) -> File {
        self.name = Some(name.into());
        self
    }
}

impl From<Vec<u8>> for File {
    fn from(bytes: Vec<u8>) -> File {
        File::from_bytes("upload", bytes)
    }
}

/// A model sent as `multipart/form-data`: its fields as parts (generated for the models a
/// document sends so).
pub trait ToParts {
    /// Add a part per field (and per item of a list; none for an absent optional one).
    fn write_parts(&self, form: &mut Multipart);
}

/// One part's content.
enum Content {
    Bytes(Bytes),
    Path(PathBuf),
    Stream(ChunkStream),
}

/// A `multipart/form-data` body being built.
pub struct Multipart {
    boundary: String,
    /// Each part's head and content, in order.
    parts: Vec<(Bytes, Content)>,
    error: Option<String>,
}

impl std::fmt::Debug for Multipart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Multipart({} parts)", self.parts.len())
    }
}

impl Default for Multipart {
    fn default() -> Self {
        Multipart::new()
    }
}

impl Multipart {
    /// An empty body.
    pub fn new() -> Self {
        Multipart {
            boundary: format!(
                "ferrapi-{:016x}{:016x}",
                crate::random::next_u64(),
                crate::random::next_u64()
            ),
            parts: Vec::new(),
            error: None,
        }
    }

    fn head(&self, name: &str, file_name: Option<&str>, content_type: Option<&str>) -> Bytes {
        let mut head = BytesMut::with_capacity(128);
        head.put_slice(b"--");
        head.put_slice(self.boundary.as_bytes());
        head.put_slice(b"\r\nContent-Disposition: form-data; name=\"");
        head.put_slice(quoted(name).as_bytes());
        head.put_slice(b"\"");
        if let Some(file_name) = file_name {
            head.put_slice(b"; filename=\"");
            head.put_slice(quoted(file_name).as_bytes());
            head.put_slice(b"\"");
        }
        if let Some(content_type) = content_type {
            head.put_slice(b"\r\nContent-Type: ");
            head.put_slice(content_type.replace(['\r', '\n'], " ").as_bytes());
        }
        head.put_slice(b"\r\n\r\n");
        head.freeze()
    }

    /// A text field `name`, once per value (none for `None`).
    pub fn text(&mut self, name: &str, values: &(impl ParamValues + ?Sized)) {
        values.each_value(&mut |value| {
            let mut text = String::new();
            value.write_param(&mut text);
            let head = self.head(name, None, None);
            self.parts.push((head, Content::Bytes(Bytes::from(text))));
        });
    }

    /// A field `name` holding `value`'s JSON (an object or a list in a form).
    pub fn json<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) {
        match serde_json::to_vec(value) {
            Ok(json) => {
                let head = self.head(name, None, Some("application/json"));
                self.parts.push((head, Content::Bytes(Bytes::from(json))));
            }
            Err(error) => {
                self.error.get_or_insert(format!("field `{name}`: {error}"));
            }
        }
    }

    /// A file field `name`.
    pub fn file(&mut self, name: &str, file: &File) {
        let content = match &file.source {
            Source::Bytes(bytes) => Content::Bytes(bytes.clone()),
            Source::Path(path) => Content::Path(path.clone()),
            Source::Stream(stream) => match stream.lock().ok().and_then(|mut stream| stream.take()) {
                Some(stream) => Content::Stream(stream),
                None => {
                    self.error
                        .get_or_insert(format!("file `{name}`: a stream can be sent only once"));
                    return;
                }
            },
        };
        let content_type = file.content_type.as_deref().unwrap_or("application/octet-stream");
        let head = self.head(
            name,
            Some(file.name.as_deref().unwrap_or("upload")),
            Some(content_type),
        );
        self.parts.push((head, content));
    }

    /// A file field `name`, once per file of `files` (none for `None`).
    pub fn files<'a>(&mut self, name: &str, files: impl IntoIterator<Item = &'a File>) {
        for file in files {
            self.file(name, file);
        }
    }

    /// The body and its content type, and whether it can be built again.
    fn finish(self) -> Result<(RequestBody, HeaderValue, bool), String> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let content_type = HeaderValue::try_from(format!("multipart/form-data; boundary={}", self.boundary))
            .map_err(|_| "the multipart boundary".to_owned())?;
        let closing = Bytes::from(format!("--{}--\r\n", self.boundary));
        let in_memory = self
            .parts
            .iter()
            .all(|(_, content)| matches!(content, Content::Bytes(_)));
        if in_memory {
            let mut body = BytesMut::new();
            for (head, content) in &self.parts {
                body.put_slice(head);
                if let Content::Bytes(bytes) = content {
                    body.put_slice(bytes);
                }
                body.put_slice(b"\r\n");
            }
            body.put_slice(&closing);
            return Ok((RequestBody::full(body.freeze()), content_type, true));
        }
        let replayable = !self
            .parts
            .iter()
            .any(|(_, content)| matches!(content, Content::Stream(_)));
        let mut pieces: Vec<ChunkStream> = Vec::new();
        for (head, content) in self.parts {
            pieces.push(once(head));
            pieces.push(match content {
                Content::Bytes(bytes) => once(bytes),
                Content::Stream(stream) => stream,
                Content::Path(path) => from_path(path),
            });
            pieces.push(once(Bytes::from_static(b"\r\n")));
        }
        pieces.push(once(closing));
        let body: ChunkStream = Box::pin(futures_util::stream::iter(pieces).flatten());
        Ok((RequestBody::stream(body), content_type, replayable))
    }
}

/// One chunk as a stream.
fn once(bytes: Bytes) -> ChunkStream {
    Box::pin(futures_util::stream::once(std::future::ready(Ok(bytes))))
}

/// The file at `path`, opened when first polled, read in chunks.
fn from_path(path: PathBuf) -> ChunkStream {
    let opened = async move {
        match tokio::fs::File::open(&path).await {
            Ok(file) => tokio_util::io::ReaderStream::new(file)
                .map(|chunk| chunk.map_err(BoxError::from))
                .left_stream(),
            Err(error) => {
                let error: BoxError = format!("{}: {error}", path.display()).into();
                futures_util::stream::once(std::future::ready(Err(error))).right_stream()
            }
        }
    };
    Box::pin(futures_util::stream::once(opened).flatten())
}

/// `text` as a quoted-string of a `Content-Disposition` (the HTML standard's escaping).
fn quoted(text: &str) -> String {
    text.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A")
}

impl RequestBuilder {
    /// The body: `form`.
    pub fn multipart(&mut self, form: Multipart) {
        match form.finish() {
            Ok((body, content_type, replayable)) => self.body(body, content_type, replayable),
            Err(why) => self.fail(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_files_in_one_body_with_its_length() {
        let mut form = Multipart::new();
        form.text("note", &"hi");
        form.text("tag", &vec!["a", "b"]);
        form.file(
            "file",
            &File::from_bytes("a\"b.txt", &b"xyz"[..]).content_type("text/plain"),
        );
        let boundary = form.boundary.clone();
        let (body, content_type, replayable) = form.finish().unwrap();
        assert!(replayable);
        assert_eq!(
            content_type,
            format!("multipart/form-data; boundary={boundary}").as_str()
        );
        let text = String::from_utf8(body.as_bytes().unwrap().to_vec()).unwrap();
        let expected = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"tag\"\r\n\r\na\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"tag\"\r\n\r\nb\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a%22b.txt\"\r\nContent-Type: text/plain\r\n\r\nxyz\r\n\
             --{b}--\r\n",
            b = boundary
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn a_stream_is_sent_once() {
        let file = File::from_stream(
            "s",
            futures_util::stream::iter([Ok::<_, std::io::Error>(Bytes::from("x"))]),
        );
        let mut first = Multipart::new();
        first.file("f", &file);
        let (_, _, replayable) = first.finish().unwrap();
        assert!(!replayable);
        let mut second = Multipart::new();
        second.file("f", &file);
        assert!(second.finish().is_err());
    }
}
