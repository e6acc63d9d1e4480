#!/usr/bin/env bash
# CI's smoke run of the load benchmark: builds the service and the Rust peers, verifies that
# all answer every scenario identically, then runs each scenario for 1 s, one round.
# No timing is asserted: this only keeps the harness working. Full runs: bench/run.py (see BENCHMARKS.md).
# Cost in CI: a cold build of the peers (about 1.5 min on 2 cores) plus about 40 s of runs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/run.py --smoke "$@"
