//! A route that pages (the route option `paged`): the `x-paging` extension its operation carries,
//! which generated clients turn into a stream of pages and items, and the build's check that the
//! route is what the extension promises.
//!
//! The extension, as the manual's "Pages" section gives its schema:
//! `"x-paging": {"style": "offset", "offset": "skip", "limit": "limit"}` — a `GET` whose `200`
//! answer is a JSON array, asked for the items `offset..offset + limit` of a list in a stable
//! order by two integer query parameters; an answer shorter than `limit` is the last page.
//!
//! Rules enforced here: the extension is written only for a route that declares `paged`, and an
//! app whose paged route lacks either query parameter, takes one that is not an integer, or
//! answers its `200` with anything but a JSON array does not build (`MistakeKind::Paging`): a
//! client that believed the extension would loop or lose items.

use serde_json::{json, Value};

/// The extension's name.
pub(crate) const EXTENSION: &str = "x-paging";

/// The extension of a route paged by the query parameters `offset` and `limit`.
pub(crate) fn extension(offset: &str, limit: &str) -> Value {
    json!({ "style": "offset", "offset": offset, "limit": limit })
}

/// What makes the finished `operation` (its parameters from its arguments, dependencies and
/// groups all present) break the promise of its `x-paging`, one sentence each; empty when it
/// keeps it or does not page.
pub(crate) fn problems(method: &str, operation: &Value) -> Vec<String> {
    let Some(paging) = operation.get(EXTENSION) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    if method != "GET" {
        problems.push(format!(
            "`paged` on a {method} route: only a GET is turned page by page"
        ));
    }
    for role in ["offset", "limit"] {
        let name = paging[role].as_str().unwrap_or_default();
        match query_parameter(operation, name) {
            None => problems.push(format!(
                "`paged` names `{name}` as its {role}, but the route takes no query parameter `{name}` (an argument or a dependency's)"
            )),
            Some(schema) if !is_integer(schema) => problems.push(format!(
                "`paged`'s {role} `{name}` is not an integer query parameter"
            )),
            Some(_) => {}
        }
    }
    let ok = &operation["responses"]["200"];
    let answer = &ok["content"]["application/json"]["schema"];
    if ok.is_null() {
        problems.push("`paged` needs the route to answer 200 (with the page, a JSON array)".to_owned());
    } else if answer["type"] != "array" {
        problems.push("`paged` needs the route's 200 answer to be a JSON array (`Json<Vec<T>>`)".to_owned());
    }
    problems
}

/// The schema of query parameter `name` of `operation`.
fn query_parameter<'a>(operation: &'a Value, name: &str) -> Option<&'a Value> {
    operation["parameters"]
        .as_array()?
        .iter()
        .find(|parameter| parameter["in"] == "query" && parameter["name"] == name)
        .map(|parameter| &parameter["schema"])
}

/// An integer schema, or an optional one (`anyOf` an integer and `null`).
fn is_integer(schema: &Value) -> bool {
    schema["type"] == "integer"
        || schema["anyOf"]
            .as_array()
            .is_some_and(|options| options.iter().any(|option| option["type"] == "integer"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn operation(parameters: Value, ok: Value) -> Value {
        json!({
            "parameters": parameters,
            "responses": { "200": ok },
            "x-paging": extension("skip", "limit"),
        })
    }

    fn array_answer() -> Value {
        json!({ "content": { "application/json": { "schema": { "type": "array", "items": {} } } } })
    }

    fn query(name: &str, schema: Value) -> Value {
        json!({ "name": name, "in": "query", "schema": schema })
    }

    #[test]
    fn a_route_that_keeps_the_promise_has_no_problem() {
        let integer = json!({ "type": "integer", "maximum": 100 });
        let optional = json!({ "anyOf": [{ "type": "integer" }, { "type": "null" }] });
        let op = operation(
            json!([query("skip", integer), query("limit", optional)]),
            array_answer(),
        );
        assert_eq!(problems("GET", &op), Vec::<String>::new());
        assert_eq!(problems("GET", &json!({ "responses": {} })), Vec::<String>::new());
    }

    #[test]
    fn each_broken_promise_is_named() {
        let op = operation(
            json!([
                query("skip", json!({ "type": "string" })),
                query("skip", json!({ "type": "integer" }))
            ]),
            json!({ "content": { "application/json": { "schema": { "type": "object" } } } }),
        );
        let found = problems("POST", &op);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].contains("POST"));
        assert!(found[1].contains("`skip` is not an integer"));
        assert!(found[2].contains("no query parameter `limit`"));
        assert!(found[3].contains("JSON array"));
        let header = json!([{ "name": "skip", "in": "header", "schema": { "type": "integer" } }, query("limit", json!({ "type": "integer" }))]);
        let found = problems("GET", &operation(header, json!(null)));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("no query parameter `skip`"));
        assert!(found[1].contains("answer 200"));
    }
}
