//! `ferrapi-client`: generate a Rust client from an OpenAPI 3.1 document.
//!
//! ```text
//! ferrapi-client generate openapi.json -o src/lib.rs
//! ferrapi-client generate - -o src/client.rs < openapi.json
//! ferrapi-client typescript-paging openapi.json -o src/paging.ts
//! ferrapi-client typescript-version openapi.json -o src/version.ts
//! ferrapi-client compat released.json openapi.json
//! ```
//!
//! Rules enforced here: the output file is written only when generation succeeded (an error
//! names the construct's JSON pointer and exits 1); a usage error exits 2 with the usage on
//! standard error, while asking for it (`-h`, `--help`, alone or after `generate`) prints it on
//! standard output and exits 0, as command-line tools do; the features the client needs of
//! `ferrapi-client` are printed, with the time generation took; a warning (an `x-paging` the
//! generator cannot use) is printed and does not fail the command; `compat` exits 1 when the new
//! document breaks a caller of the old one (each break on standard error), 0 when it does not,
//! and 2 when it cannot compare (a usage mistake, a document it cannot read).

// No function over 80 lines (clippy.toml sets the threshold).
#![warn(clippy::too_many_lines)]

use std::io::Read as _;
use std::process::ExitCode;
use std::time::Instant;

use ferrapi_client_gen::{generate, GenError, Settings};

const USAGE: &str = "usage: ferrapi-client generate DOCUMENT.json|- -o OUTPUT.rs [--runtime PATH] [--include] [--regenerate COMMAND]
       ferrapi-client typescript-paging DOCUMENT.json|- [-o OUTPUT.ts]
       ferrapi-client typescript-version DOCUMENT.json|- [-o OUTPUT.ts]
       ferrapi-client compat OLD.json NEW.json

  generate           writes the Rust client of the document
  typescript-paging  writes the TypeScript client's paging table: the GET operations that page
                     (by `x-paging`, or inferred from `skip`/`limit` or `offset`/`limit` integer
                     query parameters and a JSON array answer), keyed by path, with their offset
                     and limit parameters, page size and maximum offset (standard output without -o)
  typescript-version writes the TypeScript client's version module: `apiVersion` (the document's
                     info.x-api-version, or null) and `versionHeaders`, the header every request
                     sends (openapi-fetch's createClient({ headers })); standard output without -o
  compat             lists each change of NEW.json that breaks a caller of OLD.json (a released
                     version's committed document) by its JSON pointer: exit 1 if there is one,
                     0 if there is none, 2 if the documents cannot be compared

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
        Some("typescript-paging") => return typescript_paging(args.as_slice()),
        Some("typescript-version") => return typescript_version(args.as_slice()),
        Some("compat") => return compat(args.as_slice()),
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
    let document = read(&input)?;
    let started = Instant::now();
    let generated = generate(&document, &settings).map_err(|error| fail(format!("{input}: {error}")))?;
    let took = started.elapsed();
    warn(&input, &generated.warnings);
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

/// The document at `input` (`-`: standard input).
fn read(input: &str) -> Result<String, Stop> {
    if input == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|error| Stop::Fail(1, format!("reading standard input: {error}")))?;
        Ok(text)
    } else {
        std::fs::read_to_string(input).map_err(|error| Stop::Fail(1, format!("{input}: {error}")))
    }
}

/// Print each warning about `input` on standard error.
fn warn(input: &str, warnings: &[GenError]) {
    for warning in warnings {
        eprintln!("ferrapi-client: warning: {input}: {warning}");
    }
}

/// `typescript-paging DOCUMENT [-o OUTPUT]`.
fn typescript_paging(args: &[String]) -> Result<(), Stop> {
    let (input, output) = input_output(args)?;
    let document = read(&input)?;
    let (table, warnings) = ferrapi_client_gen::typescript_paging(&document)
        .map_err(|error| Stop::Fail(1, format!("{input}: {error}")))?;
    warn(&input, &warnings);
    write_or_print(output.as_deref(), &table)
}

/// `typescript-version DOCUMENT [-o OUTPUT]`.
fn typescript_version(args: &[String]) -> Result<(), Stop> {
    let (input, output) = input_output(args)?;
    let document = read(&input)?;
    let module = ferrapi_client_gen::typescript_version(&document)
        .map_err(|error| Stop::Fail(1, format!("{input}: {error}")))?;
    write_or_print(output.as_deref(), &module)
}

/// A TypeScript command's `DOCUMENT [-o OUTPUT]`.
fn input_output(args: &[String]) -> Result<(String, Option<String>), Stop> {
    let usage = |why: &str| Stop::Fail(2, format!("{why}\n{USAGE}"));
    let (mut input, mut output) = (None, None);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-o" | "--output" => output = Some(args.next().ok_or_else(|| usage("-o needs a file"))?.clone()),
            other if input.is_none() && (other == "-" || !other.starts_with('-')) => {
                input = Some(other.to_owned())
            }
            other => return Err(usage(&format!("unexpected argument `{other}`"))),
        }
    }
    Ok((input.ok_or_else(|| usage("no document"))?, output))
}

/// `text` written to `output` (standard output for none or `-`).
fn write_or_print(output: Option<&str>, text: &str) -> Result<(), Stop> {
    match output {
        None | Some("-") => print!("{text}"),
        Some(output) => {
            std::fs::write(output, text).map_err(|error| Stop::Fail(1, format!("{output}: {error}")))?
        }
    }
    Ok(())
}

/// `compat OLD NEW`.
fn compat(args: &[String]) -> Result<(), Stop> {
    let usage = |why: &str| Stop::Fail(2, format!("{why}\n{USAGE}"));
    let [old, new] = args else {
        return Err(usage("compat needs two documents: OLD.json NEW.json"));
    };
    // A document that cannot be read is "cannot compare" (2), never "breaks" (1).
    let read = |path: &str| {
        read(path).map_err(|stop| match stop {
            Stop::Fail(_, message) => Stop::Fail(2, message),
            Stop::Help => Stop::Help,
        })
    };
    let (old_text, new_text) = (read(old)?, read(new)?);
    let breaks = ferrapi_client_gen::compat::breaks_between(&old_text, &new_text)
        .map_err(|error| Stop::Fail(2, error.to_string()))?;
    if breaks.is_empty() {
        eprintln!("ferrapi-client: {new} breaks no caller of {old}");
        return Ok(());
    }
    let mut message = format!(
        "{new} breaks callers of {old} ({} change{}):",
        breaks.len(),
        if breaks.len() == 1 { "" } else { "s" }
    );
    for found in &breaks {
        message.push_str(&format!("\n  - {found}"));
    }
    Err(Stop::Fail(1, message))
}
