//! Store errors.
//!
//! Rules enforced here: every error has a kind that decides the HTTP answer, a client-safe
//! [`StoreError::detail`] (fixed words per kind, never a file path, SQL text or server message),
//! and a cause kept for the log only ([`StoreError::cause`]).

use std::fmt;

/// What went wrong, as far as a caller needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreErrorKind {
    /// The database cannot be reached or did not answer in time; retrying later may succeed
    /// (HTTP 503).
    Unavailable,
    /// The database refused this document (e.g. a field name or size it cannot store); retrying
    /// will not help (HTTP 422).
    Rejected,
    /// The caller asked for something invalid (a bad collection or field name): a bug in the
    /// service, not the client's fault (HTTP 500).
    Invalid,
}

/// A store failure: a kind, a client-safe detail and a cause for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    kind: StoreErrorKind,
    cause: String,
}

impl StoreError {
    /// The database is unavailable; `cause` is logged, not shown.
    pub fn unavailable(cause: impl Into<String>) -> Self {
        StoreError {
            kind: StoreErrorKind::Unavailable,
            cause: cause.into(),
        }
    }

    /// The database refused the document; `cause` is logged, not shown.
    pub fn rejected(cause: impl Into<String>) -> Self {
        StoreError {
            kind: StoreErrorKind::Rejected,
            cause: cause.into(),
        }
    }

    /// The request to the store was invalid (a programming error); `cause` is logged.
    pub fn invalid(cause: impl Into<String>) -> Self {
        StoreError {
            kind: StoreErrorKind::Invalid,
            cause: cause.into(),
        }
    }

    /// The kind.
    pub fn kind(&self) -> StoreErrorKind {
        self.kind
    }

    /// The full cause, for logs only.
    pub fn cause(&self) -> &str {
        &self.cause
    }

    /// The HTTP status a request that met this error answers with.
    pub fn status(&self) -> u16 {
        match self.kind {
            StoreErrorKind::Unavailable => 503,
            StoreErrorKind::Rejected => 422,
            StoreErrorKind::Invalid => 500,
        }
    }

    /// Words for the client: what happened and what to do, with no internals.
    pub fn detail(&self) -> &'static str {
        match self.kind {
            StoreErrorKind::Unavailable => "The database is unavailable at the moment; try again shortly.",
            StoreErrorKind::Rejected => {
                "The database refused this document (a field name or value it cannot store)."
            }
            StoreErrorKind::Invalid => "Internal Server Error",
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            StoreErrorKind::Unavailable => "database unavailable",
            StoreErrorKind::Rejected => "document rejected",
            StoreErrorKind::Invalid => "invalid store request",
        };
        write!(f, "{kind}: {}", self.cause)
    }
}

impl std::error::Error for StoreError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_detail_never_carries_the_cause() {
        let err = StoreError::unavailable("unable to open database file /secret/path/db.sqlite");
        assert_eq!(err.status(), 503);
        assert!(!err.detail().contains("/secret"));
        assert!(err.to_string().contains("/secret"));
    }
}
