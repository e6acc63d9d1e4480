//! The OpenAPI document and the two documentation pages (Swagger UI at `/docs`, ReDoc at
//! `/redoc`), answered before routing from responses prepared when the app is built.
//!
//! Rules enforced here:
//! - the pages work with no network beyond the service: every script, stylesheet and icon is
//!   served from the binary (see `build.rs` for where the bytes come from), no CDN, no font
//!   service, and Swagger UI's online validator is off;
//! - assets carry their content type, `X-Content-Type-Options: nosniff` and a one-year
//!   `immutable` cache: their URLs contain the library's version and a hash of the bytes, so a
//!   new build never meets a stale cache; the pages and the document are `no-cache`;
//! - the HTML pages also carry a Content-Security-Policy that allows only this origin's scripts
//!   and connections (inline styles stay allowed: both libraries set styles from script), and
//!   they hold no inline script: each page's configuration is a `data-` attribute read by a
//!   small script of our own;
//! - each URL can be moved or switched off on the app; without the document, no page is served;
//! - GET and HEAD are answered; another method on one of these paths is 405 with `Allow`.

use std::sync::OnceLock;

use bytes::Bytes;
use hyper::header::{
    HeaderMap, HeaderName, HeaderValue, ALLOW, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE,
    REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use hyper::{Method, StatusCode};
use serde_json::json;

use crate::config::Config;
use crate::response::{error_response, escape_html, Body, Response};

/// The version of Swagger UI served at `/docs`.
pub const SWAGGER_UI_VERSION: &str = include_str!(concat!(env!("OUT_DIR"), "/swagger-ui.version"));
/// The version of ReDoc served at `/redoc`.
pub const REDOC_VERSION: &str = include_str!(concat!(env!("OUT_DIR"), "/redoc.version"));

const SWAGGER_UI_BUNDLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/swagger-ui-bundle.js"));
const SWAGGER_UI_CSS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/swagger-ui.css"));
const SWAGGER_UI_FAVICON: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/favicon-32x32.png"));
const REDOC_BUNDLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/redoc.standalone.js"));
/// FNV-1a of the Swagger UI files, computed by the build script.
const SWAGGER_ASSETS_FNV: &str = include_str!(concat!(env!("OUT_DIR"), "/swagger-ui.fnv"));
/// FNV-1a of the ReDoc bundle, computed by the build script.
const REDOC_ASSETS_FNV: &str = include_str!(concat!(env!("OUT_DIR"), "/redoc.fnv"));

/// Starts Swagger UI on the `#swagger-ui` element with the document its `data-openapi-url` names.
/// The options are FastAPI's defaults, plus `validatorUrl: null` (no request to the online
/// validator).
/// An app with versions has a `<select id="api-version">` above: choosing another version loads
/// its document, as Swagger UI's own top bar does (which the bundle does not carry).
const SWAGGER_INIT: &str = r##""use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  var select = document.getElementById("api-version");
  if (select) {
    select.addEventListener("change", function () {
      window.ui.specActions.updateUrl(select.value);
      window.ui.specActions.download(select.value);
    });
  }
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset]
  });
})();
"##;

/// Starts ReDoc on the `#redoc` element with the document its `data-openapi-url` names; in an
/// app with versions, choosing another in the `<select id="api-version">` renders that one's.
const REDOC_INIT: &str = r#""use strict";
(function () {
  var root = document.getElementById("redoc");
  var select = document.getElementById("api-version");
  if (select) {
    select.addEventListener("change", function () {
      Redoc.init(select.value, {}, root);
    });
  }
  Redoc.init(root.getAttribute("data-openapi-url"), {}, root);
})();
"#;

const JAVASCRIPT: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const PNG: &str = "image/png";
const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";

/// What the pages may load: this origin's scripts, styles, images and connections (data: URLs
/// for the icons both libraries inline; blob: workers for ReDoc's search).
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
     connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const NO_CACHE: &str = "no-cache";

/// One answer, prepared once.
struct Entry {
    path: String,
    /// The answer's headers, built once: cloning them costs less than validating and inserting
    /// each header per request (≈ 400 instructions per `GET /openapi.json`, callgrind).
    headers: HeaderMap,
    body: Bytes,
}

