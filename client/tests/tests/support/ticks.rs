//! The tests' `/ticks` routes (tests/runtime.rs, tests/otel.rs): the numbers they send, and the
//! typed event stream a client reads them as (each event's data is `{"n": …}`).

use std::time::Duration;

use ferrapi_client::{Decode, Error, EventStream, Incoming};
use futures_util::{Stream, StreamExt as _};

/// `count` numbers from the one after `last` (a `Last-Event-ID`; 1 without one), each after a
/// pause, so the ones before a cut are on the wire when it comes.
pub fn paced_after(last: Option<&str>, count: u64) -> impl Stream<Item = u64> {
    let first = last.and_then(|id| id.parse::<u64>().ok()).map_or(1, |id| id + 1);
    futures_util::stream::iter(first..first + count).then(|n| async move {
        tokio::time::sleep(Duration::from_millis(10)).await;
        n
    })
}

/// A tick's data.
#[derive(serde::Deserialize, Debug, PartialEq)]
pub struct Tick {
    /// Its number.
    pub n: u64,
}

/// An answer read as a stream of ticks.
pub struct Ticks(pub EventStream<Tick>);

impl Decode for Ticks {
    async fn decode(incoming: &mut Incoming) -> Result<Self, Error> {
        Ok(Ticks(incoming.event_stream()))
    }
}
