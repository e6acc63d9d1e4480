//! Values that must come back exactly as sent (issue 43, item 1), through generated clients and
//! a server on 127.0.0.1 that answers each JSON body with the bytes it received (as FastAPI
//! echoes what pydantic read, where pydantic keeps them: an offset `time`; any JSON number):
//! 2^64, 1e400 and a 40-digit decimal in free-form JSON (`example_app`'s `POST /any`, an
//! `additionalProperties: true` body and a `{}` answer), and an aware `time` (`fastapi_client`'s
//! `POST /values`). The body each client sent is checked too: six digits of fraction, as the
//! server writes them.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use ferrapi_client::{Json, JsonNumber, JsonObject, Nullable};
use ferrapi_client_tests::{example_app, fastapi_client};
use http_body_util::BodyExt as _;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

/// A server on 127.0.0.1 answering every request `200 application/json` with its own body; the
/// last body received is kept in `seen`.
async fn echo_server(seen: Arc<Mutex<String>>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let service =
                    hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                        let seen = seen.clone();
                        async move {
                            let body = request
                                .into_body()
                                .collect()
                                .await
                                .map(|b| b.to_bytes())
                                .unwrap_or_default();
                            *seen.lock().unwrap() = String::from_utf8_lossy(&body).into_owned();
                            let mut answer = hyper::Response::new(http_body_util::Full::new(body));
                            answer.headers_mut().insert(
                                hyper::header::CONTENT_TYPE,
                                hyper::header::HeaderValue::from_static("application/json"),
                            );
                            Ok::<_, Infallible>(answer)
                        }
                    });
                let builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
                let _ = builder.serve_connection(TokioIo::new(socket), service).await;
            });
        }
    });
    addr
}

#[tokio::test]
async fn numbers_beyond_f64_round_trip_exactly() {
    let seen = Arc::new(Mutex::new(String::new()));
    let addr = echo_server(seen.clone()).await;
    let api = example_app::Client::new(&format!("http://{addr}")).unwrap();

    let two_to_the_64 = "18446744073709551616";
    let beyond_f64 = "1e400";
    let forty_digits = "1234567890123456789012345678901234.567891";
    let nested: Json = r#"[0.1000,{"deep":-0.0}]"#.parse().unwrap();
    let body: JsonObject = [
        ("big", Json::Number(two_to_the_64.parse::<JsonNumber>().unwrap())),
        ("huge", Json::Number(beyond_f64.parse().unwrap())),
        ("decimal", Json::Number(forty_digits.parse().unwrap())),
        ("nested", nested),
    ]
    .into_iter()
    .collect();
    let sent = format!(
        r#"{{"big":{two_to_the_64},"huge":{beyond_f64},"decimal":{forty_digits},"nested":[0.1000,{{"deep":-0.0}}]}}"#
    );

    let back = api.any_object(&body).await.unwrap().into_ok().unwrap();
    assert_eq!(*seen.lock().unwrap(), sent, "sent byte for byte");
    for (name, text) in [
        ("big", two_to_the_64),
        ("huge", beyond_f64),
        ("decimal", forty_digits),
    ] {
        assert_eq!(
            back[name].as_number().map(JsonNumber::as_str),
            Some(text),
            "{name}"
        );
    }
    assert_eq!(back.to_string(), sent, "read back byte for byte");
    assert_eq!(back["big"].as_number().unwrap().parse::<u128>(), Ok(1u128 << 64));
}

#[tokio::test]
async fn a_time_with_an_offset_round_trips_aware() {
    use fastapi_client::types::ValuesInput;
    use ferrapi_client::chrono::{FixedOffset, NaiveDate, NaiveTime};
    use ferrapi_client::Time;

    let seen = Arc::new(Mutex::new(String::new()));
    let addr = echo_server(seen.clone()).await;
    let api = fastapi_client::Client::new(&format!("http://{addr}")).unwrap();
    let values = ValuesInput {
        day: NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
        at: "2024-05-01T09:30:00.250+02:00".parse().unwrap(),
        local: "2024-05-01T09:30:00".parse().unwrap(),
        alarm: "10:30:00+02:00".parse().unwrap(),
        length: "P1DT2H3M4.5S".parse().unwrap(),
        id: "6f1c8a52-3f0e-4c8e-9d7b-2a1b3c4d5e6f".parse().unwrap(),
        price: "123.40".parse().unwrap(),
        email: "ada@example.org".into(),
        site: "https://example.org/".parse().unwrap(),
        v4: "192.0.2.1".parse().unwrap(),
        v6: "2001:db8::1".parse().unwrap(),
        any_ip: "::1".parse().unwrap(),
        tags: None,
        scores: None,
        note: Nullable::Absent,
    };
    let back = api.echo_values(&values).await.unwrap().into_ok().unwrap();
    let sent = seen.lock().unwrap().clone();
    assert!(sent.contains(r#""alarm":"10:30:00+02:00""#), "{sent}");
    assert!(
        sent.contains(r#""at":"2024-05-01T09:30:00.250000+02:00""#),
        "six digits: {sent}"
    );
    assert_eq!(
        back.alarm,
        Time::Aware(
            NaiveTime::from_hms_opt(10, 30, 0).unwrap(),
            FixedOffset::east_opt(7200).unwrap()
        )
    );
    assert_eq!(back.alarm.to_string(), "10:30:00+02:00");

    // UTC as FastAPI writes it, and a naive time, both read as sent.
    let utc: Time = ferrapi_client::serde_json::from_str(r#""01:01:01Z""#).unwrap();
    assert_eq!(utc.offset(), FixedOffset::east_opt(0));
    assert_eq!(utc.to_string(), "01:01:01Z");
}