impl Entry {
    fn new(
        path: String,
        content_type: &'static str,
        cache_control: &'static str,
        html: bool,
        body: Bytes,
    ) -> Self {
        let mut headers = HeaderMap::with_capacity(if html { 7 } else { 3 });
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache_control));
        headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        if html {
            headers.insert(
                CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CONTENT_SECURITY_POLICY_VALUE),
            );
            headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
            headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
            headers.insert(
                HeaderName::from_static("cross-origin-opener-policy"),
                HeaderValue::from_static("same-origin"),
            );
        }
        Entry { path, headers, body }
    }
}

/// The document and pages of one app, looked up by exact path.
pub(crate) struct DocsRoutes {
    entries: Vec<Entry>,
    /// Bit `n` is set when an entry's path is `n` bytes long (bit 127: 127 bytes or more), so
    /// most request paths are known not to be ours without comparing any string.
    lengths: u128,
}

/// The bit of [`DocsRoutes::lengths`] for a path of `len` bytes.
fn length_bit(len: usize) -> u128 {
    1 << len.min(127)
}

/// FNV-1a (64 bit) of `parts`: a short name for the assets' content, for cache busting.
fn fingerprint(parts: &[&[u8]]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in *part {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{:08x}", hash >> 32)
}

/// The folders of the two pages' assets, e.g. `swagger-ui-5.32.6-1a2b3c4d`.
fn asset_folders() -> &'static (String, String) {
    static FOLDERS: OnceLock<(String, String)> = OnceLock::new();
    FOLDERS.get_or_init(|| {
        // The bundles' own fingerprints come from the build script: hashing them here would
        // read 2.7 MB at start-up and keep those pages resident.
        let swagger = fingerprint(&[SWAGGER_ASSETS_FNV.as_bytes(), SWAGGER_INIT.as_bytes()]);
        let redoc = fingerprint(&[REDOC_ASSETS_FNV.as_bytes(), REDOC_INIT.as_bytes()]);
        (
            format!("swagger-ui-{SWAGGER_UI_VERSION}-{swagger}"),
            format!("redoc-{REDOC_VERSION}-{redoc}"),
        )
    })
}

