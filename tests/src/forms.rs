//! The routes of `tests/fastapi/forms_app.py` (issue 24), written as in that FastAPI twin so the
//! answers can be compared with FastAPI's recorded ones (tests/fastapi/observed_forms.json):
//! form fields as arguments, the OAuth2 password form, errors with headers and malformed credentials.

use ferrapi::http::header::{HeaderName, HeaderValue, WWW_AUTHENTICATE};
use ferrapi::prelude::*;
use ferrapi::security::OAuth2PasswordRequestForm;
use ferrapi::validation::Validation;
use ferrapi::validation::{Failure, LocItem, ValidationErrors};

// The security routes are `inputs`' (issue 13's), replayed here with malformed credentials.
use crate::inputs::{sec_basic, sec_bearer, sec_key_header, sec_oauth2};

/// A login form read field by field.
#[post("/ff/login", status = 200)]
pub async fn ff_login(
    username: Form<String>,
    #[min_length(3)]
    #[max_length(8)]
    password: Form<String>,
    #[default(false)] remember: Form<bool>,
    age: Form<Option<i64>>,
) -> Json<Value> {
    Json(json!({ "username": username.0, "password": password.0, "remember": remember.0, "age": age.0 }))
}

/// Repeated fields: `tag` required, `n` with a default.
#[post("/ff/tags", status = 200)]
pub async fn ff_tags(tag: Form<Vec<String>>, #[default(Vec::new())] n: Form<Vec<i64>>) -> Json<Value> {
    Json(json!({ "tag": tag.0, "n": n.0 }))
}

/// The side of an order: a string enumeration.
#[derive(StrEnum, Debug, Clone, Copy)]
pub enum Side {
    /// Buying.
    #[value("buy")]
    Buy,
    /// Selling.
    #[value("sell")]
    Sell,
}

/// A required string enumeration as a form field.
#[post("/ff/side", status = 200)]
pub async fn ff_side(side: Form<Side>) -> Json<Value> {
    Json(json!({ "side": side.0 }))
}

/// A query parameter, a header and a form field: their errors in FastAPI's order.
#[post("/ff/mixed", status = 200)]
pub async fn ff_mixed(q: i64, x_h: Header<i64>, name: Form<String>) -> Json<Value> {
    Json(json!({ "q": q, "x_h": x_h.0, "name": name.0 }))
}

/// The token route of OAuth2's password flow: the form as read.
#[post("/token", status = 200)]
pub async fn token(form: OAuth2PasswordRequestForm) -> Json<Value> {
    Json(json!({
        "grant_type": form.grant_type, "username": form.username, "password": form.password,
        "scopes": form.scopes, "client_id": form.client_id, "client_secret": form.client_secret,
    }))
}

/// An HTTP error with headers (FastAPI's `HTTPException(headers=...)`).
#[get("/err/headers")]
pub async fn err_headers() -> Result<Json<Value>, HttpError> {
    Err(HttpError::new(401, "Nope")
        .with_header(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))
        .with_header(HeaderName::from_static("x-trace"), HeaderValue::from_static("t1")))
}

/// A rule the route checks itself: `low` must not exceed `high`; its error is answered as the
/// app answers validation errors.
#[get("/hand-made")]
pub async fn hand_made(low: i64, high: i64, validation: Validation) -> Result<Json<Value>, Response> {
    let mut errors = ValidationErrors::new();
    if low > high {
        let failure = Failure::new("range", "low must not exceed high");
        errors.push(failure.at(vec![LocItem::Static("query"), LocItem::Static("low")], json!(low)));
    }
    validation.finish(errors)?;
    Ok(Json(json!({ "low": low, "high": high })))
}

/// The app of these routes.
pub fn app() -> App {
    App::new().title("forms").version("1.0.0").routes(routes![
        ff_login,
        ff_tags,
        ff_side,
        ff_mixed,
        token,
        err_headers,
        sec_bearer,
        sec_basic,
        sec_key_header,
        sec_oauth2,
        hand_made,
    ])
}
