//! The clinic's doctors, patients and visits over real HTTP on 127.0.0.1, once with the embedded
//! store and once with MongoDB: create (201 + Location), read, list with filters, sorting and
//! paging, replace, delete (204), 404s, validation errors in pydantic's shape, references between
//! visits and doctors/patients (422 for unknown ones, 409 when deleting a referenced one), and
//! that query values are never operators. (Restart persistence with the real binary is in
//! `clinic_restart`.)

use std::net::SocketAddr;

use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, send_json, Reply};
use resource_api::clinic::{self, BirthDate};
use resource_api::config::Group;
use resource_api::store::{Store, StoreLocation};
use resource_api::{app, Db};
use serde_json::{json, Value};

use crate::support::{mongo_store, sqlite_store};

async fn serve(group: Group, store: Store, conn: &StoreLocation) -> SocketAddr {
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    spawn(app(group, Some(db))).await
}

async fn post(addr: SocketAddr, path: &str, body: Value) -> Reply {
    send_json(addr, "POST", path, &body.to_string()).await
}

async fn put(addr: SocketAddr, path: &str, body: Value) -> Reply {
    send_json(addr, "PUT", path, &body.to_string()).await
}

async fn delete(addr: SocketAddr, path: &str) -> Reply {
    send(addr, "DELETE", path, &[], None).await
}