/// Every mistake in the URLs `config` serves the document and the pages at, each with the
/// `App` method that sets it (`"docs_url"`): a URL that is not an absolute path like `/docs`, or
/// one that another of the three already takes. The URLs of pages that are not served (no
/// document) are not checked, as [`DocsRoutes::new`] does not read them.
pub(crate) fn url_mistakes(config: &Config) -> Vec<(&'static str, String)> {
    let mut mistakes = Vec::new();
    let Some(openapi_url) = &config.openapi_url else {
        return mistakes;
    };
    let mut taken: Vec<(&'static str, &str)> = Vec::new();
    let urls = [
        ("openapi_url", Some(openapi_url)),
        ("docs_url", config.docs_url.as_ref()),
        ("redoc_url", config.redoc_url.as_ref()),
    ];
    for (setting, url) in urls {
        let Some(url) = url else { continue };
        if !valid_url(url) {
            mistakes.push((setting, format!("`{url}` {NOT_A_URL}")));
        } else if let Some((other, _)) = taken.iter().find(|(_, known)| *known == url.as_str()) {
            mistakes.push((setting, format!("`{url}` is taken by {other}")));
        }
        taken.push((setting, url));
    }
    mistakes
}

/// What a configured URL must be.
const NOT_A_URL: &str = "must be an absolute path like `/docs`, without a trailing slash, query or fragment";

/// Whether a configured URL is an absolute path without a trailing slash, query or fragment.
fn valid_url(url: &str) -> bool {
    url.starts_with('/')
        && (url == "/" || !url.ends_with('/'))
        && !url.contains(['?', '#', '"', '<', '>', ' '])
}

/// Check a configured URL (see [`valid_url`]).
fn check_url(what: &str, url: &str) -> Result<(), String> {
    if valid_url(url) {
        Ok(())
    } else {
        Err(format!("{what} `{url}` {NOT_A_URL}"))
    }
}

/// One version's document, for an app with versions: the pages list each, the default chosen.
pub(crate) struct VersionDoc {
    /// The version's date.
    pub date: &'static str,
    /// Its document.
    pub bytes: Bytes,
    /// Whether it is the default version (the one `/openapi.json` is).
    pub default: bool,
    /// How the page's list names it besides its date (`unreleased`, `deprecated`), if at all.
    pub label: Option<&'static str>,
}

/// The name of the changelog's document beside the versions' (`/openapi/changes.json`): not a
/// date, so it is never a version's.
const CHANGES: &str = "changes";

/// Where a version's document is served: `/openapi/2026-01-15.json` beside `/openapi.json` (a
/// URL not ending in `.json` gets the version below it: `/spec/2026-01-15.json`).
pub(crate) fn version_url(openapi_url: &str, date: &str) -> String {
    let base = openapi_url.strip_suffix(".json").unwrap_or(openapi_url);
    format!("{}/{date}.json", base.trim_end_matches('/'))
}

/// The version switcher both pages carry in an app with versions (empty without): each
/// version's document URL, the default one selected. No script here (the CSP forbids inline
/// ones): the pages' init scripts listen to it.
fn version_select(openapi_url: &str, versions: &[VersionDoc]) -> String {
    if versions.is_empty() {
        return String::new();
    }
    let mut html = String::from(
        "<div style=\"padding: 8px 16px; font-family: sans-serif\"><label for=\"api-version\">API version</label> <select id=\"api-version\">",
    );
    for version in versions {
        let url = escape_html(&version_url(openapi_url, version.date));
        let selected = if version.default { " selected" } else { "" };
        let label = match (version.default, version.label) {
            (true, Some(label)) => format!(" (default, {label})"),
            (true, None) => " (default)".to_owned(),
            (false, Some(label)) => format!(" ({label})"),
            (false, None) => String::new(),
        };
        html.push_str(&format!(
            "<option value=\"{url}\"{selected}>{}{label}</option>",
            version.date
        ));
    }
    html.push_str("</select></div>\n");
    html
}

fn swagger_page(title: &str, openapi_url: &str, assets: &str, select: &str) -> String {
    let title = escape_html(title);
    let openapi_url = escape_html(openapi_url);
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Swagger UI</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
<link rel="icon" type="image/png" href="{assets}/favicon-32x32.png">
</head>
<body>
{select}<div id="swagger-ui" data-openapi-url="{openapi_url}"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="{assets}/swagger-init.js"></script>
</body>
</html>
"#
    )
}

fn redoc_page(title: &str, openapi_url: &str, assets: &str, select: &str) -> String {
    let title = escape_html(title);
    let openapi_url = escape_html(openapi_url);
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - ReDoc</title>
<link rel="icon" href="data:,">
<style>body {{ margin: 0; padding: 0; }}</style>
</head>
<body>
{select}<div id="redoc" data-openapi-url="{openapi_url}"></div>
<script src="{assets}/redoc.standalone.js"></script>
<script src="{assets}/redoc-init.js"></script>
</body>
</html>
"#
    )
}

impl DocsRoutes {
    fn with_entries(entries: Vec<Entry>) -> Self {
        let lengths = entries.iter().fold(0, |mask, e| mask | length_bit(e.path.len()));
        DocsRoutes { entries, lengths }
    }

