use ferrapi::prelude::*;

fn main() {
    // Not a date, and an end included.
    let _not_a_date = group!("/a", versions = "2026-02-30"..);
    let _closed = group!("/b", versions = "2026-01-15"..="2026-03-01");
    // Empty: it ends before it starts.
    let _empty = group!("/c", versions = "2026-03-01".."2026-01-15");
    // Not a range at all.
    let _not_a_range = group!("/d", versions = "2026-01-15");
}
