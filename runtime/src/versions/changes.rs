//! Version changes of models (item 3 of issue 44): what `#[derive(Model)]` writes for a model
//! whose fields declare `#[since("date", ..)]` leans on this module for which of the model's
//! shapes a version reads and writes ([`shape_at`]), and says what changed ([`FieldChange`], which
//! the app's build checks against its versions and writes into each version's changelog); the
//! extraction layer's `extract/versioned.rs` has a forward step's refusal as a 422.
//!
//! Rules enforced here:
//! - a model's shapes are numbered from the newest (0) back: shape `k` is the model as it was
//!   before its `k`-th newest change; a request at version `v` is read in, and its answer written
//!   in, the shape of the changes newer than `v` (`YYYY-MM-DD` sorts as text: no date parsing);
//!   at the newest version, or outside a request, the shape is 0 and the model is exactly an
//!   unversioned one;
//! - a model's changes are described once, by the derive, from the attributes that make its
//!   shapes: the changelog cannot say something the shapes do not do.

use serde::Serialize;

use super::at::{current, scoped};

/// A model with version changes: `#[derive(Model)]` implements it for a struct with
/// `#[since(..)]` fields. Its body is read, and its JSON written, in the shape of the request's
/// version (see the manual's *API versions*).
pub trait Versioned: Serialize {
    /// The dates the model changed at, newest first (`&["2026-06-01", "2026-03-01"]`).
    const CHANGES: &'static [&'static str];

    /// What changed at each of them, field by field, in the order the model declares them.
    const FIELD_CHANGES: &'static [FieldChange];

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

/// What changed of a model's field at a version, as its declaration says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// The field came (`#[since(.., default = ..)]`).
    Added,
    /// The field went (`#[model(removed(..))]`); `was` is its type.
    Removed,
    /// The field's key changed (`renamed_from`); `was` is its old key.
    Renamed,
    /// The field's type changed (`was = T`); `was` is the old type.
    Retyped,
    /// The field's constraints changed (`was_constraints(..)`); `was` lists the old ones.
    Constrained,
    /// The model changed as a whole (`#[model(changed(..))]`); `was` is the older model, and
    /// there is no field.
    Changed,
}

impl ChangeKind {
    /// Its name in the changelog's JSON (`field_renamed`, ..).
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "field_added",
            ChangeKind::Removed => "field_removed",
            ChangeKind::Renamed => "field_renamed",
            ChangeKind::Retyped => "field_retyped",
            ChangeKind::Constrained => "constraints_changed",
            ChangeKind::Changed => "model_changed",
        }
    }
}

/// One change of a versioned model's field at a version (`#[derive(Model)]` writes one per
/// `#[since(..)]` option and `removed(..)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldChange {
    /// The version it changed at (`YYYY-MM-DD`).
    pub date: &'static str,
    /// What changed.
    pub kind: ChangeKind,
    /// The field's JSON key at that version (a removed field's old key; empty for a change of
    /// the whole model).
    pub field: &'static str,
    /// How it was before: the old key, type or constraints (empty for a field added).
    pub was: &'static str,
}

impl FieldChange {
    /// The change in a sentence of the changelog, for model `model`: `` `title` renamed `name` ``.
    pub fn describe(&self, model: &str) -> String {
        let (field, was) = (self.field, self.was);
        match self.kind {
            ChangeKind::Added => format!("`{field}` added to {model}"),
            ChangeKind::Removed => format!("`{field}` removed from {model} (was `{was}`)"),
            ChangeKind::Renamed => format!("`{was}` renamed `{field}` in {model}"),
            ChangeKind::Retyped => format!("`{field}` of {model} retyped (was `{was}`)"),
            ChangeKind::Constrained => format!("`{field}` of {model}: constraints changed (were {was})"),
            ChangeKind::Changed => format!("{model} changed as a whole (was `{was}`)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_describes_itself() {
        let change = |kind, field, was| FieldChange {
            date: "2026-03-01",
            kind,
            field,
            was,
        };
        let described: Vec<String> = [
            change(ChangeKind::Renamed, "name", "title"),
            change(ChangeKind::Added, "tags", ""),
            change(ChangeKind::Removed, "code", "String"),
            change(ChangeKind::Retyped, "price", "i64"),
            change(ChangeKind::Constrained, "name", "max_length = 20"),
            change(ChangeKind::Changed, "", "ItemBeforeSplit"),
        ]
        .iter()
        .map(|change| change.describe("Item"))
        .collect();
        assert_eq!(
            described,
            [
                "`title` renamed `name` in Item",
                "`tags` added to Item",
                "`code` removed from Item (was `String`)",
                "`price` of Item retyped (was `i64`)",
                "`name` of Item: constraints changed (were max_length = 20)",
                "Item changed as a whole (was `ItemBeforeSplit`)",
            ]
        );
    }

    #[test]
    fn the_shape_counts_the_changes_newer_than_the_version() {
        let changes = ["2026-06-01", "2026-03-01"];
        assert_eq!(shape_at(&changes), 0);
        assert_eq!(scoped(Some("2026-06-01"), || shape_at(&changes)), 0);
        assert_eq!(scoped(Some("2026-03-01"), || shape_at(&changes)), 1);
        assert_eq!(scoped(Some("2026-01-15"), || shape_at(&changes)), 2);
    }
}
