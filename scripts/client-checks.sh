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
#      `tsc --strict` checks tests/client-checks/resource_api_check.ts against them, and node
#      runs it against the service: each group A route, then a clinic round trip (ETag and
#      If-Match, an Idempotency-Key).
# (The service's own Rust client is checked by its test binary: service/tests/service/client.)
#
# Usage: scripts/client-checks.sh                 (scripts/test.sh calls it)
#        scripts/client-checks.sh --update        (re-record the FastAPI documents after a pin change)
#
# What it installs, each only when missing or when its pin changed: a virtualenv with
# tests/client-checks/requirements.txt under ~/.cache (CLIENT_CHECKS_VENV to move it), and
# tests/client-checks/node_modules (npm ci from the committed package-lock.json). Every server
# runs on a free loopback port and is stopped by its PID when the script exits. Every check runs;
# the script exits 1 if any failed, naming each failure.
set -euo pipefail
cd "$(dirname "$0")/.."

CHECKS=tests/client-checks
DOCUMENTS=client/tests/documents
VENV="${CLIENT_CHECKS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/resource-api/client-checks-venv}"
TARGET="${CARGO_TARGET_DIR:-target}"
UPDATE=""
[ "${1:-}" = "--update" ] && UPDATE=1

say() { echo "client-checks: $*"; }
die() {
  echo "client-checks: $*" >&2
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# ---- 1. What the checks need.
started="$(now)"
if ! "$VENV/bin/python" -c '' 2>/dev/null; then
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV" || die "cannot create a virtualenv at $VENV (python3 -m venv)"
fi
pins="$(cat "$CHECKS/requirements.txt")"
if [ "$(cat "$VENV/.pinned" 2>/dev/null)" != "$pins" ]; then
  say "installing $(grep -v '^#' "$CHECKS/requirements.txt" | tr '\n' ' ')into $VENV"
  if ! "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$CHECKS/requirements.txt" \
    >"$VENV/pip.log" 2>&1; then
    cat "$VENV/pip.log" >&2
    die "could not install $CHECKS/requirements.txt"
  fi
  echo "$pins" >"$VENV/.pinned"
fi
command -v node >/dev/null || die "node is not installed (the machine's Node.js runs the TypeScript check)"
if [ "$(cat "$CHECKS/node_modules/.lock-stamp" 2>/dev/null)" != "$(cksum <"$CHECKS/package-lock.json")" ]; then
  say "installing openapi-typescript, openapi-fetch and typescript (npm ci in $CHECKS)"
  (cd "$CHECKS" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed in $CHECKS"
  cksum <"$CHECKS/package-lock.json" >"$CHECKS/node_modules/.lock-stamp"
fi
say "tools ready ($(since "$started"))"

# ---- 2. The servers, on free loopback ports.
started="$(now)"
cargo build --quiet -p resource-api || die "cargo build -p resource-api failed"
binary="$TARGET/debug/resource-api"
[ -x "$binary" ] || die "no service binary at $binary"
work="$(mktemp -d "${TMPDIR:-/tmp}/client-checks.XXXXXX")"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
free_port() { "$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
fetch='import sys, urllib.request; open(sys.argv[2], "wb").write(urllib.request.urlopen(sys.argv[1], timeout=5).read())'
# Wait until the server with PID $1 answers $2/openapi.json, saved to $3; its log is $4.
await_document() {
  for _ in $(seq 1 300); do
    if "$VENV/bin/python" -c "$fetch" "$2/openapi.json" "$3" 2>/dev/null; then
      return 0
    fi
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  cat "$4" >&2
  die "$2 did not answer /openapi.json within 30 s"
}
declare -A app_urls app_pids
for app in client reference group_a forms uploads; do
  port="$(free_port)"
  (cd tests/fastapi && exec "$VENV/bin/python" -m uvicorn "${app}_app:app" --host 127.0.0.1 --port "$port" \
    --log-level warning) >"$work/$app.log" 2>&1 &
  pids+=($!)
  app_pids[$app]=$!
  app_urls[$app]="http://127.0.0.1:$port"
done
for app in client reference group_a forms uploads; do
  await_document "${app_pids[$app]}" "${app_urls[$app]}" "$work/fastapi_$app.json" "$work/$app.log"
done
port="$(free_port)"
base="http://127.0.0.1:$port"
DB_CONN_STRING="sqlite://$work/clinic.db" RUST_LOG=warn "$binary" --host 127.0.0.1 --port "$port" --group all \
  >"$work/service.log" 2>&1 &
pids+=($!)
await_document "${pids[-1]}" "$base" "$work/openapi.json" "$work/service.log"
say "FastAPI $("$VENV/bin/python" -c 'import fastapi; print(fastapi.__version__)') apps and the service up ($(since "$started"))"

# ---- 3. The checks.
failed=()
passed=0
run() {
  local name="$1"
  shift
  local t
  t="$(now)"
  if "$@"; then
    passed=$((passed + 1))
    say "ok   $name ($(since "$t"))"
  else
    failed+=("$name")
    say "FAIL $name ($(since "$t"))"
  fi
}

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
# The test binary of client/tests/tests/fastapi.rs, as `cargo test --workspace` (scripts/test.sh)
# builds it: asked of cargo with the same selection, so nothing is built again with other features.
fastapi_binary() {
  cargo test --workspace --locked --no-run --message-format=json 2>"$work/cargo-no-run.log" | "$VENV/bin/python" -c '
import json, sys
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    target = message.get("target") or {}
    if message.get("reason") == "compiler-artifact" and target.get("name") == "fastapi" \
            and "ferrapi-client-tests" in message.get("package_id", "") and message.get("executable"):
        print(message["executable"])'
}
fastapi_clients() {
  local binary
  binary="$(fastapi_binary)"
  if [ ! -x "$binary" ]; then
    tail -n 40 "$work/cargo-no-run.log" >&2
    echo "no test binary for client/tests/tests/fastapi.rs (cargo test --workspace --no-run)" >&2
    return 1
  fi
  FASTAPI_CLIENT_URL="${app_urls[client]}" FASTAPI_REFERENCE_URL="${app_urls[reference]}" \
    FASTAPI_GROUP_A_URL="${app_urls[group_a]}" FASTAPI_FORMS_URL="${app_urls[forms]}" \
    FASTAPI_UPLOADS_URL="${app_urls[uploads]}" FASTAPI_REQUIRED=1 "$binary" --quiet
}
# --default-non-nullable false: openapi-typescript otherwise makes every property with a `default`
# required, also in a component schema used as a request body (only inline bodies are exempt), so
# FastAPI's and ferrapi's `description: str | None = None` would have to be sent.
typescript() {
  (
    cd "$CHECKS" &&
      rm -rf generated out &&
      npx --no-install openapi-typescript "$work/openapi.json" -o generated/resource-api.ts --silent \
        --default-non-nullable false &&
      npx --no-install tsc -p . &&
      node out/resource_api_check.js "$base"
  )
}

for app in client reference group_a forms uploads; do
  run "FastAPI serves the recorded document of tests/fastapi/${app}_app.py" same_document "$app"
done
run "Rust clients generated from FastAPI's documents call the apps (client/tests/tests/fastapi.rs)" fastapi_clients
run "TypeScript: openapi-typescript + openapi-fetch, tsc --strict, each group A route and a clinic round trip" typescript

if [ "${#failed[@]}" -gt 0 ]; then
  for name in "${failed[@]}"; do
    echo "client-checks: FAILED: $name" >&2
  done
  echo "client-checks: $passed passed, ${#failed[@]} failed"
  exit 1
fi
echo "client-checks: $passed passed, 0 failed"
