use ferrapi::prelude::*;

#[get("/a", versions = "2026-02-30"..)]
async fn not_a_date() -> &'static str {
    "a"
}

#[get("/b", versions = "2026-01-15"..="2026-06-01")]
async fn inclusive() -> &'static str {
    "b"
}

#[get("/c", versions = "2026-06-01".."2026-01-15")]
async fn reversed() -> &'static str {
    "c"
}

const FROM: &str = "2026-01-15";

#[get("/d", versions = FROM..)]
async fn not_literal() -> &'static str {
    "d"
}

#[get("/e", versions = "2026-01-15")]
async fn not_a_range() -> &'static str {
    "e"
}

fn main() {}
