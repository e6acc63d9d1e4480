#!/usr/bin/env python3
"""Issue 46's attacks on the TLS listener of a running release binary of the service (item 4),
with `attacks.py`'s figures: a fresh client's answers and latency during each attack (here over
TLS: a new connection, a full handshake and `GET /api/hello` every 100 ms), the server's CPU and
peak RSS, and when the server let go of the attacking connections.

Rules enforced here (beside `attacks.py`'s, whose server, table and crowds this reuses):
- the server's certificate is made for each run with the `openssl` command (EC P-256, for
  `localhost` and 127.0.0.1, one day) in the attack's temporary directory: no key is committed;
- a `ClientHello` is made by Python's `ssl` on memory buffers (`wrap_bio`), so it is the one a
  real client sends (TLS 1.3 and 1.2 offered, ALPN `h2` and `http/1.1`);
- every crowd runs in processes of its own (`attacks.crowd_process`), so the probe's handshakes
  never wait behind the attack's event loop.

Attacks:
- tls-stalled-hello: `--connections` (3,000) connections each sending the first 3 bytes of a TLS
  record and nothing more, reopened as soon as the server closes them (the handshake deadline
  and the connection limit must close them; a fresh client's handshake must still be served);
- tls-stalled-full-hello: `--connections` (1,000: more than the 256 handshakes that may compute
  at once) connections each sending a whole `ClientHello` and never answering the server's
  reply, reopened when closed (each costs the server one computation, then only a connection);
- tls-handshake-flood: 2 processes of 16 clients each completing handshakes back to back (TLS 1.3,
  the certificate verified, closed at once); the handshakes completed a second are reported;
- tls-garbage-records: 2 processes of 16 clients each sending, in turn, an application-data
  record of 16 KiB of random bytes before any handshake, and a whole handshake followed by the
  same record (which cannot decrypt), reopened at once; the connections the server ended are
  reported;
- tls-abandoned: `--connections` (10,000) connections each sending a whole `ClientHello` and
  then abandoned (never read, never closed) until the attack ends. The server starts with
  `--nofile` descriptors (20,000 by default: the 10,000 must reach it).

TLS 1.3's `KeyUpdate` flood cannot be sent from Python's `ssl`; it is a hostile test
(`tests/tests/hostile/tls_key_update.rs`) written with rustls' client.

Usage:
  bench/tls_attacks.py target/release/resource-api [--attack NAME ...] [--seconds 25]
"""

import argparse
import asyncio
import multiprocessing
import os
import resource
import socket
import ssl
import subprocess
import sys
import tempfile
import time

import attacks as plain

ATTACKS = ["tls-stalled-hello", "tls-stalled-full-hello", "tls-handshake-flood", "tls-garbage-records",
           "tls-abandoned"]


def make_certificate(directory):
    """A self-signed certificate and its key for `localhost` and 127.0.0.1: their paths."""
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise SystemExit("tls_attacks.py: the `openssl` command is needed to make the test certificate")
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"tls_attacks.py: openssl could not make the certificate: {e.stderr.decode()}")
    return cert, key


def client_context(cert):
    """A client context trusting only `cert`, offering `http/1.1` (the probe reads HTTP/1.1)."""
    context = ssl.create_default_context(cafile=cert)
    context.set_alpn_protocols(["http/1.1"])
    return context


def client_hello(cert):
    """The bytes of a real `ClientHello` (TLS 1.3 and 1.2, ALPN `h2` and `http/1.1`)."""
    context = ssl.create_default_context(cafile=cert)
    context.set_alpn_protocols(["h2", "http/1.1"])
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


async def tls_request(port, context, timeout=2.0):
    """`GET /api/hello` on a new TLS connection: its status (0: no answer within `timeout`)."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, ssl=context, server_hostname="localhost"), timeout)
        writer.write(b"GET /api/hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        data = await asyncio.wait_for(reader.read(65536), timeout)
        writer.close()
        return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except (OSError, asyncio.TimeoutError, ValueError, IndexError, ssl.SSLError):
        return 0


async def probe(server, context, seconds, results, baseline, released, attack_started):
    """`attacks.probe` over TLS: a fresh client every 100 ms, its status and latency."""
    end = time.time() + seconds
    seen = False
    while time.time() < end:
        sockets = server.sockets()
        seen = seen or sockets > baseline
        if seen and released[0] is None and sockets <= baseline:
            released[0] = time.time() - attack_started
        sent = time.perf_counter()
        status = await tls_request(server.port, context)
        results.append((status, (time.perf_counter() - sent) * 1000))
        await asyncio.sleep(0.1)


# The crowds' tasks, each `(port, stop, counts)` as `attacks.crowd_process` runs them. The
# certificate's path reaches them through the environment (a forked process inherits it).

def hello_bytes():
    return client_hello(os.environ["TLS_ATTACK_CERT"])


async def stalled_hello(port, stop, counts):
    """The first 3 bytes of a record, then nothing; reopened when the server closes it."""
    await held_until_closed(port, stop, counts, b"\x16\x03\x01")


async def stalled_full_hello(port, stop, counts):
    """A whole `ClientHello`, the server's reply never answered; reopened when closed."""
    await held_until_closed(port, stop, counts, hello_bytes())


