//! Test support: an example app that exercises every parameter kind, and a small raw HTTP/1.1
//! client so tests see the exact bytes a client would (and can send malformed requests).

pub mod app;
pub mod client;
