//! Idempotency keys (the IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a client
//! that does not know whether its `POST` was applied retries it with the same key, and gets the
//! first answer instead of a second booking. The manual's "Safe writes" chapter shows it in use.
//!
//! Its files: `keys`, what is kept and the decision every store makes for a key ([`KeyStore`]);
//! `memory`, the store of one process ([`MemoryKeys`]); `arg`, the route argument
//! ([`IdempotencyKey`]) and the app's settings ([`IdempotencyKeys`]).
//!
//! Rules enforced here: a route that does not take an [`IdempotencyKey`] runs no code of it; a
//! store of keys shared by several processes makes every decision atomically ([`KeyStore::begin`]),
//! so a key runs its request once whichever process each attempt reaches; a request holding a
//! key renews its short lease while it runs ([`KeyStore::renew`]), so the key of a process that
//! died frees within seconds, and a retry meanwhile is told when (`Retry-After` on the 409).

mod arg;
mod keys;
mod memory;

pub use arg::{IdempotencyKey, IdempotencyKeys, Kept, Pending, DEFAULT_LEASE, DEFAULT_MAX_KEPT, REPLAYED};
pub use keys::{decide, Begin, KeptResponse, KeyFuture, KeyStore, KeyStoreError, Record};
pub use memory::MemoryKeys;

/// Renamed [`KeptResponse`] (issue 33); an alias for one release.
#[deprecated(note = "renamed ferrapi::idempotency::KeptResponse")]
#[doc(hidden)]
pub type KeptAnswer = KeptResponse;
