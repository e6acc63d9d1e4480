//! The clinic through the generated client, on both stores: create (201, `Location`), read, list
//! with filters, sorting and paging, replace and delete; a read's `ETag` carried into `If-Match`
//! (a stale one is the typed `PreconditionFailed`), `If-None-Match` (`NotModified`); references
//! (a typed 422 naming the body field, a typed 409); a booking with an `Idempotency-Key` answered
//! once and replayed; a list read page after page through `.items()` and `.pages()` (more than
//! one page, a filter kept on every page).

use ferrapi_client::chrono::NaiveDate;
use ferrapi_client::{DateTime, Nullable};
use resource_api::config::Group;
use resource_api::store::{Store, StoreLocation};
use resource_api_client::operations::{
    CreateVisitResponse, DeleteDoctorResponse, ReadDoctorResponse, ReplaceDoctorResponse,
};
use resource_api_client::types::{
    Doctor, DoctorIn, DoctorSort, PatientIn, SortOrder, Specialty, ValidationErrorLocItem, VisitIn,
};
use resource_api_client::Client;

use super::serve;

fn doctor(name: &str, specialty: Specialty) -> DoctorIn {
    DoctorIn {
        name: name.to_owned(),
        specialty,
        email: Nullable::Absent,
    }
}

async fn create_doctor(api: &Client, name: &str, specialty: Specialty) -> Doctor {
    let answer = api.create_doctor(&doctor(name, specialty)).await.unwrap();
    assert_eq!(answer.status(), 201);
    let location = answer.location().map(str::to_owned);
    let created = answer.into_ok().unwrap();
    assert_eq!(location, Some(format!("/doctors/{}", created.id)));
    assert_eq!((created.name.as_str(), created.specialty), (name, specialty));
    created
}

async fn doctors_with_etags(store: Store, conn: StoreLocation) {
    let api = serve(Group::A, store, &conn).await;
    let house = create_doctor(&api, "Gregory House", Specialty::Neurology).await;
    create_doctor(&api, "Michaela Quinn", Specialty::GeneralPractice).await;
    create_doctor(&api, "Allison Cameron", Specialty::Neurology).await;

    // Lists: creation order, filters, sorting, paging.
    let names = |list: Vec<Doctor>| list.into_iter().map(|d| d.name).collect::<Vec<_>>();
    assert_eq!(
        names(api.list_doctors().await.unwrap().into_ok().unwrap()),
        ["Gregory House", "Michaela Quinn", "Allison Cameron"]
    );
    assert_eq!(
        names(
            api.list_doctors()
                .specialty(Specialty::Neurology)
                .sort(DoctorSort::Name)
                .await
                .unwrap()
                .into_ok()
                .unwrap()
        ),
        ["Allison Cameron", "Gregory House"]
    );
    assert_eq!(
        names(
            api.list_doctors()
                .order(SortOrder::Desc)
                .skip(1)
                .limit(1)
                .await
                .unwrap()
                .into_ok()
                .unwrap()
        ),
        ["Michaela Quinn"]
    );

    // Read: the doctor and its version.
    let read = api.read_doctor(&house.id).await.unwrap();
    let etag = read.etag().expect("an ETag");
    assert_eq!(read.into_ok().unwrap(), house);

    // A cache holding this version revalidates for free.
    let cached = api.read_doctor(&house.id).if_none_match(&etag).await.unwrap();
    assert!(
        matches!(cached.body(), ReadDoctorResponse::NotModified),
        "{cached:?}"
    );

    // A conditional update is one call; the new version comes back.
    let renamed = DoctorIn {
        email: Nullable::Value("house@example.org".into()),
        ..doctor("Greg House", Specialty::Neurology)
    };
    let replaced = api
        .replace_doctor(&house.id, &renamed)
        .if_match(&etag)
        .await
        .unwrap();
    let newer = replaced.etag().expect("a new ETag");
    assert_ne!(newer, etag);
    assert_eq!(
        replaced.into_ok().unwrap().email.as_option().map(String::as_str),
        Some("house@example.org")
    );

    // A write from the stale version is refused, not lost silently: its own variant.
    let stale = api
        .replace_doctor(&house.id, &doctor("Lost", Specialty::Surgery))
        .if_match(&etag)
        .await
        .unwrap();
    assert!(
        matches!(stale.body(), ReplaceDoctorResponse::PreconditionFailed(_)),
        "{stale:?}"
    );
    let deleted_stale = api.delete_doctor(&house.id).if_match(&etag).await.unwrap();
    assert!(matches!(
        deleted_stale.body(),
        DeleteDoctorResponse::PreconditionFailed(_)
    ));

    // Delete with the current version, then 404.
    let deleted = api.delete_doctor(&house.id).if_match(&newer).await.unwrap();
    assert!(
        matches!(deleted.body(), DeleteDoctorResponse::NoContent),
        "{deleted:?}"
    );
    match api.read_doctor(&house.id).await.unwrap().into_body() {
        ReadDoctorResponse::NotFound(error) => {
            assert_eq!(error.message().as_deref(), Some("Doctor not found"))
        }
        other => panic!("{other:?}"),
    }
}

