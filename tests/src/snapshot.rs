//! The OpenAPI documents of the example programs, kept as snapshots under `tests/snapshots/`.
//!
//! Rules enforced here: a snapshot is the document pretty-printed with a final newline, compared
//! byte for byte (so `scripts/docs-checks.sh` validates exactly what the example serves); with
//! `UPDATE_SNAPSHOTS=1` in the environment it is rewritten instead, to be read in the diff.

use std::path::PathBuf;

use serde_json::Value;

/// Panic unless `tests/<relative>` holds `document`; with `UPDATE_SNAPSHOTS=1`, write it there.
pub fn assert_document_snapshot(relative: &str, document: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    let actual = serde_json::to_string_pretty(document).expect("serialize") + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &actual).expect("write the snapshot");
        eprintln!("updated {}", path.display());
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} is stale: rerun with UPDATE_SNAPSHOTS=1 and read the diff",
        path.display()
    );
}
