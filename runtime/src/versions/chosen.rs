//! The versions an app serves, compiled for requests ([`VersionSet`]); what one request chose
//! ([`Chosen`]); and what its answer carries back ([`Echo`]).
//!
//! Rules enforced here: choosing reads one header (by its compiled name) and compares its value
//! with the served versions, newest first, byte for byte (a value that is not exactly a served
//! version's date, whitespace or case included, is not one); the header named twice is answered
//! by its first value (see `prefix.rs` for a version in the path); the answer echoes the version served and says it varies by that header,
//! added to whatever `Vary` it has already.

use std::sync::Arc;

use hyper::header::{HeaderMap, HeaderName, HeaderValue, VARY};

use super::argument::VersionSource;
use super::notice::Notice;
use super::{prefix, tags};

/// The header a request names its version in unless the app names another.
pub(crate) const DEFAULT_HEADER: &str = "API-Version";

/// The served versions, oldest first (the released ones, then the unreleased one), with what a
/// request needs of them made once.
#[derive(Debug)]
pub(crate) struct VersionSet {
    header: HeaderName,
    /// The header's name as the app spelled it (`API-Version`), for `Vary` and messages.
    spelled: &'static str,
    /// `header` as a `Vary` value.
    vary: HeaderValue,
    dates: Vec<&'static str>,
    /// Each version's date as a header value, for the echo.
    values: Vec<HeaderValue>,
    /// How many of `dates` are released (the rest, at most one, is the unreleased one).
    released: usize,
    /// The index of the version a request naming none gets.
    default: u8,
    /// Each version's deprecation notice, by index; empty when none is deprecated.
    notices: Vec<Option<Notice>>,
    /// Whether a request may name its version as its path's first segment.
    prefix: bool,
    /// Whether the header is the default one, spelled as the default (`API-Version`): its name
    /// and `Vary` value are then echoed from constants, not cloned (a clone of each is a call
    /// through `Bytes`' table, ≈ 25 instructions, callgrind `GET /products/1` of the versions
    /// example).
    default_header: bool,
}

/// What a request chose: the index of its version among the served ones, and where the choice
/// came from. Two bytes, carried from routing to the route's `RequestCx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chosen {
    pub(crate) index: u8,
    pub(crate) source: VersionSource,
}

impl Chosen {
    /// The choice of a request to an app without versions.
    pub(crate) const NONE: Chosen = Chosen {
        index: u8::MAX,
        source: VersionSource::Default,
    };
}

/// What an answer of a versioned app carries back: the served version (none for a request whose
/// version was refused) in the version's header, and `Vary` naming that header.
#[derive(Debug, Clone)]
pub(crate) struct Echo {
    set: Arc<VersionSet>,
    index: u8,
}

