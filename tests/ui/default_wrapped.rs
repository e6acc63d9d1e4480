use ferrapi::prelude::*;

/// A wrapped argument's default is the value alone: `#[default(false)]`, not `Form(false)`.
#[post("/login")]
async fn login(
    #[default(Form(false))] remember: Form<bool>,
    #[default(Header::new(1))] x_page: Header<i64>,
) -> Json<Value> {
    Json(json!({ "remember": remember.0, "page": x_page.0 }))
}

fn main() {}
