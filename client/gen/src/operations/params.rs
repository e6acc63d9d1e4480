//! An operation's parameters: those of its path item and its own, in the order the method takes
//! them.
//!
//! Rules enforced here: the operation's parameter replaces the path item's of the same name and
//! place; `Accept`, `Content-Type` and `Authorization` headers are left out (OpenAPI: the media
//! types and the security scheme say them); a parameter needs a `schema`; path parameters come
//! first, in the template's order, and each must be declared; a Rust name taken by the request
//! builder, or by a parameter of another place, gets a suffix.

use std::borrow::Cow;

use crate::document::model::Parameter;
use crate::document::{child, text, Document, GenError};
use crate::names::{member, Namer};
use crate::types::Schemas;

use super::{template, Found, Location, Param, Segment, Special, BUILDER_NAMES};

/// The parameters of the operation `found`, path ones first in the template's order.
pub(super) fn parameters(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    found: &Found<'_>,
    context: &str,
) -> Result<Vec<Param>, GenError> {
    let declared = declared(document, found)?;
    let mut params = Vec::new();
    let mut names = Namer::with(BUILDER_NAMES);
    for (param, pointer) in &declared {
        if let Some(param) = parameter(schemas, param, pointer, context, &params, &mut names)? {
            params.push(param);
        }
    }
    in_template_order(found, params)
}

/// The path item's parameters, then the operation's, which replace one of the same name and place.
pub(super) fn declared<'p>(
    document: &'p Document<'_>,
    found: &Found<'p>,
) -> Result<Vec<(Cow<'p, Parameter>, String)>, GenError> {
    let (item, item_pointer) = found.item;
    let mut declared: Vec<(Cow<'p, Parameter>, String)> = Vec::new();
    for (list, owner_pointer) in [
        (&item.parameters, item_pointer),
        (&found.operation.parameters, found.pointer.as_str()),
    ] {
        for (index, param) in list.iter().enumerate() {
            let param_pointer = child(&child(owner_pointer, "parameters"), &index.to_string());
            let (param, param_pointer) = document.resolve(param, &param_pointer)?;
            declared.retain(|(other, _)| (&other.name, &other.location) != (&param.name, &param.location));
            declared.push((param, param_pointer));
        }
    }
    Ok(declared)
}

fn location(param: &Parameter, pointer: &str) -> Result<Location, GenError> {
    Ok(match param.location.as_deref().unwrap_or_default() {
        "path" => Location::Path,
        "query" => Location::Query,
        "header" => Location::Header,
        "cookie" => Location::Cookie,
        other => return Err(GenError::at(pointer, format!("a parameter `in: {other}`"))),
    })
}

/// The parameter `param` (at `pointer`), `None` for a header OpenAPI says to ignore.
fn parameter(
    schemas: &mut Schemas<'_>,
    param: &Parameter,
    pointer: &str,
    context: &str,
    before: &[Param],
    names: &mut Namer,
) -> Result<Option<Param>, GenError> {
    let name = param.name.as_deref().unwrap_or_default();
    let location = location(param, pointer)?;
    let lower = name.to_ascii_lowercase();
    if location == Location::Header && ["accept", "content-type", "authorization"].contains(&lower.as_str()) {
        return Ok(None);
    }
    let Some(schema) = &param.schema else {
        return Err(GenError::at(
            pointer,
            "a parameter without `schema` (`content` is not supported)",
        ));
    };
    let (ty, _) = schemas
        .ty(schema, &child(pointer, "schema"), &format!("{context}_{name}"))?
        .unwrap_option();
    let required = location == Location::Path || param.required;
    let special = match lower.as_str() {
        "idempotency-key" if location == Location::Header => Special::IdempotencyKey,
        "if-match" | "if-none-match" if location == Location::Header => Special::Precondition,
        _ => Special::None,
    };
    let base = member(name);
    let rust = if before.iter().any(|p| p.rust == base) {
        names.claim(&format!("{base}_{}", location.word()))
    } else if BUILDER_NAMES.contains(&base.as_str()) {
        names.claim(&format!("{base}_param"))
    } else {
        names.claim(&base)
    };
    Ok(Some(Param {
        name: name.to_owned(),
        rust,
        location,
        ty,
        required: required && special == Special::None,
        doc: text(param.description.as_ref())
            .or_else(|| schema.object().and_then(|schema| schema.description.clone())),
        default: schema.default().cloned(),
        special,
    }))
}

/// Path parameters in the template's order, first; each must be declared.
fn in_template_order(found: &Found<'_>, mut params: Vec<Param>) -> Result<Vec<Param>, GenError> {
    let mut ordered = Vec::new();
    for segment in template(found.path) {
        if let Segment::Param(name) = segment {
            let Some(index) = params
                .iter()
                .position(|p| p.location == Location::Path && p.name == name)
            else {
                return Err(GenError::at(
                    &found.pointer,
                    format!("the path parameter `{name}` is not declared"),
                ));
            };
            ordered.push(params.remove(index));
        }
    }
    ordered.extend(params.into_iter().filter(|p| p.location != Location::Path));
    Ok(ordered)
}
