// A model whose fields are other models, a list of them and a string enumeration.

#[derive(Model)]
struct Invoice {
    customer: Customer,
    lines: Vec<Line>,
    status: Option<Status>,
    extra: serde_json::Value,
}
