//! Clients generated from the documents FastAPI itself serves for the reference apps of
//! `tests/fastapi/` (recorded in `documents/`), calling those apps under uvicorn:
//! `scripts/client-checks.sh` starts them and sets `FASTAPI_<APP>_URL` for each. Every type
//! round-trips (dates, times, aware and naive datetimes, durations, UUIDs, decimals, e-mail
//! addresses, URLs, IP addresses, maps, a discriminated and an untagged union, generic models,
//! `Name-Input`/`Name-Output`), uploads and forms are sent, header, cookie and repeated query
//! parameters read, a typed event stream resumed with `Last-Event-ID`, JSON lines and a download
//! streamed, and the 404 and 422 answers come back typed.
//!
//! Without the variables (a plain `cargo test`), each test says so on one line and passes: the
//! apps need Python, which the script installs.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::Write as _;
use std::str::FromStr;

use ferrapi_client::chrono::NaiveDate;
use ferrapi_client::rust_decimal::Decimal;
use ferrapi_client::serde_json::json;
use ferrapi_client::url::Url;
use ferrapi_client::uuid::Uuid;
use ferrapi_client::{ErrorKind, File, Nullable};
use ferrapi_client_tests::{
    fastapi_client, fastapi_forms, fastapi_group_a, fastapi_reference, fastapi_uploads,
};
use futures_util::StreamExt as _;

/// The base URL of app `name` from `FASTAPI_<NAME>_URL`, or `None` (said once) without it; with
/// `FASTAPI_REQUIRED` set (the script sets it), a missing URL fails the test instead.
fn base(name: &str) -> Option<String> {
    let variable = format!("FASTAPI_{}_URL", name.to_ascii_uppercase());
    match std::env::var(&variable) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("FASTAPI_REQUIRED").is_some() => panic!("{variable} is not set"),
        _ => {
            let _ = writeln!(
                std::io::stderr(),
                "{variable} is not set: skipped (scripts/client-checks.sh serves the FastAPI apps and sets it)"
            );
            None
        }
    }
}

