//! The TLS listener as other tools see it (issue 46, item 5): curl over HTTP/2 and HTTP/1.1, and
//! `openssl s_client` negotiating `h2` by ALPN, trusting the test's own certificate. Both tools
//! must be installed (`scripts/test.sh` installs them when missing): a missing one fails the
//! test, it is never skipped.

use std::net::SocketAddr;
use std::process::{Command, Output, Stdio};

use ferrapi_tests::app::app;

use crate::support::tls::{pair, settings, Pair};

/// Serve the test app over TLS with `pair`: its address.
async fn serve(pair: &Pair) -> SocketAddr {
    let server = app()
        .tls(settings(pair))
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = server.local_addr();
    tokio::spawn(server.run_until(std::future::pending()));
    addr
}

/// Run `program` with `args` off the runtime's threads (the server runs on them), stdin empty.
async fn run(program: &'static str, args: Vec<String>) -> Output {
    let ran =
        tokio::task::spawn_blocking(move || Command::new(program).args(&args).stdin(Stdio::null()).output())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    match ran {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "`{program}` is not installed: this test needs it (scripts/test.sh installs it: \
             apt-get install -y {program})"
        ),
        Err(e) => panic!("{program}: {e}"),
    }
}

/// `curl` `GET /` at `addr` as `localhost`, with `version_flag`: the body and the HTTP version
/// curl reports.
async fn curl(pair: &Pair, addr: SocketAddr, version_flag: &str) -> (String, String) {
    let port = addr.port();
    let args = vec![
        version_flag.to_owned(),
        "--silent".to_owned(),
        "--show-error".to_owned(),
        "--max-time".to_owned(),
        "20".to_owned(),
        "--cacert".to_owned(),
        pair.cert_path.to_string_lossy().into_owned(),
        "--resolve".to_owned(),
        format!("localhost:{port}:127.0.0.1"),
        "--write-out".to_owned(),
        "\n%{http_version}".to_owned(),
        format!("https://localhost:{port}/"),
    ];
    let output = run("curl", args).await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "curl {version_flag}: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (body, version) = stdout.rsplit_once('\n').unwrap_or((&stdout, ""));
    (body.to_owned(), version.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn curl_speaks_http2_and_http1_over_tls() {
    let pair = pair();
    let addr = serve(&pair).await;
    let (body, version) = curl(&pair, addr, "--http2").await;
    assert_eq!(version, "2", "curl --http2 did not get HTTP/2 by ALPN");
    assert_eq!(body, r#"{"message":"Hello World"}"#);
    let (body, version) = curl(&pair, addr, "--http1.1").await;
    assert_eq!(version, "1.1");
    assert_eq!(body, r#"{"message":"Hello World"}"#);
}

/// `openssl s_client` offering `alpn` to `addr`: what it printed.
async fn s_client(pair: &Pair, addr: SocketAddr, alpn: &str) -> String {
    let args = vec![
        "s_client".to_owned(),
        "-connect".to_owned(),
        addr.to_string(),
        "-servername".to_owned(),
        "localhost".to_owned(),
        "-alpn".to_owned(),
        alpn.to_owned(),
        "-CAfile".to_owned(),
        pair.cert_path.to_string_lossy().into_owned(),
        "-verify_return_error".to_owned(),
    ];
    let output = run("openssl", args).await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "openssl s_client -alpn {alpn}: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openssl_s_client_negotiates_h2_by_alpn() {
    let pair = pair();
    let addr = serve(&pair).await;
    let printed = s_client(&pair, addr, "h2").await;
    assert!(printed.contains("ALPN protocol: h2"), "{printed}");
    assert!(printed.contains("Verify return code: 0 (ok)"), "{printed}");
    let printed = s_client(&pair, addr, "http/1.1").await;
    assert!(printed.contains("ALPN protocol: http/1.1"), "{printed}");
}
