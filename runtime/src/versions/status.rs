//! A route's success status that changed between versions (issue 44, item 3, "a status
//! changed"; Cadwyn's `endpoint(..).had(status_code=..)`): the route option
//! `status_before("2026-03-01" = 200)` says the route answered `200` before version
//! `2026-03-01`, and its newest status (`status = 201`, else 200) since.
//!
//! Rules enforced here:
//! - the status at a version is the one declared for the oldest date after it, else the newest
//!   (`YYYY-MM-DD` sorts as text: no date parsing); outside a request's version (an app without
//!   versions, a task the handler spawned) it is the newest;
//! - the answer and the version's document read it from the same place (the version the thread
//!   serves, `at.rs`), so a version's document names the status its answers carry.

use super::at::current;

/// The success status of a route whose newest status is `newest` and that answered
/// `before[i].1` before version `before[i].0`, at the version the thread serves.
#[inline]
pub fn status_at(newest: u16, before: &[(&'static str, u16)]) -> u16 {
    let Some(at) = current() else {
        return newest;
    };
    before
        .iter()
        .filter(|(date, _)| at < *date)
        .min_by_key(|(date, _)| *date)
        .map_or(newest, |(_, status)| *status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::versions::scoped;

    #[test]
    fn the_status_is_the_one_of_the_oldest_change_after_the_version() {
        let before = [("2026-06-01", 202), ("2026-03-01", 200)];
        assert_eq!(status_at(201, &before), 201, "outside a request: the newest");
        assert_eq!(scoped(Some("2026-01-15"), || status_at(201, &before)), 200);
        assert_eq!(scoped(Some("2026-03-01"), || status_at(201, &before)), 202);
        assert_eq!(scoped(Some("2026-06-01"), || status_at(201, &before)), 201);
        assert_eq!(scoped(Some("2026-01-15"), || status_at(201, &[])), 201);
    }
}
