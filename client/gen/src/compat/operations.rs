//! The walk over operations: matched by path and method, then their parameters and request
//! body (the request side) and each status's answer (the response side), whose schemas
//! `schemas` compares.
//!
//! Rules enforced here: a path template is matched with its parameters' names blanked
//! (`/item/{id}` is `/item/{item_id}`), and a path parameter by its position in the template;
//! a header parameter's name is matched without regard to case; a path item's parameters apply
//! to each of its operations unless the operation declares the same one; every `$ref` is
//! followed, and one that cannot be is an [`Kind::Unresolved`] break (what it stands for cannot
//! be shown compatible).

use std::borrow::Cow;

use indexmap::IndexMap;

use super::schemas::Schemas;
use super::{Found, Kind, Side};
use crate::document::model::{MediaType, Operation, Parameter, PathItem};
use crate::document::{child, Document, GenError};

/// One operation of a document, found.
struct Op<'d> {
    template: &'d str,
    method: &'static str,
    operation: Cow<'d, Operation>,
    /// The path item's own parameters.
    shared: Vec<Parameter>,
    pointer: String,
}

/// Compare every operation of `old` with its match in `new`.
pub(super) fn compare(old: &Document<'_>, new: &Document<'_>, found: &mut Found) {
    let olds = operations(old, found);
    let news = operations(new, found);
    let mut by_key: IndexMap<(String, &str), &Op<'_>> = IndexMap::new();
    for operation in &news {
        by_key
            .entry((blank(operation.template), operation.method))
            .or_insert(operation);
    }
    for was in &olds {
        let name = format!("{} {}", was.method.to_uppercase(), was.template);
        match by_key.get(&(blank(was.template), was.method)) {
            None => found.add(
                &name,
                Side::Request,
                Kind::OperationRemoved,
                was.pointer.clone(),
                format!("the operation {name} is gone"),
            ),
            Some(now) => {
                let cx = Pair {
                    old,
                    new,
                    name: &name,
                };
                cx.parameters(was, now, found);
                cx.body(was, now, found);
                cx.responses(was, now, found);
            }
        }
    }
}

/// `template` with each parameter's name blanked: `/item/{}`.
fn blank(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut inside = false;
    for c in template.chars() {
        match c {
            '{' => {
                inside = true;
                out.push('{');
            }
            '}' => {
                inside = false;
                out.push('}');
            }
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}

/// The operations of `document`, path items' `$ref`s followed.
fn operations<'d>(document: &'d Document<'_>, found: &mut Found) -> Vec<Op<'d>> {
    let mut out = Vec::new();
    for (template, item) in &document.api().paths {
        let pointer = child("#/paths", template);
        let (item, pointer) = match document.resolve(item, &pointer) {
            Ok(resolved) => resolved,
            Err(error) => {
                unresolved(found, template, &error);
                continue;
            }
        };
        for (method, operation) in owned_operations(&item) {
            out.push(Op {
                template,
                method,
                pointer: child(&pointer, method),
                operation,
                shared: item.parameters.clone(),
            });
        }
    }
    out
}

fn owned_operations<'d>(item: &Cow<'d, PathItem>) -> Vec<(&'static str, Cow<'d, Operation>)> {
    match item {
        Cow::Borrowed(item) => item
            .operations
            .iter()
            .map(|(method, operation)| (*method, Cow::Borrowed(operation)))
            .collect(),
        Cow::Owned(item) => item
            .operations
            .iter()
            .map(|(method, operation)| (*method, Cow::Owned(operation.clone())))
            .collect(),
    }
}

fn unresolved(found: &mut Found, operation: &str, error: &GenError) {
    found.add(
        operation,
        Side::Request,
        Kind::Unresolved,
        error.pointer.clone(),
        format!("cannot be compared: {}", error.message),
    );
}

/// A parameter as matched: where it is, by position for a path parameter.
#[derive(PartialEq, Eq, Hash, Clone)]
struct Key {
    location: String,
    name: String,
}

/// The two documents and the operation compared.
struct Pair<'a, 'o, 'n> {
    old: &'a Document<'o>,
    new: &'a Document<'n>,
    name: &'a str,
}