#[tokio::test]
async fn every_type_round_trips_through_fastapi() {
    use fastapi_client::operations::{EchoValuesResponse, ReadItemResponse};
    use fastapi_client::types::{
        ByEmail, ByPhone, Cat, Contact, ContactReach, Dog, Item, Owner, OwnerPet, PageItem,
        PairStrUnionItemNoneType, ValuesInput,
    };
    let Some(base) = base("client") else { return };
    let api = fastapi_client::Client::new(&base).unwrap();

    let values = ValuesInput {
        day: NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
        at: "2024-05-01T09:30:00.250+02:00".parse().unwrap(),
        local: "2024-05-01T09:30:00".parse().unwrap(),
        // pydantic's `time` keeps an offset: sent and read back aware.
        alarm: "07:30:15.5+02:00".parse().unwrap(),
        length: "P1DT2H3M4.5S".parse().unwrap(),
        id: Uuid::parse_str("6f1c8a52-3f0e-4c8e-9d7b-2a1b3c4d5e6f").unwrap(),
        price: Decimal::from_str("123.40").unwrap(),
        email: "ada@example.org".into(),
        site: Url::parse("https://example.org/a b?x=1").unwrap(),
        v4: "192.0.2.1".parse().unwrap(),
        v6: "2001:db8::1".parse().unwrap(),
        any_ip: "::1".parse().unwrap(),
        tags: Some(vec!["a".into(), "b".into()]),
        scores: Some([("x".to_owned(), 1), ("y".to_owned(), -2)].into_iter().collect()),
        note: Nullable::Absent,
    };
    let back = api.echo_values(&values).await.unwrap().into_ok().unwrap();
    assert_eq!(back.day, values.day);
    assert_eq!(back.at, values.at);
    // Six digits of fraction, as pydantic (and ferrapi's server) writes them.
    assert_eq!(back.at.to_string(), "2024-05-01T09:30:00.250000+02:00");
    assert_eq!((back.local, back.local.naive().is_some()), (values.local, true));
    assert_eq!(back.alarm, values.alarm);
    assert_eq!(back.alarm.to_string(), "07:30:15.500000+02:00");
    assert_eq!(
        (back.length, back.length.to_string().as_str()),
        (values.length, "P1DT2H3M4.5S")
    );
    assert_eq!(back.id, values.id);
    assert_eq!(back.price, "123.40", "written back as text with its scale");
    assert_eq!(Decimal::from_str(&back.price).unwrap(), values.price);
    assert_eq!(back.email, values.email);
    assert_eq!(back.site, values.site);
    assert_eq!(
        (back.v4, back.v6, back.any_ip),
        (values.v4, values.v6, values.any_ip)
    );
    // Left out, written back as FastAPI writes its default: `null`, told apart from absent.
    assert_eq!(
        (back.tags, back.scores, back.note),
        (values.tags.clone(), values.scores.clone(), Nullable::Null)
    );

    // In the path and the query (a list repeated).
    let found = api
        .query_values(values.day, values.id, values.price)
        .tags(vec!["x y".into(), "z&w".into()])
        .limit(3)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        (found.day, found.id, found.price.as_str()),
        (values.day, values.id, "123.40")
    );
    assert_eq!(
        (found.tags, found.limit),
        (vec!["x y".to_owned(), "z&w".to_owned()], Some(3))
    );

    // Invalid values: pydantic's items, typed.
    let invalid = ValuesInput {
        price: Decimal::from_str("1234567.891").unwrap(),
        email: "not an address".into(),
        ..values.clone()
    };
    match api.echo_values(&invalid).await.unwrap().into_body() {
        EchoValuesResponse::UnprocessableEntity(error) => {
            let items = error.detail.unwrap_or_default();
            let kinds: Vec<&str> = items.iter().map(|item| item.type_.as_str()).collect();
            assert_eq!(kinds, ["decimal_max_digits", "value_error"], "{items:?}");
        }
        other => panic!("{other:?}"),
    }

    // A discriminated union, alone and in a list; an untagged one.
    let owner = Owner {
        name: "Ada".into(),
        pet: OwnerPet::Cat(Cat {
            kind: Default::default(),
            lives: 9,
        }),
        others: Some(vec![OwnerPet::Dog(Dog {
            kind: Default::default(),
            name: "Rex".into(),
        })]),
    };
    assert_eq!(api.echo_owner(&owner).await.unwrap().into_ok().unwrap(), owner);
    for reach in [
        ContactReach::ByEmail(ByEmail {
            email: "ada@example.org".into(),
        }),
        ContactReach::ByPhone(ByPhone {
            phone: "+41791234567".into(),
        }),
    ] {
        let contact = Contact {
            who: "Ada".into(),
            reach,
        };
        assert_eq!(
            api.echo_contact(&contact).await.unwrap().into_ok().unwrap(),
            contact
        );
    }

    // Generic models, named as pydantic names them.
    let page = PageItem {
        items: vec![Item {
            name: "a".into(),
            price: 1.5,
        }],
        total: 1,
    };
    assert_eq!(api.echo_page(&page).await.unwrap().into_ok().unwrap(), page);
    let pair = PairStrUnionItemNoneType {
        first: "a".into(),
        second: None,
    };
    assert_eq!(api.echo_pair(&pair).await.unwrap().into_ok().unwrap(), pair);

    // A 404 the document describes in words.
    match api.read_item(2).await.unwrap().into_body() {
        ReadItemResponse::NotFound(error) => assert_eq!(error.message().as_deref(), Some("Item not found")),
        other => panic!("{other:?}"),
    }
    assert_eq!(api.read_item(1).await.unwrap().into_ok().unwrap().name, "one");
}

