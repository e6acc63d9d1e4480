//! Idempotency keys kept in the service's store ([`StoreKeys`]), so that a retry sent to any
//! process of the service is answered as the first attempt was, and a key runs its request once.
//!
//! Rules enforced here:
//! - one document per key in [`KEYS`], its id a 96-bit digest of the key (the store's ids are 24
//!   hex digits), holding the key itself: a digest shared by two keys is answered as the key used
//!   for another request (422), never with the other key's answer;
//! - every change of a key's record is a write at the version it was read at (or an insert of an
//!   id nobody holds), so of two processes deciding on one key at once exactly one wins; the loser
//!   reads again and decides again ([`decide`]: it then sees the winner's record);
//! - the record is the framework's [`Record`]: running (fingerprint, lease end) or done
//!   (fingerprint, status, headers and body in hex, expiry); a record that does not read back is
//!   a store failure (503), never a replay of something else;
//! - expired records (an answer past its retention, a dead attempt past its lease: `until` is
//!   past) are swept on write: every [`SWEEP_EVERY`]th key this process takes, it deletes them all
//!   in one statement, which the index on `until` serves. On write rather than by a periodic
//!   task: no task to start, stop or run in every process of the service, the work grows with the
//!   keys written, and the store's rules (one atomic step per document) already make a sweep
//!   racing another process's decision harmless: a record that is no longer past its time stays,
//!   and a decision whose record was swept meanwhile finds it gone and decides again. Between
//!   sweeps an expired record is overwritten by the next request with its key.

use ferrapi::idempotency::{
    decide, Begin, IdempotencyKeys, KeptResponse, KeyFuture, KeyStore, KeyStoreError, Record,
};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{json, Value};

use crate::store::{Checked, Document, Stale, Store, StoreError, Versioned};

/// The collection of idempotency keys.
pub const KEYS: &str = "idempotency_keys";
/// How long a key's answer is kept: a day, Stripe's period.
pub const RETENTION: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);
/// How long a first attempt holds its key unless the configuration says otherwise: a minute.
pub const LEASE: std::time::Duration = std::time::Duration::from_secs(60);
/// How many times a decision is made again after losing a race on one key.
const ATTEMPTS: usize = 8;

/// How many keys a process takes between two sweeps of the expired ones.
pub const SWEEP_EVERY: u32 = 256;
/// The field of a key's record holding when it expires (its answer's retention or its lease).
const UNTIL: &str = "until";

/// Idempotency keys in the service's [`Store`]: a [`KeyStore`] every process shares.
#[derive(Debug)]
pub struct StoreKeys {
    store: Store,
    sweep_every: u32,
    taken: AtomicU32,
}

impl StoreKeys {
    /// Keys kept in `store`, swept every [`SWEEP_EVERY`] keys taken.
    pub fn new(store: Store) -> Self {
        StoreKeys {
            store,
            sweep_every: SWEEP_EVERY,
            taken: AtomicU32::new(0),
        }
    }

    /// Sweep every `keys` keys taken instead (at least 1).
    pub fn sweep_every(mut self, keys: u32) -> Self {
        self.sweep_every = keys.max(1);
        self
    }

    /// Create the index a sweep uses (idempotent; run at start-up).
    pub async fn prepare(store: &Store) -> Result<(), StoreError> {
        store.ensure_index(KEYS, UNTIL).await
    }

    /// Delete every record past its time at `now`; how many went.
    pub async fn sweep(&self, now: u64) -> Result<u64, KeyStoreError> {
        self.store
            .delete_below(KEYS, UNTIL, now.saturating_add(1))
            .await
            .map_err(store_error)
    }

    /// Count a key taken; sweep when it is the `sweep_every`th. A failed sweep is logged, never
    /// the request's failure (the next one tries again).
    async fn taken(&self, now: u64) {
        let taken = self.taken.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        if taken.is_multiple_of(self.sweep_every) {
            if let Err(err) = self.sweep(now).await {
                tracing::warn!(error = %err, "expired idempotency keys could not be swept");
            }
        }
    }
}

