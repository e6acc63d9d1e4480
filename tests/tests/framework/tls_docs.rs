//! The documentation pages over HTTPS (issue 46, item 5): `/docs`, `/redoc`, every asset they
//! name and `/openapi.json`, over TLS with HTTP/2 and HTTP/1.1, are the bytes the plain listener
//! serves.

use ferrapi::serve::Scheme;
use ferrapi_tests::app::app;

use crate::support::tls::{client, get, pair, settings, BOTH};

/// The `src`/`href` values of a page that name something on this server.
fn local_references(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["src=\"", "href=\""] {
        for rest in page.split(attr).skip(1) {
            let value = rest.split('"').next().unwrap_or_default();
            if value.starts_with('/') {
                out.push(value.to_owned());
            }
        }
    }
    out
}

#[tokio::test]
async fn the_docs_pages_and_their_assets_are_served_over_tls() {
    let pair = pair();
    let mut server = app()
        .tls(settings(&pair))
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let plain = server
        .also_bind("127.0.0.1:0", Scheme::Http)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let tls = server.local_addr();
    tokio::spawn(server.run_until(std::future::pending()));

    let mut paths = vec!["/openapi.json".to_owned()];
    for page in ["/docs", "/redoc"] {
        let reply = ferrapi_tests::client::get(plain, page).await;
        assert_eq!(reply.status, 200, "{page}");
        let references = local_references(&reply.text());
        assert!(references.len() >= 2, "{page} names its assets: {references:?}");
        paths.push(page.to_owned());
        paths.extend(references);
    }
    for (alpn, version) in [
        (&b"h2"[..], hyper::Version::HTTP_2),
        (&b"http/1.1"[..], hyper::Version::HTTP_11),
    ] {
        let connector = client(&pair.cert, &[alpn], BOTH);
        for path in &paths {
            let expected = ferrapi_tests::client::get(plain, path).await;
            assert_eq!(expected.status, 200, "{path}");
            let answer = get(tls, &connector, path)
                .await
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!((answer.version, answer.status), (version, 200), "{path}");
            assert_eq!(
                answer.headers.get("content-type").and_then(|v| v.to_str().ok()),
                expected.header("content-type"),
                "{path}"
            );
            assert!(
                answer.bytes == expected.dechunked(),
                "{path} over TLS ({version:?}) differs from plain: {} bytes against {}",
                answer.bytes.len(),
                expected.dechunked().len()
            );
        }
    }
}
