//! A JSON body's tree never holds more than the bound charged for it before it is read
//! (`validate/json_tree.rs`): each shape read in a fresh `memory-server tree` process whose
//! allocator refuses anything past the bound, so a read that needs more aborts it.

use crate::support::{exclusive_blocking, memory_server};

/// Every shape `memory-server tree` knows: the worst ones for a tree (one-element arrays nested
/// deep, tiny values in long lists) and ordinary ones.
const SHAPES: [&str; 12] = [
    "nested-arrays",
    "nested-objects",
    "flat-zeros",
    "one-element-arrays",
    "small-objects",
    "empty-strings",
    "escaped-strings",
    "escaped-keys",
    "items",
    "one-long-string",
    "small-nested",
    "small-item",
];

#[test]
fn every_shape_is_read_within_its_bound_and_the_bound_is_close() {
    let _one = exclusive_blocking();
    for shape in SHAPES {
        let output = memory_server()
            .args(["tree", shape])
            .output()
            .unwrap_or_else(|e| panic!("memory-server: {e}"));
        assert!(
            output.status.success(),
            "{shape}: the read needed more than its bound, or failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let line = String::from_utf8_lossy(&output.stdout);
        let figures: Vec<usize> = line.split_whitespace().filter_map(|n| n.parse().ok()).collect();
        let [len, bound, held] = figures[..] else {
            panic!("{shape}: memory-server printed {line:?}");
        };
        eprintln!(
            "{shape}: {len} bytes of text, bound {bound} ({:.1}x), tree {held} ({:.1}x)",
            bound as f64 / len as f64,
            held as f64 / len as f64
        );
        // The bound is of some use: within a few times what the tree holds once read (the rest is
        // the growth of lists while they are read), for texts scanned rather than charged flat.
        if len >= 1024 {
            assert!(
                bound <= held * 3 + 64 * 1024,
                "{shape}: bound {bound} for a tree of {held}"
            );
        }
        // No shape costs more than 45 bytes per byte once read (serde_json's own reader: 150).
        assert!(held <= len * 45, "{shape}: a tree of {held} for {len} bytes");
    }
}
