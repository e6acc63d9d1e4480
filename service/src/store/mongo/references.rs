//! References on MongoDB across any number of processes, with single-document atomic operations
//! only (no multi-document transaction: a standalone server has none): a document written by a
//! reference-checked insert or replacement (a visit) never names a deleted document (a doctor, a
//! patient), and a document a referrer names is never deleted.
//!
//! Rules enforced here. The state lives in the `_store` field of the documents involved:
//! - a write in flight on a referring document `v` is announced *in `v` itself* before anything
//!   is checked: `_store.next = {op, doc}` holds the fields the write will give `v` (for an insert,
//!   `v` is created holding only that and `_store.new`, so no read or write of the store sees it
//!   until it is finished); `_store.next.doc.<field>` is indexed, so a deletion finds the writes in
//!   flight that would name its document;
//! - a referred document *x* being deleted holds `_store.del = {t, r}`: the deletion's token and
//!   its referrers as `[collection, field]` pairs.
//! - every read the protocol decides on goes to the primary at read concern `local` ([`primary`]),
//!   whatever the connection string sets for other reads; every write that decides is conditional
//!   on what the same request wrote before it, so a step lost to a failover (or rolled back) makes
//!   the later ones fail, and the request starts over or refuses, never leaves an orphan.
//!
//! **Writing** `v` (an insert, or a replacement):
//! 0. (a shortcut, reads only) a target already missing → 422 without writing anything; one being
//!    deleted is helped to its end first;
//! 1. *announce*: insert `v` as `{_store: {seq, new, next}}` with a fresh id, or set
//!    `_store.next` on the existing `v` (no match: 404);
//! 2. *check*: read every target the fields name: missing → withdraw the announcement (delete the
//!    unfinished insert, unset `next`) → 422; marked `del` → withdraw it, *help finish* that
//!    deletion (below), and start again;
//! 3. *finish*: on the condition that `_store.next.op` is still this write's, replace `v`'s fields by
//!    `next.doc` and drop `next` and `new` (one pipeline update). No match: a deletion withdrew
//!    the announcement (or a later write replaced it): start again, with a fresh id for an insert.
//!
//! **Deleting** *x*, with the referrers given:
//! 1. a live referrer names *x* → 409 at once (nothing written);
//! 2. set `del` with a fresh token, on the condition that there is none (a `del` already there is
//!    *adopted*: this request finishes that deletion);
//! 3. read *x*: gone → finished by another request; `del` not this token → undone by another
//!    request (which found a referrer: 409);
//! 4. *fence*: withdraw every announced write whose `next.doc` names *x* (delete an unfinished
//!    insert, unset `next` on an existing document), each on the condition that its `next.op` is
//!    the one read, so that write's step 3 can never match;
//! 5. a live referrer names *x* → remove `del` (on the condition that it is this token) → 409;
//! 6. delete *x* on the condition that `del` is this token (no match: back to 3).
//!
//! **Why no visit can name a deleted doctor.** Say *x* is deleted at step 6, its `del` set at step
//! 2 (it stayed until step 6, or step 6 would not match), and afterwards a live `v` names *x*.
//! Take the last write *W* that made `v` name *x* (from then on `v` names *x*). *W* finished at its
//! step 3, after announcing (step 1) and then reading *x* without `del` (step 2). That read came
//! before step 2 of the deletion (after it, *x* has `del` until it is gone), so the announcement
//! came before it too, and before step 4, which then either found it and withdrew it or found it
//! already replaced by a later write's announcement: either way *W*'s step 3, conditional on its
//! own announcement, could only have matched before step 4, so before step 5, which then saw `v`
//! naming *x* and refused. A contradiction. A document written before this protocol existed names its target
//! all along, so step 5 sees it too. The interleavings the tests race are cases of this: a booking
//! against a deletion (its announcement is withdrawn, or its visit is seen); a replacement moving a
//! visit onto a doctor being deleted (the same); a replacement moving a visit away from it, or a
//! visit cancelled meanwhile (harmless: removing a reference needs no check); two deletions of
//! one doctor (the second adopts the first's `del`; every step is conditional and idempotent).
//!
//! **Why nothing is stuck after a process is killed** (the convergence rule: *the next request
//! that meets a leftover finishes or discards it*; no clock involved):
//! - killed between announcing and finishing a write: an unfinished insert (invisible, never
//!   finishable by anyone else, deleted by the next deletion of a target it names) or a stale
//!   `next` on a visit (ignored by reads, replaced by the visit's next replacement, unset by a
//!   deletion of a target it names);
//! - killed during a deletion: a stale `del`. The document reads as usual; the next deletion of it
//!   adopts the `del`, and the next write naming it helps finish the deletion first (the deletion
//!   was asked for, so finishing it is a valid outcome of that request); if it turns out to have
//!   visits, the helper removes `del` (step 5) and the write goes on;
//! - a step lost to a network error is the same as a kill at that point: every step only ever
//!   makes the state safer, and each is conditional, so a retried or repeated step is harmless.
//!
//! **Versions.** A write or deletion given an expected version (`versions.rs`) answers an unknown
//! document, then a stale one, before its references are looked at; its announcement (step 1) or
//! mark (step 2) matches only the document at that version, a replacement's finish (step 3) too,
//! and a deletion keeps the version in its `del` (`del.v`): step 3 of the deletion undoes a `del`
//! whose document has moved on (stale), and step 6 deletes only at that version, so a plain
//! replacement landing between the steps is never deleted unseen.
//!
//! Every loop is bounded ([`ATTEMPTS`], with a growing pause between attempts); a request that
//! runs out (sustained contention on one document) answers 503, and has left no orphan.

