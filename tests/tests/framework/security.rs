//! Security properties of the framework over real HTTP on 127.0.0.1: error answers never carry
//! server internals (a handler's panic message, source paths, a conversion's internals). (The
//! service's own security properties are in `service/tests/service/security.rs`.)

use ferrapi_tests::app::{app, spawn};
use ferrapi_tests::client::get;

#[tokio::test]
async fn errors_carry_no_internals() {
    let addr = spawn(app()).await;
    let reply = get(addr, "/panic").await;
    assert_eq!(
        (reply.status, reply.text()),
        (500, r#"{"detail":"Internal Server Error"}"#.to_owned()),
        "the panic message goes to the log only"
    );
    let reply = get(addr, "/item/%FF").await;
    assert_eq!(reply.status, 422);
    for needle in ["/work", "src/", ".rs", "panicked", "thread", "sqlite", "SQL"] {
        assert!(!reply.text().contains(needle), "{needle}: {}", reply.text());
    }
}
