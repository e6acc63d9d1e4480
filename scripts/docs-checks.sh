#!/usr/bin/env bash
# The OpenAPI document and the docs pages, checked with real tools against the running service:
#   1. openapi-spec-validator (PyPI) validates the service's live /openapi.json, the example
#      app's document (tests/snapshots/openapi_example_app.json, which the snapshot test keeps
#      equal to what the example app serves) and the route-groups example's
#      (tests/snapshots/openapi_groups_example.json, kept equal to what examples/groups.rs serves
#      by tests/tests/framework/groups.rs);
#   2. openapi-python-client (PyPI) generates a client from the live /openapi.json (any generator
#      warning fails), and tests/docs-checks/client_check.py calls the service through it and
#      checks the typed results; the same for the route-groups example (examples/groups.rs, run
#      beside the service) with tests/docs-checks/groups_client_check.py;
#   3. headless Chromium (Debian's `chromium`, driven by playwright-core from npm) opens /docs and
#      /redoc with every request to a host other than 127.0.0.1 blocked, finds every documented
#      operation rendered and "Try it out" answered, and saves screenshots to target/docs-checks/;
#   4. the same three for the request-inputs example (examples/inputs.rs, run beside them): its
#      document validates; a generated client (tests/docs-checks/inputs_client_check.py) calls its
#      login form, the bearer-protected route, a header, a cookie and an upload; and in Chromium
#      (inputs_browser.mjs) the protected route answers 401, then 200 after "Authorize" with the
#      example's credentials, and a file chosen in the file picker is uploaded;
#   5. the same three for the value-types example (examples/types.rs, run beside them): its
#      document (tests/snapshots/openapi_types_example.json, kept equal to what it serves by
#      tests/tests/framework/example_types.rs) and its live /openapi.json validate; a generated
#      client (tests/docs-checks/types_client_check.py) round-trips each type (aware and naive
#      datetimes, dates, times, durations, UUIDs, decimals, e-mail addresses, URLs, IP addresses,
#      the two unions) and reads the 422 items of invalid ones; and Chromium renders its
#      operations (browser.mjs, screenshots in target/docs-checks/types/).
#      Its client is generated from a copy of the document in which each FastAPI
#      `Name-Input` / `Name-Output` schema is titled with its key: FastAPI titles both `Name`, and
#      openapi-python-client 0.29 names classes by title, so it refuses the second as a duplicate
#      model and drops every operation using it (openapi-generators/openapi-python-client#1340,
#      fix proposed in #1448). The document is FastAPI's; only the generator's input is changed.
# (The TypeScript clients of the service's document are checked by scripts/client-checks.sh.)
# Usage: scripts/docs-checks.sh      (scripts/test.sh calls it; it needs PyPI, npm and Debian's
#        packages the first time, and reuses what it installed afterwards)
#
# What it installs, each only when missing or when its pin changed: a virtualenv with the pins
# of tests/docs-checks/requirements.txt under ~/.cache (DOCS_CHECKS_VENV to move it),
# tests/docs-checks/node_modules (npm ci from the committed package-lock.json: playwright-core),
# and chromium (apt-get). The service (debug build) runs on a free loopback port with its birds in a
# temporary directory, the groups, inputs and types examples each on another, and all are stopped
# by their PIDs when the script exits. Every check runs; the script exits 1 if any failed, naming
# each failure (the shared set-up: scripts/lib/checks.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKS_NAME=docs-checks
# shellcheck source=scripts/lib/checks.sh
. scripts/lib/checks.sh

CHECKS=tests/docs-checks
OUT="${DOCS_CHECKS_OUT:-target/docs-checks}"
VENV="${DOCS_CHECKS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/resource-api/docs-checks-venv}"
TARGET="${CARGO_TARGET_DIR:-target}"

# ---- 1. What the checks need.
started="$(now)"
ensure_venv "$VENV" -r "$CHECKS/requirements.txt"
ensure_node_modules "$CHECKS" "playwright-core"
if ! command -v chromium >/dev/null; then
  say "installing chromium (apt-get)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
    >"${TMPDIR:-/tmp}/docs-checks-apt.log" 2>&1 ||
    { cat "${TMPDIR:-/tmp}/docs-checks-apt.log" >&2; die "could not install chromium"; }
fi
say "tools ready ($(since "$started"))"

# ---- 2. The service and the examples, each on a free loopback port.
started="$(now)"
cargo build --quiet -p resource-api || die "cargo build -p resource-api failed"
for example in groups inputs types; do
  cargo build --quiet -p ferrapi-examples --example "$example" || die "cargo build --example $example failed"
  [ -x "$TARGET/debug/examples/$example" ] || die "no $example example binary at $TARGET/debug/examples/$example"
