//! A typed CRUD API over an in-memory store.
//!
//! Shows: shared state (`State<Store>` holding a `Mutex<BTreeMap>`), a `#[derive(Model)]` JSON
//! body with constraints and a default, paging with defaulted, constrained query parameters, a 404
//! `HttpError`, `201 Created` from a POST and `204 No Content` from a DELETE.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example crud
//! ```
//!
//! then open <http://127.0.0.1:8000/items> (an empty list at first). `PORT` picks another port,
//! `RUST_LOG` the log level (default `info`). Stop it with Ctrl-C.
//!
//! A session from a fresh start (real output; with `curl -i` only the status line is kept):
//!
//! ```text
//! $ curl -i -X POST http://127.0.0.1:8000/items -H 'content-type: application/json' \
//!        -d '{"name":"Hammer","price":12.5}'
//! HTTP/1.1 201 Created
//! {"id":1,"name":"Hammer","description":null,"price":12.5,"quantity":0}
//!
//! $ curl -X POST http://127.0.0.1:8000/items -H 'content-type: application/json' \
//!        -d '{"name":"Saw","description":"Cuts wood","price":20,"quantity":3}'
//! {"id":2,"name":"Saw","description":"Cuts wood","price":20.0,"quantity":3}
//!
//! $ curl 'http://127.0.0.1:8000/items?skip=1&limit=5'
//! [{"id":2,"name":"Saw","description":"Cuts wood","price":20.0,"quantity":3}]
//!
//! $ curl http://127.0.0.1:8000/items/1
//! {"id":1,"name":"Hammer","description":null,"price":12.5,"quantity":0}
//!
//! $ curl -i http://127.0.0.1:8000/items/9
//! HTTP/1.1 404 Not Found
//! {"detail":"Item 9 not found"}
//!
//! $ curl -X PUT http://127.0.0.1:8000/items/1 -H 'content-type: application/json' \
//!        -d '{"name":"Claw hammer","price":14,"quantity":2}'
//! {"id":1,"name":"Claw hammer","description":null,"price":14.0,"quantity":2}
//!
//! $ curl -i -X DELETE http://127.0.0.1:8000/items/2
//! HTTP/1.1 204 No Content
//!
//! $ curl -X POST http://127.0.0.1:8000/items -H 'content-type: application/json' \
//!        -d '{"name":"","price":-1}'
//! {"detail":[{"type":"string_too_short","loc":["body","name"],"msg":"String should have at least 1 character","input":"","ctx":{"min_length":1}},{"type":"greater_than","loc":["body","price"],"msg":"Input should be greater than 0","input":-1,"ctx":{"gt":0}}]}
//!
//! $ curl 'http://127.0.0.1:8000/items?skip=-1&limit=0'
//! {"detail":[{"type":"greater_than_equal","loc":["query","skip"],"msg":"Input should be greater than or equal to 0","input":"-1","ctx":{"ge":0}},{"type":"greater_than_equal","loc":["query","limit"],"msg":"Input should be greater than or equal to 1","input":"0","ctx":{"ge":1}}]}
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};

use ferrapi::prelude::*;
use serde::Serialize;

/// What a client sends to create or replace an item.
#[derive(Model)]
pub struct NewItem {
    /// The item's name, 1 to 50 characters.
    #[min_length(1)]
    #[max_length(50)]
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// The unit price; must be positive.
    #[gt(0)]
    pub price: f64,
    /// Units in stock; not negative, 0 when left out.
    #[ge(0)]
    #[default(0)]
    pub quantity: i64,
}

/// A stored item, as the API returns it. `Model` gives it the JSON Schema that documents the
/// responses in the OpenAPI document.
#[derive(Model, Serialize, Clone, Debug)]
pub struct Item {
    /// The id the store assigned.
    pub id: u64,
    /// The item's name.
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// The unit price.
    pub price: f64,
    /// Units in stock.
    pub quantity: i64,
}

impl Item {
    fn new(id: u64, new: NewItem) -> Self {
        Item {
            id,
            name: new.name,
            description: new.description,
            price: new.price,
            quantity: new.quantity,
        }
    }
}

/// The in-memory store, shared by every request through `State<Store>`.
#[derive(Default)]
pub struct Store {
    items: Mutex<Items>,
}

#[derive(Default)]
struct Items {
    next_id: u64,
    by_id: BTreeMap<u64, Item>,
}

impl Store {
    /// Lock the items. A handler that panicked while holding the lock left the map consistent
    /// (every update is a single insert or remove), so a poisoned lock is still usable.
    fn items(&self) -> std::sync::MutexGuard<'_, Items> {
        self.items.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn not_found(id: u64) -> HttpError {
    HttpError::not_found(format!("Item {id} not found"))
}

/// List items in id order, `limit` at a time after skipping `skip`.
#[get("/items", tags("items"))]
pub async fn list_items(
    store: State<Store>,
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(10)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
) -> Json<Vec<Item>> {
    // Signed, so that `skip=-1` is reported as "greater than or equal to 0" like FastAPI does;
    // both are validated non-negative before the handler runs.
    let (skip, limit) = (skip as usize, limit as usize);
    let items = store.items();
    Json(items.by_id.values().skip(skip).take(limit).cloned().collect())
}

/// Read one item.
#[get("/items/{id}", tags("items"), responses(404 = "No item has this id"))]
pub async fn read_item(store: State<Store>, id: u64) -> Result<Json<Item>, HttpError> {
    store
        .items()
        .by_id
        .get(&id)
        .cloned()
        .map(Json)
        .ok_or_else(|| not_found(id))
}

/// Create an item; the answer is `201 Created` (the route's `status = 201`) with the stored item
/// and its new id.
#[post("/items", status = 201, tags("items"))]
pub async fn create_item(store: State<Store>, item: NewItem) -> Json<Item> {
    let mut items = store.items();
    items.next_id += 1;
    let id = items.next_id;
    let item = Item::new(id, item);
    items.by_id.insert(id, item.clone());
    Json(item)
}

/// Replace an existing item.
#[put("/items/{id}", tags("items"), responses(404 = "No item has this id"))]
pub async fn update_item(store: State<Store>, id: u64, item: NewItem) -> Result<Json<Item>, HttpError> {
    let mut items = store.items();
    let slot = items.by_id.get_mut(&id).ok_or_else(|| not_found(id))?;
    *slot = Item::new(id, item);
    Ok(Json(slot.clone()))
}

/// Delete an item; the answer is `204 No Content` (the route's `status = 204`).
#[delete("/items/{id}", status = 204, tags("items"), responses(404 = "No item has this id"))]
pub async fn delete_item(store: State<Store>, id: u64) -> Result<(), HttpError> {
    match store.items().by_id.remove(&id) {
        Some(_) => Ok(()),
        None => Err(not_found(id)),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let _log = ferrapi::logging::init();
    let app = App::new()
        .title("crud example")
        .state(Store::default())
        .routes(routes![
            list_items,
            read_item,
            create_item,
            update_item,
            delete_item
        ]);
    // Reads `PORT` (default 8000), binds 127.0.0.1 and serves until Ctrl-C.
    ferrapi_examples::serve(app).await
}
