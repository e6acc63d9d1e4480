//! The service's OpenAPI document (group A): every served operation documented with the JSON
//! Schema of its response, shadowed forms left out, the models as components, the clinic's
//! resources with their statuses. (The document is also validated and used to generate a client
//! by `scripts/docs-checks.sh`.)

use resource_api::clinic;
use resource_api::config::Group;
use resource_api::Db;
use serde_json::{json, Value};

fn document() -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let (store, conn, _dir) = crate::support::sqlite_store("openapi").await;
        let db = Db::prepare(store, conn.effective()).await.expect("prepare");
        let service = resource_api::app(Group::A, Some(db))
            .build()
            .expect("group A builds");
        serde_json::from_slice(service.openapi_json()).expect("JSON")
    })
}

#[test]
fn info_and_version() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Resource API");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn every_group_a_operation_has_a_typed_response() {
    let doc = document();
    let expected = [
        ("/", "get", json!({"$ref": "#/components/schemas/Message"})),
        (
            "/item/{id}",
            "get",
            json!({"$ref": "#/components/schemas/ItemId"}),
        ),
        (
            "/user/me",
            "get",
            json!({"$ref": "#/components/schemas/CurrentUser"}),
        ),
        (
            "/user/{id}",
            "get",
            json!({"$ref": "#/components/schemas/UserId"}),
        ),
        (
            "/user/{user_id}/item/{item_id}",
            "get",
            json!({"$ref": "#/components/schemas/UserItem"}),
        ),
        (
            "/stock/{symbol}/{type}",
            "get",
            json!({"$ref": "#/components/schemas/Quote"}),
        ),
        (
            "/person",
            "get",
            json!({"type": "array", "items": {"$ref": "#/components/schemas/Person"}}),
        ),
        (
            "/item",
            "post",
            json!({"$ref": "#/components/schemas/ItemWithTax"}),
        ),
        (
            "/item/{item_id}",
            "put",
            json!({"$ref": "#/components/schemas/UpdatedItem"}),
        ),
        (
            "/employee/{id}",
            "get",
            json!({"$ref": "#/components/schemas/Employee"}),
        ),
    ];
    let mut count = 0;
    let clinic = [
        (
            "/doctors",
            "get",
            json!({"type": "array", "items": {"$ref": "#/components/schemas/Doctor"}}),
        ),
        (
            "/patients",
            "get",
            json!({"type": "array", "items": {"$ref": "#/components/schemas/Patient"}}),
        ),
        (
            "/visits",
            "get",
            json!({"type": "array", "items": {"$ref": "#/components/schemas/Visit"}}),
        ),
        (
            "/doctors/{doctor_id}",
            "get",
            json!({"$ref": "#/components/schemas/Doctor"}),
        ),
        (
            "/doctors/{doctor_id}",
            "put",
            json!({"$ref": "#/components/schemas/Doctor"}),
        ),
        (
            "/patients/{patient_id}",
            "get",
            json!({"$ref": "#/components/schemas/Patient"}),
        ),
        (
            "/patients/{patient_id}",
            "put",
            json!({"$ref": "#/components/schemas/Patient"}),
        ),
        (
            "/visits/{visit_id}",
            "get",
            json!({"$ref": "#/components/schemas/Visit"}),
        ),
        (
            "/visits/{visit_id}",
            "put",
            json!({"$ref": "#/components/schemas/Visit"}),
        ),
    ];
    for (path, method, schema) in expected.into_iter().chain(clinic) {
        let op = &doc["paths"][path][method];
        let ok = &op["responses"]["200"];
        assert_eq!(ok["description"], "Successful Response", "{method} {path}");
        assert_eq!(
            ok["content"]["application/json"]["schema"], schema,
            "{method} {path}"
        );
        count += 1;
    }
    let documented: usize = doc["paths"]
        .as_object()
        .map(|paths| {
            paths
                .values()
                .filter_map(Value::as_object)
                .map(|item| item.len())
                .sum()
        })
        .unwrap_or_default();
    // POST answers 201 with the created resource, DELETE 204 without a body.
    for (collection, model) in [
        ("doctors", "Doctor"),
        ("patients", "Patient"),
        ("visits", "Visit"),
    ] {
        let created = &doc["paths"][format!("/{collection}")]["post"]["responses"];
        assert_eq!(
            created["201"]["content"]["application/json"]["schema"],
            json!({"$ref": format!("#/components/schemas/{model}")})
        );
        assert!(created.get("200").is_none(), "{created}");
        let item = format!("/{collection}/{{{}_id}}", &collection[..collection.len() - 1]);
        let deleted = &doc["paths"][&item]["delete"]["responses"];
        assert_eq!(deleted["204"], json!({"description": "Successful Response"}));
        assert_eq!(deleted["404"]["description"], format!("{model} not found"));
        count += 2;
    }
    assert_eq!(
        doc["paths"]["/doctors/{doctor_id}"]["delete"]["responses"]["409"],
        json!({"description": "The doctor has visits"})
    );
    assert_eq!(documented, count, "only the served routes are documented");
    assert_eq!(
        doc["paths"]["/employee/{id}"]["get"]["responses"]["404"],
        json!({"description": "Employee not found"})
    );
}

#[test]
fn the_shadowed_item_forms_are_not_documented() {
    let doc = document();
    let item = doc["paths"]["/item/{id}"].as_object().expect("a path item");
    assert_eq!(item.len(), 1);
    // FastAPI's `operationId`: the function's name, the path and the method.
    assert_eq!(item["get"]["operationId"], "read_item_item__id__get");
    assert!(doc["paths"]
        .get("/item/{item_id}")
        .is_some_and(|p| p.get("get").is_none()));
}