#[tokio::test]
async fn uploads_forms_headers_and_cookies_reach_fastapi() {
    use fastapi_client::types::{BodyUploadManyUploadsManyPost, BodyUploadUploadsPost, Login};
    let Some(base) = base("client") else { return };
    let api = fastapi_client::Client::new(&base).unwrap();

    // A file from bytes, with a form field.
    let body = BodyUploadUploadsPost {
        file: File::from_bytes("notes.txt", &b"hello"[..]).content_type("text/plain"),
        note: "first".into(),
    };
    let answer = api.upload(body).await.unwrap().into_ok().unwrap();
    assert_eq!(
        answer,
        json!({"filename": "notes.txt", "content_type": "text/plain", "size": 5, "note": "first"})
    );
    // Files from a path (streamed from disk) and from a stream, under one name.
    let path = std::env::temp_dir().join(format!("ferrapi-client-upload-{}.bin", std::process::id()));
    std::fs::write(&path, vec![7u8; 100_000]).unwrap();
    let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"abc"))]);
    let body = BodyUploadManyUploadsManyPost {
        files: vec![File::from_path(&path), File::from_stream("streamed.txt", chunks)],
        tag: "t".into(),
    };
    let answer = api.upload_many(body).await.unwrap().into_ok().unwrap();
    let _ = std::fs::remove_file(&path);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        answer,
        json!({"files": [name, "streamed.txt"], "sizes": [100_000, 3], "tag": "t"})
    );
    // An optional file, left out.
    assert_eq!(
        api.upload_optional().await.unwrap().into_ok().unwrap(),
        json!({"file": null})
    );

    // A form model.
    let login = Login {
        username: "ada".into(),
        password: "secret".into(),
        remember: Some(true),
    };
    assert_eq!(
        api.login(&login).await.unwrap().into_ok().unwrap(),
        json!({"username": "ada", "remember": true})
    );

    // A header, a cookie and a repeated query parameter.
    let inputs = api
        .inputs(3, "s1")
        .tag(vec!["a".into(), "b".into()])
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(inputs, json!({"x_count": 3, "session": "s1", "tag": ["a", "b"]}));
}

#[tokio::test]
async fn fastapis_streams_are_typed_and_never_buffered() {
    let Some(base) = base("client") else { return };
    let api = fastapi_client::Client::new(&base).unwrap();

    // Typed Server-Sent Events (FastAPI's EventSourceResponse: their data is a `Tick`).
    let events: Vec<_> = api.ticks().await.unwrap().into_ok().unwrap().collect().await;
    let ticks: Vec<(i64, String, Option<String>, Option<String>)> = events
        .into_iter()
        .map(|event| {
            let event = event.unwrap();
            (event.data.n, event.data.at, event.id, event.event)
        })
        .collect();
    let tick = |n: i64| (n, format!("t{n}"), Some(n.to_string()), Some("tick".to_owned()));
    assert_eq!(ticks, [tick(1), tick(2), tick(3)]);
    // Resumed: the route reads `Last-Event-ID` (its header parameter) and carries on after it.
    let resumed: Vec<i64> = api
        .ticks()
        .last_event_id("3")
        .count(2)
        .await
        .unwrap()
        .into_ok()
        .unwrap()
        .map(|event| event.unwrap().data.n)
        .collect()
        .await;
    assert_eq!(resumed, [4, 5]);

    // JSON lines.
    let items: Vec<(String, f64)> = api
        .lines()
        .count(3)
        .await
        .unwrap()
        .into_ok()
        .unwrap()
        .map(|item| {
            let item = item.unwrap();
            (item.name, item.price)
        })
        .collect()
        .await;
    assert_eq!(
        items,
        [
            ("item 0".into(), 0.5),
            ("item 1".into(), 1.5),
            ("item 2".into(), 2.5)
        ]
    );

    // A download, chunk by chunk.
    let mut download = api.download().kib(256).await.unwrap().into_ok().unwrap();
    let mut size = 0;
    while let Some(chunk) = download.next().await {
        size += chunk.unwrap().len();
    }
    assert_eq!(size, 256 * 1024);
}

