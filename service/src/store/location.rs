//! The `DB_CONN_STRING` grammar: which store a connection string names.
//!
//! Rules enforced here:
//! - unset or blank → the embedded store at [`DEFAULT_SQLITE_PATH`], reported as
//!   `sqlite://./data/resource-api.db`;
//! - `sqlite://PATH` or a plain path (no `scheme://`) → the embedded store at that file;
//! - `mongodb://…` and `mongodb+srv://…` → MongoDB, checked by the driver's parser here (no
//!   network: `mongodb+srv` names are resolved when connecting);
//! - any other scheme, or a scheme with nothing after it, is refused with one clear line;
//! - the effective string is kept exactly as given (the spec's `/api/env` shows it); logs use
//!   [`StoreLocation::redacted`], which hides a password (`redact.rs`).

use std::fmt;
use std::path::PathBuf;

use super::redact::redact;

/// Where the embedded store keeps its file when `DB_CONN_STRING` is unset.
pub const DEFAULT_SQLITE_PATH: &str = "./data/resource-api.db";

/// Which store a connection string names, and where it is: what `DB_CONN_STRING` parses to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// The embedded SQLite store.
    Sqlite {
        /// The database file (its directory is created if missing).
        path: PathBuf,
        /// The effective connection string, as given or as defaulted.
        effective: String,
    },
    /// A MongoDB deployment.
    Mongo {
        /// The URI, as given.
        uri: String,
    },
}

/// Why a connection string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnError(String);

impl fmt::Display for ConnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConnError {}

impl StoreLocation {
    /// Parse `raw` (`None` or blank: the default embedded store).
    pub fn parse(raw: Option<&str>) -> Result<Self, ConnError> {
        let Some(raw) = raw.filter(|raw| !raw.trim().is_empty()) else {
            return Ok(StoreLocation::Sqlite {
                path: PathBuf::from(DEFAULT_SQLITE_PATH),
                effective: format!("sqlite://{DEFAULT_SQLITE_PATH}"),
            });
        };
        let Some((scheme, rest)) = raw.split_once("://") else {
            return Ok(StoreLocation::Sqlite {
                path: PathBuf::from(raw),
                effective: raw.to_owned(),
            });
        };
        if rest.is_empty() {
            return Err(ConnError(format!(
                "`{scheme}://` names no database (expected e.g. sqlite://./data/app.db or mongodb://host:27017/db)"
            )));
        }
        match scheme.to_ascii_lowercase().as_str() {
            "sqlite" => Ok(StoreLocation::Sqlite {
                path: PathBuf::from(rest),
                effective: raw.to_owned(),
            }),
            "mongodb" | "mongodb+srv" => {
                super::MongoStore::validate(raw).map_err(|err| ConnError(err.cause().to_owned()))?;
                Ok(StoreLocation::Mongo { uri: raw.to_owned() })
            }
            _ => Err(ConnError(format!(
                "unsupported scheme `{scheme}://` (use a file path, sqlite://PATH, mongodb:// or mongodb+srv://)"
            ))),
        }
    }

    /// The effective connection string (what `/api/env` reports): as given, or the default.
    pub fn effective(&self) -> &str {
        match self {
            StoreLocation::Sqlite { effective, .. } => effective,
            StoreLocation::Mongo { uri } => uri,
        }
    }

    /// The connection string with any password replaced by `***`, for logs.
    pub fn redacted(&self) -> String {
        redact(self.effective())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_and_blank_mean_the_default_embedded_store() {
        for raw in [None, Some(""), Some("  ")] {
            let conn = StoreLocation::parse(raw).unwrap();
            assert_eq!(conn.effective(), "sqlite://./data/resource-api.db");
            assert!(
                matches!(conn, StoreLocation::Sqlite { ref path, .. } if path == &PathBuf::from(DEFAULT_SQLITE_PATH))
            );
        }
    }

    #[test]
    fn files_and_sqlite_urls_name_the_embedded_store() {
        let conn = StoreLocation::parse(Some("sqlite:///var/lib/birds.db")).unwrap();
        assert_eq!(
            conn,
            StoreLocation::Sqlite {
                path: "/var/lib/birds.db".into(),
                effective: "sqlite:///var/lib/birds.db".into()
            }
        );
        let conn = StoreLocation::parse(Some("data/x.db")).unwrap();
        assert!(
            matches!(conn, StoreLocation::Sqlite { ref path, .. } if path == &PathBuf::from("data/x.db"))
        );
    }

    #[test]
    fn mongodb_schemes_name_mongodb() {
        for uri in [
            "mongodb://127.0.0.1:27017/birds",
            "mongodb+srv://u:p@cluster.example.net/",
        ] {
            assert_eq!(
                StoreLocation::parse(Some(uri)).unwrap(),
                StoreLocation::Mongo { uri: uri.to_owned() }
            );
        }
    }

    #[test]
    fn other_schemes_and_empty_urls_are_refused() {
        let err = StoreLocation::parse(Some("postgres://localhost/db")).unwrap_err();
        assert!(
            err.to_string().contains("unsupported scheme `postgres://`"),
            "{err}"
        );
        assert!(StoreLocation::parse(Some("mongodb://")).is_err());
        assert!(StoreLocation::parse(Some("sqlite://")).is_err());
        let err = StoreLocation::parse(Some("mongodb://host:port/db")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("not a valid MongoDB connection string"),
            "{err}"
        );
    }
}
