#!/usr/bin/env bash
# The project's test command: everything a fresh machine needs, then every test.
# Usage: scripts/test.sh            (from anywhere; CI runs the same script)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test --workspace"
cargo test --workspace --no-fail-fast
