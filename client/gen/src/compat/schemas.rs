//! Comparing two schemas on one side of a call: the old one (what a caller was written for)
//! with the new one (what the server says now).
//!
//! Rules enforced here: a schema is a list of alternatives, one per JSON type (`anyOf`/`oneOf`
//! flattened, `type: [a, b]` split, a missing `type` inferred from the keywords, `true` every
//! type, `false` none, `allOf` merged); on the request side each old alternative must meet a new
//! one of its type, on the response side each new alternative an old one (`integer` is met by
//! `number` the way it is contained in it), and each pair is compared keyword by keyword: enum
//! values, constraints, and, recursively, items, properties and a string's `contentSchema`; a pair of `$ref`ed schemas is
//! compared once per walk (recursive models end), and nesting deeper than [`DEPTH`] is not
//! followed (no document of ours comes near it; a hostile one cannot make the walk overflow).

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::Value;

use super::{Found, Kind, Side};
use crate::document::schema::{Schema, SchemaObject, Type, Types};
use crate::document::{child, Document, GenError};

/// How deep inline schemas (and union members) are followed.
const DEPTH: usize = 64;

/// Every JSON type: what `true` (or a schema without a type or a keyword implying one) allows.
const ALL: [Type; 7] = [
    Type::Null,
    Type::Boolean,
    Type::Integer,
    Type::Number,
    Type::String,
    Type::Array,
    Type::Object,
];

/// One walk: the two documents, the side, the operation named in the breaks found.
pub(super) struct Schemas<'a> {
    old: &'a Document<'a>,
    new: &'a Document<'a>,
    side: Side,
    operation: &'a str,
    /// The pairs of resolved pointers already compared.
    visited: HashSet<(String, String)>,
    depth: usize,
}

/// A schema's alternative of one JSON type.
struct Alt {
    ty: Type,
    schema: SchemaObject,
    pointer: String,
}

impl<'a> Schemas<'a> {
    /// A walk on `side` of `operation`.
    pub(super) fn new(old: &'a Document<'a>, new: &'a Document<'a>, side: Side, operation: &'a str) -> Self {
        Schemas {
            old,
            new,
            side,
            operation,
            visited: HashSet::new(),
            depth: 0,
        }
    }

    /// Compare the old schema with the new one (each with its pointer).
    pub(super) fn compare(mut self, old: (&Schema, &str), new: (&Schema, &str), found: &mut Found) {
        self.schema(old, new, found);
    }

    fn add(&self, found: &mut Found, kind: Kind, pointer: String, what: String) {
        found.add(self.operation, self.side, kind, pointer, what);
    }

    fn unresolved(&self, found: &mut Found, error: &GenError) {
        let what = format!("cannot be compared: {}", error.message);
        self.add(found, Kind::Unresolved, error.pointer.clone(), what);
    }

