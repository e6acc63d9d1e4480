//! The routes of `tests/fastapi/reference_app.py` for request inputs beyond path, query and JSON
//! (issue 13): header and cookie parameters, form bodies and security schemes, written as in the
//! reference app, so the answers can
//! be compared with FastAPI's recorded ones (tests/fastapi/observed.json).

use ferrapi::arg::{PartDoc, UploadDoc};
use ferrapi::files::{Multipart, MultipartError};
use ferrapi::prelude::*;
use ferrapi::security::{
    ApiKeyCookie, ApiKeyHeader, ApiKeyQuery, HttpBasic, HttpBearer, OAuth2PasswordBearer,
};
use serde::Serialize;

/// Reads `User-Agent`.
#[get("/hdr/agent")]
pub async fn hdr_agent(user_agent: Header<String>) -> Json<Value> {
    Json(json!({ "user_agent": *user_agent }))
}

/// Typed, optional, defaulted and constrained headers.
#[get("/hdr/typed")]
pub async fn hdr_typed(
    x_count: Header<i64>,
    x_ratio: Header<Option<f64>>,
    #[default(5)]
    #[ge(0)]
    #[le(10)]
    x_limit: Header<i64>,
    #[default("anon".to_owned())]
    #[min_length(2)]
    x_name: Header<String>,
    #[default(false)] x_flag: Header<bool>,
) -> Json<Value> {
    Json(json!({
        "x_count": x_count.0, "x_ratio": x_ratio.0, "x_limit": x_limit.0, "x_name": x_name.0,
        "x_flag": x_flag.0,
    }))
}

/// Repeated headers.
#[get("/hdr/list")]
pub async fn hdr_list(x_tag: Header<Vec<String>>, x_num: Header<Vec<i64>>) -> Json<Value> {
    Json(json!({ "x_tag": x_tag.0, "x_num": x_num.0 }))
}

param_name!(
    /// FastAPI's `Header(alias="X-Request_ID")`.
    pub RequestId = "X-Request_ID"
);

/// A header of an exact name.
#[get("/hdr/exact")]
pub async fn hdr_exact(request_id: Header<String, RequestId>) -> Json<Value> {
    Json(json!({ "request_id": request_id.0 }))
}

/// Cookies.
#[get("/ck")]
pub async fn ck(
    session: Cookie<String>,
    n: Cookie<Option<i64>>,
    #[default("light".to_owned())]
    #[max_length(5)]
    theme: Cookie<String>,
) -> Json<Value> {
    Json(json!({ "session": session.0, "n": n.0, "theme": theme.0 }))
}

/// Errors of every source, declared out of FastAPI's order.
#[get("/inputs-order")]
pub async fn inputs_order(c: Cookie<i64>, x_h: Header<i64>, q: i64) -> Json<Value> {
    Json(json!({ "c": c.0, "x_h": x_h.0, "q": q }))
}

/// A login form.
#[derive(Model, Serialize)]
pub struct Login {
    /// Who.
    pub username: String,
    /// At least three characters.
    #[min_length(3)]
    pub password: String,
    /// Stay logged in.
    #[default(false)]
    pub remember: bool,
    /// Optional.
    pub age: Option<i64>,
}

/// A form body.
#[post("/form", status = 200)]
pub async fn form(data: Form<Login>) -> Json<Login> {
    Json(data.into_inner())
}

/// An HTTP bearer token.
#[get("/sec/bearer")]
pub async fn sec_bearer(creds: HttpBearer) -> Json<Value> {
    Json(json!({ "scheme": creds.scheme, "token": creds.credentials }))
}

/// HTTP basic credentials.
#[get("/sec/basic")]
pub async fn sec_basic(creds: HttpBasic) -> Json<Value> {
    Json(json!({ "username": creds.username, "password": creds.password }))
}

param_name!(
    /// The API key header.
    pub KeyHeader = "X-API-Key"
);
param_name!(
    /// The API key query parameter.
    pub KeyQuery = "api_key"
);
param_name!(
    /// The API key cookie.
    pub KeyCookie = "session_key"
);
ferrapi::security::token_url!(
    /// Where the OAuth2 password flow gets its token.
    pub TokenEndpoint = "token"
);

/// An API key in a header.
#[get("/sec/key-header")]
pub async fn sec_key_header(key: ApiKeyHeader<KeyHeader>) -> Json<Value> {
    Json(json!({ "key": key.key() }))
}

/// An API key in the query.
#[get("/sec/key-query")]
pub async fn sec_key_query(key: ApiKeyQuery<KeyQuery>) -> Json<Value> {
    Json(json!({ "key": key.key() }))
}

/// An API key in a cookie.
#[get("/sec/key-cookie")]
pub async fn sec_key_cookie(key: ApiKeyCookie<KeyCookie>) -> Json<Value> {
    Json(json!({ "key": key.key() }))
}

/// An OAuth2 bearer token.
#[get("/sec/oauth2")]
pub async fn sec_oauth2(token: OAuth2PasswordBearer<TokenEndpoint>) -> Json<Value> {
    Json(json!({ "token": token.token() }))
}

/// The parts of `/upload`, for the document.
pub struct UploadForm;

impl UploadDoc for UploadForm {
    const NAME: &'static str = "UploadForm";
    const PARTS: &'static [PartDoc] = &[
        PartDoc::file("file"),
        PartDoc::text("note").optional(),
        PartDoc::files("extra"),
    ];
}

/// An upload: each part's name, file name, content type and size (files are streamed into a
/// file in directory `dir`, or counted when it is not given); text parts are echoed.
#[post("/upload", status = 200)]
pub async fn upload(
    mut form: Multipart<UploadForm>,
    dir: Option<String>,
) -> Result<Json<Value>, MultipartError> {
    let mut parts = Vec::new();
    while let Some(mut part) = form.next_part().await? {
        let name = part.name().unwrap_or("").to_owned();
        let file_name = part.file_name().map(str::to_owned);
        let content_type = part.content_type().map(str::to_owned);
        let entry = match (&file_name, &dir) {
            (Some(_), Some(dir)) => {
                let path = std::path::Path::new(&dir).join(format!("part-{}", parts.len()));
                let size = part.save_to(&path).await?;
                json!({ "name": name, "file_name": file_name, "content_type": content_type, "size": size, "saved": path })
            }
            (Some(_), None) => {
                while part.chunk().await?.is_some() {}
                json!({ "name": name, "file_name": file_name, "content_type": content_type, "size": part.size() })
            }
            (None, _) => json!({ "name": name, "text": part.text().await? }),
        };
        parts.push(entry);
    }
    Ok(Json(json!({ "parts": parts })))
}

/// The first file of an upload, sent back byte for byte.
#[post("/upload/echo", status = 200)]
pub async fn upload_echo(mut form: Multipart) -> Result<Response, MultipartError> {
    while let Some(mut part) = form.next_part().await? {
        if part.file_name().is_some() {
            let bytes = part.bytes().await?;
            return Ok(Response::new(bytes.into()));
        }
    }
    Ok(Response::new(ferrapi::Body::empty()))
}

/// The app of these routes.
pub fn app() -> App {
    App::new()
        .title("inputs")
        .version("1.0.0")
        .routes(ferrapi::routes![
            hdr_agent,
            hdr_typed,
            hdr_list,
            hdr_exact,
            ck,
            inputs_order,
            form,
            sec_bearer,
            sec_basic,
            sec_key_header,
            sec_key_query,
            sec_key_cookie,
            sec_oauth2,
            upload,
            upload_echo,
        ])
}
