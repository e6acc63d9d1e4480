#!/usr/bin/env bash
# CI's smoke run of the load benchmark (bench/run.py --smoke): debug builds of the service (the one
# `cargo test --workspace` already made) and of the hyper-raw, axum and actix-web peers; the verify
# step (every peer answers every scenario as the service does, byte for byte); then each scenario
# for 1 s, one round, nothing written. No timing is asserted: this keeps the harness working.
# Full runs: bench/run.py (see BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/run.py --smoke "$@"