    /// The answers `config` asks for, for the document `openapi_json` of the API titled `title`
    /// and, in an app with versions, each version's document (`versions`, empty without) and
    /// the changelog of them all (`changes`, served at `/openapi/changes.json`).
    pub(crate) fn new(
        config: &Config,
        title: &str,
        openapi_json: Bytes,
        versions: Vec<VersionDoc>,
        changes: Option<Bytes>,
    ) -> Result<Self, String> {
        let mut entries = Vec::new();
        let Some(openapi_url) = &config.openapi_url else {
            return Ok(DocsRoutes::with_entries(entries));
        };
        check_url("openapi_url", openapi_url)?;
        entries.push(Entry::new(
            openapi_url.clone(),
            JSON,
            NO_CACHE,
            false,
            openapi_json,
        ));
        for version in &versions {
            entries.push(Entry::new(
                version_url(openapi_url, version.date),
                JSON,
                NO_CACHE,
                false,
                version.bytes.clone(),
            ));
        }
        if let Some(changes) = changes {
            entries.push(Entry::new(
                version_url(openapi_url, CHANGES),
                JSON,
                NO_CACHE,
                false,
                changes,
            ));
        }
        let select = version_select(openapi_url, &versions);
        let (swagger_folder, redoc_folder) = asset_folders();
        // Each page's files, served below the page's own URL in a versioned folder.
        let mut add_assets = |assets: &str, files: &[(&str, &'static str, &'static [u8])]| {
            for &(file, content_type, bytes) in files {
                let path = format!("{assets}/{file}");
                entries.push(Entry::new(
                    path,
                    content_type,
                    IMMUTABLE,
                    false,
                    Bytes::from_static(bytes),
                ));
            }
        };
        let mut pages = Vec::new();
        if let Some(docs_url) = &config.docs_url {
            check_url("docs_url", docs_url)?;
            let assets = format!("{}/{swagger_folder}", docs_url.trim_end_matches('/'));
            add_assets(
                &assets,
                &[
                    ("swagger-ui-bundle.js", JAVASCRIPT, SWAGGER_UI_BUNDLE),
                    ("swagger-ui.css", CSS, SWAGGER_UI_CSS),
                    ("favicon-32x32.png", PNG, SWAGGER_UI_FAVICON),
                    ("swagger-init.js", JAVASCRIPT, SWAGGER_INIT.as_bytes()),
                ],
            );
            pages.push((
                docs_url.clone(),
                swagger_page(title, openapi_url, &assets, &select),
            ));
        }
        if let Some(redoc_url) = &config.redoc_url {
            check_url("redoc_url", redoc_url)?;
            let assets = format!("{}/{redoc_folder}", redoc_url.trim_end_matches('/'));
            add_assets(
                &assets,
                &[
                    ("redoc.standalone.js", JAVASCRIPT, REDOC_BUNDLE),
                    ("redoc-init.js", JAVASCRIPT, REDOC_INIT.as_bytes()),
                ],
            );
            pages.push((
                redoc_url.clone(),
                redoc_page(title, openapi_url, &assets, &select),
            ));
        }
        for (path, html) in pages {
            entries.push(Entry::new(path, HTML, NO_CACHE, true, Bytes::from(html)));
        }
        for (i, entry) in entries.iter().enumerate() {
            if entries[..i].iter().any(|e| e.path == entry.path) {
                return Err(format!(
                    "`{}` is configured for two of openapi_url, docs_url and redoc_url",
                    entry.path
                ));
            }
        }
        Ok(DocsRoutes::with_entries(entries))
    }