impl VersionSet {
    /// The set of `dates` (oldest first; the first `released` released), read from `header`,
    /// `default` the index of the default version. The caller checked them (`declare.rs`), so
    /// there are at most 255 and `default` is one of them.
    /// `Vary` names the header as the app spelled it (`spelled`).
    pub(crate) fn new(
        (header, spelled): (HeaderName, &'static str),
        dates: Vec<&'static str>,
        released: usize,
        default: usize,
    ) -> Self {
        // Static bytes, as the name's (`declare.rs`): the echo clones it into every answer.
        let vary = match spelled.bytes().all(|byte| byte.is_ascii_graphic()) {
            true => HeaderValue::from_static(spelled),
            false => HeaderValue::from_static("api-version"),
        };
        VersionSet {
            vary,
            default_header: spelled == DEFAULT_HEADER,
            spelled,
            // A checked date is visible ASCII, so a valid header value.
            values: dates.iter().map(|date| HeaderValue::from_static(date)).collect(),
            header,
            dates,
            released,
            default: u8::try_from(default).unwrap_or(0),
            notices: Vec::new(),
            prefix: false,
        }
    }

    /// The set reading a version from the path's first segment too (`Versions::path_prefix`).
    pub(crate) fn with_path_prefix(mut self, prefix: bool) -> Self {
        self.prefix = prefix;
        self
    }

    /// The set with each version's deprecation notice (by index; empty: none deprecated).
    pub(crate) fn with_notices(mut self, notices: Vec<Option<Notice>>) -> Self {
        self.notices = notices;
        self
    }

    /// Whether version `index` is deprecated.
    pub(crate) fn is_deprecated(&self, index: u8) -> bool {
        matches!(self.notices.get(usize::from(index)), Some(Some(_)))
    }

    /// The version the request of `headers` and `path` chose, or `Err` when the app does not
    /// serve the version it named (or its path's prefix and its header name two).
    #[inline]
    pub(crate) fn choose(&self, headers: &HeaderMap, path: &str) -> Result<Chosen, ()> {
        // Most requests name none: the names walked, not the name hashed (`crate::head`).
        let named = crate::head::first_value(headers, &self.header);
        if self.prefix {
            if let Some(date) = prefix::of(path) {
                return self.choose_prefixed(date, named);
            }
        }
        let Some(named) = named else {
            return Ok(Chosen {
                index: self.default,
                source: VersionSource::Default,
            });
        };
        match self.index_of(named.as_bytes()) {
            Some(index) => Ok(Chosen {
                index,
                source: VersionSource::Header,
            }),
            None => Err(()),
        }
    }

    /// The choice of a request whose path starts with the version `date`, and whose header
    /// names `named` (agreeing with the prefix, or none).
    #[inline(never)]
    fn choose_prefixed(&self, date: &[u8], named: Option<&HeaderValue>) -> Result<Chosen, ()> {
        let index = self.index_of(date).ok_or(())?;
        match named {
            Some(named) if named.as_bytes() != date => Err(()),
            _ => Ok(Chosen {
                index,
                source: VersionSource::Path,
            }),
        }
    }

    /// The index of the served version written `bytes`, newest first.
    #[inline]
    fn index_of(&self, bytes: &[u8]) -> Option<u8> {
        self.dates
            .iter()
            .rposition(|date| date.as_bytes() == bytes)
            .map(|index| u8::try_from(index).unwrap_or(u8::MAX))
    }

    /// Why the request of `headers` and `path` was refused (see [`VersionSet::choose`]): the
    /// sentence of its 400, naming what it named and every served version.
    pub(crate) fn refusal(&self, headers: &HeaderMap, path: &str) -> String {
        let lossy = |value: &HeaderValue| String::from_utf8_lossy(value.as_bytes()).into_owned();
        let named = headers.get(&self.header);
        let prefixed = self.prefix.then(|| prefix::of(path)).flatten();
        match prefixed {
            Some(date) if self.index_of(date).is_some() => format!(
                "the path names API version '{}' but the {} header names '{}'; name one, or the same in both",
                String::from_utf8_lossy(date),
                self.spelled,
                named.map(lossy).unwrap_or_default()
            ),
            Some(date) => format!(
                "API version '{}' (the path's prefix) is not served; name one of these: {}",
                String::from_utf8_lossy(date),
                self.listed()
            ),
            None => format!(
                "API version '{}' is not served; name one of these in the {} header: {}",
                named.map(lossy).unwrap_or_default(),
                self.spelled,
                self.listed()
            ),
        }
    }

    /// Take the served version's ending off the request's conditional tags (`tags.rs`).
    #[inline]
    pub(crate) fn untag(&self, headers: &mut HeaderMap, chosen: Chosen) {
        if let Some(date) = self.date(chosen.index) {
            tags::untag(headers, date);
        }
    }

    /// The date of version `index`.
    #[inline]
    pub(crate) fn date(&self, index: u8) -> Option<&'static str> {
        self.dates.get(usize::from(index)).copied()
    }

