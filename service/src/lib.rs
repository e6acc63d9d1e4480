//! The Resource API service (see the specification in `shared/spec`): route group A, typed and
//! FastAPI-compatible, built on ferrapi, and the document stores (`store`). Group B arrives with
//! its issue.

pub mod config;
pub mod group_a;
pub mod store;

use config::{Config, Group};
use ferrapi::App;

/// The app for `config`: group A declared first, then group B, as the spec's rule 7 requires.
pub fn app(config: &Config) -> App {
    let app = ferrapi::app_info!()
        .title("Resource API")
        .description("Group A: typed parameters with FastAPI-compatible validation errors.");
    match config.group {
        Group::A | Group::All => app.routes(group_a::routes()),
        Group::B => app,
    }
}