    fn schema(&mut self, old: (&Schema, &str), new: (&Schema, &str), found: &mut Found) {
        if self.depth >= DEPTH {
            return;
        }
        let refs = old.0.reference().is_some() || new.0.reference().is_some();
        let resolved = self
            .old
            .resolve(old.0, old.1)
            .and_then(|(o, op)| Ok(((o, op), self.new.resolve(new.0, new.1)?)));
        let ((o, op), (n, np)) = match resolved {
            Ok(pair) => pair,
            Err(error) => return self.unresolved(found, &error),
        };
        if refs && !self.visited.insert((op.clone(), np.clone())) {
            return;
        }
        let alternatives = alternatives(self.old, &o, &op, 0)
            .and_then(|olds| Ok((olds, alternatives(self.new, &n, &np, 0)?)));
        let (olds, news) = match alternatives {
            Ok(pair) => pair,
            Err(error) => return self.unresolved(found, &error),
        };
        let type_pointer = match n.object().and_then(|n| n.types.as_ref()) {
            Some(_) => child(&np, "type"),
            None => np.clone(),
        };
        self.depth += 1;
        // Request: each old alternative is still accepted; response: each new one was possible.
        let (from, to) = match self.side {
            Side::Request => (&olds, &news),
            Side::Response => (&news, &olds),
        };
        let mut unmet = Vec::new();
        for alt in from {
            match self.choose(alt, to) {
                Some(other) => self.pair(alt, other, found),
                None if !unmet.contains(&alt.ty) => unmet.push(alt.ty.clone()),
                None => {}
            }
        }
        self.depth -= 1;
        if unmet.is_empty() {
            return;
        }
        let (unmet, was, now) = (names(&unmet), types(&olds), types(&news));
        let (kind, what) = match self.side {
            Side::Request => (
                Kind::TypeNarrowed,
                format!(
                    "the type is narrower: {unmet} is no longer accepted (it is {now} now, it was {was})"
                ),
            ),
            Side::Response => (
                Kind::TypeWidened,
                format!("the type is wider: {unmet} may now be sent (it was {was})"),
            ),
        };
        self.add(found, kind, type_pointer, what);
    }

    /// Compare `alt` (of the side's `from` schema) with `other` (of its `to` schema): old with
    /// new, whichever side each is on.
    fn pair(&mut self, alt: &Alt, other: &Alt, found: &mut Found) {
        match self.side {
            Side::Request => self.alternative(alt, other, found),
            Side::Response => self.alternative(other, alt, found),
        }
    }

