// `#[serde(rename = "..")]` sets the JSON key; other serde options are left to serde.

#[derive(Model, serde::Serialize)]
struct Order {
    #[serde(rename = "type")]
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none", rename = "note")]
    comment: Option<String>,
    r#ref: u64,
}