async def held_until_closed(port, stop, counts, first):
    async for reader, writer in plain.reopened(port, stop, 0.1):
        try:
            writer.write(first)
            while not stop.is_set():
                try:
                    # Read (and drop) what the server sends, until it closes.
                    if await asyncio.wait_for(reader.read(65536), 1.0) == b"":
                        counts["cut"] = counts.get("cut", 0) + 1
                        break
                except asyncio.TimeoutError:
                    continue
        except OSError:
            counts["cut"] = counts.get("cut", 0) + 1
        finally:
            writer.close()


async def handshakes(port, stop, counts):
    """Complete handshakes back to back, each connection closed at once."""
    context = ssl.create_default_context(cafile=os.environ["TLS_ATTACK_CERT"])
    while not stop.is_set():
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, ssl=context, server_hostname="localhost"), 5)
            counts["handshakes"] = counts.get("handshakes", 0) + 1
            writer.close()
        except (OSError, asyncio.TimeoutError, ssl.SSLError):
            counts["failed"] = counts.get("failed", 0) + 1
            await asyncio.sleep(0.05)


def garbage_record():
    """An application-data record of 16 KiB of random bytes."""
    return b"\x17\x03\x03" + (16384).to_bytes(2, "big") + os.urandom(16384)


async def garbage(port, stop, counts):
    """In turn: a garbage record before any handshake, and one after a whole handshake (written
    under the TLS layer, so it cannot decrypt); each connection until the server ends it."""
    context = ssl.create_default_context(cafile=os.environ["TLS_ATTACK_CERT"])
    after_handshake = False
    while not stop.is_set():
        after_handshake = not after_handshake
        try:
            sock = socket.socket()
            sock.setblocking(False)
            loop = asyncio.get_running_loop()
            await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", port)), 5)
            if after_handshake:
                await handshake_in_memory(loop, sock, context)
            await loop.sock_sendall(sock, garbage_record())
            ended = await asyncio.wait_for(drained(loop, sock), 5)
            key = "ended after a handshake" if after_handshake else "ended before one"
            counts[key] = counts.get(key, 0) + ended
        except (OSError, asyncio.TimeoutError, ssl.SSLError):
            counts["failed"] = counts.get("failed", 0) + 1
            await asyncio.sleep(0.05)
        finally:
            sock.close()


