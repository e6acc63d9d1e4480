#!/usr/bin/env python3
"""The streaming scenario: `GET /stream/1` (1 MiB, 16 chunks of 64 KiB, chunked) served by ferrapi
(the ferrapi-bare routes on ferrapi::Server, SERVER=ferrapi) and by axum, with CPU per MiB and
throughput. The peers' builds, the server process and wrk are run_py's (bench/run.py), so the
method is the main harness's.

Rules enforced here:
- only 127.0.0.1 is ever a target; the server runs pinned to CPU 0, wrk to CPU 1, peers alternate
  round by round; every wait is bounded (run.py's);
- a verify step first: both peers answer the scenario 200 with exactly 1 MiB of zeros;
- CPU per MiB is the server's utime + stime over the run (/proc/PID/stat) divided by the MiB
  it sent (requests x 1 MiB); no timing is ever asserted.

Usage:
  bench/streaming.py                       # 3 rounds x 5 s, release builds, writes BENCHMARKS.md
  bench/streaming.py --rounds 1 --duration 2 --no-write
  bench/streaming.py --smoke               # debug builds, 1 s, 1 round, no write
"""

import argparse
import os
import sys
import tempfile
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as harness  # noqa: E402  (bench/run.py)

PEERS = {"ferrapi": "ferrapi-server", "axum": "axum"}
MIB = 1 << 20
SCENARIO = ("GET /stream/1 (1 MiB, chunked)", "GET", "/stream/1", None, False, None)
BEGIN, END = "<!-- streaming:begin -->", "<!-- streaming:end -->"


def verify(bins, workdir, openapi_file):
    for label, peer in PEERS.items():
        srv = harness.Server(peer, bins, workdir, openapi_file)
        try:
            status, _, body = srv.request("GET", SCENARIO[2])
        finally:
            srv.stop()
        if status != 200 or body != b"\0" * MIB:
            harness.die(f"{label}: GET {SCENARIO[2]} answered {status} with {len(body)} bytes, not 1 MiB of zeros")
    harness.log("verify: both peers stream 1 MiB of zeros")


def table(results, meta):
    lines = [f"Run: {meta['date']}; {meta['rounds']} round(s) x {meta['duration']} s, {meta['connections']} "
             f"connections, server on CPU 0, wrk on CPU 1. Medians; ± is half the min–max range over rounds.",
             "",
             "| scenario | peer | MiB/s | ± | CPU ms/MiB | CPU × axum | p50 ms | p99 ms | peak RSS MiB |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    base = harness.med([r["cpu_ms_mib"] for r in results.get("axum", [])]) or None
    for label in PEERS:
        rs = results.get(label, [])
        if not rs:
            continue
        mibs = [r["rps"] for r in rs]  # 1 MiB per request
        cpu = harness.med([r["cpu_ms_mib"] for r in rs])
        ratio = f"{cpu / base:.2f}" if base else "-"
        lines.append(f"| `{SCENARIO[0]}` | {label} | {harness.med(mibs):,.0f} | {harness.spread(mibs)} | {cpu:.3f} | "
                     f"{ratio} | {harness.med([r.get('p50_ms', 0) for r in rs]):.2f} | "
                     f"{harness.med([r.get('p99_ms', 0) for r in rs]):.2f} | "
                     f"{max(r['hwm_kib'] for r in rs) / 1024:.1f} |")
    return "\n".join(lines)


def write(text):
    path = os.path.join(harness.ROOT, "BENCHMARKS.md")
    with open(path) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        harness.die("BENCHMARKS.md lacks the streaming markers")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)
    harness.log(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="debug builds, 1 s, 1 round, no write")
    args = ap.parse_args()
    if args.smoke:
        args.duration, args.rounds, args.no_write = 1, 1, True
    args.duration = max(1, min(args.duration, 120))
    args.rounds = max(1, min(args.rounds, 20))
    harness.ensure_tools()
    bins, _ = harness.build(list(PEERS.values()), release=not args.smoke)
    results = {}
    with tempfile.TemporaryDirectory(prefix="ferrapi-stream-bench-") as workdir:
        openapi_file = os.path.join(workdir, "openapi.json")
        with open(openapi_file, "w") as f:
            f.write("{}")
        verify(bins, workdir, openapi_file)
        for _ in range(args.rounds):
            for label, peer in PEERS.items():
                srv = harness.Server(peer, bins, workdir, openapi_file)
                try:
                    before = srv.cpu_ticks()
                    r = harness.wrk(srv.port, SCENARIO, args.duration, args.connections)
                    after = srv.cpu_ticks()
                    r["cpu_ms_mib"] = (after - before) / harness.CLK_TCK * 1e3 / max(r["requests"], 1)
                    r["hwm_kib"] = srv.status("VmHWM")
                    results.setdefault(label, []).append(r)
                    harness.log(f"{label:8} {r['rps']:>8.0f} MiB/s  cpu {r['cpu_ms_mib']:.3f} ms/MiB  "
                                f"peak RSS {r['hwm_kib'] / 1024:.1f} MiB  socket errors {r['errors']}")
                finally:
                    srv.stop()
    meta = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "rounds": args.rounds,
            "duration": args.duration, "connections": args.connections}
    text = table(results, meta)
    print(text)
    if not args.no_write:
        write(text)


if __name__ == "__main__":
    main()
