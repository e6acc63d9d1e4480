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

Issue 41's clinic attacks (not in the default list; `--mongodb URI` runs them, like every attack,
on a fresh database of that MongoDB server instead of the embedded store): kept-huge-ids (8
clients booking visits with a fresh `Idempotency-Key` and a 900 KB `doctor_id`, each replayed
twice: what is kept, in records and bytes, read from the embedded store's file), clinic-huge-ids
(48 clients posting a 1 MB `doctor_id` with a key, and its replay) and clinic-largest (48 clients
posting the largest visit the model accepts: ids, a 500-character reason and 2,000-character notes
of 4-byte characters, padded to the 1 MiB body limit with a field the model ignores, with a key and
its replay). The last two report the server's RSS at idle, its peak, and 10 s after the load.

Usage:
  bench/attacks.py target/release/resource-api [--attack NAME ...] [--seconds 25]
  bench/attacks.py target/release/resource-api --attack slowloris-at-limit --connections 10200
  bash -c 'ulimit -n 1024; exec bench/attacks.py target/release/resource-api --attack slowloris-at-limit'
Attacks: stalled-bodies, h2-stalled-bodies, h2-idle, h2-zero-window, pipelined-readers,
partial-preface, nested-birds, flat-birds, nested-items (issue 34's memory attacks: the last
three keep 32 clients sending 1 MiB JSON bodies, and for birds 8 more reading them back),
slowloris-at-limit (`--connections` heads trickled one byte a second, each reopened as soon as the
server closes it: 800 by default, more than the 768 places a soft limit of 1,024 descriptors
leaves; not in the default list).
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import socket
import sqlite3
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
    mongodb = None

    def __init__(self, binary, port, data):
        db = os.path.join(data, "birds.db")
        if Server.mongodb:
            # A fresh database per attack: the URI's path replaced (its options kept).
            base, _, options = Server.mongodb.partition("?")
            db = base.split("://", 1)[0] + "://" + base.split("://", 1)[1].split("/", 1)[0] + \
                f"/attack_{os.getpid()}_{port}" + (f"?{options}" if options else "")
        self.db = db
        env = dict(os.environ, RUST_LOG="warn", DB_CONN_STRING=db)
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
    elif name == "slowloris-at-limit":
        cuts = multiprocessing.Value("q", 0)
        tricklers = [multiprocessing.Process(target=trickle_process, args=(port, connections, seconds + 3, cuts))]
        tricklers[0].start()
        await asyncio.sleep(3)
    elif name in CLINIC_ATTACKS:
        held = [await clinic_attack(name, server, seconds)]
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


# Issue 41's clinic attacks (items 4 and 5 of its "Why"): kept answers and the copies writes make.
CLINIC_ATTACKS = ("kept-huge-ids", "clinic-huge-ids", "clinic-largest")


async def call(port, method, path, body=b"", headers=(), timeout=30.0):
    """One request on a new connection: (status, headers as a dict of lower-case names, body)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: {len(body)}\r\n"
    if body:
        head += "Content-Type: application/json\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers) + "\r\n"
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        writer.write(head.encode() + body)
        data = await asyncio.wait_for(reader.read(), timeout)
        writer.close()
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        fields = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
        return int(lines[0].split(" ", 2)[1]), fields, rest
    except (OSError, asyncio.TimeoutError, ValueError, IndexError):
        return 0, {}, b""


async def clinic_people(port):
    """A doctor and a patient to book with: their ids."""
    _, _, doctor = await call(port, "POST", "/doctors", b'{"name":"Dr A","specialty":"cardiology"}')
    _, _, patient = await call(port, "POST", "/patients", b'{"name":"P A","date_of_birth":"1990-01-01"}')
    return json.loads(doctor)["id"], json.loads(patient)["id"]


def visit_body(doctor, patient, kind):
    """A visit: `huge` names a 1 MB doctor id (900 KB for `kept`), `largest` is the largest the
    model accepts (every text at its maximum in 4-byte characters, padded to the body limit),
    `fields` the same without the padding."""
    if kind in ("huge", "kept"):
        size = 900_000 if kind == "kept" else 1_000_000
        return json.dumps({"doctor_id": "a" * size, "patient_id": patient, "start_time": "2024-05-01T09:30:00Z",
                           "reason": "Checkup"}).encode()
    body = json.dumps({"doctor_id": doctor, "patient_id": patient, "start_time": "2024-05-01T09:30:00Z",
                       "duration_minutes": 480, "reason": "\U0001F600" * 500, "notes": "\U0001F600" * 2000,
                       "padding": ""}, ensure_ascii=False).encode()
    if kind == "fields":
        return body
    return body[:-2] + b"x" * (1024 * 1024 - len(body)) + b'"}'


def clinic_flood_process(port, seconds, clients, kind, replays, results):
    """`clients` clients booking `kind` visits for `seconds`, each with a fresh key sent
    `1 + replays` times; the answers' counts (replays apart) go to `results`."""
    async def run():
        doctor, patient = await clinic_people(port)
        body, statuses, until = visit_body(doctor, patient, kind), {}, time.time() + seconds

        async def client(n):
            i = 0
            while time.time() < until:
                key = f"k-{os.getpid()}-{n}-{i}"
                for attempt in range(1 + replays):
                    status, fields, _ = await call(port, "POST", "/visits", body, [("Idempotency-Key", key)])
                    label = f"{status} replayed" if fields.get("idempotent-replayed") == "true" else str(status)
                    statuses[label] = statuses.get(label, 0) + 1
                    if status == 503 and attempt == 0:
                        break
                i += 1
        await asyncio.gather(*[client(n) for n in range(clients)])
        results.put(statuses)
    asyncio.run(run())


class ClinicFlood(Flood):
    """A clinic attack's flood; once it ends, the server's RSS 10 s later, and what the embedded
    store keeps for idempotency keys."""

    def __init__(self, process, results, server, idle):
        super().__init__(process, results)
        self.server, self.idle = server, idle

    def answers(self):
        answers = super().answers()
        time.sleep(10)
        after = self.server.status("VmRSS")
        kept = "kept records: not read (MongoDB)"
        if not Server.mongodb:
            with sqlite3.connect(f"file:{self.server.db}?mode=ro", uri=True) as db:
                count, total, largest = db.execute(
                    "SELECT count(*), coalesce(sum(length(CAST(body AS BLOB))), 0), "
                    "coalesce(max(length(CAST(body AS BLOB))), 0) "
                    "FROM documents WHERE collection = 'idempotency_keys'").fetchone()
            kept = f"kept records: {count}, {total / 2**20:.1f} MiB, the largest {largest:,} B"
        return (f"{answers}; RSS idle {self.idle / 2**20:.0f} MiB, peak {self.server.status('VmHWM') / 2**20:.0f} MiB, "
                f"10 s after {after / 2**20:.0f} MiB; {kept}")


async def clinic_attack(name, server, seconds):
    """Issue 41's clinic attacks (see the module's usage)."""
    clients, kind, replays = {"kept-huge-ids": (8, "kept", 2), "clinic-huge-ids": (48, "huge", 1),
                              "clinic-largest": (48, "largest", 1)}[name]
    idle = server.status("VmRSS")
    results = multiprocessing.Queue()
    process = multiprocessing.Process(target=clinic_flood_process,
                                      args=(server.port, seconds, clients, kind, replays, results))
    process.start()
    return ClinicFlood(process, results, server, idle)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--attack", action="append")
    parser.add_argument("--seconds", type=float, default=25)
    parser.add_argument("--connections", type=int, default=800, help="slowloris-at-limit's connections")
    parser.add_argument("--mongodb", help="a MongoDB URI: each attack on a fresh database of it")
    args = parser.parse_args()
    Server.mongodb = args.mongodb
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
            server = Server(args.binary, free_port(), data)
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
