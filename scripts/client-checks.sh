#!/usr/bin/env bash
# Generated clients against servers no one here wrote, and a TypeScript client of the service
# (issue 31):
#   1. FastAPI: the reference apps of tests/fastapi/ (client_app.py — every type, unions,
#      generics, uploads, forms, streams —, reference_app.py, group_a_app.py, forms_app.py,
#      uploads_app.py) served by FastAPI itself under uvicorn; the document each serves must be
#      the one recorded in client/tests/documents/ (from which client/tests/build.rs generates the
#      Rust clients), and client/tests/tests/fastapi.rs calls each app through its client:
#      every type round-trips, uploads, forms, streams, 404s and 422s come back typed;
#   2. TypeScript: openapi-typescript generates types from the service's live /openapi.json,
#      twice: with `--default-non-nullable false` for tests/client-checks/resource_api_check.ts
#      (each group A route, then a clinic round trip: ETag and If-Match, an Idempotency-Key), and
#      with its default options for default_options_check.ts (a body holding only its required
#      fields must type-check, as it does against FastAPI's document: a `"default": null` made
#      openapi-typescript type every optional field as required; issue 32); `tsc --strict` checks
#      both against their types, and node runs both against the service;
#   3. client/typescript/ferrapi-fetch.ts (issue 43, item 6), compiled with its checks: its unit
#      checks (tests/client-checks/ferrapi_fetch_units.ts: numbers, the paging rules through a
#      fake fetch) and, against the service, ferrapi_fetch_check.ts: a bird's 2^64, 1e400 and
#      40-digit decimal read back exactly, 45 doctors across pages with the page size of the
#      paging table that `ferrapi-client typescript-paging` writes from the live document;
#      and version_check.ts (issue 44, item 5): an openapi-fetch client of API version
#      2026-01-15 (types and `ferrapi-client typescript-version`'s module from
#      client/tests/documents/ferrapi_versions_2026-01-15.json) names it in every request;
#   4. API versions next to Cadwyn (issue 44, item 7): examples/versions.rs under FastAPI + Cadwyn
#      (tests/fastapi/versions_cadwyn_app.py, Cadwyn pinned in requirements.txt) served under
#      uvicorn, and tests/tests/framework/example_versions.rs sending the same requests to it and
#      to the example, each version's answers and 422s compared (CADWYN_VERSIONS_URL).
# (The service's own Rust client is checked by its test binary: service/tests/service/client.)
#
# Usage: scripts/client-checks.sh                 (scripts/test.sh calls it)
#        scripts/client-checks.sh --update        (re-record the FastAPI documents after a pin change)
#
# What it installs, each only when missing or when its pin changed: a virtualenv with
# tests/client-checks/requirements.txt under ~/.cache (CLIENT_CHECKS_VENV to move it), and
# tests/client-checks/node_modules (npm ci from the committed package-lock.json). Every server
# runs on a free loopback port and is stopped by its PID when the script exits. Every check runs;
# the script exits 1 if any failed, naming each failure (the shared set-up: scripts/lib/checks.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKS_NAME=client-checks
# shellcheck source=scripts/lib/checks.sh
. scripts/lib/checks.sh

CHECKS=tests/client-checks
DOCUMENTS=client/tests/documents
VENV="${CLIENT_CHECKS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/resource-api/client-checks-venv}"
TARGET="${CARGO_TARGET_DIR:-target}"
UPDATE=""
[ "${1:-}" = "--update" ] && UPDATE=1

# ---- 1. What the checks need.
started="$(now)"
ensure_venv "$VENV" -r "$CHECKS/requirements.txt"
ensure_node_modules "$CHECKS" "openapi-typescript, openapi-fetch, lossless-json and typescript"
say "tools ready ($(since "$started"))"

