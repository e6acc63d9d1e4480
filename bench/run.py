#!/usr/bin/env python3
"""Side-by-side load benchmark: the Resource API (ferrapi) against hand-written hyper, axum,
actix-web, FastAPI + uvicorn and Express 4, on the same scenarios. See BENCHMARKS.md for the method
and the latest figures.

Rules enforced here:
- only 127.0.0.1 is ever a target; every wait and every loop is bounded;
- a verify step runs first: every peer must answer every scenario with the service's status,
  content type and body, byte for byte, or the run stops (a benchmark of different work is
  meaningless);
- the server runs pinned to CPU 0 and wrk to CPU 1; within a round every scenario runs on every
  peer in turn (all servers started, only the loaded one busy), the peers' order rotating from
  round to round, so compared figures are taken seconds apart;
- the server's CPU time per request comes from /proc/PID/stat (utime + stime) over each run;
- no timing is ever asserted: a smoke run (--smoke) only proves the harness works end to end;
- the fastapi and express peers are installed into bench/ on demand (bench/.venv-fastapi from
  bench/peers/fastapi/requirements.txt, bench/peers/express/node_modules by `npm ci`), again only
  when their pins change; without python3's venv or node/npm they are skipped with a notice,
  unless --peers names them.

Usage:
  bench/run.py                      # full run (5 s per scenario, 3 rounds), writes BENCHMARKS.md
  bench/run.py --smoke              # debug builds, 1 s per scenario, 1 round, no write (CI)
  bench/run.py --peers service,hyper-raw,axum --duration 5 --rounds 3 --no-write
  bench/run.py --peers service,hyper-raw,fastapi,express --verify-only
  bench/run.py --peers service,hyper-raw --service-bin base=/tmp/resource-api-base --no-write
                                    # also an earlier build of the service, as peer service@base,
                                    # so a change is measured before and after in one run
  bench/run.py --peers service,hyper-raw --observability --no-write
                                    # the log's and the metrics' cost: the service with its log
                                    # off (service), as started by default (service-default), and
                                    # by default with --metrics (service-metrics), in one run
  bench/run.py --peers service --observability --scenario 'GET /item/42' --rounds 15 --no-write
                                    # one scenario, many rounds: a small difference pinned down
  bench/run.py --otel --no-write    # traces (issue 45): the service and axum each with every
                                    # request sampled and its spans batched over OTLP/HTTP to a
                                    # receiver in another process (bench/otlp_sink.py), beside
                                    # both untraced; the table is printed, never written
  bench/run.py --tls --no-write     # over TLS (issue 46): the service, hyper-raw over tokio-rustls
                                    # and axum-server, a certificate made by `openssl` for the run;
                                    # one more scenario opens a connection (a handshake) per request
"""

import argparse
import atexit
import http.client
import ssl
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
LUA = os.path.join(BENCH, "lua")
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

ITEM_BODY = '{"name":"Foo","description":"A very nice Item","price":35.4,"tax":3.2}'
BIRD_BODY = '{"name":"bench-bird","color":"yellow","wingspan_cm":12}'

# (name, method, path, body, service only, lua script)
SCENARIOS = [
    ("GET /", "GET", "/", None, False, None),
    ("GET /item/42", "GET", "/item/42", None, False, None),
    ("GET /item/foo (422)", "GET", "/item/foo", None, False, None),
    ("GET /user/7/item/abc?q=x&short=yes", "GET", "/user/7/item/abc?q=x&short=yes", None, False, None),
    ("POST /item", "POST", "/item", ITEM_BODY, False, "post_item.lua"),
    ("GET /person?skip=2&limit=3", "GET", "/person?skip=2&limit=3", None, False, None),
    ("GET /openapi.json", "GET", "/openapi.json", None, False, None),
    ("POST /api/bird/", "POST", "/api/bird/", BIRD_BODY, True, "post_bird.lua"),
    ("GET /api/bird/{name}", "GET", "/api/bird/bench-bird", None, True, None),
]

# --tls (issue 46): the peers that serve TLS, and the scenario that makes a handshake per request
# (wrk reconnects after each answer to `Connection: close`: the handshakes a second of each peer).
TLS_PEERS = ["service", "hyper-raw", "axum"]
HANDSHAKE_SCENARIO = ("GET /item/42 (a TLS handshake each)", "GET", "/item/42", None, False, None)
SCENARIO_HEADERS = {HANDSHAKE_SCENARIO[0]: ["Connection: close"]}
# Set by --tls: the certificate's and key's files, and the client context trusting the certificate.
TLS = None

