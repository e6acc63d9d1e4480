//! What a route sees of its request's version: the [`ApiVersion`] argument.
//!
//! Rules enforced here: the argument is the version the request is served at, never a guess: it
//! is the date the dispatcher chose (the path prefix's, the header's, or the default), with where the choice came
//! from; comparing it with a date compares the dates (`YYYY-MM-DD` sorts as text).

use std::cmp::Ordering;

/// Where a request's version came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum VersionSource {
    /// The request named it in the version's header.
    Header,
    /// The request named it as its path's first segment (`/2026-01-15/items`), in an app whose
    /// versions allow it ([`Versions::path_prefix`](crate::versions::Versions::path_prefix));
    /// a header naming the same version as well changes nothing.
    Path,
    /// The request named none: the app's default version.
    Default,
}

/// The version a request is served at, as a route argument: `async fn f(version: ApiVersion)`.
/// Only an app with [`App::versions`](crate::App::versions) has one; a route taking it in an app
/// without versions does not build. Compare it with a date: `version >= "2026-03-01"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ApiVersion {
    date: &'static str,
    source: VersionSource,
    released: bool,
}

impl ApiVersion {
    pub(crate) fn new(date: &'static str, source: VersionSource, released: bool) -> Self {
        ApiVersion {
            date,
            source,
            released,
        }
    }

    /// The version's date, `YYYY-MM-DD`.
    pub fn date(&self) -> &'static str {
        self.date
    }

    /// Where the request's version came from: its path's prefix, its header, or the app's
    /// default.
    pub fn source(&self) -> VersionSource {
        self.source
    }

    /// False for the app's unreleased version (served only to a request naming it).
    pub fn is_released(&self) -> bool {
        self.released
    }
}

impl VersionSource {
    /// The source as the access line writes it: `path`, `header` or `default`.
    pub fn as_str(&self) -> &'static str {
        match self {
            VersionSource::Header => "header",
            VersionSource::Path => "path",
            VersionSource::Default => "default",
        }
    }
}

impl std::fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.date)
    }
}

impl PartialEq<&str> for ApiVersion {
    fn eq(&self, other: &&str) -> bool {
        self.date == *other
    }
}

impl PartialOrd<&str> for ApiVersion {
    fn partial_cmp(&self, other: &&str) -> Option<Ordering> {
        Some(self.date.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_compares_with_dates() {
        let version = ApiVersion::new("2026-03-01", VersionSource::Header, true);
        assert!(version >= "2026-03-01");
        assert!(version > "2026-01-15");
        assert!(version < "2026-06-01");
        assert!(version == "2026-03-01");
        assert_eq!(version.to_string(), "2026-03-01");
    }
}
