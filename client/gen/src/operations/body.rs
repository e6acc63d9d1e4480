//! An operation's request body: the media type sent, and its type.
//!
//! Rules enforced here: the first of JSON (`+json` too), a form, multipart, text, bytes that the
//! operation accepts; text is a string and bytes a file whatever their schema; a form or
//! multipart body must be an object (a struct: its fields are the form's).

use crate::document::model::RequestBody;
use crate::document::{child, text, Document, GenError};
use crate::types::{Kind, Schemas, Ty};

use super::{Body, BodyKind};

/// How a body of `media` type is sent.
fn kind_of(media: &str) -> BodyKind {
    let media = media.to_ascii_lowercase();
    if media == "application/json" || media.ends_with("+json") {
        BodyKind::Json
    } else if media == "application/x-www-form-urlencoded" {
        BodyKind::Form
    } else if media == "multipart/form-data" {
        BodyKind::Multipart
    } else if media.starts_with("text/") {
        BodyKind::Text
    } else {
        BodyKind::Bytes
    }
}

/// The request body `body` (at `pointer`), `None` without content.
pub(super) fn request_body(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    body: &RequestBody,
    pointer: &str,
    context: &str,
) -> Result<Option<Body>, GenError> {
    let (body, pointer) = document.resolve(body, pointer)?;
    let Some(content) = &body.content else {
        return Ok(None);
    };
    let preference = [
        BodyKind::Json,
        BodyKind::Form,
        BodyKind::Multipart,
        BodyKind::Text,
        BodyKind::Bytes,
    ];
    let Some((media, media_object)) = preference
        .iter()
        .find_map(|kind| content.iter().find(|(media, _)| kind_of(media) == *kind))
    else {
        return Ok(None);
    };
    let kind = kind_of(media);
    let schema_pointer = child(&child(&child(&pointer, "content"), media), "schema");
    let ty = match (kind, &media_object.schema) {
        (BodyKind::Text, _) => Ty::String,
        (BodyKind::Bytes, _) => Ty::File,
        (_, Some(schema)) => {
            schemas
                .ty(schema, &schema_pointer, &format!("{context}_body"))?
                .unwrap_option()
                .0
        }
        (BodyKind::Json, None) => Ty::Value,
        (_, None) => return Err(GenError::at(&schema_pointer, "a form body without a schema")),
    };
    if matches!(kind, BodyKind::Multipart | BodyKind::Form) && !is_struct(schemas, &ty) {
        return Err(GenError::at(
            &schema_pointer,
            "a form body whose schema is not an object",
        ));
    }
    Ok(Some(Body {
        kind,
        media_type: media.clone(),
        ty,
        required: body.required,
        doc: text(body.description.as_ref()),
    }))
}

fn is_struct(schemas: &Schemas<'_>, ty: &Ty) -> bool {
    matches!(ty, Ty::Named(name) if schemas.def(name).is_some_and(|def| matches!(def.kind, Kind::Struct { .. })))
}
