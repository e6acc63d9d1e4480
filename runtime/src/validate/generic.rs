//! Generic models (`#[derive(Model)] struct Page<T>`): what a parametrisation is called, and
//! what a field whose type is a type parameter reads.
//!
//! Rules enforced here:
//! - a parametrisation's title is pydantic's: the model's name, then its type arguments' Python
//!   names ([`JsonSchema::python_name`](super::JsonSchema::python_name)) in brackets, joined by
//!   `, ` (`Page[Item]`, `Pair[int, Item]`, `Page[Union[Item, NoneType]]`);
//! - its schema is registered once per parametrisation, under pydantic's key: the arguments
//!   joined by `,` alone (pydantic's core reference), then each character outside
//!   `[A-Za-z0-9.-_]` replaced by `_` and each `.` by `__` (`GenerateJsonSchema.normalize_name`):
//!   `Page[Item]` is `Page_Item_`, `Pair[str, Union[Item, NoneType]]` is
//!   `Pair_str_Union_Item__NoneType__`, as FastAPI names them;
//! - a field written with a bare type parameter (`second: U`) is required even when the argument
//!   is an `Option`, as pydantic reads the annotation `U`, which has no default.

use serde_json::{Map, Value};

use super::error::{Failure, Loc, LocItem, ValidationErrors};
use super::json::{field, FromJson};
use super::schema::SchemaRegistry;
use super::Constraint;

/// pydantic's title of model `model` parametrised with `arguments` (Python names): `Page[Item]`.
pub fn generic_title(model: &str, arguments: &[String]) -> String {
    format!("{model}[{}]", arguments.join(", "))
}

/// The `components.schemas` key of a schema titled `title`: `Page[Item]` → `Page_Item_`.
fn schema_key(title: &str) -> String {
    let mut key = String::with_capacity(title.len());
    for c in title.chars() {
        match c {
            '.' => key.push_str("__"),
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' => key.push(c),
            _ => key.push('_'),
        }
    }
    key
}

/// Register the schema of model `model` parametrised with `arguments` (built by `build`, given
/// the title) once, under pydantic's key, and return its `$ref`.
pub fn generic_schema(
    model: &str,
    arguments: &[String],
    registry: &mut SchemaRegistry,
    build: impl FnOnce(&mut SchemaRegistry, &str) -> Value,
) -> Value {
    let key = schema_key(&format!("{model}[{}]", arguments.join(",")));
    let title = generic_title(model, arguments);
    registry.named(&key, |registry| build(registry, &title))
}

/// Validate field `key` whose type is a type parameter: as [`field`], but an absent key without
/// a default is `missing` whatever the argument (`Option` included).
pub fn param_field<T: FromJson>(
    object: &Map<String, Value>,
    key: &'static str,
    default: Option<fn() -> T>,
    constraints: &[Constraint],
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<T> {
    if default.is_none() && !object.contains_key(key) {
        loc.push(LocItem::Static(key));
        // pydantic reports the whole model input for a missing field.
        errors.push(Failure::new("missing", "Field required").at(loc.clone(), Value::Object(object.clone())));
        loc.pop();
        return None;
    }
    field(object, key, default, constraints, loc, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_keys_are_pydantics() {
        // Recorded from pydantic 2.14 (tests/fastapi/generics_observed.json, "names").
        for (arguments, title, key) in [
            (&["Item"][..], "Page[Item]", "Page_Item_"),
            (&["Page[Item]"], "Page[Page[Item]]", "Page_Page_Item__"),
            (&["list[int]"], "Page[list[int]]", "Page_list_int__"),
            (
                &["Union[Item, NoneType]"],
                "Page[Union[Item, NoneType]]",
                "Page_Union_Item__NoneType__",
            ),
        ] {
            let arguments: Vec<String> = arguments.iter().map(|a| (*a).to_owned()).collect();
            let mut registry = SchemaRegistry::new();
            let reference = generic_schema("Page", &arguments, &mut registry, |_, t| Value::from(t));
            assert_eq!(reference["$ref"], format!("#/components/schemas/{key}"));
            assert_eq!(registry.into_components()[key], title);
        }
        // Two arguments: `, ` in the title, `,` in the key.
        let arguments = ["str".to_owned(), "Union[Item, NoneType]".to_owned()];
        assert_eq!(
            generic_title("Pair", &arguments),
            "Pair[str, Union[Item, NoneType]]"
        );
        let mut registry = SchemaRegistry::new();
        let reference = generic_schema("Pair", &arguments, &mut registry, |_, _| Value::Null);
        assert_eq!(
            reference["$ref"],
            "#/components/schemas/Pair_str_Union_Item__NoneType__"
        );
        assert_eq!(schema_key("a.b"), "a__b");
    }

    #[test]
    fn type_arguments_have_their_python_names() {
        use super::super::JsonSchema;
        use std::collections::HashMap;
        // Recorded from pydantic 2.14: `Page[int].__name__` and so on.
        assert_eq!(<i64 as JsonSchema>::python_name(), "int");
        assert_eq!(<u8 as JsonSchema>::python_name(), "int");
        assert_eq!(<f32 as JsonSchema>::python_name(), "float");
        assert_eq!(<bool as JsonSchema>::python_name(), "bool");
        assert_eq!(
            <Vec<Option<String>> as JsonSchema>::python_name(),
            "list[Union[str, NoneType]]"
        );
        assert_eq!(
            <HashMap<String, f64> as JsonSchema>::python_name(),
            "dict[str, float]"
        );
        assert_eq!(<Value as JsonSchema>::python_name(), "Any");
        assert_eq!(
            <Map<String, Value> as JsonSchema>::python_name(),
            "dict[str, Any]"
        );
        assert_eq!(<std::net::IpAddr as JsonSchema>::python_name(), "IPvAnyAddress");
        #[cfg(feature = "uuid")]
        assert_eq!(<uuid::Uuid as JsonSchema>::python_name(), "UUID");
        #[cfg(feature = "datetime")]
        assert_eq!(<chrono::NaiveDate as JsonSchema>::python_name(), "date");
        #[cfg(feature = "datetime")]
        assert_eq!(
            <crate::validate::Duration as JsonSchema>::python_name(),
            "timedelta"
        );
        #[cfg(feature = "decimal")]
        assert_eq!(<rust_decimal::Decimal as JsonSchema>::python_name(), "Decimal");
        // `Page[Annotated[date, Strict()]]`: its title, and pydantic 2.14's key for it.
        #[cfg(feature = "datetime")]
        {
            let argument = <crate::validate::Strict<chrono::NaiveDate> as JsonSchema>::python_name();
            assert_eq!(argument, "Annotated[date, Strict(strict=True)]");
            assert_eq!(
                schema_key(&format!("Page[{argument}]")),
                "Page_Annotated_date__Strict_strict_True___"
            );
        }
        // The default: the Rust name without its path, a derived model's class name.
        struct Item;
        impl JsonSchema for Item {
            fn schema(_registry: &mut SchemaRegistry) -> Value {
                Value::Null
            }
        }
        assert_eq!(<Item as JsonSchema>::python_name(), "Item");
    }
}