# ---- 2. The servers, on free loopback ports.
started="$(now)"
cargo build --quiet -p resource-api -p ferrapi-client-gen || die "cargo build -p resource-api -p ferrapi-client-gen failed"
binary="$TARGET/debug/resource-api"
[ -x "$binary" ] || die "no service binary at $binary"
generator="$TARGET/debug/ferrapi-client"
[ -x "$generator" ] || die "no ferrapi-client binary at $generator"
open_work client-checks
declare -A app_urls app_pids
for app in client reference group_a forms uploads; do
  port="$(free_port)"
  (cd tests/fastapi && exec "$VENV/bin/python" -m uvicorn "${app}_app:app" --host 127.0.0.1 --port "$port" \
    --log-level warning) >"$work/$app.log" 2>&1 &
  track $!
  app_pids[$app]=$!
  app_urls[$app]="http://127.0.0.1:$port"
done
for app in client reference group_a forms uploads; do
  await_document "${app_pids[$app]}" "${app_urls[$app]}" "$work/fastapi_$app.json" "$work/$app.log"
done
cadwyn_port="$(free_port)"
cadwyn_url="http://127.0.0.1:$cadwyn_port"
(cd tests/fastapi && exec "$VENV/bin/python" -m uvicorn versions_cadwyn_app:app --host 127.0.0.1 \
  --port "$cadwyn_port" --log-level warning) >"$work/versions_cadwyn.log" 2>&1 &
track $!
await_url "$!" "$cadwyn_url/products/1" "$work/versions_cadwyn.log"
port="$(free_port)"
base="http://127.0.0.1:$port"
DB_CONN_STRING="sqlite://$work/clinic.db" RUST_LOG=warn "$binary" --host 127.0.0.1 --port "$port" --group all \
  >"$work/service.log" 2>&1 &
track $!
await_document "$!" "$base" "$work/openapi.json" "$work/service.log"
say "FastAPI $("$VENV/bin/python" -c 'import fastapi; print(fastapi.__version__)') apps and the service up ($(since "$started"))"

