//! Validation errors: what a client gets back when a request does not fit a route's signature.
//!
//! Every mistake in a request is reported at once, as a `422 Unprocessable Entity` with FastAPI's
//! (pydantic v2's) body: `{"detail":[{"type","loc","msg","input"[,"ctx"]}, ...]}`, path errors
//! first, then query, then body.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example validation
//! ```
//!
//! then open <http://127.0.0.1:8000/items/abc> to see a first error. `PORT` picks another port,
//! `RUST_LOG` the log level (default `info`). Stop it with Ctrl-C.
//!
//! The requests below and the bodies they produce (real output):
//!
//! ```text
//! # An integer path parameter that is not an integer:
//! $ curl http://127.0.0.1:8000/items/abc
//! {"detail":[{"type":"int_parsing","loc":["path","item_id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"}]}
//!
//! # A required query parameter left out:
//! $ curl http://127.0.0.1:8000/search
//! {"detail":[{"type":"missing","loc":["query","q"],"msg":"Field required","input":null}]}
//!
//! # A constrained query parameter out of range, and one too short:
//! $ curl 'http://127.0.0.1:8000/search?q=a&size=500'
//! {"detail":[{"type":"string_too_short","loc":["query","q"],"msg":"String should have at least 2 characters","input":"a","ctx":{"min_length":2}},{"type":"less_than_equal","loc":["query","size"],"msg":"Input should be less than or equal to 100","input":"500","ctx":{"le":100}}]}
//!
//! # A value that is not one of an enum's values:
//! $ curl http://127.0.0.1:8000/orders/hold
//! {"detail":[{"type":"enum","loc":["path","side"],"msg":"Input should be 'buy' or 'sell'","input":"hold","ctx":{"expected":"'buy' or 'sell'"}}]}
//!
//! # A JSON body with a missing field, a wrong type and a broken constraint:
//! $ curl -X POST http://127.0.0.1:8000/items -H 'content-type: application/json' \
//!        -d '{"price":"cheap","quantity":-2}'
//! {"detail":[{"type":"missing","loc":["body","name"],"msg":"Field required","input":{"price":"cheap","quantity":-2}},{"type":"float_parsing","loc":["body","price"],"msg":"Input should be a valid number, unable to parse string as a number","input":"cheap"},{"type":"greater_than_equal","loc":["body","quantity"],"msg":"Input should be greater than or equal to 0","input":-2,"ctx":{"ge":0}}]}
//!
//! # No body at all:
//! $ curl -X POST http://127.0.0.1:8000/items
//! {"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}
//!
//! # Invalid JSON (the number is the character offset of the error):
//! $ curl -X POST http://127.0.0.1:8000/items -H 'content-type: application/json' -d '{"name":'
//! {"detail":[{"type":"json_invalid","loc":["body",8],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}
//!
//! # Path, query and body errors together, in that order:
//! $ curl -X PUT 'http://127.0.0.1:8000/items/x?copies=two' -H 'content-type: application/json' -d '[]'
//! {"detail":[{"type":"int_parsing","loc":["path","item_id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"},{"type":"int_parsing","loc":["query","copies"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"two"},{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":[]}]}
//! ```
//!
//! Valid requests get a 200: `curl http://127.0.0.1:8000/items/7` answers `{"item_id":7}`.

use std::process::ExitCode;

use ferrapi::prelude::*;

/// A side of an order; only the exact strings `buy` and `sell` are accepted.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Buy at the ask.
    #[value("buy")]
    Buy,
    /// Sell at the bid.
    #[value("sell")]
    Sell,
}

/// An item to create: every field is checked, and every failure reported.
#[derive(Model, Debug)]
pub struct NewItem {
    /// Required, at least one character.
    #[min_length(1)]
    pub name: String,
    /// Required, a number.
    pub price: f64,
    /// Not negative; 0 when left out.
    #[ge(0)]
    #[default(0)]
    pub quantity: i64,
}

/// An integer path parameter: `/items/abc` is `int_parsing`.
#[get("/items/{item_id}")]
pub async fn read_item(item_id: i64) -> Json<Value> {
    Json(json!({ "item_id": item_id }))
}

/// A required query parameter (`q`) and a constrained, defaulted one (`size`, 1 to 100).
#[get("/search")]
pub async fn search(
    #[min_length(2)] q: String,
    #[default(10)]
    #[ge(1)]
    #[le(100)]
    size: i64,
) -> Json<Value> {
    Json(json!({ "q": q, "size": size }))
}

/// A string-enum path parameter: anything but `buy` or `sell` is `enum`.
#[get("/orders/{side}")]
pub async fn order(side: Side) -> Json<Value> {
    Json(json!({ "side": side }))
}

/// A JSON body model.
#[post("/items")]
pub async fn create_item(item: NewItem) -> Json<Value> {
    Json(json!({ "name": item.name, "price": item.price, "quantity": item.quantity }))
}

/// Path, query and body at once, to show the order errors are reported in.
#[put("/items/{item_id}")]
pub async fn replace_item(
    item_id: i64,
    #[default(1)]
    #[ge(1)]
    copies: i64,
    item: NewItem,
) -> Json<Value> {
    Json(json!({ "item_id": item_id, "copies": copies, "name": item.name }))
}

#[tokio::main]
async fn main() -> ExitCode {
    let _log = ferrapi::logging::init();
    let app = App::new().title("validation example").routes(routes![
        read_item,
        search,
        order,
        create_item,
        replace_item
    ]);
    // Reads `PORT` (default 8000), binds 127.0.0.1 and serves until Ctrl-C.
    ferrapi_examples::serve(app).await
}