/// Create and return the resource, checking 201, `Location` and the echoed fields.
async fn create(addr: SocketAddr, collection: &str, body: Value) -> Value {
    let reply = post(addr, &format!("/{collection}"), body.clone()).await;
    assert_eq!(reply.status, 201, "{}", reply.text());
    let created = reply.json();
    let id = created["id"].as_str().expect("an id").to_owned();
    assert_eq!(id.len(), 24, "{id}");
    assert_eq!(
        reply.header("location"),
        Some(format!("/{collection}/{id}").as_str())
    );
    // The id comes first.
    assert!(
        reply.text().starts_with(&format!(r#"{{"id":"{id}""#)),
        "{}",
        reply.text()
    );
    created
}

fn id(resource: &Value) -> &str {
    resource["id"].as_str().expect("an id")
}

fn names(reply: &Reply) -> Vec<String> {
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["name"].as_str().unwrap_or("?").to_owned())
        .collect()
}

async fn doctors_crud(store: Store, conn: StoreLocation) {
    let addr = serve(Group::A, store, &conn).await;
    assert_eq!(get(addr, "/doctors").await.json(), json!([]));

    let house = create(
        addr,
        "doctors",
        json!({"name": "Gregory House", "specialty": "neurology", "email": "house@example.org"}),
    )
    .await;
    assert_eq!(
        house,
        json!({"id": id(&house), "name": "Gregory House", "specialty": "neurology", "email": "house@example.org"})
    );
    // Optional fields default to null; unknown fields are ignored, as pydantic does.
    let quinn = create(
        addr,
        "doctors",
        json!({"name": "Michaela Quinn", "specialty": "general_practice", "horse": "Flash"}),
    )
    .await;
    assert_eq!(quinn["email"], Value::Null);
    assert!(quinn.get("horse").is_none());
    create(
        addr,
        "doctors",
        json!({"name": "Doug Ross", "specialty": "pediatrics"}),
    )
    .await;
    create(
        addr,
        "doctors",
        json!({"name": "Cristina Yang", "specialty": "surgery"}),
    )
    .await;
    create(
        addr,
        "doctors",
        json!({"name": "Allison Cameron", "specialty": "neurology"}),
    )
    .await;

    // Read.
    let reply = get(addr, &format!("/doctors/{}", id(&house))).await;
    assert_eq!((reply.status, reply.json()), (200, house.clone()));
    for missing in [
        "/doctors/000000000000000000000000",
        "/doctors/not-an-id",
        "/doctors/%24ne",
    ] {
        let reply = get(addr, missing).await;
        assert_eq!(reply.status, 404, "{missing}");
        assert_eq!(reply.json(), json!({"detail": "Doctor not found"}));
    }

    // List: creation order by default, newest first with `order=desc`.
    assert_eq!(
        names(&get(addr, "/doctors").await),
        [
            "Gregory House",
            "Michaela Quinn",
            "Doug Ross",
            "Cristina Yang",
            "Allison Cameron"
        ]
    );
    assert_eq!(
        names(&get(addr, "/doctors?order=desc&limit=2").await),
        ["Allison Cameron", "Cristina Yang"]
    );
    // Filters, sorting, paging.
    assert_eq!(
        names(&get(addr, "/doctors?specialty=neurology").await),
        ["Gregory House", "Allison Cameron"]
    );
    assert_eq!(
        names(&get(addr, "/doctors?specialty=neurology&sort=name").await),
        ["Allison Cameron", "Gregory House"]
    );
    assert_eq!(
        names(&get(addr, "/doctors?sort=name&order=desc&skip=1&limit=2").await),
        ["Gregory House", "Doug Ross"]
    );
    assert_eq!(
        names(&get(addr, "/doctors?sort=specialty").await),
        [
            "Michaela Quinn",
            "Gregory House",
            "Allison Cameron",
            "Doug Ross",
            "Cristina Yang"
        ]
    );
    assert_eq!(
        names(&get(addr, "/doctors?name=Doug%20Ross").await),
        ["Doug Ross"]
    );
    assert!(names(&get(addr, "/doctors?skip=5").await).is_empty());
    assert_eq!(names(&get(addr, "/doctors?limit=100").await).len(), 5);
    // Query values are values, never operators or SQL.
    for hostile in [
        "%24ne",
        "%7B%22%24ne%22%3Anull%7D",
        "%27%20OR%201%3D1%20--",
        "%24where",
    ] {
        assert!(
            names(&get(addr, &format!("/doctors?name={hostile}")).await).is_empty(),
            "{hostile}"
        );
    }

    // List parameters are validated like any query parameter.
    let reply = get(
        addr,
        "/doctors?specialty=wizardry&limit=101&skip=-1&sort=age&order=up",
    )
    .await;
    assert_eq!(reply.status, 422);
    let detail = reply.json()["detail"].clone();
    let kinds: Vec<_> = detail
        .as_array()
        .expect("a list")
        .iter()
        .map(|e| (e["loc"][1].as_str().unwrap_or("?").to_owned(), e["type"].clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("specialty".to_owned(), json!("enum")),
            ("sort".to_owned(), json!("enum")),
            ("order".to_owned(), json!("enum")),
            ("skip".to_owned(), json!("greater_than_equal")),
            ("limit".to_owned(), json!("less_than_equal")),
        ]
    );
    assert_eq!(
        detail[4],
        json!({"type": "less_than_equal", "loc": ["query", "limit"],
               "msg": "Input should be less than or equal to 100", "input": "101", "ctx": {"le": 100}})
    );
    assert_eq!(
        get(addr, "/doctors?limit=0").await.json()["detail"][0]["type"],
        "greater_than_equal"
    );

    // Replace: the whole resource, same id, 200.
    let reply = put(
        addr,
        &format!("/doctors/{}", id(&house)),
        json!({"name": "Gregory House", "specialty": "general_practice"}),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.json(),
        json!({"id": id(&house), "name": "Gregory House", "specialty": "general_practice", "email": null})
    );
    assert_eq!(
        get(addr, &format!("/doctors/{}", id(&house))).await.json(),
        reply.json()
    );
    // A replaced doctor keeps its place in creation order.
    assert_eq!(names(&get(addr, "/doctors?limit=1").await), ["Gregory House"]);
    let reply = put(
        addr,
        "/doctors/000000000000000000000000",
        json!({"name": "Nobody", "specialty": "surgery"}),
    )
    .await;
    assert_eq!(
        (reply.status, reply.json()),
        (404, json!({"detail": "Doctor not found"}))
    );
    // A bad body is 422 before anything is looked up.
    let reply = put(addr, "/doctors/000000000000000000000000", json!({"name": ""})).await;
    assert_eq!(reply.status, 422);

    // Delete: 204 without a body, then 404.
    let reply = delete(addr, &format!("/doctors/{}", id(&quinn))).await;
    assert_eq!(reply.status, 204);
    assert!(reply.body.is_empty());
    assert_eq!(get(addr, &format!("/doctors/{}", id(&quinn))).await.status, 404);
    let reply = delete(addr, &format!("/doctors/{}", id(&quinn))).await;
    assert_eq!(
        (reply.status, reply.json()),
        (404, json!({"detail": "Doctor not found"}))
    );
    assert_eq!(names(&get(addr, "/doctors").await).len(), 4);
}

async fn doctor_validation(store: Store, conn: StoreLocation) {
    let addr = serve(Group::A, store, &conn).await;
    let reply = post(
        addr,
        "/doctors",
        json!({"specialty": "dentistry", "name": "", "email": 5}),
    )
    .await;
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json(),
        json!({"detail": [
            {"type": "string_too_short", "loc": ["body", "name"],
             "msg": "String should have at least 1 character", "input": "", "ctx": {"min_length": 1}},
            {"type": "enum", "loc": ["body", "specialty"],
             "msg": "Input should be 'general_practice', 'cardiology', 'dermatology', 'neurology', 'oncology', 'orthopedics', 'pediatrics', 'psychiatry', 'radiology' or 'surgery'",
             "input": "dentistry",
             "ctx": {"expected": "'general_practice', 'cardiology', 'dermatology', 'neurology', 'oncology', 'orthopedics', 'pediatrics', 'psychiatry', 'radiology' or 'surgery'"}},
            {"type": "string_type", "loc": ["body", "email"], "msg": "Input should be a valid string", "input": 5}
        ]})
    );
    let reply = post(addr, "/doctors", json!({})).await;
    assert_eq!(
        reply.json(),
        json!({"detail": [
            {"type": "missing", "loc": ["body", "name"], "msg": "Field required", "input": {}},
            {"type": "missing", "loc": ["body", "specialty"], "msg": "Field required", "input": {}}
        ]})
    );
    let long = "x".repeat(101);
    let reply = post(addr, "/doctors", json!({"name": long, "specialty": "surgery"})).await;
    assert_eq!(reply.json()["detail"][0]["type"], "string_too_long");
    let reply = send_json(addr, "POST", "/doctors", "{\"name\":").await;
    assert_eq!(reply.json()["detail"][0]["type"], "json_invalid");
    let reply = send_json(addr, "POST", "/doctors", "[]").await;
    assert_eq!(reply.json()["detail"][0]["type"], "model_attributes_type");
    // Nothing was stored.
    assert_eq!(get(addr, "/doctors").await.json(), json!([]));
}

