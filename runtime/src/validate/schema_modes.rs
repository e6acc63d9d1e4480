//! Input and output schemas: what a named type is called in the document when the way it is read
//! (a body, a parameter) and the way it is written (a response) have different schemas, as
//! pydantic decides it (`GenerateJsonSchema`'s definitions keyed by name and mode, remapped once
//! all are built).
//!
//! Rules enforced here:
//! - a named type registered in one mode only keeps its plain name, whatever that mode's schema;
//! - one registered in both modes keeps its plain name when the two schemas are the same once
//!   their references are resolved, and is otherwise `Name-Input` and `Name-Output`; a type that
//!   refers to a split type therefore splits too, decided again until nothing changes (pydantic's
//!   fixpoint), so a type split only because of what it contains is found whatever the order;
//! - while the document is built, a reference made in output mode carries [`OUTPUT_MARK`], which
//!   no component name can contain (OpenAPI allows `[A-Za-z0-9._-]`); the final names replace
//!   every such reference, in `$ref` and in a discriminator's `mapping`, in the components and in
//!   the operations alike;
//! - this runs once, when the document is assembled: nothing of it is on a request's path.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value};

/// Which way a schema describes its type: as the API reads it (request bodies, parameters:
/// pydantic's "validation" mode) or as the API writes it (responses: "serialization" mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum SchemaMode {
    /// What comes in: bodies and parameters (the default).
    #[default]
    Input,
    /// What goes out: responses.
    Output,
}

/// The prefix of a reference to a component.
pub(super) const PREFIX: &str = "#/components/schemas/";

/// The end of a reference made in output mode while the document is built.
pub(super) const OUTPUT_MARK: &str = "~output";

/// The reference to `name` registered in `mode`, as it stands until the names are decided.
pub(super) fn provisional_ref(name: &str, mode: SchemaMode) -> String {
    match mode {
        SchemaMode::Input => format!("{PREFIX}{name}"),
        SchemaMode::Output => format!("{PREFIX}{name}{OUTPUT_MARK}"),
    }
}

/// The registered name a provisional reference's last segment stands for (`Cat~output` → `Cat`).
pub(super) fn base_name(name: &str) -> &str {
    name.strip_suffix(OUTPUT_MARK).unwrap_or(name)
}

/// The final references: provisional reference → the one the document shows.
#[derive(Debug, Default)]
pub(super) struct Names {
    refs: HashMap<String, String>,
}

impl Names {
    /// Replace the provisional references in `value` (in `$ref`, and in a discriminator's
    /// `mapping`) by their final ones.
    pub(super) fn rewrite(&self, value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, child) in map.iter_mut() {
                    match (key.as_str(), &mut *child) {
                        ("$ref", Value::String(target)) => self.replace(target),
                        ("discriminator", Value::Object(discriminator)) => {
                            if let Some(Value::Object(mapping)) = discriminator.get_mut("mapping") {
                                for target in mapping.values_mut() {
                                    if let Value::String(target) = target {
                                        self.replace(target);
                                    }
                                }
                            }
                        }
                        _ => self.rewrite(child),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.rewrite(item)),
            _ => {}
        }
    }

    fn replace(&self, target: &mut String) {
        if let Some(new) = self.refs.get(target.as_str()) {
            target.clone_from(new);
        }
    }
}

/// Decide the name of every registered schema (keyed by name and mode) and return the components
/// under their final names, their references rewritten, sorted by name (as FastAPI sorts them),
/// with the [`Names`] that rewrite the operations' references.
pub(super) fn resolve(schemas: BTreeMap<(String, SchemaMode), Value>) -> (Map<String, Value>, Names) {
    // The keys are sorted by name, then mode: a name registered both ways comes twice in a row.
    let mut both: Vec<String> = Vec::new();
    let mut previous: Option<&str> = None;
    for (name, _) in schemas.keys() {
        if previous == Some(name.as_str()) {
            both.push(name.clone());
        }
        previous = Some(name);
    }
    let mut split: HashSet<String> = HashSet::new();
    loop {
        let names = names(&schemas, &split);
        let newly: Vec<String> = both
            .iter()
            .filter(|name| !split.contains(*name))
            .filter(|name| {
                let resolved = |mode| {
                    let mut schema = schemas.get(&((*name).clone(), mode)).cloned().unwrap_or_default();
                    names.rewrite(&mut schema);
                    schema
                };
                resolved(SchemaMode::Input) != resolved(SchemaMode::Output)
            })
            .cloned()
            .collect();
        if newly.is_empty() {
            break;
        }
        split.extend(newly);
    }
    let names = names(&schemas, &split);
    let mut components = BTreeMap::new();
    for ((name, mode), mut schema) in schemas {
        let shown = shown_name(&name, mode, split.contains(name.as_str()));
        names.rewrite(&mut schema);
        // A type the same both ways is shown once; its input schema stands (they are equal).
        components.entry(shown).or_insert(schema);
    }
    (components.into_iter().collect(), names)
}

/// The name shown for `name` registered in `mode`.
fn shown_name(name: &str, mode: SchemaMode, split: bool) -> String {
    match (split, mode) {
        (false, _) => name.to_owned(),
        (true, SchemaMode::Input) => format!("{name}-Input"),
        (true, SchemaMode::Output) => format!("{name}-Output"),
    }
}

