// Defaults: an absent field takes its default, and the schema shows it.

#[derive(Model)]
struct Page {
    #[default(1)]
    page: u32,
    #[default(String::from("asc"))]
    order: String,
    #[default(Vec::new())]
    tags: Vec<String>,
}
