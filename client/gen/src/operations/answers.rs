//! An operation's answers: one per documented status, what each carries, and the answers its
//! preconditions add.
//!
//! Rules enforced here: an answer's content is the first of JSON (problem details too),
//! Server-Sent Events, JSON lines, text, bytes; an answer without content is nothing (`204`,
//! `205`, `304`, 1xx), a byte stream (other 2xx–3xx) or an error body (4xx, 5xx); an operation
//! taking `If-Match` has a `412` answer and a read taking `If-None-Match` a `304`, documented or
//! not; answers are in status order (exact codes, ranges, `default`).

use crate::document::model::{MediaType, Response as Answer};
use crate::document::schema::Schema;
use crate::document::{child, text, Document, GenError};
use crate::names::{status_variant, Namer};
use crate::types::{Schemas, Ty};

use super::{Found, Param, Payload, Response};

/// The answers of the operation `found`, whose parameters are `params`.
pub(super) fn responses(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    found: &Found<'_>,
    context: &str,
    params: &[Param],
) -> Result<Vec<Response>, GenError> {
    let mut responses = Vec::new();
    let responses_pointer = child(&found.pointer, "responses");
    for (status, response) in &found.operation.responses {
        let response_pointer = child(&responses_pointer, status);
        let Some(variant) = status_variant(status) else {
            return Err(GenError::at(
                &response_pointer,
                format!("`{status}` is not a status"),
            ));
        };
        let (response, response_pointer) = document.resolve(response, &response_pointer)?;
        let context = format!("{context}_{variant}");
        let payload = payload(schemas, status, &response, &response_pointer, &context)?;
        responses.push(Response {
            status: status.clone(),
            variant,
            doc: text(response.description.as_ref()),
            payload,
            synthetic: false,
            headers: response.headers.clone(),
        });
    }
    let takes = |name: &str| params.iter().any(|p| p.name.eq_ignore_ascii_case(name));
    let has = |responses: &[Response], status: &str| responses.iter().any(|r| r.status == status);
    if takes("If-Match") && !has(&responses, "412") {
        responses.push(synthetic("412", "PreconditionFailed", Payload::HttpError));
    }
    let read = matches!(found.method.as_str(), "GET" | "HEAD");
    if takes("If-None-Match") && read && !has(&responses, "304") {
        responses.push(synthetic("304", "NotModified", Payload::Unit));
    }
    responses.sort_by_key(|r| status_order(&r.status));
    let mut variants = Namer::with(&["Unexpected"]);
    for response in &mut responses {
        response.variant = variants.claim(&response.variant);
    }
    Ok(responses)
}

fn synthetic(status: &str, variant: &str, payload: Payload) -> Response {
    Response {
        status: status.to_owned(),
        variant: variant.to_owned(),
        doc: None,
        payload,
        synthetic: true,
        headers: Vec::new(),
    }
}

/// Exact codes first, in order; then ranges; then `default`.
fn status_order(status: &str) -> (u8, String) {
    match status {
        "default" => (2, String::new()),
        exact if exact.bytes().all(|b| b.is_ascii_digit()) => (0, exact.to_owned()),
        range => (1, range.to_owned()),
    }
}

/// What an answer's media type is read as, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Media {
    Json,
    OtherJson,
    EventStream,
    JsonLines,
    Text,
    Bytes,
}

fn media(media: &str) -> Media {
    let media = media.to_ascii_lowercase();
    if media == "application/json" {
        Media::Json
    } else if media.ends_with("+json") {
        Media::OtherJson
    } else if media == "text/event-stream" {
        Media::EventStream
    } else if matches!(
        media.as_str(),
        "application/jsonl" | "application/x-ndjson" | "application/json-seq"
    ) {
        Media::JsonLines
    } else if media.starts_with("text/") {
        Media::Text
    } else {
        Media::Bytes
    }
}

/// What the answer `response` (of `status`, at `pointer`) carries.
fn payload(
    schemas: &mut Schemas<'_>,
    status: &str,
    response: &Answer,
    pointer: &str,
    context: &str,
) -> Result<Payload, GenError> {
    let content = response.content.as_ref().filter(|content| !content.is_empty());
    let Some((name, object)) = content.and_then(|content| content.iter().min_by_key(|(name, _)| media(name)))
    else {
        return Ok(match status.as_bytes().first() {
            _ if matches!(status, "204" | "205" | "304") => Payload::Unit,
            Some(b'1') => Payload::Unit,
            Some(b'2' | b'3') => Payload::Bytes,
            _ => Payload::HttpError,
        });
    };
    let pointer = child(&child(pointer, "content"), name);
    Ok(match media(name) {
        Media::Json | Media::OtherJson => match &object.schema {
            Some(schema) => Payload::Json(schemas.ty(schema, &child(&pointer, "schema"), context)?),
            None if name.ends_with("problem+json") => Payload::Problem,
            None => Payload::Json(Ty::Value),
        },
        Media::EventStream => events(schemas, object, &pointer, context)?,
        Media::JsonLines => match &object.item_schema {
            Some(schema) => Payload::Lines(schemas.ty(
                schema,
                &child(&pointer, object.item_key),
                &format!("{context}_item"),
            )?),
            None => Payload::Lines(Ty::Value),
        },
        Media::Text => Payload::Text,
        Media::Bytes => Payload::Bytes,
    })
}

/// Server-Sent Events: typed when their `data` is JSON (`contentMediaType: application/json`),
/// of its `contentSchema`.
fn events(
    schemas: &mut Schemas<'_>,
    object: &MediaType,
    pointer: &str,
    context: &str,
) -> Result<Payload, GenError> {
    let data = object
        .item_schema
        .as_ref()
        .and_then(Schema::object)
        .and_then(|item| item.property("data"))
        .and_then(Schema::object)
        .filter(|data| data.content_media_type.as_deref() == Some("application/json"));
    let Some(data) = data else {
        return Ok(Payload::Events(None));
    };
    let schema = data.content_schema.clone().unwrap_or(Schema::Bool(true));
    let pointer = child(
        &child(&child(&child(pointer, object.item_key), "properties"), "data"),
        "contentSchema",
    );
    Ok(Payload::Events(Some(schemas.ty(
        &schema,
        &pointer,
        &format!("{context}_event"),
    )?)))
}
