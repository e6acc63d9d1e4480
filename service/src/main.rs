//! `resource-api`: serve the Resource API on `--host`/`--port` until SIGINT or SIGTERM.

use clap::Parser;
use resource_api::config::Config;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    ferrapi::logging::init();
    let config = Config::parse();
    let app = resource_api::app(&config);
    match app.bind((config.host.as_str(), config.port)).await {
        Ok(server) => {
            server.run().await;
            std::process::ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("resource-api: {err} ({}:{})", config.host, config.port);
            std::process::ExitCode::FAILURE
        }
    }
}