    /// The alternative of `to` that `alt` is compared with: one of its type (or the `number` an
    /// `integer` is contained in: a request's old integer is accepted as a number, a response's
    /// new integer was possible as one). Of several (the members of a union of models), the
    /// first that takes `alt` without a break, tried in this order: the same schema (its
    /// resolved pointer), the same type, the others; if none does, the first of that order
    /// (whose breaks are then reported).
    fn choose<'t>(&self, alt: &Alt, to: &'t [Alt]) -> Option<&'t Alt> {
        let meets =
            |other: &&Alt| other.ty == alt.ty || (alt.ty == Type::Integer && other.ty == Type::Number);
        let mut candidates: Vec<&Alt> = to.iter().filter(meets).collect();
        candidates.sort_by_key(|other| (other.pointer != alt.pointer, other.ty != alt.ty));
        if candidates.len() < 2 {
            return candidates.first().copied();
        }
        for other in &candidates {
            let mut trial = Schemas {
                old: self.old,
                new: self.new,
                side: self.side,
                operation: self.operation,
                visited: self.visited.clone(),
                depth: self.depth,
            };
            let mut scratch = Found::default();
            trial.pair(alt, other, &mut scratch);
            if scratch.breaks.is_empty() {
                return Some(other);
            }
        }
        candidates.first().copied()
    }

    /// Compare two alternatives of one type (`old`'s `integer` may be `new`'s `number`).
    fn alternative(&mut self, old: &Alt, new: &Alt, found: &mut Found) {
        self.enums(old, new, found);
        // Request: what the new schema refuses of the old one's values; response: the reverse.
        let (kind, word, allowing, refusing) = match self.side {
            Side::Request => (Kind::ConstraintTightened, "tighter", old, new),
            Side::Response => (Kind::ConstraintLoosened, "looser", new, old),
        };
        for (keyword, was, now) in excludes(&allowing.schema, &refusing.schema, &old.ty) {
            let pointer = if present(&new.schema, keyword) {
                child(&new.pointer, keyword)
            } else {
                child(&old.pointer, keyword)
            };
            let (was, now) = match self.side {
                Side::Request => (was, now),
                Side::Response => (now, was),
            };
            let what = format!("the constraint is {word}: {}", change(&was, &now));
            self.add(found, kind, pointer, what);
        }
        match old.ty {
            Type::Array => self.items(old, new, found),
            Type::Object => self.object(old, new, found),
            Type::String => self.content(old, new, found),
            _ => {}
        }
    }

    /// A string's `contentSchema` (the JSON it holds: a typed event's data), compared like any
    /// schema; one side without it allows any content.
    fn content(&mut self, old: &Alt, new: &Alt, found: &mut Found) {
        let (a, b) = (&old.schema.content_schema, &new.schema.content_schema);
        if a.is_none() && b.is_none() {
            return;
        }
        let any = Schema::Bool(true);
        let (op, np) = (
            child(&old.pointer, "contentSchema"),
            child(&new.pointer, "contentSchema"),
        );
        self.schema(
            (a.as_ref().unwrap_or(&any), &op),
            (b.as_ref().unwrap_or(&any), &np),
            found,
        );
    }

    fn enums(&self, old: &Alt, new: &Alt, found: &mut Found) {
        let (from, to) = match self.side {
            Side::Request => (old, new),
            Side::Response => (new, old),
        };
        // The values `from` allows that `to` does not (`None`: nothing is lost).
        let Some(to_values) = values(&to.schema, &to.ty) else {
            return;
        };
        let lost: Option<Vec<Value>> = values(&from.schema, &from.ty).map(|from_values| {
            from_values
                .into_iter()
                .filter(|value| !to_values.contains(value))
                .collect()
        });
        if lost.as_ref().is_some_and(Vec::is_empty) {
            return;
        }
        let keyword = if new.schema.const_value.is_some() {
            "const"
        } else {
            "enum"
        };
        let pointer = if new.schema.const_value.is_some() || new.schema.enum_values.is_some() {
            child(&new.pointer, keyword)
        } else {
            child(&old.pointer, "enum")
        };
        let (kind, what) = match (self.side, lost) {
            (Side::Request, Some(lost)) => (
                Kind::EnumValueRemoved,
                format!("{} {} no longer accepted", listed(&lost), verb(&lost)),
            ),
            (Side::Request, None) => (
                Kind::EnumValueRemoved,
                format!("only {} {} accepted now", listed(&to_values), verb(&to_values)),
            ),
            (Side::Response, Some(lost)) => {
                (Kind::EnumValueAdded, format!("{} may now be sent", listed(&lost)))
            }
            (Side::Response, None) => (
                Kind::EnumValueAdded,
                format!("no longer limited to {}", listed(&to_values)),
            ),
        };
        self.add(found, kind, pointer, what);
    }

    fn items(&mut self, old: &Alt, new: &Alt, found: &mut Found) {
        if let (Some(a), Some(b)) = (&old.schema.items, &new.schema.items) {
            let (op, np) = (child(&old.pointer, "items"), child(&new.pointer, "items"));
            self.schema((a, &op), (b, &np), found);
        }
        if let (Some(a), Some(b)) = (&old.schema.prefix_items, &new.schema.prefix_items) {
            for (index, (a, b)) in a.iter().zip(b).enumerate() {
                let op = child(&child(&old.pointer, "prefixItems"), &index.to_string());
                let np = child(&child(&new.pointer, "prefixItems"), &index.to_string());
                self.schema((a, &op), (b, &np), found);
            }
        }
    }

    fn object(&mut self, old: &Alt, new: &Alt, found: &mut Found) {
        let none = IndexMap::new();
        let was = old.schema.properties.as_ref().unwrap_or(&none);
        let now = new.schema.properties.as_ref().unwrap_or(&none);
        let property = |alt: &Alt, name: &str| child(&child(&alt.pointer, "properties"), name);
        match self.side {
            Side::Request => {
                for name in new.schema.required.iter() {
                    if old.schema.required.contains(name) {
                        continue;
                    }
                    let what = if was.contains_key(name) {
                        format!("field `{name}` is required now")
                    } else {
                        format!("field `{name}` is new and required")
                    };
                    self.add(
                        found,
                        Kind::PropertyRequired,
                        child(&new.pointer, "required"),
                        what,
                    );
                }
                let closed =
                    |alt: &Alt| matches!(alt.schema.additional_properties, Some(Schema::Bool(false)));
                if closed(new) && !closed(old) {
                    let what = "the constraint is tighter: fields it does not name are refused now \
                                (additionalProperties: false)";
                    let pointer = child(&new.pointer, "additionalProperties");
                    self.add(found, Kind::ConstraintTightened, pointer, what.to_owned());
                }
                for (name, before) in was {
                    match now.get(name) {
                        Some(after) => self.schema(
                            (before, &property(old, name)),
                            (after, &property(new, name)),
                            found,
                        ),
                        None if closed(new) => {
                            let what = format!("field `{name}` is gone, and fields not named are refused");
                            self.add(found, Kind::PropertyRemoved, property(old, name), what);
                        }
                        None => {}
                    }
                }
            }
            Side::Response => {
                for name in old.schema.required.iter() {
                    if new.schema.required.contains(name) {
                        continue;
                    }
                    if now.contains_key(name) {
                        let what = format!("field `{name}` may be missing now (it was required)");
                        self.add(found, Kind::PropertyOptional, property(new, name), what);
                    } else {
                        let what = format!("required field `{name}` is gone");
                        self.add(found, Kind::PropertyRemoved, property(old, name), what);
                    }
                }
                for (name, after) in now {
                    if let Some(before) = was.get(name) {
                        self.schema(
                            (before, &property(old, name)),
                            (after, &property(new, name)),
                            found,
                        );
                    }
                }
            }
        }
        if let (Some(a @ Schema::Object(_)), Some(b @ Schema::Object(_))) = (
            &old.schema.additional_properties,
            &new.schema.additional_properties,
        ) {
            let op = child(&old.pointer, "additionalProperties");
            let np = child(&new.pointer, "additionalProperties");
            self.schema((a, &op), (b, &np), found);
        }
    }
}

