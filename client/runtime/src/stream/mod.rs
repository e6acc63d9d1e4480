//! Answers read as they come: bytes (a download, a file), Server-Sent Events, JSON lines; and a
//! list that pages, read page after page.
//!
//! Rules enforced here: nothing is buffered beyond the chunk or line being parsed, so a stream of
//! any length runs in constant memory; each item is a `Result`, so a broken connection or an
//! item that does not parse is seen where it happens and the stream goes on where it can.

mod bytes_stream;
mod events;
mod lines;
mod pages;
pub(crate) mod sse;

pub use bytes_stream::ByteStream;
pub use events::{Event, EventStream};
pub use lines::JsonLines;
pub use pages::{Items, Pages, Paging};

pub(crate) use events::Resume;
