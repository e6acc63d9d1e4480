#!/usr/bin/env bash
# The project's test command: everything a fresh machine needs, then every test.
# Usage: scripts/test.sh            (from anywhere; CI runs the same script)
#
# The MongoDB tests need a server speaking the MongoDB wire protocol. `mongod` cannot be installed
# on these machines, so a pinned server from PyPI (SecantusDB, WiredTiger storage) is installed
# into a virtualenv kept under ~/.cache (reused by later runs), started on a free loopback port
# with its data in a temporary directory, and stopped by its PID when this script exits.
# MONGODB_TEST_URI tells the tests where it is; in CI (CI set) a MongoDB test without it fails.
# The same virtualenv holds Python's prometheus_client, whose parser reads the service's /metrics
# in service/tests/service/observability.rs (PROMETHEUS_PARSER_PYTHON tells the tests where), and
# httpx with httpx-sse, the EventSource-like client of tests/tests/framework/sse_client.rs
# (HTTPX_PYTHON tells the test where).
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKS_NAME=scripts/test.sh
# shellcheck source=scripts/lib/checks.sh
. scripts/lib/checks.sh

MONGO_SERVER="secantusdb==0.7.0b3"
METRICS_PARSER="prometheus-client==0.26.0"
SSE_CLIENT="httpx==0.28.1 httpx-sse==0.4.3"
PINS="$MONGO_SERVER $METRICS_PARSER $SSE_CLIENT"
VENV="${RESOURCE_API_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/resource-api/mongo-venv}"

# 1. The server, the metrics parser and the SSE client, installed once per pin set (quietly;
#    pip's output is shown only if it fails).
# shellcheck disable=SC2086 # the pins are separate words
ensure_venv "$VENV" $PINS
export PROMETHEUS_PARSER_PYTHON="$VENV/bin/python"
export HTTPX_PYTHON="$VENV/bin/python"

# 1b. curl and openssl, which tests/tests/framework/tls_tools.rs runs against the TLS listener
#     (curl --http2, openssl s_client -alpn); a test fails when one is missing.
missing=""
for tool in curl openssl; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  say "installing$missing (apt-get)"
  # shellcheck disable=SC2086 # the tools are separate words
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } \
    >"${TMPDIR:-/tmp}/test-apt.log" 2>&1 ||
    { cat "${TMPDIR:-/tmp}/test-apt.log" >&2; die "could not install$missing"; }
fi

# 2. Start it on a free loopback port, data in a temporary directory (removed at exit, the server
#    stopped by its PID).
open_work resource-api-mongo
data="$work"
port="$(free_port)"
# From inside $data, so no secantusd.toml of the working directory is picked up.
(cd "$data" && exec "$VENV/bin/secantusd-py" --host 127.0.0.1 --port "$port" --storage-path "$data/db" \
  --log-level WARNING >"$data/server.log" 2>&1) &
server_pid=$!
track "$server_pid"

# 3. Wait (at most 30 s) until it accepts connections.
ready=""
for _ in $(seq 1 300); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    ready=1
    break
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    break
  fi
  sleep 0.1
done
if [ -z "$ready" ]; then
  cat "$data/server.log" >&2
  echo "scripts/test.sh: the MongoDB test server did not accept connections on 127.0.0.1:$port within 30 s" >&2
  exit 1
fi
export MONGODB_TEST_URI="mongodb://127.0.0.1:$port/resource_api_test"

echo "== cargo test --workspace (MongoDB test server: $MONGO_SERVER on 127.0.0.1:$port)"
# --locked: a stale Cargo.lock fails the tests instead of being rewritten by them (as the fuzz and
# bench workspaces' locks do, in reliability-checks.sh and bench/run.py).
cargo test --workspace --locked --no-fail-fast

echo "== scripts/house-checks.sh (module cycles, rustdoc -D warnings, cargo package)"
scripts/house-checks.sh

echo "== scripts/docs-checks.sh (openapi-spec-validator, generated Python clients, headless Chromium)"
scripts/docs-checks.sh

echo "== scripts/client-checks.sh (Rust clients generated from FastAPI's documents call FastAPI; TypeScript clients of the service)"
scripts/client-checks.sh

echo "== scripts/fastapi-compare.sh (group A next to FastAPI: status and JSON bodies)"
scripts/fastapi-compare.sh

echo "== scripts/reliability-checks.sh (cargo-deny, schemathesis, 3 × 30 s fuzzing)"
scripts/reliability-checks.sh

echo "== scripts/bench-smoke.sh (load-benchmark harness: verify + 1 s per scenario; no timing asserted)"
scripts/bench-smoke.sh