    /// The date the route's code runs at for a request at version `index` (`versions::at`):
    /// none at the newest version, whose shapes are the models' own (what a model writes where
    /// no version is set), so a request there sets nothing on the thread (≈ 95 instructions per
    /// request fewer, callgrind `GET /products/1` of the versions example).
    #[inline]
    pub(crate) fn shape_date(&self, index: u8) -> Option<&'static str> {
        let date = self.date(index)?;
        (usize::from(index) + 1 < self.dates.len()).then_some(date)
    }

    /// The date of version `index`, and whether it is released.
    pub(crate) fn get(&self, index: u8) -> Option<(&'static str, bool)> {
        let index = usize::from(index);
        self.dates.get(index).map(|date| (*date, index < self.released))
    }

    /// The set of an app whose declaration was refused: it serves nothing (the app does not
    /// build), but tells the routes' checks that the app declared versions, so a route taking
    /// `ApiVersion` is not reported as well as the declaration.
    pub(crate) fn refused() -> Self {
        VersionSet {
            header: HeaderName::from_static("api-version"),
            spelled: "API-Version",
            vary: HeaderValue::from_static("API-Version"),
            dates: Vec::new(),
            values: Vec::new(),
            released: 0,
            default: 0,
            notices: Vec::new(),
            prefix: false,
            default_header: true,
        }
    }

    /// The index of the default version.
    pub(crate) fn default_index(&self) -> usize {
        usize::from(self.default)
    }

    /// The served versions' dates, oldest first.
    pub(crate) fn dates(&self) -> &[&'static str] {
        &self.dates
    }

    /// The header's name as the app spelled it.
    pub(crate) fn spelled(&self) -> &'static str {
        self.spelled
    }

    /// The served versions, oldest first, each with what it is to a caller (`default`,
    /// `unreleased`), for the answer to a refused version: `2026-01-15, 2026-03-01 (default)`.
    pub(crate) fn listed(&self) -> String {
        let mut listed = Vec::with_capacity(self.dates.len());
        for (index, date) in self.dates.iter().enumerate() {
            listed.push(if index == usize::from(self.default) {
                format!("{date} (default)")
            } else if index >= self.released {
                format!("{date} (unreleased)")
            } else {
                (*date).to_owned()
            });
        }
        listed.join(", ")
    }
}

/// The path the routes see of a request that chose `chosen` with `path`: without its version
/// prefix when the version came from it (`prefix.rs`).
#[inline]
pub(crate) fn routed_path(path: &str, chosen: Chosen) -> &str {
    if chosen.source == VersionSource::Path {
        prefix::rest(path)
    } else {
        path
    }
}

impl Echo {
    /// The echo of `chosen` (`Chosen::NONE` for a refused version) from `set`.
    #[inline]
    pub(crate) fn new(set: &Arc<VersionSet>, chosen: Chosen) -> Self {
        Echo {
            set: set.clone(),
            index: chosen.index,
        }
    }

    /// Add the echo to the headers of an answer: the version served, and `Vary`.
    #[inline]
    pub(crate) fn apply(&self, headers: &mut HeaderMap) {
        self.set.echo(self.index, headers);
    }
}

