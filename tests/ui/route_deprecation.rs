use ferrapi::prelude::*;

// No `since`: the headers need the day the route was deprecated.
#[get("/a", deprecated(sunset = "2026-12-31"))]
async fn no_since() -> &'static str {
    "a"
}

// Not a date (February has no 30th), and not `YYYY-MM-DD`.
#[get("/b", deprecated(since = "2026-02-30"))]
async fn not_a_date() -> &'static str {
    "b"
}

#[get("/c", deprecated(since = "2026-03-01", sunset = "31/12/2026"))]
async fn not_written_as_a_date() -> &'static str {
    "c"
}

// The last day before the deprecation.
#[get("/d", deprecated(since = "2026-03-01", sunset = "2026-01-15"))]
async fn sunset_first() -> &'static str {
    "d"
}

// A date given twice.
#[get("/e", deprecated(since = "2026-03-01", since = "2026-04-01"))]
async fn twice() -> &'static str {
    "e"
}

// An option `deprecated` does not take.
#[get("/f", deprecated(since = "2026-03-01", until = "2026-12-31"))]
async fn unknown() -> &'static str {
    "f"
}

fn main() {}
