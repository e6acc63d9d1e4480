//! [`MemoryKeys`]: idempotency keys kept in this process.
//!
//! Rules enforced here: every decision and write is made under one lock (two requests never
//! both run for a key); expired records are swept as keys are taken (every 256 keys), so memory
//! holds the keys of one retention period, not every key ever sent.

use std::collections::HashMap;
use std::sync::Mutex;

use super::keys::{decide, Begin, KeptAnswer, KeyFuture, KeyStore, KeyStoreError, Record};

/// Idempotency keys kept in this process's memory: right for one process; a service of several
/// processes keeps them where all see them (a [`KeyStore`] over its database).
#[derive(Debug, Default)]
pub struct MemoryKeys {
    records: Mutex<(HashMap<String, Record>, u32)>,
}

impl MemoryKeys {
    /// No key yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut HashMap<String, Record>, &mut u32) -> T,
    ) -> Result<T, KeyStoreError> {
        let mut guard = self
            .records
            .lock()
            .map_err(|_| KeyStoreError("a thread panicked while holding the keys".into()))?;
        let (records, taken) = &mut *guard;
        Ok(f(records, taken))
    }
}

fn fingerprint_of(record: &Record) -> &str {
    match record {
        Record::Running { fingerprint, .. } | Record::Done { fingerprint, .. } => fingerprint,
    }
}

impl KeyStore for MemoryKeys {
    fn begin<'a>(
        &'a self,
        key: &'a str,
        fingerprint: &'a str,
        now: u64,
        lease_until: u64,
    ) -> KeyFuture<'a, Begin> {
        Box::pin(std::future::ready(self.with(|records, taken| {
            let begin = decide(records.get(key), fingerprint, now);
            if begin == Begin::Run {
                *taken = taken.wrapping_add(1);
                if *taken % 256 == 0 {
                    records.retain(|_, record| decide(Some(record), "", now) != Begin::Run);
                }
                records.insert(
                    key.to_owned(),
                    Record::Running {
                        fingerprint: fingerprint.to_owned(),
                        lease_until,
                    },
                );
            }
            begin
        })))
    }

    fn finish<'a>(
        &'a self,
        key: &'a str,
        fingerprint: &'a str,
        answer: KeptAnswer,
        expires: u64,
    ) -> KeyFuture<'a, ()> {
        Box::pin(std::future::ready(self.with(|records, _| {
            if let Some(record @ Record::Running { .. }) = records.get_mut(key) {
                if fingerprint_of(record) == fingerprint {
                    *record = Record::Done {
                        fingerprint: fingerprint.to_owned(),
                        answer,
                        expires,
                    };
                }
            }
        })))
    }

    fn release<'a>(&'a self, key: &'a str, fingerprint: &'a str) -> KeyFuture<'a, ()> {
        Box::pin(std::future::ready(self.with(|records, _| {
            let ours = matches!(records.get(key), Some(record @ Record::Running { .. }) if fingerprint_of(record) == fingerprint);
            if ours {
                records.remove(key);
            }
        })))
    }
}
