//! The values the document's string formats stand for, where no crate's type says it alone:
//! a `date-time` that may or may not carry an offset, a `duration` in ISO 8601.
//!
//! Rules enforced here: each is read from what pydantic writes and written as pydantic reads
//! it, so a value round-trips through a FastAPI service unchanged; the other formats map to the
//! crates' own types (`chrono::NaiveDate`, `uuid::Uuid`, `rust_decimal::Decimal`, `url::Url`,
//! `std::net`'s addresses), whose serde forms already are FastAPI's.

mod datetime;
mod duration;

pub use datetime::DateTime;
pub use duration::Duration;