async fn patients_crud_and_dates(store: Store, conn: StoreLocation) {
    let addr = serve(Group::A, store, &conn).await;
    let ada = create(
        addr,
        "patients",
        json!({"name": "Ada", "date_of_birth": "1815-12-10"}),
    )
    .await;
    assert_eq!(
        ada,
        json!({"id": id(&ada), "name": "Ada", "date_of_birth": "1815-12-10", "phone": null})
    );
    create(
        addr,
        "patients",
        json!({"name": "Bob", "date_of_birth": "2000-02-29", "phone": "+34 600 000 000"}),
    )
    .await;
    create(
        addr,
        "patients",
        json!({"name": "Cy", "date_of_birth": "1999-12-31"}),
    )
    .await;
    // Born today (anywhere on Earth) is fine.
    let today = BirthDate::latest().to_string();
    create(
        addr,
        "patients",
        json!({"name": "Newborn", "date_of_birth": today}),
    )
    .await;

    assert_eq!(
        names(&get(addr, "/patients?sort=date_of_birth").await),
        ["Ada", "Cy", "Bob", "Newborn"]
    );
    assert_eq!(
        names(&get(addr, "/patients?sort=date_of_birth&order=desc").await),
        ["Newborn", "Bob", "Cy", "Ada"]
    );
    assert_eq!(
        names(&get(addr, "/patients?date_of_birth=2000-02-29").await),
        ["Bob"]
    );
    let reply = get(addr, "/patients?date_of_birth=2000-02-30").await;
    assert_eq!(
        reply.json(),
        json!({"detail": [{"type": "date_parsing", "loc": ["query", "date_of_birth"],
            "msg": "Input should be a valid date in the format YYYY-MM-DD, day value is outside expected range",
            "input": "2000-02-30", "ctx": {"error": "day value is outside expected range"}}]})
    );

    // Dates: the format, real days, not in the future, strings only.
    let cases = [
        (
            json!("2999-01-01"),
            json!({"type": "date_in_future", "loc": ["body", "date_of_birth"],
            "msg": "Date of birth should not be in the future", "input": "2999-01-01"}),
        ),
        (
            json!("1990-13-01"),
            json!({"type": "date_parsing", "loc": ["body", "date_of_birth"],
            "msg": "Input should be a valid date in the format YYYY-MM-DD, month value is outside expected range of 1-12",
            "input": "1990-13-01", "ctx": {"error": "month value is outside expected range of 1-12"}}),
        ),
        (
            json!("1990-1-1"),
            // pydantic's strict mode (tests/fastapi/strict_observed.json): shorter than
            // `YYYY-MM-DD`, so too short before any character is looked at.
            json!({"type": "date_parsing", "loc": ["body", "date_of_birth"],
            "msg": "Input should be a valid date in the format YYYY-MM-DD, input is too short",
            "input": "1990-1-1", "ctx": {"error": "input is too short"}}),
        ),
        (
            json!("10/12/1815"),
            json!({"type": "date_parsing", "loc": ["body", "date_of_birth"],
            "msg": "Input should be a valid date in the format YYYY-MM-DD, invalid character in year",
            "input": "10/12/1815", "ctx": {"error": "invalid character in year"}}),
        ),
        (
            json!("1990-01-01T00:00:00Z"),
            json!({"type": "date_parsing", "loc": ["body", "date_of_birth"],
            "msg": "Input should be a valid date in the format YYYY-MM-DD, unexpected extra characters at the end of the input",
            "input": "1990-01-01T00:00:00Z", "ctx": {"error": "unexpected extra characters at the end of the input"}}),
        ),
        (
            json!(19_900_101),
            json!({"type": "date_type", "loc": ["body", "date_of_birth"],
            "msg": "Input should be a valid date", "input": 19_900_101}),
        ),
        (
            Value::Null,
            json!({"type": "date_type", "loc": ["body", "date_of_birth"],
            "msg": "Input should be a valid date", "input": null}),
        ),
    ];
    for (value, error) in cases {
        let reply = post(addr, "/patients", json!({"name": "X", "date_of_birth": value})).await;
        assert_eq!(reply.status, 422, "{value}");
        assert_eq!(reply.json(), json!({"detail": [error]}), "{value}");
    }
    let reply = post(addr, "/patients", json!({"name": "X", "phone": "1".repeat(33)})).await;
    assert_eq!(reply.json()["detail"][0]["type"], "missing");
    assert_eq!(reply.json()["detail"][0]["loc"], json!(["body", "date_of_birth"]));
    assert_eq!(reply.json()["detail"][1]["type"], "string_too_long");

    let reply = put(
        addr,
        &format!("/patients/{}", id(&ada)),
        json!({"name": "Ada Lovelace", "date_of_birth": "1815-12-10", "phone": "1"}),
    )
    .await;
    assert_eq!(reply.json()["name"], "Ada Lovelace");
    assert_eq!(reply.json()["phone"], "1");
    assert_eq!(delete(addr, &format!("/patients/{}", id(&ada))).await.status, 204);
    let reply = get(addr, &format!("/patients/{}", id(&ada))).await;
    assert_eq!(
        (reply.status, reply.json()),
        (404, json!({"detail": "Patient not found"}))
    );
}

