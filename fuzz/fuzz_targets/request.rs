//! Path and query extraction and conversion, end to end in-process: any request target that
//! hyper would accept, on any method, is answered with a status below 500 by the example app
//! (which has int, float, bool, enum, constrained, list and optional parameters).
#![no_main]

mod common;

use bytes::Bytes;
use http_body_util::Full;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, target)) = data.split_first() else {
        return;
    };
    let Ok(uri) = hyper::Uri::try_from(target) else {
        return;
    };
    if uri.path().starts_with("/panic") {
        return; // the one route that fails on purpose
    }
    let method = match selector % 4 {
        0 => hyper::Method::GET,
        1 => hyper::Method::POST,
        2 => hyper::Method::PUT,
        _ => hyper::Method::HEAD,
    };
    let Ok(request) = hyper::Request::builder()
        .method(method)
        .uri(uri)
        .body(Full::new(Bytes::new()))
    else {
        return;
    };
    let status = common::status_of(request);
    assert!(status < 500, "status {status} for {:?}", String::from_utf8_lossy(target));
});
