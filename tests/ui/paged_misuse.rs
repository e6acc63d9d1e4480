use ferrapi::prelude::*;

// A page is read: `paged` on a POST.
#[post("/items", paged)]
async fn create(item: Json<Value>) -> Json<Value> {
    item
}

// The same name for both parameters, and an empty one.
#[get("/a", paged(offset = "n", limit = "n"))]
async fn same() -> Json<Vec<u8>> {
    Json(vec![])
}

#[get("/b", paged(offset = ""))]
async fn empty() -> Json<Vec<u8>> {
    Json(vec![])
}

// An option `paged` does not take.
#[get("/c", paged(size = "n"))]
async fn unknown() -> Json<Vec<u8>> {
    Json(vec![])
}

fn main() {}
