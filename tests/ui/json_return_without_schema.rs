use ferrapi::prelude::*;

#[derive(serde::Serialize)]
struct Report {
    total: i64,
}

#[get("/report")]
async fn report() -> Json<Report> {
    Json(Report { total: 0 })
}

fn main() {}
