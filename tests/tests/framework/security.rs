//! Security properties of the framework's answers, in-process through the test client: error
//! answers never carry server internals (a handler's panic message, source paths, a conversion's
//! internals). (Hostile input over HTTP is `hostile_input`'s subject; the service's own security
//! properties are in `service/tests/service/security.rs`.)

use ferrapi::testing::TestClient;
use ferrapi_tests::app::app;

#[tokio::test]
async fn errors_carry_no_internals() {
    let client = TestClient::new(app());
    let reply = client.get("/panic").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (500, r#"{"detail":"Internal Server Error"}"#.to_owned()),
        "the panic message goes to the log only"
    );
    let reply = client.get("/item/%FF").send().await;
    assert_eq!(reply.status(), 422);
    for needle in ["/work", "src/", ".rs", "panicked", "thread", "sqlite", "SQL"] {
        assert!(!reply.text().contains(needle), "{needle}: {}", reply.text());
    }
}