PEERS = ["service", "ferrapi-bare", "hyper-raw", "axum", "actix", "fastapi", "express"]
RUST_PEERS = ["ferrapi-bare", "hyper-raw", "axum", "actix", "axum-otel"]
# --otel (issue 45): each traced peer beside its untraced self. service-otlp is the service with
# tracing on (its default sampler, parentbased_always_on: every request without a caller is
# sampled) exporting over OTLP/HTTP; axum-otel is the axum peer with axum-tracing-opentelemetry,
# tracing-opentelemetry and the SDK's batch processor with opentelemetry-otlp. Each exports to a
# sink of its own (bench/otlp_sink.py, a separate process, not counted), whose counts are printed
# after the run: a row whose sink received nothing measured no export.
OTEL_PEERS = ["service", "service-otlp", "axum", "axum-otel"]
OTLP_EXPORTERS = ["service-otlp", "axum-otel"]
# Set by --otel: each exporting peer's sink, {peer: (url, stats file)}.
OTLP_SINKS = {}
# Not Rust: installed into bench/ on demand, skipped with a notice when their runtime is missing.
INSTALLED_PEERS = ["fastapi", "express"]
SMOKE_PEERS = ["service", "hyper-raw", "axum", "actix"]
# The smoke run only verifies these (no load): their answers are checked in CI at little cost.
SMOKE_VERIFY_PEERS = ["fastapi", "express"]
BASE = "hyper-raw"
# The service's own variants: (RUST_LOG, None to leave it unset as a newcomer does; extra flags).
# "service" runs with the log off, the figure the other peers are compared with; --observability
# adds service-default (the README's start: info, one access line and an id per request) and
# service-metrics (that and --metrics), for the log's and the metrics' cost per request.
SERVICE_MODES = {
    "service": ("warn", []),
    "service-info": ("info", []),
    "service-default": (None, []),
    "service-metrics": (None, ["--metrics"]),
    "service-otlp": ("warn", []),
}
OBSERVABILITY_PEERS = ["service-default", "service-metrics"]
# Variants: a peer's binary run with settings of its own, as a peer (bench/run.py --layers).
# ferrapi-server is the ferrapi-bare routes on ferrapi::Server without layers; -noop adds tower's
# Identity (the price of a layer stack at all); the -cors-gzip pair has tower-http's CORS and
# compression layers on ferrapi and on axum, and is loaded with an Origin and an
# Accept-Encoding: gzip header so both layers do their work.
# gzip (miniz_oxide) allocates and clears ~300 KB per compressed response. With glibc's adaptive
# mmap threshold that is an mmap/munmap pair per response, or not, depending on the process's
# allocation history: measured alone, both -cors-gzip peers spent ~120 us/request in the kernel,
# and in one run axum's process switched to its heap part-way and looked 4x cheaper. Fixed
# thresholds keep such allocations on the heap in both, so the pair compares the frameworks.
FIXED_MALLOC = {"MALLOC_MMAP_THRESHOLD_": "4194304", "MALLOC_TRIM_THRESHOLD_": "16777216"}
VARIANTS = {
    "ferrapi-server": ("ferrapi-bare", {"SERVER": "ferrapi"}),
    "ferrapi-noop": ("ferrapi-bare", {"SERVER": "ferrapi", "LAYERS": "noop"}),
    "ferrapi-cors-gzip": ("ferrapi-bare", {"SERVER": "ferrapi", "LAYERS": "cors,compression", **FIXED_MALLOC}),
    "axum-cors-gzip": ("axum", {"LAYERS": "cors,compression", **FIXED_MALLOC}),
    # The work of the service's default start (an id and an access line per request) on axum
    # with tower-http: the peer issue 22 compares service-default with.
    "axum-trace-ids": ("axum", {"LAYERS": "trace,request-id"}),
}
LAYER_HEADERS = {"ferrapi-cors-gzip": ["Origin: http://bench.example", "Accept-Encoding: gzip"],
                 "axum-cors-gzip": ["Origin: http://bench.example", "Accept-Encoding: gzip"]}

FASTAPI_DIR = os.path.join(BENCH, "peers", "fastapi")
FASTAPI_VENV = os.path.join(BENCH, ".venv-fastapi")
EXPRESS_DIR = os.path.join(BENCH, "peers", "express")
INSTALL_TIMEOUT = 600


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def die(msg):
    log(f"FAILED: {msg}")
    sys.exit(1)


def run(cmd, **kw):
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


class Unavailable(Exception):
    """A peer's runtime is missing or its packages could not be installed."""


