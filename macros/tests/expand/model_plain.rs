// A model with required fields of plain types.

#[derive(Model)]
struct Point {
    x: i64,
    y: f64,
    label: String,
    visible: bool,
}
