use ferrapi::prelude::*;

fn main() {
    // No `since`: the headers need the day the group was deprecated.
    let _no_since = group!("/a", deprecated(sunset = "2026-12-31"));
    // Not a date (February has no 30th), and not `YYYY-MM-DD`.
    let _not_a_date = group!("/b", deprecated(since = "2026-02-30"));
    let _not_written_as_a_date = group!("/c", deprecated(since = "2026-03-01", sunset = "31/12/2026"));
    // The last day before the deprecation.
    let _sunset_first = group!("/d", deprecated(since = "2026-03-01", sunset = "2026-01-15"));
    // A date given twice.
    let _twice = group!("/e", deprecated(since = "2026-03-01", since = "2026-04-01"));
    // An option `deprecated(..)` does not take.
    let _unknown = group!("/g", deprecated(since = "2026-03-01", until = "2026-12-31"));
    // `deprecated = ..` takes a bool.
    let _not_a_bool = group!("/f", deprecated = "yes");
}
