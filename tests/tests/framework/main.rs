//! The framework's black-box tests: the example app of `ferrapi_tests::app` (and small apps of
//! their own) served over real HTTP on 127.0.0.1, talked to with `ferrapi_tests::client`, plus
//! the OpenAPI document and schemas the route macros generate.
//!
//! Rules enforced here: one test binary for all of them (each binary links hyper, tokio and the
//! framework again, which on two cores costs more than the tests take to run), one module per
//! subject; they test `ferrapi` alone, never the Resource API service (its tests are in
//! `service/tests/`). The compile-fail tests stay a binary of their own (`tests/tests/ui.rs`):
//! their one test runs a nested cargo build for minutes, which would compete for the two cores
//! with the timing checks of `server_limits` if it ran in this process.
//!
//! Run one module with a filter, e.g. `cargo test -p ferrapi-tests --test framework http_params::`.

mod build_errors;
/// Shared helpers of the test modules.
mod support {
    pub mod tls;
    pub mod versions;
}
mod client_cert;
mod conditional;
mod constraints;
mod datetimes;
mod dependencies;
mod dependency_overrides;
mod dispatch_matrix;
mod docs_pages;
mod document_parity;
mod ergonomics;
mod error_overrides;
mod example_inputs;
mod example_types;
mod example_versions;
mod examples;
mod files;
mod forms;
mod generics;
mod group_deprecation;
mod groups;
mod hostile_input;
mod http_body;
mod http_params;
mod http_routing;
mod idempotency;
mod inputs;
mod layers;
mod lifecycle;
mod manual_arguments;
mod memory_budget;
mod observability;
mod openapi_document;
mod openapi_schema;
mod otlp;
mod otlp_metrics;
mod otlp_tls;
mod paging;
mod problem_details;
mod recorded;
mod route_deprecation;
mod route_metadata;
mod route_spans;
mod schema_split;
mod security;
mod server_limits;
mod single_valued_headers;
mod spans;
mod sse_client;
mod streaming;
mod strict_http1;
mod strict_types;
mod test_client;
mod tls;
mod tls_docs;
mod tls_redirect;
mod tls_tools;
mod trace_context;
mod types;
mod unions;
mod upload_args;
mod uploads;
mod validators;
mod version_changed;
mod version_changes;
mod version_documents;
mod version_edges;
mod version_groups;
mod version_statuses;
mod version_streams;
mod versions;
mod websocket;
