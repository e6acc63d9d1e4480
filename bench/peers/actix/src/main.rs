//! actix-web 4: the scenarios with serde extractors (usage: `peer-actix PORT OPENAPI_FILE`).
//!
//! Rules: typed `web::Path`/`web::Query`/`web::Json`; a path integer that does not parse becomes
//! the framework's 422 body through `PathConfig::error_handler`. Workers: one per CPU the process
//! may run on (the harness pins it to one).

use actix_web::error::InternalError;
use actix_web::http::header::ContentType;
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use peer_common::*;
use serde::Deserialize;

fn json(body: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok().content_type(ContentType::json()).body(body)
}

async fn root() -> HttpResponse {
    json(to_json(&Message {
        message: "Hello World",
    }))
}

async fn read_item(id: web::Path<i64>) -> HttpResponse {
    json(to_json(&ItemId { id: id.into_inner() }))
}

#[derive(Deserialize)]
struct UserItemQuery {
    q: Option<String>,
    short: Option<String>,
}

async fn read_user_item(path: web::Path<(i64, String)>, query: web::Query<UserItemQuery>) -> HttpResponse {
    let (owner_id, item_id) = path.into_inner();
    let short = query.short.as_deref().and_then(parse_bool).unwrap_or(false);
    json(to_json(&UserItem {
        item_id: &item_id,
        owner_id,
        q: query.q.as_deref().filter(|q| !q.is_empty()),
        description: (!short).then_some(LONG_DESCRIPTION),
    }))
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

async fn read_persons(query: web::Query<PersonQuery>) -> HttpResponse {
    json(to_json(&persons(query.skip, query.limit)))
}

async fn create_item(item: web::Json<Item>) -> HttpResponse {
    json(to_json(&ItemWithTax::from(item.into_inner())))
}

/// The custom rejection: the first integer path segment that does not parse, as the 422 body.
fn path_error(err: actix_web::error::PathError, req: &HttpRequest) -> actix_web::Error {
    let info = req.match_info();
    let (name, input) = ["id", "user_id"]
        .iter()
        .find_map(|&name| {
            info.get(name)
                .filter(|v| v.parse::<i64>().is_err())
                .map(|v| (name, v))
        })
        .unwrap_or(("id", ""));
    let body = int_parsing_422(name, input);
    InternalError::from_response(
        err,
        HttpResponse::UnprocessableEntity()
            .content_type(ContentType::json())
            .body(body),
    )
    .into()
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let openapi = web::Bytes::from(openapi_bytes());
    HttpServer::new(move || {
        let openapi = openapi.clone();
        App::new()
            .app_data(web::PathConfig::default().error_handler(path_error))
            .route("/", web::get().to(root))
            .route("/item/{id}", web::get().to(read_item))
            .route("/user/{user_id}/item/{item_id}", web::get().to(read_user_item))
            .route("/person", web::get().to(read_persons))
            .route("/item", web::post().to(create_item))
            .route(
                "/openapi.json",
                web::get().to(move || {
                    let openapi = openapi.clone();
                    async move { HttpResponse::Ok().content_type(ContentType::json()).body(openapi) }
                }),
            )
            .default_service(web::to(|| async {
                HttpResponse::NotFound()
                    .content_type(ContentType::json())
                    .body("{\"detail\":\"Not Found\"}")
            }))
    })
    .bind(("127.0.0.1", port()))?
    .run()
    .await
}