/// `schema`'s alternatives, one per JSON type, its `$ref`s followed.
fn alternatives(
    document: &Document<'_>,
    schema: &Schema,
    pointer: &str,
    depth: usize,
) -> Result<Vec<Alt>, GenError> {
    let (schema, pointer) = document.resolve(schema, pointer)?;
    let object = match &*schema {
        Schema::Bool(false) => return Ok(Vec::new()),
        Schema::Bool(true) => return Ok(plain(SchemaObject::default(), &pointer)),
        Schema::Object(object) => object,
    };
    if depth >= DEPTH {
        return Ok(plain(SchemaObject::default(), &pointer));
    }
    if let Some((keyword, members)) = object.union_members() {
        let mut out = Vec::new();
        for (index, member) in members.iter().enumerate() {
            let at = child(&child(&pointer, keyword), &index.to_string());
            out.extend(alternatives(document, member, &at, depth + 1)?);
        }
        return Ok(out);
    }
    if let Some(members) = &object.all_of {
        if let [only] = members.as_slice() {
            if object.types.is_none() && object.properties.is_none() {
                let at = child(&child(&pointer, "allOf"), "0");
                return alternatives(document, only, &at, depth + 1);
            }
        }
        return Ok(plain(merge(document, object, members, &pointer)?, &pointer));
    }
    Ok(plain((**object).clone(), &pointer))
}

/// `allOf`: the holder's keywords, then each member's properties and `required` added, and any
/// other keyword the holder lacks taken from the first member that has it.
fn merge(
    document: &Document<'_>,
    holder: &SchemaObject,
    members: &[Schema],
    pointer: &str,
) -> Result<SchemaObject, GenError> {
    let mut merged = holder.clone();
    merged.all_of = None;
    for (index, member) in members.iter().enumerate() {
        let at = child(&child(pointer, "allOf"), &index.to_string());
        let (member, _) = document.resolve(member, &at)?;
        let Some(member) = member.object() else {
            continue;
        };
        let properties = merged.properties.get_or_insert_with(IndexMap::new);
        for (name, schema) in member.properties.iter().flatten() {
            properties.entry(name.clone()).or_insert_with(|| schema.clone());
        }
        for name in &member.required {
            if !merged.required.contains(name) {
                merged.required.push(name.clone());
            }
        }
        fill(&mut merged, member);
    }
    Ok(merged)
}

