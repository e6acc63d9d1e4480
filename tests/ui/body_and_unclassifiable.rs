use ferrapi::prelude::*;

#[derive(Model)]
struct Item {
    name: String,
}

#[derive(Model)]
struct User {
    username: String,
}

struct Filter {
    name: String,
}

// Each argument's mistake is reported once, at the argument: `Filter` is not an argument type,
// `User` is a second body.
#[put("/item")]
async fn update_item(item: Item, filter: Filter, user: User) -> Json<Value> {
    Json(json!({ "name": item.name, "filter": filter.name, "user": user.username }))
}

fn main() {}
