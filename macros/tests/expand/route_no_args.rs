// No arguments, and a body without `.await`: the handler answers at once (`complete_now`).

/// Liveness probe.
#[get("/health")]
async fn health() -> &'static str {
    "ok"
}
