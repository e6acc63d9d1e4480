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
leaves; not in the default list), log-amplification and log-amplification-json (issue 41's
attack 6: the server with its access lines on, text or JSON, its log in a file; first 20 requests
of each hostile kind one at a time, for the log bytes each makes, then 8 clients sending them for
the attack's length: the log's bytes a second and a request; not in the default list).

Issue 41's fair-share attacks (not in the default list; each measures the legitimate clients it
names while it runs, and prints their figures under the table):
- held-bodies: `--connections` (80 by default: more than the 64 MiB budget holds) connections
  each declaring a 1 MiB body on `POST /item`, sending all but its last 100 bytes, and holding it
  until the server answers or closes, then again; beside them, every 50 ms, a small `POST /item`,
  a 1 KiB bird `POST` and a bird read, each on a new connection (2xx within 1 s counted), and a
  1 MiB bird uploaded at 256 KiB/s (tried again when refused room, as `Retry-After` says);
- h2-held-bodies: the same with one HTTP/2 connection of 100 such streams (flow control obeyed),
  a stream answered or reset opened again;
- idle-churn: `--connections` (400) connections that send nothing, reopened as soon as the server
  closes them, against a server started with `--nofile` descriptors (256: 192 places); beside them
  one pooled client doing back-to-back `POST /item` on one connection: requests written that never
  got a status line, and reconnections;
