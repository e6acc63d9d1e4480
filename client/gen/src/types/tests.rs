//! The mapping of schemas to Rust types.

use serde_json::{json, Value};

use super::{Kind, Schemas, Ty};
use crate::document::schema::Schema;
use crate::document::{Document, GenError};

fn with_components(components: Value) -> Value {
    json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": components}})
}

fn ty_of(schema: Value) -> Result<Ty, GenError> {
    let root = with_components(json!({}));
    let document = Document::new(&root).unwrap();
    let mut schemas = Schemas::new(&document, true).unwrap();
    let schema = Schema::read(&schema, "#/x")?;
    schemas.ty(&schema, "#/x", "Ctx")
}

#[test]
fn scalars_and_formats() {
    assert_eq!(ty_of(json!({"type": "string"})).unwrap(), Ty::String);
    assert_eq!(
        ty_of(json!({"type": "string", "format": "date-time"})).unwrap(),
        Ty::DateTime
    );
    assert_eq!(
        ty_of(json!({"type": "string", "format": "email"})).unwrap(),
        Ty::String
    );
    assert_eq!(
        ty_of(json!({"type": "integer", "format": "uint8"})).unwrap(),
        Ty::Int("u8")
    );
    assert_eq!(ty_of(json!({"type": "integer"})).unwrap(), Ty::Int("i64"));
    assert_eq!(ty_of(json!({})).unwrap(), Ty::Value);
    assert_eq!(
        ty_of(json!({"type": "array", "items": {"type": "integer"}})).unwrap(),
        Ty::Vec(Box::new(Ty::Int("i64")))
    );
    assert_eq!(
        ty_of(json!({"type": "object", "additionalProperties": {"type": "integer"}})).unwrap(),
        Ty::Map(Box::new(Ty::Int("i64")))
    );
}

#[test]
fn nullable_and_decimal() {
    assert_eq!(
        ty_of(json!({"anyOf": [{"type": "string"}, {"type": "null"}]})).unwrap(),
        Ty::Option(Box::new(Ty::String))
    );
    assert_eq!(
        ty_of(json!({"type": ["integer", "null"]})).unwrap(),
        Ty::Option(Box::new(Ty::Int("i64")))
    );
    assert_eq!(
        ty_of(json!({"anyOf": [{"type": "number"}, {"type": "string"}, {"type": "null"}]})).unwrap(),
        Ty::Option(Box::new(Ty::Decimal))
    );
}

#[test]
fn unmappable_constructs_name_their_pointer() {
    assert_eq!(
        ty_of(json!({"not": {"type": "string"}})).unwrap_err(),
        GenError::at("#/x", "`not` has no Rust type")
    );
    assert_eq!(ty_of(json!(false)).unwrap_err().pointer, "#/x");
    assert_eq!(
        ty_of(json!({"type": "array", "prefixItems": [{"type": "integer"}]}))
            .unwrap_err()
            .pointer,
        "#/x"
    );
}

#[test]
fn components_become_declared_types() {
    let root = with_components(json!({
        "Cat": {"type": "object", "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}, "required": ["kind", "lives"]},
        "Dog": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["dog"]}, "name": {"type": "string"}}, "required": ["kind"]},
        "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat", "dog": "#/components/schemas/Dog"}}},
        "Side": {"type": "string", "enum": ["buy", "sell"]},
        "Page_Item_": {"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/Side"}}}},
    }));
    let document = Document::new(&root).unwrap();
    let schemas = Schemas::new(&document, true).unwrap();
    let names: Vec<&str> = schemas.defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        ["Cat", "CatKind", "Dog", "DogKind", "Pet", "Side", "PageItem"]
    );
    let Kind::Union { variants, tag } = &schemas.def("Pet").unwrap().kind else {
        panic!()
    };
    assert_eq!(tag.as_deref(), Some("kind"));
    assert_eq!(
        variants
            .iter()
            .map(|v| (v.name.as_str(), v.tag.as_deref()))
            .collect::<Vec<_>>(),
        [("Cat", Some("cat")), ("Dog", Some("dog"))]
    );
    let Kind::Struct { fields, .. } = &schemas.def("Dog").unwrap().kind else {
        panic!()
    };
    assert_eq!(
        (fields[1].name.as_str(), fields[1].optional, fields[1].skip_none),
        ("name", true, true)
    );
}

#[test]
fn a_discriminated_variant_without_its_tag_is_an_error() {
    let root = with_components(json!({
        "Cat": {"type": "object", "properties": {"lives": {"type": "integer"}}},
        "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {"propertyName": "kind"}},
        "Pets": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"type": "string"}], "discriminator": {"propertyName": "kind"}},
    }));
    let document = Document::new(&root).unwrap();
    let error = Schemas::new(&document, true).err().unwrap();
    assert_eq!(error.pointer, "#/components/schemas/Cat");
}
