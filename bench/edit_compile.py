#!/usr/bin/env python3
"""The edit-compile loop of a user app: CPU seconds of the debug rebuild after editing one handler
of a generated 15-route app that depends on this checkout's `ferrapi` (or another checkout's, to
compare two commits).

What a route author waits for is the rebuild of their own crate: the route macros expand every
route again, and the crate's code (the expansions, monomorphised against ferrapi's generic
runtime) is type-checked and compiled again; ferrapi itself is not rebuilt. Wall time on this
shared 2-core machine moves with the other builds on it; the CPU time of the compiler processes
(user + sys, `getrusage(RUSAGE_CHILDREN)`) moves much less, so that is the figure.

Rules enforced here:
- the app is generated into a directory of its own (outside any workspace) with its own
  `Cargo.lock` copied from the checkout, built once to warm the target directory, then each run
  edits one handler's body (a different string each time) and rebuilds;
- the figure of a run is the CPU time of that `cargo build` alone (cargo and every rustc it
  started); the median of the runs is printed with the minimum and maximum;
- nothing is fetched: `cargo build --offline`, with the registry cache the checkout's own build
  filled.

Usage:
  bench/edit_compile.py                                  # this checkout, 5 runs
  bench/edit_compile.py --repo /path/to/other/checkout --runs 7
  bench/edit_compile.py --target-dir /work/target-edit  # where the app's builds go
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))

# The routes: what a small service declares, one of each kind of argument a route author writes
# (path and query parameters with constraints and defaults, a JSON body, a header, state, a
# dependency taking a query parameter and another dependency).
PRELUDE = """\
use ferrapi::prelude::*;

/// The app's state.
pub struct Store;

/// A page of a list.
#[derive(Clone, Copy)]
pub struct Page {
    skip: i64,
    limit: i64,
}

#[dependency]
fn page(#[default(0)] #[ge(0)] skip: i64, #[default(10)] #[le(100)] limit: i64) -> Page {
    Page { skip, limit }
}

/// The caller.
#[derive(Clone)]
pub struct Caller(String);

#[dependency(responses(401 = "Not authenticated"))]
async fn caller(token: Header<String>, _store: State<Store>) -> Result<Caller, HttpError> {
    if token.0.is_empty() {
        return Err(HttpError::new(401, "Not authenticated"));
    }
    Ok(Caller(token.0))
}

/// An item.
#[derive(Model)]
pub struct Item {
    #[min_length(1)]
    name: String,
    #[gt(0)]
    price: f64,
    tags: Vec<String>,
}
"""

ROUTE_KINDS = [
    """#[get("/items{n}/{{id}}")]
async fn read_item{n}(#[ge(1)] id: i64, q: Option<String>, #[default(false)] short: bool) -> Json<Value> {{
    Json(json!({{ "id": id, "q": q, "short": short, "edit": "EDIT{n}" }}))
}}
""",
    """#[post("/items{n}")]
async fn create_item{n}(item: Item, caller: Caller) -> Json<Value> {{
    Json(json!({{ "name": item.name, "price": item.price, "tags": item.tags, "by": caller.0, "edit": "EDIT{n}" }}))
}}
""",
    """#[get("/items{n}")]
async fn list_items{n}(page: Page, #[max_length(50)] q: Option<String>, _store: State<Store>) -> Json<Value> {{
    Json(json!({{ "skip": page.skip, "limit": page.limit, "q": q, "edit": "EDIT{n}" }}))
}}
""",
]


def app_source(routes):
    """The app's `main.rs`: the prelude, `routes` routes cycling through the kinds, and `main`."""
    parts = [PRELUDE]
    names = []
    for n in range(routes):
        kind = ROUTE_KINDS[n % len(ROUTE_KINDS)]
        parts.append(kind.format(n=n))
        names.append(kind.split("async fn ")[1].split("(")[0].format(n=n))
    parts.append(
        "fn main() {\n"
        "    let app = App::new().state(Store).routes(routes![" + ", ".join(names) + "]);\n"
        "    let _ = app.build();\n"
        "}\n"
    )
    return "\n".join(parts)


def manifest(repo):
    runtime = os.path.join(repo, "runtime")
    return (
        "[package]\n"
        'name = "edit-compile-app"\n'
        'version = "0.0.0"\n'
        'edition = "2021"\n'
        "publish = false\n\n"
        "[dependencies]\n"
        f'ferrapi = {{ path = "{runtime}" }}\n\n'
        "[workspace]\n"
    )


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(app, target_dir):
    """`cargo build` of the app; its CPU seconds."""
    env = dict(os.environ, CARGO_TARGET_DIR=target_dir, CARGO_INCREMENTAL=os.environ.get("CARGO_INCREMENTAL", "1"))
    before = cpu_seconds()
    done = subprocess.run(
        ["cargo", "build", "--offline", "--quiet"],
        cwd=app,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        sys.exit(f"edit_compile.py: the app did not build:\n{done.stderr}")
    return cpu_seconds() - before


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default=os.path.dirname(BENCH), help="the checkout whose ferrapi the app uses")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--routes", type=int, default=15)
    parser.add_argument("--target-dir", default=None, help="default: a temporary directory, deleted after")
    parser.add_argument("--edit", type=int, default=0, help="the route whose handler is edited")
    args = parser.parse_args()

    repo = os.path.abspath(args.repo)
    work = tempfile.mkdtemp(prefix="edit-compile-")
    target_dir = os.path.abspath(args.target_dir) if args.target_dir else os.path.join(work, "target")
    try:
        app = os.path.join(work, "app")
        os.makedirs(os.path.join(app, "src"))
        with open(os.path.join(app, "Cargo.toml"), "w") as f:
            f.write(manifest(repo))
        shutil.copy(os.path.join(repo, "Cargo.lock"), os.path.join(app, "Cargo.lock"))
        main_rs = os.path.join(app, "src", "main.rs")
        source = app_source(args.routes)
        with open(main_rs, "w") as f:
            f.write(source)
        warm = build(app, target_dir)
        print(f"warm build (ferrapi and its dependencies, then the app): {warm:.1f} CPU s")
        marker = f"EDIT{args.edit}"
        figures = []
        for run in range(args.runs):
            with open(main_rs, "w") as f:
                f.write(source.replace(f'"{marker}"', f'"{marker}-{run}"'))
            figures.append(build(app, target_dir))
            print(f"run {run + 1}: {figures[-1]:.2f} CPU s")
        print(
            f"edit-compile ({args.routes} routes, {repo}): median {statistics.median(figures):.2f} CPU s "
            f"(min {min(figures):.2f}, max {max(figures):.2f}, {args.runs} runs)"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
