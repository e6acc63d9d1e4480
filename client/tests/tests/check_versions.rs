//! Every released version of an app checked at once against its committed document (issue 44,
//! item 6): `Service::version_documents` lists each served version (date, released, the bytes
//! `GET /openapi/{date}.json` answers over HTTP), and `Blessed::check_versions` compares each
//! with `dir/{date}.json`: a released version whose document breaks a caller fails, naming the
//! version and the JSON pointer; a compatible change passes and keeps the committed copy; the
//! unreleased version's is a snapshot; `UPDATE_SNAPSHOTS=1` rewrites only the unreleased
//! version's (and writes a missing file once).

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;

use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_client_gen::compat::{Blessed, Checked, SnapshotError};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::get;

#[get("/widget/{id}")]
async fn read_widget(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

#[get("/legacy", operation_id = "legacy")]
async fn legacy_everywhere() -> &'static str {
    "legacy"
}

/// The same operation, gone before 2026-03-01: removed from the released 2026-01-15.
#[get("/legacy", operation_id = "legacy", versions = "2026-03-01"..)]
async fn legacy_later() -> &'static str {
    "legacy"
}

/// An operation added from 2026-03-01: compatible for a caller of 2026-03-01.
#[get("/extra", versions = "2026-03-01"..)]
async fn extra() -> &'static str {
    "extra"
}

fn versions() -> Versions {
    Versions::released(["2026-01-15", "2026-03-01"]).unreleased("2026-06-01")
}

fn released_app() -> App {
    App::new()
        .versions(versions())
        .routes(routes![read_widget, legacy_everywhere])
}

fn changed_app() -> App {
    App::new()
        .versions(versions())
        .routes(routes![read_widget, legacy_later, extra])
}

/// A directory of its own for one test's committed documents, empty.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrapi-check-versions-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn the_documents_checked_are_those_served_over_http() {
    let service = released_app().build().expect("builds");
    let listed: Vec<(&str, bool)> = service
        .version_documents()
        .map(|(date, released, _)| (date, released))
        .collect();
    assert_eq!(
        listed,
        [("2026-01-15", true), ("2026-03-01", true), ("2026-06-01", false)]
    );
    let addr = spawn(released_app()).await;
    for (date, _, bytes) in service.version_documents() {
        let served = get(addr, &format!("/openapi/{date}.json")).await;
        assert_eq!(served.body, bytes.to_vec(), "{date}");
    }
    let plain = App::new().routes(routes![read_widget]).build().expect("builds");
    assert_eq!(plain.version_documents().count(), 0);
    let error = Blessed::new(fresh_dir("plain"))
        .check_versions_with(plain.version_documents(), false)
        .expect_err("nothing to check");
    assert!(error.none, "{error}");
}

#[test]
fn each_released_version_is_checked_and_only_the_unreleased_one_reblessed() {
    let dir = fresh_dir("released");
    let blessed = Blessed::new(&dir);
    let released = released_app().build().expect("builds");
    // Nothing committed yet: every version is missing, then written once.
    let error = blessed
        .check_versions_with(released.version_documents(), false)
        .expect_err("nothing committed");
    let missing: Vec<&str> = error.failures.iter().map(|(date, _)| date.as_str()).collect();
    assert_eq!(missing, ["2026-01-15", "2026-03-01", "2026-06-01"]);
    assert!(error
        .failures
        .iter()
        .all(|(_, error)| matches!(error, SnapshotError::Missing { .. })));
    let written = blessed
        .check_versions_with(released.version_documents(), true)
        .expect("first blessing");
    assert!(
        written.iter().all(|(_, checked)| *checked == Checked::Written),
        "{written:?}"
    );
    let same = blessed
        .check_versions_with(released.version_documents(), false)
        .expect("the same documents");
    assert!(
        same.iter().all(|(_, checked)| *checked == Checked::Same),
        "{same:?}"
    );

    // The changed app: `/legacy` gone from 2026-01-15 (a break), `/extra` added from 2026-03-01
    // (compatible there), the unreleased version's snapshot different.
    let changed = changed_app().build().expect("builds");
    let committed = |date: &str| std::fs::read_to_string(blessed.path(date)).expect("committed");
    let before: Vec<String> = ["2026-01-15", "2026-03-01", "2026-06-01"].map(committed).to_vec();
    for update in [false, true] {
        let error = blessed
            .check_versions_with(changed.version_documents(), update)
            .expect_err("a released version breaks");
        let message = error.to_string();
        let failed: Vec<&str> = error.failures.iter().map(|(date, _)| date.as_str()).collect();
        if update {
            // Asked to re-bless: the released version is refused, the unreleased one rewritten.
            assert_eq!(failed, ["2026-01-15"], "{message}");
        } else {
            assert_eq!(failed, ["2026-01-15", "2026-06-01"], "{message}");
            assert!(
                matches!(error.failures[1].1, SnapshotError::Changed { .. }),
                "{message}"
            );
        }
        let SnapshotError::Breaks {
            breaks,
            update_refused,
            ..
        } = &error.failures[0].1
        else {
            panic!("{message}");
        };
        assert_eq!(*update_refused, update);
        let pointers: Vec<&str> = breaks.iter().map(|found| found.pointer.as_str()).collect();
        assert_eq!(pointers, ["#/paths/~1legacy/get"], "{message}");
        assert!(
            message.contains("version 2026-01-15: ") && message.contains("#/paths/~1legacy/get"),
            "{message}"
        );
    }
    // The released versions' files are as they were released; the unreleased one's is the new.
    assert_eq!(committed("2026-01-15"), before[0]);
    assert_eq!(committed("2026-03-01"), before[1]);
    assert_ne!(committed("2026-06-01"), before[2]);
    let served: serde_json::Value =
        serde_json::from_slice(changed.version_document("2026-06-01").expect("served")).expect("JSON");
    let rewritten: serde_json::Value = serde_json::from_str(&committed("2026-06-01")).expect("JSON");
    assert_eq!(rewritten, served);
    let _ = std::fs::remove_dir_all(&dir);
}
