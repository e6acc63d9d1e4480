//! API versions (issue 44): the dated versions an app serves, and the choice of one per request.
//!
//! Its files: `declare`, what an app declares ([`Versions`]) and the checks of it; `chosen`, the
//! compiled set a request is answered from (`VersionSet`) and what a request chose
//! (`Chosen`); `argument`, what a route sees of it ([`ApiVersion`]); `range`, the versions a
//! route exists in ([`VersionRange`]); `at`, the version the request's code runs at, seen by
//! the models it reads and writes; `changes`, what a model with version changes
//! ([`Versioned`]) needs of the runtime; `prefix`, the version named as the path's first
//! segment; `tags`, entity tags that differ per version; `status`, a route's success status that
//! changed at a version (`status_before(..)`).
//!
//! Rules enforced here:
//! - a version is a date, `YYYY-MM-DD` (Stripe's and Cadwyn's choice: it says when, and sorts as
//!   text); the released ones are declared oldest first, strictly increasing, and at most one
//!   unreleased version comes after the newest released one;
//! - a request names its version in one header (`API-Version` unless the app names another), or,
//!   where the app allows it, as its path's first segment (the two must agree when both are
//!   given);
//!   a request naming none gets the default (the newest released version unless the app pins
//!   another released one); the unreleased version is served only to a request that names it;
//! - a request naming a version the app does not serve (unknown, or retired: removed from the
//!   list) is refused before it is routed (the dispatcher answers 400, listing the served ones);
//! - everything a request needs is computed when the app is built: the header's name, each
//!   version's echoed header value; choosing is one header lookup and a few 10-byte compares,
//!   newest first; an app without versions never comes here (its `Option` is `None`).

mod argument;
mod at;
mod changes;
mod chosen;
mod declare;
mod notice;
mod prefix;
mod range;
mod status;
mod tags;

pub use argument::{ApiVersion, VersionSource};
pub use at::current;
pub(crate) use at::{scoped, Scoped};
pub use changes::{shape_at, ChangeKind, FieldChange, Versioned};
pub(crate) use chosen::{routed_path, Chosen, Echo, VersionSet};
pub use declare::Versions;
pub(crate) use notice::Notice;
pub use range::VersionRange;
pub use status::status_at;

/// The versions the tests of this folder serve: two released, one unreleased.
#[cfg(test)]
fn sample() -> VersionSet {
    Versions::released(["2026-01-15", "2026-03-01"])
        .unreleased("2026-06-01")
        .compile()
        .unwrap_or_else(|problems| panic!("{problems:?}"))
}