# ---- 3. The checks.
# The document FastAPI serves for app $1 is the recorded one (written instead with --update).
same_document() {
  local recorded="$DOCUMENTS/fastapi_$1.json"
  "$VENV/bin/python" - "$work/fastapi_$1.json" "$recorded" "$UPDATE" <<'PY'
import json, sys
live, recorded, update = sys.argv[1:4]
text = json.dumps(json.load(open(live)), indent=2, ensure_ascii=False) + "\n"
if update:
    open(recorded, "w").write(text)
    sys.exit(0)
if open(recorded).read() != text:
    print(f"{recorded} is not what FastAPI serves now: re-record it with scripts/client-checks.sh --update", file=sys.stderr)
    sys.exit(1)
PY
}
# test_binary PACKAGE TARGET FILE: the path of test binary TARGET of PACKAGE (FILE, for the error),
# as `cargo test --workspace` (scripts/test.sh) builds it: asked of cargo with the same selection,
# so nothing is built again with other features; fails, saying why, when there is none.
test_binary() {
  local binary
  binary="$(cargo test --workspace --locked --no-run --message-format=json 2>"$work/cargo-no-run.log" | "$VENV/bin/python" -c '
import json, sys
package, name = sys.argv[1:3]
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    target = message.get("target") or {}
    if message.get("reason") == "compiler-artifact" and target.get("name") == name \
            and package in message.get("package_id", "") and message.get("executable"):
        print(message["executable"])' "$1" "$2")"
  if [ ! -x "$binary" ]; then
    tail -n 40 "$work/cargo-no-run.log" >&2
    echo "no test binary for $3 (cargo test --workspace --no-run)" >&2
    return 1
  fi
  echo "$binary"
}
fastapi_clients() {
  local binary
  binary="$(test_binary ferrapi-client-tests fastapi client/tests/tests/fastapi.rs)" || return 1
  FASTAPI_CLIENT_URL="${app_urls[client]}" FASTAPI_REFERENCE_URL="${app_urls[reference]}" \
    FASTAPI_GROUP_A_URL="${app_urls[group_a]}" FASTAPI_FORMS_URL="${app_urls[forms]}" \
    FASTAPI_UPLOADS_URL="${app_urls[uploads]}" FASTAPI_REQUIRED=1 "$binary" --quiet
}
# examples/versions.rs next to the same app under FastAPI + Cadwyn: the comparison test of the
# framework's test binary, the Cadwyn app named (its other tests run in scripts/test.sh).
versions_cadwyn() {
  local binary
  binary="$(test_binary ferrapi-tests framework tests/tests/framework)" || return 1
  CADWYN_VERSIONS_URL="$cadwyn_url" FASTAPI_REQUIRED=1 "$binary" --quiet --exact \
    example_versions::the_same_requests_answered_as_fastapi_and_cadwyn_answer_them
}
# Types generated twice from the service's live document, both checks compiled by one
# `tsc --strict` (tsconfig.json), then run against the service:
# - generated/resource-api.ts with --default-non-nullable false, for resource_api_check.ts:
#   openapi-typescript otherwise makes every property with a `default` required, also in a
#   component schema used as a request body (only inline bodies are exempt), so FastAPI's and
#   ferrapi's `description: str | None = None` would have to be sent;
# - generated/resource-api-defaults.ts with the default options, for default_options_check.ts,
#   which is what a team that never read the line above gets.
typescript() {
  (
    cd "$CHECKS" &&
      rm -rf generated out &&
      npx --no-install openapi-typescript "$work/openapi.json" -o generated/resource-api.ts --silent \
        --default-non-nullable false &&
      npx --no-install openapi-typescript "$work/openapi.json" -o generated/resource-api-defaults.ts --silent &&
      npx --no-install tsc -p . &&
      node out/resource_api_check.js "$base" &&
      node out/default_options_check.js "$base"
  )
}
# client/typescript/ferrapi-fetch.ts with the types typescript() generated, beside them as a
# project using it would hold them: generated/ferrapi-fetch.ts, a copy (so its imports resolve in
# this node_modules), and generated/paging.ts, the document's paging table written by
# `ferrapi-client typescript-paging`; compiled by its own `tsc --strict`
# (tsconfig.ferrapi-fetch.json), then its unit checks and the service's exact numbers and pages.
ferrapi_fetch() {
  if [ ! -f "$CHECKS/generated/resource-api.ts" ]; then
    echo "no generated/resource-api.ts: see the check above" >&2
    return 1
  fi
  cp client/typescript/ferrapi-fetch.ts "$CHECKS/generated/ferrapi-fetch.ts" &&
    "$generator" typescript-paging "$work/openapi.json" -o "$CHECKS/generated/paging.ts" &&
    "$generator" typescript-version "$DOCUMENTS/ferrapi_versions_2026-01-15.json" -o "$CHECKS/generated/version.ts" &&
    (
      cd "$CHECKS" &&
        npx --no-install openapi-typescript "../../$DOCUMENTS/ferrapi_versions_2026-01-15.json" \
          -o generated/versions-2026-01-15.ts --silent --default-non-nullable false &&
        npx --no-install tsc -p tsconfig.ferrapi-fetch.json &&
        node out/ferrapi_fetch_units.js &&
        node out/ferrapi_fetch_check.js "$base" &&
        node out/version_check.js
    )
}

for app in client reference group_a forms uploads; do
  run "FastAPI serves the recorded document of tests/fastapi/${app}_app.py" same_document "$app"
done
run "Rust clients generated from FastAPI's documents call the apps (client/tests/tests/fastapi.rs)" fastapi_clients
run "API versions: examples/versions.rs and the same app under FastAPI + Cadwyn answer each version alike (tests/tests/framework/example_versions.rs)" versions_cadwyn
run "TypeScript: openapi-typescript + openapi-fetch, tsc --strict: each group A route, a clinic round trip, a body of only required fields" typescript
run "TypeScript: ferrapi-fetch: 2^64, 1e400 and a 40-digit decimal exact; 45 doctors across pages; PageLimitError and a failed page; a version-2026-01-15 client names its version" ferrapi_fetch

finish