impl Pair<'_, '_, '_> {
    fn schemas(&self, side: Side) -> Schemas<'_> {
        Schemas::new(self.old, self.new, side, self.name)
    }

    /// The parameters of `operation` (its path item's, overridden by its own), resolved and
    /// keyed; each with its pointer.
    fn parameters_of<'d>(
        &self,
        document: &'d Document<'_>,
        operation: &'d Op<'_>,
        found: &mut Found,
    ) -> IndexMap<Key, (Parameter, String)> {
        let mut out = IndexMap::new();
        let lists = [
            (
                &operation.shared,
                child(&pointer_of_item(&operation.pointer), "parameters"),
            ),
            (
                &operation.operation.parameters,
                child(&operation.pointer, "parameters"),
            ),
        ];
        for (list, pointer) in lists {
            for (index, parameter) in list.iter().enumerate() {
                let at = child(&pointer, &index.to_string());
                match document.resolve(parameter, &at) {
                    Ok((parameter, at)) => {
                        let key = key(&parameter, operation.template);
                        out.insert(key, (parameter.into_owned(), at));
                    }
                    Err(error) => unresolved(found, self.name, &error),
                }
            }
        }
        out
    }

    fn parameters(&self, was: &Op<'_>, now: &Op<'_>, found: &mut Found) {
        let old = self.parameters_of(self.old, was, found);
        let new = self.parameters_of(self.new, now, found);
        for (key, (parameter, at)) in &new {
            let what = |text: &str| format!("{} parameter `{}` {text}", key.location, name(parameter));
            match old.get(key) {
                None if parameter.required => found.add(
                    self.name,
                    Side::Request,
                    Kind::ParameterRequired,
                    at.clone(),
                    what("is new and required"),
                ),
                Some((before, _)) if parameter.required && !before.required => found.add(
                    self.name,
                    Side::Request,
                    Kind::ParameterRequired,
                    child(at, "required"),
                    what("is required now"),
                ),
                _ => {}
            }
            let Some((before, was_at)) = old.get(key) else {
                continue;
            };
            if let (Some(a), Some(b)) = (&before.schema, &parameter.schema) {
                self.schemas(Side::Request).compare(
                    (a, &child(was_at, "schema")),
                    (b, &child(at, "schema")),
                    found,
                );
            }
        }
    }

    fn body(&self, was: &Op<'_>, now: &Op<'_>, found: &mut Found) {
        let resolve = |document: &Document<'_>, operation: &Op<'_>, found: &mut Found| {
            let body = operation.operation.request_body.as_ref()?;
            let at = child(&operation.pointer, "requestBody");
            match document.resolve(body, &at) {
                Ok((body, at)) => Some((body.into_owned(), at)),
                Err(error) => {
                    unresolved(found, self.name, &error);
                    None
                }
            }
        };
        let old = resolve(self.old, was, found);
        let Some((new, at)) = resolve(self.new, now, found) else {
            return;
        };
        let required_before = old.as_ref().is_some_and(|(body, _)| body.required);
        if new.required && !required_before {
            found.add(
                self.name,
                Side::Request,
                Kind::BodyRequired,
                child(&at, "required"),
                "the request body is required now".to_owned(),
            );
        }
        let Some((old, was_at)) = old else {
            return;
        };
        let (was_at, at) = (child(&was_at, "content"), child(&at, "content"));
        let new_content = new.content.unwrap_or_default();
        for (media, before) in old.content.iter().flatten() {
            let Some(now) = new_content.get(media) else {
                found.add(
                    self.name,
                    Side::Request,
                    Kind::MediaTypeRemoved,
                    child(&was_at, media),
                    format!("a `{media}` request body is no longer accepted"),
                );
                continue;
            };
            self.media(
                Side::Request,
                (before, &child(&was_at, media)),
                (now, &child(&at, media)),
                found,
            );
        }
    }

    fn media(&self, side: Side, old: (&MediaType, &str), new: (&MediaType, &str), found: &mut Found) {
        // A stream's item schema is compared as its answer's (on a response, a wider item breaks),
        // whichever of its two keys each document wrote it under.
        let pairs = [
            (&old.0.schema, &new.0.schema, ("schema", "schema")),
            (
                &old.0.item_schema,
                &new.0.item_schema,
                (old.0.item_key, new.0.item_key),
            ),
        ];
        for (before, now, (was_key, key)) in pairs {
            if let (Some(a), Some(b)) = (before, now) {
                self.schemas(side)
                    .compare((a, &child(old.1, was_key)), (b, &child(new.1, key)), found);
            }
        }
    }

    fn responses(&self, was: &Op<'_>, now: &Op<'_>, found: &mut Found) {
        let (was_at, at) = (child(&was.pointer, "responses"), child(&now.pointer, "responses"));
        for (status, before) in &was.operation.responses {
            let was_at = child(&was_at, status);
            let Some(answer) = now.operation.responses.get(status) else {
                found.add(
                    self.name,
                    Side::Response,
                    Kind::StatusRemoved,
                    was_at,
                    format!("status {status} is no longer documented"),
                );
                continue;
            };
            let at = child(&at, status);
            let resolved = self
                .old
                .resolve(before, &was_at)
                .and_then(|before| Ok((before, self.new.resolve(answer, &at)?)));
            let ((before, was_at), (answer, at)) = match resolved {
                Ok(pair) => pair,
                Err(error) => {
                    unresolved(found, self.name, &error);
                    continue;
                }
            };
            self.answer(status, (&before.content, &was_at), (&answer.content, &at), found);
        }
    }

    fn answer(
        &self,
        status: &str,
        old: (&Option<IndexMap<String, MediaType>>, &str),
        new: (&Option<IndexMap<String, MediaType>>, &str),
        found: &mut Found,
    ) {
        let before = old.0.as_ref().filter(|content| !content.is_empty());
        let Some(before) = before else {
            // No body before: a caller reads none, whatever comes now.
            return;
        };
        let (was_at, at) = (child(old.1, "content"), child(new.1, "content"));
        let now = new.0.as_ref().filter(|content| !content.is_empty());
        let Some(now) = now else {
            found.add(
                self.name,
                Side::Response,
                Kind::MediaTypeRemoved,
                was_at,
                format!("status {status} answers no longer have a body"),
            );
            return;
        };
        for (media, answer) in now {
            let Some(was) = before.get(media) else {
                found.add(
                    self.name,
                    Side::Response,
                    Kind::MediaTypeAdded,
                    child(&at, media),
                    format!("status {status} may now answer `{media}`"),
                );
                continue;
            };
            self.media(
                Side::Response,
                (was, &child(&was_at, media)),
                (answer, &child(&at, media)),
                found,
            );
        }
    }
}

/// The path item's pointer of an operation's pointer (`#/paths/~1a/get` → `#/paths/~1a`).
fn pointer_of_item(operation: &str) -> String {
    operation
        .rsplit_once('/')
        .map_or_else(|| operation.to_owned(), |(item, _)| item.to_owned())
}

fn name(parameter: &Parameter) -> &str {
    parameter.name.as_deref().unwrap_or_default()
}

/// How `parameter` of the operation at `template` is matched.
fn key(parameter: &Parameter, template: &str) -> Key {
    let location = parameter.location.clone().unwrap_or_default();
    let name = name(parameter);
    let name = match location.as_str() {
        "path" => template
            .split('{')
            .skip(1)
            .position(|rest| rest.split('}').next() == Some(name))
            .map_or_else(|| name.to_owned(), |position| format!("#{position}")),
        "header" => name.to_ascii_lowercase(),
        _ => name.to_owned(),
    };
    Key { location, name }
}