/// Each keyword compared that `into` lacks, from `from`.
fn fill(into: &mut SchemaObject, from: &SchemaObject) {
    macro_rules! take {
        ($($field:ident),*) => {$(
            if into.$field.is_none() {
                into.$field = from.$field.clone();
            }
        )*};
    }
    take!(
        types,
        format,
        additional_properties,
        items,
        prefix_items,
        max_items,
        min_items,
        max_length,
        min_length,
        pattern,
        maximum,
        exclusive_maximum,
        minimum,
        exclusive_minimum,
        multiple_of,
        enum_values,
        const_value
    );
    into.unique_items |= from.unique_items;
}

/// A schema object's alternatives: one per type it names, or infers.
fn plain(schema: SchemaObject, pointer: &str) -> Vec<Alt> {
    let types: Vec<Type> = match &schema.types {
        Some(Types::One(ty)) => vec![ty.clone()],
        Some(Types::Many(types)) => types.clone(),
        None => inferred(&schema),
    };
    types
        .into_iter()
        .map(|ty| Alt {
            ty,
            schema: schema.clone(),
            pointer: pointer.to_owned(),
        })
        .collect()
}

/// The types a schema without `type` allows: its values' (an `enum`, a `const`), an object's or
/// an array's by their keywords, else every type.
fn inferred(schema: &SchemaObject) -> Vec<Type> {
    let listed = schema
        .const_value
        .iter()
        .chain(schema.enum_values.iter().flatten());
    let mut types: Vec<Type> = Vec::new();
    for value in listed {
        let ty = type_of(value);
        if !types.contains(&ty) {
            types.push(ty);
        }
    }
    if !types.is_empty() {
        types
    } else if schema.properties.is_some()
        || !schema.required.is_empty()
        || schema.additional_properties.is_some()
    {
        vec![Type::Object]
    } else if schema.items.is_some() || schema.prefix_items.is_some() {
        vec![Type::Array]
    } else {
        ALL.to_vec()
    }
}

fn type_of(value: &Value) -> Type {
    match value {
        Value::Null => Type::Null,
        Value::Bool(_) => Type::Boolean,
        Value::Number(n) if n.is_i64() || n.is_u64() => Type::Integer,
        Value::Number(_) => Type::Number,
        Value::String(_) => Type::String,
        Value::Array(_) => Type::Array,
        Value::Object(_) => Type::Object,
    }
}

/// `value` is of JSON type `ty` (an integer is a number too).
fn fits(ty: &Type, value: &Value) -> bool {
    let of = type_of(value);
    of == *ty || (*ty == Type::Number && of == Type::Integer)
}

/// The values an alternative of type `ty` is limited to (`const`, else `enum`), `None` if any.
fn values(schema: &SchemaObject, ty: &Type) -> Option<Vec<Value>> {
    let listed: Vec<Value> = match (&schema.const_value, &schema.enum_values) {
        (Some(value), _) => vec![value.clone()],
        (None, Some(values)) => values.clone(),
        (None, None) => return None,
    };
    Some(listed.into_iter().filter(|value| fits(ty, value)).collect())
}

fn listed(values: &[Value]) -> String {
    values.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")
}

fn verb(values: &[Value]) -> &'static str {
    if values.len() == 1 {
        "is"
    } else {
        "are"
    }
}

