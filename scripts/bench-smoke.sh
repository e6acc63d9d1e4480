#!/usr/bin/env bash
# CI's smoke run of the load benchmark (bench/run.py --smoke): debug builds of the service (the one
# `cargo test --workspace` already made) and of the hyper-raw, axum and actix-web peers; the verify
# step (every peer answers every scenario as the service does, byte for byte), which also covers the
# FastAPI and Express peers (installed into bench/ on demand: about 12 s in a fresh clone, nothing
# when their pins are unchanged; skipped with a notice without python3's venv or node/npm); then
# each scenario of the Rust peers and the service for 1 s, one round, nothing written. No timing is
# asserted: this keeps the harness working.
# Full runs: bench/run.py (see BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/run.py --smoke "$@"