def install_step(cmd, cwd, logfile):
    """One bounded install command, its output kept in LOGFILE; Unavailable when it fails."""
    log("$ " + " ".join(cmd))
    with open(logfile, "wb") as out:
        try:
            done = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  timeout=INSTALL_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Unavailable(f"{cmd[0]} did not finish within {INSTALL_TIMEOUT} s (log: {logfile})")
        except OSError as e:
            raise Unavailable(f"cannot run {cmd[0]}: {e}")
    if done.returncode != 0:
        with open(logfile, errors="replace") as f:
            tail = f.read()[-1500:]
        raise Unavailable(f"{' '.join(cmd[:3])} failed (exit {done.returncode}, log: {logfile}):\n{tail}")


def stamp_matches(stamp, pins):
    try:
        with open(stamp, "rb") as f:
            return f.read() == pins
    except OSError:
        return False


def install_fastapi():
    """bench/.venv-fastapi with exactly bench/peers/fastapi/requirements.txt; its interpreter and app."""
    python = os.path.join(FASTAPI_VENV, "bin", "python")
    with open(os.path.join(FASTAPI_DIR, "requirements.txt"), "rb") as f:
        pins = f.read()
    stamp = os.path.join(FASTAPI_VENV, ".installed")
    if not (os.access(python, os.X_OK) and stamp_matches(stamp, pins)):
        if not os.access(python, os.X_OK):
            shutil.rmtree(FASTAPI_VENV, ignore_errors=True)
            os.makedirs(os.path.dirname(FASTAPI_VENV), exist_ok=True)
            install_step([sys.executable, "-m", "venv", FASTAPI_VENV], BENCH, os.path.join(BENCH, ".venv-fastapi.log"))
        try:
            os.remove(stamp)
        except OSError:
            pass
        install_step([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r",
                      os.path.join(FASTAPI_DIR, "requirements.txt")], BENCH, os.path.join(FASTAPI_VENV, "pip.log"))
        with open(stamp, "wb") as f:
            f.write(pins)
    return [python, os.path.join(FASTAPI_DIR, "app.py")]


