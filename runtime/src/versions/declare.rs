//! What an app declares of its versions ([`Versions`]), and the checks that turn a declaration
//! into the set requests are answered from (`VersionSet`), or into every problem found.
//!
//! Rules enforced here: every problem of a declaration is reported at once (the app's build turns
//! each into a `MistakeKind::Versions`); a version is a real calendar date written `YYYY-MM-DD`;
//! released versions strictly increase (a repeated one is out of order too); the unreleased
//! version, when there is one, is newer than every released one; the default is a released
//! version; the header is a valid header name, and not one HTTP or ferrapi gives a meaning of its
//! own (`Vary`, `Content-Type`...), which would make the echo overwrite it; a deprecated version
//! is a released one, declared once, its sunset not before the day it was deprecated.

use hyper::header::HeaderName;

use ferrapi_template::version::is_date;

use super::chosen::{VersionSet, DEFAULT_HEADER};
use super::notice::Notice;

/// The most versions an app may declare (a request's choice is one byte).
pub(crate) const MAX_VERSIONS: usize = 255;

/// The versions of an app, for [`App::versions`](crate::App::versions): its released versions,
/// oldest first, as dates (`"2026-01-15"`), and at most one unreleased version under
/// development.
///
/// ```
/// use ferrapi::versions::Versions;
/// let versions = Versions::released(["2026-01-15", "2026-03-01"])
///     .unreleased("2026-06-01")
///     .header("API-Version");
/// # let _ = versions;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versions {
    pub(crate) released: Vec<&'static str>,
    pub(crate) unreleased: Option<&'static str>,
    pub(crate) header: &'static str,
    pub(crate) default: Option<&'static str>,
    /// Deprecated versions: the version, the day it was deprecated, its last day if known.
    pub(crate) deprecated: Vec<(&'static str, &'static str, Option<&'static str>)>,
    /// Whether a request may name its version as its path's first segment.
    pub(crate) path_prefix: bool,
}

impl Versions {
    /// The released versions, oldest first (each `YYYY-MM-DD`, strictly increasing). A request
    /// that names none gets the newest (see [`Versions::default_version`]).
    pub fn released(dates: impl IntoIterator<Item = &'static str>) -> Self {
        Versions {
            released: dates.into_iter().collect(),
            unreleased: None,
            header: DEFAULT_HEADER,
            default: None,
            deprecated: Vec::new(),
            path_prefix: false,
        }
    }

    /// The version under development, newer than every released one: served only to a request
    /// that names it, never the default, and (once documents are committed) free to change.
    pub fn unreleased(mut self, date: &'static str) -> Self {
        self.unreleased = Some(date);
        self
    }

    /// The header a request names its version in, and the answer echoes it in (`API-Version`
    /// unless set; any case, as header names are).
    pub fn header(mut self, name: &'static str) -> Self {
        self.header = name;
        self
    }

    /// Let a request name its version as its path's first segment too: `/2026-01-15/items/1`
    /// is `/items/1` at `2026-01-15` (the header still works, and a path without a prefix is
    /// routed as it is). A first segment shaped like a date (`NNNN-NN-NN`) is always read as a
    /// version: one the app does not serve is a 400, as in the header; a header naming another
    /// version than the prefix is a 400 too (neither wins: the request is ambiguous).
    pub fn path_prefix(mut self) -> Self {
        self.path_prefix = true;
        self
    }

    /// Pin the version a request naming none gets to a released one other than the newest (a
    /// service that releases a version before moving its default callers onto it).
    pub fn default_version(mut self, date: &'static str) -> Self {
        self.default = Some(date);
        self
    }

    /// Declare the released `version` deprecated since the day `since` (each `YYYY-MM-DD`),
    /// served until `sunset` if given (its last day; not before `since`): every answer at it
    /// carries `Deprecation` (RFC 9745) and `Sunset` (RFC 8594), and every operation of its
    /// document says `deprecated: true`. It is still served: retire it by removing it.
    pub fn deprecated(
        mut self,
        version: &'static str,
        since: &'static str,
        sunset: Option<&'static str>,
    ) -> Self {
        self.deprecated.push((version, since, sunset));
        self
    }

    /// The set requests are answered from, or every problem of the declaration (one sentence
    /// each, in the order: header, dates, order, unreleased, default, count).
    pub(crate) fn compile(&self) -> Result<VersionSet, Vec<String>> {
        let mut problems = Vec::new();
        let header = header_name(self.header)
            .map_err(|problem| problems.push(problem))
            .ok();
        if self.released.is_empty() {
            problems.push("no released version: declare at least one, oldest first".to_owned());
        }
        let all = self.released.iter().chain(&self.unreleased);
        for date in all.clone().filter(|date| !is_date(date)) {
            problems.push(format!("version `{date}` is not a date written `YYYY-MM-DD`"));
        }
        for pair in self.released.windows(2) {
            if let [older, newer] = pair {
                if older >= newer {
                    problems.push(format!(
                        "released versions must be declared oldest first, each once: `{newer}` comes after `{older}`"
                    ));
                }
            }
        }
        let newest = self.released.last().copied();
        if let (Some(unreleased), Some(newest)) = (self.unreleased, newest) {
            if unreleased <= newest {
                problems.push(format!(
                    "the unreleased version `{unreleased}` must be newer than the newest released one, `{newest}`"
                ));
            }
        }
        let default = match self.default {
            None => self.released.len().checked_sub(1),
            Some(date) => {
                let found = self.released.iter().position(|released| *released == date);
                if found.is_none() {
                    let unreleased = self.unreleased == Some(date);
                    problems.push(if unreleased {
                        format!("the default version `{date}` is unreleased; pin a released one")
                    } else {
                        format!("the default version `{date}` is not one of the released versions")
                    });
                }
                found
            }
        };
        let notices = self.notices(&mut problems);
        if all.clone().count() > MAX_VERSIONS {
            problems.push(format!("more than {MAX_VERSIONS} versions"));
        }
        match (header, default) {
            (Some(header), Some(default)) if problems.is_empty() => Ok(VersionSet::new(
                (header, self.header),
                self.released.iter().copied().chain(self.unreleased).collect(),
                self.released.len(),
                default,
            )
            .with_notices(notices)
            .with_path_prefix(self.path_prefix)),
            _ => Err(problems),
        }
    }
}