#[test]
fn response_models_leave_out_absent_keys() {
    let doc = document();
    let user_item = &doc["components"]["schemas"]["UserItem"];
    assert_eq!(user_item["required"], json!(["item_id", "owner_id"]));
    assert_eq!(
        user_item["properties"]["q"],
        json!({
            "anyOf": [{"type": "string"}, {"type": "null"}],
            "title": "Q",
            "description": "The query `q`, when given and not empty."
        })
    );
    assert_eq!(
        doc["components"]["schemas"]["Quote"]["properties"]["type"],
        json!({"$ref": "#/components/schemas/OrderType", "description": "The side quoted."})
    );
}

#[test]
fn clinic_models_carry_their_constraints_and_formats() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["PatientIn"]["properties"]["date_of_birth"],
        json!({"type": "string", "format": "date", "title": "Date Of Birth",
               "description": "Date of birth, `YYYY-MM-DD`, not in the future."})
    );
    assert_eq!(
        schemas["VisitIn"]["properties"]["start_time"]["format"],
        json!("date-time")
    );
    assert_eq!(
        schemas["VisitIn"]["properties"]["duration_minutes"],
        // A model field's bounds are floats, as FastAPI writes them.
        json!({"type": "integer", "format": "uint16", "minimum": 5.0, "maximum": 480.0, "default": 30,
               "title": "Duration Minutes", "description": "How long the visit lasts, in minutes."})
    );
    assert_eq!(
        schemas["VisitIn"]["required"],
        json!(["doctor_id", "patient_id", "start_time", "reason"])
    );
    assert_eq!(schemas["DoctorIn"]["properties"]["name"]["minLength"], json!(1));
    assert_eq!(schemas["Specialty"]["enum"][0], json!("general_practice"));
    let list = &doc["paths"]["/doctors"]["get"];
    let limit = list["parameters"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "limit"))
        .expect("a limit parameter");
    assert_eq!(
        limit["schema"],
        json!({"type": "integer", "format": "int64", "minimum": 1, "maximum": 100, "default": 20, "title": "Limit"})
    );
    assert_eq!(list["tags"], json!(["doctors"]));

    // Every free text a clinic write keeps (or a list filters by) is bounded, in the document
    // (issue 41: a 900 KB `doctor_id` was stored, echoed and kept for a day).
    for (schema, field, bound) in [
        ("DoctorIn", "name", "maxLength"),
        ("DoctorIn", "email", "maxLength"),
        ("PatientIn", "name", "maxLength"),
        ("PatientIn", "phone", "maxLength"),
        ("VisitIn", "reason", "maxLength"),
        ("VisitIn", "notes", "maxLength"),
        ("VisitIn", "doctor_id", "pattern"),
        ("VisitIn", "patient_id", "pattern"),
    ] {
        let property = &schemas[schema]["properties"][field];
        let bounded = property[bound].is_number()
            || property[bound].is_string()
            || property["anyOf"][0][bound].is_number();
        assert!(bounded, "{schema}.{field}: {property}");
    }
    assert_eq!(
        schemas["VisitIn"]["properties"]["doctor_id"]["pattern"],
        json!(clinic::models::ID_PATTERN)
    );
    for (path, name, bound) in [
        ("/visits", "doctor_id", "pattern"),
        ("/visits", "patient_id", "pattern"),
        ("/doctors", "name", "maxLength"),
        ("/patients", "name", "maxLength"),
    ] {
        let parameter = doc["paths"][path]["get"]["parameters"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == name))
            .cloned()
            .unwrap_or_default();
        let schema = &parameter["schema"];
        assert!(
            !schema[bound].is_null() || !schema["anyOf"][0][bound].is_null(),
            "{path}?{name}: {schema}"
        );
    }
}

#[test]
fn the_clinic_documents_its_preconditions() {
    let doc = document();
    for (path, methods) in [
        ("/doctors/{doctor_id}", ["get", "put", "delete"]),
        ("/patients/{patient_id}", ["get", "put", "delete"]),
        ("/visits/{visit_id}", ["get", "put", "delete"]),
    ] {
        for method in methods {
            let op = &doc["paths"][path][method];
            let headers: Vec<&Value> = op["parameters"]
                .as_array()
                .expect("parameters")
                .iter()
                .filter(|p| p["in"] == "header")
                .map(|p| &p["name"])
                .collect();
            assert_eq!(
                headers,
                [&json!("If-Match"), &json!("If-None-Match")],
                "{method} {path}"
            );
            assert_eq!(
                op["responses"]["412"],
                json!({"description": "Precondition Failed"}),
                "{method} {path}"
            );
            let not_modified = op["responses"].get("304").is_some();
            assert_eq!(
                not_modified,
                method == "get",
                "{method} {path}: 304 only on reads"
            );
        }
    }
    // The list and the create take no preconditions.
    assert!(doc["paths"]["/doctors"]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .all(|p| p["in"] == "query"));
}

#[test]
fn a_clinic_list_documents_its_deepest_page() {
    let doc = document();
    for path in ["/doctors", "/patients", "/visits"] {
        let skip = doc["paths"][path]["get"]["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == "skip")
            .cloned();
        assert_eq!(
            skip.map(|p| p["schema"].clone()),
            Some(
                json!({"type": "integer", "format": "int64", "minimum": 0, "maximum": 10000, "default": 0, "title": "Skip"})
            ),
            "{path}"
        );
    }
}