use std::hash::{BuildHasher, RandomState};
use std::time::Duration;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, Document as BsonDocument, RawDocument};
use mongodb::options::{ReadConcern, ReadPreference, SelectionCriteria};

use mongodb::options::ReturnDocument;

use super::versions::{at_version, bump, version_of, VERSION};
use super::{bounded, fields, is_duplicate_key, is_new, live, mongo_error, MongoStore, NEW, NEXT_DOC};
use crate::store::references::referenced_id;
use crate::store::{
    check_collection, check_field, Checked, Deletion, Document, Reference, Referrer, Stale, StoreError,
    ID_FIELD, STORE_FIELD,
};

/// How many times a request starts again (after its write was withdrawn, a deletion it met was
/// finished or undone, or a concurrent change) before answering 503.
const ATTEMPTS: u32 = 16;

/// A referrer as stored in `_store.del.r`: `(collection, field)`.
type Link = (String, String);

/// What became of a deletion that was finished (by its own request or a helper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Finished {
    /// This request deleted it.
    Deleted,
    /// It is gone (another request deleted it).
    Gone,
    /// A referrer names it; its `del` was removed.
    Referenced,
    /// Its `del` is no longer this token (another request removed it, having found a referrer).
    Undone,
    /// It was asked to be deleted at a version it is no longer at; its `del` was removed.
    Stale,
}

/// What checking the targets of an announced write found.
enum Targets {
    /// Every target exists and none is being deleted.
    Present,
    /// These references name nothing.
    Missing(Vec<Reference>),
    /// A target was being deleted (this request helped finish that): start again.
    Again,
}

/// Where the protocol reads: the primary, at read concern `local`, whatever the connection string
/// asks for other reads. A check must see every write the primary has applied: a secondary may
/// lag, and a `majority` snapshot may not hold yet a write the primary applied (a finished
/// booking the deletion's step 5 must see).
fn primary() -> SelectionCriteria {
    SelectionCriteria::ReadPreference(ReadPreference::Primary)
}

fn contention(what: &str) -> StoreError {
    StoreError::unavailable(format!(
        "{what}: gave up after {ATTEMPTS} attempts (other requests kept changing the same documents)"
    ))
}

/// A pause before attempt `n` (none before the first): a ceiling that doubles from 4 ms up to
/// 64 ms, and a random time between its half and itself ("equal jitter"). Requests that keep
/// overwriting each other's announcements (several replacements of one document at one version)
/// must drift apart: the counter byte of an `ObjectId` used before gave each request nearly the
/// same 2–18 ms steps, and under a loaded CI machine one of eight racing writers ran out of its
/// 16 attempts (≈ 0.2 s in all) before the winner finished, answering 503 where it was stale.
/// Now the 15 pauses add up to ≈ 0.6 s on average (at most ≈ 0.8 s).
async fn pause(attempt: u32) {
    let length = pause_length(attempt);
    if !length.is_zero() {
        tokio::time::sleep(length).await;
    }
}

