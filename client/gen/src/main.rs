//! `ferrapi-client`: generate a Rust client from an OpenAPI 3.1 document.
//!
//! ```text
//! ferrapi-client generate openapi.json -o src/lib.rs
//! ferrapi-client generate - -o src/client.rs < openapi.json
//! ```
//!
//! Rules enforced here: the output file is written only when generation succeeded (an error
//! names the construct's JSON pointer and exits 1); a usage error exits 2 with the usage on
//! standard error, while asking for it (`-h`, `--help`, alone or after `generate`) prints it on
//! standard output and exits 0, as command-line tools do; the features the client needs of
//! `ferrapi-client` are printed, with the time generation took.

// No function over 80 lines (clippy.toml sets the threshold).
#![warn(clippy::too_many_lines)]

use std::io::Read as _;
use std::process::ExitCode;
use std::time::Instant;

use ferrapi_client_gen::{generate, Settings};

const USAGE: &str = "usage: ferrapi-client generate DOCUMENT.json|- -o OUTPUT.rs [--runtime PATH] [--include] [--regenerate COMMAND]

  DOCUMENT.json   the OpenAPI 3.1 document (`-`: standard input)
  -o OUTPUT.rs    where the client is written (`-`: standard output)
  --runtime PATH  the runtime crate's path in the code (default ::ferrapi_client)
  --include       no inner attributes: for a file pulled in with include!
  --regenerate C  the command to name in the file's header
  -h, --help      this text

Install it with `cargo install ferrapi-client-gen` (or `cargo install --path client/gen` from a
checkout of ferrapi); the generated code needs the `ferrapi-client` crate with the features
this command names after generating.";

/// What `run` ends with when it does not generate: the usage asked for (stdout, exit 0), or a
/// mistake (its exit code and message, with the usage when it is a usage mistake: stderr).
enum Stop {
    Help,
    Fail(u8, String),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Stop::Help) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(Stop::Fail(code, message)) => {
            eprintln!("ferrapi-client: {message}");
            ExitCode::from(code)
        }
    }
}

fn run(args: &[String]) -> Result<(), Stop> {
    let usage = |why: &str| Stop::Fail(2, format!("{why}\n{USAGE}"));
    let fail = |message: String| Stop::Fail(1, message);
    // Asking for help anywhere is asking for help, not a mistake.
    if args.iter().any(|arg| arg == "-h" || arg == "--help") {
        return Err(Stop::Help);
    }
    let mut args = args.iter();
    match args.next().map(String::as_str) {
        Some("generate") => {}
        None => return Err(usage("no command")),
        Some(other) => return Err(usage(&format!("unknown command `{other}`"))),
    }
    let mut settings = Settings::default();
    let (mut input, mut output) = (None, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-o" | "--output" => output = Some(args.next().ok_or_else(|| usage("-o needs a file"))?.clone()),
            "--runtime" => {
                settings.runtime = args
                    .next()
                    .ok_or_else(|| usage("--runtime needs a path"))?
                    .clone()
            }
            "--include" => settings.inner_attributes = false,
            "--regenerate" => {
                settings.regenerate = Some(
                    args.next()
                        .ok_or_else(|| usage("--regenerate needs a command"))?
                        .clone(),
                )
            }
            other if input.is_none() && (other == "-" || !other.starts_with('-')) => {
                input = Some(other.to_owned())
            }
            other => return Err(usage(&format!("unexpected argument `{other}`"))),
        }
    }
    let input = input.ok_or_else(|| usage("no document"))?;
    let output = output.ok_or_else(|| usage("no output file (-o)"))?;
    let document = if input == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|error| fail(format!("reading standard input: {error}")))?;
        text
    } else {
        std::fs::read_to_string(&input).map_err(|error| fail(format!("{input}: {error}")))?
    };
    let started = Instant::now();
    let generated = generate(&document, &settings).map_err(|error| fail(format!("{input}: {error}")))?;
    let took = started.elapsed();
    if output == "-" {
        print!("{}", generated.code);
    } else {
        std::fs::write(&output, &generated.code).map_err(|error| fail(format!("{output}: {error}")))?;
    }
    eprintln!(
        "ferrapi-client: {} operations, {} types, {} lines in {:.1} ms{}",
        generated.operations,
        generated.types,
        generated.code.lines().count(),
        took.as_secs_f64() * 1e3,
        if generated.features.is_empty() {
            String::new()
        } else {
            format!(
                "; it needs ferrapi-client's features {}",
                generated.features.join(", ")
            )
        }
    );
    Ok(())
}
