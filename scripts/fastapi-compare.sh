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

PINS="fastapi==0.165.0 pydantic==2.14.4 uvicorn==0.54.0"
VENV="${FASTAPI_COMPARE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/resource-api/fastapi-venv}"
TARGET="${CARGO_TARGET_DIR:-target}"

say() { echo "fastapi-compare: $*"; }
die() {
  echo "fastapi-compare: $*" >&2
  exit 1
}

# ---- 1. FastAPI, once per pin.
if ! "$VENV/bin/python" -c '' 2>/dev/null; then
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV" || die "cannot create a virtualenv at $VENV (python3 -m venv)"
fi
if [ "$(cat "$VENV/.pinned" 2>/dev/null)" != "$PINS" ]; then
  say "installing $PINS into $VENV"
  # shellcheck disable=SC2086 # the pins are separate words
  if ! "$VENV/bin/pip" install --quiet --disable-pip-version-check $PINS >"$VENV/pip.log" 2>&1; then
    cat "$VENV/pip.log" >&2
    die "could not install $PINS"
  fi
  echo "$PINS" >"$VENV/.pinned"
fi

# ---- 2. Both servers, on free loopback ports.
cargo build --quiet -p resource-api || die "cargo build -p resource-api failed"
binary="$TARGET/debug/resource-api"
[ -x "$binary" ] || die "no service binary at $binary"
work="$(mktemp -d "${TMPDIR:-/tmp}/fastapi-compare.XXXXXX")"
ours_pid=""
theirs_pid=""
cleanup() {
  for pid in "$ours_pid" "$theirs_pid"; do
    if [ -n "$pid" ]; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
free_port() { "$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ours_port="$(free_port)"
theirs_port="$(free_port)"
DB_CONN_STRING="sqlite://$work/compare.db" RUST_LOG=warn "$binary" --host 127.0.0.1 --port "$ours_port" \
  --group a >"$work/service.log" 2>&1 &
ours_pid=$!
(cd tests/fastapi && exec "$VENV/bin/python" -m uvicorn group_a_app:app --host 127.0.0.1 --port "$theirs_port" \
  --log-level warning) >"$work/uvicorn.log" 2>&1 &
theirs_pid=$!

wait_for() {
  local url="$1" pid="$2" log="$3"
  for _ in $(seq 1 300); do
    if "$VENV/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$url" \
      2>/dev/null; then
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$log" >&2
  die "$url did not answer within 30 s"
}
wait_for "http://127.0.0.1:$ours_port/" "$ours_pid" "$work/service.log"
wait_for "http://127.0.0.1:$theirs_port/" "$theirs_pid" "$work/uvicorn.log"
say "service on 127.0.0.1:$ours_port, FastAPI $("$VENV/bin/python" -c 'import fastapi; print(fastapi.__version__)') on 127.0.0.1:$theirs_port"

# ---- 3. The comparison.
"$VENV/bin/python" tests/fastapi/compare.py "http://127.0.0.1:$ours_port" "http://127.0.0.1:$theirs_port"
