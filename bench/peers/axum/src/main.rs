//! axum 0.8: the scenarios with serde extractors (usage: `peer-axum PORT OPENAPI_FILE`); over TLS
//! by axum-server when `TLS_CERT` and `TLS_KEY` name a pair (issue 46's cost table); the tower
//! layers `LAYERS` names (see the library).

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let layers = std::env::var("LAYERS").unwrap_or_default();
    // Kept until the server stops: it flushes the access lines' writer.
    let _log = layers.contains("trace").then(peer_axum::init_log);
    let app = peer_axum::with_layers(peer_axum::router(), &layers)?;
    peer_axum::serve(app).await
}