async def handshake_in_memory(loop, sock, context):
    """A whole TLS handshake on `sock` through memory buffers, leaving the raw socket usable."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    while True:
        try:
            tls.do_handshake()
            pending = outgoing.read()
            if pending:
                await loop.sock_sendall(sock, pending)
            return
        except ssl.SSLWantReadError:
            pending = outgoing.read()
            if pending:
                await loop.sock_sendall(sock, pending)
            data = await loop.sock_recv(sock, 65536)
            if not data:
                raise OSError("closed in the handshake")
            incoming.write(data)


async def drained(loop, sock):
    """Read until the server closes: True (it ended the connection)."""
    while True:
        try:
            if not await loop.sock_recv(sock, 65536):
                return True
        except ConnectionResetError:
            return True


def abandoned_process(port, count, seconds, results):
    """`count` connections each sending a whole `ClientHello`, then left alone until `seconds`
    passed; how many were opened, and how many the server had closed by then."""
    async def run():
        hello, writers, refused = hello_bytes(), [], 0
        for _ in range(count):
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
                writer.write(hello)
                writers.append((reader, writer))
            except (OSError, asyncio.TimeoutError):
                refused += 1
        opened_at = time.time()
        await asyncio.sleep(max(0.0, seconds - (time.time() - opened_at)))
        closed = 0
        for reader, writer in writers:
            # What the server sent is buffered; its end is seen without waiting.
            try:
                while True:
                    data = await asyncio.wait_for(reader.read(65536), 0.01)
                    if data == b"":
                        closed += 1
                        break
            except (asyncio.TimeoutError, OSError):
                pass
            writer.close()
        results.put({"opened": len(writers), "not opened": refused, "closed by the server": closed})
    asyncio.run(run())


plain.CROWD.update({
    "tls-stalled-hello": stalled_hello,
    "tls-stalled-full-hello": stalled_full_hello,
    "tls-handshakes": handshakes,
    "tls-garbage": garbage,
})


async def attack(name, server, context, seconds, connections):
    """Run `name` beside the probe: the probe's results and the table's other figures."""
    port, crowds = server.port, []
    baseline = server.sockets()
    started = time.time()
    if name in ("tls-stalled-hello", "tls-stalled-full-hello"):
        task = name
        crowds = [plain.Measured(plain.crowd_process, (task, port, connections, seconds + 3),
                                 f"{name}: the attack's connections the server closed (each reopened)")]
    elif name == "tls-handshake-flood":
        crowds = [plain.Measured(plain.crowd_process, ("tls-handshakes", port, 16, seconds + 3),
                                 f"{name}: process {i + 1}'s handshakes (in {seconds + 3:.0f} s)") for i in range(2)]
        connections = 32
    elif name == "tls-garbage-records":
        crowds = [plain.Measured(plain.crowd_process, ("tls-garbage", port, 16, seconds + 3),
                                 f"{name}: process {i + 1}'s connections") for i in range(2)]
        connections = 32
    elif name == "tls-abandoned":
        crowds = [plain.Measured(abandoned_process, (port, connections, seconds + 3),
                                 f"{name}: the abandoned handshakes")]
    else:
        raise SystemExit(f"tls_attacks.py: no attack {name}")
    await asyncio.sleep(3)
    results, released = [], [None]
    cpu_before, wall = server.cpu_seconds(), time.time()
    await probe(server, context, seconds, results, baseline, released, started)
    cpu = (server.cpu_seconds() - cpu_before) / (time.time() - wall)
    open_at_end = max(0, server.sockets() - baseline)
    for crowd in crowds:
        await asyncio.get_running_loop().run_in_executor(None, crowd.result)
        crowd.report()
    within = sum(1 for status, ms in results if status == 200 and ms <= 1000)
    print(f"    {name}: fresh TLS clients answered 200 within 1 s: {within}/{len(results)}", file=sys.stderr)
    return results, cpu, connections, released[0], open_at_end


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--attack", action="append", choices=ATTACKS)
    parser.add_argument("--seconds", type=float, default=25)
    parser.add_argument("--connections", type=int, help="the attack's connections (tls-stalled-hello 3,000, "
                        "tls-stalled-full-hello 1,000, tls-abandoned 10,000)")
    parser.add_argument("--nofile", type=int, help="the server's descriptor limit (tls-abandoned: 20,000; "
                        "else this process's)")
    args = parser.parse_args()
    limits = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits[1], limits[1]))
    except (ValueError, OSError):
        pass
    print("| attack | attacking connections | fresh TLS clients during the attack | median / worst latency | server CPU | server RSS peak / end | the server's attacking connections |")
    print("|---|---|---|---|---|---|---|")
    for name in args.attack or ATTACKS:
        nofile = args.nofile or {"tls-abandoned": 20_000}.get(name)
        plain.Server.limits = (min(nofile, limits[1]),) * 2 if nofile else limits
        connections = args.connections or {"tls-stalled-hello": 3000, "tls-stalled-full-hello": 1000,
                                           "tls-abandoned": 10_000}.get(name, 32)
        with tempfile.TemporaryDirectory() as data:
            cert, key = make_certificate(data)
            os.environ["TLS_ATTACK_CERT"] = cert
            server = plain.Server(args.binary, plain.free_port(), data, ("--tls-cert", cert, "--tls-key", key))
            try:
                results, cpu, held, released, open_at_end = asyncio.run(
                    attack(name, server, client_context(cert), args.seconds, connections))
                peak, rss = server.status("VmHWM"), server.status("VmRSS")
            finally:
                log = server.stop()
            print(plain.summary(name, results, cpu, peak, rss, held, released, open_at_end, args.seconds), flush=True)
            for line in [line for line in log.splitlines() if "reason=" in line or "TLS" in line][:3]:
                print(f"    log: {line[:200]}", file=sys.stderr)


if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    main()