def install_express():
    """bench/peers/express/node_modules by `npm ci` from its package-lock.json; node and the app."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise Unavailable("node and npm are required (Debian: apt-get install nodejs npm)")
    with open(os.path.join(EXPRESS_DIR, "package-lock.json"), "rb") as f:
        pins = f.read()
    modules = os.path.join(EXPRESS_DIR, "node_modules")
    stamp = os.path.join(modules, ".bench-installed")
    if not stamp_matches(stamp, pins):
        install_step([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], EXPRESS_DIR,
                     os.path.join(BENCH, ".npm-express.log"))
        with open(stamp, "wb") as f:
            f.write(pins)
    return [os.path.realpath(node), os.path.join(EXPRESS_DIR, "app.js")]


INSTALLERS = {"fastapi": install_fastapi, "express": install_express}


def install_peers(peers, explicit):
    """The argv prefixes of the installed peers among PEERS that can run, and the install checks'
    durations. One that cannot is left out with a one-line notice, or stops the run when EXPLICIT
    (the --peers list) names it."""
    argv, timings = {}, {}
    for peer in [p for p in INSTALLED_PEERS if p in peers]:
        t = time.monotonic()
        try:
            argv[peer] = INSTALLERS[peer]()
        except Unavailable as e:
            if peer in explicit:
                die(f"peer {peer} was asked for but cannot run: {e}")
            log(f"skipping peer {peer}: {str(e).splitlines()[0]}")
            continue
        timings[peer] = time.monotonic() - t
    return argv, timings


def ensure_tools():
    if shutil.which("taskset") is None:
        die("taskset (util-linux) is required")
    if shutil.which("wrk") is None:
        log("wrk missing: installing the Debian package")
        apt = ["apt-get"] if os.geteuid() == 0 else ["sudo", "apt-get"]
        run(apt + ["update", "-qq"], stdout=subprocess.DEVNULL)
        run(apt + ["install", "-y", "-qq", "wrk"], stdout=subprocess.DEVNULL)
    if shutil.which("wrk") is None:
        die("wrk could not be installed")


def target_dirs():
    product = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    peers = os.environ.get("BENCH_TARGET_DIR") or os.path.join(
        os.environ["CARGO_TARGET_DIR"], "bench-peers") if os.environ.get("CARGO_TARGET_DIR") else os.path.join(BENCH, "target")
    return product, peers


def build(peers, release):
    product, peer_target = target_dirs()
    profile = ["--release"] if release else []
    out = "release" if release else "debug"
    timings = {}
    if any(p in SERVICE_MODES for p in peers):
        t = time.monotonic()
        # --locked, here and below: a stale lock fails the run instead of being rewritten (the
        # smoke run is part of the tests, which leave the tree as they found it).
        run(["cargo", "build", *profile, "--locked", "--quiet", "-p", "resource-api"], cwd=ROOT)
        timings["service"] = time.monotonic() - t
    rust_peers = sorted({VARIANTS[p][0] if p in VARIANTS else p for p in peers} & set(RUST_PEERS))
    if rust_peers:
        env = dict(os.environ, CARGO_TARGET_DIR=peer_target)
        cmd = ["cargo", "build", *profile, "--locked", "--quiet", "--manifest-path", os.path.join(BENCH, "Cargo.toml")]
        for p in rust_peers:
            cmd += ["-p", f"peer-{p}"]
        t = time.monotonic()
        run(cmd, env=env)
        timings["peers"] = time.monotonic() - t
    # Each peer's argv before its PORT and OPENAPI_FILE arguments (the service's before its options).
    bins = {
        "service": [os.path.join(product, out, "resource-api")],
        **{mode: [os.path.join(product, out, "resource-api")] for mode in SERVICE_MODES},
        "hyper-raw": [os.path.join(peer_target, out, "peer-hyper-raw")],
        "axum": [os.path.join(peer_target, out, "peer-axum")],
        "axum-otel": [os.path.join(peer_target, out, "peer-axum-otel")],
        "actix": [os.path.join(peer_target, out, "peer-actix")],
        "ferrapi-bare": [os.path.join(peer_target, out, "peer-ferrapi-bare")],
    }
    for variant, (base, _) in VARIANTS.items():
        bins[variant] = bins[base]
    return bins, timings


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One server process pinned to CPU 0, stopped by its PID."""

    def __init__(self, peer, bins, workdir, openapi_file):
        self.peer = peer
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
        if peer in OTLP_SINKS:
            env["OTEL_EXPORTER_OTLP_ENDPOINT"] = OTLP_SINKS[peer][0]
        if TLS:
            # The service reads them as its --tls-cert/--tls-key; the peers by peer_common::tls.
            env.update(TLS_CERT=TLS["cert"], TLS_KEY=TLS["key"])
        if peer.startswith("service"):
            level, flags = SERVICE_MODES.get(peer, ("warn", []))
            if level is None:
                env.pop("RUST_LOG", None)
            else:
                env["RUST_LOG"] = level
            db = os.path.join(workdir, f"birds-{peer}-{self.port}.db")
            cmd = [*bins[peer], "--host", "127.0.0.1", "--port", str(self.port), "--db", f"sqlite://{db}", *flags]
        else:
            cmd = [*bins[peer], str(self.port), openapi_file]
            if peer == "express":
                env["NODE_ENV"] = "production"
            env.update(VARIANTS.get(peer, (None, {}))[1])
        self.logfile = open(os.path.join(workdir, f"{peer}-{self.port}.log"), "wb")
        self.proc = subprocess.Popen(["taskset", "-c", "0"] + cmd, env=env, stdout=self.logfile,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                die(f"{peer} exited at start-up (log: {self.logfile.name})")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            self.stop()
            die(f"{peer} did not listen on 127.0.0.1:{self.port} within 30 s")
        # The PID whose /proc/PID/stat is read must be the server itself (taskset execs it), not a
        # wrapper (a shell, npm, a pyenv shim) around it.
        try:
            exe = os.readlink(f"/proc/{self.proc.pid}/exe").removesuffix(" (deleted)")
        except OSError:
            exe = "?"
        if os.path.realpath(exe) != os.path.realpath(cmd[0]):
            self.stop()
            die(f"{peer}: PID {self.proc.pid} runs {exe}, not {os.path.realpath(cmd[0])}")
        time.sleep(0.2)
        self.idle_rss_kib = self.status("VmRSS")

    def status(self, key):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith(key + ":"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def cpu_ticks(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)

    def request(self, method, path, body=None):
        if TLS:
            conn = http.client.HTTPSConnection("localhost", self.port, timeout=10, context=TLS["context"])
        else:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        ctype = resp.getheader("Content-Type")
        conn.close()
        return resp.status, ctype, data

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.logfile.close()


def scenarios_for(peer):
    return [s for s in SCENARIOS if not s[4] or peer.startswith("service")]


def verify(peers, bins, workdir, openapi_file):
    """Every peer answers every shared scenario exactly as the service does."""
    expected = {}
    svc = Server("service", bins, workdir, openapi_file)
    try:
        for name, method, path, body, _, _ in SCENARIOS:
            expected[name] = svc.request(method, path, body)
            if expected[name][0] >= 500:
                die(f"service answered {name} with {expected[name][0]}")
        if expected["GET /api/bird/{name}"][0] != 200:
            die("service: the bird inserted by POST /api/bird/ is not found by name")
    finally:
        svc.stop()
    failures = []
    for peer in peers:
        if peer.startswith("service"):
            continue
        srv = Server(peer, bins, workdir, openapi_file)
        try:
            for name, method, path, body, _, _ in scenarios_for(peer):
                got = srv.request(method, path, body)
                if got != expected[name]:
                    failures.append(f"{peer} {name}: expected {expected[name]!r}, got {got!r}")
        finally:
            srv.stop()
    if failures:
        for f in failures:
            log("MISMATCH " + f[:600])
        die(f"{len(failures)} answer(s) differ from the service's")
    log(f"verify: {len(peers)} peer(s) x {len(SCENARIOS)} scenarios answer identically")


def capture_openapi(bins, workdir):
    path = os.path.join(workdir, "openapi.json")
    svc = Server("service", bins, workdir, path)
    try:
        status, _, data = svc.request("GET", "/openapi.json")
    finally:
        svc.stop()
    if status != 200:
        die(f"service /openapi.json answered {status}")
    with open(path, "wb") as f:
        f.write(data)
    return path


def parse_duration_ms(text):
    units = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}
    for unit in ("us", "ms", "s", "m"):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * units[unit]
    return float(text)


def wrk(port, scenario, duration, connections, headers=()):
    name, method, path, body, _, script = scenario
    cmd = ["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency",
           "--timeout", "5s"]
    for header in headers:
        cmd += ["-H", header]
    if script:
        cmd += ["-s", os.path.join(LUA, script)]
    cmd.append(f"{'https' if TLS else 'http'}://127.0.0.1:{port}{path}")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=duration + 60).stdout
    result = {"errors": 0}
    for line in out.splitlines():
        words = line.split()
        if line.strip().startswith("50%"):
            result["p50_ms"] = parse_duration_ms(words[1])
        elif line.strip().startswith("99%"):
            result["p99_ms"] = parse_duration_ms(words[1])
        elif "requests in" in line:
            result["requests"] = int(words[0])
        elif line.startswith("Requests/sec:"):
            result["rps"] = float(words[1])
        elif line.strip().startswith("Socket errors:"):
            result["errors"] += sum(int(w.strip(",")) for w in words[3::2])
    if "requests" not in result or "rps" not in result:
        die(f"could not parse wrk output for {name}:\n{out}")
    return result


