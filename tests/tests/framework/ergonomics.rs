//! What a person porting a FastAPI app meets on day one (issue 32, item 6), over HTTP: an
//! argument's wire name without the `_` rustc suggests for an unused one (and `#[alias(..)]`
//! for an exact one), a wrapped argument's default written as the value alone, a summary that is
//! the doc comment's first paragraph in one line, the `serde` attributes a model honours
//! (`rename_all`, `skip_serializing_if`), and the prelude holding an everyday app's types (this
//! module imports nothing else).

use ferrapi::prelude::*;
use ferrapi::testing::TestClient;

#[derive(Model, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Booking {
    id: Uuid,
    start_time: Datetime,
    day: NaiveDate,
    #[ge(0)]
    unit_price: Decimal,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    next: Nullable<String>,
}

/// Book a slot, with the price of every unit and an optional note for the staff to read before
/// the guest arrives.
///
/// The booking is answered as stored.
#[post("/bookings/{_id}", status = 201)]
async fn book(_id: u32, booking: Booking, tasks: BackgroundTasks) -> Json<Booking> {
    tasks.add(async { Ok::<(), String>(()) });
    Json(booking)
}

#[post("/login")]
async fn login(
    username: Form<String>,
    _password: Form<String>,
    #[default(false)] remember: Form<bool>,
    #[alias("item-query")] q: Option<String>,
    #[default(5)] x_page: Header<i64>,
    #[default("light".to_owned())] theme: Cookie<String>,
) -> Json<Value> {
    Json(json!({
        "user": username.0, "remember": remember.0, "q": q, "page": x_page.0, "theme": theme.0
    }))
}

fn app() -> App {
    App::new().tag(Tag::new("bookings")).routes(routes![book, login])
}

#[tokio::test]
async fn wire_names_drop_one_underscore_and_alias_names_one_exactly() {
    let client = TestClient::new(app());
    let reply = client
        .post("/login?item-query=x")
        .form(&[("username", "ann"), ("password", "secret")])
        .send()
        .await;
    assert_eq!(
        reply.json::<Value>(),
        json!({ "user": "ann", "remember": false, "q": "x", "page": 5, "theme": "light" })
    );
    let reply = client.post("/login").form(&[("username", "ann")]).send().await;
    assert_eq!(
        reply.json::<Value>()["detail"][0]["loc"],
        json!(["body", "password"])
    );
    let document: Value = client.get("/openapi.json").send().await.json();
    let form = &document["components"]["schemas"]["Body_login_login_post"];
    assert_eq!(form["required"], json!(["username", "password"]));
    let parameters = &document["paths"]["/login"]["post"]["parameters"];
    assert_eq!(parameters[0]["name"], "item-query");
    // A path parameter `{_id}` is its argument `_id` as written.
    assert_eq!(
        document["paths"]["/bookings/{_id}"]["post"]["parameters"][0]["name"],
        "_id"
    );
}

#[tokio::test]
async fn a_model_honours_rename_all_and_skip_serializing_if() {
    let client = TestClient::new(app());
    let booking = json!({
        "id": "6f1c8a52-3f0e-4c8e-9d7b-2a1b3c4d5e6f",
        "startTime": "2024-03-01T10:00:00",
        "day": "2024-03-01",
        "unitPrice": "12.50",
        "next": null
    });
    let reply = client.post("/bookings/7").json(&booking).send().await;
    assert_eq!(reply.status(), 201);
    assert_eq!(reply.json::<Value>(), booking);
    let reply = client
        .post("/bookings/7")
        .json(&json!({ "start_time": "x" }))
        .send()
        .await;
    let missing: Vec<Value> = reply.json::<Value>()["detail"]
        .as_array()
        .map(|items| items.iter().map(|item| item["loc"][1].clone()).collect())
        .unwrap_or_default();
    assert_eq!(
        missing,
        [
            json!("id"),
            json!("startTime"),
            json!("day"),
            json!("unitPrice"),
            json!("next")
        ]
    );
    let document: Value = client.get("/openapi.json").send().await.json();
    // Read and written (a decimal in it): `Booking-Input` is what is read.
    let schema = &document["components"]["schemas"]["Booking-Input"];
    assert_eq!(
        schema["required"],
        json!(["id", "startTime", "day", "unitPrice", "next"])
    );
}

#[tokio::test]
async fn the_summary_is_the_first_paragraph_in_one_line() {
    let client = TestClient::new(app());
    let document: Value = client.get("/openapi.json").send().await.json();
    let operation = &document["paths"]["/bookings/{_id}"]["post"];
    assert_eq!(
        operation["summary"],
        "Book a slot, with the price of every unit and an optional note for the staff to read before the guest arrives."
    );
    assert_eq!(operation["description"], "The booking is answered as stored.");
}
