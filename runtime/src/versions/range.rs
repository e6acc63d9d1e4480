//! The versions a route exists in ([`VersionRange`], the route option `versions = "from".."until"`),
//! and which of the app's versions that is.
//!
//! Rules enforced here: a range's start is the first version the route exists in and its end the
//! first it is gone in (dropshot's `"1.0.0".."2.0.0"`, ends exclusive); a route that names none
//! exists in every version; a route in a group with a range exists in both ranges (a route only
//! narrows its group's: one reaching outside it is a mistake of the app); each named end must be a version the app declares, and a range must
//! hold at least one served version, or the app does not build (each problem one sentence).

use super::chosen::VersionSet;

/// The versions a route exists in: from `from` (every version before it when `None`) until, not
/// including, `until` (to the newest when `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VersionRange {
    from: Option<&'static str>,
    until: Option<&'static str>,
}

impl VersionRange {
    /// Every version.
    pub const ALL: VersionRange = VersionRange {
        from: None,
        until: None,
    };

    /// The versions from `from` until, not including, `until`.
    pub const fn new(from: Option<&'static str>, until: Option<&'static str>) -> Self {
        VersionRange { from, until }
    }

    /// Whether it is every version (the route named none).
    pub fn is_all(&self) -> bool {
        *self == VersionRange::ALL
    }

    /// The versions in both `self` and `other` (a group's range and a route's inside it).
    pub fn intersect(&self, other: &VersionRange) -> VersionRange {
        let from = match (self.from, other.from) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let until = match (self.until, other.until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        VersionRange { from, until }
    }

    /// Whether the ends `inner` names lie within `self` (a route's range inside its group's: an
    /// end the route leaves out is its group's, so `.."2026-06-01"` in a group from
    /// `"2026-03-01"` narrows its end only).
    pub fn covers(&self, inner: &VersionRange) -> bool {
        let from_in = inner
            .from
            .is_none_or(|from| self.from.is_none_or(|outer| outer <= from));
        let until_in = inner
            .until
            .is_none_or(|until| self.until.is_none_or(|outer| until <= outer));
        from_in && until_in
    }

    /// Whether version `date` is in it (`YYYY-MM-DD` sorts as text).
    pub fn contains(&self, date: &str) -> bool {
        self.from.is_none_or(|from| from <= date) && self.until.is_none_or(|until| date < until)
    }

    /// Every problem of this range against the app's versions (`None`: an app without them).
    pub(crate) fn problems(&self, versions: Option<&VersionSet>) -> Vec<String> {
        let Some(versions) = versions else {
            return vec!["the route names the versions it exists in, but the app declares no versions; declare them with `App::versions`".to_owned()];
        };
        let mut problems = Vec::new();
        for date in self.from.iter().chain(&self.until) {
            if !versions.dates().contains(date) {
                problems.push(format!(
                    "`{date}` is not a version of the app; its versions are {}",
                    versions.listed()
                ));
            }
        }
        if problems.is_empty() && !versions.dates().iter().any(|date| self.contains(date)) {
            problems.push("the route exists in none of the app's versions".to_owned());
        }
        problems
    }
}

impl std::fmt::Display for VersionRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.from.unwrap_or(""), self.until.unwrap_or(""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> VersionSet {
        crate::versions::sample()
    }

    #[test]
    fn a_range_holds_its_start_not_its_end() {
        let range = VersionRange::new(Some("2026-03-01"), Some("2026-06-01"));
        assert!(!range.contains("2026-01-15"));
        assert!(range.contains("2026-03-01"));
        assert!(!range.contains("2026-06-01"));
        assert!(VersionRange::ALL.contains("2026-01-15"));
        assert!(VersionRange::new(None, Some("2026-03-01")).contains("2026-01-15"));
    }

    #[test]
    fn a_group_range_and_a_route_range_meet() {
        let group = VersionRange::new(Some("2026-01-15"), Some("2026-06-01"));
        let route = VersionRange::new(Some("2026-03-01"), None);
        assert_eq!(
            group.intersect(&route),
            VersionRange::new(Some("2026-03-01"), Some("2026-06-01"))
        );
        assert_eq!(group.intersect(&VersionRange::ALL), group);
        assert!(group.covers(&VersionRange::new(Some("2026-03-01"), Some("2026-06-01"))));
        assert!(group.covers(&route), "an end left out is the group's");
        assert!(!group.covers(&VersionRange::new(Some("2026-01-01"), None)));
        assert!(!group.covers(&VersionRange::new(None, Some("2026-07-01"))));
        assert!(VersionRange::ALL.covers(&route));
    }

    #[test]
    fn a_range_names_declared_versions_and_holds_one() {
        let set = set();
        assert!(VersionRange::new(Some("2026-03-01"), None)
            .problems(Some(&set))
            .is_empty());
        assert_eq!(
            VersionRange::new(Some("2026-02-01"), None).problems(Some(&set)),
            ["`2026-02-01` is not a version of the app; its versions are 2026-01-15, 2026-03-01 (default), 2026-06-01 (unreleased)"]
        );
        assert_eq!(
            VersionRange::new(None, Some("2026-01-15")).problems(Some(&set)),
            ["the route exists in none of the app's versions"]
        );
        assert_eq!(
            VersionRange::new(None, Some("2026-01-15")).problems(None).len(),
            1
        );
    }
}