impl Versions {
    /// Each served version's deprecation notice (empty when none is deprecated), or the problems
    /// of the declarations: a version that is not released, one declared twice, a date that is
    /// not one, a sunset before the deprecation.
    fn notices(&self, problems: &mut Vec<String>) -> Vec<Option<Notice>> {
        if self.deprecated.is_empty() {
            return Vec::new();
        }
        let mut notices: Vec<Option<Notice>> =
            vec![None; self.released.len() + usize::from(self.unreleased.is_some())];
        for (i, &(version, since, sunset)) in self.deprecated.iter().enumerate() {
            let Some(index) = self.released.iter().position(|released| *released == version) else {
                problems.push(format!(
                    "the deprecated version `{version}` is not one of the released versions"
                ));
                continue;
            };
            if self.deprecated[..i]
                .iter()
                .any(|(earlier, _, _)| *earlier == version)
            {
                problems.push(format!("version `{version}` is declared deprecated twice"));
                continue;
            }
            for date in std::iter::once(since).chain(sunset).filter(|date| !is_date(date)) {
                problems.push(format!(
                    "the deprecation date `{date}` of `{version}` is not a date written `YYYY-MM-DD`"
                ));
            }
            if let Some(sunset) = sunset.filter(|sunset| *sunset < since) {
                problems.push(format!(
                    "the sunset `{sunset}` of `{version}` is before its deprecation `{since}`"
                ));
            }
            if let Some(slot) = notices.get_mut(index) {
                *slot = Notice::new(since, sunset);
            }
        }
        notices
    }
}

/// The header `name`, checked: a valid name (compared in lower case), and not one whose meaning
/// HTTP or ferrapi fixes.
fn header_name(name: &'static str) -> Result<HeaderName, String> {
    let parsed = HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| format!("`{name}` is not a valid header name"))?;
    const TAKEN: &[&str] = &[
        "vary",
        "content-type",
        "content-length",
        "etag",
        "host",
        "x-request-id",
        "idempotency-key",
        "deprecation",
        "sunset",
    ];
    if TAKEN.contains(&parsed.as_str()) {
        return Err(format!(
            "`{name}` has a meaning of its own in HTTP or ferrapi; name the version's header otherwise"
        ));
    }
    // The echo clones the name into every answer: made of static bytes, a clone is a copy (an
    // allocated name's is a reference count, and its drop another). The default is spelled
    // `API-Version`; a name already in lower case is its own static form.
    if parsed.as_str() == "api-version" {
        return Ok(HeaderName::from_static("api-version"));
    }
    Ok(match parsed.as_str() == name {
        true => HeaderName::from_static(name),
        false => parsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(versions: Versions) -> Vec<String> {
        versions.compile().err().unwrap_or_default()
    }

    #[test]
    fn a_good_declaration_compiles() {
        let set = Versions::released(["2026-01-15", "2026-03-01"])
            .unreleased("2026-06-01")
            .compile();
        assert!(set.is_ok(), "{set:?}");
    }

    #[test]
    fn every_problem_is_reported() {
        let found = problems(
            Versions::released(["2026-03-01", "2026-01-15", "2026-02-30"])
                .unreleased("2026-02-01")
                .default_version("2025-01-01")
                .header("Vary"),
        );
        assert_eq!(
            found,
            [
                "`Vary` has a meaning of its own in HTTP or ferrapi; name the version's header otherwise",
                "version `2026-02-30` is not a date written `YYYY-MM-DD`",
                "released versions must be declared oldest first, each once: `2026-01-15` comes after `2026-03-01`",
                "the unreleased version `2026-02-01` must be newer than the newest released one, `2026-02-30`",
                "the default version `2025-01-01` is not one of the released versions",
            ]
        );
    }

    #[test]
    fn repeated_empty_and_unreleased_default_are_refused() {
        assert_eq!(
            problems(Versions::released(["2026-01-15", "2026-01-15"])),
            ["released versions must be declared oldest first, each once: `2026-01-15` comes after `2026-01-15`"]
        );
        assert_eq!(
            problems(Versions::released([])),
            ["no released version: declare at least one, oldest first"]
        );
        assert_eq!(
            problems(
                Versions::released(["2026-01-15"])
                    .unreleased("2026-06-01")
                    .default_version("2026-06-01")
            ),
            ["the default version `2026-06-01` is unreleased; pin a released one"]
        );
        assert_eq!(
            problems(Versions::released(["2026-01-15"]).header("bad header")),
            ["`bad header` is not a valid header name"]
        );
    }
}
