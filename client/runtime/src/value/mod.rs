//! The values the document's string formats stand for, where no crate's type says it alone:
//! a `date-time` or a `time` that may or may not carry an offset, a `duration` in ISO 8601.
//!
//! Rules enforced here: each is read from what pydantic writes and written as pydantic reads
//! it, by `ferrapi-wire` (the server's own readers and writers), so a value round-trips through
//! a FastAPI or ferrapi service unchanged; the other formats map to the crates' own types
//! (`chrono::NaiveDate`, `uuid::Uuid`, `rust_decimal::Decimal`, `url::Url`, `std::net`'s
//! addresses), whose serde forms already are FastAPI's.

mod datetime;
mod duration;
mod time;

pub use datetime::DateTime;
pub use duration::Duration;
pub use time::Time;
