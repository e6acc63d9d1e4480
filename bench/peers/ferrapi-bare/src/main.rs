//! ferrapi-bare: the scenarios' routes written with ferrapi's macros exactly as the service's group
//! A declares them, dispatched by `ferrapi::Service`, but served by the same plain
//! `hyper::server::conn::http1` loop as hyper-raw (usage: `peer-ferrapi-bare PORT OPENAPI_FILE`).
//!
//! Rules: this peer separates the framework's dispatch cost (routing, extraction, validation,
//! response building) from the cost of `ferrapi::Server`'s connection set-up (HTTP/1+2 detection,
//! header-read timer, concurrency limit, graceful-shutdown watcher); the service minus this
//! peer is the server's share, this peer minus hyper-raw the dispatch's share.
//!
//! With `SERVER=ferrapi` the same app is served by `ferrapi::Server` instead, with the layers
//! `LAYERS` names (comma-separated: `noop` — tower's `Identity`, the price of having a layer
//! stack at all —, `cors`, `compression`: tower-http's, configured as the axum peer's), so the
//! layers' cost is measured on the same routes, beside axum with the same layers.

use bytes::Bytes;
use ferrapi::http::header::{HeaderValue, CONTENT_TYPE};
use ferrapi::prelude::*;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use serde::Serialize;
use tokio::net::TcpListener;

/// An item, the body of `POST /item`.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Item {
    /// The item's name.
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// The price.
    pub price: f64,
    /// An optional tax.
    pub tax: Option<f64>,
}

/// A greeting.
#[derive(Model, Serialize)]
pub struct Message {
    /// The greeting.
    pub message: String,
}

/// An item id.
#[derive(Model, Serialize)]
pub struct ItemId {
    /// The id.
    pub id: i64,
}

/// One item of a user.
#[derive(Model, Serialize)]
pub struct UserItem {
    /// The item id.
    pub item_id: String,
    /// The user id.
    pub owner_id: i64,
    /// The query, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// The long description unless `short`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A person.
#[derive(Model, Serialize)]
pub struct Person {
    /// The name.
    pub name: String,
}

/// The item with its price with tax.
#[derive(Model, Serialize)]
pub struct ItemWithTax {
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Price.
    pub price: f64,
    /// Tax.
    pub tax: Option<f64>,
    /// Price plus tax.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_with_tax: Option<f64>,
}

/// The captured OpenAPI document of the service.
pub struct OpenApi(Bytes);

/// Greets.
#[get("/")]
pub async fn root() -> Json<Message> {
    Json(Message {
        message: "Hello World".to_owned(),
    })
}

/// An item by integer id.
#[get("/item/{id}")]
pub async fn read_item(id: i64) -> Json<ItemId> {
    Json(ItemId { id })
}

/// One item of a user.
#[get("/user/{user_id}/item/{item_id}")]
pub async fn read_user_item(
    user_id: i64,
    item_id: String,
    q: Option<String>,
    #[default(false)] short: bool,
) -> Json<UserItem> {
    Json(UserItem {
        item_id,
        owner_id: user_id,
        q: q.filter(|q| !q.is_empty()),
        description: (!short).then(|| peer_common::LONG_DESCRIPTION.to_owned()),
    })
}

/// A page of persons.
#[get("/person")]
pub async fn read_persons(
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(5)]
    #[ge(0)]
    limit: i64,
) -> Json<Vec<Person>> {
    Json(
        peer_common::persons(skip, limit)
            .into_iter()
            .map(|p| Person {
                name: p.name.to_owned(),
            })
            .collect(),
    )
}

/// The submitted item, with `price_with_tax` when a tax is given.
#[post("/item")]
pub async fn create_item(item: Item) -> Json<ItemWithTax> {
    Json(ItemWithTax {
        price_with_tax: item.tax.map(|tax| item.price + tax),
        name: item.name,
        description: item.description,
        price: item.price,
        tax: item.tax,
    })
}

/// `mib` MiB of zeros, streamed in 64 KiB chunks (chunked: no length given), for the streaming
/// scenario (`bench/streaming.py`).
#[get("/stream/{mib}")]
pub async fn stream_mib(mib: u32) -> ferrapi::streaming::StreamingResponse {
    let chunk = Bytes::from_static(&peer_common::STREAM_CHUNK);
    let chunks =
        (0..peer_common::stream_chunks(mib)).map(move |_| Ok::<_, std::convert::Infallible>(chunk.clone()));
    ferrapi::streaming::StreamingResponse::new(futures_util::stream::iter(chunks))
}

/// The service's OpenAPI document, as captured (served by a route: this app's own is off).
#[get("/openapi.json")]
pub async fn openapi(doc: State<OpenApi>) -> Response {
    let OpenApi(bytes) = &*doc;
    let mut response = Response::new(ferrapi::Body::from(bytes.clone()));
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let app = App::new()
        .openapi_url(None)
        .docs_url(None)
        .redoc_url(None)
        .state(OpenApi(Bytes::from(peer_common::openapi_bytes())))
        .routes(ferrapi::routes![
            root,
            read_item,
            read_user_item,
            read_persons,
            create_item,
            openapi,
            stream_mib
        ]);
    if std::env::var("SERVER").as_deref() == Ok("ferrapi") {
        return serve_with_layers(app).await;
    }
    let service = app.build().map_err(|err| std::io::Error::other(err.to_string()))?;
    let listener = TcpListener::bind(("127.0.0.1", peer_common::port())).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The app served by `ferrapi::Server`, with the layers `LAYERS` names.
async fn serve_with_layers(mut app: App) -> std::io::Result<()> {
    let layers = std::env::var("LAYERS").unwrap_or_default();
    for layer in layers.split(',').map(str::trim).filter(|l| !l.is_empty()) {
        app = match layer {
            "noop" => app.layer(tower::layer::util::Identity::new()),
            "cors" => app.layer(cors()),
            "compression" => app.layer(tower_http::compression::CompressionLayer::new()),
            other => return Err(std::io::Error::other(format!("unknown layer {other}"))),
        };
    }
    let server = app
        .bind(("127.0.0.1", peer_common::port()))
        .await
        .map_err(|err| std::io::Error::other(err.to_string()))?;
    server.run().await;
    Ok(())
}

/// Any origin, the scenarios' methods: the axum peer's CORS layer.
fn cors() -> tower_http::cors::CorsLayer {
    tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([hyper::Method::GET, hyper::Method::POST])
}