    /// The paths answered here, for the start-up check that no route is hidden behind them.
    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.path.as_str())
    }

    /// The answer for `path`, if it is one of ours (a trailing slash is not significant).
    /// Inlined so that the usual answer, "not ours" by the length alone, costs no call.
    #[inline]
    pub(crate) fn respond(&self, method: &Method, path: &str) -> Option<Response> {
        let path = match path.strip_suffix('/') {
            Some(stripped) if !stripped.is_empty() => stripped,
            _ => path,
        };
        if self.lengths & length_bit(path.len()) == 0 {
            return None;
        }
        self.respond_to(method, path)
    }

    /// True when `path` is answered here (for any method: another one is a 405 from here).
    pub(crate) fn owns(&self, path: &str) -> bool {
        let path = match path.strip_suffix('/') {
            Some(stripped) if !stripped.is_empty() => stripped,
            _ => path,
        };
        self.lengths & length_bit(path.len()) != 0 && self.entries.iter().any(|e| e.path == path)
    }

    /// [`Self::respond`] for a path of one of our lengths.
    fn respond_to(&self, method: &Method, path: &str) -> Option<Response> {
        let entry = self.entries.iter().find(|e| e.path == path)?;
        if method != Method::GET && method != Method::HEAD {
            let mut response = error_response(StatusCode::METHOD_NOT_ALLOWED, &json!("Method Not Allowed"));
            response
                .headers_mut()
                .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
            return Some(response);
        }
        let mut response = hyper::Response::new(Body::from(entry.body.clone()));
        *response.headers_mut() = entry.headers.clone();
        Some(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(config: &Config) -> DocsRoutes {
        match DocsRoutes::new(config, "My <API>", Bytes::from_static(b"{}"), Vec::new(), None) {
            Ok(routes) => routes,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn assets_came_from_the_packages() {
        assert!(SWAGGER_UI_VERSION.starts_with("5."), "{SWAGGER_UI_VERSION}");
        assert!(REDOC_VERSION.starts_with("2."), "{REDOC_VERSION}");
        assert!(SWAGGER_UI_BUNDLE.len() > 1_000_000);
        assert!(SWAGGER_UI_CSS.starts_with(b".swagger-ui"));
        assert!(SWAGGER_UI_FAVICON.starts_with(b"\x89PNG"));
        assert!(REDOC_BUNDLE.starts_with(b"/*!"));
    }

    #[test]
    fn pages_name_only_local_assets_and_escape_the_title() {
        let routes = routes(&Config::default());
        let paths: Vec<&str> = routes.paths().collect();
        assert_eq!(paths.len(), 9, "{paths:?}");
        for page in ["/docs", "/redoc"] {
            assert!(routes.respond(&Method::GET, page).is_some());
            let entry = routes
                .entries
                .iter()
                .find(|e| e.path == page)
                .map(|e| e.body.clone());
            let body = String::from_utf8_lossy(&entry.unwrap_or_default()).into_owned();
            assert!(body.contains("My &lt;API&gt;"), "{body}");
            assert!(!body.contains("http"), "no absolute URL in {page}: {body}");
            assert!(!body.contains("<script>"), "no inline script in {page}");
            for src in body.split("src=\"").skip(1) {
                let src = src.split('"').next().unwrap_or_default();
                assert!(paths.contains(&src), "{src} is served");
            }
        }
    }

    #[test]
    fn urls_can_move_and_switch_off() {
        let config = Config {
            openapi_url: Some("/api/spec.json".into()),
            docs_url: Some("/api/docs".into()),
            redoc_url: None,
            ..Config::default()
        };
        let routes = routes(&config);
        assert!(routes.respond(&Method::GET, "/api/spec.json").is_some());
        assert!(routes.respond(&Method::GET, "/api/docs/").is_some());
        assert!(routes.respond(&Method::GET, "/redoc").is_none());
        assert!(routes.respond(&Method::GET, "/openapi.json").is_none());
        let no_document = Config {
            openapi_url: None,
            ..Config::default()
        };
        assert_eq!(routes_count(&no_document), 0, "no page without the document");
    }

    fn routes_count(config: &Config) -> usize {
        routes(config).paths().count()
    }

    #[test]
    fn bad_urls_are_refused() {
        for (docs, redoc) in [
            ("docs", "/redoc"),
            ("/docs/", "/redoc"),
            ("/x", "/x"),
            ("/d?x", "/r"),
        ] {
            let config = Config {
                docs_url: Some(docs.into()),
                redoc_url: Some(redoc.into()),
                ..Config::default()
            };
            assert!(
                DocsRoutes::new(&config, "t", Bytes::new(), Vec::new(), None).is_err(),
                "{docs} {redoc}"
            );
        }
    }

    #[test]
    fn the_length_filter_never_hides_a_page() {
        let long = format!("/{}", "d".repeat(200));
        let config = Config {
            docs_url: Some(long.clone()),
            ..Config::default()
        };
        let docs = routes(&config);
        for path in ["/openapi.json", "/openapi.json/", "/redoc", long.as_str()] {
            assert!(docs.respond(&Method::GET, path).is_some(), "{path}");
        }
        // Same lengths as served paths, other bytes; and a long path that is not ours.
        let other_long = format!("/{}", "e".repeat(200));
        for path in ["/openapi.jsoN", "/redox", "/item/42", other_long.as_str()] {
            assert!(docs.respond(&Method::GET, path).is_none(), "{path}");
        }
    }

    #[test]
    fn fingerprints_differ_with_content() {
        assert_ne!(fingerprint(&[b"a"]), fingerprint(&[b"b"]));
        assert_eq!(fingerprint(&[b"ab"]).len(), 8);
    }
}
