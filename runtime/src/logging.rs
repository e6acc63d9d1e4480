//! Log set-up: `tracing` to stderr, level from `RUST_LOG` (default `info`).

use std::io::IsTerminal;
use std::str::FromStr;

use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Install a stderr subscriber filtered by `RUST_LOG` (`info`, `warn,ferrapi=debug`, …).
/// Calling it twice is harmless.
pub fn init() {
    let spec = std::env::var("RUST_LOG").unwrap_or_default();
    let filter =
        Targets::from_str(if spec.trim().is_empty() { "info" } else { &spec }).unwrap_or_else(|err| {
            eprintln!("RUST_LOG={spec:?} is not a valid filter ({err}); using `info`");
            Targets::new().with_default(tracing::Level::INFO)
        });
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_target(false)
                // Colour codes only for a person at a terminal, not in log files.
                .with_ansi(std::io::stderr().is_terminal()),
        )
        .with(filter)
        .try_init();
}
