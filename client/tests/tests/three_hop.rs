//! One trace across three hops (issue 45, item 5), seen by a real OTLP receiver on 127.0.0.1
//! (`ferrapi_tests::otlp`, decoding with `opentelemetry-proto`): this program, with the
//! OpenTelemetry SDK as its tracer, calls service A through the client (the `otel` feature);
//! A's handler takes its request's `TraceContext`, makes it the current OpenTelemetry context
//! and calls service B through a client of its own; A and B are ferrapi apps exporting over OTLP
//! to the receiver. The receiver sees four spans of one trace, each the child of the one before:
//! the program's client span, A's server span, A's client span, B's server span.
//!
//! The program's SDK spans reach the receiver as an OTLP exporter would send them: the SDK's
//! span data turned into OTLP messages by `opentelemetry-proto`'s own transform, posted to
//! `/v1/traces`. A and the program share one process, so one global SDK records both client
//! spans; each is posted under the resource of the hop that made it (A's is the one whose parent
//! came over the wire).

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use ferrapi::prelude::*;
use ferrapi::trace::otlp::{OtlpConfig, OtlpExporter};
use ferrapi::trace::{Resource, TraceContext, Tracing};
use ferrapi_client::opentelemetry::context::FutureExt as _;
use ferrapi_client::opentelemetry::trace::{
    SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
};
use ferrapi_client::opentelemetry::{global, Context};
use ferrapi_client::{CallOptions, Client, Method, Raw};
use ferrapi_tests::app::spawn;
use ferrapi_tests::otlp::{hex, int, receiver, string, Span, SpanKind};
use http_body_util::Full;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::rt::TokioExecutor;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::transform::common::tonic::ResourceAttributesWithSchema;
use opentelemetry_proto::transform::trace::tonic::group_spans_by_resource_and_scope;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use prost::Message as _;

/// Service B: the stock of an item.
#[get("/stock/{sku}")]
async fn stock(sku: String) -> Json<Value> {
    Json(json!({ "sku": sku, "count": 3 }))
}

/// Service A: an order, whose stock it asks B for, in the request's trace.
#[get("/order/{id}")]
async fn order(id: i64, trace: TraceContext, b: State<Client>) -> Result<Json<Value>, HttpError> {
    let answer = b
        .call_route::<Raw, _>(Method::GET, "/stock/{sku}", CallOptions::default(), |request| {
            request.path("/stock/");
            request.path_param(&format!("sku-{id}"));
        })
        .with_context(otel_context(&trace))
        .await
        .map_err(|error| HttpError::new(502, error.to_string()))?;
    Ok(Json(json!({ "id": id, "stock": answer.status().as_u16() })))
}

/// The request's trace context as OpenTelemetry's: the server span of this request is the
/// parent of what the handler calls.
fn otel_context(trace: &TraceContext) -> Context {
    let flags = if trace.is_sampled() {
        TraceFlags::SAMPLED
    } else {
        TraceFlags::default()
    };
    Context::new().with_remote_span_context(SpanContext::new(
        TraceId::from_bytes(trace.trace_id().to_bytes()),
        SpanId::from_bytes(trace.span_id().to_bytes()),
        flags,
        true,
        TraceState::default(),
    ))
}

/// A ferrapi app named `service` exporting its spans to the receiver at `receiver`.
fn tracing(service: &str, receiver: SocketAddr) -> Tracing {
    let exporter = OtlpExporter::start(
        OtlpConfig::default()
            .endpoint(&format!("http://{receiver}/v1/traces"))
            .unwrap()
            .schedule_delay(Duration::from_millis(20)),
    )
    .unwrap();
    Tracing::new()
        .trust_parent(true)
        .resource(Resource::new(service))
        .exporter(exporter)
}

/// Post `spans` to the receiver as service `service`, as an OTLP/HTTP exporter does.
async fn post(receiver: SocketAddr, service: &'static str, spans: Vec<SpanData>) {
    let resource = opentelemetry_sdk::Resource::builder_empty()
        .with_service_name(service)
        .build();
    let request = ExportTraceServiceRequest {
        resource_spans: group_spans_by_resource_and_scope(
            spans,
            &ResourceAttributesWithSchema::from(&resource),
        ),
    };
    let client = HyperClient::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let post = hyper::Request::post(format!("http://{receiver}/v1/traces"))
        .header("content-type", "application/x-protobuf")
        .body(Full::new(Bytes::from(request.encode_to_vec())))
        .unwrap();
    assert_eq!(client.request(post).await.unwrap().status(), 200);
}

