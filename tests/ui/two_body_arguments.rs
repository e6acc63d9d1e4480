use ferrapi::prelude::*;

#[derive(Model)]
struct Item {
    name: String,
}

#[derive(Model)]
struct User {
    username: String,
}

#[put("/item")]
async fn update_item(item: Item, user: User) -> Json<Value> {
    Json(json!({ "name": item.name, "user": user.username }))
}

#[derive(Model)]
struct Tag {
    label: String,
}

// A third body is one more error, at `tag`.
#[post("/item")]
async fn create_item(item: Item, q: Option<String>, user: User, tag: Tag) -> Json<Value> {
    Json(json!({ "name": item.name, "q": q, "user": user.username, "tag": tag.label }))
}

fn main() {}
