//! Route group A: typed parameters, FastAPI-style validation errors, OpenAPI.
//!
//! Rules enforced here (the spec's group A table): routes are declared in the spec's order, so the
//! first declaration of a path is the one served (the extended and required-parameter forms of
//! `/item/...` are declared, and shadowed); `/user/me` precedes `/user/{id}`. Every served route
//! answers a typed model, so `/openapi.json` gives the JSON Schema of every response (clients
//! generated from it get typed results); keys present only sometimes are `Option`s left out when
//! `None`.

use ferrapi::prelude::*;
use serde::Serialize;

/// An item, the body of `POST /item` and `PUT /item/{item_id}`.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Item {
    /// The item's name.
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// The price.
    pub price: f64,
    /// An optional tax, added to the price in `price_with_tax`.
    pub tax: Option<f64>,
}

/// The side of a stock quote.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderType {
    /// Buy at the ask price.
    #[value("buy")]
    Buy,
    /// Sell at the bid price.
    #[value("sell")]
    Sell,
}

/// A greeting.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Message {
    /// The greeting.
    pub message: String,
}

/// An item id, as an integer.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct ItemId {
    /// The id from the path.
    pub id: i64,
}

/// A user id, as a string.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct UserId {
    /// The id from the path.
    pub id: String,
}

/// The current user.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct CurrentUser {
    /// Who the current user is.
    pub user_id: String,
}

/// One item of a user.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct UserItem {
    /// The item id from the path.
    pub item_id: String,
    /// The user id from the path.
    pub owner_id: i64,
    /// The query `q`, when given and not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// A long description, unless `short` is true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A price quote for one instrument.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Quote {
    /// The instrument.
    pub symbol: String,
    /// The ask when buying, the bid when selling.
    pub price: f64,
    /// The side quoted.
    pub r#type: OrderType,
}

/// A person of the fixed list.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Person {
    /// The person's name.
    pub name: String,
}

/// A submitted item, with the price including tax when a tax is given.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct ItemWithTax {
    /// The item's name.
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// The price.
    pub price: f64,
    /// An optional tax.
    pub tax: Option<f64>,
    /// `price + tax`, present only when a tax is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_with_tax: Option<f64>,
}

/// A replaced item.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct UpdatedItem {
    /// The item id from the path.
    pub item_id: i64,
    /// The item's name.
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// The price.
    pub price: f64,
    /// An optional tax.
    pub tax: Option<f64>,
    /// The query `q`, when given and not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
}

/// An employee.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Employee {
    /// The employee's name.
    pub name: String,
    /// The employee's job.
    pub job: String,
}

const LONG_DESCRIPTION: &str = "This is an amazing item that has a long description";

/// Greets.
#[get("/")]
pub async fn root() -> Json<Message> {
    Json(Message {
        message: "Hello World".to_owned(),
    })
}

/// Read an item by integer id (the simple form, served).
#[get("/item/{id}")]
pub async fn read_item(id: i64) -> Json<ItemId> {
    Json(ItemId { id })
}

/// Read an item with an optional query and a short flag (the extended form; shadowed by the
/// simple form under rule 7).
#[get("/item/{id}")]
pub async fn read_item_extended(id: String, q: Option<String>, #[default(false)] short: bool) -> Json<Value> {
    let mut item = json!({ "id": id });
    if let Some(q) = q.filter(|q| !q.is_empty()) {
        item["q"] = json!(q);
    }
    if !short {
        item["description"] = json!(LONG_DESCRIPTION);
    }
    Json(item)
}

/// Read an item with a required query parameter (the required-parameter form; shadowed).
#[get("/item/{item_id}")]
pub async fn read_item_needy(
    item_id: String,
    needy: String,
    #[default(0)] skip: i64,
    limit: Option<i64>,
) -> Json<Value> {
    Json(json!({ "item_id": item_id, "needy": needy, "skip": skip, "limit": limit }))
}

/// The current user.
#[get("/user/me")]
pub async fn read_user_me() -> Json<CurrentUser> {
    Json(CurrentUser {
        user_id: "the current user".to_owned(),
    })
}

/// A user by id.
#[get("/user/{id}")]
pub async fn read_user(id: String) -> Json<UserId> {
    Json(UserId { id })
}

/// One item of a user.
#[get("/user/{user_id}/item/{item_id}")]
pub async fn read_user_item(
    user_id: i64,
    item_id: String,
    q: Option<String>,
    #[default(false)] short: bool,
) -> Json<UserItem> {
    Json(UserItem {
        item_id,
        owner_id: user_id,
        q: q.filter(|q| !q.is_empty()),
        description: (!short).then(|| LONG_DESCRIPTION.to_owned()),
    })
}

