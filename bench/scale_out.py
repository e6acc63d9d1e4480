#!/usr/bin/env python3
"""Scale-out throughput: clinic bookings per second and bird inserts per second with 1 and 3
`resource-api` processes over one store (one SQLite file; one MongoDB database). See BENCHMARKS.md,
"Several processes over one store", for the method and the latest figures.

Rules enforced here:
- only 127.0.0.1 is ever a target; every wait is bounded; every process started is stopped, by
  its own handle, when the scenario ends (also on failure);
- each scenario gets a fresh store (a new SQLite file in a temporary directory, a new MongoDB
  database), seeded through HTTP with the doctors and patients the bookings name;
- the load is one `wrk` per process (its share of the connections), all started together, and
  the figure is the sum of their requests per second; any non-2xx answer or socket error (wrk
  counts a reply slower than 2 s as one) is reported next to the figure;
- builds given together run round by round, each in turn on every scenario, so a change in the
  machine's load weighs on all of them alike; the table gives the median and the range;
- no figure is asserted: this measures, it does not test.

Usage:
  bench/scale_out.py                                   # release build of this tree, both stores
  bench/scale_out.py --binary before=/tmp/old/resource-api --binary after=target/release/resource-api
  MONGODB_URI=mongodb://127.0.0.1:PORT bench/scale_out.py --stores mongodb
Without MONGODB_URI (or --mongo-uri) the MongoDB rows are skipped with a notice; scripts/test.sh
shows how to start the MongoDB-wire test server.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 20  # doctors and patients the bookings pick from


def log(msg):
    print(f"[scale-out] {msg}", file=sys.stderr, flush=True)


class Service:
    """One resource-api process on a free port; its address read from its log."""

    def __init__(self, binary, db):
        env = dict(os.environ, DB_CONN_STRING=db, RUST_LOG="warn,ferrapi::server=info")
        env.pop("EXPOSE_ENV", None)
        self.proc = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", "--group", "all"],
                                     env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        found = {}
        ready = threading.Event()

        def drain():
            for line in self.proc.stderr:
                m = re.search(r"listening on http://([0-9.]+):(\d+)", line)
                if m and not ready.is_set():
                    found["port"] = int(m.group(2))
                    ready.set()
        threading.Thread(target=drain, daemon=True).start()
        if not ready.wait(30):
            self.stop()
            raise RuntimeError(f"{binary} did not log its address within 30 s")
        self.port = found["port"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def post(port, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as reply:
        return json.load(reply)


BOOKING_LUA = """-- POST /visits naming one of the seeded doctors and patients at random.
local doctors = {%s}
local patients = {%s}
request = function()
  local body = string.format(
    '{"doctor_id":"%%s","patient_id":"%%s","start_time":"2024-05-01T09:30:00Z","reason":"bench"}',
    doctors[math.random(#doctors)], patients[math.random(#patients)])
  return wrk.format("POST", "/visits", {["Content-Type"] = "application/json"}, body)
end
"""


def wrk(port, script, path, duration, connections, out):
    cmd = ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "-s", script, f"http://127.0.0.1:{port}{path}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=duration + 60)
    text = done.stdout
    rps = re.search(r"Requests/sec:\s+([0-9.]+)", text)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    out.append({
        "rps": float(rps.group(1)) if rps else 0.0,
        "bad": int(bad.group(1)) if bad else 0,
        "errors": sum(int(g) for g in errors.groups()) if errors else 0,
        "raw": text,
    })


def scenario(binary, store_uri, processes, kind, duration, connections):
    """Requests per second of one scenario (`booking` or `bird`), summed over the processes."""
    services = []
    try:
        for _ in range(processes):
            services.append(Service(binary, store_uri))
        with tempfile.TemporaryDirectory() as tmp:
            if kind == "booking":
                first = services[0].port
                doctors = [post(first, "/doctors", {"name": f"D{i}", "specialty": "cardiology"})["id"]
                           for i in range(SEED)]
                patients = [post(first, "/patients", {"name": f"P{i}", "date_of_birth": "1990-01-01"})["id"]
                            for i in range(SEED)]
                script, path = os.path.join(tmp, "booking.lua"), "/visits"
                with open(script, "w") as f:
                    f.write(BOOKING_LUA % (", ".join(f'"{d}"' for d in doctors),
                                           ", ".join(f'"{p}"' for p in patients)))
            else:
                script, path = os.path.join(ROOT, "bench", "lua", "post_bird.lua"), "/api/bird/"
            results = []
            share = max(1, connections // processes)
            threads = [threading.Thread(target=wrk, args=(s.port, script, path, duration, share, results))
                       for s in services]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        return (sum(r["rps"] for r in results), sum(r["bad"] for r in results),
                sum(r["errors"] for r in results))
    finally:
        for s in services:
            s.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", action="append", metavar="[LABEL=]PATH",
                    help="the resource-api binary; repeat (with labels) to compare builds, round by round")
    ap.add_argument("--stores", default="sqlite,mongodb")
    ap.add_argument("--processes", default="1,3")
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--connections", type=int, default=24)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mongo-uri", default=os.environ.get("MONGODB_URI") or os.environ.get("MONGODB_TEST_URI"))
    args = ap.parse_args()
    default = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release",
                           "resource-api")
    binaries = []
    for given in args.binary or [f"this tree={default}"]:
        label, _, path = given.rpartition("=")
        binaries.append((label or path, path))
        if not os.access(path, os.X_OK):
            sys.exit(f"no binary at {path} (cargo build --release -p resource-api)")
    stores = []
    for store in args.stores.split(","):
        if store == "mongodb" and not args.mongo_uri:
            log("MongoDB skipped: set MONGODB_URI (scripts/test.sh shows how to start a server)")
            continue
        stores.append(store)
    configs = [(store, int(p), kind) for store in stores for p in args.processes.split(",")
               for kind in ("booking", "bird")]
    runs = {}  # (label, store, processes, kind) -> [(rps, bad, errors)]
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="scale-out-") as tmp:
        # Round by round, every build in turn on every scenario: a machine whose load changes
        # during the run weighs on every build alike.
        for r in range(args.rounds):
            for store, processes, kind in configs:
                for label, binary in binaries:
                    name = f"bench_{uuid.uuid4().hex[:12]}"
                    if store == "sqlite":
                        uri = f"sqlite://{os.path.join(tmp, name + '.db')}"
                    else:
                        base = args.mongo_uri.split("?")[0].rstrip("/")
                        base = base if base.count("/") == 2 else base.rsplit("/", 1)[0]
                        uri = f"{base}/{name}"
                    result = scenario(binary, uri, processes, kind, args.duration, args.connections)
                    log(f"{label}: {store} ×{processes} {kind} round {r + 1}: {result[0]:.0f}/s, "
                        f"{result[1]} non-2xx, {result[2]} socket errors")
                    runs.setdefault((label, store, processes, kind), []).append(result)
    print(f"\n{args.connections} connections, {args.duration} s × {args.rounds} rounds, builds interleaved; "
          f"load average before the run {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}. Median (min–max).\n")
    print("| Store | Processes | Build | Bookings/s | Bird inserts/s | Non-2xx / socket errors |")
    print("|---|---:|---|---:|---:|---|")

    def cell(results):
        values = [x[0] for x in results]
        return f"{statistics.median(values):,.0f} ({min(values):,.0f}–{max(values):,.0f})"

    for store in stores:
        for processes in [int(p) for p in args.processes.split(",")]:
            for label, _ in binaries:
                b = runs[(label, store, processes, "booking")]
                d = runs[(label, store, processes, "bird")]
                bad = sum(x[1] for x in b + d)
                errors = sum(x[2] for x in b + d)
                print(f"| {store} | {processes} | {label} | {cell(b)} | {cell(d)} | {bad} / {errors} |")


if __name__ == "__main__":
    main()