/// The app's idempotency keys: kept in `store` for [`RETENTION`], each first attempt holding its
/// key for `lease`.
pub fn keys(store: &Store, lease: std::time::Duration) -> IdempotencyKeys {
    IdempotencyKeys::new(StoreKeys::new(store.clone()), RETENTION).lease(lease)
}

/// The id of `key`'s document: two 64-bit FNV-1a digests (of the key, and of it reversed), cut to
/// 96 bits.
pub(crate) fn key_id(key: &str) -> String {
    let fnv = |bytes: &mut dyn Iterator<Item = u8>| {
        bytes.fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
    };
    let forward = fnv(&mut key.bytes());
    let backward = fnv(&mut key.bytes().rev());
    format!("{forward:016x}{:08x}", backward >> 32)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
        })
        .collect()
}

/// `record` of `key` as a document.
fn to_document(key: &str, record: &Record) -> Document {
    let value = match record {
        Record::Running {
            fingerprint,
            lease_until,
        } => json!({"key": key, "fingerprint": fingerprint, "state": "running", "until": lease_until}),
        Record::Done {
            fingerprint,
            answer,
            expires,
        } => json!({
            "key": key, "fingerprint": fingerprint, "state": "done", "until": expires,
            "status": answer.status,
            "headers": answer.headers.iter().map(|(name, value)| json!([name, hex(value)])).collect::<Vec<_>>(),
            "body": hex(&answer.body),
        }),
    };
    match value {
        Value::Object(document) => document,
        _ => Document::new(),
    }
}

/// The key and record a document holds.
fn from_document(document: &Document) -> Option<(&str, Record)> {
    let key = document.get("key")?.as_str()?;
    let fingerprint = document.get("fingerprint")?.as_str()?.to_owned();
    let until = document.get("until")?.as_u64()?;
    let record = match document.get("state")?.as_str()? {
        "running" => Record::Running {
            fingerprint,
            lease_until: until,
        },
        "done" => {
            let headers = document
                .get("headers")?
                .as_array()?
                .iter()
                .map(|pair| Some((pair.get(0)?.as_str()?.to_owned(), unhex(pair.get(1)?.as_str()?)?)))
                .collect::<Option<Vec<_>>>()?;
            Record::Done {
                fingerprint,
                answer: KeptResponse {
                    status: u16::try_from(document.get("status")?.as_u64()?).ok()?,
                    headers,
                    body: unhex(document.get("body")?.as_str()?)?.into(),
                },
                expires: until,
            }
        }
        _ => return None,
    };
    Some((key, record))
}

fn store_error(err: StoreError) -> KeyStoreError {
    KeyStoreError(err.to_string())
}

fn unreadable() -> KeyStoreError {
    KeyStoreError("an idempotency key's record does not read back".to_owned())
}

fn contended() -> KeyStoreError {
    KeyStoreError("an idempotency key is contended".to_owned())
}

impl StoreKeys {
    /// The key's record and its version, if any; `Err` when its document holds another key.
    async fn read(&self, id: &str, key: &str) -> Result<Option<(Record, u64)>, KeyStoreError> {
        let Some(Versioned { document, version }) =
            self.store.get_versioned(KEYS, id).await.map_err(store_error)?
        else {
            return Ok(None);
        };
        let (theirs, record) = from_document(&document).ok_or_else(unreadable)?;
        if theirs != key {
            // Another key with the same digest: it is "used for another request".
            return Err(KeyStoreError(String::new()));
        }
        Ok(Some((record, version)))
    }

