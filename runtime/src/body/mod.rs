//! Reading a request body: its limit, its deadline's contract with its readers, reading it whole,
//! handing it over unread, and reading a form with files. Below both the server (which gives each
//! body its deadline) and the extraction (whose arguments read what this layer made of the body),
//! so neither imports from the other. Its files:
//!
//! - `limit`: the body limits, checked in one place ([`Limit`]), and the 413;
//! - `handed`: what the server hands over with a body and hears back ([`Handed`], [`Heard`]),
//!   and the dispatcher's first look as an explicit call ([`Look`]);
//! - `deadline`: what a body that missed its deadline ends with and is answered with (408);
//! - `reader`: a body read whole, bounded and charged against the memory budget ([`BodyReader`]);
//! - `input`: the body as the arguments see it ([`BodyInput`]);
//! - `stream`: the unread body of a route that streams it ([`StreamSlot`]);
//! - `form`, `spool`, `upload`, `partial_file`, `multipart`: the form of a route that takes files,
//!   read before it runs (files spooled to temporary files), its [`UploadFile`]s, the guard of a
//!   file being saved, and what reading a multipart body can fail with ([`MultipartError`]).
//!
//! Rules enforced here:
//! - a body is read only by a route that takes one, in the route's mode (`routing::BodyMode`:
//!   none, whole, streamed, a form with files), never beyond its limit, and charged against the
//!   memory budget before what it holds is taken;
//! - every contract between the server's body and its readers is a type or a method of this
//!   layer ([`BodyTimedOut`], [`Look`], [`Heard`], [`BodyReader::first_look`]), never an identity
//!   nor a convention that moving a file or reordering polls could change;
//! - every way a body fails has one answer, whoever reads it: 413 over its limit, 408 past its
//!   deadline (the connection closed), 400 unreadable.

mod deadline;
mod form;
mod handed;
mod input;
mod limit;
mod multipart;
mod partial_file;
mod reader;
mod spool;
mod stream;
mod upload;

pub(crate) use deadline::BodyTimedOut;
pub(crate) use form::FormParts;
pub(crate) use form::PartValue;
pub(crate) use handed::{Handed, HandedOwned, Heard, Look, News, Unhanded};
pub(crate) use input::body_input;
pub(crate) use input::BodyInput;
pub(crate) use limit::Limit;
pub(crate) use multipart::boundary_of;
pub use multipart::MultipartError;
pub(crate) use partial_file::PartialFile;
pub(crate) use reader::BodyReader;
pub(crate) use spool::{read_form, FormLimits, SPOOL_THRESHOLD};
pub(crate) use stream::StreamSlot;
pub use upload::UploadFile;

/// The error of type `T` that `error` is or was caused by: looked for through its sources, and
/// inside a [`BodyError`](crate::BodyError) (whose own `source` skips the error it wraps).
fn cause<'a, T: std::error::Error + 'static>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a T> {
    let mut next = Some(error);
    while let Some(error) = next {
        if let Some(found) = error.downcast_ref::<T>() {
            return Some(found);
        }
        next = match error.downcast_ref::<crate::response::BodyError>() {
            Some(wrapped) => Some(wrapped.inner()),
            None => error.source(),
        };
    }
    None
}
