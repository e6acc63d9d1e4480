// A JSON body (a type deriving `Model`) beside a path parameter.

#[put("/item/{id}")]
async fn update_item(id: u32, item: Item) -> Json<Item> {
    let _ = id;
    Json(item)
}