async fn visits_and_references(store: Store, conn: StoreLocation) {
    let addr = serve(Group::All, store, &conn).await;
    let doctor = create(addr, "doctors", json!({"name": "Who", "specialty": "cardiology"})).await;
    let other = create(addr, "doctors", json!({"name": "Watson", "specialty": "surgery"})).await;
    let patient = create(
        addr,
        "patients",
        json!({"name": "Amy", "date_of_birth": "1990-02-28"}),
    )
    .await;
    let visit = |doctor: &str, patient: &str, start: &str, reason: &str| json!({"doctor_id": doctor, "patient_id": patient, "start_time": start, "reason": reason});

    // The offset is applied and the instant answered in UTC; the duration defaults to 30.
    let first = create(
        addr,
        "visits",
        visit(
            id(&doctor),
            id(&patient),
            "2024-05-01T09:30:00.250+02:00",
            "Checkup",
        ),
    )
    .await;
    assert_eq!(
        first,
        json!({"id": id(&first), "doctor_id": id(&doctor), "patient_id": id(&patient),
               "start_time": "2024-05-01T07:30:00Z", "duration_minutes": 30, "reason": "Checkup", "notes": null})
    );
    let mut body = visit(id(&other), id(&patient), "2024-04-01T08:00:00Z", "Surgery");
    body["duration_minutes"] = json!(120);
    body["notes"] = json!("Fasting");
    let second = create(addr, "visits", body).await;
    create(
        addr,
        "visits",
        visit(
            id(&doctor),
            id(&patient),
            "2024-06-01T07:00:00-05:00",
            "Follow-up",
        ),
    )
    .await;

    let reasons = |reply: Reply| -> Vec<String> {
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply
            .json()
            .as_array()
            .expect("a list")
            .iter()
            .map(|v| v["reason"].as_str().unwrap_or("?").to_owned())
            .collect()
    };
    assert_eq!(
        reasons(get(addr, "/visits?sort=start_time").await),
        ["Surgery", "Checkup", "Follow-up"]
    );
    assert_eq!(
        reasons(
            get(
                addr,
                &format!("/visits?doctor_id={}&sort=start_time&order=desc", id(&doctor))
            )
            .await
        ),
        ["Follow-up", "Checkup"]
    );
    assert_eq!(
        reasons(
            get(
                addr,
                &format!("/visits?patient_id={}&doctor_id={}", id(&patient), id(&other))
            )
            .await
        ),
        ["Surgery"]
    );
    assert_eq!(
        reasons(get(addr, "/visits?sort=duration_minutes&order=desc&limit=1").await),
        ["Surgery"]
    );

    // Unknown doctor and patient: one 422 error for each.
    let reply = post(
        addr,
        "/visits",
        visit(
            "000000000000000000000000",
            "0123456789abcdef01234567",
            "2024-05-01T09:30:00Z",
            "X",
        ),
    )
    .await;
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json(),
        json!({"detail": [
            {"type": "not_found", "loc": ["body", "doctor_id"], "msg": "Doctor not found", "input": "000000000000000000000000"},
            {"type": "not_found", "loc": ["body", "patient_id"], "msg": "Patient not found", "input": "0123456789abcdef01234567"}
        ]})
    );
    // An id is 24 lowercase hex digits, as the stores assign them: anything else is refused by
    // the model, before any lookup (a 900 KB id was stored, echoed and kept before, issue 41).
    let pattern = json!({"pattern": "^[0-9a-f]{24}$"});
    for bad in ["nope", "0123456789ABCDEF01234567", "0123456789abcdef012345678"] {
        let reply = post(
            addr,
            "/visits",
            visit(id(&doctor), bad, "2024-05-01T09:30:00Z", "X"),
        )
        .await;
        assert_eq!(
            reply.json(),
            json!({"detail": [
                {"type": "string_pattern_mismatch", "loc": ["body", "patient_id"],
                 "msg": "String should match pattern '^[0-9a-f]{24}$'", "input": bad, "ctx": pattern}
            ]}),
            "{bad}"
        );
        let reply = get(addr, &format!("/visits?doctor_id={bad}")).await;
        assert_eq!(reply.status, 422, "{bad}");
        assert_eq!(
            reply.json()["detail"][0]["loc"],
            json!(["query", "doctor_id"]),
            "{bad}"
        );
    }
    let long = "x".repeat(101);
    let reply = get(addr, &format!("/doctors?name={long}")).await;
    assert_eq!(
        reply.json()["detail"][0]["type"],
        json!("string_too_long"),
        "a list's filters are bounded as the fields they filter"
    );
    // Field validation first: a visit that is invalid as a body is not looked up.
    let reply = post(
        addr,
        "/visits",
        json!({"doctor_id": id(&doctor), "patient_id": id(&patient), "start_time": "2024-05-01T09:30:00",
               "duration_minutes": 1, "reason": ""}),
    )
    .await;
    assert_eq!(
        reply.json(),
        json!({"detail": [
            {"type": "timezone_aware", "loc": ["body", "start_time"], "msg": "Input should have timezone info",
             "input": "2024-05-01T09:30:00"},
            {"type": "greater_than_equal", "loc": ["body", "duration_minutes"],
             "msg": "Input should be greater than or equal to 5", "input": 1, "ctx": {"ge": 5}},
            {"type": "string_too_short", "loc": ["body", "reason"],
             "msg": "String should have at least 1 character", "input": "", "ctx": {"min_length": 1}}
        ]})
    );
    let reply = post(
        addr,
        "/visits",
        visit(id(&doctor), id(&patient), "2024-05-01T25:00:00Z", "X"),
    )
    .await;
    assert_eq!(
        reply.json()["detail"][0],
        json!({"type": "datetime_parsing", "loc": ["body", "start_time"],
               "msg": "Input should be a valid datetime, hour value is outside expected range of 0-23",
               "input": "2024-05-01T25:00:00Z", "ctx": {"error": "hour value is outside expected range of 0-23"}})
    );
    // pydantic's strict mode (tests/fastapi/strict_observed.json): a date alone is no date-time.
    let reply = post(
        addr,
        "/visits",
        visit(id(&doctor), id(&patient), "2024-05-01", "X"),
    )
    .await;
    let separator = "invalid datetime separator, expected `T`, `t`, `_` or space";
    assert_eq!(
        reply.json()["detail"][0],
        json!({"type": "datetime_parsing", "loc": ["body", "start_time"],
               "msg": format!("Input should be a valid datetime, {separator}"),
               "input": "2024-05-01", "ctx": {"error": separator}})
    );

    // Replace a visit: its references are checked too.
    let path = format!("/visits/{}", id(&second));
    let reply = put(
        addr,
        &path,
        visit(
            "000000000000000000000000",
            id(&patient),
            "2024-04-01T08:00:00Z",
            "Surgery",
        ),
    )
    .await;
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["detail"][0]["loc"], json!(["body", "doctor_id"]));
    let reply = put(
        addr,
        &path,
        visit(id(&doctor), id(&patient), "2024-04-01T09:00:00+00:00", "Moved"),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["doctor_id"], json!(id(&doctor)));
    assert_eq!(reply.json()["start_time"], "2024-04-01T09:00:00Z");
    assert_eq!(reply.json()["duration_minutes"], 30, "a replacement is whole");
    // Seconds and the offset's colon may be left out, as pydantic's strict mode allows.
    let reply = put(
        addr,
        &path,
        visit(id(&doctor), id(&patient), "2024-04-01T10:00+0100", "Moved"),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["start_time"], "2024-04-01T09:00:00Z");
    let reply = put(
        addr,
        "/visits/000000000000000000000000",
        visit(id(&doctor), id(&patient), "2024-04-01T09:00:00Z", "X"),
    )
    .await;
    assert_eq!(
        (reply.status, reply.json()),
        (404, json!({"detail": "Visit not found"}))
    );

    // A doctor or patient with visits cannot be deleted; once the visits are gone they can.
    let reply = delete(addr, &format!("/doctors/{}", id(&doctor))).await;
    assert_eq!(reply.status, 409);
    assert_eq!(
        reply.json(),
        json!({"detail": "Doctor has visits; delete or reassign them first"})
    );
    let reply = delete(addr, &format!("/patients/{}", id(&patient))).await;
    assert_eq!(
        (reply.status, reply.json()),
        (
            409,
            json!({"detail": "Patient has visits; delete or reassign them first"})
        )
    );
    // `other` has no visit left (its one visit was moved).
    assert_eq!(
        delete(addr, &format!("/doctors/{}", id(&other))).await.status,
        204
    );
    let visits = get(addr, "/visits?limit=100").await.json();
    for v in visits.as_array().expect("a list") {
        assert_eq!(delete(addr, &format!("/visits/{}", id(v))).await.status, 204);
    }
    assert_eq!(
        delete(addr, &format!("/visits/{}", id(&first))).await.json(),
        json!({"detail": "Visit not found"})
    );
    assert_eq!(
        delete(addr, &format!("/doctors/{}", id(&doctor))).await.status,
        204
    );
    assert_eq!(
        delete(addr, &format!("/patients/{}", id(&patient))).await.status,
        204
    );
    // Group B still answers next to the clinic, on one store.
    assert_eq!(get(addr, "/api/hello").await.status, 200);
}

