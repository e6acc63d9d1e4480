#!/usr/bin/env bash
# Reliability and supply-chain checks that are not `cargo test` (see RELIABILITY.md):
#   1. cargo deny check licenses bans sources   (deny.toml; the advisory check is a release step)
#   2. schemathesis against the live service's /openapi.json: every operation, stateful links,
#      no server errors, no response that violates the document, no undocumented status code
#   3. each cargo-fuzz target (fuzz/) for FUZZ_SECONDS (default 30) on the nightly toolchain;
#      an input that crashes is copied to fuzz/corpus/<target>/ (commit it as a regression seed);
#      first, that fuzz/Cargo.lock is current (a stale one fails, never rewritten)
#
# Usage: scripts/reliability-checks.sh [deny|schemathesis|fuzz]...   (default: all three)
# Tools are installed idempotently: cargo-deny and cargo-fuzz with `cargo install --locked` only
# when missing, schemathesis (pinned) into a virtualenv under ~/.cache reused by later runs.
# Fuzzing is skipped with a notice when no nightly toolchain is installed (libFuzzer needs
# -Zsanitizer); set FUZZ_REQUIRED=1 to make that an error.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
CHECKS_NAME=reliability-checks
# shellcheck source=scripts/lib/checks.sh
. scripts/lib/checks.sh

SCHEMATHESIS="schemathesis==4.32.5"
VENV="${RELIABILITY_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/resource-api/reliability-venv}"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(deny schemathesis fuzz)

have_cargo_tool() { cargo "$1" --version >/dev/null 2>&1; }
install_cargo_tool() {
  if ! have_cargo_tool "$2"; then
    echo "== cargo install $1 --locked"
    cargo install "$1" --locked --quiet
  fi
}

run_deny() {
  install_cargo_tool cargo-deny deny
  echo "== cargo deny check licenses bans sources"
  cargo deny --log-level error check licenses bans sources
}

run_schemathesis() {
  ensure_venv "$VENV" "$SCHEMATHESIS"

  cargo build --quiet -p resource-api
  local bin data log pid port
  bin="$(cargo metadata --format-version 1 --no-deps | "$VENV/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/resource-api"
  data="$(mktemp -d "${TMPDIR:-/tmp}/resource-api-schemathesis.XXXXXX")"
  log="$data/service.log"
  DB_CONN_STRING="sqlite://$data/st.db" RUST_LOG=info "$bin" --host 127.0.0.1 --port 0 >"$log" 2>&1 &
  pid=$!
  # shellcheck disable=SC2064
  trap "kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf '$data'" RETURN
  port=""
  for _ in $(seq 1 300); do
    port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)"
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    cat "$log" >&2
    echo "scripts/reliability-checks.sh: the service did not start" >&2
    exit 1
  fi
  echo "== schemathesis ($SCHEMATHESIS) against http://127.0.0.1:$port/openapi.json"
  "$VENV/bin/schemathesis" --no-color run "http://127.0.0.1:$port/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "${SCHEMATHESIS_EXAMPLES:-50}" \
    --seed 1 \
    --request-timeout 10 \
    --generation-database none
}

run_fuzz() {
  # cargo-fuzz has no --locked, and a build with a stale fuzz/Cargo.lock rewrites it, so the tests
  # would leave the tree changed. So the lock is checked first, with stable cargo and with or
  # without nightly: a stale lock fails here, on every machine; a current one is never rewritten.
  echo "== fuzz/Cargo.lock is current (cargo metadata --locked)"
  if ! cargo metadata --locked --format-version 1 --manifest-path "$root/fuzz/Cargo.toml" >/dev/null; then
    echo "scripts/reliability-checks.sh: fuzz/Cargo.lock is stale; update it with" \
      "\`cargo metadata --format-version 1 --manifest-path fuzz/Cargo.toml >/dev/null\` and commit it" >&2
    exit 1
  fi
  if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    if [ "${FUZZ_REQUIRED:-0}" = 1 ]; then
      echo "scripts/reliability-checks.sh: fuzzing needs a nightly toolchain (rustup toolchain install nightly)" >&2
      exit 1
    fi
    echo "== fuzz: skipped (no nightly toolchain; rustup toolchain install nightly)"
    return
  fi
  install_cargo_tool cargo-fuzz fuzz
  cd "$root/fuzz"
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/resource-api"
  # The working corpus and the build live under ~/.cache, reused by later runs (a cold build of
  # the instrumented targets takes about 2 minutes on 2 cores).
  local work="${FUZZ_WORK:-$cache/fuzz-corpus}" target_dir="${FUZZ_TARGET_DIR:-$cache/fuzz-target}"
  for target in router request body; do
    mkdir -p "$work/$target"
    echo "== cargo fuzz run $target (${FUZZ_SECONDS} s)"
    if ! cargo +nightly fuzz run --target-dir "$target_dir" "$target" "$work/$target" "seeds/$target" -- \
      -max_total_time="$FUZZ_SECONDS" -max_len=4096 -timeout=10 -print_final_stats=1 \
      2>"$work/$target.log"; then
      tail -40 "$work/$target.log" >&2
      mkdir -p "corpus/$target"
      cp artifacts/"$target"/* "corpus/$target/" 2>/dev/null || true
      echo "scripts/reliability-checks.sh: fuzz target $target failed; the input is in fuzz/corpus/$target/" >&2
      exit 1
    fi
    grep -E '^(Done|stat::number_of_executed_units)' "$work/$target.log" || true
  done
  cd "$root"
}

for step in "${steps[@]}"; do
  case "$step" in
    deny) run_deny ;;
    schemathesis) run_schemathesis ;;
    fuzz) run_fuzz ;;
    *) echo "unknown step: $step (deny, schemathesis, fuzz)" >&2; exit 2 ;;
  esac
done
echo "== reliability checks passed: ${steps[*]}"
