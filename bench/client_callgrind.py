#!/usr/bin/env python3
"""Instructions per call of a generated client beside a hand-written hyper-util request, counted
by callgrind in one run of one binary (client/tests/examples/call_cost.rs) against the release
service: `GET /item/42` and `POST /item` (issue 31's target: a generated call costs at most 1.15x
the hand-written one).

Rules enforced here:
- only the client process is instrumented (the service runs beside it, uninstrumented);
- the binary marks each phase with a call to `phase_boundary`, and callgrind dumps its counts
  before each (`--dump-before`), so each phase's instructions are one dump's total: warm-up and
  start-up are not counted, and both clients are measured in the same run;
- the count is divided by the calls of the phase; a run whose client reports a wrong answer fails;
- only 127.0.0.1 is ever a target, every wait is bounded, the service is always stopped.

Usage:
  bench/client_callgrind.py [--calls 2000] [--target-dir DIR]
  (builds nothing: run `cargo build --release -p resource-api` and `cargo build --release -p ferrapi-client-tests --example call_cost` first)
"""

import argparse
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHASES = [
    "generated GET /item/42",
    "hand-written GET /item/42",
    "generated GET /item/42, no timeout",
    "generated POST /item",
    "hand-written POST /item",
    "generated POST /item, no timeout",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port, proc, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"client_callgrind.py: the service exited with status {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"client_callgrind.py: the service did not listen on 127.0.0.1:{port} in {seconds} s")


def dump_totals(out_file):
    """The `Ir` total of each dump, in dump order (part 1, 2, ...)."""
    parts = []
    for path in glob.glob(out_file + ".*"):
        suffix = path.rsplit(".", 1)[1]
        if not suffix.isdigit():
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            events, total = [], None
            for line in f:
                if line.startswith("events:"):
                    events = line.split()[1:]
                elif line.startswith("totals:"):
                    total = dict(zip(events, map(int, line.split()[1:]))).get("Ir", 0)
                    break
        parts.append((int(suffix), total or 0))
    return [total for _, total in sorted(parts)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--target-dir", default=os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")))
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("client_callgrind.py: valgrind is not installed")
    service = os.path.join(args.target_dir, "release", "resource-api")
    client = os.path.join(args.target_dir, "release", "examples", "call_cost")
    for binary in (service, client):
        if not os.access(binary, os.X_OK):
            sys.exit(f"client_callgrind.py: no {binary} (cargo build --release -p resource-api; cargo build --release -p ferrapi-client-tests --example call_cost)")
    work = tempfile.mkdtemp(prefix="client-callgrind.")
    port = free_port()
    env = dict(os.environ, RUST_LOG="warn", DB_CONN_STRING=f"sqlite://{work}/db.sqlite")
    server = subprocess.Popen([service, "--host", "127.0.0.1", "--port", str(port), "--group", "a"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(port, server)
        out_file = os.path.join(work, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-before=*phase_boundary*", f"--callgrind-out-file={out_file}",
             client, f"http://127.0.0.1:{port}", str(args.calls)],
            capture_output=True, text=True, timeout=3600)
        if run.returncode != 0:
            sys.stderr.write(run.stderr[-4000:])
            sys.exit(f"client_callgrind.py: call_cost failed (status {run.returncode})")
        totals = dump_totals(out_file)
        # Dump 1 is start-up and warm-up (before the first boundary); then one per phase, and the
        # last holds the end (after the final boundary).
        phases = totals[1:1 + len(PHASES)]
        if len(phases) != len(PHASES):
            sys.exit(f"client_callgrind.py: expected {len(PHASES) + 2} dumps, found {len(totals)}")
        per_call = {name: total / args.calls for name, total in zip(PHASES, phases)}
        print(f"instructions per call, {args.calls} calls a phase, one run (callgrind):")
        for name in PHASES:
            print(f"  {name:38} {per_call[name]:>10,.0f}")
        for route in ("GET /item/42", "POST /item"):
            generated = per_call[f"generated {route}"]
            hand = per_call[f"hand-written {route}"]
            untimed = per_call[f"generated {route}, no timeout"]
            print(f"  {route}: generated / hand-written = {generated / hand:.3f} "
                  f"(without the timeout: {untimed / hand:.3f})")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