async fn booking_races_leave_no_orphan(store: Store, conn: StoreLocation) {
    let addr = serve(Group::A, store, &conn).await;
    for round in 0..5 {
        let doctor = create(
            addr,
            "doctors",
            json!({"name": format!("D{round}"), "specialty": "oncology"}),
        )
        .await;
        let patient = create(
            addr,
            "patients",
            json!({"name": "P", "date_of_birth": "2001-01-01"}),
        )
        .await;
        let body = json!({"doctor_id": id(&doctor), "patient_id": id(&patient),
                          "start_time": "2024-01-01T10:00:00Z", "reason": "race"});
        let path = format!("/doctors/{}", id(&doctor));
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let body = body.clone();
            tasks.push(tokio::spawn(
                async move { post(addr, "/visits", body).await.status },
            ));
        }
        let deleted = tokio::spawn(async move { delete(addr, &path).await.status });
        let mut booked = 0;
        for task in tasks {
            match task.await.expect("booking task") {
                201 => booked += 1,
                422 => {}
                other => panic!("booking answered {other}"),
            }
        }
        let deleted = deleted.await.expect("delete task");
        let visits = get(addr, &format!("/visits?doctor_id={}", id(&doctor)))
            .await
            .json();
        let left = visits.as_array().map_or(0, Vec::len);
        match deleted {
            // Deleted: no booking may have slipped in.
            204 => assert_eq!(left, 0, "round {round}: orphaned visits"),
            409 => assert!(
                left > 0 && left == booked,
                "round {round}: {left} visits, {booked} booked"
            ),
            other => panic!("delete answered {other}"),
        }
    }
}

