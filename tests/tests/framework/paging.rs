//! Routes that page (the route option `paged`, issue 43 item 4): the `x-paging` extension of
//! their operation, with the parameter names given or defaulted and those a dependency takes;
//! pages turned over real HTTP as a client following the extension turns them; and the app that
//! does not build because a paged route breaks the extension's promise.

use ferrapi::build::{Declared, MistakeKind};
use ferrapi::prelude::*;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::get;

/// 23 numbers, a page at a time.
#[get("/numbers", paged)]
async fn numbers(
    #[default(0)] skip: usize,
    #[default(10)]
    #[le(50)]
    limit: usize,
) -> Json<Vec<usize>> {
    Json((0..23).skip(skip).take(limit).collect())
}

/// Where a list starts and how much of it one page holds, under other names.
#[derive(Clone, Copy)]
struct Window {
    offset: usize,
    size: usize,
}

#[dependency]
fn window(#[default(0)] offset: usize, #[default(5)] size: usize) -> Window {
    Window { offset, size }
}

/// Letters, paged by a dependency's parameters.
#[get("/letters", paged(offset = "offset", limit = "size"))]
async fn letters(window: Window) -> Json<Vec<String>> {
    Json(
        ('a'..='z')
            .skip(window.offset)
            .take(window.size)
            .map(String::from)
            .collect(),
    )
}

/// Not paged: no extension.
#[get("/plain")]
async fn plain(#[default(0)] skip: usize, #[default(1)] limit: usize) -> Json<Vec<usize>> {
    Json(vec![skip, limit])
}

#[tokio::test]
async fn a_paged_route_says_so_in_its_operation_and_pages_over_http() {
    let addr = spawn(App::new().routes(routes![numbers, letters, plain])).await;
    let document: Value = serde_json::from_slice(&get(addr, "/openapi.json").await.body).unwrap_or_default();
    let paths = &document["paths"];
    assert_eq!(
        paths["/numbers"]["get"]["x-paging"],
        json!({ "style": "offset", "offset": "skip", "limit": "limit" })
    );
    assert_eq!(
        paths["/letters"]["get"]["x-paging"],
        json!({ "style": "offset", "offset": "offset", "limit": "size" })
    );
    assert!(paths["/plain"]["get"].get("x-paging").is_none());
    // Turned as the extension says: the limit's maximum as the page size, the next offset after
    // the items received, a short page the last.
    let limit = paths["/numbers"]["get"]["parameters"][1]["schema"]["maximum"].as_u64();
    assert_eq!(limit, Some(50));
    let (mut seen, mut offset, mut pages) = (Vec::new(), 0, 0);
    loop {
        let reply = get(addr, &format!("/numbers?skip={offset}&limit=7")).await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        let page: Vec<usize> = serde_json::from_slice(&reply.body).unwrap_or_default();
        pages += 1;
        offset += page.len();
        let last = page.len() < 7;
        seen.extend(page);
        if last {
            break;
        }
    }
    assert_eq!((seen, pages), ((0..23).collect::<Vec<_>>(), 4));
}

/// Declares `paged`, but takes no `skip` and its `limit` is text.
#[get("/broken", paged)]
async fn broken(limit: String) -> Json<Vec<String>> {
    Json(vec![limit])
}

/// Declares `paged`, but answers an object.
#[get("/object", paged)]
async fn object(#[default(0)] skip: u32, #[default(1)] limit: u32) -> Json<Value> {
    Json(json!({ "skip": skip, "limit": limit }))
}

#[test]
fn a_paged_route_that_breaks_the_promise_does_not_build() {
    let (app, line) = (App::new().routes(routes![numbers, broken, object]), line!());
    let error = app.build().map(drop).expect_err("two broken paged routes");
    let mistakes: Vec<_> = error.errors().collect();
    assert_eq!(mistakes.len(), 2, "{error}");
    match (mistakes[0].kind(), mistakes[0].declared()) {
        (
            MistakeKind::Paging { problems },
            Declared::Route {
                path, name, added_at, ..
            },
        ) => {
            assert_eq!((path.as_str(), *name), ("/broken", "broken"));
            assert_eq!((added_at.file(), added_at.line()), (file!(), line));
            assert_eq!(problems.len(), 2, "{problems:?}");
            assert!(problems[0].contains("no query parameter `skip`"), "{problems:?}");
            assert!(problems[1].contains("`limit` is not an integer"), "{problems:?}");
        }
        other => panic!("{other:?}"),
    }
    match mistakes[1].kind() {
        MistakeKind::Paging { problems } => {
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(problems[0].contains("JSON array"), "{problems:?}");
        }
        other => panic!("{other:?}"),
    }
    let text = error.to_string();
    assert!(text.starts_with("2 mistakes in the app:"), "{text}");
    assert!(text.contains("route `object` (GET /object)"), "{text}");
}