fn name(ty: &Type) -> &str {
    match ty {
        Type::String => "string",
        Type::Integer => "integer",
        Type::Number => "number",
        Type::Boolean => "boolean",
        Type::Null => "null",
        Type::Array => "array",
        Type::Object => "object",
        Type::Other(name) => name,
    }
}

fn names(types: &[Type]) -> String {
    types.iter().map(name).collect::<Vec<_>>().join(" or ")
}

/// The distinct types of `alternatives`, in words (`nothing` for none).
fn types(alternatives: &[Alt]) -> String {
    let mut distinct: Vec<Type> = Vec::new();
    for alt in alternatives {
        if !distinct.contains(&alt.ty) {
            distinct.push(alt.ty.clone());
        }
    }
    if distinct.is_empty() {
        "nothing".to_owned()
    } else if distinct.len() == ALL.len() {
        "anything".to_owned()
    } else {
        names(&distinct)
    }
}

/// The keyword is written in `schema`.
fn present(schema: &SchemaObject, keyword: &str) -> bool {
    match keyword {
        "maxLength" => schema.max_length.is_some(),
        "minLength" => schema.min_length.is_some(),
        "pattern" => schema.pattern.is_some(),
        "format" => schema.format.is_some(),
        "maximum" => schema.maximum.is_some(),
        "exclusiveMaximum" => schema.exclusive_maximum.is_some(),
        "minimum" => schema.minimum.is_some(),
        "exclusiveMinimum" => schema.exclusive_minimum.is_some(),
        "multipleOf" => schema.multiple_of.is_some(),
        "maxItems" => schema.max_items.is_some(),
        "minItems" => schema.min_items.is_some(),
        "uniqueItems" => schema.unique_items,
        _ => false,
    }
}

/// A bound: its value, whether it is exclusive, and the keyword that sets it.
type Bound = (f64, bool, &'static str);

fn bound(value: Option<f64>, exclusive: bool, keyword: &'static str) -> Option<Bound> {
    value.map(|value| (value, exclusive, keyword))
}

/// The stricter of an inclusive and an exclusive bound (`upper`: the lower value is stricter).
fn stricter(a: Option<Bound>, b: Option<Bound>, upper: bool) -> Option<Bound> {
    match (a, b) {
        (Some(a), Some(b)) => {
            let b_first = if upper { b.0 <= a.0 } else { b.0 >= a.0 };
            Some(if b_first { b } else { a })
        }
        (a, b) => a.or(b),
    }
}

/// `b` cuts off a value `a` allows (`upper`: at the top).
fn cuts(a: Option<Bound>, b: Option<Bound>, upper: bool) -> bool {
    match (a, b) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(a), Some(b)) => {
            let inside = if upper { b.0 < a.0 } else { b.0 > a.0 };
            inside || (b.0 == a.0 && b.1 && !a.1)
        }
    }
}

/// A keyword's value as shown in a break: the keyword (the bound's own, which may differ from the
/// one reported: `maximum` against `exclusiveMaximum`) and its value, `none` when absent.
type Shown = (&'static str, String);

fn shown(bound: Option<Bound>, keyword: &'static str) -> Shown {
    match bound {
        None => (keyword, "none".to_owned()),
        Some((value, _, own)) => (own, value.to_string()),
    }
}

/// A change of a keyword in words, old → new: `maxLength 200 → 100`, `maximum 10 →
/// exclusiveMaximum 10`, `pattern none → `^a``.
fn change(was: &Shown, now: &Shown) -> String {
    if was.1 == "none" {
        format!("{} none → {}", now.0, now.1)
    } else if now.1 == "none" || now.0 == was.0 {
        format!("{} {} → {}", was.0, was.1, now.1)
    } else {
        format!("{} {} → {} {}", was.0, was.1, now.0, now.1)
    }
}

fn number(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64)
}

fn count(value: Option<u64>) -> Option<f64> {
    // Counts are small; a count past 2^53 would only round.
    #[allow(clippy::cast_precision_loss)]
    value.map(|count| count as f64)
}

