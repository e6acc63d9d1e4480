//! The OpenAPI document of the example app: a snapshot of the whole document (any change to it is
//! a visible diff), and the FastAPI layout rules it follows, checked one by one.
//!
//! Update the snapshot after a deliberate change with
//! `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-tests --test framework openapi_document`, and read
//! the diff.

use std::path::PathBuf;

use ferrapi_tests::app::service;
use serde_json::{json, Value};

const SNAPSHOT: &str = "snapshots/openapi_example_app.json";

fn document() -> Value {
    serde_json::from_slice(service().openapi_json()).expect("the document is JSON")
}

/// A line diff (longest common subsequence), `-` for the snapshot and `+` for the document, with
/// two lines of context around each change.
fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push((' ', a[i], i + 1));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', a[i], i + 1));
            i += 1;
        } else {
            ops.push(('+', b[j], j + 1));
            j += 1;
        }
    }
    let changed: Vec<bool> = ops.iter().map(|(op, _, _)| *op != ' ').collect();
    let mut out = String::new();
    let mut last_shown = None;
    for (k, (op, line, number)) in ops.iter().enumerate() {
        let near = (k.saturating_sub(2)..=(k + 2).min(ops.len() - 1)).any(|n| changed[n]);
        if near {
            if last_shown.is_some_and(|last| last + 1 != k) {
                out.push_str("   ...\n");
            }
            out.push_str(&format!("{op} {number:>5} {line}\n"));
            last_shown = Some(k);
        }
    }
    out
}

#[test]
fn the_whole_document_matches_the_snapshot() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    let actual = serde_json::to_string_pretty(&document()).expect("serialize") + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().expect("a parent directory")).expect("create snapshots/");
        std::fs::write(&path, &actual).expect("write the snapshot");
        eprintln!("updated {}", path.display());
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        panic!(
            "the OpenAPI document of the example app differs from tests/{SNAPSHOT} \
             (- snapshot, + now):\n{}\nIf the change is intended, update the snapshot with\n    \
             UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-tests --test framework openapi_document\nand commit it.",
            diff(&expected, &actual)
        );
    }
}

#[test]
fn the_diff_shows_changed_lines_with_context() {
    let old = "a\nb\nc\nd\ne\nf\ng\n";
    let new = "a\nb\nc\nX\ne\nf\ng\n";
    let expected = [
        "      2 b",
        "      3 c",
        "-     4 d",
        "+     4 X",
        "      5 e",
        "      6 f",
    ];
    assert_eq!(diff(old, new), expected.join("\n") + "\n");
}

#[test]
fn top_level_is_openapi_3_1_with_info_paths_and_components() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(
        doc["info"],
        json!({"title": "ferrapi test app", "version": "1.0.0"})
    );
    assert!(doc["paths"].is_object());
    assert!(doc["components"]["schemas"].is_object());
}