async fn patients_and_visits(store: Store, conn: StoreLocation) {
    let api = serve(Group::A, store, &conn).await;
    let yang = create_doctor(&api, "Cristina Yang", Specialty::Surgery).await;
    let born = NaiveDate::from_ymd_opt(1990, 1, 31).unwrap();
    let patient = api
        .create_patient(&PatientIn {
            name: "Bob".into(),
            date_of_birth: born,
            phone: Nullable::Value("+41791234567".into()),
        })
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(patient.date_of_birth, born);
    let found = api
        .list_patients()
        .date_of_birth(born)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(found, std::slice::from_ref(&patient));
    let read = api.read_patient(&patient.id).await.unwrap().into_ok().unwrap();
    assert_eq!(read, patient);

    // A booking: its start time answered in UTC, to the second.
    let starts: DateTime = "2030-05-01T09:30:00+02:00".parse().unwrap();
    let booking = VisitIn {
        doctor_id: yang.id.clone(),
        patient_id: patient.id.clone(),
        start_time: starts,
        duration_minutes: None,
        reason: "check-up".into(),
        notes: Nullable::Absent,
    };
    let first = api
        .create_visit(&booking)
        .idempotency_key("visit-1")
        .await
        .unwrap();
    assert_eq!(first.status(), 201);
    assert!(!first.replayed());
    let visit = first.into_ok().unwrap();
    assert_eq!(visit.start_time.to_string(), "2030-05-01T07:30:00Z");
    assert_eq!(visit.duration_minutes, 30, "the default duration");
    // The same key again: the first answer, replayed, no second visit.
    let again = api
        .create_visit(&booking)
        .idempotency_key("visit-1")
        .await
        .unwrap();
    assert!(again.replayed());
    assert_eq!(again.into_ok().unwrap(), visit);
    // Without a key of its own, each call sends a fresh one: two calls, two visits.
    let second = api.create_visit(&booking).await.unwrap().into_ok().unwrap();
    assert_ne!(second.id, visit.id);
    let visits = api
        .list_visits()
        .doctor_id(yang.id.clone())
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(visits.len(), 2);

    // An unknown doctor is a 422 naming the body field; a doctor with visits cannot be deleted.
    let unknown = VisitIn {
        doctor_id: "000000000000000000000000".into(),
        ..booking.clone()
    };
    match api.create_visit(&unknown).await.unwrap().into_body() {
        CreateVisitResponse::UnprocessableEntity(error) => {
            let item = &error.detail.as_ref().expect("items")[0];
            assert_eq!(item.type_, "not_found");
            assert_eq!(
                item.loc,
                [
                    ValidationErrorLocItem::String("body".into()),
                    ValidationErrorLocItem::String("doctor_id".into())
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    match api.delete_doctor(&yang.id).await.unwrap().into_body() {
        DeleteDoctorResponse::Conflict(error) => {
            assert_eq!(
                error.message().as_deref(),
                Some("Doctor has visits; delete or reassign them first")
            );
        }
        other => panic!("{other:?}"),
    }

    // Replace a visit, then delete both, and the doctor can go.
    let moved = VisitIn {
        reason: "follow-up".into(),
        duration_minutes: Some(45),
        ..booking.clone()
    };
    let replaced = api
        .replace_visit(&visit.id, &moved)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        (replaced.reason.as_str(), replaced.duration_minutes),
        ("follow-up", 45)
    );
    for id in [&visit.id, &second.id] {
        assert_eq!(api.delete_visit(id).await.unwrap().status(), 204);
    }
    assert_eq!(api.delete_doctor(&yang.id).await.unwrap().status(), 204);
    assert_eq!(api.delete_patient(&patient.id).await.unwrap().status(), 204);
    let patch = PatientIn {
        name: "Bob".into(),
        date_of_birth: born,
        phone: Nullable::Absent,
    };
    assert_eq!(
        api.replace_patient(&patient.id, &patch).await.unwrap().status(),
        404
    );
}

/// The clinic's doctors page themselves: `skip`/`limit` are inferred from the document (or its
/// `x-paging`), so `.items()` reads every doctor across pages and `.pages()` shows the pages.
async fn doctors_page_themselves(store: Store, conn: StoreLocation) {
    use futures_util::StreamExt as _;

    let api = serve(Group::A, store, &conn).await;
    // 45 doctors, one in three a neurologist (15), created in this order.
    let mut created = Vec::new();
    for n in 0..45 {
        let specialty = if n % 3 == 0 {
            Specialty::Neurology
        } else {
            Specialty::Cardiology
        };
        let answer = api
            .create_doctor(&doctor(&format!("Doctor {n:02}"), specialty))
            .await
            .unwrap();
        created.push(answer.into_ok().unwrap());
    }
    let names = |list: &[Doctor]| list.iter().map(|d| d.name.clone()).collect::<Vec<_>>();

    // Pages of 20: three pages (20, 20, 5), every doctor once, in creation order.
    let pages: Vec<Vec<Doctor>> = api
        .list_doctors()
        .limit(20)
        .pages()
        .map(|page| page.unwrap())
        .collect()
        .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [20, 20, 5]);
    assert_eq!(pages.concat(), created);

    // Item by item with the default page size (100, the limit's maximum): one page.
    let items: Vec<Doctor> = api
        .list_doctors()
        .items()
        .map(|item| item.unwrap())
        .collect()
        .await;
    assert_eq!(items, created);

    // A filter and a sort are sent with every page: 15 neurologists by name, newest first, in
    // pages of 4 (4, 4, 4, 3).
    let pages: Vec<Vec<Doctor>> = api
        .list_doctors()
        .specialty(Specialty::Neurology)
        .sort(DoctorSort::Name)
        .order(SortOrder::Desc)
        .limit(4)
        .pages()
        .map(|page| page.unwrap())
        .collect()
        .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 4, 3]);
    let neurologists: Vec<String> = (0..45)
        .rev()
        .filter(|n| n % 3 == 0)
        .map(|n| format!("Doctor {n:02}"))
        .collect();
    assert_eq!(names(&pages.concat()), neurologists);

    // From the caller's skip on.
    let items: Vec<Doctor> = api
        .list_doctors()
        .skip(40)
        .limit(2)
        .items()
        .map(|item| item.unwrap())
        .collect()
        .await;
    assert_eq!(items, created[40..]);

    // A page the service refuses (a limit past its maximum, 100) ends the stream with its 422.
    let mut items = api.list_doctors().limit(101).items();
    let refused = items.next().await.unwrap().unwrap_err();
    assert_eq!(
        refused.status().map(|status| status.as_u16()),
        Some(422),
        "{refused}"
    );
    assert!(items.next().await.is_none());
}

both_stores![doctors_with_etags, patients_and_visits, doctors_page_themselves];