def load_round(peers, bins, workdir, openapi_file, duration, connections, results, rss, round_no=0):
    """One round. Every peer's server is started first (all pinned to CPU 0; the ones not under
    load are idle), then the scenarios run one by one, each on every peer in turn, the peers'
    order rotated from round to round: figures that are compared are taken seconds apart rather
    than minutes, since this machine's speed drifts by ±10 % over minutes."""
    servers = {}
    try:
        for peer in peers:
            servers[peer] = Server(peer, bins, workdir, openapi_file)
            if peer.startswith("service"):
                servers[peer].request("POST", "/api/bird/", BIRD_BODY)
        shared_hwm = dict.fromkeys(peers, 0)
        anon = dict.fromkeys(peers, 0)
        shift = round_no % len(peers)
        order = peers[shift:] + peers[:shift]
        for scenario in SCENARIOS:
            for peer in order:
                if scenario not in scenarios_for(peer):
                    continue
                srv = servers[peer]
                before = srv.cpu_ticks()
                headers = [*LAYER_HEADERS.get(peer, ()), *SCENARIO_HEADERS.get(scenario[0], ())]
                r = wrk(srv.port, scenario, duration, connections, headers)
                after = srv.cpu_ticks()
                r["cpu_us"] = (after - before) / CLK_TCK * 1e6 / max(r["requests"], 1)
                results.setdefault((peer, scenario[0]), []).append(r)
                log(f"{peer:10} {scenario[0]:36} {r['rps']:>10.0f} req/s  p50 {r.get('p50_ms', 0):.2f} ms  "
                    f"p99 {r.get('p99_ms', 0):.2f} ms  cpu {r['cpu_us']:.1f} us/req")
                # The scenarios every peer serves come first: the high-water mark after them compares
                # like with like; the service's store scenarios come after.
                if not scenario[4]:
                    shared_hwm[peer] = srv.status("VmHWM")
                anon[peer] = max(anon[peer], srv.status("RssAnon"))
        for peer, srv in servers.items():
            rss.setdefault(peer, []).append((srv.idle_rss_kib, shared_hwm[peer], srv.status("VmHWM"), anon[peer]))
    finally:
        for srv in servers.values():
            srv.stop()


