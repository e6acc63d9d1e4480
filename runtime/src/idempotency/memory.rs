//! [`MemoryKeys`]: idempotency keys kept in this process.
//!
//! Rules enforced here: every decision and write is made under one lock (two requests never
//! both run for a key); expired records are swept as keys are taken (every 256 keys), so memory
//! holds the keys of one retention period, not every key ever sent.

use std::collections::HashMap;
use std::sync::Mutex;

use super::keys::{decide, Begin, KeptResponse, KeyFuture, KeyStore, KeyStoreError, Record};

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
        answer: KeptResponse,
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

    /// A replay shares the kept bytes (`Bytes`), and keeping moves them in: nothing is copied
    /// but the headers.
    fn memory_per_byte(&self) -> usize {
        0
    }

    fn release<'a>(&'a self, key: &'a str, fingerprint: &'a str) -> KeyFuture<'a, ()> {
        Box::pin(std::future::ready(self.with(|records, _| {
            let ours = matches!(records.get(key), Some(record @ Record::Running { .. }) if fingerprint_of(record) == fingerprint);
            if ours {
                records.remove(key);
            }
        })))
    }

    fn renew<'a>(&'a self, key: &'a str, fingerprint: &'a str, lease_until: u64) -> KeyFuture<'a, bool> {
        Box::pin(std::future::ready(self.with(|records, _| {
            match records.get_mut(key) {
                Some(Record::Running {
                    fingerprint: theirs,
                    lease_until: until,
                }) if theirs == fingerprint => {
                    // Never shortened: a renewal that arrives late changes nothing.
                    *until = (*until).max(lease_until);
                    true
                }
                _ => false,
            }
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(keys: &MemoryKeys, key: &str, now: u64, lease_until: u64) -> Begin {
        let future = keys.begin(key, "f", now, lease_until);
        ready(future).unwrap_or_else(|err| panic!("{err}"))
    }

    /// The store's futures are ready at once: polled once, with a waker that does nothing.
    fn ready<T>(mut future: KeyFuture<'_, T>) -> Result<T, KeyStoreError> {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(result) => result,
            std::task::Poll::Pending => Err(KeyStoreError("pending".into())),
        }
    }

    #[test]
    fn a_running_key_is_renewed_only_by_its_own_attempt() {
        let keys = MemoryKeys::new();
        assert_eq!(run(&keys, "k", 0, 100), Begin::Run);
        assert_eq!(ready(keys.renew("k", "f", 300)), Ok(true));
        assert_eq!(
            run(&keys, "k", 200, 500),
            Begin::InProgress { lease_until: 300 },
            "held past its first lease"
        );
        assert_eq!(ready(keys.renew("k", "f", 250)), Ok(true));
        assert_eq!(
            run(&keys, "k", 200, 500),
            Begin::InProgress { lease_until: 300 },
            "a late renewal never shortens the lease"
        );
        assert_eq!(
            ready(keys.renew("k", "other", 900)),
            Ok(false),
            "another request's"
        );
        assert_eq!(ready(keys.renew("unknown", "f", 900)), Ok(false));
        // Past its lease (its process died), a retry takes it over, and keeps its answer.
        assert_eq!(run(&keys, "k", 300, 600), Begin::Run);
        let answer = KeptResponse {
            status: 201,
            headers: Vec::new(),
            body: bytes::Bytes::new(),
        };
        assert_eq!(ready(keys.finish("k", "f", answer, 1000)), Ok(()));
        assert_eq!(ready(keys.renew("k", "f", 2000)), Ok(false), "finished");
    }

    #[test]
    fn expired_records_are_swept_every_256_keys_taken() {
        let keys = MemoryKeys::new();
        let answer = KeptResponse {
            status: 201,
            headers: Vec::new(),
            body: bytes::Bytes::new(),
        };
        // 200 answers kept until 50, 54 attempts whose lease ends at 50, one answer kept to 1000.
        for n in 0..200 {
            let key = format!("done-{n}");
            assert_eq!(run(&keys, &key, 0, 50), Begin::Run);
            assert_eq!(ready(keys.finish(&key, "f", answer.clone(), 50)), Ok(()));
        }
        for n in 0..54 {
            assert_eq!(run(&keys, &format!("dead-{n}"), 0, 50), Begin::Run);
        }
        assert_eq!(run(&keys, "kept", 0, 1000), Begin::Run);
        let finish = keys.finish("kept", "f", answer.clone(), 1000);
        assert_eq!(ready(finish), Ok(()));
        assert_eq!(
            keys.with(|records, _| records.len()),
            Ok(255),
            "no sweep before the 256th"
        );
        // The 256th key, taken at 100: every record past its time goes, the live one stays.
        assert_eq!(run(&keys, "new", 100, 200), Begin::Run);
        let left = keys.with(|records, _| {
            let mut left: Vec<String> = records.keys().cloned().collect();
            left.sort();
            left
        });
        assert_eq!(left, Ok(vec!["kept".to_owned(), "new".to_owned()]));
        assert_eq!(
            run(&keys, "kept", 100, 200),
            Begin::Replay(answer),
            "the live answer replays"
        );
    }
}
