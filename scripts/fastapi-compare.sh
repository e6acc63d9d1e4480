#!/usr/bin/env bash
# The service's group A next to FastAPI itself: one corpus of requests (tests/fastapi/compare.py)
# sent to the service (`--group a`, debug build, embedded store in a temporary directory) and to
# the reference FastAPI app of the same routes (tests/fastapi/group_a_app.py under uvicorn), both
# on free loopback ports; status and JSON bodies must match, except the deliberate differences
# the README lists (each pinned in the corpus). Prints `N passed, N failed`; exits 1 on any
# unexpected difference.
# Usage: scripts/fastapi-compare.sh   (needs python3 with venv, and PyPI the first time)
#
# FastAPI and uvicorn (pinned below) are installed into a virtualenv under ~/.cache
# (FASTAPI_COMPARE_VENV to move it), once per pin. Both servers are stopped by their PID when the
# script exits.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKS_NAME=fastapi-compare
# shellcheck source=scripts/lib/checks.sh
. scripts/lib/checks.sh

PINS="fastapi==0.165.0 pydantic==2.14.4 uvicorn==0.54.0"
VENV="${FASTAPI_COMPARE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/resource-api/fastapi-venv}"
TARGET="${CARGO_TARGET_DIR:-target}"

# ---- 1. FastAPI, once per pin.
# shellcheck disable=SC2086 # the pins are separate words
ensure_venv "$VENV" $PINS

# ---- 2. Both servers, on free loopback ports.
cargo build --quiet -p resource-api || die "cargo build -p resource-api failed"
binary="$TARGET/debug/resource-api"
[ -x "$binary" ] || die "no service binary at $binary"
open_work fastapi-compare
ours_port="$(free_port)"
theirs_port="$(free_port)"
DB_CONN_STRING="sqlite://$work/compare.db" RUST_LOG=warn "$binary" --host 127.0.0.1 --port "$ours_port" \
  --group a >"$work/service.log" 2>&1 &
track $!
await_url "$!" "http://127.0.0.1:$ours_port/" "$work/service.log"
(cd tests/fastapi && exec "$VENV/bin/python" -m uvicorn group_a_app:app --host 127.0.0.1 --port "$theirs_port" \
  --log-level warning) >"$work/uvicorn.log" 2>&1 &
track $!
await_url "$!" "http://127.0.0.1:$theirs_port/" "$work/uvicorn.log"
say "service on 127.0.0.1:$ours_port, FastAPI $("$VENV/bin/python" -c 'import fastapi; print(fastapi.__version__)') on 127.0.0.1:$theirs_port"

# ---- 3. The comparison.
"$VENV/bin/python" tests/fastapi/compare.py "http://127.0.0.1:$ours_port" "http://127.0.0.1:$theirs_port"