    /// Replace the key's record at `version`: `true` when written.
    async fn write_at(
        &self,
        id: &str,
        key: &str,
        record: &Record,
        version: u64,
    ) -> Result<bool, KeyStoreError> {
        let written = self
            .store
            .replace_versioned(KEYS, id, to_document(key, record), &[], Some(version))
            .await
            .map_err(store_error)?;
        Ok(matches!(written, Ok(Checked::Written(_))))
    }

    /// If the key is this request's running one (`fingerprint`), replace its record by `next`
    /// (`None`: delete it).
    async fn settle(&self, key: &str, fingerprint: &str, next: Option<Record>) -> Result<(), KeyStoreError> {
        let id = key_id(key);
        for _ in 0..ATTEMPTS {
            let current = match self.read(&id, key).await {
                Ok(current) => current,
                Err(err) if err.0.is_empty() => return Ok(()),
                Err(err) => return Err(err),
            };
            let Some((
                Record::Running {
                    fingerprint: theirs, ..
                },
                version,
            )) = current
            else {
                return Ok(());
            };
            if theirs != fingerprint {
                return Ok(());
            }
            let done = match &next {
                Some(record) => self.write_at(&id, key, record, version).await?,
                None => {
                    let deleted = self.store.delete_versioned(KEYS, &id, &[], Some(version)).await;
                    !matches!(deleted.map_err(store_error)?, Err(Stale))
                }
            };
            if done {
                return Ok(());
            }
        }
        Err(contended())
    }
}

impl KeyStore for StoreKeys {
    fn begin<'a>(
        &'a self,
        key: &'a str,
        fingerprint: &'a str,
        now: u64,
        lease_until: u64,
    ) -> KeyFuture<'a, Begin> {
        Box::pin(async move {
            let id = key_id(key);
            let running = Record::Running {
                fingerprint: fingerprint.to_owned(),
                lease_until,
            };
            for _ in 0..ATTEMPTS {
                let current = match self.read(&id, key).await {
                    Ok(current) => current,
                    Err(err) if err.0.is_empty() => return Ok(Begin::Mismatch),
                    Err(err) => return Err(err),
                };
                match current {
                    None => {
                        let document = to_document(key, &running);
                        if self
                            .store
                            .insert_at(KEYS, &id, document)
                            .await
                            .map_err(store_error)?
                        {
                            self.taken(now).await;
                            return Ok(Begin::Run);
                        }
                    }
                    Some((record, version)) => match decide(Some(&record), fingerprint, now) {
                        Begin::Run => {
                            if self.write_at(&id, key, &running, version).await? {
                                self.taken(now).await;
                                return Ok(Begin::Run);
                            }
                        }
                        other => return Ok(other),
                    },
                }
                // Another process changed the key between the read and the write: decide again.
            }
            Err(contended())
        })
    }

    fn finish<'a>(
        &'a self,
        key: &'a str,
        fingerprint: &'a str,
        answer: KeptResponse,
        expires: u64,
    ) -> KeyFuture<'a, ()> {
        let done = Record::Done {
            fingerprint: fingerprint.to_owned(),
            answer,
            expires,
        };
        Box::pin(self.settle(key, fingerprint, Some(done)))
    }

    fn release<'a>(&'a self, key: &'a str, fingerprint: &'a str) -> KeyFuture<'a, ()> {
        Box::pin(self.settle(key, fingerprint, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_24_hex_digits_and_records_round_trip() {
        let id = key_id("8e03978e-40d5-43e8-bc93-6894a57f9324");
        assert_eq!(id.len(), 24);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(key_id("a"), key_id("b"));
        let done = Record::Done {
            fingerprint: "14-00ff".into(),
            answer: KeptResponse {
                status: 201,
                headers: vec![("location".into(), b"/visits/1".to_vec())],
                body: b"{\"id\":\"1\"}".to_vec().into(),
            },
            expires: 1_700_000_000_000,
        };
        let document = to_document("k", &done);
        assert_eq!(from_document(&document), Some(("k", done)));
        assert_eq!(unhex("0g"), None);
    }
}