done
binary="$TARGET/debug/resource-api"
[ -x "$binary" ] || die "no service binary at $binary"
open_work docs-checks
port="$(free_port)"
base="http://127.0.0.1:$port"
DB_CONN_STRING="sqlite://$work/birds.db" "$binary" --host 127.0.0.1 --port "$port" --group all \
  >"$work/service.log" 2>&1 &
track $!
await_document "$!" "$base" "$work/openapi.json" "$work/service.log"
say "service on $base, document $(wc -c <"$work/openapi.json") bytes ($(since "$started"))"
# example NAME: the example NAME on a free port; its base URL in ${NAME}_base, its live document
# in $work/NAME-openapi.json.
example() {
  local url="http://127.0.0.1:$(free_port)"
  PORT="${url##*:}" RUST_LOG=warn "$TARGET/debug/examples/$1" >"$work/$1.log" 2>&1 &
  track $!
  await_document "$!" "$url" "$work/$1-openapi.json" "$work/$1.log"
  printf -v "${1}_base" '%s' "$url"
  say "$1 example on $url"
}
example groups
example inputs
example types

# ---- 3. The checks.
validate() { "$VENV/bin/openapi-spec-validator" "$@"; }
# client NAME BASE_URL CHECK [DOCUMENT]: generate package NAME from BASE_URL's live document, or
# from the file DOCUMENT (any generator warning fails), then run CHECK (a script of $CHECKS)
# against BASE_URL through it.
client() {
  local source=(--url "$2/openapi.json")
  [ -n "${4:-}" ] && source=(--path "$4")
  rm -rf "$work/$1"
  mkdir -p "$work/$1"
  # ruff (a dependency of the generator) formats the generated code; it must be on PATH.
  PATH="$VENV/bin:$PATH" "$VENV/bin/openapi-python-client" generate "${source[@]}" \
    --meta none --output-path "$work/$1/$1" --fail-on-warning \
    >"$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; return 1; }
  "$VENV/bin/python" "$CHECKS/$3" "$work/$1" "$2"
}
# titled_by_key IN OUT: the document IN with each `Name-Input` / `Name-Output` schema titled by its
# key (see 5. above), written to OUT.
titled_by_key() {
  "$VENV/bin/python" - "$1" "$2" <<'PY'
import json, sys
document = json.load(open(sys.argv[1]))
for key, schema in document.get("components", {}).get("schemas", {}).items():
    if key.endswith(("-Input", "-Output")):
        schema["title"] = key
json.dump(document, open(sys.argv[2], "w"))
PY
}
types_client() {
  titled_by_key "$work/types-openapi.json" "$work/types-openapi-for-client.json" &&
    client types_example_client "$types_base" types_client_check.py "$work/types-openapi-for-client.json"
}
types_browser() {
  mkdir -p "$OUT/types"
  (cd "$CHECKS" && node browser.mjs "$types_base" "$(cd "$OLDPWD" && cd "$OUT/types" && pwd)")
}
inputs_browser() {
  mkdir -p "$OUT"
  (cd "$CHECKS" && node inputs_browser.mjs "$inputs_base" "$(cd "$OLDPWD" && cd "$OUT" && pwd)")
}
browser() {
  mkdir -p "$OUT"
  (cd "$CHECKS" && node browser.mjs "$base" "$(cd "$OLDPWD" && cd "$OUT" && pwd)")
}

run "openapi-spec-validator: the service's /openapi.json" validate "$work/openapi.json"
run "openapi-spec-validator: the example app's document" validate tests/snapshots/openapi_example_app.json
run "openapi-spec-validator: the groups example's document" validate tests/snapshots/openapi_groups_example.json
run "openapi-spec-validator: the groups example's live /openapi.json" validate "$work/groups-openapi.json"
run "openapi-python-client: a generated client calls the service" \
  client resource_api_client "$base" client_check.py
run "openapi-python-client: a generated client calls the groups example" \
  client groups_example_client "$groups_base" groups_client_check.py
run "chromium: /docs and /redoc render every operation offline" browser
run "openapi-spec-validator: the inputs example's live /openapi.json" validate "$work/inputs-openapi.json"
run "openapi-python-client: a generated client calls the inputs example" \
  client inputs_example_client "$inputs_base" inputs_client_check.py
run "chromium: Authorize, Try it out and a file picker on the inputs example" inputs_browser
run "openapi-spec-validator: the types example's document" validate tests/snapshots/openapi_types_example.json
run "openapi-spec-validator: the types example's live /openapi.json" validate "$work/types-openapi.json"
run "openapi-python-client: a generated client round-trips each type of the types example" types_client
run "chromium: /docs and /redoc render the types example's operations offline" types_browser

finish