/// Bid and ask of the instruments the service quotes; other symbols get [`DEFAULT_QUOTE`].
pub const INSTRUMENTS: &[(&str, f64, f64)] = &[
    ("AAPL", 189.95, 190.05),
    ("MSFT", 414.90, 415.10),
    ("GOOG", 171.40, 171.60),
    ("AMZN", 182.25, 182.45),
    ("TSLA", 248.70, 249.10),
];

/// Bid and ask quoted for a symbol outside [`INSTRUMENTS`].
pub const DEFAULT_QUOTE: (f64, f64) = (99.95, 100.05);

/// A price for `symbol`: the ask when buying, the bid when selling.
#[get("/stock/{symbol}/{type}")]
pub async fn read_stock(symbol: String, r#type: OrderType) -> Json<Quote> {
    let (bid, ask) = INSTRUMENTS
        .iter()
        .find(|(s, _, _)| s.eq_ignore_ascii_case(&symbol))
        .map_or(DEFAULT_QUOTE, |(_, bid, ask)| (*bid, *ask));
    let price = match r#type {
        OrderType::Buy => ask,
        OrderType::Sell => bid,
    };
    Json(Quote {
        symbol,
        price,
        r#type,
    })
}

/// The fixed ordered list of ten persons.
pub const PERSONS: [&str; 10] = [
    "Ada Lovelace",
    "Alan Turing",
    "Grace Hopper",
    "Edsger Dijkstra",
    "Barbara Liskov",
    "Donald Knuth",
    "Margaret Hamilton",
    "Dennis Ritchie",
    "Frances Allen",
    "Ken Thompson",
];

/// A page of persons: indexes `skip` up to (not including) `skip + limit`.
#[get("/person")]
pub async fn read_persons(
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(5)]
    #[ge(0)]
    limit: i64,
) -> Json<Vec<Person>> {
    let start = usize::try_from(skip).unwrap_or(usize::MAX).min(PERSONS.len());
    let end = start
        .saturating_add(usize::try_from(limit).unwrap_or(usize::MAX))
        .min(PERSONS.len());
    Json(
        PERSONS[start..end]
            .iter()
            .map(|name| Person {
                name: (*name).to_owned(),
            })
            .collect(),
    )
}

/// The submitted item, with `price_with_tax` when a tax is given.
#[post("/item")]
pub async fn create_item(item: Item) -> Json<ItemWithTax> {
    Json(ItemWithTax {
        price_with_tax: item.tax.map(|tax| item.price + tax),
        name: item.name,
        description: item.description,
        price: item.price,
        tax: item.tax,
    })
}

/// Replace an item: echoes the id, the item's fields, and `q` when given.
#[put("/item/{item_id}")]
pub async fn update_item(item_id: i64, item: Item, q: Option<String>) -> Json<UpdatedItem> {
    Json(UpdatedItem {
        item_id,
        name: item.name,
        description: item.description,
        price: item.price,
        tax: item.tax,
        q: q.filter(|q| !q.is_empty()),
    })
}

/// Employees by integer id.
pub const EMPLOYEES: &[(i64, &str, &str)] = &[
    (1, "Ada Lovelace", "analyst"),
    (2, "Alan Turing", "cryptographer"),
    (3, "Grace Hopper", "admiral"),
];

/// An employee by id; 404 `{"detail": "Employee not found"}` for an unknown id.
#[get("/employee/{id}", responses(404 = "Employee not found"))]
pub async fn read_employee(id: i64) -> Result<Json<Employee>, HttpError> {
    EMPLOYEES
        .iter()
        .find(|(key, _, _)| *key == id)
        .map(|(_, name, job)| {
            Json(Employee {
                name: (*name).to_owned(),
                job: (*job).to_owned(),
            })
        })
        .ok_or_else(|| HttpError::not_found("Employee not found"))
}

/// Group A: its routes in the spec's order, the clinic's doctors, patients and visits last (the
/// spec's last row). No prefix, tag or default response of its own: the spec's paths and
/// operations are the group's as written.
pub fn group() -> Group {
    group!("")
        .routes(routes![
            root,
            read_item,
            read_item_extended,
            read_item_needy,
            read_user_me,
            read_user,
            read_user_item,
            read_stock,
            read_persons,
            create_item,
            update_item,
            read_employee,
        ])
        .group(crate::clinic::group())
}

#[cfg(test)]
mod tests {
    //! Every handler called directly, as a function: the shadowed `/item/...` forms included,
    //! which no request reaches (rule 7) but which are real routes with real code.

    use super::*;