def med(values):
    return statistics.median(values) if values else 0.0


def spread(values):
    if len(values) < 2:
        return "-"
    m = med(values)
    return f"±{(max(values) - min(values)) / 2 / m * 100:.0f}%" if m else "-"


def table(peers, results, rss, meta):
    lines = []
    lines.append(f"Run: {meta['date']} on {meta['machine']}; load average before the run: {meta['load']}; "
                 f"{meta['rounds']} round(s) x {meta['duration']} s per scenario, {meta['connections']} connections, "
                 f"server on CPU 0, wrk on CPU 1. Medians; ± is half the min–max range over rounds, relative to the median. "
                 f"Ratios are to hyper-raw (req/s: higher is better; CPU/req: lower is better).")
    lines.append("")
    lines.append("| scenario | peer | req/s | ± | × hyper-raw | p50 ms | p99 ms | CPU µs/req | CPU × hyper-raw |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for scenario in SCENARIOS:
        name = scenario[0]
        base = results.get((BASE, name))
        base_rps = med([r["rps"] for r in base]) if base else None
        base_cpu = med([r["cpu_us"] for r in base]) if base else None
        for peer in peers:
            rs = results.get((peer, name))
            if not rs:
                continue
            rps = med([r["rps"] for r in rs])
            cpu = med([r["cpu_us"] for r in rs])
            ratio = f"{rps / base_rps:.2f}" if base_rps else "-"
            cratio = f"{cpu / base_cpu:.2f}" if base_cpu else "-"
            lines.append(f"| `{name}` | {peer} | {rps:,.0f} | {spread([r['rps'] for r in rs])} | {ratio} | "
                         f"{med([r.get('p50_ms', 0) for r in rs]):.2f} | {med([r.get('p99_ms', 0) for r in rs]):.2f} | "
                         f"{cpu:.1f} | {cratio} |")
    lines.extend(paired(peers, results))
    # --otel: the traced axum against axum, as service-otlp against the service above.
    lines.extend(paired(peers, results, ref="axum", others=["axum-otel"]))
    lines.append("")
    lines.append("| peer | idle RSS MiB | peak RSS, shared scenarios MiB | peak RSS, all scenarios MiB | "
                 "largest anonymous RSS MiB |")
    lines.append("|---|---:|---:|---:|---:|")
    for peer in peers:
        if peer in rss:
            idle = med([r[0] for r in rss[peer]]) / 1024
            shared = max(r[1] for r in rss[peer]) / 1024
            peak = max(r[2] for r in rss[peer]) / 1024
            anon = max(r[3] for r in rss[peer]) / 1024
            lines.append(f"| {peer} | {idle:.1f} | {shared:.1f} | {peak:.1f} | {anon:.1f} |")
    return "\n".join(lines)


def paired(peers, results, ref="service", others=None):
    """The service's variants (or `others`) against `ref` (the service with its log off), round
    by round: the two runs of a scenario in a round are seconds apart, so their ratio is steadier
    than a ratio of medians taken minutes apart. The last row pools every scenario's rounds."""
    if others is None:
        others = [p for p in peers if p.startswith("service") and p != ref]
    others = [p for p in others if p in peers]
    if ref not in peers or not others:
        return []
    lines = ["", f"CPU per request ÷ {ref}'s in the same round; median over rounds (min–max):", "",
             "| scenario | " + " | ".join(others) + " |", "|---|" + "---:|" * len(others)]
    pooled = {p: [] for p in others}
    for scenario in SCENARIOS:
        name = scenario[0]
        base = results.get((ref, name))
        cells = []
        for peer in others:
            rs = results.get((peer, name))
            ratios = [r["cpu_us"] / b["cpu_us"] for r, b in zip(rs or [], base or []) if b["cpu_us"]]
            pooled[peer].extend(ratios)
            cells.append(f"{med(ratios):.3f} ({min(ratios):.2f}–{max(ratios):.2f})" if ratios else "-")
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    lines.append("| all scenarios, pooled | " + " | ".join(
        f"{med(pooled[p]):.3f} ({len(pooled[p])} runs)" if pooled[p] else "-" for p in others) + " |")
    return lines


def write_benchmarks(text):
    path = os.path.join(ROOT, "BENCHMARKS.md")
    begin, end = "<!-- results:begin -->", "<!-- results:end -->"
    with open(path) as f:
        doc = f.read()
    if begin not in doc or end not in doc:
        die("BENCHMARKS.md lacks the results markers")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text + "\n" + end + tail)
    log(f"wrote {path}")


