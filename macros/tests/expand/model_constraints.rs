// Numeric and length constraints on fields, checked on both the lax and the fast path.

#[derive(Model)]
struct Item {
    #[min_length(1)]
    #[max_length(50)]
    name: String,
    #[ge(0.0)]
    price: f64,
    #[default(1)]
    #[gt(0)]
    #[le(1000)]
    quantity: u32,
    #[ge(-10)]
    #[lt(10)]
    offset: Option<i32>,
}