- trickle-bodies: `--connections` (800) connections each declaring a 100-byte body and sending a
  byte of it every 2 s, reopened when cut, against `--nofile 1024` (768 places); the probe's fresh
  clients answered within 1 s.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import shlex
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

    def __init__(self, binary, port, data, extra_args=()):
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
        self.proc = subprocess.Popen([binary, "--port", str(port), *extra_args], env=env, preexec_fn=restore,
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


async def reopened(port, stop, pause):
    """A connection each time the caller is done with the last, until `stop` is set; a refused or
    timed-out connect is retried after `pause` seconds."""
    while not stop.is_set():
        try:
            yield await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
        except (OSError, asyncio.TimeoutError):
            await asyncio.sleep(pause)


async def trickle_head(port, stop, counts):
    """A request head sent one byte a second and never finished, on a connection reopened as soon
    as the server closes it (counted in `counts["cut"]`), until `stop` is set."""
    head = b"GET /api/hello HTTP/1.1\r\nHost: t\r\nX-Slow: "
    async for reader, writer in reopened(port, stop, 0.1):
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
            counts["cut"] = counts.get("cut", 0) + (not stop.is_set())
        except OSError:
            counts["cut"] = counts.get("cut", 0) + 1
        finally:
            writer.close()


def crowd_process(task, port, count, seconds, results):
    """`count` of the attack's task named `task` (`CROWD`: each `(port, stop, counts)`) for
    `seconds`, in a process of their own: the probe's event loop must not wait behind thousands of
    reconnections (in one loop the probe's worst latency was the loop's, ~2 s, where curl from
    outside saw 23 ms); what they counted goes to `results`."""
    async def run():
        stop, counts = asyncio.Event(), {}
        tasks = [asyncio.create_task(CROWD[task](port, stop, counts)) for _ in range(count)]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        results.put(counts)
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


LENGTH = 1024 * 1024


def raw_post(path, body, close=True):
    head = (f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{'Connection: close' + chr(13) + chr(10) if close else ''}\r\n")
    return head.encode() + body


async def until_answered_or(reader, stop):
    """Read until the server answers or closes (b"" then), or `stop` is set (None)."""
    while not stop.is_set():
        try:
            return await asyncio.wait_for(reader.read(4096), 0.2)
        except asyncio.TimeoutError:
            continue
    return None


async def hold_body(port, stop, counts):
    """A 1 MiB body on `POST /item`, all but its last 100 bytes sent, held until the server answers
    or closes; then again, until `stop`."""
    head = (f"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            f"Content-Length: {LENGTH}\r\n\r\n").encode()
    body = b"[" + b" " * (LENGTH - 101)
    async for reader, writer in reopened(port, stop, 0.05):
        try:
            writer.write(head + body)
            answer = await until_answered_or(reader, stop)
            if answer is not None:
                counts["answered"] = counts.get("answered", 0) + 1
                key = answer[:12].decode(errors="replace") or "closed"
                counts[key] = counts.get(key, 0) + 1
        except OSError:
            counts["cut"] = counts.get("cut", 0) + 1
        finally:
            writer.close()


async def h2_hold(port, stop, counts):
    """One HTTP/2 connection with 100 streams, each declaring a 1 MiB body on `POST /item` and
    sending all but its last 100 bytes within the server's flow-control windows, held; a stream
    answered or reset is opened again, until `stop`."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
    except (OSError, asyncio.TimeoutError):
        return
    writer.write(PREFACE + settings())
    windows = {"conn": 65535, "initial": 65535}
    streams = {}  # id -> [bytes sent, stream window]
    changed = asyncio.Event()
    next_id = [1]

    def open_stream():
        sid = next_id[0]
        next_id[0] += 2
        block = literal(":method", "POST") + literal(":scheme", "http") + literal(":path", "/item") + \
            literal(":authority", "127.0.0.1") + literal("content-type", "application/json") + \
            literal("content-length", str(LENGTH))
        writer.write(frame(1, 0x4, sid, block))
        streams[sid] = [0, windows["initial"]]

    async def read_frames():
        buffered = b""
        while not stop.is_set():
            try:
                data = await asyncio.wait_for(reader.read(65536), 0.2)
            except asyncio.TimeoutError:
                continue
            if not data:
                stop.set()
                return
            buffered += data
            while len(buffered) >= 9:
                length = int.from_bytes(buffered[:3], "big")
                if len(buffered) < 9 + length:
                    break
                kind, flags = buffered[3], buffered[4]
                sid = int.from_bytes(buffered[5:9], "big") & 0x7FFFFFFF
                payload = buffered[9:9 + length]
                buffered = buffered[9 + length:]
                if kind == 4 and not flags & 1:  # SETTINGS
                    for i in range(0, len(payload), 6):
                        key, value = struct.unpack(">HI", payload[i:i + 6])
                        if key == 4:
                            delta = value - windows["initial"]
                            windows["initial"] = value
                            for state in streams.values():
                                state[1] += delta
                    writer.write(frame(4, 1, 0))
                elif kind == 8:  # WINDOW_UPDATE
                    increment = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
                    if sid == 0:
                        windows["conn"] += increment
                    elif sid in streams:
                        streams[sid][1] += increment
                elif kind in (1, 3) and sid in streams:  # the answer's HEADERS, or RST_STREAM
                    counts["answered" if kind == 1 else "reset"] = counts.get("answered" if kind == 1 else "reset", 0) + 1
                    del streams[sid]
                    if not stop.is_set():
                        open_stream()
                elif kind == 7:  # GOAWAY
                    counts["goaway"] = counts.get("goaway", 0) + 1
                    stop.set()
                changed.set()

    for _ in range(100):
        open_stream()
    reading = asyncio.create_task(read_frames())
    try:
        while not stop.is_set():
            sent_any = False
            for sid, state in list(streams.items()):
                room = min(LENGTH - 100 - state[0], state[1], windows["conn"], 16384)
                if room > 0:
                    writer.write(frame(0, 0, sid, b" " * room))
                    state[0] += room
                    state[1] -= room
                    windows["conn"] -= room
                    sent_any = True
            await writer.drain()
            if not sent_any:
                changed.clear()
                try:
                    await asyncio.wait_for(changed.wait(), 0.2)
                except asyncio.TimeoutError:
                    pass
    except OSError:
        counts["cut"] = counts.get("cut", 0) + 1
    finally:
        reading.cancel()
        writer.close()




async def timed(port, raw, within=1.0):
    """A request on a new connection: True when answered 2xx within `within` seconds."""
    sent = time.perf_counter()
    status = await exchange(port, raw, timeout=within)
    return 200 <= status < 300 and time.perf_counter() - sent <= within


async def steady_upload(port, until):
    """A 1 MiB bird sent at 256 KiB/s (16 KiB every 62.5 ms), tried again after a 503 that refused
    it room, as `Retry-After` says: its outcome, attempts and whether it was ever reset."""
    body = b'{"name":"upload","blob":"' + b"x" * (LENGTH - 40) + b'"}'
    head = (f"POST /api/bird/ HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    attempts, reset = 0, False
    while time.time() < until:
        attempts += 1
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
            writer.write(head)
            for i in range(0, len(body), 16384):
                writer.write(body[i:i + 16384])
                await writer.drain()
                await asyncio.sleep(0.0625)
            answer = await asyncio.wait_for(reader.read(), 10)
            writer.close()
        except (OSError, asyncio.TimeoutError):
            answer = b""
        if answer.startswith(b"HTTP/1.1 2"):
            return f"200 after {attempts} attempt(s){', reset once' if reset else ''}"
        reset = reset or b"stopped arriving" in answer
        await asyncio.sleep(1)
    return f"not completed in {attempts} attempt(s){', reset' if reset else ''}"


async def legitimate(port, seconds):
    """Every 50 ms: a small `POST /item`, a 1 KiB bird `POST` and a bird read, each on a new
    connection; and a steady 1 MiB upload. The shares answered 2xx within 1 s."""
    until = time.time() + seconds
    item = raw_post("/item", b'{"name":"pen","price":1.5}')
    bird = raw_post("/api/bird/", b'{"name":"legit","blob":"' + b"x" * 1000 + b'"}')
    read = b"GET /api/bird/legit HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    shares = {"small POST /item": [0, 0], "1 KiB bird POST": [0, 0], "bird read": [0, 0]}
    upload = asyncio.create_task(steady_upload(port, until))
    while time.time() < until:
        served = await asyncio.gather(timed(port, item), timed(port, bird), timed(port, read))
        for share, ok in zip(shares.values(), served):
            share[0] += ok
            share[1] += 1
        await asyncio.sleep(0.05)
    return shares, await upload


def legitimate_process(port, seconds, results):
    results.put(asyncio.run(legitimate(port, seconds)))


async def churn_idle(port, stop, counts):
    """A connection that sends nothing, reopened as soon as the server closes it, until `stop`."""
    async for reader, writer in reopened(port, stop, 0.05):
        if await until_answered_or(reader, stop) is not None:
            counts["closed"] = counts.get("closed", 0) + 1
        writer.close()




async def read_response(reader):
    """One response on a kept-alive connection: its status, or 0 when the connection ended first."""
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        await asyncio.wait_for(reader.readexactly(length), 5)
        return int(head.split(b" ", 2)[1])
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError):
        return 0


async def pooled(port, seconds):
    """One kept-alive connection doing back-to-back `POST /item`: requests sent, requests written
    that never got a status line, reconnections."""
    until = time.time() + seconds
    raw = raw_post("/item", b'{"name":"pen","price":1.5}', close=False)
    sent = lost = reopened = 0
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    while time.time() < until:
        try:
            writer.write(raw)
            await writer.drain()
        except OSError:
            reopened += 1
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            continue
        sent += 1
        if await read_response(reader) == 0:
            lost += 1
            reopened += 1
            writer.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.close()
    return sent, lost, reopened


def pooled_process(port, seconds, results):
    results.put(asyncio.run(pooled(port, seconds)))


async def trickle_body(port, stop, counts):
    """A request declaring a 100-byte body, a byte of it every 2 s, reopened when cut."""
    head = b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n["
    async for reader, writer in reopened(port, stop, 0.1):
        try:
            writer.write(head)
            while not stop.is_set():
                try:
                    if await asyncio.wait_for(reader.read(1), 2.0) is not None:
                        break
                except asyncio.TimeoutError:
                    writer.write(b" ")
            counts["cut"] = counts.get("cut", 0) + (not stop.is_set())
        except OSError:
            counts["cut"] = counts.get("cut", 0) + 1
        finally:
            writer.close()


# The tasks `crowd_process` runs, by name (a process is handed a name, not a function).
CROWD = {
    "trickle-head": trickle_head,
    "trickle-body": trickle_body,
    "hold-body": hold_body,
    "h2-hold": h2_hold,
    "churn-idle": churn_idle,
}


class Measured:
    """A process measuring legitimate clients (or running the attack), reported at the end."""

    def __init__(self, target, args, label):
        self.results = multiprocessing.Queue()
        self.process = multiprocessing.Process(target=target, args=(*args, self.results))
        self.process.start()
        self.label = label

    def result(self):
        """What the process reported (`None`: it died first); waits for it once."""
        if not hasattr(self, "value"):
            try:
                self.value = self.results.get(timeout=90)
            except Exception:  # noqa: BLE001 - a process that died reports nothing
                self.value = None
            self.process.join(timeout=10)
        return self.value

    def report(self):
        print(f"    {self.label}: {self.result()}", file=sys.stderr)

    def close(self):
        pass


async def attack(name, server, seconds, connections=800):
    port = server.port
    held, tricklers, crowd = [], [], None
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
    elif name in ("held-bodies", "h2-held-bodies"):
        # A bird to read back, then the holders, then (once they hold) the legitimate clients.
        await exchange(port, raw_post("/api/bird/", b'{"name":"legit","blob":"' + b"x" * 1000 + b'"}'))
        task, count = ("h2-hold", 1) if name == "h2-held-bodies" else ("hold-body", connections)
        crowd = count
        held = [Measured(crowd_process, (task, port, count, seconds + 3), f"{name}: the attack's answers")]
        await asyncio.sleep(3)
        held.append(Measured(legitimate_process, (port, seconds), f"{name}: legitimate clients 2xx within 1 s, and the steady upload"))
    elif name == "idle-churn":
        crowd = connections
        held = [Measured(crowd_process, ("churn-idle", port, connections, seconds + 2),
                         f"{name}: idle connections closed by the server")]
        await asyncio.sleep(2)
        held.append(Measured(pooled_process, (port, seconds), f"{name}: pooled client (requests, written but never answered, reconnections)"))
    elif name == "trickle-bodies":
        tricklers = [Measured(crowd_process, ("trickle-body", port, connections, seconds + 3), name)]
        await asyncio.sleep(3)
    elif name in LOG_ATTACKS:
        held = [await log_amplification(server, seconds)]
    elif name == "slowloris-at-limit":
        tricklers = [Measured(crowd_process, ("trickle-head", port, connections, seconds + 3), name)]
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
        if isinstance(writer, Measured):
            writer.report()
    if tricklers:
        counts = await asyncio.get_running_loop().run_in_executor(None, tricklers[0].result) or {}
        # The attack's connections are retaken when cut: report the cuts instead.
        print(f"    {name}: {counts.get('cut', 0)} trickling connections closed by the server and reopened",
              file=sys.stderr)
        within = sum(1 for status, ms in results if status == 200 and ms <= 1000)
        print(f"    {name}: fresh clients answered 200 within 1 s: {within}/{len(results)}", file=sys.stderr)
        return results, cpu, connections, None, open_at_end
    # A crowd's processes are not its connections: report the connections it keeps open.
    return results, cpu, crowd or len(held), released[0], open_at_end


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
    parser.add_argument("--connections", type=int, help="the attack's connections (slowloris-at-limit and "
                        "trickle-bodies 800, held-bodies 80, idle-churn 400)")
    parser.add_argument("--nofile", type=int, help="the server's descriptor limit (idle-churn: 256, "
                        "trickle-bodies: 1024; else this process's)")
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
    limits = Server.limits
    for name in names:
        nofile = args.nofile or {"idle-churn": 256, "trickle-bodies": 1024}.get(name)
        Server.limits = (nofile, nofile) if nofile else limits
        connections = args.connections or {"held-bodies": 80, "idle-churn": 400}.get(name, 800)
        with tempfile.TemporaryDirectory() as data:
            binary, log = logged_server(args.binary, data, LOG_ATTACKS[name]) if name in LOG_ATTACKS else (args.binary, None)
            server = Server(binary, free_port(), data)
            server.log_path = log
            try:
                results, cpu, held, released, open_at_end = asyncio.run(
                    attack(name, server, args.seconds, connections))
                peak, rss = server.status("VmHWM"), server.status("VmRSS")
            finally:
                log = server.stop()
            print(summary(name, results, cpu, peak, rss, held, released, open_at_end, args.seconds), flush=True)
            warnings = [line for line in log.splitlines() if "reason=" in line]
            for line in warnings[:3]:
                print(f"    log: {line[:200]}", file=sys.stderr)


if __name__ == "__main__":
    main()