impl VersionSet {
    /// Add the echo of version `index` (`Chosen::NONE`'s: a refused one) to the headers of an
    /// answer: the version served, and `Vary`. An answer ready at once is echoed by the
    /// dispatcher through this, from the app's set: only an answer still under way takes an
    /// [`Echo`] (a reference count taken and given back, ≈ 40 instructions per request,
    /// callgrind `GET /products/1` of the versions example).
    #[inline]
    pub(crate) fn echo(&self, index: u8, headers: &mut HeaderMap) {
        if let Some(value) = self.values.get(usize::from(index)) {
            let name = match self.default_header {
                true => const { HeaderName::from_static("api-version") },
                false => self.header.clone(),
            };
            // `insert`, not `append`: it replaces a value the route set, and costs no more here
            // (`append` and a walk of the answer's names to find none: +40 instructions per
            // request, callgrind `GET /products/1` of the versions example).
            headers.insert(name, value.clone());
        }
        if let Some(date) = self.dates.get(usize::from(index)) {
            tags::tag(headers, date);
        }
        // Empty unless a version is deprecated: one length test for the others.
        if let Some(Some(notice)) = self.notices.get(usize::from(index)) {
            notice.apply(headers);
        }
        let vary = match self.default_header {
            true => const { HeaderValue::from_static(DEFAULT_HEADER) },
            false => self.vary.clone(),
        };
        headers.append(VARY, vary);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::versions::Versions;

    fn set() -> VersionSet {
        crate::versions::sample()
    }

    #[test]
    fn the_newest_version_runs_at_no_date_and_every_older_one_at_its_own() {
        // Released 2026-01-15 and 2026-03-01, unreleased 2026-06-01: the newest released one is
        // not the newest, so its route code runs at its date.
        let set = set();
        assert_eq!(set.shape_date(0), Some("2026-01-15"));
        assert_eq!(set.shape_date(1), Some("2026-03-01"));
        assert_eq!(set.shape_date(2), None);
        assert_eq!(set.shape_date(Chosen::NONE.index), None, "a refused version");
    }

    fn headers(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("api-version", HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn a_request_naming_none_gets_the_newest_released() {
        let chosen = set().choose(&HeaderMap::new(), "/").unwrap();
        assert_eq!((chosen.index, chosen.source), (1, VersionSource::Default));
    }

    #[test]
    fn a_named_version_is_served_exactly() {
        let set = set();
        assert_eq!(set.choose(&headers("2026-01-15"), "/").unwrap().index, 0);
        assert_eq!(set.choose(&headers("2026-06-01"), "/").unwrap().index, 2);
        assert_eq!(
            set.choose(&headers("2026-01-15"), "/").unwrap().source,
            VersionSource::Header
        );
        assert!(set.choose(&headers(" 2026-01-15"), "/").is_err());
        assert!(set.choose(&headers("2025-12-31"), "/").is_err());
        assert_eq!(set.get(2), Some(("2026-06-01", false)));
        assert_eq!(set.get(1), Some(("2026-03-01", true)));
        assert_eq!(set.get(3), None);
    }

    #[test]
    fn the_routes_see_the_path_without_its_prefix_only_when_it_named_the_version() {
        let at_path = Chosen {
            index: 0,
            source: VersionSource::Path,
        };
        assert_eq!(routed_path("/2026-01-15/items/1", at_path), "/items/1");
        assert_eq!(
            routed_path("/2026-01-15/items", Chosen::NONE),
            "/2026-01-15/items"
        );
    }

    #[test]
    fn the_list_marks_the_default_and_the_unreleased() {
        assert_eq!(
            set().listed(),
            "2026-01-15, 2026-03-01 (default), 2026-06-01 (unreleased)"
        );
    }

    /// The echo replaces a version header the route set (never two values) and tags an `ETag`.
    #[test]
    fn the_echo_replaces_a_version_header_the_route_set() {
        let set = set();
        for (fields, etag) in [
            (vec![("api-version", "mine")], None),
            (vec![("etag", "\"7\"")], Some("\"7@2026-03-01\"")),
            (
                vec![("API-Version", "mine"), ("etag", "\"7\"")],
                Some("\"7@2026-03-01\""),
            ),
            (vec![("content-type", "application/json")], None),
        ] {
            let mut headers = crate::head::head_of(&fields);
            set.echo(1, &mut headers);
            let versions: Vec<_> = headers.get_all("api-version").iter().collect();
            assert_eq!(versions, ["2026-03-01"], "{fields:?}");
            assert_eq!(
                headers.get(hyper::header::ETAG).map(|tag| tag.to_str().unwrap()),
                etag,
                "{fields:?}"
            );
            assert_eq!(headers[VARY], "API-Version", "{fields:?}");
        }
    }

    /// The default header's name, echoed from a constant, is [`DEFAULT_HEADER`]'s.
    #[test]
    fn the_default_header_is_echoed_under_its_own_name() {
        let mut headers = HeaderMap::new();
        set().echo(0, &mut headers);
        let names: Vec<&str> = headers.keys().map(HeaderName::as_str).collect();
        assert_eq!(names, [DEFAULT_HEADER.to_ascii_lowercase().as_str(), "vary"]);
        assert_eq!(headers[VARY], DEFAULT_HEADER);
    }

    #[test]
    fn the_echo_adds_to_vary() {
        let set = Arc::new(set());
        let mut headers = HeaderMap::new();
        headers.insert(VARY, HeaderValue::from_static("accept-encoding"));
        Echo::new(
            &set,
            Chosen {
                index: 0,
                source: VersionSource::Header,
            },
        )
        .apply(&mut headers);
        assert_eq!(headers["api-version"], "2026-01-15");
        let vary: Vec<_> = headers.get_all(VARY).iter().collect();
        assert_eq!(vary, ["accept-encoding", "API-Version"]);
        let spelled = Versions::released(["2026-01-15"])
            .header("x-version")
            .compile()
            .unwrap();
        let mut echoed = HeaderMap::new();
        Echo::new(&Arc::new(spelled), Chosen::NONE).apply(&mut echoed);
        assert_eq!(echoed[VARY], "x-version");
        let mut refused = HeaderMap::new();
        Echo::new(&set, Chosen::NONE).apply(&mut refused);
        assert!(!refused.contains_key("api-version"));
        assert_eq!(refused[VARY], "API-Version");
    }
}
