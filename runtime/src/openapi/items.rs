//! The documentation of a streamed answer's items: JSON lines of a model, and Server-Sent Events
//! whose data is a model's JSON.
//!
//! Rules enforced here:
//! - each item's schema is written under `x-itemSchema` in the answer's media type object. OpenAPI
//!   3.2 calls it `itemSchema` (on sequential media types: `application/jsonl`,
//!   `text/event-stream`, ...), but our documents are 3.1, whose Media Type Object is closed but
//!   for `x-` extensions: `itemSchema` there fails the specification's own schema
//!   (openapi-spec-validator refuses it; FastAPI writes it anyway). So the extension, with 3.2's
//!   meaning and shapes, and the generated client and the compatibility check read both names;
//!   a document moved to 3.2 renames the key, nothing else;
//! - JSON lines carry only the item schema: 3.1 gives `schema` no meaning for a sequence (3.2
//!   reads it as the array of all items, which a 3.1 tool would take for one JSON array);
//! - events keep `schema: {"type": "string"}` (true of the body in 3.1's terms, and what an
//!   untyped `Sse` writes), and their item is an event as FastAPI's `EventSourceResponse`
//!   documents it: an object with `data` (a string whose `contentMediaType` is JSON and whose
//!   `contentSchema` is the model), `event`, `id` and `retry`;
//! - the model is a schema of the registry like a JSON body's (a `$ref` to the version's
//!   component, in output mode), so each version's document has that version's shape.

use serde_json::{json, Value};

/// The media type of JSON lines (FastAPI's, and the first the generated client reads).
pub(crate) const JSON_LINES: &str = "application/jsonl";

/// The key of an item schema in a 3.1 media type object (3.2's `itemSchema`).
const ITEM_SCHEMA: &str = "x-itemSchema";

/// The media type object of JSON lines of `item` (none: items of any shape).
pub(crate) fn json_lines(item: Option<Value>) -> Value {
    match item {
        Some(item) => json!({ ITEM_SCHEMA: item }),
        None => json!({}),
    }
}

/// The media type object of events whose data is `data`'s JSON (none: any text).
pub(crate) fn json_events(data: Option<Value>) -> Value {
    let text = json!({ "type": "string" });
    let Some(data) = data else {
        return json!({ "schema": text });
    };
    json!({
        "schema": text,
        ITEM_SCHEMA: {
            "type": "object",
            "properties": {
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": data,
                },
                "event": { "type": "string" },
                "id": { "type": "string" },
                "retry": { "type": "integer", "minimum": 0 },
            },
            "required": ["data"],
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event's item is FastAPI's, key for key and in its order (its document of
    /// `EventSourceResponse`, client/tests/documents/fastapi_client.json, `/ticks`), under our key.
    #[test]
    fn an_events_item_is_written_as_fastapi_writes_it() {
        let tick = json!({ "$ref": "#/components/schemas/Tick" });
        let fastapi = r##"{"type":"object","properties":{"data":{"type":"string","contentMediaType":"application/json","contentSchema":{"$ref":"#/components/schemas/Tick"}},"event":{"type":"string"},"id":{"type":"string"},"retry":{"type":"integer","minimum":0}},"required":["data"]}"##;
        let media = json_events(Some(tick.clone()));
        assert_eq!(media["schema"], json!({ "type": "string" }));
        assert_eq!(media["x-itemSchema"].to_string(), fastapi);
        assert_eq!(json_events(None), json!({ "schema": { "type": "string" } }));
        assert_eq!(json_lines(Some(tick.clone())), json!({ "x-itemSchema": tick }));
        assert_eq!(json_lines(None), json!({}));
    }
}