/// One line of the trace as the receiver saw it.
fn line(service: &str, span: &Span) -> String {
    let kind = if span.kind == SpanKind::Server as i32 {
        "server"
    } else if span.kind == SpanKind::Client as i32 {
        "client"
    } else {
        "other"
    };
    let parent = if span.parent_span_id.is_empty() {
        "-".repeat(16)
    } else {
        hex(&span.parent_span_id)
    };
    let mut attributes = Vec::new();
    for key in [
        "http.request.method",
        "http.route",
        "url.template",
        "url.full",
        "url.path",
        "server.address",
    ] {
        if let Some(value) = string(&span.attributes, key) {
            attributes.push(format!("{key}={value}"));
        }
    }
    for key in ["server.port", "http.response.status_code"] {
        if let Some(value) = int(&span.attributes, key) {
            attributes.push(format!("{key}={value}"));
        }
    }
    format!(
        "trace={} span={} parent={} {kind:<6} {service:<10} {:<18} {}",
        hex(&span.trace_id),
        hex(&span.span_id),
        parent,
        span.name,
        attributes.join(" ")
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_through_a_to_b_is_one_trace_at_the_receiver() {
    let (receiver_addr, received) = receiver(Duration::ZERO).await;
    // The program's SDK, installed before any client is built (a client takes the global
    // providers when it is built).
    let memory = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(memory.clone())
        .build();
    global::set_tracer_provider(provider.clone());
    global::set_text_map_propagator(TraceContextPropagator::new());

    let b = spawn(
        App::new()
            .routes(routes![stock])
            .tracing(tracing("service-b", receiver_addr)),
    )
    .await;
    let to_b = Client::new(&format!("http://{b}")).unwrap();
    let a = spawn(
        App::new()
            .state(to_b)
            .routes(routes![order])
            .tracing(tracing("service-a", receiver_addr)),
    )
    .await;

    let answer = Client::new(&format!("http://{a}"))
        .unwrap()
        .call_route::<Raw, _>(Method::GET, "/order/{id}", CallOptions::default(), |request| {
            request.path("/order/");
            request.path_param(&42);
        })
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let body: Value = answer.body().json().unwrap();
    assert_eq!(body["stock"], 200, "A reached B: {body}");

    // The program's client spans, posted as each hop's.
    let (of_a, of_program): (Vec<SpanData>, Vec<SpanData>) = memory
        .get_finished_spans()
        .unwrap()
        .into_iter()
        .partition(|s| s.parent_span_is_remote);
    assert_eq!((of_a.len(), of_program.len()), (1, 1), "one client span per hop");
    post(receiver_addr, "caller", of_program).await;
    post(receiver_addr, "service-a", of_a).await;

    let spans = received.wait_for(4).await;
    assert_eq!(spans.len(), 4, "{spans:?}");
    let find = |service: &str, kind: SpanKind| {
        spans
            .iter()
            .find(|(s, span)| s == service && span.kind == kind as i32)
            .map(|(_, span)| span)
            .unwrap_or_else(|| panic!("a {kind:?} span of {service}: {spans:?}"))
    };
    let program = find("caller", SpanKind::Client);
    let a_server = find("service-a", SpanKind::Server);
    let a_client = find("service-a", SpanKind::Client);
    let b_server = find("service-b", SpanKind::Server);
    let chain = [program, a_server, a_client, b_server];

    println!("the trace, as the receiver saw it (parent before child):");
    for (service, span) in ["caller", "service-a", "service-a", "service-b"]
        .iter()
        .zip(chain)
    {
        println!("  {}", line(service, span));
    }

    assert!(
        chain.iter().all(|span| span.trace_id == program.trace_id),
        "one trace"
    );
    assert!(
        program.parent_span_id.is_empty(),
        "the program's call is the root"
    );
    assert_eq!(
        a_server.parent_span_id, program.span_id,
        "A's request is under the program's call"
    );
    assert_eq!(
        a_client.parent_span_id, a_server.span_id,
        "A's call is under its request"
    );
    assert_eq!(
        b_server.parent_span_id, a_client.span_id,
        "B's request is under A's call"
    );
    assert_eq!(program.name, "GET /order/{id}");
    assert_eq!(a_server.name, "GET /order/{id}");
    assert_eq!(a_client.name, "GET /stock/{sku}");
    assert_eq!(b_server.name, "GET /stock/{sku}");
    assert_eq!(
        string(&a_client.attributes, "url.full"),
        Some(format!("http://{b}/stock/sku-42"))
    );
    assert_eq!(int(&program.attributes, "http.response.status_code"), Some(200));
    assert_eq!(int(&b_server.attributes, "http.response.status_code"), Some(200));
    assert_eq!(
        string(&b_server.attributes, "url.path").as_deref(),
        Some("/stock/sku-42")
    );
}
