#!/usr/bin/env python3
"""User-space instructions per request of one server binary, counted by callgrind under wrk load.

Requests/s on this shared 2-core machine move by 10-50 % between runs; callgrind's instruction
counts do not (two runs of one binary differ by up to 2 %), so this is how a small change to the
per-request path is measured (BENCHMARKS.md, "Where the CPU goes").

Rules enforced here:
- instrumentation is switched on only after the server answers (start-up is not counted) and off
  before it is stopped, so the count is the requests' alone;
- the count is divided by the requests wrk reports as completed; a run with socket errors or
  non-2xx/4xx-as-expected answers still reports, but says so;
- only 127.0.0.1 is ever a target, every wait is bounded, the server is always stopped.

Usage:
  bench/callgrind.py BINARY [--arg ARG ...] [--scenario 'GET /item/42'] [--scenario 'POST /item'] ...
  bench/callgrind.py target/release/resource-api --env RUST_LOG=warn --env DB_CONN_STRING=/tmp/x.db
  bench/callgrind.py target/release/resource-api --cache-sim   # also L1 misses per request
  bench/callgrind.py BINARY --keep /tmp/cg   # keep the output files, for callgrind_annotate

A scenario is 'METHOD PATH'; POST /item and POST /api/bird/ use the Lua scripts of bench/lua/.
The server must accept `--port PORT` (or take `--port-flag` to name another flag; `--port-flag ''`
passes the port as the first argument, as the bench peers take it: bench/peers/common), or, with
`--port-env NAME`, read it from the environment variable NAME (the examples read `PORT`):
  bench/callgrind.py target/release/examples/versions --port-env PORT --scenario 'GET /products/1'
"""

import argparse
import glob
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
LUA = {"POST /item": "post_item.lua", "POST /api/bird/": "post_bird.lua"}
DEFAULT_SCENARIOS = ["GET /item/42", "POST /item"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port, proc, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"callgrind.py: the server exited with status {proc.returncode} before answering")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"callgrind.py: the server did not accept connections on 127.0.0.1:{port} in {seconds} s")


def totals(out_file):
    """Each event's count over all dumps (`Ir`, and with the cache model `I1mr`, `D1mr`, ...)."""
    # One file per dump; `totals:` holds the event counts of that part, in the order of its
    # `events:` line (`summary:` can read 0 when instrumentation was off at start).
    total = {}
    for path in glob.glob(out_file + "*"):
        events = []
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("events:"):
                    events = line.split()[1:]
                elif line.startswith("totals:"):
                    for name, count in zip(events, line.split()[1:]):
                        total[name] = total.get(name, 0) + int(count)
                    break
    return total


def run(binary, args, env, scenario, duration, port_flag, cache_sim=False, keep=None, port_env=None):
    method, path = scenario.split(" ", 1)
    port = free_port()
    # The port as an argument (after `port_flag`, if any), or only in the environment.
    port_args = [] if port_env else [*([port_flag] if port_flag else []), str(port)]
    env = {**env, port_env: str(port)} if port_env else env
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
               *(["--cache-sim=yes"] if cache_sim else []), binary,
               *port_args, *args]
        proc = subprocess.Popen(cmd, env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(tmp, "server.log"), "w"), cwd=tmp)
        try:
            wait_ready(port, proc)
            subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
            wrk = ["wrk", "-t1", "-c4", f"-d{duration}s"]
            if scenario in LUA:
                wrk += ["-s", os.path.join(BENCH, "lua", LUA[scenario])]
            elif method != "GET":
                sys.exit(f"callgrind.py: no Lua script for {scenario}")
            result = subprocess.run(wrk + [f"http://127.0.0.1:{port}{path}"], capture_output=True,
                                    text=True, timeout=duration + 120)
            subprocess.run(["callgrind_control", "-i", "off", str(proc.pid)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        match = re.search(r"(\d+) requests in", result.stdout)
        if not match or int(match.group(1)) == 0:
            sys.exit(f"callgrind.py: wrk served no requests:\n{result.stdout}{result.stderr}")
        requests = int(match.group(1))
        notes = []
        if "Socket errors" in result.stdout:
            notes.append("socket errors")
        if "Non-2xx" in result.stdout:
            notes.append("non-2xx answers")
        if keep:
            os.makedirs(keep, exist_ok=True)
            name = scenario.replace(" ", "_").replace("/", "_")
            for i, path in enumerate(sorted(glob.glob(out + "*"))):
                shutil.copy(path, os.path.join(keep, f"{name}.{i}.out"))
        return totals(out), requests, notes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--arg", action="append", default=[], help="an argument for the server")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    parser.add_argument("--scenario", action="append", help="'METHOD PATH' (default: GET /item/42, POST /item)")
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--port-flag", default=None,
                        help="the server's flag before the port (default --port; '' for none)")
    parser.add_argument("--port-env", metavar="NAME",
                        help="give the port in the environment variable NAME instead of an argument")
    parser.add_argument("--cache-sim", action="store_true",
                        help="also count L1 misses with callgrind's cache model (instruction misses, "
                             "data misses): a change can cost more in misses than in instructions")
    parser.add_argument("--keep", metavar="DIR",
                        help="copy callgrind's output files here, for callgrind_annotate")
    opts = parser.parse_args()
    if opts.port_env is not None and opts.port_flag is not None:
        parser.error("--port-env and --port-flag exclude each other")
    if opts.port_env == "" or (opts.port_env and "=" in opts.port_env):
        parser.error("--port-env takes the name of an environment variable")
    port_flag = "--port" if opts.port_flag is None else opts.port_flag
    env = dict(e.split("=", 1) for e in opts.env)
    env.setdefault("RUST_LOG", "warn")
    for scenario in opts.scenario or DEFAULT_SCENARIOS:
        counts, requests, notes = run(os.path.abspath(opts.binary), opts.arg, env, scenario,
                                      opts.duration, port_flag, opts.cache_sim, opts.keep,
                                      opts.port_env)
        note = f"  ({', '.join(notes)})" if notes else ""
        misses = ""
        if opts.cache_sim:
            data = counts.get("D1mr", 0) + counts.get("D1mw", 0)
            misses = (f", L1 misses: {counts.get('I1mr', 0) / requests:,.0f} instruction, "
                      f"{data / requests:,.0f} data")
        print(f"{scenario:<40} {counts.get('Ir', 0) / requests:>10,.0f} instructions/request{misses} "
              f"({requests} requests){note}", flush=True)


if __name__ == "__main__":
    main()
