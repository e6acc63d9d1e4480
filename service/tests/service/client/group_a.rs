//! Group A through the generated client: each route's typed answer, the 422s as pydantic's typed
//! items, the 404 as a typed `NotFound`, the shadowed forms and the docs pages (outside the
//! document) through the runtime.

use ferrapi_client::Nullable;
use resource_api::config::Group;
use resource_api::group_a::{EMPLOYEES, INSTRUMENTS, PERSONS};
use resource_api::store::{Store, StoreLocation};
use resource_api_client::operations::{ReadEmployeeResponse, ReadItemResponse, ReadPersonsResponse};
use resource_api_client::types::{
    HTTPValidationError, Item, ItemWithTax, OrderType, UpdatedItem, ValidationErrorLocItem,
};
use resource_api_client::Call as _;

use super::{raw_get, serve};

const LONG: &str = "This is an amazing item that has a long description";

/// The `(type, loc)` of each item of a validation error.
fn items(error: &HTTPValidationError) -> Vec<(String, Vec<String>)> {
    error
        .detail
        .iter()
        .flatten()
        .map(|item| {
            let loc = item
                .loc
                .iter()
                .map(|part| match part {
                    ValidationErrorLocItem::String(text) => text.clone(),
                    ValidationErrorLocItem::Integer(n) => n.to_string(),
                })
                .collect();
            (item.type_.clone(), loc)
        })
        .collect()
}

async fn every_route(store: Store, conn: StoreLocation) {
    let api = serve(Group::A, store, &conn).await;

    // GET /
    assert_eq!(
        api.root().await.unwrap().into_ok().unwrap().message,
        "Hello World"
    );

    // GET /item/{id}: the id comes back as an integer.
    let answer = api.read_item(42).await.unwrap();
    assert_eq!(answer.status(), 200);
    assert!(matches!(answer.body(), ReadItemResponse::Ok(item) if item.id == 42));
    assert_eq!(api.read_item(-7).await.unwrap().into_ok().unwrap().id, -7);

    // GET /user/me, GET /user/{id} (percent-encoded on the way).
    assert_eq!(
        api.read_user_me().await.unwrap().into_ok().unwrap().user_id,
        "the current user"
    );
    assert_eq!(
        api.read_user("a b/é").await.unwrap().into_ok().unwrap().id,
        "a b/é"
    );

    // GET /user/{user_id}/item/{item_id}, with and without its optional query parameters.
    let full = api.read_user_item(7, "foo").await.unwrap().into_ok().unwrap();
    assert_eq!(
        (
            full.item_id.as_str(),
            full.owner_id,
            full.q,
            full.description.as_option().map(String::as_str)
        ),
        ("foo", 7, Nullable::Absent, Some(LONG))
    );
    let short = api
        .read_user_item(7, "foo")
        .q("a&b=c")
        .short(true)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        (short.q.as_option().map(String::as_str), short.description),
        (Some("a&b=c"), Nullable::Absent)
    );

    // GET /stock/{symbol}/{type}: the ask when buying, the bid when selling.
    let (symbol, bid, ask) = INSTRUMENTS[0];
    let buy = api
        .read_stock(symbol, OrderType::Buy)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    let sell = api
        .read_stock(symbol, OrderType::Sell)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        (buy.price, buy.type_, sell.price, sell.type_),
        (ask, OrderType::Buy, bid, OrderType::Sell)
    );
    assert_eq!(buy.symbol, symbol);

    // GET /person: paged, and a negative skip is a typed 422.
    let page = api
        .read_persons()
        .skip(2)
        .limit(3)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    let names: Vec<&str> = page.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, PERSONS[2..5]);
    assert_eq!(
        api.read_persons().await.unwrap().into_ok().unwrap().len(),
        5,
        "limit defaults to 5"
    );
    match api.read_persons().skip(-1).await.unwrap().into_body() {
        ReadPersonsResponse::UnprocessableEntity(error) => {
            assert_eq!(
                items(&error),
                [(
                    "greater_than_equal".to_owned(),
                    vec!["query".to_owned(), "skip".to_owned()]
                )]
            );
        }
        other => panic!("{other:?}"),
    }

    // POST /item: `price_with_tax` only with a tax; the optional fields may be left out or sent
    // as `null`, and the answer tells the `null`s it writes from the property it leaves out.
    let plain = Item {
        name: "Foo".into(),
        description: Nullable::Absent,
        price: 35.4,
        tax: Nullable::Null,
    };
    let created = api.create_item(&plain).await.unwrap().into_ok().unwrap();
    assert_eq!(
        created,
        ItemWithTax {
            name: "Foo".into(),
            description: Nullable::Null,
            price: 35.4,
            tax: Nullable::Null,
            price_with_tax: Nullable::Absent
        }
    );
    let taxed = Item {
        tax: Nullable::Value(3.2),
        description: Nullable::Value("d".into()),
        ..plain.clone()
    };
    let created = api.create_item(&taxed).await.unwrap().into_ok().unwrap();
    assert_eq!(created.price_with_tax, Nullable::Value(35.4 + 3.2));

    // PUT /item/{item_id}, with `q`.
    let updated = api
        .update_item(5, &taxed)
        .q("x")
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        updated,
        UpdatedItem {
            item_id: 5,
            name: "Foo".into(),
            description: Nullable::Value("d".into()),
            price: 35.4,
            tax: Nullable::Value(3.2),
            q: Nullable::Value("x".into())
        }
    );

    // GET /employee/{id}: found, and a typed 404 whose detail the client reads.
    let (id, name, job) = EMPLOYEES[0];
    let employee = api.read_employee(id).await.unwrap().into_ok().unwrap();
    assert_eq!((employee.name.as_str(), employee.job.as_str()), (name, job));
    match api.read_employee(99).await.unwrap().into_body() {
        ReadEmployeeResponse::NotFound(error) => {
            assert_eq!(error.message().as_deref(), Some("Employee not found"))
        }
        other => panic!("{other:?}"),
    }
    // `into_ok` of a 404 is an error that keeps the answer.
    let rejected = api.read_employee(99).await.unwrap().into_ok().unwrap_err();
    assert_eq!(rejected.0.status(), 404);

    // The shadowed item forms (not in the document): the simple form answers.
    let shadowed = raw_get(&api, "/item/5?q=x&short=true&needy=n").await;
    assert_eq!(
        (shadowed.status.as_u16(), shadowed.text().as_ref()),
        (200, r#"{"id":5}"#)
    );
    let invalid = raw_get(&api, "/item/foo").await;
    let error: HTTPValidationError = invalid.json().unwrap();
    assert_eq!(
        items(&error),
        [("int_parsing".to_owned(), vec!["path".to_owned(), "id".to_owned()])]
    );

    // The API description and its two pages.
    let document = raw_get(&api, "/openapi.json").await;
    let document: ferrapi_client::serde_json::Value = document.json().unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    for page in ["/docs", "/redoc"] {
        let answer = raw_get(&api, page).await;
        assert_eq!(answer.status, 200, "{page}");
        assert!(
            answer.text().contains("<html") || answer.text().contains("<!DOCTYPE"),
            "{page}"
        );
    }

    // A request id set per call comes back on the answer.
    let answer = api.root().with_request_id("client-test-1").await.unwrap();
    assert_eq!(answer.request_id(), Some("client-test-1"));
}

both_stores![every_route];
