//! Dependency overrides in the test client (issue 24, item 5; FastAPI's
//! `app.dependency_overrides`): a test replaces a dependency type with a value or a function,
//! wherever it is used, for its own client's requests only, without touching the routes.

use ferrapi::prelude::*;
use ferrapi::security::HttpBearer;
use ferrapi::testing::TestClient;

/// Who is calling.
#[derive(Debug, Clone)]
struct Identity {
    name: String,
}

/// The real dependency: asks an identity provider the tests do not have.
#[dependency]
async fn identity(token: HttpBearer) -> Result<Identity, Response> {
    let _ = token;
    Err(HttpError::new(503, "The identity provider is unreachable").into_response())
}

/// A dependency taking the overridden one: it gets the replacement too.
#[derive(Debug, Clone)]
struct Greeting(String);

#[dependency]
async fn greeting(who: Identity) -> Result<Greeting, Response> {
    Ok(Greeting(format!("hello {}", who.name)))
}

#[get("/me")]
async fn me(who: Identity, greeting: Greeting, #[default(1)] n: i64) -> Json<Value> {
    Json(json!({ "name": who.name, "greeting": greeting.0, "n": n }))
}

fn app() -> App {
    App::new().routes(routes![me])
}

#[tokio::test]
async fn without_an_override_the_real_dependency_answers() {
    let client = TestClient::new(app());
    let reply = client.get("/me").send().await;
    assert_eq!(reply.status(), 401, "HttpBearer, an input of the real dependency");
    let reply = client.get("/me").header("Authorization", "Bearer t").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (
            503,
            r#"{"detail":"The identity provider is unreachable"}"#.to_owned()
        )
    );
}

#[tokio::test]
async fn a_value_replaces_a_dependency_wherever_it_is_used() {
    let tester = Identity {
        name: "tester".to_owned(),
    };
    let client = TestClient::new(app()).override_value(tester);
    let reply = client.get("/me?n=2").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (
            200,
            json!({ "name": "tester", "greeting": "hello tester", "n": 2 })
        ),
        "no credential needed: the replaced dependency's own dependencies are not resolved"
    );
    let reply = client.get("/me?n=x").send().await;
    assert_eq!(
        reply.status(),
        422,
        "the route's other arguments are still validated"
    );
}

#[tokio::test]
async fn a_function_replaces_a_dependency_and_may_answer_itself() {
    let client = TestClient::new(app()).override_dependency(|| async {
        Err::<Identity, _>(HttpError::new(403, "Suspended").into_response())
    });
    let reply = client.get("/me").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (403, r#"{"detail":"Suspended"}"#.to_owned())
    );
    let replaced = client.override_dependency(|| async {
        Ok::<_, Response>(Identity {
            name: "second".to_owned(),
        })
    });
    let reply = replaced.get("/me").send().await;
    assert_eq!(
        reply.json::<Value>()["name"],
        "second",
        "a second override replaces the first"
    );
}

#[tokio::test]
async fn overrides_belong_to_their_client() {
    let service = app().build().expect("builds");
    let tester = Identity {
        name: "tester".to_owned(),
    };
    let overridden = TestClient::new(&service).override_value(tester);
    let plain = TestClient::new(&service);
    assert_eq!(overridden.get("/me").send().await.status(), 200);
    assert_eq!(plain.get("/me").send().await.status(), 401);
}
