//! The axum peer with OpenTelemetry as its ecosystem does it (usage: `peer-axum-otel PORT
//! OPENAPI_FILE`): `axum-tracing-opentelemetry`'s layers, `tracing-opentelemetry` as the bridge,
//! the SDK's batch span processor and `opentelemetry-otlp` over HTTP/protobuf to
//! `OTEL_EXPORTER_OTLP_ENDPOINT` — the configuration issue 45 compares the service's own tracing
//! with (100 % sampled, batched off the request path, the same receiver).

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::trace::{Sampler, SdkTracerProvider};
use opentelemetry_sdk::Resource;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The tracer provider: every trace sampled (a caller's decision followed, as the service's
/// default `parentbased_always_on`), spans batched to the OTLP receiver.
fn tracer_provider() -> Result<SdkTracerProvider, Box<dyn std::error::Error>> {
    let exporter = SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .build()?;
    Ok(SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_sampler(Sampler::ParentBased(Box::new(Sampler::AlwaysOn)))
        .with_resource(Resource::builder().with_service_name("peer-axum-otel").build())
        .build())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let provider = tracer_provider()?;
    opentelemetry::global::set_text_map_propagator(
        opentelemetry_sdk::propagation::TraceContextPropagator::new(),
    );
    tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("peer-axum-otel")))
        .try_init()?;
    let layers = std::env::var("LAYERS").unwrap_or_default();
    let app = peer_axum::with_layers(peer_axum::router(), &layers)?
        .layer(axum_tracing_opentelemetry::middleware::OtelInResponseLayer)
        .layer(axum_tracing_opentelemetry::middleware::OtelAxumLayer::default());
    let served = peer_axum::serve(app).await;
    // Sends what is still batched (the harness stops the peer with SIGTERM: seldom reached).
    provider.shutdown()?;
    Ok(served?)
}
