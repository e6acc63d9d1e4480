//! The versions example's released documents cannot break by accident: each version's document,
//! as `examples/versions.rs` serves it, against its committed copy in
//! `examples/versions/openapi/<version>.json` — the test a ferrapi user writes in their own app
//! (the manual's *API versions* chapter, "Released versions cannot break by accident").
//!
//! A change to the example that breaks a caller of one of its released versions fails here,
//! naming the version and each JSON pointer; a compatible change passes and leaves the files as
//! released. Write a missing file (a new version's first blessing) with
//! `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-examples --test versions_blessed`.

use ferrapi_client_gen::compat::{Blessed, SnapshotError};
use serde_json::Value;

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../versions.rs"]
mod example;

/// Where the example's documents are committed.
const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/versions/openapi");

/// The example's versions, oldest first (all released).
const VERSIONS: [&str; 3] = ["2026-01-15", "2026-03-01", "2026-06-01"];

#[test]
fn no_released_version_of_the_example_breaks() {
    let service = example::app().build().expect("the example builds");
    match Blessed::new(DIR).check_versions(service.version_documents()) {
        Ok(checked) => {
            let dates: Vec<&str> = checked.iter().map(|(date, _)| date.as_str()).collect();
            assert_eq!(dates, VERSIONS, "every version is checked");
        }
        Err(failed) => panic!("{failed}"),
    }
}

/// The same check with one version's served document changed by hand the way a careless edit
/// of the example would change it (`Product.price` of an answer made optional, a request's
/// `name` limited to 3 characters): it fails, naming that version and both pointers, the other
/// versions pass, and the committed file is not rewritten even with `UPDATE_SNAPSHOTS` set.
#[test]
fn a_breaking_change_to_a_released_version_is_caught_at_its_pointer() {
    let service = example::app().build().expect("the example builds");
    let blessed = Blessed::new(DIR);
    let target = VERSIONS[1];
    let before = std::fs::read_to_string(blessed.path(target)).expect("the committed document");
    let mut documents: Vec<(&str, bool, Vec<u8>)> = service
        .version_documents()
        .map(|(date, released, bytes)| (date, released, bytes.to_vec()))
        .collect();
    let served = documents
        .iter_mut()
        .find(|(date, ..)| *date == target)
        .expect("the version is served");
    let mut changed: Value = serde_json::from_slice(&served.2).expect("JSON");
    // One `Product` schema is both the answer of `GET /products/{id}` and the body of
    // `POST /products`: a field made optional breaks the answer's callers, a constraint
    // tightened the request's.
    let product = &mut changed["components"]["schemas"]["Product"];
    let required = product["required"]
        .as_array_mut()
        .expect("the answer's Product has required fields");
    let count = required.len();
    required.retain(|name| name != "price");
    assert_eq!(required.len(), count - 1, "`price` was required");
    product["properties"]["name"]["maxLength"] = Value::from(3);
    served.2 = serde_json::to_vec(&changed).expect("JSON");

    let failed = blessed
        .check_versions_with(documents.iter().map(|(d, r, b)| (*d, *r, b)), true)
        .expect_err("a break");
    let [(date, error)] = failed.failures.as_slice() else {
        panic!("one version fails, not: {failed}");
    };
    assert_eq!(date, target);
    let SnapshotError::Breaks {
        breaks,
        update_refused,
        ..
    } = error
    else {
        panic!("{error}");
    };
    assert!(
        update_refused,
        "UPDATE_SNAPSHOTS does not re-bless a released version"
    );
    let pointers: Vec<&str> = breaks.iter().map(|found| found.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "#/components/schemas/Product/properties/price",
            "#/components/schemas/Product/properties/name/maxLength",
        ],
        "{failed}"
    );
    let message = failed.to_string();
    assert!(message.starts_with(&format!("version {target}: ")), "{message}");
    let after = std::fs::read_to_string(blessed.path(target)).expect("the committed document");
    assert_eq!(after, before, "a released version's document is never rewritten");
}
