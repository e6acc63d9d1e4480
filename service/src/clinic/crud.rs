//! The CRUD the clinic's three resources share: listing with filters, a sort field and paging;
//! reading, creating, replacing and deleting one resource by id; and turning what the store
//! answers into HTTP answers.
//!
//! Rules enforced here:
//! - a list is sorted by the given field (ties in creation order) or, without one, in creation
//!   order; `desc` reverses the whole order (ties newest first), so that one index serves both
//!   directions on both stores; then it is paged by `skip` (at most [`MAX_SKIP`]) and `limit`;
//! - `POST` → 201 with `Location: /{collection}/{id}` and the created resource; `PUT` (a whole
//!   replacement) → 200 with the resource; `DELETE` → 204;
//! - an unknown id (also one that is not 24 hex digits, which no store assigns) → 404
//!   `{"detail": "<Resource> not found"}`, the detail given by the resource;
//! - a resource is stored as its input model's JSON object and answered as its output model,
//!   `_id` renamed `id`; a stored document that does not fit the output model is logged and
//!   answered 500, never sent malformed;
//! - a read answers the resource with its version as `ETag`, `If-None-Match` evaluated against
//!   it before the answer is made (304); a replacement answers the new version's `ETag`; writes
//!   honour `If-Match` through `versions.rs`;
//! - a store failure answers its status (503 while the database is unavailable) with a
//!   client-safe detail ([`store_failure`]); the cause goes to the log;
//! - a write reserves its copies in the memory budget before it makes them (`room.rs`): the
//!   route's own before the document is made, the store's before each store write, which holds
//!   them to its end.

use ferrapi::conditional::{ETag, Preconditions, Read, Tagged, Write};
use ferrapi::convert::FromJson;
use ferrapi::http::header::{HeaderName, HeaderValue, LOCATION};
use ferrapi::memory::Memory;
use ferrapi::prelude::*;
use ferrapi::validation::{LocItem, ValidationErrors};
use serde::Serialize;
use serde_json::Map;

use super::models::SortOrder;
use super::room::Room;
use super::versions::conditionally;
use super::{DEFAULT_LIMIT, MAX_LIMIT, MAX_SKIP};
use crate::store::{
    Checked, Deletion, Direction, Document, ListOptions, Reference, Referrer, Store, StoreError, Versioned,
    ID_FIELD,
};
use crate::store_http::store_failure;

/// The answer to a `POST`: 201, `Location`, the created resource.
pub(super) type CreatedParts<T> = (StatusCode, [(HeaderName, HeaderValue); 1], Json<T>);

/// A store failure as the response a clinic route answers with.
pub(super) fn failure(err: &StoreError) -> Response {
    store_failure(err).into_response()
}

/// A 500 whose cause (`what`) goes to the log only.
fn internal(what: &str) -> Response {
    tracing::error!("{what}");
    HttpError::new(500, "Internal Server Error").into_response()
}

/// `input` as a document to store.
pub(super) fn to_document<T: Serialize>(input: &T) -> Result<Document, Response> {
    match serde_json::to_value(input) {
        Ok(Value::Object(document)) => Ok(document),
        Ok(_) | Err(_) => Err(internal("a clinic model did not serialize to a JSON object")),
    }
}

/// A stored document as the output model `T`: `_id` becomes `id`, and the fields are validated
/// (a document that does not fit is logged and answered 500).
fn from_stored<T: FromJson>(mut document: Document, collection: &str) -> Result<T, Response> {
    let id = document.remove(ID_FIELD).unwrap_or(Value::Null);
    let mut object = Map::with_capacity(document.len() + 1);
    object.insert("id".to_owned(), id);
    object.extend(document);
    let value = Value::Object(object);
    let mut errors = ValidationErrors::new();
    let mut loc = vec![LocItem::Static("stored")];
    T::from_json(&value, &mut loc, &mut errors).ok_or_else(|| {
        internal(&format!(
            "a stored document of `{collection}` does not fit its model: {}",
            String::from_utf8_lossy(&errors.to_json_bytes())
        ))
    })
}

/// The sort order and the page a list asks for: the query parameters `order`, `skip` and
/// `limit` every clinic list takes, declared once (a dependency) and validated with the list's
/// own filters, in the same place among them.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    order: SortOrder,
    skip: i64,
    limit: i64,
}

// `#[le]` takes a literal: kept equal to the documented maxima.
const _: () = assert!(MAX_SKIP == 10_000 && MAX_LIMIT == 100);

#[dependency]
fn page(
    #[default(SortOrder::Asc)] order: SortOrder,
    #[default(0)]
    #[ge(0)]
    #[le(10_000)]
    skip: i64,
    #[default(DEFAULT_LIMIT)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
) -> Page {
    Page { order, skip, limit }
}

impl Page {
    /// `options` sorted by `field` in the page's order (without a field, creation order; `desc`:
    /// newest first), then limited to the page (`skip` and `limit` are already checked to be in
    /// range by their constraints).
    pub(super) fn apply(self, options: ListOptions, field: Option<&'static str>) -> ListOptions {
        let options = match (field, self.order) {
            (Some(field), SortOrder::Asc) => options.sort(field, Direction::Ascending),
            // Ties newest first too: the exact reverse of `asc`, which an index walks backwards
            // (MongoDB uses an index for a sort only in its order or exactly reversed).
            (Some(field), SortOrder::Desc) => options.sort(field, Direction::Descending).newest_first(),
            (None, SortOrder::Asc) => options,
            (None, SortOrder::Desc) => options.newest_first(),
        };
        options
            .skip(u64::try_from(self.skip).unwrap_or(0))
            .limit(u64::try_from(self.limit).unwrap_or(0))
    }
}