#[tokio::test]
async fn the_reference_app_answers_each_parameter_kind() {
    use fastapi_reference::operations::{ConstrainedResponse, SecBearerResponse};
    use fastapi_reference::types::{BodyTwoTwoPost, Inner, Item, Nested, OrderType};
    use ferrapi_client::Call as _;
    let Some(base) = base("reference") else { return };
    let api = fastapi_reference::Client::new(&base).unwrap();
    let item = Item {
        name: "Foo".into(),
        description: Nullable::Absent,
        price: 35.4,
        tax: Nullable::Null,
    };
    assert_eq!(
        api.root().await.unwrap().into_ok().unwrap(),
        json!({"message": "Hello World"})
    );
    assert_eq!(
        api.get_item(42).await.unwrap().into_ok().unwrap(),
        json!({"id": 42})
    );
    assert_eq!(
        api.read_items("x", "n").skip(2).await.unwrap().into_ok().unwrap(),
        json!({"item_id": "x", "needy": "n", "skip": 2, "limit": null})
    );
    assert_eq!(
        api.read_user_item(1, "i")
            .q("q")
            .short(true)
            .await
            .unwrap()
            .into_ok()
            .unwrap(),
        json!({"user_id": 1, "item_id": "i", "q": "q", "short": true})
    );
    assert_eq!(
        api.stock("AAPL", OrderType::Sell)
            .await
            .unwrap()
            .into_ok()
            .unwrap(),
        json!({"symbol": "AAPL", "type": "sell"})
    );
    assert_eq!(
        api.tags()
            .tag(vec!["a".into(), "b".into()])
            .await
            .unwrap()
            .into_ok()
            .unwrap(),
        json!({"tag": ["a", "b"]})
    );
    assert_eq!(
        api.floats(1.5).await.unwrap().into_ok().unwrap(),
        json!({"f": 1.5})
    );
    assert_eq!(
        api.bools(true).await.unwrap().into_ok().unwrap(),
        json!({"b": true})
    );
    match api.constrained(11).await.unwrap().into_body() {
        ConstrainedResponse::UnprocessableEntity(error) => {
            let kinds: Vec<String> = error
                .detail
                .unwrap_or_default()
                .into_iter()
                .map(|item| item.type_)
                .collect();
            assert_eq!(kinds, ["less_than_equal"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        api.update_item(5, &item).q("x").await.unwrap().into_ok().unwrap()["item_id"],
        5
    );
    let nested = Nested {
        title: "ab".into(),
        count: 1,
        qty: 0,
        inner: Inner {
            label: "l".into(),
            weight: 1.0,
        },
        ids: vec![1, 2],
        scores: [("a".to_owned(), 1)].into_iter().collect(),
    };
    assert_eq!(
        api.nested(&nested).await.unwrap().into_ok().unwrap()["ids"],
        json!([1, 2])
    );
    let two = BodyTwoTwoPost {
        item: item.clone(),
        inner: nested.inner.clone(),
    };
    assert_eq!(
        api.two(&two).await.unwrap().into_ok().unwrap()["inner"]["label"],
        "l"
    );
    assert_eq!(
        api.order(1, 2, 3).await.unwrap().into_ok().unwrap(),
        json!({"a": 2, "p": 1, "b": 3})
    );
    assert_eq!(
        api.hdr_typed(4).x_flag(true).await.unwrap().into_ok().unwrap()["x_count"],
        4
    );
    assert_eq!(
        api.hdr_exact("r-1").await.unwrap().into_ok().unwrap(),
        json!({"request_id": "r-1"})
    );
    assert_eq!(
        api.ck("s").theme("dark").await.unwrap().into_ok().unwrap(),
        json!({"session": "s", "n": null, "theme": "dark"})
    );
    assert_eq!(
        api.inputs_order(1, 2, 3).await.unwrap().into_ok().unwrap(),
        json!({"c": 3, "x_h": 2, "q": 1})
    );
    // Security schemes: credentials as headers and query parameters of the call.
    let bearer = api
        .sec_bearer()
        .with_header("Authorization", "Bearer t0k")
        .await
        .unwrap();
    assert_eq!(
        bearer.into_ok().unwrap(),
        json!({"scheme": "Bearer", "token": "t0k"})
    );
    match api.sec_bearer().await.unwrap().into_body() {
        SecBearerResponse::Unexpected(unexpected) => assert_eq!(unexpected.status, 401),
        other => panic!("{other:?}"),
    }
    let key = api
        .sec_key_query()
        .with_query("api_key", "k")
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(key, json!({"key": "k"}));
}

#[tokio::test]
async fn the_group_a_twin_answers_as_the_spec_says() {
    use fastapi_group_a::operations::ReadEmployeeResponse;
    use fastapi_group_a::types::{Item, OrderType};
    let Some(base) = base("group_a") else { return };
    let api = fastapi_group_a::Client::new(&base).unwrap();
    assert_eq!(
        api.read_user_me().await.unwrap().into_ok().unwrap()["user_id"],
        "the current user"
    );
    assert_eq!(
        api.read_stock("AAPL", OrderType::Buy)
            .await
            .unwrap()
            .into_ok()
            .unwrap()["price"],
        190.05
    );
    assert_eq!(
        api.read_persons()
            .limit(2)
            .await
            .unwrap()
            .into_ok()
            .unwrap()
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let item = Item {
        name: "Foo".into(),
        description: Nullable::Absent,
        price: 35.4,
        tax: 3.2.into(),
    };
    assert_eq!(
        api.create_item(&item).await.unwrap().into_ok().unwrap()["price_with_tax"],
        35.4 + 3.2
    );
    // FastAPI's twin does not document its 404: it is an `Unexpected` answer, kept whole.
    match api.read_employee(99).await.unwrap().into_body() {
        ReadEmployeeResponse::Unexpected(unexpected) => {
            assert_eq!(
                (unexpected.status.as_u16(), unexpected.text().as_ref()),
                (404, r#"{"detail":"Employee not found"}"#)
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn forms_reach_fastapi_as_form_fields() {
    use fastapi_forms::types::{
        BodyFfLoginFfLoginPost, BodyFfSideFfSidePost, BodyFfTagsFfTagsPost, BodyTokenTokenPost, Side,
    };
    let Some(base) = base("forms") else { return };
    let api = fastapi_forms::Client::new(&base).unwrap();
    let login = BodyFfLoginFfLoginPost {
        username: "ada".into(),
        password: "secret".into(),
        remember: Some(true),
        age: None,
    };
    assert_eq!(
        api.ff_login(&login).await.unwrap().into_ok().unwrap(),
        json!({"username": "ada", "password": "secret", "remember": true, "age": null})
    );
    let tags = BodyFfTagsFfTagsPost {
        tag: vec!["a".into(), "b c".into()],
        n: Some(vec![1, 2]),
    };
    assert_eq!(
        api.ff_tags(&tags).await.unwrap().into_ok().unwrap(),
        json!({"tag": ["a", "b c"], "n": [1, 2]})
    );
    let side = BodyFfSideFfSidePost { side: Side::Sell };
    assert_eq!(
        api.ff_side(&side).await.unwrap().into_ok().unwrap(),
        json!({"side": "sell"})
    );
    let token = BodyTokenTokenPost {
        grant_type: Some("password".into()),
        username: "ada".into(),
        password: "pw".into(),
        scope: Some("read write".into()),
        client_id: None,
        client_secret: None,
    };
    let answer = api.token(&token).await.unwrap().into_ok().unwrap();
    assert_eq!(answer["scopes"], json!(["read", "write"]));
}

#[tokio::test]
async fn files_reach_fastapi_as_uploads() {
    use fastapi_uploads::types::{BodyItemFileUfItemsItemIdPost, BodyManyUfManyPost, BodyUpUfUpPost};
    let Some(base) = base("uploads") else { return };
    let api = fastapi_uploads::Client::new(&base).unwrap();
    let answer = api
        .up(BodyUpUfUpPost {
            file: File::from_bytes("a.bin", vec![1u8; 1000]),
            note: "n".into(),
        })
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        answer,
        json!({"filename": "a.bin", "content_type": "application/octet-stream", "size": 1000, "read": 1000, "note": "n"})
    );
    let answer = api
        .many(BodyManyUfManyPost {
            files: vec![File::from_bytes("a", &b"1"[..]), File::from_bytes("b", &b"2"[..])],
            tag: "t".into(),
        })
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(answer, json!({"files": ["a", "b"], "tag": "t"}));
    let answer = api
        .item_file(
            7,
            BodyItemFileUfItemsItemIdPost {
                file: File::from_bytes("c", &b"3"[..]),
            },
        )
        .limit(3)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(answer, json!({"item_id": 7, "limit": 3, "file": "c"}));
    assert_eq!(
        api.opt().await.unwrap().into_ok().unwrap(),
        json!({"file": null, "note": null})
    );
}

#[tokio::test]
async fn fastapis_skip_and_limit_lists_page_themselves() {
    use fastapi_client::types::Entry;
    use ferrapi_client::Call as _;
    let Some(base) = base("client") else { return };
    let api = fastapi_client::Client::new(&base).unwrap();
    let numbers = |entries: &[Entry]| entries.iter().map(|entry| entry.n).collect::<Vec<_>>();

    // Item by item: all 53, in order, in pages of 20 (the limit's `le`).
    let items: Vec<Entry> = api
        .list_entries()
        .items()
        .map(|item| item.expect("an item"))
        .collect()
        .await;
    assert_eq!(numbers(&items), (0..53).collect::<Vec<_>>());
    assert!(items
        .iter()
        .all(|entry| entry.name == format!("entry {}", entry.n)));

    // Page by page: 20, 20, 13.
    let pages: Vec<Vec<Entry>> = api
        .list_entries()
        .pages()
        .map(|page| page.expect("a page"))
        .collect()
        .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [20, 20, 13]);

    // The caller's skip and limit, and a call option (here the filter, as an extra query
    // parameter) kept on every page.
    let pages: Vec<Vec<Entry>> = api
        .list_entries()
        .skip(5)
        .limit(7)
        .with_query("odd", "true")
        .pages()
        .map(|page| page.expect("a page"))
        .collect()
        .await;
    // 21 odd entries from the 6th: three full pages, so a fourth, empty, says the list ended.
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [7, 7, 7, 0]);
    let odd: Vec<i64> = (0..53).filter(|n| n % 2 == 1).skip(5).collect();
    assert_eq!(numbers(&pages.concat()), odd);
    // The same by the operation's own parameter.
    let items: Vec<Entry> = api
        .list_entries()
        .odd(true)
        .skip(5)
        .limit(7)
        .items()
        .map(|item| item.expect("an item"))
        .collect()
        .await;
    assert_eq!(numbers(&items), odd);

    // A limit past FastAPI's `le`: the first page is its 422, and that ends the stream.
    let mut items = api.list_entries().limit(21).items();
    let ended = items.next().await.expect("an item").expect_err("a 422");
    assert_eq!(ended.status().map(|s| s.as_u16()), Some(422), "{ended}");
    assert!(matches!(ended.kind(), ErrorKind::Status(_)));
    assert!(items.next().await.is_none());

    // A list longer than its maximum skip (20, pages of 10): the pages at 0, 10, 20, then the
    // error that says more may exist, never a silent end.
    let mut items = api.list_entries_shallow().items();
    let mut read = Vec::new();
    let ended = loop {
        match items.next().await {
            Some(Ok(entry)) => read.push(entry),
            Some(Err(error)) => break error,
            None => panic!("the stream ended without saying items remain"),
        }
    };
    assert_eq!(numbers(&read), (0..30).collect::<Vec<_>>());
    let ErrorKind::PageLimit(limit) = ended.kind() else {
        panic!("PageLimit, not {ended:?}")
    };
    assert_eq!((limit.max_offset, limit.read), (20, 30));
    assert_eq!(
        ended.to_string(),
        "the server serves no page past offset 20 (30 items read); more may exist: narrow the query"
    );
    assert!(items.next().await.is_none());
}
