# Shared set-up of the check scripts (scripts/docs-checks.sh, client-checks.sh,
# fastapi-compare.sh, test.sh): sourced, never run. Set CHECKS_NAME (the prefix of every message)
# before sourcing it.
#
# Rules enforced here:
# - a tool is installed only when missing or when its pin changed: a virtualenv remembers its pins
#   in .pinned, node_modules the checksum of the lock it was installed from in .lock-stamp;
# - an installer's output is shown only when it fails;
# - every server a script starts is stopped by its PID, and its work directory removed, when the
#   script exits, however it exits;
# - every named check runs, and the summary names each failure.

: "${CHECKS_NAME:?set CHECKS_NAME before sourcing scripts/lib/checks.sh}"

say() { echo "$CHECKS_NAME: $*"; }
die() {
  echo "$CHECKS_NAME: $*" >&2
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# ensure_venv VENV PIN...   or   ensure_venv VENV -r REQUIREMENTS_FILE
# A virtualenv at VENV holding exactly these pins, (re)installed when they changed.
ensure_venv() {
  local venv="$1" pins
  shift
  if [ "${1:-}" = "-r" ]; then
    pins="$(cat "$2")"
  else
    pins="$*"
  fi
  if ! "$venv/bin/python" -c '' 2>/dev/null; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv" || die "cannot create a virtualenv at $venv (python3 -m venv)"
  fi
  if [ "$(cat "$venv/.pinned" 2>/dev/null)" != "$pins" ]; then
    if [ "${1:-}" = "-r" ]; then
      say "installing $(grep -v '^#' "$2" | tr '\n' ' ')into $venv"
    else
      say "installing $* into $venv"
    fi
    if ! "$venv/bin/pip" install --quiet --disable-pip-version-check "$@" >"$venv/pip.log" 2>&1; then
      cat "$venv/pip.log" >&2
      die "could not install $* into $venv"
    fi
    echo "$pins" >"$venv/.pinned"
  fi
}

# ensure_node_modules DIR WHAT: `npm ci` in DIR from its committed package-lock.json when
# node_modules was installed from another lock (WHAT names the packages, for the message).
ensure_node_modules() {
  command -v node >/dev/null || die "node is not installed (the machine's Node.js runs $2)"
  if [ "$(cat "$1/node_modules/.lock-stamp" 2>/dev/null)" != "$(cksum <"$1/package-lock.json")" ]; then
    say "installing $2 (npm ci in $1)"
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed in $1"
    cksum <"$1/package-lock.json" >"$1/node_modules/.lock-stamp"
  fi
}

# A free TCP port on 127.0.0.1 (the kernel's choice; the caller binds it right away).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# open_work PREFIX: a temporary directory in $work, removed at exit with every tracked server.
pids=()
open_work() {
  work="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
  trap close_work EXIT
  trap 'exit 130' INT TERM
}
close_work() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
# track PID: stop this background process at exit.
track() { pids+=("$1"); }

# await_url PID URL LOG [OUT]: wait (at most 30 s) until URL answers, saving its body to OUT when
# given; if the server with PID exits first or never answers, print its LOG and stop.
await_url() {
  local fetch='import sys, urllib.request
body = urllib.request.urlopen(sys.argv[1], timeout=5).read()
if len(sys.argv) > 2:
    open(sys.argv[2], "wb").write(body)'
  local _
  for _ in $(seq 1 300); do
    if python3 -c "$fetch" "$2" ${4:+"$4"} 2>/dev/null; then
      return 0
    fi
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  cat "$3" >&2
  die "$2 did not answer within 30 s"
}
# await_document PID BASE OUT LOG: await_url on BASE/openapi.json, the document saved to OUT.
await_document() { await_url "$1" "$2/openapi.json" "$4" "$3"; }

# run NAME COMMAND...: one named check; its outcome and time are printed and counted.
failed=()
passed=0
run() {
  local name="$1" t
  shift
  t="$(now)"
  if "$@"; then
    passed=$((passed + 1))
    say "ok   $name ($(since "$t"))"
  else
    failed+=("$name")
    say "FAIL $name ($(since "$t"))"
  fi
}
# finish: the summary; exits 1 naming every failed check.
finish() {
  local name
  if [ "${#failed[@]}" -gt 0 ]; then
    for name in "${failed[@]}"; do
      echo "$CHECKS_NAME: FAILED: $name" >&2
    done
    echo "$CHECKS_NAME: $passed passed, ${#failed[@]} failed"
    exit 1
  fi
  echo "$CHECKS_NAME: $passed passed, 0 failed"
}