/// The constraints of `b` (for type `ty`) that refuse a value `a` allows: each keyword, with its
/// value in `a` and in `b`.
fn excludes(a: &SchemaObject, b: &SchemaObject, ty: &Type) -> Vec<(&'static str, Shown, Shown)> {
    let mut out = Vec::new();
    let mut bounds = |upper: bool, a: Option<Bound>, b: Option<Bound>, keyword: &'static str| {
        if cuts(a, b, upper) {
            let keyword = b.map_or(keyword, |b| b.2);
            out.push((keyword, shown(a, keyword), shown(b, keyword)));
        }
    };
    match ty {
        Type::String => {
            let length = |o: &SchemaObject, upper: bool| match upper {
                true => bound(count(o.max_length), false, "maxLength"),
                false => bound(count(o.min_length), false, "minLength"),
            };
            bounds(true, length(a, true), length(b, true), "maxLength");
            bounds(false, length(a, false), length(b, false), "minLength");
        }
        Type::Integer | Type::Number => {
            let limit = |o: &SchemaObject, upper: bool| match upper {
                true => stricter(
                    bound(number(o.maximum.as_ref()), false, "maximum"),
                    bound(number(o.exclusive_maximum.as_ref()), true, "exclusiveMaximum"),
                    true,
                ),
                false => stricter(
                    bound(number(o.minimum.as_ref()), false, "minimum"),
                    bound(number(o.exclusive_minimum.as_ref()), true, "exclusiveMinimum"),
                    false,
                ),
            };
            bounds(true, limit(a, true), limit(b, true), "maximum");
            bounds(false, limit(a, false), limit(b, false), "minimum");
        }
        Type::Array => {
            bounds(
                true,
                bound(count(a.max_items), false, "maxItems"),
                bound(count(b.max_items), false, "maxItems"),
                "maxItems",
            );
            bounds(
                false,
                bound(count(a.min_items), false, "minItems"),
                bound(count(b.min_items), false, "minItems"),
                "minItems",
            );
        }
        _ => {}
    }
    out.extend(keywords(a, b, ty));
    out
}

/// [`excludes`] for the keywords that are not bounds: `multipleOf`, `uniqueItems`, `pattern`,
/// `format`.
fn keywords(a: &SchemaObject, b: &SchemaObject, ty: &Type) -> Vec<(&'static str, Shown, Shown)> {
    let mut out = Vec::new();
    if matches!(ty, Type::Integer | Type::Number) {
        let (was, now) = (number(a.multiple_of.as_ref()), number(b.multiple_of.as_ref()));
        // Every multiple of `was` is a multiple of `now` exactly when `was / now` is whole.
        let refused = match (was, now) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(was), Some(now)) => now == 0.0 || ((was / now) - (was / now).round()).abs() > 1e-9,
        };
        if refused {
            let show = |m: Option<f64>| m.map_or_else(|| "none".to_owned(), |m| m.to_string());
            out.push(("multipleOf", ("multipleOf", show(was)), ("multipleOf", show(now))));
        }
    }
    if *ty == Type::Array && b.unique_items && !a.unique_items {
        out.push((
            "uniqueItems",
            ("uniqueItems", "false".to_owned()),
            ("uniqueItems", "true".to_owned()),
        ));
    }
    if *ty == Type::String {
        // Regular expressions (and formats) cannot be compared: a change at all may refuse.
        let text = |o: &Option<String>| o.as_ref().map_or_else(|| "none".to_owned(), |t| format!("`{t}`"));
        if b.pattern.is_some() && b.pattern != a.pattern {
            out.push((
                "pattern",
                ("pattern", text(&a.pattern)),
                ("pattern", text(&b.pattern)),
            ));
        }
        if b.format.is_some() && b.format != a.format {
            out.push(("format", ("format", text(&a.format)), ("format", text(&b.format))));
        }
    }
    out
}
