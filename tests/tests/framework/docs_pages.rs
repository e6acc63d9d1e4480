//! The OpenAPI document and the documentation pages, in-process through the test client:
//! content types, security and cache headers, every asset a page names served by the app itself,
//! and the URLs moved or switched off on the app. (`scripts/docs-checks.sh` opens the pages in a
//! real browser, from a running server.)

use ferrapi::prelude::*;
use ferrapi::testing::{TestClient, TestResponse};
use ferrapi_tests::app::app;

/// The `src`/`href` values of a page that name something on this server.
fn local_references(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["src=\"", "href=\""] {
        for rest in page.split(attr).skip(1) {
            let value = rest.split('"').next().unwrap_or_default();
            if !value.starts_with("data:") {
                out.push(value.to_owned());
            }
        }
    }
    out
}

fn assert_page_headers(reply: &TestResponse) {
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(reply.header("cache-control"), Some("no-cache"));
    let csp = reply.header("content-security-policy").expect("a CSP header");
    assert_eq!(csp, ferrapi::docs::CONTENT_SECURITY_POLICY);
    assert!(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"));
    assert!(!csp.contains("http"), "no other origin is allowed");
}

#[tokio::test]
async fn the_document_is_json_at_openapi_json() {
    let client = TestClient::new(app());
    let reply = client.get("/openapi.json").send().await;
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.json::<Value>()["openapi"], "3.1.0");
    let head = client.head("/openapi.json").send().await;
    assert_eq!(head.status(), 200);
    assert!(head.bytes().is_empty());
    assert_eq!(
        head.header("content-length"),
        Some(reply.bytes().len().to_string().as_str())
    );
}

#[tokio::test]
async fn swagger_ui_and_redoc_are_served_with_all_their_assets() {
    let client = TestClient::new(app());
    for (page, library, title) in [
        ("/docs", "swagger-ui-bundle.js", "ferrapi test app - Swagger UI"),
        ("/redoc", "redoc.standalone.js", "ferrapi test app - ReDoc"),
    ] {
        let reply = client.get(page).send().await;
        assert_page_headers(&reply);
        let html = reply.text();
        assert!(html.contains(&format!("<title>{title}</title>")), "{html}");
        assert!(html.contains("data-openapi-url=\"/openapi.json\""), "{html}");
        assert!(!html.contains("<script>"), "no inline script: the CSP forbids it");
        let references = local_references(&html);
        assert!(references.iter().any(|r| r.ends_with(library)), "{references:?}");
        for reference in references {
            assert!(
                reference.starts_with(&format!("{page}/")),
                "{reference} is below {page}"
            );
            let asset = client.get(&reference).send().await;
            assert_eq!(asset.status(), 200, "{reference}");
            let expected_type = match reference.rsplit('.').next() {
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("png") => "image/png",
                other => panic!("unexpected asset type {other:?}"),
            };
            assert_eq!(asset.header("content-type"), Some(expected_type), "{reference}");
            assert_eq!(
                asset.header("cache-control"),
                Some("public, max-age=31536000, immutable"),
                "{reference}"
            );
            assert_eq!(asset.header("x-content-type-options"), Some("nosniff"));
            assert!(asset.bytes().len() > 100, "{reference} has content");
        }
    }
    // A trailing slash is not significant; HEAD answers like GET without the body.
    assert_page_headers(&client.get("/docs/").send().await);
    let head = client.head("/redoc").send().await;
    assert_eq!(head.status(), 200);
    assert!(head.bytes().is_empty());
}

#[tokio::test]
async fn swagger_ui_is_configured_offline() {
    let client = TestClient::new(app());
    let html = client.get("/docs").send().await.text();
    let init = local_references(&html)
        .into_iter()
        .find(|r| r.ends_with("swagger-init.js"))
        .expect("the init script");
    let script = client.get(&init).send().await.text();
    assert!(script.contains("validatorUrl: null"), "{script}");
    assert!(!script.contains("http"), "{script}");
}

#[tokio::test]
async fn other_methods_on_the_docs_paths_are_405() {
    let client = TestClient::new(app());
    for path in ["/docs", "/redoc", "/openapi.json"] {
        let reply = client.post(path).send().await;
        assert_eq!(reply.status(), 405, "{path}");
        assert_eq!(reply.header("allow"), Some("GET, HEAD"));
        assert_eq!(reply.text(), r#"{"detail":"Method Not Allowed"}"#);
    }
}

#[tokio::test]
async fn the_urls_can_be_moved_and_switched_off() {
    let client = TestClient::new(
        app()
            .openapi_url(Some("/api/openapi.json"))
            .docs_url(Some("/api/docs"))
            .redoc_url(None),
    );
    assert_eq!(client.get("/openapi.json").send().await.status(), 404);
    assert_eq!(client.get("/docs").send().await.status(), 404);
    assert_eq!(client.get("/redoc").send().await.status(), 404);
    assert_eq!(
        client.get("/api/openapi.json").send().await.json::<Value>()["openapi"],
        "3.1.0"
    );
    let docs = client.get("/api/docs").send().await;
    assert_page_headers(&docs);
    assert!(docs.text().contains("data-openapi-url=\"/api/openapi.json\""));
    for reference in local_references(&docs.text()) {
        assert!(reference.starts_with("/api/docs/"), "{reference}");
        assert_eq!(client.get(&reference).send().await.status(), 200, "{reference}");
    }

    // Without the document there is nothing for the pages to show: none is served.
    let client = TestClient::new(app().openapi_url(None));
    for path in ["/openapi.json", "/docs", "/redoc"] {
        assert_eq!(client.get(path).send().await.status(), 404, "{path}");
    }
}

#[tokio::test]
async fn a_bad_docs_url_stops_the_build() {
    let error = App::new().docs_url(Some("docs")).build().expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("docs_url: `docs` must be an absolute path"),
        "{error}"
    );
    let error = App::new()
        .docs_url(Some("/same"))
        .redoc_url(Some("/same"))
        .build()
        .expect_err("refused");
    assert!(error.to_string().contains("`/same`"), "{error}");
}
