//! Version changes of models (item 3 of issue 44): what `#[derive(Model)]` writes for a model
//! whose fields declare `#[since("date", ..)]` leans on this module for which of the model's
//! shapes a version reads and writes ([`shape_at`]); the extraction layer's `extract/versioned.rs`
//! has the rest (a forward step's refusal as a 422, the build-time check of the dates).
//!
//! Rules enforced here:
//! - a model's shapes are numbered from the newest (0) back: shape `k` is the model as it was
//!   before its `k`-th newest change; a request at version `v` is read in, and its answer written
//!   in, the shape of the changes newer than `v` (`YYYY-MM-DD` sorts as text: no date parsing);
//!   at the newest version, or outside a request, the shape is 0 and the model is exactly an
//!   unversioned one;

use serde::Serialize;

use super::at::{current, scoped};

/// A model with version changes: `#[derive(Model)]` implements it for a struct with
/// `#[since(..)]` fields. Its body is read, and its JSON written, in the shape of the request's
/// version (see the manual's *API versions*).
pub trait Versioned: Serialize {
    /// The dates the model changed at, newest first (`&["2026-06-01", "2026-03-01"]`).
    const CHANGES: &'static [&'static str];

    /// The JSON of `self` as the model was at `version`, migrated back step by step.
    fn write_at(&self, version: &'static str) -> serde_json::Result<Vec<u8>> {
        scoped(Some(version), || serde_json::to_vec(self))
    }
}

/// The shape (0: the newest) a model changing at `changes` (newest first) has at the version
/// the thread serves, if any.
#[inline]
pub fn shape_at(changes: &[&'static str]) -> usize {
    match current() {
        None => 0,
        Some(at) => changes.iter().take_while(|date| at < **date).count(),
    }
}

/// Marks a route check's message as a version-change problem, so the build reports it as
/// `MistakeKind::VersionChange` (a route's checks return plain messages).
pub(crate) const CHANGE_MARK: &str = "\u{1}version-change\u{1}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shape_counts_the_changes_newer_than_the_version() {
        let changes = ["2026-06-01", "2026-03-01"];
        assert_eq!(shape_at(&changes), 0);
        assert_eq!(scoped(Some("2026-06-01"), || shape_at(&changes)), 0);
        assert_eq!(scoped(Some("2026-03-01"), || shape_at(&changes)), 1);
        assert_eq!(scoped(Some("2026-01-15"), || shape_at(&changes)), 2);
    }
}
