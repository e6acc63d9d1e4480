use ferrapi::prelude::*;

struct Report {
    total: i64,
}

#[get("/report")]
async fn report() -> Report {
    Report { total: 0 }
}

fn main() {}
