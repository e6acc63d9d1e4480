//! What an idempotency key keeps ([`KeptResponse`]), the contract of a store of keys
//! ([`KeyStore`]), and the one decision every store makes when a request arrives with a key
//! ([`decide`]), so that the in-memory store and a database's give the same answers.
//!
//! Rules enforced here (the IETF httpapi draft "The Idempotency-Key HTTP Header Field", §2.6):
//! - a key unknown, or whose record has expired (its answer past retention, or its first attempt
//!   past its lease: that process died), is taken by this request, which runs;
//! - a key whose first attempt is still running answers 409 to the same request (with when its
//!   lease ends: the attempt renews it while it runs, so only a dead process's lease runs out),
//!   and 422 to another one (another fingerprint): the key was used for something else;
//! - a key whose answer is kept replays it to the same request, and answers 422 to another one.

use std::future::Future;
use std::pin::Pin;

use bytes::Bytes;

/// The future a [`KeyStore`] method returns.
pub type KeyFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, KeyStoreError>> + Send + 'a>>;

/// A store of keys that failed (unreachable, say): the request is answered 503.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyStoreError(pub String);

impl std::fmt::Display for KeyStoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "idempotency key store: {}", self.0)
    }
}

impl std::error::Error for KeyStoreError {}

/// The response kept for a key: status, headers and body, replayed as they were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptResponse {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case, values as bytes, in order.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body.
    pub body: Bytes,
}

/// The state of one key, as a store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// A first attempt is running; another may take over after `lease_until` (milliseconds since
    /// the Unix epoch), which the attempt pushes back while it runs ([`KeyStore::renew`]): once it
    /// passes, the process running it died.
    Running {
        /// The request's fingerprint.
        fingerprint: String,
        /// When the attempt's lease ends.
        lease_until: u64,
    },
    /// The first attempt's answer, kept until `expires` (milliseconds since the Unix epoch).
    Done {
        /// The request's fingerprint.
        fingerprint: String,
        /// The answer.
        answer: KeptResponse,
        /// When it is forgotten.
        expires: u64,
    },
}

/// What a request with a key is to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Begin {
    /// The key is this request's: run, then keep the answer.
    Run,
    /// The first attempt is still running: 409, with `Retry-After` the time left on its lease.
    InProgress {
        /// When the first attempt's lease ends (ms since the Unix epoch), unless it renews it.
        lease_until: u64,
    },
    /// The key was used for another request: 422.
    Mismatch,
    /// The first attempt's answer, to replay.
    Replay(KeptResponse),
}

/// What to do with `existing` (the key's record, if any) for a request with `fingerprint` at
/// `now`: [`Begin::Run`] means the caller writes a new `Running` record in its place (on the
/// condition that `existing` is still what it read, for a store shared by processes).
pub fn decide(existing: Option<&Record>, fingerprint: &str, now: u64) -> Begin {
    match existing {
        None => Begin::Run,
        Some(Record::Running { lease_until, .. }) if *lease_until <= now => Begin::Run,
        Some(Record::Done { expires, .. }) if *expires <= now => Begin::Run,
        Some(Record::Running {
            fingerprint: theirs,
            lease_until,
        }) => {
            if theirs == fingerprint {
                Begin::InProgress {
                    lease_until: *lease_until,
                }
            } else {
                Begin::Mismatch
            }
        }
        Some(Record::Done {
            fingerprint: theirs,
            answer,
            ..
        }) => {
            if theirs == fingerprint {
                Begin::Replay(answer.clone())
            } else {
                Begin::Mismatch
            }
        }
    }
}

/// Where idempotency keys are kept: in this process ([`MemoryKeys`](super::MemoryKeys)), or
/// where every process of a service sees them (a database), so that a retry sent to another
/// process is answered the same.
pub trait KeyStore: Send + Sync + 'static {
    /// Take `key` for a request with `fingerprint` at `now` (ms since the Unix epoch), holding it
    /// until `lease_until` unless finished; or say what the request gets instead
    /// ([`decide`]'s rules, applied atomically: two requests never both get [`Begin::Run`]).
    fn begin<'a>(
        &'a self,
        key: &'a str,
        fingerprint: &'a str,
        now: u64,
        lease_until: u64,
    ) -> KeyFuture<'a, Begin>;

    /// Keep `answer` for `key` until `expires` (ms since the Unix epoch), if the key is still
    /// this request's (`fingerprint`, running).
    fn finish<'a>(
        &'a self,
        key: &'a str,
        fingerprint: &'a str,
        answer: KeptResponse,
        expires: u64,
    ) -> KeyFuture<'a, ()>;

    /// Give `key` up (the request failed without an answer worth keeping), if it is still this
    /// request's: a retry runs again.
    fn release<'a>(&'a self, key: &'a str, fingerprint: &'a str) -> KeyFuture<'a, ()>;

    /// Hold `key` until `lease_until` (ms since the Unix epoch) instead, if it is still this
    /// request's running one (`fingerprint`): `true` when renewed, `false` when the key is no
    /// longer this request's (its lease ran out and another attempt took it, or it is finished).
    /// The framework calls it every third of the lease while the request runs, so a lease can be
    /// a few seconds however slow the route: a dead process's key frees that soon after it died.
    fn renew<'a>(&'a self, key: &'a str, fingerprint: &'a str, lease_until: u64) -> KeyFuture<'a, bool>;

    /// The most bytes this store holds in this process, per byte of a kept answer, while it keeps
    /// one ([`finish`](Self::finish)) or reads one back ([`begin`](Self::begin)): its encodings,
    /// the documents and messages it makes of it. A request with a key reserves that much of the
    /// memory budget (for the largest answer kept, beside the answer itself) before its key is
    /// looked up. Unless a store says otherwise, 4: a record, its encoding, a driver's message and
    /// a decoded copy; a store measures its own and says so.
    fn memory_per_byte(&self) -> usize {
        4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> KeptResponse {
        KeptResponse {
            status: 201,
            headers: vec![("location".into(), b"/x/1".to_vec())],
            body: Bytes::from_static(b"{}"),
        }
    }

    #[test]
    fn the_drafts_table() {
        let running = Record::Running {
            fingerprint: "a".into(),
            lease_until: 100,
        };
        let done = Record::Done {
            fingerprint: "a".into(),
            answer: answer(),
            expires: 100,
        };
        assert_eq!(decide(None, "a", 50), Begin::Run);
        assert_eq!(
            decide(Some(&running), "a", 50),
            Begin::InProgress { lease_until: 100 }
        );
        assert_eq!(decide(Some(&running), "b", 50), Begin::Mismatch);
        assert_eq!(
            decide(Some(&running), "b", 100),
            Begin::Run,
            "the lease ended: taken over"
        );
        assert_eq!(decide(Some(&done), "a", 50), Begin::Replay(answer()));
        assert_eq!(decide(Some(&done), "b", 50), Begin::Mismatch);
        assert_eq!(decide(Some(&done), "b", 100), Begin::Run, "expired: forgotten");
    }
}