/// The references of every registered schema when the names in `split` are split.
fn names(schemas: &BTreeMap<(String, SchemaMode), Value>, split: &HashSet<String>) -> Names {
    let refs = schemas
        .keys()
        .map(|(name, mode)| {
            let shown = shown_name(name, *mode, split.contains(name.as_str()));
            (provisional_ref(name, *mode), format!("{PREFIX}{shown}"))
        })
        .collect();
    Names { refs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reference(name: &str, mode: SchemaMode) -> Value {
        json!({ "$ref": provisional_ref(name, mode) })
    }

    fn registered(entries: Vec<(&str, SchemaMode, Value)>) -> BTreeMap<(String, SchemaMode), Value> {
        entries
            .into_iter()
            .map(|(name, mode, schema)| ((name.to_owned(), mode), schema))
            .collect()
    }

    const IN: SchemaMode = SchemaMode::Input;
    const OUT: SchemaMode = SchemaMode::Output;

    #[test]
    fn one_mode_keeps_the_plain_name() {
        let (components, names) = resolve(registered(vec![
            ("Payment", IN, json!({"in": true})),
            ("Refund", OUT, json!({"out": true})),
        ]));
        assert_eq!(
            Value::Object(components),
            json!({"Payment": {"in": true}, "Refund": {"out": true}})
        );
        let mut operation = json!([reference("Payment", IN), reference("Refund", OUT)]);
        names.rewrite(&mut operation);
        assert_eq!(
            operation,
            json!([{"$ref": "#/components/schemas/Payment"}, {"$ref": "#/components/schemas/Refund"}])
        );
    }

    #[test]
    fn the_same_schema_both_ways_is_one_component() {
        let (components, names) = resolve(registered(vec![
            ("Plain", IN, json!({"type": "object"})),
            ("Plain", OUT, json!({"type": "object"})),
        ]));
        assert_eq!(Value::Object(components), json!({"Plain": {"type": "object"}}));
        let mut operation = json!({"in": reference("Plain", IN), "out": reference("Plain", OUT)});
        names.rewrite(&mut operation);
        assert_eq!(operation["in"], operation["out"]);
        assert_eq!(operation["out"], json!({"$ref": "#/components/schemas/Plain"}));
    }

    #[test]
    fn different_schemas_split_and_so_does_what_contains_them() {
        // Order refers to Cost; Order's own keywords are the same both ways, Cost's are not.
        // Order comes first in the map, so the fixpoint has to come back for it.
        let order =
            |mode| json!({"properties": {"cost": reference("Cost", mode), "note": reference("Plain", mode)}});
        let (components, names) = resolve(registered(vec![
            ("Order", IN, order(IN)),
            ("Order", OUT, order(OUT)),
            ("Cost", IN, json!({"type": ["number", "string"]})),
            ("Cost", OUT, json!({"type": "string"})),
            ("Plain", IN, json!({"type": "object"})),
            ("Plain", OUT, json!({"type": "object"})),
        ]));
        let keys: Vec<&String> = components.keys().collect();
        assert_eq!(
            keys,
            [
                "Cost-Input",
                "Cost-Output",
                "Order-Input",
                "Order-Output",
                "Plain"
            ]
        );
        assert_eq!(
            components["Order-Output"],
            json!({"properties": {
                "cost": {"$ref": "#/components/schemas/Cost-Output"},
                "note": {"$ref": "#/components/schemas/Plain"}
            }})
        );
        assert_eq!(
            components["Order-Input"]["properties"]["cost"],
            json!({"$ref": "#/components/schemas/Cost-Input"})
        );
        let mut body = reference("Order", IN);
        names.rewrite(&mut body);
        assert_eq!(body, json!({"$ref": "#/components/schemas/Order-Input"}));
    }

    #[test]
    fn a_recursive_type_splits_onto_itself() {
        let tree = |mode, leaf: &str| json!({"properties": {"children": {"items": reference("Tree", mode)}, "v": {"type": leaf}}});
        let (components, _) = resolve(registered(vec![
            ("Tree", IN, tree(IN, "number")),
            ("Tree", OUT, tree(OUT, "string")),
        ]));
        assert_eq!(
            components["Tree-Output"]["properties"]["children"]["items"],
            json!({"$ref": "#/components/schemas/Tree-Output"})
        );
        // The same tree with the same leaf both ways is one component referring to itself.
        let (components, _) = resolve(registered(vec![
            ("Tree", IN, tree(IN, "string")),
            ("Tree", OUT, tree(OUT, "string")),
        ]));
        assert_eq!(
            components["Tree"]["properties"]["children"]["items"],
            json!({"$ref": "#/components/schemas/Tree"})
        );
    }

    #[test]
    fn a_discriminator_mapping_follows_the_names() {
        let union = |mode| {
            let target = provisional_ref("Cat", mode);
            json!({"oneOf": [{"$ref": target}], "discriminator": {"propertyName": "kind", "mapping": {"cat": target}}})
        };
        let (components, names) = resolve(registered(vec![
            ("Cat", IN, json!({"v": "in"})),
            ("Cat", OUT, json!({"v": "out"})),
        ]));
        assert!(components.contains_key("Cat-Output"));
        let mut response = union(OUT);
        names.rewrite(&mut response);
        assert_eq!(
            response["discriminator"]["mapping"]["cat"],
            "#/components/schemas/Cat-Output"
        );
        assert_eq!(response["oneOf"][0]["$ref"], "#/components/schemas/Cat-Output");
    }
}
