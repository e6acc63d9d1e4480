//! The OpenAPI document and the documentation pages over real HTTP on 127.0.0.1: content types,
//! security and cache headers, every asset a page names served by the service itself, and the
//! URLs moved or switched off on the app. (`scripts/docs-checks.sh` opens the pages in a real
//! browser.)

use ferrapi::prelude::*;
use ferrapi_tests::app::{app, spawn};
use ferrapi_tests::client::{get, send, Reply};

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

fn assert_page_headers(reply: &Reply) {
    assert_eq!(reply.status, 200);
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
    let addr = spawn(app()).await;
    let reply = get(addr, "/openapi.json").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.json()["openapi"], "3.1.0");
    let head = send(addr, "HEAD", "/openapi.json", &[], None).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(
        head.header("content-length"),
        Some(reply.body.len().to_string().as_str())
    );
}

#[tokio::test]
async fn swagger_ui_and_redoc_are_served_with_all_their_assets() {
    let addr = spawn(app()).await;
    for (page, library, title) in [
        ("/docs", "swagger-ui-bundle.js", "ferrapi test app - Swagger UI"),
        ("/redoc", "redoc.standalone.js", "ferrapi test app - ReDoc"),
    ] {
        let reply = get(addr, page).await;
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
            let asset = get(addr, &reference).await;
            assert_eq!(asset.status, 200, "{reference}");
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
            assert!(asset.body.len() > 100, "{reference} has content");
        }
    }
    // A trailing slash is not significant; HEAD answers like GET without the body.
    assert_page_headers(&get(addr, "/docs/").await);
    let head = send(addr, "HEAD", "/redoc", &[], None).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
}

#[tokio::test]
async fn swagger_ui_is_configured_offline() {
    let addr = spawn(app()).await;
    let html = get(addr, "/docs").await.text();
    let init = local_references(&html)
        .into_iter()
        .find(|r| r.ends_with("swagger-init.js"))
        .expect("the init script");
    let script = get(addr, &init).await.text();
    assert!(script.contains("validatorUrl: null"), "{script}");
    assert!(!script.contains("http"), "{script}");
}

#[tokio::test]
async fn other_methods_on_the_docs_paths_are_405() {
    let addr = spawn(app()).await;
    for path in ["/docs", "/redoc", "/openapi.json"] {
        let reply = send(addr, "POST", path, &[], None).await;
        assert_eq!(reply.status, 405, "{path}");
        assert_eq!(reply.header("allow"), Some("GET, HEAD"));
        assert_eq!(reply.text(), r#"{"detail":"Method Not Allowed"}"#);
    }
}

#[tokio::test]
async fn the_urls_can_be_moved_and_switched_off() {
    let addr = spawn(
        app()
            .openapi_url(Some("/api/openapi.json"))
            .docs_url(Some("/api/docs"))
            .redoc_url(None),
    )
    .await;
    assert_eq!(get(addr, "/openapi.json").await.status, 404);
    assert_eq!(get(addr, "/docs").await.status, 404);
    assert_eq!(get(addr, "/redoc").await.status, 404);
    assert_eq!(get(addr, "/api/openapi.json").await.json()["openapi"], "3.1.0");
    let docs = get(addr, "/api/docs").await;
    assert_page_headers(&docs);
    assert!(docs.text().contains("data-openapi-url=\"/api/openapi.json\""));
    for reference in local_references(&docs.text()) {
        assert!(reference.starts_with("/api/docs/"), "{reference}");
        assert_eq!(get(addr, &reference).await.status, 200, "{reference}");
    }

    // Without the document there is nothing for the pages to show: none is served.
    let addr = spawn(app().openapi_url(None)).await;
    for path in ["/openapi.json", "/docs", "/redoc"] {
        assert_eq!(get(addr, path).await.status, 404, "{path}");
    }
}

#[tokio::test]
async fn a_bad_docs_url_stops_the_build() {
    let error = App::new().docs_url(Some("docs")).build().expect_err("refused");
    assert!(error.to_string().contains("docs_url `docs`"), "{error}");
    let error = App::new()
        .docs_url(Some("/same"))
        .redoc_url(Some("/same"))
        .build()
        .expect_err("refused");
    assert!(error.to_string().contains("`/same`"), "{error}");
}
