use ferrapi::prelude::*;

#[derive(Model)]
struct Price {
    #[max_digits(5)]
    amount: f64,
    #[decimal_places(-1)]
    other: ferrapi::rust_decimal::Decimal,
    #[multiple_of("5")]
    count: i64,
}

#[get("/prices")]
async fn prices(#[max_digits(5)] amount: f64) -> Json<Value> {
    Json(json!({ "amount": amount }))
}

fn main() {}