/// How long [`pause`] waits before attempt `attempt` (drawn anew at each call).
fn pause_length(attempt: u32) -> Duration {
    if attempt == 0 {
        return Duration::ZERO;
    }
    let ceiling = 2u64 << attempt.min(5);
    let half = ceiling / 2;
    let jitter = RandomState::new().hash_one(attempt) % (half + 1);
    Duration::from_millis(half + jitter)
}

/// The `_store` sub-document of a stored document (empty when it has none).
fn store_of(raw: &RawDocument) -> BsonDocument {
    raw.get_document(STORE_FIELD)
        .ok()
        .and_then(|store| BsonDocument::try_from(store).ok())
        .unwrap_or_default()
}

/// The deletion in progress on a stored document: its token and referrers.
fn deletion_of(raw: &RawDocument) -> Option<(ObjectId, Vec<Link>)> {
    let store = store_of(raw);
    let del = store.get_document("del").ok()?;
    let token = del.get_object_id("t").ok()?;
    let links = del
        .get_array("r")
        .map(|links| {
            links
                .iter()
                .filter_map(|link| match link {
                    Bson::Array(pair) => match pair.as_slice() {
                        [Bson::String(collection), Bson::String(field)] => {
                            Some((collection.clone(), field.clone()))
                        }
                        _ => None,
                    },
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    Some((token, links))
}

/// The update that finishes an announced write: the fields become `next.doc`, `next` and `new`
/// go, the version moves on, the rest of `_store` (the insertion place) stays.
fn finishing() -> Vec<BsonDocument> {
    vec![
        doc! { "$replaceWith": { "$mergeObjects": [
            { ID_FIELD: "$_id" },
            "$_store.next.doc",
            { STORE_FIELD: "$_store" },
        ] } },
        doc! { "$unset": ["_store.next", NEW] },
        bump(),
    ]
}

/// The version a deletion was asked at, kept in its `del` (`None`: any).
fn deletion_version(raw: &RawDocument) -> Option<u64> {
    let store = store_of(raw);
    let del = store.get_document("del").ok()?;
    del.get_i64("v").ok().and_then(|v| u64::try_from(v).ok())
}

impl MongoStore {
    /// Insert `document` into `collection` if every reference names an existing document, under
    /// a fresh id, or under `at` (`Written(None)`: a finished document has that id, nothing
    /// written; an unfinished one, left by a killed attempt, is discarded and the insert goes on).
    pub(super) async fn insert_checked(
        &self,
        collection: &str,
        document: Document,
        references: &[Reference],
        at: Option<ObjectId>,
    ) -> Result<Checked<Option<ObjectId>>, StoreError> {
        check_references(collection, references)?;
        let coll = self.collection(collection)?;
        for attempt in 0..ATTEMPTS {
            pause(attempt).await;
            // Step 0.
            match self.check_targets(&document, references).await? {
                Targets::Present => {}
                Targets::Missing(missing) => return Ok(Checked::Missing(missing)),
                Targets::Again => continue,
            }
            // `ObjectId::default()` is a fresh id.
            let (id, op) = (at.unwrap_or_default(), ObjectId::new());
            // Step 1: an unfinished insert, holding only the announcement.
            // Version 0 until finished, which moves it to 1, as a plain insert starts.
            let announced = doc! { "new": true, "v": 0_i64, "next": { "op": op, "doc": fields(&document) } };
            match self
                .insert_new(collection, id, BsonDocument::new(), announced)
                .await?
            {
                Ok(()) => {}
                Err(err) if at.is_some() && is_duplicate_key(&err) => {
                    let finished = coll
                        .count_documents(live(id))
                        .read_concern(ReadConcern::local())
                        .selection_criteria(primary());
                    if bounded(finished).await? > 0 {
                        return Ok(Checked::Written(None));
                    }
                    // A killed attempt's announcement under this id: it can never finish (its
                    // process is gone, or it starts again and meets this one's); discard it.
                    bounded(coll.delete_one(doc! { ID_FIELD: id, NEW: true })).await?;
                    continue;
                }
                Err(err) => return Err(mongo_error(err)),
            }
            let withdraw = doc! { ID_FIELD: id, NEW: true, "_store.next.op": op };
            // Step 2.
            match self.check_targets(&document, references).await {
                Ok(Targets::Present) => {}
                outcome => {
                    bounded(coll.delete_one(withdraw)).await?;
                    match outcome? {
                        Targets::Missing(missing) => return Ok(Checked::Missing(missing)),
                        Targets::Present | Targets::Again => continue,
                    }
                }
            }
            // Step 3.
            let finished = bounded(coll.update_one(withdraw, finishing())).await?;
            if finished.matched_count > 0 {
                return Ok(Checked::Written(Some(id)));
            }
            // Withdrawn by a deletion: start again (with a fresh id unless given one).
        }
        Err(contention("inserting with references"))
    }

    /// Replace the document `id` of `collection` if it exists, is at version `expected` (`None`:
    /// any) and every reference names an existing document; its new version.
    pub(super) async fn replace_checked(
        &self,
        collection: &str,
        id: &str,
        document: Document,
        references: &[Reference],
        expected: Option<u64>,
    ) -> Result<Result<Checked<u64>, Stale>, StoreError> {
        check_references(collection, references)?;
        let coll = self.collection(collection)?;
        let Ok(oid) = ObjectId::parse_str(id) else {
            return Ok(Ok(Checked::NotFound));
        };
        let next_doc = fields(&document);
        let mut this_version = live(oid);
        at_version(&mut this_version, expected);
        for attempt in 0..ATTEMPTS {
            pause(attempt).await;
            // Step 0, after the 404 (an unknown visit is 404 before its references are looked at)
            // and the version (412 before 422).
            match self.current_version(collection, oid).await? {
                None => return Ok(Ok(Checked::NotFound)),
                Some(version) if expected.is_some_and(|expected| expected != version) => {
                    return Ok(Err(Stale))
                }
                Some(_) => {}
            }
            match self.check_targets(&document, references).await? {
                Targets::Present => {}
                Targets::Missing(missing) => return Ok(Ok(Checked::Missing(missing))),
                Targets::Again => continue,
            }
            let op = ObjectId::new();
            // Step 1: announced on the visit itself (an unknown visit is 404 before any check),
            // at the expected version.
            let announce = doc! { "$set": { "_store.next": { "op": op, "doc": next_doc.clone() } } };
            if bounded(coll.update_one(this_version.clone(), announce))
                .await?
                .matched_count
                == 0
            {
                // Gone or moved on since step 0: step 0 says which.
                continue;
            }
            let withdraw = doc! { ID_FIELD: oid, "_store.next.op": op };
            // Step 2.
            match self.check_targets(&document, references).await {
                Ok(Targets::Present) => {}
                outcome => {
                    bounded(coll.update_one(withdraw, doc! { "$unset": { "_store.next": "" } })).await?;
                    match outcome? {
                        Targets::Missing(missing) => return Ok(Ok(Checked::Missing(missing))),
                        Targets::Present | Targets::Again => continue,
                    }
                }
            }
            // Step 3, still at the expected version (a plain replacement may have come between).
            let mut finish = withdraw;
            at_version(&mut finish, expected);
            let finished = bounded(
                coll.find_one_and_update(finish, finishing())
                    .projection(doc! { VERSION: 1 })
                    .return_document(ReturnDocument::After),
            )
            .await?;
            if let Some(raw) = finished {
                return Ok(Ok(Checked::Written(version_of(&raw))));
            }
            // Withdrawn by a deletion, replaced by a later write, or moved on: start again.
        }
        Err(contention("replacing with references"))
    }

    /// Delete the document `id` of `collection`, if it is at version `expected` (`None`: any),
    /// unless a referrer names it.
    pub(super) async fn delete_checked(
        &self,
        collection: &str,
        id: &str,
        referrers: &[Referrer],
        expected: Option<u64>,
    ) -> Result<Result<Deletion, Stale>, StoreError> {
        let coll = self.collection(collection)?;
        let links: Vec<Link> = referrers
            .iter()
            .map(|r| {
                check_collection(r.collection)?;
                check_field(r.field)?;
                Ok((r.collection.to_owned(), r.field.to_owned()))
            })
            .collect::<Result<_, StoreError>>()?;
        let Ok(oid) = ObjectId::parse_str(id) else {
            return Ok(Ok(Deletion::NotFound));
        };
        // A conditional deletion answers an unknown or stale document first (404, 412, then 409).
        if let Some(expected) = expected {
            match self.current_version(collection, oid).await? {
                None => return Ok(Ok(Deletion::NotFound)),
                Some(version) if version != expected => return Ok(Err(Stale)),
                Some(_) => {}
            }
        }
        // Step 1: referenced now → 409, without writing anything.
        if self.referenced(id, &links).await? {
            return Ok(Ok(Deletion::Referenced));
        }
        for attempt in 0..ATTEMPTS {
            pause(attempt).await;
            // Step 2: mark it, or adopt the deletion already marked.
            let token = ObjectId::new();
            let stored: Vec<Bson> = links
                .iter()
                .map(|(c, f)| Bson::Array(vec![Bson::String(c.clone()), Bson::String(f.clone())]))
                .collect();
            let mut unmarked = doc! { ID_FIELD: oid, "_store.del": { "$exists": false } };
            at_version(&mut unmarked, expected);
            let mut del = doc! { "t": token, "r": stored };
            if let Some(expected) = expected {
                del.insert("v", i64::try_from(expected).unwrap_or(i64::MAX));
            }
            let marked = bounded(coll.update_one(unmarked, doc! { "$set": { "_store.del": del } })).await?;
            let (token, own) = if marked.matched_count > 0 {
                (token, true)
            } else {
                match bounded(
                    coll.find_one(doc! { ID_FIELD: oid })
                        .read_concern(ReadConcern::local())
                        .selection_criteria(primary()),
                )
                .await?
                {
                    None => return Ok(Ok(Deletion::NotFound)),
                    Some(raw) if expected.is_some_and(|expected| expected != version_of(&raw)) => {
                        return Ok(Err(Stale))
                    }
                    Some(raw) => match deletion_of(&raw) {
                        Some((theirs, _)) => (theirs, false),
                        // Its `del` went away between the two reads.
                        None => continue,
                    },
                }
            };
            return Ok(match self.finish(collection, oid, token, &links).await? {
                Finished::Deleted => Ok(Deletion::Deleted),
                // Finished by a helper: this request's deletion, or one it adopted.
                Finished::Gone if own => Ok(Deletion::Deleted),
                Finished::Gone => Ok(Deletion::NotFound),
                Finished::Referenced | Finished::Undone => Ok(Deletion::Referenced),
                Finished::Stale => Err(Stale),
            });
        }
        Err(contention("deleting"))
    }

    /// Steps 3 to 6 of a deletion marked with `token` (by this request or another).
    async fn finish(
        &self,
        collection: &str,
        oid: ObjectId,
        token: ObjectId,
        links: &[Link],
    ) -> Result<Finished, StoreError> {
        let coll = self.collection(collection)?;
        let hex = oid.to_hex();
        for attempt in 0..ATTEMPTS {
            pause(attempt).await;
            // Step 3.
            let Some(raw) = bounded(
                coll.find_one(doc! { ID_FIELD: oid })
                    .read_concern(ReadConcern::local())
                    .selection_criteria(primary()),
            )
            .await?
            else {
                return Ok(Finished::Gone);
            };
            if deletion_of(&raw).map(|(t, _)| t) != Some(token) {
                return Ok(Finished::Undone);
            }
            // A deletion asked at a version the document has moved on from is undone.
            let asked = deletion_version(&raw);
            if asked.is_some_and(|asked| asked != version_of(&raw)) {
                bounded(coll.update_one(
                    doc! { ID_FIELD: oid, "_store.del.t": token },
                    doc! { "$unset": { "_store.del": "" } },
                ))
                .await?;
                return Ok(Finished::Stale);
            }
            // Step 4.
            for (referrer, field) in links {
                self.fence(referrer, field, &hex).await?;
            }
            // Step 5.
            if self.referenced(&hex, links).await? {
                bounded(coll.update_one(
                    doc! { ID_FIELD: oid, "_store.del.t": token },
                    doc! { "$unset": { "_store.del": "" } },
                ))
                .await?;
                return Ok(Finished::Referenced);
            }
            // Step 6.
            let mut this_deletion = doc! { ID_FIELD: oid, "_store.del.t": token };
            at_version(&mut this_deletion, asked);
            let deleted = bounded(coll.delete_one(this_deletion)).await?;
            if deleted.deleted_count > 0 {
                return Ok(Finished::Deleted);
            }
        }
        Err(contention("finishing a deletion"))
    }

    /// Withdraw every announced write to `collection` whose `field` will be `id`.
    async fn fence(&self, collection: &str, field: &str, id: &str) -> Result<(), StoreError> {
        let coll = self.collection(collection)?;
        let mut announced = BsonDocument::new();
        announced.insert(format!("{NEXT_DOC}.{field}"), doc! { "$eq": id });
        let mut found = Vec::new();
        bounded(async {
            let mut cursor = coll
                .find(announced)
                .projection(doc! { ID_FIELD: 1, NEW: 1, "_store.next.op": 1 })
                .read_concern(ReadConcern::local())
                .selection_criteria(primary())
                .await?;
            while cursor.advance().await? {
                found.push(cursor.current().to_raw_document_buf());
            }
            Ok(())
        })
        .await?;
        for raw in found {
            let (Ok(v), Some(op)) = (
                raw.get_object_id(ID_FIELD),
                store_of(&raw)
                    .get_document("next")
                    .ok()
                    .and_then(|next| next.get_object_id("op").ok()),
            ) else {
                continue;
            };
            let this_write = doc! { ID_FIELD: v, "_store.next.op": op };
            if is_new(&raw) {
                bounded(coll.delete_one(this_write)).await?;
            } else {
                bounded(coll.update_one(this_write, doc! { "$unset": { "_store.next": "" } })).await?;
            }
        }
        Ok(())
    }

    /// Whether a live document of a referrer names `id`.
    async fn referenced(&self, id: &str, links: &[Link]) -> Result<bool, StoreError> {
        for (collection, field) in links {
            let coll = self.collection(collection)?;
            let mut filter = BsonDocument::new();
            filter.insert(field.clone(), doc! { "$eq": id });
            // An unfinished insert has no other field, so it never matches.
            let found = bounded(
                coll.find_one(filter)
                    .projection(doc! { ID_FIELD: 1 })
                    .read_concern(ReadConcern::local())
                    .selection_criteria(primary()),
            )
            .await?;
            if found.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Step 2 of a write: every target `document` names through `references` exists and is not
    /// being deleted (a deletion met is helped to its end first).
    async fn check_targets(
        &self,
        document: &Document,
        references: &[Reference],
    ) -> Result<Targets, StoreError> {
        let mut missing = Vec::new();
        let mut again = false;
        for reference in references {
            let Some(target) = referenced_id(document, reference).and_then(|id| ObjectId::parse_str(id).ok())
            else {
                missing.push(*reference);
                continue;
            };
            let coll = self.collection(reference.target)?;
            let found = bounded(
                coll.find_one(doc! { ID_FIELD: target })
                    .projection(doc! { ID_FIELD: 1, "_store.del": 1 })
                    .read_concern(ReadConcern::local())
                    .selection_criteria(primary()),
            )
            .await?;
            match found {
                None => missing.push(*reference),
                Some(raw) => {
                    if let Some((token, links)) = deletion_of(&raw) {
                        match self.finish(reference.target, target, token, &links).await? {
                            Finished::Deleted | Finished::Gone => missing.push(*reference),
                            Finished::Referenced | Finished::Undone | Finished::Stale => again = true,
                        }
                    }
                }
            }
        }
        Ok(if again {
            Targets::Again
        } else if missing.is_empty() {
            Targets::Present
        } else {
            Targets::Missing(missing)
        })
    }
}

/// The collection and the references' names are checked before anything is written.
fn check_references(collection: &str, references: &[Reference]) -> Result<(), StoreError> {
    check_collection(collection)?;
    for reference in references {
        check_collection(reference.target)?;
        check_field(reference.field)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_up_to_64_ms_and_are_drawn_within_their_step() {
        assert_eq!(pause_length(0), Duration::ZERO, "none before the first attempt");
        for attempt in 1..ATTEMPTS {
            let ceiling = Duration::from_millis(2 << attempt.min(5));
            let drawn: std::collections::BTreeSet<Duration> =
                (0..200).map(|_| pause_length(attempt)).collect();
            assert!(
                drawn.iter().all(|&d| ceiling / 2 <= d && d <= ceiling),
                "attempt {attempt}: {drawn:?} within {ceiling:?}"
            );
            assert!(
                drawn.len() > 1,
                "attempt {attempt}: drawn at random, not {drawn:?}"
            );
        }
        let total: Duration = (1..ATTEMPTS).map(|n| Duration::from_millis(2 << n.min(5))).sum();
        assert!(total <= Duration::from_millis(800), "bounded: {total:?} at most");
    }
}
