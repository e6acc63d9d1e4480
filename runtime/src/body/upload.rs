//! [`UploadFile`], a file a client sent in a `multipart/form-data` form, received whole before
//! the route runs (see `spool`, which makes them, and `extract/file_args.rs`, the arguments taking
//! them).
//!
//! Rules enforced here: a file is read from memory or from its temporary file alike (an
//! `AsyncRead + AsyncSeek`); `save_to` leaves no partial file behind (`partial_file`).

use std::io::{Cursor, SeekFrom};
use std::path::Path;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::HeaderMap;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncSeek, AsyncSeekExt, AsyncWriteExt, ReadBuf};

use super::partial_file::PartialFile;

/// Where an upload's bytes are: in memory (a small file), or in an unnamed temporary file.
#[derive(Debug)]
pub(super) enum Data {
    Memory(Cursor<Bytes>),
    Disk(tokio::fs::File),
}

impl Data {
    pub(super) fn memory(bytes: Bytes) -> Self {
        Data::Memory(Cursor::new(bytes))
    }
}

/// A file sent in a `multipart/form-data` form, as a route argument (FastAPI's `UploadFile`):
/// `file: UploadFile`, `Option<UploadFile>`, `Vec<UploadFile>`, next to `Form<T>` fields. The
/// whole upload was received before the route runs: a small file in memory, a large one in a
/// temporary file the OS removes when the `UploadFile` is dropped. Read it with
/// [`read_all`](UploadFile::read_all) or [`read`](UploadFile::read), or as any
/// `tokio::io::AsyncRead + AsyncSeek` (`tokio::io::copy(&mut file, &mut out)`); keep it with
/// [`save_to`](UploadFile::save_to).
#[derive(Debug)]
pub struct UploadFile {
    filename: Option<String>,
    content_type: Option<String>,
    headers: HeaderMap,
    size: u64,
    data: Data,
}

impl UploadFile {
    pub(super) fn new(
        filename: Option<String>,
        content_type: Option<String>,
        headers: HeaderMap,
        size: u64,
        data: Data,
    ) -> Self {
        UploadFile {
            filename,
            content_type,
            headers,
            size,
            data,
        }
    }

    /// An upload of `content`, in memory (for tests of a route function).
    pub fn from_bytes(
        filename: impl Into<String>,
        content_type: Option<&str>,
        content: impl Into<Bytes>,
    ) -> Self {
        let content = content.into();
        UploadFile::new(
            Some(filename.into()),
            content_type.map(str::to_owned),
            HeaderMap::new(),
            content.len() as u64,
            Data::memory(content),
        )
    }

    /// The file name the client gave.
    pub fn filename(&self) -> Option<&str> {
        self.filename.as_deref()
    }

    /// The content type the client declared for the part.
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The part's own headers (`Content-Disposition`, `Content-Type`, ...).
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// True when the file was large enough to be kept in a temporary file rather than memory.
    pub fn on_disk(&self) -> bool {
        matches!(self.data, Data::Disk(_))
    }

    /// Up to `max` bytes from the current position (FastAPI's `await file.read(max)`); empty at
    /// the end.
    pub async fn read(&mut self, max: usize) -> std::io::Result<Bytes> {
        let mut out = Vec::with_capacity(max.min(64 * 1024));
        (&mut *self).take(max as u64).read_to_end(&mut out).await?;
        Ok(Bytes::from(out))
    }

    /// The rest of the file from the current position, the whole file at first (FastAPI's
    /// `await file.read()`). Holds it in memory: prefer [`save_to`](UploadFile::save_to) or
    /// reading in pieces for a large file.
    pub async fn read_all(&mut self) -> std::io::Result<Bytes> {
        if let Data::Memory(cursor) = &mut self.data {
            let bytes = cursor.get_ref().clone();
            let start = usize::try_from(cursor.position())
                .unwrap_or(usize::MAX)
                .min(bytes.len());
            cursor.set_position(bytes.len() as u64);
            return Ok(bytes.slice(start..));
        }
        let mut out = Vec::new();
        self.read_to_end(&mut out).await?;
        Ok(Bytes::from(out))
    }

    /// Move to byte `offset` of the file (FastAPI's `await file.seek(offset)`).
    pub async fn seek_to(&mut self, offset: u64) -> std::io::Result<()> {
        AsyncSeekExt::seek(self, SeekFrom::Start(offset))
            .await
            .map(|_| ())
    }

    /// Write the whole file to a new file at `path` (replacing one there); returns its size. The
    /// new file is removed unless it was written whole, also when the route's future is dropped
    /// mid-way (see `partial_file`).
    pub async fn save_to(&mut self, path: impl AsRef<Path>) -> std::io::Result<u64> {
        self.seek_to(0).await?;
        let (partial, file) = PartialFile::create(path.as_ref())?;
        let mut file = tokio::fs::File::from_std(file);
        let written = tokio::io::copy(self, &mut file).await?;
        file.flush().await?;
        partial.keep();
        Ok(written)
    }
}

impl AsyncRead for UploadFile {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        match &mut self.get_mut().data {
            Data::Memory(cursor) => Pin::new(cursor).poll_read(cx, buf),
            Data::Disk(file) => Pin::new(file).poll_read(cx, buf),
        }
    }
}

impl AsyncSeek for UploadFile {
    fn start_seek(self: Pin<&mut Self>, position: SeekFrom) -> std::io::Result<()> {
        match &mut self.get_mut().data {
            Data::Memory(cursor) => Pin::new(cursor).start_seek(position),
            Data::Disk(file) => Pin::new(file).start_seek(position),
        }
    }

    fn poll_complete(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<u64>> {
        match &mut self.get_mut().data {
            Data::Memory(cursor) => Pin::new(cursor).poll_complete(cx),
            Data::Disk(file) => Pin::new(file).poll_complete(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn read_in_pieces_read_all_seek_and_save() {
        let mut file = UploadFile::from_bytes("a.txt", Some("text/plain"), &b"hello world"[..]);
        assert_eq!(file.read(5).await.expect("read").as_ref(), b"hello");
        assert_eq!(file.read_all().await.expect("read").as_ref(), b" world");
        assert_eq!(file.read(5).await.expect("read").as_ref(), b"");
        file.seek_to(6).await.expect("seek");
        assert_eq!(file.read_all().await.expect("read").as_ref(), b"world");
        let path = std::env::temp_dir().join(format!("ferrapi-upload-file-{}", std::process::id()));
        assert_eq!(file.save_to(&path).await.expect("save"), 11);
        assert_eq!(std::fs::read(&path).expect("saved"), b"hello world");
        let _ = std::fs::remove_file(&path);
    }
}
