#!/usr/bin/env python3
"""Issue 21's attacks against a running release binary of the service, with the figures its note
asks for: a fresh client's answers and latency during each attack, and the server's peak RSS.

Rules enforced here:
- only 127.0.0.1 is ever a target; every loop is bounded in count and time; every socket is
  closed and the server stopped at the end, also on failure;
- each attack starts from a fresh server process (so peak RSS, `VmHWM`, is the attack's own) on
  its own embedded store in a temporary directory;
- a probe sends `GET /api/hello` on a new connection every 100 ms during the attack and records
  each status (0: no answer within 2 s) and latency;
- whether the server has let go of the attacking connections is read from the server's own open
  sockets (`/proc/PID/fd`), never by reading from them, which would end a slow-reader attack: a
  connection the server closed may stay ESTABLISHED on the client's side while the kernel still
  holds the FIN behind the client's full window.

Usage:
  bench/attacks.py target/release/resource-api [--attack NAME ...] [--seconds 25]
  bench/attacks.py target/release/resource-api --attack slowloris-at-limit --connections 10200
  bash -c 'ulimit -n 1024; exec bench/attacks.py target/release/resource-api --attack slowloris-at-limit'
Attacks: stalled-bodies, h2-stalled-bodies, h2-idle, h2-zero-window, pipelined-readers,
partial-preface, nested-birds, flat-birds, nested-items (issue 34's memory attacks: the last
three keep 32 clients sending 1 MiB JSON bodies, and for birds 8 more reading them back),
slowloris-at-limit (`--connections` heads trickled one byte a second, each reopened as soon as the
server closes it: 800 by default, more than the 768 places a soft limit of 1,024 descriptors
leaves; not in the default list), log-amplification and log-amplification-json (issue 41's
attack 6: the server with its access lines on, text or JSON, its log in a file; first 20 requests
of each hostile kind one at a time, for the log bytes each makes, then 8 clients sending them for
the attack's length: the log's bytes a second and a request; not in the default list).
"""

import argparse
import asyncio
import multiprocessing
import os
import resource
import shlex
import socket
import struct
import subprocess
import sys
import tempfile
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def settings(**values):
    ids = {"initial_window_size": 4, "max_concurrent_streams": 3}
    payload = b"".join(struct.pack(">HI", ids[k], v) for k, v in values.items())
    return frame(4, 0, 0, payload)


def literal(name, value):
    """An HPACK literal header field without indexing, new name, no Huffman coding."""
    def string(s):
        data = s.encode()
        assert len(data) < 127
        return bytes([len(data)]) + data
    return b"\x00" + string(name) + string(value)


def headers_frame(stream, method, path, end_stream=True):
    block = literal(":method", method) + literal(":scheme", "http") + literal(":path", path) + \
        literal(":authority", "127.0.0.1")
    if method == "POST":
        block += literal("content-type", "application/json") + literal("content-length", "100")
    return frame(1, 0x4 | (0x1 if end_stream else 0), stream, block)


