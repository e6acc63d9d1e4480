//! Shared by the targets: the example app of `ferrapi-tests` (every parameter kind and body
//! shape), compiled once, and a current-thread runtime to answer requests in-process.
//!
//! Rule checked by every target: any input gives a response whose status is below 500 (the
//! `/panic` route, the one deliberate 500, is never reached: see `request.rs`).

use std::sync::OnceLock;

use bytes::Bytes;
use ferrapi::Service;
use http_body_util::Full;

pub fn service() -> &'static Service {
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(ferrapi_tests::app::service)
}

pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

/// Answer `request` in-process; its status.
pub fn status_of(request: hyper::Request<Full<Bytes>>) -> u16 {
    runtime().block_on(service().handle(request)).status().as_u16()
}
