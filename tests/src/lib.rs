//! Test support: an example app that exercises every parameter kind, and the small raw HTTP/1.1
//! client of every black-box test (the framework's in `tests/tests/framework/`, the service's in
//! `service/tests/service/`), so tests see the exact bytes a client would (and can send malformed
//! requests).

pub mod app;
pub mod client;
pub mod forms;
pub mod inputs;
pub mod log_process;
pub mod observed;
pub mod otlp;
pub mod process;
pub mod snapshot;
pub mod uploads;