/// `ETag` on reads and replacements, 304 on a matching `If-None-Match`, 412 for a stale
/// `If-Match` on `PUT` and `DELETE` (nothing written), for each resource; without the headers the
/// answers are as before (the other cases).
async fn conditional_requests(store: Store, conn: StoreLocation) {
    let addr = serve(Group::A, store, &conn).await;
    let doctor = create(addr, "doctors", json!({"name": "Ada", "specialty": "cardiology"})).await;
    let patient = create(
        addr,
        "patients",
        json!({"name": "Bob", "date_of_birth": "1990-01-01"}),
    )
    .await;
    let visit_body = json!({
        "doctor_id": id(&doctor), "patient_id": id(&patient),
        "start_time": "2030-01-01T10:00:00Z", "duration_minutes": 30, "reason": "check"
    });
    let visit = create(addr, "visits", visit_body.clone()).await;
    let resources = [
        (
            "doctors",
            id(&doctor).to_owned(),
            json!({"name": "Ada L.", "specialty": "cardiology"}),
        ),
        (
            "patients",
            id(&patient).to_owned(),
            json!({"name": "Bob B.", "date_of_birth": "1990-01-01"}),
        ),
        ("visits", id(&visit).to_owned(), json!({"reason": "follow-up"})),
    ];
    for (collection, rid, change) in resources {
        let path = format!("/{collection}/{rid}");
        let read = get(addr, &path).await;
        assert_eq!((read.status, read.header("etag")), (200, Some("\"1\"")), "{path}");
        let reply = send(addr, "GET", &path, &[("If-None-Match", "\"1\"")], None).await;
        assert_eq!(
            (reply.status, reply.body.len(), reply.header("etag")),
            (304, 0, Some("\"1\""))
        );

        let mut body = read.json();
        body.as_object_mut().expect("an object").remove("id");
        for (key, value) in change.as_object().expect("an object") {
            body[key.as_str()] = value.clone();
        }
        let text = body.to_string();
        let json = ("Content-Type", "application/json");
        let reply = send(
            addr,
            "PUT",
            &path,
            &[json, ("If-Match", "\"1\"")],
            Some(text.as_bytes()),
        )
        .await;
        assert_eq!(
            (reply.status, reply.header("etag")),
            (200, Some("\"2\"")),
            "{}",
            reply.text()
        );
        // A second client, still at version 1: 412, nothing written.
        let reply = send(
            addr,
            "PUT",
            &path,
            &[json, ("If-Match", "\"1\"")],
            Some(text.as_bytes()),
        )
        .await;
        assert_eq!(
            (reply.status, reply.text()),
            (412, r#"{"detail":"Precondition Failed"}"#.to_owned())
        );
        assert_eq!(get(addr, &path).await.header("etag"), Some("\"2\""));
        let reply = send(addr, "DELETE", &path, &[("If-Match", "\"1\"")], None).await;
        assert_eq!(reply.status, 412, "{path}");
        // Unknown resources stay 404 whatever the preconditions.
        let unknown = format!("/{collection}/000000000000000000000000");
        let reply = send(addr, "DELETE", &unknown, &[("If-Match", "\"1\"")], None).await;
        assert_eq!(reply.status, 404);
        let reply = send(addr, "GET", &unknown, &[("If-None-Match", "*")], None).await;
        assert_eq!(reply.status, 404);
    }
    // A doctor with visits is still 409 at the current version, and deleted once they are gone.
    let doctor_path = format!("/doctors/{}", id(&doctor));
    let reply = send(addr, "DELETE", &doctor_path, &[("If-Match", "\"2\"")], None).await;
    assert_eq!(reply.status, 409, "{}", reply.text());
    let visit_path = format!("/visits/{}", id(&visit));
    let reply = send(addr, "DELETE", &visit_path, &[("If-Match", "\"2\"")], None).await;
    assert_eq!(reply.status, 204);
    let reply = send(addr, "DELETE", &doctor_path, &[("If-Match", "*")], None).await;
    assert_eq!(reply.status, 204);
}

/// `POST /visits` with an `Idempotency-Key`, through two apps over one store (as two processes
/// share it): a retry sent to the other app gets the first answer, marked replayed; the key with
/// another visit is 422; many attempts racing with one key book one visit.
async fn idempotent_bookings(store: Store, conn: StoreLocation) {
    let first = serve(Group::A, store.clone(), &conn).await;
    let second = serve(Group::A, store, &conn).await;
    let doctor = create(
        first,
        "doctors",
        json!({"name": "Ada", "specialty": "cardiology"}),
    )
    .await;
    let patient = create(
        first,
        "patients",
        json!({"name": "Bob", "date_of_birth": "1990-01-01"}),
    )
    .await;
    let visit = json!({
        "doctor_id": id(&doctor), "patient_id": id(&patient),
        "start_time": "2030-01-01T10:00:00Z", "duration_minutes": 30, "reason": "check"
    })
    .to_string();
    let book = |addr: SocketAddr, key: &'static str, body: String| async move {
        let headers = [("Content-Type", "application/json"), ("Idempotency-Key", key)];
        send(addr, "POST", "/visits", &headers, Some(body.as_bytes())).await
    };
    let booked = book(first, "visit-1", visit.clone()).await;
    assert_eq!(
        (booked.status, booked.header("idempotent-replayed")),
        (201, None),
        "{}",
        booked.text()
    );
    let retry = book(second, "visit-1", visit.clone()).await;
    assert_eq!((retry.status, retry.text()), (201, booked.text()));
    assert_eq!(retry.header("location"), booked.header("location"));
    assert_eq!(retry.header("idempotent-replayed"), Some("true"));
    let other = visit.replace("check", "other");
    assert_eq!(book(second, "visit-1", other).await.status, 422);

    let racers: Vec<_> = (0..8)
        .map(|n| {
            let body = visit.clone();
            tokio::spawn(async move { book(if n % 2 == 0 { first } else { second }, "visit-2", body).await })
        })
        .collect();
    let mut fresh = 0;
    for racer in racers {
        let reply = racer.await.expect("a racer");
        match (reply.status, reply.header("idempotent-replayed")) {
            (201, None) => fresh += 1,
            (201, Some("true")) | (409, _) => {}
            other => panic!("{other:?}: {}", reply.text()),
        }
    }
    assert_eq!(fresh, 1, "one booking for the key");
    let visits = get(first, &format!("/visits?doctor_id={}", id(&doctor)))
        .await
        .json();
    assert_eq!(visits.as_array().map(Vec::len), Some(2), "{visits}");

    // Two keys (two fields, or one combined as HTTP combines them): 422 before anything is
    // booked or kept; each key alone books afterwards, unreplayed.
    for keys in [&["visit-3", "visit-4"][..], &["visit-3, visit-4"]] {
        let mut headers = vec![("Content-Type", "application/json")];
        headers.extend(keys.iter().map(|key| ("Idempotency-Key", *key)));
        let reply = send(first, "POST", "/visits", &headers, Some(visit.as_bytes())).await;
        assert_eq!(reply.status, 422, "{keys:?}: {}", reply.text());
        let error = &reply.json()["detail"][0];
        assert_eq!(error["loc"], json!(["header", "idempotency-key"]));
        assert_eq!(
            error["msg"],
            "Value error, Idempotency-Key must be sent once: the request has more than one value"
        );
    }
    let visits = get(first, &format!("/visits?doctor_id={}", id(&doctor)))
        .await
        .json();
    assert_eq!(
        visits.as_array().map(Vec::len),
        Some(2),
        "nothing booked: {visits}"
    );
    for key in ["visit-3", "visit-4"] {
        let reply = book(second, key, visit.clone()).await;
        assert_eq!(
            (reply.status, reply.header("idempotent-replayed")),
            (201, None),
            "{key}"
        );
    }
}

