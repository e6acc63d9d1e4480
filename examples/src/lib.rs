//! Examples of the `ferrapi` route framework.
//!
//! The programs are cargo examples next to this crate's `Cargo.toml`; each file opens with what it
//! shows and how to run it:
//!
//! - `hello.rs`: one route (`cargo run -p ferrapi-examples --example hello`);
//! - `crud.rs`: a typed CRUD API over an in-memory store (`--example crud`);
//! - `validation.rs`: the 422 bodies of invalid requests (`--example validation`);
//! - `dependencies.rs`: a bearer-token `CurrentUser` and a reused `Pagination`
//!   (`--example dependencies`);
//! - `groups.rs`: route groups with a prefix, tags, default responses, a dependency and a layer
//!   (`--example groups`);
//! - `streaming.rs`: a streamed download, a file, Server-Sent Events (`--example streaming`);
//! - `inputs.rs`: a login form issuing a token, a protected route, a header, a cookie and an upload
//!   (`--example inputs`);
//! - `types.rs`: events and bookings with date-times, durations, UUIDs, decimals, e-mail
//!   addresses, URLs, IP addresses, patterns, validators and unions (`--example types`);
//! - `versions.rs`: three dated API versions of a product catalogue, one handler per route: a
//!   field renamed, retyped, added, removed, a constraint and a status changed, a route added and
//!   one removed (`--example versions`);
//! - `client.rs`: the Resource API called through its generated client, `resource-api-client`
//!   (`--example client`, with the service running).
//!
//! This library holds only what they share: [`serve`], the start-up every example does the same way.

use std::process::ExitCode;

use ferrapi::App;

/// The port used when `PORT` is not set.
pub const DEFAULT_PORT: u16 = 8000;

/// Serve `app` on `127.0.0.1:$PORT` (default [`DEFAULT_PORT`]) until Ctrl-C or SIGTERM.
///
/// The server logs the route table and `listening on http://127.0.0.1:PORT` when it starts (set up
/// the log first with `ferrapi::logging::init()`). A `PORT` that is not a port number, or an
/// address already in use, is one line on stderr and a failing exit code.
pub async fn serve(app: App) -> ExitCode {
    let port = match std::env::var("PORT") {
        Err(_) => DEFAULT_PORT,
        Ok(value) => match value.parse::<u16>() {
            Ok(port) => port,
            Err(err) => {
                eprintln!("PORT={value:?} is not a port number: {err}");
                return ExitCode::FAILURE;
            }
        },
    };
    match app.bind(("127.0.0.1", port)).await {
        Ok(server) => {
            server.run().await;
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{err}");
            ExitCode::FAILURE
        }
    }
}
