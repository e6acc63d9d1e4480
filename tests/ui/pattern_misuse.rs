use ferrapi::prelude::*;

#[derive(Model)]
struct Code {
    #[pattern("[a-z")]
    code: String,
    #[pattern(42)]
    other: String,
}

#[get("/codes")]
async fn codes(#[pattern(r"^\d+$")] n: i64) -> Json<Value> {
    Json(json!({ "n": n }))
}

fn main() {}