/// A list passes over at most `clinic::MAX_SKIP` resources (FastAPI's 422 for a `le` constraint
/// above it), and `order=desc` reverses the whole order, ties included.
async fn paging_is_bounded_and_desc_reverses_ties(store: Store, conn: StoreLocation) {
    let addr = serve(Group::A, store, &conn).await;
    for name in ["Ann", "Bea", "Cal", "Dee"] {
        let specialty = if name < "C" { "cardiology" } else { "surgery" };
        create(addr, "doctors", json!({"name": name, "specialty": specialty})).await;
    }
    assert_eq!(
        names(&get(addr, "/doctors?sort=specialty").await),
        ["Ann", "Bea", "Cal", "Dee"]
    );
    assert_eq!(
        names(&get(addr, "/doctors?sort=specialty&order=desc").await),
        ["Dee", "Cal", "Bea", "Ann"],
        "ties newest first"
    );
    assert_eq!(
        names(&get(addr, "/doctors?skip=10000").await),
        Vec::<String>::new()
    );
    for path in [
        "/doctors?skip=10001",
        "/patients?skip=20000",
        "/visits?skip=10001&sort=start_time",
    ] {
        let reply = get(addr, path).await;
        assert_eq!(reply.status, 422, "{path}");
        assert_eq!(
            reply.json()["detail"][0],
            json!({"type": "less_than_equal", "loc": ["query", "skip"],
                   "msg": "Input should be less than or equal to 10000",
                   "input": reply.json()["detail"][0]["input"].clone(), "ctx": {"le": 10000}}),
            "{path}"
        );
    }
    assert_eq!(clinic::MAX_SKIP, 10_000);
}

/// One `#[tokio::test]` per case and store.
macro_rules! both_stores {
    ($($case:ident),* $(,)?) => {
        mod embedded {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let (store, conn, _dir) = super::sqlite_store(stringify!($case)).await;
                    super::$case(store, conn).await;
                }
            )*
        }
        mod mongodb {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some((store, conn)) = super::mongo_store(stringify!($case)).await else { return };
                    super::$case(store, conn).await;
                }
            )*
        }
    };
}

both_stores![
    doctors_crud,
    doctor_validation,
    patients_crud_and_dates,
    visits_and_references,
    booking_races_leave_no_orphan,
    conditional_requests,
    idempotent_bookings,
    paging_is_bounded_and_desc_reverses_ties,
];

#[test]
fn the_collections_are_named_after_the_paths() {
    assert_eq!(
        [clinic::DOCTORS, clinic::PATIENTS, clinic::VISITS],
        ["doctors", "patients", "visits"]
    );
}