class Server:
    limits = None

    def __init__(self, binary, port, data):
        env = dict(os.environ, RUST_LOG="warn", DB_CONN_STRING=os.path.join(data, "birds.db"))
        limits = Server.limits
        restore = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, limits)) if limits else None
        self.proc = subprocess.Popen([binary, "--port", str(port)], env=env, preexec_fn=restore,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.port = port
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("attacks.py: the server did not start")

    def status(self, field):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        return 0

    def sockets(self):
        count = 0
        for fd in os.listdir(f"/proc/{self.proc.pid}/fd"):
            try:
                count += os.readlink(f"/proc/{self.proc.pid}/fd/{fd}").startswith("socket:")
            except OSError:
                pass
        return count

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return err.decode(errors="replace")


async def request(port, raw, timeout=2.0):
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        writer.write(raw)
        data = await asyncio.wait_for(reader.read(65536), timeout)
        writer.close()
        return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except (OSError, asyncio.TimeoutError, ValueError, IndexError):
        return 0


async def probe(server, seconds, results, baseline, released, attack_started):
    port = server.port
    end = time.time() + seconds
    seen = False
    while time.time() < end:
        sockets = server.sockets()
        seen = seen or sockets > baseline
        if seen and released[0] is None and sockets <= baseline:
            released[0] = time.time() - attack_started
        sent = time.perf_counter()
        status = await request(port, b"GET /api/hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        results.append((status, (time.perf_counter() - sent) * 1000))
        await asyncio.sleep(0.1)


async def open_many(port, count, first_bytes):
    writers = []
    for _ in range(count):
        try:
            _, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
        except (OSError, asyncio.TimeoutError):
            break
        if first_bytes:
            writer.write(first_bytes)
        writers.append(writer)
    return writers


async def trickle_head(port, stop, cuts):
    """A request head sent one byte a second and never finished, on a connection reopened as soon
    as the server closes it (counted in `cuts`), until `stop` is set."""
    head = b"GET /api/hello HTTP/1.1\r\nHost: t\r\nX-Slow: "
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
        except (OSError, asyncio.TimeoutError):
            await asyncio.sleep(0.1)
            continue
        try:
            for i in range(10**6):
                if stop.is_set():
                    break
                writer.write(head[i:i + 1] or b"a")
                try:
                    if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                        break
                except asyncio.TimeoutError:
                    continue
            cuts[0] += not stop.is_set()
        except OSError:
            cuts[0] += 1
        finally:
            writer.close()


def trickle_process(port, count, seconds, cuts):
    """`count` trickled heads for `seconds`, in a process of their own: the probe's event loop must
    not wait behind thousands of reconnections (in one loop the probe's worst latency was the
    loop's, ~2 s, where curl from outside saw 23 ms)."""
    async def run():
        stop, counted = asyncio.Event(), [0]
        tasks = [asyncio.create_task(trickle_head(port, stop, counted)) for _ in range(count)]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        cuts.value = counted[0]
    asyncio.run(run())


async def insert_big_bird(port):
    body = b'{"name":"big","blob":"' + b"x" * (1000 * 1000) + b'"}'
    head = f"POST /api/bird/ HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head.encode() + body)
    await reader.read()
    writer.close()


def nested_body(name, size=1024 * 1024, depth=120):
    """A JSON object of about `size` bytes: `name`, then arrays nested `depth` deep, repeated."""
    unit = b"[" * depth + b"]" * depth
    head = b'{"name":"' + name.encode() + b'","d":['
    count = (size - len(head) - 2) // (len(unit) + 1)
    return head + b",".join([unit] * count) + b"]}"


def flat_body(name, size=1024 * 1024):
    """A JSON object of about `size` bytes: `name`, then one flat array of zeros."""
    head = b'{"name":"' + name.encode() + b'","d":['
    count = (size - len(head) - 2) // 2
    return head + b",".join([b"0"] * count) + b"]}"


async def exchange(port, raw, timeout=30.0):
    """Send one request on a new connection (`Connection: close`); its status (0: no answer)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        writer.write(raw)
        data = await asyncio.wait_for(reader.read(), timeout)
        writer.close()
        return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except (OSError, asyncio.TimeoutError, ValueError, IndexError):
        return 0


def post(path, body):
    head = (f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    return head.encode() + body


async def flood(port, until, path, body, readers, statuses):
    """32 clients sending `body` to `path` until `until`; for birds, 8 more reading them back."""
    async def writer():
        while time.time() < until:
            status = await exchange(port, post(path, body))
            statuses[status] = statuses.get(status, 0) + 1

    async def reader():
        while time.time() < until:
            status = await exchange(port, b"GET /api/bird/flood HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            statuses[f"GET {status}"] = statuses.get(f"GET {status}", 0) + 1

    await asyncio.gather(*[writer() for _ in range(32)], *[reader() for _ in range(readers)])


def flood_process(port, seconds, path, kind, readers, results):
    """A flood in a process of its own, so building and sending 1 MiB bodies does not starve the
    probe's event loop; its answers' counts go to `results`."""
    body = {"nested": nested_body, "flat": flat_body}[kind]("flood")
    statuses = {}
    asyncio.run(flood(port, time.time() + seconds, path, body, readers, statuses))
    results.put(statuses)


async def attack(name, server, seconds, connections=800):
    port = server.port
    held, tricklers = [], []
    if name in ("h2-zero-window", "pipelined-readers"):
        await insert_big_bird(port)
    baseline = server.sockets()
    attack_started = time.time()
    if name == "stalled-bodies":
        head = b"POST /api/bird/ HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        held = await open_many(port, 1100, head)
    elif name == "h2-stalled-bodies":
        for _ in range(6):
            [writer] = await open_many(port, 1, PREFACE + settings())
            for i in range(200):
                writer.write(headers_frame(2 * i + 1, "POST", "/api/bird/", end_stream=False))
                writer.write(frame(0, 0, 2 * i + 1, b"{"))
            held.append(writer)
    elif name == "h2-idle":
        held = await open_many(port, 3000, PREFACE + settings())
    elif name == "h2-zero-window":
        [writer] = await open_many(port, 1, PREFACE + settings(initial_window_size=0))
        for i in range(200):
            writer.write(headers_frame(2 * i + 1, "GET", "/api/bird/big"))
        held.append(writer)
    elif name == "pipelined-readers":
        for _ in range(200):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            try:
                await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            except OSError:
                sock.close()
                break
            _, writer = await asyncio.open_connection(sock=sock)
            writer.write(b"GET /api/bird/big HTTP/1.1\r\nHost: t\r\n\r\n" * 8)
            held.append(writer)
    elif name == "partial-preface":
        held = await open_many(port, 3000, b"P")
    elif name in ("nested-birds", "flat-birds", "nested-items"):
        kind = "flat" if name == "flat-birds" else "nested"
        path, readers = ("/item", 0) if name == "nested-items" else ("/api/bird/", 8)
        if readers:
            body = {"nested": nested_body, "flat": flat_body}[kind]("flood")
            await exchange(port, post(path, body))
        results = multiprocessing.Queue()
        process = multiprocessing.Process(target=flood_process, args=(port, seconds, path, kind, readers, results))
        process.start()
        held = [Flood(process, results)]
    elif name in LOG_ATTACKS:
        held = [await log_amplification(server, seconds)]
    elif name == "slowloris-at-limit":
        cuts = multiprocessing.Value("q", 0)
        tricklers = [multiprocessing.Process(target=trickle_process, args=(port, connections, seconds + 3, cuts))]
        tricklers[0].start()
        await asyncio.sleep(3)
    else:
        raise SystemExit(f"attacks.py: no attack {name}")
    results, released = [], [None]
    cpu_before, wall = server.cpu_seconds(), time.time()
    await probe(server, seconds, results, baseline, released, attack_started)
    cpu = (server.cpu_seconds() - cpu_before) / (time.time() - wall)
    open_at_end = max(0, server.sockets() - baseline)
    for writer in held:
        writer.close()
    for writer in held:
        if isinstance(writer, Flood):
            print(f"    {name}: the attack's answers: {writer.answers()}", file=sys.stderr)
    if tricklers:
        await asyncio.get_running_loop().run_in_executor(None, tricklers[0].join)
        # The attack's connections are retaken when cut: report the cuts instead.
        print(f"    {name}: {cuts.value} trickling heads closed by the server and reopened", file=sys.stderr)
        return results, cpu, connections, None, open_at_end
    return results, cpu, len(held), released[0], open_at_end


class Flood:
    """A flood running in a process of its own, closed like a connection: it ends by itself at
    the attack's end."""

    def __init__(self, process, results):
        self.process, self.results = process, results

    def answers(self):
        try:
            answers = self.results.get(timeout=60)
        except Exception:  # noqa: BLE001 - a flood that died reports nothing
            answers = {}
        self.process.join(timeout=10)
        return answers

    def close(self):
        pass


# Issue 41's attack 6, the log amplifies: requests whose path escapes to several times its size.
LOG_ATTACKS = {"log-amplification": "text", "log-amplification-json": "json"}


def logged_server(binary, data, log_format):
    """A script that runs `binary` with its access lines on (`RUST_LOG=info`) in `log_format`, its
    log appended to a file, and the file: the log attack measures what the server writes. The
    script execs the binary, so the server's pid is the script's."""
    script, log = os.path.join(data, "logged-server.sh"), os.path.join(data, "server.log")
    with open(script, "w") as f:
        f.write(f'#!/bin/sh\nRUST_LOG=info exec {shlex.quote(os.path.abspath(binary))} '
                f'--log-format {log_format} "$@" 2>>{shlex.quote(log)}\n')
    os.chmod(script, 0o755)
    return script, log


def log_hostile_requests():
    """The hostile kinds (name, raw request): 58 KiB of NEL (U+0085) in the path, raw and
    percent-encoded, and 60,000 backslashes."""
    def get(target):
        return b"GET " + target + b" HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    return [
        ("nel", get(b"/api/bird/" + "\u0085".encode() * (29 * 1024))),
        ("nel-encoded", get(b"/api/bird/" + b"%C2%85" * (58 * 1024 // 6))),
        ("backslashes", get(b"/api/bird/" + b"\\" * 60_000)),
    ]


def log_flood_process(port, seconds, results):
    """8 clients sending the hostile kinds in turn for `seconds`; their answers' counts go to
    `results`."""
    kinds = [raw for _, raw in log_hostile_requests()]

    async def client(i, statuses, until):
        while time.time() < until:
            status = await exchange(port, kinds[i % len(kinds)])
            statuses[status] = statuses.get(status, 0) + 1
            i += 1

    async def run():
        statuses, until = {}, time.time() + seconds
        await asyncio.gather(*[client(i, statuses, until) for i in range(8)])
        results.put(statuses)
    asyncio.run(run())


class LogFlood(Flood):
    """The log attack's flood, and the log's figures once it ends."""

    def __init__(self, process, results, log, per_kind, seconds, size_at_start):
        super().__init__(process, results)
        self.log, self.per_kind, self.seconds, self.size_at_start = log, per_kind, seconds, size_at_start

    def answers(self):
        answers = super().answers()
        time.sleep(0.3)  # the last batch of lines
        wall = self.seconds
        written = os.path.getsize(self.log) - self.size_at_start
        sent = sum(n for status, n in answers.items() if status)
        with open(self.log, "rb") as f:
            dropped = sum(1 for line in f if b"log line(s) dropped" in line)
        kinds = ", ".join(f"{kind} {size:,.0f} B" for kind, size in self.per_kind)
        return (f"{answers}; log per request, one at a time: {kinds}; under 8 clients: "
                f"{written / wall / 2**20:.1f} MiB/s of log, {sent / wall:.0f} requests/s, "
                f"{written / max(sent, 1):,.0f} B of log a request; {dropped} dropped-lines notices")


async def log_amplification(server, seconds):
    """Issue 41's attack 6 (see the module's usage)."""
    log, port = server.log_path, server.port

    async def settled_size():
        # The log writes in batches every 50 ms: wait until its size stops moving.
        size = -1
        while size != os.path.getsize(log):
            size = os.path.getsize(log)
            await asyncio.sleep(0.3)
        return size

    per_kind = []
    for kind, raw in log_hostile_requests():
        before = await settled_size()
        for _ in range(20):
            await exchange(port, raw)
        per_kind.append((kind, (await settled_size() - before) / 20))
    results = multiprocessing.Queue()
    process = multiprocessing.Process(target=log_flood_process, args=(port, seconds, results))
    size_at_start = os.path.getsize(log)
    process.start()
    return LogFlood(process, results, log, per_kind, seconds, size_at_start)


def summary(name, results, cpu, peak, rss, held, released, open_at_end, seconds):
    statuses = {}
    for status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    ok = [ms for status, ms in results if status == 200]
    worst = max((ms for _, ms in results), default=0)
    share = f"{len(ok)}/{len(results)} answered 200"
    others = ", ".join(f"{n}×{s or 'none'}" for s, n in sorted(statuses.items()) if s != 200)
    let_go = f"all closed {released:.1f} s after the attack began" if released is not None else f"{open_at_end} still open at {seconds:.0f} s"
    return (f"| {name} | {held} | {share}{'; ' + others if others else ''} | "
            f"{(sorted(ok)[len(ok) // 2] if ok else 0):.1f} / {worst:.0f} ms | {cpu * 100:.0f} % | "
            f"{peak / 2**20:.0f} / {rss / 2**20:.0f} MiB | {let_go} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--attack", action="append")
    parser.add_argument("--seconds", type=float, default=25)
    parser.add_argument("--connections", type=int, default=800, help="slowloris-at-limit's connections")
    args = parser.parse_args()
    # This process may need many descriptors (slowloris-at-limit); the server starts with the
    # limits this process was given (Server restores them), as it would from a shell.
    Server.limits = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (Server.limits[1], Server.limits[1]))
    except (ValueError, OSError):
        pass
    names = args.attack or ["stalled-bodies", "h2-stalled-bodies", "h2-idle", "h2-zero-window",
                            "pipelined-readers", "partial-preface"]
    print("| attack | attacking connections | fresh clients during the attack | median / worst latency | server CPU | server RSS peak / end | the server's attacking connections |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        with tempfile.TemporaryDirectory() as data:
            binary, log = logged_server(args.binary, data, LOG_ATTACKS[name]) if name in LOG_ATTACKS else (args.binary, None)
            server = Server(binary, free_port(), data)
            server.log_path = log
            try:
                results, cpu, held, released, open_at_end = asyncio.run(
                    attack(name, server, args.seconds, args.connections))
                peak, rss = server.status("VmHWM"), server.status("VmRSS")
            finally:
                log = server.stop()
            print(summary(name, results, cpu, peak, rss, held, released, open_at_end, args.seconds), flush=True)
            warnings = [line for line in log.splitlines() if "reason=" in line]
            for line in warnings[:3]:
                print(f"    log: {line[:200]}", file=sys.stderr)


if __name__ == "__main__":
    main()
