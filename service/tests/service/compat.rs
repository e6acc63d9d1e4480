//! The Resource API's released document (`service/openapi/<version>.json`, committed) against
//! the one the service serves now: a change that breaks a caller of the released API fails,
//! naming each JSON pointer; compatible changes pass and leave the committed copy as released.
//! The service has no dated API versions yet: its document's own version (`info.version`,
//! 0.1.0) names the baseline. Re-blessing it is a deliberate hand edit (`UPDATE_SNAPSHOTS=1`
//! refuses); a version the service adds later gets its own file.

use ferrapi_client_gen::compat::{Blessed, Checked, Release, SnapshotError};
use serde_json::Value;

/// The committed documents.
const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi");

/// The released version the committed baseline is.
const RELEASED: &str = "0.1.0";

#[test]
fn the_released_document_is_not_broken() {
    let served = crate::support::served_document("compat_released");
    match Blessed::new(DIR).check(RELEASED, Release::Released, &served) {
        Ok(checked) => assert!(
            matches!(checked, Checked::Same | Checked::Compatible | Checked::Written),
            "{checked:?}"
        ),
        Err(error) => panic!("{error}"),
    }
}

/// The check on the service's real document: a response field made optional and a request
/// constraint tightened are caught at their pointers, and the committed copy is not rewritten,
/// even when asked.
#[test]
fn a_breaking_change_of_the_service_is_caught_and_not_reblessed() {
    let blessed = Blessed::new(DIR);
    let before = std::fs::read_to_string(blessed.path(RELEASED)).expect("the committed baseline");
    let mut changed: Value = serde_json::from_str(&before).expect("JSON");
    let schemas = &mut changed["components"]["schemas"];
    // `GET /item/{id}` answers an `ItemId` whose `id` is required: made optional.
    let required = schemas["ItemId"]["required"]
        .as_array_mut()
        .expect("ItemId.required");
    let count = required.len();
    required.retain(|name| name != "id");
    assert_eq!(required.len(), count - 1, "ItemId.required names `id`");
    // `POST /item` takes an `Item` whose `name` may be any string: at most 3 characters now.
    schemas["Item"]["properties"]["name"]["maxLength"] = Value::from(3);
    let error = blessed
        .check_with(RELEASED, Release::Released, &changed.to_string(), true)
        .expect_err("a break");
    let SnapshotError::Breaks { breaks, .. } = &error else {
        panic!("{error}");
    };
    let pointers: Vec<&str> = breaks.iter().map(|b| b.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "#/components/schemas/ItemId/properties/id",
            "#/components/schemas/Item/properties/name/maxLength"
        ],
        "{error}"
    );
    assert!(error.to_string().contains("deliberate hand edit"), "{error}");
    let after = std::fs::read_to_string(blessed.path(RELEASED)).expect("the committed baseline");
    assert_eq!(after, before, "a released version's document is never rewritten");
}
