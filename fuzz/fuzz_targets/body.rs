//! The body validator, end to end in-process: any bytes sent as a JSON body (or as text) to the
//! routes with a model, a nested model, or any JSON object are answered below 500.
#![no_main]

mod common;

use bytes::Bytes;
use http_body_util::Full;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let (method, path) = match selector % 4 {
        0 => ("POST", "/item"),
        1 => ("PUT", "/item/1"),
        2 => ("POST", "/nested"),
        _ => ("POST", "/any"),
    };
    let content_type = if selector & 0x80 == 0 {
        "application/json"
    } else {
        "text/plain"
    };
    let Ok(request) = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", content_type)
        .body(Full::new(Bytes::copy_from_slice(body)))
    else {
        return;
    };
    let status = common::status_of(request);
    assert!(status < 500, "status {status} for {:?}", String::from_utf8_lossy(body));
});
