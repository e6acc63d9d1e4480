//! The Resource API's tests over real HTTP on 127.0.0.1: its routes served in-process on both
//! stores (`group_a`, `group_b`, `bird_numbers`, `bird_text`, `clinic`, `openapi`, `security`,
//! `faults`), the released document checked for breaks (`compat`), the store conformance suite (`store`, `references` for the reference-checked writes and what a
//! killed process leaves of them, `versions` for the versioned writes), and the real
//! `resource-api` binary started, signalled and killed (`clinic_restart`, `durability`, `graceful_shutdown`, and the ignored `soak`), three of
//! them over one store at once (`scale_out`, and `safe_writes` for `If-Match` and
//! `Idempotency-Key` across them). All talk HTTP with the tests' one client,
//! `ferrapi_tests::client`, but a route served alone to check its answer (a shadowed form), which
//! the in-process `ferrapi::testing::TestClient` calls: there the socket is not the point.
//!
//! Rules enforced here: one test binary for all of them (each binary links hyper, tokio, the
//! MongoDB driver and the service again, which on two cores costs more than the tests take to
//! run), one module per subject, the helpers in `support`. MongoDB tests need `MONGODB_TEST_URI`
//! (see `support`). The soak is ignored and run on purpose:
//! `cargo test --release -p resource-api --test service soak -- --ignored --nocapture`.
//! Run one module with a filter, e.g. `cargo test -p resource-api --test service store::`.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod support;

mod bird_numbers;
mod bird_text;
mod client;
mod clinic;
mod clinic_restart;
mod compat;
mod deep_paging;
mod durability;
mod faults;
mod graceful_shutdown;
mod group_a;
mod group_b;
mod log_injection;
mod observability;
mod openapi;
mod otlp;
mod references;
mod safe_writes;
mod scale_out;
mod security;
mod soak;
mod store;
mod tls;
mod versions;
