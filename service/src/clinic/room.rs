//! The memory a clinic write holds beside its body, reserved in the memory budget before it is
//! taken (issue 41: 48 clients posting a 1 MB `doctor_id` held 2.2–2.4 times the budget, the
//! store's document, its text on the embedded store's writer queue and the id echoed in a 422
//! all uncharged).
//!
//! Rules enforced here:
//! - a write measures its input once, as the JSON text it is stored as (written into a counter:
//!   nothing is allocated), and reserves a multiple of it before its first copy ([`Room::of`]);
//!   the framework has charged the body and its parse already, and the models' bounds
//!   (`models.rs`) keep the input itself to a few KiB;
//! - the route's own copies ([`ROUTE_COPIES`]: the document made of the input, the output model
//!   made of it, the answer's JSON, or a 422 echoing the input) are reserved for as long as the
//!   route runs;
//! - the store's copies ([`STORE_COPIES`]: the document it is given, its JSON text or BSON, the
//!   driver's message or SQLite's work on the text) are reserved apart for each store write, and
//!   the write holds that room to its end in a task of its own ([`Room::store`]): a request cut
//!   off while its write waits on the embedded store's queue leaves its text there until the
//!   writer takes it, and the room is given back only then, never before;
//! - a reservation the budget has no room for is answered as the budget answers (503 with
//!   `Retry-After: 1`), before anything is copied or written; in a budget smaller than one write
//!   (never at the default), the write runs without a reservation, as a bird read does.

use std::future::Future;
use std::io::Write;

use ferrapi::memory::{Memory, Reserved};
use ferrapi::prelude::*;
use serde::Serialize;

/// Bytes the route holds per byte of its input's JSON text while it runs: the document (a JSON
/// object of the input's values), the output model validated from it and the answer's JSON (or
/// the 422 that echoes the input), each about the size of the text.
pub const ROUTE_COPIES: usize = 3;
/// Bytes one store write holds per byte of the input's JSON text until the store is done with it:
/// the document given to it, then the embedded store's copy of it and its JSON text (queued for
/// the writer), SQLite's bound copy of the text and the index expressions' parse of it, or
/// MongoDB's BSON document, its raw form and the driver's message.
pub const STORE_COPIES: usize = 6;
/// What any write holds beyond its text: maps' and values' own bookkeeping, ids, headers, the
/// embedded store's statement and cell buffers.
const OVERHEAD: usize = 8 * 1024;

/// The room a write of one input reserves: its measure, and the route's part, held until dropped.
#[derive(Debug)]
pub(super) struct Room {
    memory: Memory,
    text: usize,
    _route: Option<Reserved>,
}

impl Room {
    /// Reserve the route's copies of `input` in `memory`, or the budget's answer.
    pub(super) async fn of<T: Serialize>(memory: &Memory, input: &T) -> Result<Room, Response> {
        let text = json_len(input);
        let route = reserve(memory, text.saturating_mul(ROUTE_COPIES).saturating_add(OVERHEAD)).await?;
        Ok(Room {
            memory: memory.clone(),
            text,
            _route: route,
        })
    }

    /// Run `write` (a store operation given its own copy of the document) under a reservation of
    /// the store's copies, to its end even when the request is dropped meanwhile (in a task of its
    /// own, which holds the reservation): its output, or the budget's answer (503) when there is
    /// no room, in which case nothing is written.
    pub(super) async fn store<T, F>(&self, write: impl FnOnce() -> F) -> Result<T, Response>
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let bytes = self.text.saturating_mul(STORE_COPIES).saturating_add(OVERHEAD);
        let room = reserve(&self.memory, bytes).await?;
        // Made only once there is room: the closure copies the document.
        let write = write();
        let task = tokio::spawn(async move {
            let written = write.await;
            drop(room);
            written
        });
        task.await.map_err(|_| {
            tracing::error!("a clinic store write stopped before its end");
            HttpError::new(500, "Internal Server Error").into_response()
        })
    }
}

/// `bytes` of `memory`: `None` when the whole budget is smaller (the write runs uncharged, as a
/// bird read does below its room), the budget's answer when it has no room now.
async fn reserve(memory: &Memory, bytes: usize) -> Result<Option<Reserved>, Response> {
    match memory.reserve(bytes).await {
        Ok(room) => Ok(Some(room)),
        Err(refused) if refused.is_too_large() => Ok(None),
        Err(refused) => Err(refused.into_response()),
    }
}

/// The length of `value`'s JSON text, as serde_json writes it (into a counter: nothing is kept).
pub(super) fn json_len<T: Serialize>(value: &T) -> usize {
    let mut counter = Counter(0);
    // A clinic model always serializes; were one not to, nothing is reserved for its text and
    // `to_document` answers the 500.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

/// A writer that keeps only the count of the bytes written to it.
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_measure_is_the_json_text_s_length() {
        let value = serde_json::json!({"name": "Aé\u{1}", "n": [1, 2]});
        let text = serde_json::to_string(&value).unwrap_or_default();
        assert_eq!(json_len(&value), text.len());
    }
}
