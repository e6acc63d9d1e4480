//! Files over real HTTP on 127.0.0.1: a directory served by the `StaticDir` layer and a
//! `FileResponse` from a route, with validators, 304, ranges (206, 416), content types, and
//! every traversal attempt refused (`..`, encoded, absolute, a symlink out of the root).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use ferrapi::files::{FileResponse, StaticDir};
use ferrapi::prelude::*;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{raw, request, send, Reply};

/// A directory tree of its own per test (tests run at once), removed at the end.
struct Tree {
    base: PathBuf,
}

impl Tree {
    fn new() -> Tree {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let base = std::env::temp_dir().join(format!(
            "ferrapi-files-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let root = base.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(base.join("secret.txt"), "TOP SECRET").unwrap();
        std::fs::write(root.join("index.html"), "<h1>home</h1>").unwrap();
        std::fs::write(root.join("style.css"), "body { color: red }").unwrap();
        std::fs::write(root.join("sub/readme.txt"), "read me").unwrap();
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(root.join("data.bin"), data).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(base.join("secret.txt"), root.join("escape")).unwrap();
            std::os::unix::fs::symlink(&base, root.join("up")).unwrap();
            std::os::unix::fs::symlink(root.join("style.css"), root.join("inner.css")).unwrap();
        }
        Tree { base }
    }

    fn root(&self) -> PathBuf {
        self.base.join("root")
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

#[get("/hello")]
async fn hello() -> &'static str {
    "routes still answer"
}

/// The tree's `data.bin`, from a route, answering the request's conditions and range.
#[get("/report")]
async fn report(headers: HeaderMap, path: State<PathBuf>) -> Result<Response, HttpError> {
    let file = FileResponse::open(path.join("data.bin"))
        .await
        .map_err(|_| HttpError::not_found("no report"))?;
    Ok(file.respond(&headers).await)
}

async fn serve(tree: &Tree) -> SocketAddr {
    let app = App::new()
        .state(tree.root())
        .routes(routes![hello, report])
        .layer(StaticDir::new("/static", tree.root()).unwrap());
    spawn(app).await
}

/// `GET path` sent byte for byte as written (no client normalises it).
async fn get_raw(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    let mut all = vec![("Connection", "close")];
    all.extend_from_slice(headers);
    raw(addr, &request(&addr.to_string(), "GET", path, &all, None)).await
}

fn data() -> Vec<u8> {
    (0..1000u32).map(|i| (i % 251) as u8).collect()
}

#[tokio::test]
async fn files_are_served_with_their_type_and_validators() {
    let tree = Tree::new();
    let addr = serve(&tree).await;
    let reply = get_raw(addr, "/static/style.css", &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.text(), "body { color: red }");
    assert_eq!(reply.header("content-type"), Some("text/css; charset=utf-8"));
    assert_eq!(reply.header("content-length"), Some("19"));
    assert_eq!(reply.header("accept-ranges"), Some("bytes"));
    assert!(reply.header("etag").is_some_and(|e| e.starts_with('"')));
    assert!(reply.header("last-modified").is_some_and(|d| d.ends_with("GMT")));

    assert_eq!(get_raw(addr, "/static/", &[]).await.text(), "<h1>home</h1>");
    assert_eq!(get_raw(addr, "/static", &[]).await.text(), "<h1>home</h1>");
    let readme = get_raw(addr, "/static/sub/readme.txt", &[]).await;
    assert_eq!(readme.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(get_raw(addr, "/static/sub/../style.css", &[]).await.status, 404);
    let bin = get_raw(addr, "/static/data.bin", &[]).await;
    assert_eq!(bin.header("content-type"), Some("application/octet-stream"));
    assert_eq!(bin.body, data());
    assert_eq!(get_raw(addr, "/static/missing.txt", &[]).await.status, 404);

    let head = send(addr, "HEAD", "/static/data.bin", &[], None).await;
    assert_eq!(head.header("content-length"), Some("1000"));
    assert!(head.body.is_empty());
    // What is not under the prefix is the app's.
    assert_eq!(get_raw(addr, "/hello", &[]).await.text(), "routes still answer");
    assert_eq!(get_raw(addr, "/staticx", &[]).await.status, 404);
    assert_eq!(
        send(addr, "POST", "/static/style.css", &[], None).await.status,
        404
    );
}

#[tokio::test]
async fn a_current_copy_is_answered_304() {
    let tree = Tree::new();
    let addr = serve(&tree).await;
    let first = get_raw(addr, "/static/style.css", &[]).await;
    let etag = first.header("etag").unwrap().to_owned();
    let modified = first.header("last-modified").unwrap().to_owned();

    let weak_in_a_list = format!("\"other\", W/{etag}");
    for headers in [
        [("If-None-Match", etag.as_str())],
        [("If-None-Match", weak_in_a_list.as_str())],
        [("If-None-Match", "*")],
        [("If-Modified-Since", modified.as_str())],
    ] {
        let reply = get_raw(addr, "/static/style.css", &headers).await;
        assert_eq!(reply.status, 304, "{headers:?}");
        assert!(reply.body.is_empty());
        assert_eq!(reply.header("etag"), Some(etag.as_str()));
    }
    // An old copy, or a date before the change: the file again.
    let stale = get_raw(addr, "/static/style.css", &[("If-None-Match", "\"old\"")]).await;
    assert_eq!(stale.status, 200);
    let early = "Mon, 01 Jan 1990 00:00:00 GMT";
    let stale = get_raw(addr, "/static/style.css", &[("If-Modified-Since", early)]).await;
    assert_eq!(stale.status, 200);
    // If-None-Match decides alone when both are sent.
    let both = [
        ("If-None-Match", "\"old\""),
        ("If-Modified-Since", modified.as_str()),
    ];
    assert_eq!(get_raw(addr, "/static/style.css", &both).await.status, 200);
}

#[tokio::test]
async fn ranges_are_answered_206_and_416() {
    let tree = Tree::new();
    let addr = serve(&tree).await;
    for path in ["/static/data.bin", "/report"] {
        let part = get_raw(addr, path, &[("Range", "bytes=10-19")]).await;
        assert_eq!(part.status, 206, "{path}");
        assert_eq!(part.header("content-range"), Some("bytes 10-19/1000"));
        assert_eq!(part.header("content-length"), Some("10"));
        assert_eq!(part.body, &data()[10..20]);

        let tail = get_raw(addr, path, &[("Range", "bytes=-5")]).await;
        assert_eq!(tail.header("content-range"), Some("bytes 995-999/1000"));
        assert_eq!(tail.body, &data()[995..]);

        let open = get_raw(addr, path, &[("Range", "bytes=990-")]).await;
        assert_eq!(open.body, &data()[990..]);

        let outside = get_raw(addr, path, &[("Range", "bytes=1000-")]).await;
        assert_eq!(outside.status, 416);
        assert_eq!(outside.header("content-range"), Some("bytes */1000"));

        let several = get_raw(addr, path, &[("Range", "bytes=0-1,5-6")]).await;
        assert_eq!(several.status, 200);
        assert_eq!(several.body, data());
    }
    let whole = get_raw(addr, "/static/data.bin", &[]).await;
    let etag = whole.header("etag").unwrap().to_owned();
    let fresh = [("Range", "bytes=0-3"), ("If-Range", etag.as_str())];
    assert_eq!(get_raw(addr, "/static/data.bin", &fresh).await.status, 206);
    let stale = [("Range", "bytes=0-3"), ("If-Range", "\"old\"")];
    let reply = get_raw(addr, "/static/data.bin", &stale).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, data());
}

#[tokio::test]
async fn every_traversal_attempt_is_refused() {
    let tree = Tree::new();
    let addr = serve(&tree).await;
    let attempts = [
        "/static/../secret.txt",
        "/static/sub/../../secret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/%2E%2E/secret.txt",
        "/static/.%2e/secret.txt",
        "/static/%2e%2e%2fsecret.txt",
        "/static/sub%2f..%2f..%2fsecret.txt",
        "/static/..%5csecret.txt",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/%2Fetc/passwd",
        "/static/escape",
        "/static/up/secret.txt",
        "/static/c:/windows/win.ini",
        "/static/secret.txt%00.css",
    ];
    for path in attempts {
        let reply = get_raw(addr, path, &[]).await;
        assert_eq!(reply.status, 404, "{path}");
        assert!(!reply.text().contains("TOP SECRET"), "{path}");
    }
    // A symlink that stays inside the root is followed, and so is one that leads back into it.
    #[cfg(unix)]
    assert_eq!(get_raw(addr, "/static/up/root/style.css", &[]).await.status, 200);
    #[cfg(unix)]
    assert_eq!(
        get_raw(addr, "/static/inner.css", &[]).await.text(),
        "body { color: red }"
    );
    assert!(Path::new(&tree.base.join("secret.txt")).exists());
}