    #[tokio::test]
    async fn the_three_item_forms_each_answer_their_shape() {
        assert_eq!(read_item(42).await.0, ItemId { id: 42 });

        let long = read_item_extended("foo".into(), Some("bar".into()), false)
            .await
            .0;
        assert_eq!(
            long,
            json!({"id": "foo", "q": "bar", "description": LONG_DESCRIPTION})
        );
        assert_eq!(
            read_item_extended("foo".into(), Some(String::new()), true)
                .await
                .0,
            json!({"id": "foo"}),
            "an empty q is left out, and short leaves out the description"
        );
        assert_eq!(
            read_item_extended("foo".into(), None, false).await.0,
            json!({"id": "foo", "description": LONG_DESCRIPTION})
        );

        assert_eq!(
            read_item_needy("x".into(), "n".into(), 0, None).await.0,
            json!({"item_id": "x", "needy": "n", "skip": 0, "limit": null})
        );
        assert_eq!(
            read_item_needy("x".into(), "n".into(), 3, Some(7)).await.0,
            json!({"item_id": "x", "needy": "n", "skip": 3, "limit": 7})
        );
    }

    #[tokio::test]
    async fn the_three_item_forms_are_declared_and_two_are_shadowed() {
        let table = ferrapi::App::new()
            .group(group())
            .route_table()
            .expect("a route table");
        let row = |name: &str| {
            table
                .iter()
                .find(|row| row.name == name)
                .unwrap_or_else(|| panic!("{name} is declared"))
        };
        assert_eq!(row("read_item").shadowed_by, None);
        for shadowed in ["read_item_extended", "read_item_needy"] {
            assert_eq!(
                row(shadowed).shadowed_by,
                Some(("read_item", "/item/{id}".to_owned())),
                "{shadowed}"
            );
        }
        let order: Vec<&str> = table.iter().map(|row| row.name).collect();
        assert_eq!(
            order[..12],
            [
                "root",
                "read_item",
                "read_item_extended",
                "read_item_needy",
                "read_user_me",
                "read_user",
                "read_user_item",
                "read_stock",
                "read_persons",
                "create_item",
                "update_item",
                "read_employee"
            ],
            "the spec's order"
        );
    }

    #[tokio::test]
    async fn users() {
        assert_eq!(read_user_me().await.0.user_id, "the current user");
        assert_eq!(read_user("me2".into()).await.0, UserId { id: "me2".into() });
        assert_eq!(
            read_user_item(7, "hammer".into(), Some("q".into()), false)
                .await
                .0,
            UserItem {
                item_id: "hammer".into(),
                owner_id: 7,
                q: Some("q".into()),
                description: Some(LONG_DESCRIPTION.into()),
            }
        );
        assert_eq!(
            read_user_item(7, "hammer".into(), Some(String::new()), true)
                .await
                .0,
            UserItem {
                item_id: "hammer".into(),
                owner_id: 7,
                q: None,
                description: None,
            }
        );
    }

    #[tokio::test]
    async fn stock_quotes_ask_for_buy_and_bid_for_sell() {
        let buy = read_stock("AAPL".into(), OrderType::Buy).await.0;
        let sell = read_stock("aapl".into(), OrderType::Sell).await.0;
        assert_eq!((buy.symbol.as_str(), buy.price), ("AAPL", 190.05));
        assert_eq!((sell.symbol.as_str(), sell.price), ("aapl", 189.95));
        assert!(buy.price > sell.price);
        let unknown = read_stock("ZZZZ".into(), OrderType::Buy).await.0;
        assert_eq!(unknown.price, DEFAULT_QUOTE.1);
        assert_eq!(
            read_stock("ZZZZ".into(), OrderType::Sell).await.0.price,
            DEFAULT_QUOTE.0
        );
    }

    #[tokio::test]
    async fn persons_are_a_slice_of_the_fixed_list() {
        let names = |people: Vec<Person>| people.into_iter().map(|p| p.name).collect::<Vec<_>>();
        assert_eq!(names(read_persons(0, 5).await.0), PERSONS[..5]);
        assert_eq!(names(read_persons(8, 5).await.0), PERSONS[8..]);
        assert!(read_persons(10, 5).await.0.is_empty());
        assert!(read_persons(i64::MAX, i64::MAX).await.0.is_empty());
        assert!(read_persons(3, 0).await.0.is_empty());
        assert_eq!(names(read_persons(0, i64::MAX).await.0), PERSONS);
    }

    #[tokio::test]
    async fn items_and_employees() {
        let item = Item {
            name: "Foo".into(),
            description: None,
            price: 10.0,
            tax: Some(2.5),
        };
        assert_eq!(create_item(item.clone()).await.0.price_with_tax, Some(12.5));
        let untaxed = Item {
            tax: None,
            ..item.clone()
        };
        assert_eq!(create_item(untaxed).await.0.price_with_tax, None);
        let updated = update_item(5, item, Some("q".into())).await.0;
        assert_eq!((updated.item_id, updated.q.as_deref()), (5, Some("q")));
        assert_eq!(
            read_employee(2).await.map(|e| e.0),
            Ok(Employee {
                name: "Alan Turing".into(),
                job: "cryptographer".into()
            })
        );
        assert_eq!(
            read_employee(99).await.map(|e| e.0),
            Err(HttpError::not_found("Employee not found"))
        );
    }
}
