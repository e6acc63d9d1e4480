use ferrapi::prelude::*;

#[post("/a", status = 201, status_before("2026-02-30" = 200))]
async fn not_a_date() -> Json<Value> {
    Json(json!({}))
}

#[post("/b", status = 201, status_before("2026-03-01" = 2000))]
async fn not_a_status() -> Json<Value> {
    Json(json!({}))
}

#[post("/c", status = 201, status_before("2026-03-01" = 200, "2026-03-01" = 202))]
async fn twice() -> Json<Value> {
    Json(json!({}))
}

#[post("/d", status = 201, status_before("2026-03-01" = 204))]
async fn no_body_then() -> Json<Value> {
    Json(json!({}))
}

fn main() {}
