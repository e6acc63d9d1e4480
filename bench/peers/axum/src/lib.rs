//! The axum 0.8 peer's routes and layers, shared by its two binaries: `peer-axum` (the routes,
//! with the tower layers `LAYERS` names) and `peer-axum-otel` (the same, traced with
//! `axum-tracing-opentelemetry`, issue 45's cost row).
//!
//! Rules: typed `Path`/`Query`/`Json` extractors; a rejected integer path parameter becomes the
//! framework's 422 body through a custom rejection (`Result<Path<_>, PathRejection>` mapped once).
//! With `LAYERS=cors,compression` the router gets tower-http's CORS (any origin, the scenarios'
//! methods) and compression layers, configured as the ferrapi-cors-gzip peer's. With
//! `LAYERS=trace,request-id` it does what the service does as the README starts it: an id per
//! request (`X-Request-Id` kept when sent, else a new UUID, returned in the response), and one
//! `INFO` line per answered request with its method, path, status, latency and id, formatted by
//! tracing-subscriber and written to stdout by tracing-appender's writer thread.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Query};
use axum::http::header::CONTENT_TYPE;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use bytes::Bytes;
use peer_common::*;
use serde::Deserialize;

/// The custom rejection: a path integer that does not parse, as the framework's 422.
struct IntParsing(&'static str, String);

impl IntoResponse for IntParsing {
    fn into_response(self) -> Response {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            [(CONTENT_TYPE, "application/json")],
            int_parsing_422(self.0, &self.1),
        )
            .into_response()
    }
}

async fn root() -> Json<Message> {
    Json(Message {
        message: "Hello World",
    })
}

async fn read_item(id: Result<Path<i64>, PathRejection>, uri: Uri) -> Result<Json<ItemId>, IntParsing> {
    match id {
        Ok(Path(id)) => Ok(Json(ItemId { id })),
        Err(_) => Err(IntParsing(
            "id",
            uri.path().rsplit('/').next().unwrap_or_default().to_owned(),
        )),
    }
}

#[derive(Deserialize)]
struct UserItemQuery {
    q: Option<String>,
    short: Option<String>,
}

async fn read_user_item(
    Path((user_id, item_id)): Path<(String, String)>,
    Query(query): Query<UserItemQuery>,
) -> Response {
    let Ok(owner_id) = user_id.parse::<i64>() else {
        return IntParsing("user_id", user_id).into_response();
    };
    let short = query.short.as_deref().and_then(parse_bool).unwrap_or(false);
    Json(UserItem {
        item_id: &item_id,
        owner_id,
        q: query.q.as_deref().filter(|q| !q.is_empty()),
        description: (!short).then_some(LONG_DESCRIPTION),
    })
    .into_response()
}

#[derive(Deserialize)]
struct PersonQuery {
    #[serde(default)]
    skip: i64,
    #[serde(default = "five")]
    limit: i64,
}

fn five() -> i64 {
    5
}

async fn read_persons(Query(query): Query<PersonQuery>) -> Json<Vec<Person>> {
    Json(persons(query.skip, query.limit))
}

async fn create_item(Json(item): Json<Item>) -> Json<ItemWithTax> {
    Json(ItemWithTax::from(item))
}

/// `mib` MiB of zeros, streamed in 64 KiB chunks (chunked), as ferrapi-bare's `/stream/{mib}`.
async fn stream_mib(Path(mib): Path<u32>) -> Response {
    let chunk = Bytes::from_static(&STREAM_CHUNK);
    let chunks = (0..stream_chunks(mib)).map(move |_| Ok::<_, std::convert::Infallible>(chunk.clone()));
    axum::body::Body::from_stream(futures_util::stream::iter(chunks)).into_response()
}

/// The scenarios' routes, with the framework's 404 body for the rest.
pub fn router() -> Router {
    let openapi = Bytes::from(openapi_bytes());
    Router::new()
        .route("/", get(root))
        .route("/item/{id}", get(read_item))
        .route("/user/{user_id}/item/{item_id}", get(read_user_item))
        .route("/person", get(read_persons))
        .route("/item", post(create_item))
        .route("/stream/{mib}", get(stream_mib))
        .route(
            "/openapi.json",
            get(move || {
                let openapi = openapi.clone();
                async move { ([(CONTENT_TYPE, "application/json")], openapi) }
            }),
        )
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                [(CONTENT_TYPE, "application/json")],
                "{\"detail\":\"Not Found\"}",
            )
        })
}

/// The access lines' subscriber: `INFO`, formatted lines to stdout through a writer thread.
pub fn init_log() -> tracing_appender::non_blocking::WorkerGuard {
    let (writer, guard) = tracing_appender::non_blocking(std::io::stdout());
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_max_level(tracing::Level::INFO)
        .with_ansi(false)
        .init();
    guard
}

/// `app` with the tower layers `layers` names (comma-separated: cors, compression, trace,
/// request-id), outermost last.
pub fn with_layers(app: Router, layers: &str) -> std::io::Result<Router> {
    let mut app = app;
    for layer in layers.split(',').map(str::trim).filter(|l| !l.is_empty()) {
        app = match layer {
            "cors" => app.layer(
                tower_http::cors::CorsLayer::new()
                    .allow_origin(tower_http::cors::Any)
                    .allow_methods([axum::http::Method::GET, axum::http::Method::POST]),
            ),
            "compression" => app.layer(tower_http::compression::CompressionLayer::new()),
            "trace" => app.layer(
                tower_http::trace::TraceLayer::new_for_http()
                    .make_span_with(|request: &axum::http::Request<axum::body::Body>| {
                        let id = request
                            .headers()
                            .get("x-request-id")
                            .and_then(|v| v.to_str().ok());
                        tracing::info_span!(
                            "request",
                            method = %request.method(),
                            uri = %request.uri(),
                            request_id = id.unwrap_or_default(),
                        )
                    })
                    .on_request(())
                    .on_response(tower_http::trace::DefaultOnResponse::new().level(tracing::Level::INFO)),
            ),
            "request-id" => app
                .layer(tower_http::request_id::PropagateRequestIdLayer::x_request_id())
                .layer(tower_http::request_id::SetRequestIdLayer::x_request_id(
                    tower_http::request_id::MakeRequestUuid,
                )),
            other => return Err(std::io::Error::other(format!("unknown layer {other}"))),
        };
    }
    Ok(app)
}

/// Serve `app` on 127.0.0.1 at the peer's port: over TLS by axum-server when `TLS_CERT` and
/// `TLS_KEY` name a pair, else plain.
pub async fn serve(app: Router) -> std::io::Result<()> {
    if let Some(tls) = peer_common::tls::server_config_from_env(&[b"h2", b"http/1.1"]) {
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port()));
        let tls = axum_server::tls_rustls::RustlsConfig::from_config(tls);
        return axum_server::bind_rustls(addr, tls)
            .serve(app.into_make_service())
            .await;
    }
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port())).await?;
    axum::serve(listener, app).await
}
