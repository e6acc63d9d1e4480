//! The wire formats pydantic reads and writes — dates, times, date-times, durations and
//! decimals — with pydantic's error kinds, messages and `ctx`: one copy, used by ferrapi's
//! server (its 422 answers) and by the clients `ferrapi-client-gen` generates (what they send
//! and read back), so both sides spell a value the same way.
//!
//! Rules enforced here:
//! - the grammars are speedate's (pydantic's parser) and Python's `Decimal()`, byte for byte,
//!   with their error words ([`speedate`], [`speedate_duration`], [`decimal`]);
//! - the written forms are pydantic's: six digits of fraction when there is one, `Z` for UTC,
//!   ISO 8601 durations in years of 365 days ([`datetime::write_datetime`],
//!   [`datetime::write_time`], [`duration::write_duration`]);
//! - this crate depends on neither the server nor the client, and on nothing but the value
//!   crates each behind a feature (`chrono`, `decimal`); the grammar itself has no dependency;
//! - the readers the server runs per request are `#[inline]`, as they were inside it.

use std::borrow::Cow;
use std::fmt;

pub mod speedate;
pub mod speedate_duration;

#[cfg(feature = "chrono")]
pub mod datetime;
#[cfg(feature = "decimal")]
pub mod decimal;
#[cfg(feature = "chrono")]
pub mod duration;

/// A value that is not in its wire format, as pydantic reports it: the error's type, its
/// message, and the words of its `ctx` (`{"error": words}`) when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// pydantic's error type (`time_parsing`, `decimal_parsing`, ...).
    pub kind: &'static str,
    /// pydantic's message.
    pub msg: Cow<'static, str>,
    /// speedate's words, pydantic's `ctx.error`, for the errors that carry one.
    pub error: Option<&'static str>,
}

impl WireError {
    /// An error without context.
    #[inline]
    pub fn new(kind: &'static str, msg: &'static str) -> Self {
        WireError {
            kind,
            msg: Cow::Borrowed(msg),
            error: None,
        }
    }

    /// pydantic's parsing error: `"{words}, {error}"`, with `error` as its `ctx`.
    #[inline]
    pub fn parsing(kind: &'static str, words: &str, error: &'static str) -> Self {
        WireError {
            kind,
            msg: Cow::Owned(format!("{words}, {error}")),
            error: Some(error),
        }
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for WireError {}
