use ferrapi::prelude::*;

fn cents_to_price(cents: i64) -> Result<f64, String> {
    Ok(cents as f64 / 100.0)
}

fn price_to_cents(price: &f64) -> i64 {
    (price * 100.0) as i64
}

#[derive(Model)]
#[model(removed("2026-03-01", legacy: String))]
pub struct Mistakes {
    #[since("2026-02-30", renamed_from = "title")]
    pub not_a_date: String,
    #[since("2026-03-01", renamed = "title")]
    pub unknown_option: String,
    #[since("2026-03-01", was = i64, forward = cents_to_price)]
    pub forward_without_backward: f64,
    #[since("2026-03-01", forward = cents_to_price, backward = price_to_cents)]
    pub forward_without_was: f64,
    #[since("2026-03-01", renamed_from = "a")]
    #[since("2026-03-01", renamed_from = "b")]
    pub one_date_twice: String,
    #[since("2026-03-01", renamed_from = "c", default = String::new())]
    pub two_changes: String,
    #[since("2026-03-01", was_constraints(longest = 3))]
    pub not_a_constraint: String,
}

#[derive(Model)]
pub struct Generic<T> {
    #[since("2026-03-01", renamed_from = "old")]
    pub value: T,
}

#[derive(Model)]
pub struct WrongStep {
    #[since("2026-03-01", was = String, forward = cents_to_price, backward = price_to_cents)]
    pub price: f64,
}

fn main() {}
