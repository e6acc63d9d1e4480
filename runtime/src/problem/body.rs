//! One answer as problem details: `{"detail": …}` → `{"type", "title", "status", "detail",
//! "instance"}`.
//!
//! Rules enforced here:
//! - `type` is `about:blank` (the status says it all), `title` the status's reason phrase,
//!   `status` the status, `instance` the request's path;
//! - a string detail is `detail`; a validation error's list of items (FastAPI's 422) becomes the
//!   `errors` extension, each item as FastAPI writes it, with `detail` saying the request was
//!   invalid; any other detail (an `HttpError` with a JSON value) is the `errors` extension too,
//!   as given;
//! - the answer keeps its status and headers (`Allow`, `WWW-Authenticate`), its content type
//!   becomes `application/problem+json`; a body that is not FastAPI's shape is returned unchanged.

use hyper::header::{HeaderValue, CONTENT_LENGTH, CONTENT_TYPE};
use serde_json::{Map, Value};

use crate::response::{Body, Response};

/// The media type of a problem.
pub(crate) const PROBLEM_JSON: &str = "application/problem+json";

/// `response` as problem details when it is an error in FastAPI's shape, else unchanged.
pub(crate) fn to_problem(response: Response, instance: &str) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes() == b"application/json");
    let detail = match response.body().whole() {
        Some(bytes) if is_json => match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(mut object)) if object.len() == 1 => object.remove("detail"),
            _ => None,
        },
        _ => None,
    };
    let Some(detail) = detail else {
        return response;
    };
    let mut problem = Map::new();
    problem.insert("type".into(), Value::from("about:blank"));
    problem.insert(
        "title".into(),
        Value::from(status.canonical_reason().unwrap_or("Error")),
    );
    problem.insert("status".into(), Value::from(status.as_u16()));
    match detail {
        Value::String(text) => {
            problem.insert("detail".into(), Value::String(text));
        }
        errors @ Value::Array(_) if status.as_u16() == 422 => {
            problem.insert("detail".into(), Value::from("The request is not valid"));
            problem.insert("errors".into(), errors);
        }
        other => {
            problem.insert("errors".into(), other);
        }
    }
    problem.insert("instance".into(), Value::from(instance));
    let Ok(bytes) = serde_json::to_vec(&Value::Object(problem)) else {
        return response;
    };
    let (mut parts, _) = response.into_parts();
    parts
        .headers
        .insert(CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
    parts.headers.remove(CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::{HttpError, IntoResponse};
    use hyper::StatusCode;

    fn body(response: &Response) -> Value {
        serde_json::from_slice(response.body().whole().map(|b| b.as_ref()).unwrap_or(b"null")).unwrap()
    }

    #[test]
    fn a_detail_becomes_a_problem() {
        let response = to_problem(HttpError::not_found("Item not found").into_response(), "/item/9");
        assert_eq!(response.status(), 404);
        assert_eq!(response.headers()[CONTENT_TYPE], PROBLEM_JSON);
        assert_eq!(
            body(&response),
            serde_json::json!({"type": "about:blank", "title": "Not Found", "status": 404,
                               "detail": "Item not found", "instance": "/item/9"})
        );
    }

    #[test]
    fn other_answers_are_left_alone() {
        let ok = to_problem(
            crate::Json(serde_json::json!({"detail": "x"})).into_response(),
            "/",
        );
        assert_eq!(
            ok.headers()[CONTENT_TYPE],
            "application/json",
            "a success is no problem"
        );
        let own = to_problem(
            (
                StatusCode::NOT_FOUND,
                crate::Json(serde_json::json!({"code": "nope"})),
            )
                .into_response(),
            "/",
        );
        assert_eq!(body(&own), serde_json::json!({"code": "nope"}));
    }
}