def use_tls(workdir):
    """Serve every peer over TLS from now on, with a certificate for `localhost` and 127.0.0.1
    made for this run by the `openssl` command (EC P-256, the curve a browser's first choice
    signs with; no key is ever committed)."""
    global TLS
    cert, key = os.path.join(workdir, "tls-cert.pem"), os.path.join(workdir, "tls-key.pem")
    if shutil.which("openssl") is None:
        die("--tls needs the openssl command to make the run's certificate (Debian: apt-get install openssl)")
    run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    TLS = {"cert": cert, "key": key, "context": ssl.create_default_context(cafile=cert)}


def start_sinks(exporters, workdir):
    """An OTLP sink process (bench/otlp_sink.py) for each of `exporters`, pinned to CPU 1 (the
    servers run on CPU 0); returns them as {peer: process}."""
    sinks = {}
    for peer in exporters:
        port = free_port()
        stats = os.path.join(workdir, f"otlp-sink-{peer}.json")
        proc = subprocess.Popen(["taskset", "-c", "1", sys.executable, os.path.join(BENCH, "otlp_sink.py"),
                                 str(port), stats], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        # Stopped however the run ends (--verify-only, a failure): a sink left running would keep
        # the caller's pipes open.
        atexit.register(proc.kill)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    proc.kill()
                    die(f"the OTLP sink for {peer} did not listen on 127.0.0.1:{port}")
                time.sleep(0.05)
        OTLP_SINKS[peer] = (f"http://127.0.0.1:{port}", stats)
        sinks[peer] = proc
    return sinks


def report_sinks(sinks):
    """Print what each sink received, then stop it; a sink that received no spans fails the run
    (its peer's row would measure no export)."""
    empty = []
    for peer, proc in sinks.items():
        proc.terminate()
        proc.wait()
        with open(OTLP_SINKS[peer][1]) as f:
            stats = json.load(f)
        traces = stats.get("/v1/traces", {"requests": 0, "bytes": 0})
        log(f"OTLP sink of {peer}: {traces['requests']} export requests, {traces['bytes'] / 1e6:.1f} MB of spans "
            f"(all paths: {stats})")
        if traces["requests"] == 0:
            empty.append(peer)
    if empty:
        die(f"no spans reached the sink of {', '.join(empty)}: its figures measured no export")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true",
                    help="1 s per scenario, 1 round, debug builds (CI reuses cargo test's), no write")
    ap.add_argument("--debug", action="store_true", help="debug builds (figures meaningless; for smoke runs)")
    ap.add_argument("--peers", default=None, help="comma-separated: " + ",".join(PEERS + list(SERVICE_MODES)[1:]) +
                    " (default: all but the service's variants)")
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--scenario", action="append", default=[], metavar="NAME",
                    help="only this scenario (repeatable), named as in the table: 'GET /item/42'")
    ap.add_argument("--no-write", action="store_true", help="print the table, leave BENCHMARKS.md alone")
    ap.add_argument("--verify-only", action="store_true")
    ap.add_argument("--with-info-log", action="store_true",
                    help="also run the service with RUST_LOG=info (the per-request log line's cost)")
    ap.add_argument("--observability", action="store_true",
                    help="also " + ", ".join(OBSERVABILITY_PEERS) + " (the access log's and the metrics' cost)")
    ap.add_argument("--layers", action="store_true",
                    help="also the layer variants: " + ", ".join(VARIANTS) + " (tower layers' cost)")
    ap.add_argument("--service-bin", action="append", default=[], metavar="LABEL=PATH",
                    help="also run this resource-api binary as peer service@LABEL (e.g. a build of the "
                         "commit before a change), with the service's arguments and scenarios")
    ap.add_argument("--tls", action="store_true",
                    help="serve over TLS: " + ", ".join(TLS_PEERS) + " (the default peers then), plus the "
                         "scenario '" + HANDSHAKE_SCENARIO[0] + "'; the table is printed, never written")
    ap.add_argument("--otel", action="store_true",
                    help="traces' cost: " + ", ".join(OTEL_PEERS) + " (the default peers then), the traced "
                         "ones exporting to OTLP sinks in other processes; the table is printed, never written")
    ap.add_argument("--wait-load", type=float, default=0.0, metavar="MINUTES",
                    help="first wait (polling every 30 s, at most MINUTES) for a 1-minute load below 0.7")
    args = ap.parse_args()
    if args.scenario:
        unknown = set(args.scenario) - {s[0] for s in SCENARIOS}
        if unknown:
            die(f"unknown scenario(s) {sorted(unknown)}; known: {[s[0] for s in SCENARIOS]}")
        args.no_write = True  # a partial table must not replace BENCHMARKS.md's
    explicit = args.peers.split(",") if args.peers else []
    verify_extra = []
    if args.smoke:
        args.duration, args.rounds, args.no_write, args.debug = 1, 1, True, True
        peers = explicit or list(SMOKE_PEERS)
        if not explicit:
            verify_extra = list(SMOKE_VERIFY_PEERS)
    else:
        peers = explicit or list(TLS_PEERS if args.tls else OTEL_PEERS if args.otel else PEERS)
    if args.otel:
        args.no_write = True  # BENCHMARKS.md's table has no traced rows
    if args.tls:
        refused = [p for p in peers if p not in TLS_PEERS and not p.startswith("service")]
        if refused:
            die(f"--tls: {', '.join(refused)} serve no TLS here (peers over TLS: {', '.join(TLS_PEERS)})")
        args.no_write = True  # BENCHMARKS.md's table is the plain one
        SCENARIOS.append(HANDSHAKE_SCENARIO)
    if args.with_info_log and "service-info" not in peers:
        peers.append("service-info")
    extra_services = {}
    for spec in args.service_bin:
        label, _, path = spec.partition("=")
        if not label or not os.path.isfile(path) or not os.access(path, os.X_OK):
            die(f"--service-bin {spec}: expected LABEL=PATH of an executable")
        extra_services[f"service@{label}"] = [os.path.abspath(path)]
    if args.observability:
        peers += [v for v in OBSERVABILITY_PEERS if v not in peers]
    if args.layers:
        peers += [v for v in VARIANTS if v not in peers]
    for p in peers:
        if p not in PEERS + OTEL_PEERS + list(SERVICE_MODES) + list(VARIANTS):
            die(f"unknown peer {p}")
    peers += [p for p in extra_services if p not in peers]
    args.duration = max(1, min(args.duration, 120))
    args.rounds = max(1, min(args.rounds, 20))

    ensure_tools()
    bins, timings = build(peers, release=not args.debug)
    bins.update(extra_services)
    installed, install_timings = install_peers(peers + verify_extra, explicit)
    bins.update(installed)
    timings.update({f"{peer} (install, or check of its pins)": secs for peer, secs in install_timings.items()})
    peers = [p for p in peers if p not in INSTALLED_PEERS or p in installed]
    verify_extra = [p for p in verify_extra if p in installed]
    for what, secs in timings.items():
        log(f"build {what}: {secs:.1f} s")
    deadline = time.monotonic() + max(0.0, min(args.wait_load, 30.0)) * 60
    while float(open("/proc/loadavg").read().split()[0]) >= 0.7 and time.monotonic() < deadline:
        log(f"load average {open('/proc/loadavg').read().split()[0]} >= 0.7: waiting 30 s")
        time.sleep(30)
    load = open("/proc/loadavg").read().split()[:3]
    log(f"load average: {' '.join(load)}")
    with tempfile.TemporaryDirectory(prefix="ferrapi-bench-") as workdir:
        if args.tls:
            use_tls(workdir)
        sinks = start_sinks([p for p in peers if p in OTLP_EXPORTERS], workdir)
        openapi_file = capture_openapi(bins, workdir)
        verify([p for p in peers + verify_extra if p != "service-info"], bins, workdir, openapi_file)
        if args.verify_only:
            return
        if args.scenario:
            # After the verify step, which checks every scenario (one answers from another's data).
            SCENARIOS[:] = [s for s in SCENARIOS if s[0] in args.scenario]
        results, rss = {}, {}
        for round_no in range(args.rounds):
            log(f"round {round_no + 1}/{args.rounds}")
            load_round(peers, bins, workdir, openapi_file, args.duration, args.connections, results, rss,
                       round_no)
        report_sinks(sinks)
    errors = sum(r["errors"] for rs in results.values() for r in rs)
    if errors:
        log(f"warning: wrk reported {errors} socket error(s)")
    cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
                         capture_output=True, text=True).stdout.strip()
    meta = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} × {cpu or 'unknown CPU'}, {os.uname().sysname} {os.uname().release}",
        "load": " ".join(load),
        "rounds": args.rounds,
        "duration": args.duration,
        "connections": args.connections,
    }
    text = table(peers, results, rss, meta)
    print(text)
    if not args.no_write:
        write_benchmarks(text)


if __name__ == "__main__":
    main()