/// The documents of `collection` that `options` selects, as output models.
pub(super) async fn list<T: FromJson>(
    store: &Store,
    collection: &str,
    options: ListOptions,
) -> Result<Json<Vec<T>>, Response> {
    let documents = store
        .list(collection, &options)
        .await
        .map_err(|err| failure(&err))?;
    documents
        .into_iter()
        .map(|document| from_stored(document, collection))
        .collect::<Result<Vec<T>, _>>()
        .map(Json)
}

/// The resource with this id, tagged with its version (304 when `If-None-Match` names it, before
/// the answer is made); 404 with `not_found` as its detail when there is none.
pub(super) async fn read<T: FromJson>(
    store: &Store,
    collection: &str,
    id: &str,
    not_found: &'static str,
    pre: &Preconditions<Read>,
) -> Result<Tagged<Json<T>>, Response> {
    match store.get_versioned(collection, id).await {
        Ok(Some(Versioned { document, version })) => {
            let etag = ETag::from_version(version);
            pre.evaluate(Some(&etag)).map_err(IntoResponse::into_response)?;
            Ok(Tagged::new(etag, from_stored(document, collection).map(Json)?))
        }
        Ok(None) => Err(HttpError::not_found(not_found).into_response()),
        Err(err) => Err(failure(&err)),
    }
}

/// Store `input` as a new resource: 201, its `Location` and the created resource (its copies
/// reserved in `memory` first).
pub(super) async fn create<I: Serialize, T: FromJson>(
    store: &Store,
    memory: &Memory,
    collection: &'static str,
    input: &I,
) -> Result<CreatedParts<T>, Response> {
    let room = Room::of(memory, input).await?;
    let document = to_document(input)?;
    let (store, source) = (store.clone(), &document);
    let id = room
        .store(move || {
            let document = source.clone();
            async move { store.insert(collection, document).await }
        })
        .await?
        .map_err(|err| failure(&err))?;
    created(collection, document, id)
}

/// The answer to a `POST` that stored `document` as `id`: 201, its `Location`, the resource.
pub(super) fn created<T: FromJson>(
    collection: &str,
    mut document: Document,
    id: String,
) -> Result<CreatedParts<T>, Response> {
    let location = HeaderValue::try_from(format!("/{collection}/{id}"))
        .map_err(|_| internal("a new id does not fit in a Location header"))?;
    document.insert(ID_FIELD.to_owned(), Value::String(id));
    let created = from_stored(document, collection)?;
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(created)))
}

/// Replace the resource with this id by `input` (its `references` checked by the store) as
/// `pre` allows: 200 with the resource and its new version's `ETag`; 404 with `not_found` when
/// there is none; `missing` answers references that name nothing. Its copies are reserved in
/// `memory` first.
#[allow(clippy::too_many_arguments)] // One call per resource; a struct would only rename them.
pub(super) async fn replace<I: Serialize, T: FromJson>(
    (store, memory): (&Store, &Memory),
    collection: &'static str,
    id: &str,
    input: &I,
    references: &'static [Reference],
    not_found: &'static str,
    pre: &Preconditions<Write>,
    missing: impl Fn(&[Reference]) -> Response,
) -> Result<Tagged<Json<T>>, Response> {
    let room = Room::of(memory, input).await?;
    let document = to_document(input)?;
    let written = conditionally(store, collection, id, not_found, pre, |expected| {
        let (room, document) = (&room, &document);
        let (store, id) = (store.clone(), id.to_owned());
        async move {
            room.store(move || {
                let document = document.clone();
                async move {
                    store
                        .replace_versioned(collection, &id, document, references, expected)
                        .await
                }
            })
            .await?
            .map_err(|err| failure(&err))
        }
    })
    .await?;
    let version = match written {
        Checked::Written(version) => version,
        Checked::NotFound => return Err(HttpError::not_found(not_found).into_response()),
        Checked::Missing(unknown) => return Err(missing(&unknown)),
    };
    let mut document = document;
    document.insert(ID_FIELD.to_owned(), Value::String(id.to_owned()));
    let replaced = from_stored(document, collection).map(Json)?;
    Ok(Tagged::new(ETag::from_version(version), replaced))
}

/// Delete the resource with this id unless one of `referrers` names it, as `pre` allows: 204,
/// 404 with `not_found` when there is none, 409 (`who` has visits) when it is referred to.
pub(super) async fn delete(
    store: &Store,
    collection: &str,
    id: &str,
    referrers: &[Referrer],
    (who, not_found): (&str, &'static str),
    pre: &Preconditions<Write>,
) -> Result<StatusCode, Response> {
    let deletion = conditionally(store, collection, id, not_found, pre, |expected| async move {
        store
            .delete_versioned(collection, id, referrers, expected)
            .await
            .map_err(|err| failure(&err))
    })
    .await?;
    match deletion {
        Deletion::Deleted => Ok(StatusCode::NO_CONTENT),
        Deletion::NotFound => Err(HttpError::not_found(not_found).into_response()),
        Deletion::Referenced => Err(HttpError::new(
            409,
            format!("{who} has visits; delete or reassign them first"),
        )
        .into_response()),
    }
}
