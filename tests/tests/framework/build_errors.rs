//! An app that does not build reports every mistake at once, typed, each where it was declared,
//! in a stable order (the build's checks in turn, declaration order within each).

use ferrapi::arg::Parts;
use ferrapi::build::{Declared, MistakeKind};
use ferrapi::prelude::*;
use ferrapi::validation::ValidationErrors;

/// Takes state no test app holds.
struct Ledger;

#[get("/ledger")]
async fn read_ledger(_ledger: State<Ledger>) -> &'static str {
    "ledger"
}

#[get("/one/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}")]
#[allow(clippy::too_many_arguments)]
async fn nine_params(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8, i: u8) -> String {
    format!("{a}{b}{c}{d}{e}{f}{g}{h}{i}")
}

/// A dependency that takes state no test app holds.
#[derive(Clone)]
struct Audited;

#[dependency]
async fn audited(_ledger: State<Ledger>) -> Audited {
    Audited
}

#[get("/ping")]
async fn ping() -> &'static str {
    "pong"
}

fn no_answer(_: &ValidationErrors, _: &Parts) -> Json<Value> {
    Json(json!({}))
}

#[test]
fn three_mistakes_are_reported_together_in_a_stable_order() {
    let (app, line) = (
        App::new()
            .docs_url(Some("docs"))
            .on_validation_error(StatusCode::INTERNAL_SERVER_ERROR, no_answer)
            .routes(routes![ping, read_ledger]),
        line!() - 1,
    );
    let error = app.build().map(drop).expect_err("three mistakes");
    let kinds: Vec<&MistakeKind> = error.errors().map(|mistake| mistake.kind()).collect();
    assert!(
        matches!(
            kinds.as_slice(),
            [
                MistakeKind::MissingState { .. },
                MistakeKind::ValidationStatus { status: 500 },
                MistakeKind::DocsUrl { .. },
            ]
        ),
        "{error}"
    );
    let declared: Vec<&Declared> = error.errors().map(|mistake| mistake.declared()).collect();
    match declared.as_slice() {
        [Declared::Route {
            method,
            path,
            name,
            added_at,
        }, Declared::App {
            setting: "on_validation_error",
        }, Declared::App { setting: "docs_url" }] => {
            assert_eq!(
                (method.as_str(), path.as_str(), *name),
                ("GET", "/ledger", "read_ledger")
            );
            assert_eq!((added_at.file(), added_at.line()), (file!(), line));
        }
        other => panic!("{other:?}"),
    }
    let added_at = format!("{}:{line}:14", file!());
    let ledger = std::any::type_name::<Ledger>();
    assert_eq!(
        error.to_string(),
        format!(
            "3 mistakes in the app:\n  \
             route `read_ledger` (GET /ledger) added at {added_at}: a route takes `State<{ledger}>` but the app holds no such state; add it with `App::state(value)`\n  \
             on_validation_error: status 500 is not a client error (4xx)\n  \
             docs_url: `docs` must be an absolute path like `/docs`, without a trailing slash, query or fragment"
        )
    );
}

#[test]
fn every_check_reports_in_turn_and_routes_in_declaration_order() {
    let app = App::new()
        .redoc_url(Some("/docs"))
        .group(group!("/audit", dependencies(Audited)).routes(routes![ping, read_ledger]))
        .routes(routes![nine_params, read_ledger]);
    let error = app.build().map(drop).expect_err("mistakes");
    let found: Vec<(&str, String)> = error
        .errors()
        .map(|mistake| {
            let kind = match mistake.kind() {
                MistakeKind::TooManyPathParams { max: 8 } => "too many path parameters",
                MistakeKind::MissingState { .. } => "missing state",
                MistakeKind::GroupDependencyState { dependency, .. }
                    if *dependency == std::any::type_name::<Audited>() =>
                {
                    "group dependency"
                }
                MistakeKind::DocsUrl { .. } => "docs url",
                other => panic!("{other:?}"),
            };
            let place = match mistake.declared() {
                Declared::Route { name, path, .. } => format!("{name} {path}"),
                Declared::App { setting } => (*setting).to_owned(),
                other => format!("{other:?}"),
            };
            (kind, place)
        })
        .collect();
    assert_eq!(
        found,
        [
            // The route table first...
            (
                "too many path parameters",
                "nine_params /one/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}".to_owned()
            ),
            // ... then each route's state and its groups' dependencies', in declaration order ...
            ("group dependency", "ping /audit/ping".to_owned()),
            ("missing state", "read_ledger /audit/ledger".to_owned()),
            ("group dependency", "read_ledger /audit/ledger".to_owned()),
            ("missing state", "read_ledger /ledger".to_owned()),
            // ... then the app's settings.
            ("docs url", "redoc_url".to_owned()),
        ]
    );
    assert!(
        error
            .to_string()
            .starts_with("6 mistakes in the app:\n  route `nine_params` ("),
        "{error}"
    );
    assert!(
        error.to_string().contains("`/docs` is taken by docs_url"),
        "{error}"
    );
    // The route table reports the mistakes of the paths alone.
    let table = App::new().routes(routes![nine_params, ping]).route_table();
    let table = table.expect_err("nine parameters");
    assert_eq!(table.errors().count(), 1, "{table}");
    assert!(
        table.to_string().ends_with(": more than 8 path parameters"),
        "{table}"
    );
}

#[test]
fn one_mistake_is_one_line() {
    let error = App::new()
        .on_validation_error(StatusCode::OK, no_answer)
        .build()
        .map(drop)
        .expect_err("200 is no client error");
    assert_eq!(
        error.to_string(),
        "on_validation_error: status 200 is not a client error (4xx)"
    );
    assert_eq!(error.into_iter().count(), 1);
}
