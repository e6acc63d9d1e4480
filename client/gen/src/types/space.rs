//! The declared types and the names given so far: components first, in the document's order,
//! then inline types as the mapping meets them.
//!
//! Rules enforced here: a type takes its place in the order when it is declared, before the types
//! its members need; an inline schema written twice (pydantic repeats a union at each use) is one
//! type, by its identity (its JSON, annotations aside).

use std::collections::{BTreeSet, HashMap};

use crate::document::schema::SchemaObject;
use crate::document::{child, Document, GenError};
use crate::names::{type_name, Namer};

use super::{Kind, Ty, TypeDef};

/// The declared types, and the names given so far.
pub struct Schemas<'d> {
    pub(super) document: &'d Document<'d>,
    /// Component pointer (`#/components/schemas/X`) → Rust name.
    pub(super) components: HashMap<String, String>,
    /// The declared types, components first in document order, then inline ones as met.
    pub defs: Vec<TypeDef>,
    namer: Namer,
    /// The `ferrapi-client` features the types need.
    pub features: BTreeSet<&'static str>,
    /// Map `anyOf: [number, string]` to a decimal.
    pub(super) decimals: bool,
    /// Inline schemas already declared, by their identity.
    inline: HashMap<String, String>,
}

const COMPONENTS: &str = "#/components/schemas";

impl<'d> Schemas<'d> {
    /// Every component schema of `document`, declared.
    pub fn new(document: &'d Document<'d>, decimals: bool) -> Result<Self, GenError> {
        let mut schemas = Schemas {
            document,
            components: HashMap::new(),
            defs: Vec::new(),
            namer: Namer::default(),
            features: BTreeSet::new(),
            decimals,
            inline: HashMap::new(),
        };
        let components = &document.api().components.schemas;
        for key in components.keys() {
            let name = schemas.namer.claim(&type_name(key));
            schemas.components.insert(child(COMPONENTS, key), name);
        }
        for (key, schema) in components {
            let pointer = child(COMPONENTS, key);
            let name = schemas.components[&pointer].clone();
            schemas.declare(&name, Some(key), schema, &pointer)?;
        }
        Ok(schemas)
    }

    /// A name for an inline type, unique among the declared ones.
    pub fn claim(&mut self, context: &str) -> String {
        self.namer.claim(&type_name(context))
    }

    /// The type already declared for an inline schema of this identity, if any.
    pub(super) fn declared_inline(&self, schema: &SchemaObject) -> Option<Ty> {
        self.inline
            .get(&schema.identity)
            .map(|name| Ty::Named(name.clone()))
    }

    /// A name for the inline `schema`, remembered for its identity.
    pub(super) fn claim_inline(&mut self, schema: &SchemaObject, context: &str) -> String {
        let name = self.claim(context);
        self.inline.insert(schema.identity.clone(), name.clone());
        name
    }

    /// The definition named `name`.
    pub fn def(&self, name: &str) -> Option<&TypeDef> {
        self.defs.iter().find(|def| def.name == name)
    }

    /// Declare `name` (documented as `schema`): its place in the order is taken now, before the
    /// types its members need.
    pub(super) fn push(
        &mut self,
        name: &str,
        key: Option<&str>,
        schema: Option<&SchemaObject>,
        pointer: &str,
        kind: Kind,
    ) -> usize {
        self.defs.push(TypeDef {
            name: name.to_owned(),
            doc: schema.and_then(SchemaObject::description),
            pointer: pointer.to_owned(),
            key: key.map(str::to_owned),
            kind,
        });
        self.defs.len() - 1
    }

    /// Declare `name` with the kind `make` finds (which may declare types of its own, after it).
    pub(super) fn push_with(
        &mut self,
        name: &str,
        key: Option<&str>,
        schema: Option<&SchemaObject>,
        pointer: &str,
        make: impl FnOnce(&mut Self) -> Result<Kind, GenError>,
    ) -> Result<(), GenError> {
        let index = self.push(name, key, schema, pointer, Kind::Alias(Ty::Value));
        let kind = make(self)?;
        self.defs[index].kind = kind;
        Ok(())
    }
}
