//! The router and route templates: any template text either parses or is refused with an
//! error; a router built from fixed and fuzzed templates answers any method and path without
//! panicking, and a found route's index is one of the routes given.
#![no_main]

use ferrapi::__fuzz::{Lookup, Router};
use ferrapi::http::Method;
use ferrapi_template::Template;
use libfuzzer_sys::fuzz_target;

const FIXED: [&str; 8] = [
    "/",
    "/item/{id}",
    "/item/{item_id}",
    "/user/me",
    "/user/{user_id}/item/{item_id}",
    "employee/:id",
    "/post/",
    "/stock/{symbol}/{type}",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // First line: a template to add; the rest: a path to look up.
    let (template, path) = text.split_once('\n').unwrap_or((text, text));
    let mut routes: Vec<(Method, Template)> = FIXED
        .iter()
        .filter_map(|t| Template::parse(t).ok())
        .map(|t| (Method::GET, t))
        .collect();
    if let Ok(extra) = Template::parse(template) {
        routes.push((Method::POST, extra));
    }
    let Ok(router) = Router::new(&routes) else {
        return;
    };
    for method in [Method::GET, Method::POST, Method::DELETE] {
        if let Lookup::Found { route, .. } = router.lookup(&method, path) {
            assert!(route < routes.len());
        }
    }
});
