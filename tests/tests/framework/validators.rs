//! Field and model validators (`#[validate(check)]`), against FastAPI 0.165's answers for the
//! same model written with `AfterValidator` and `model_validator(mode="after")` (recorded by
//! tests/fastapi/validators_probe.py; the bodies are copied below as it printed them).

use ferrapi::prelude::*;
use ferrapi::testing::TestClient;

fn not_reserved(username: &String) -> Result<(), String> {
    if username == "admin" {
        return Err("username is reserved".into());
    }
    Ok(())
}

fn passwords_match(signup: &Signup) -> Result<(), String> {
    if signup.p1 != signup.p2 {
        return Err("passwords do not match".into());
    }
    Ok(())
}

#[derive(Model, serde::Serialize)]
#[validate(passwords_match)]
struct Signup {
    #[validate(not_reserved)]
    username: String,
    age: i64,
    p1: String,
    p2: String,
}

#[post("/u")]
async fn signup(b: Signup) -> Json<Signup> {
    Json(b)
}

async fn post(body: Value) -> (u16, Value) {
    let client = TestClient::new(App::new().routes(routes![signup]));
    let reply = client.post("/u").json(&body).send().await;
    (reply.status().as_u16(), reply.json())
}

#[tokio::test]
async fn a_field_validator_is_a_value_error_among_the_others() {
    let (status, body) = post(json!({"username": "admin", "age": "x", "p1": "a", "p2": "a"})).await;
    assert_eq!(status, 422);
    assert_eq!(
        body,
        json!({"detail": [
            {"type": "value_error", "loc": ["body", "username"], "msg": "Value error, username is reserved", "input": "admin", "ctx": {"error": {}}},
            {"type": "int_parsing", "loc": ["body", "age"], "msg": "Input should be a valid integer, unable to parse string as an integer", "input": "x"}
        ]})
    );
}

#[tokio::test]
async fn a_model_validator_runs_once_the_fields_are_valid() {
    let (status, body) = post(json!({"username": "bob", "age": 1, "p1": "a", "p2": "b"})).await;
    assert_eq!(status, 422);
    assert_eq!(
        body,
        json!({"detail": [
            {"type": "value_error", "loc": ["body"], "msg": "Value error, passwords do not match", "input": {"username": "bob", "age": 1, "p1": "a", "p2": "b"}, "ctx": {"error": {}}}
        ]})
    );
    // A field error: the model validator does not run (pydantic's "after" mode).
    let (_, body) = post(json!({"username": "admin", "age": 1, "p1": "a", "p2": "b"})).await;
    assert_eq!(body["detail"].as_array().map(Vec::len), Some(1));
    assert_eq!(body["detail"][0]["loc"], json!(["body", "username"]));
    let (status, body) = post(json!({"username": "bob", "age": 1, "p1": "a", "p2": "a"})).await;
    assert_eq!(
        (status, body),
        (200, json!({"username": "bob", "age": 1, "p1": "a", "p2": "a"}))
    );
}
