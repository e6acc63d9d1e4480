#!/usr/bin/env python3
"""Issue 46, item 2's figure: certificates rotated under load lose no request.

A release binary of the service serves TLS from a certificate and key in a temporary directory,
laid out as Kubernetes mounts a secret (`cert.pem` and `key.pem` are symbolic links through
`..data`, itself a link to a dated directory). While two wrk processes load it over HTTPS (one
with kept-alive connections, one opening a connection, so a handshake, per request), the pair is
replaced every `--every` seconds, in turn:
- `k8s`: a new dated directory, then `..data` swapped by one rename (Kubernetes' atomic update);
- `files`: the certificate file rewritten, then the key file a moment later (a pair half-written
  for that moment: the reload's debounce must not take it);
- `sighup`: as `k8s`, then `kill -HUP` at once.
A probe connects every 200 ms and records which certificate the server presented, so the figure
also says that the rotations took effect.

Rules enforced here: only 127.0.0.1; the certificates are made by the `openssl` command for the
run (none committed); every process is stopped at the end, also on failure.

Usage:
  bench/tls_rotation.py target/release/resource-api [--seconds 20] [--every 1.0]
Prints one table row: requests, non-2xx answers, socket errors, rotations, certificates seen.
"""

import argparse
import hashlib
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time


def make_pair(directory):
    """A self-signed EC P-256 certificate for localhost and 127.0.0.1, and its key, in `directory`."""
    os.makedirs(directory, exist_ok=True)
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


def fingerprint(port):
    """The SHA-256 of the certificate the server presents now (None: no handshake)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
            with context.wrap_socket(raw, server_hostname="localhost") as tls:
                return hashlib.sha256(tls.getpeercert(binary_form=True)).hexdigest()
    except (OSError, ssl.SSLError):
        return None


def wrk(port, seconds, connections, close):
    cmd = ["wrk", "-t1", f"-c{connections}", f"-d{int(seconds)}s", "--timeout", "5s"]
    if close:
        cmd += ["-H", "Connection: close"]
    cmd.append(f"https://127.0.0.1:{port}/item/42")
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)


def parse(out):
    found = re.search(r"(\d+) requests in", out)
    if found is None:
        raise SystemExit(f"tls_rotation.py: wrk's output has no request count:\n{out}")
    requests = int(found.group(1))
    non2xx = int((re.search(r"Non-2xx or 3xx responses: (\d+)", out) or [0, 0])[1])
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    socket_errors = sum(int(n) for n in errors.groups()) if errors else 0
    return requests, non2xx, socket_errors, (errors.group(0) if errors else "no socket errors")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between rotations")
    args = parser.parse_args()
    for tool in ("openssl", "wrk"):
        if shutil.which(tool) is None:
            raise SystemExit(f"tls_rotation.py: the `{tool}` command is needed")
    with tempfile.TemporaryDirectory() as root:
        mount = os.path.join(root, "secret")
        os.makedirs(mount)
        pairs = [make_pair(os.path.join(mount, f"..pair{n}")) for n in range(int(args.seconds / args.every) + 2)]
        os.symlink("..pair0", os.path.join(mount, "..data"))
        for name in ("cert.pem", "key.pem"):
            os.symlink(os.path.join("..data", name), os.path.join(mount, name))
        port = free_port()
        env = dict(os.environ, RUST_LOG="info", DB_CONN_STRING=os.path.join(root, "birds.db"),
                   TLS_CERT=os.path.join(mount, "cert.pem"), TLS_KEY=os.path.join(mount, "key.pem"))
        log = open(os.path.join(root, "server.log"), "w+")
        server = subprocess.Popen([args.binary, "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT)
        loads, seen, stop = [], [], threading.Event()
        try:
            deadline = time.time() + 60
            while fingerprint(port) is None:
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit("tls_rotation.py: the server did not start (see its log)")
                time.sleep(0.1)

            def probe():
                while not stop.is_set():
                    seen.append(fingerprint(port))
                    time.sleep(0.2)
            prober = threading.Thread(target=probe)
            prober.start()
            loads = [wrk(port, args.seconds, 32, close=False), wrk(port, args.seconds, 8, close=True)]
            rotations, modes, started = 0, ["k8s", "files", "sighup"], time.time()
            while time.time() - started < args.seconds - args.every:
                time.sleep(args.every)
                rotations += 1
                mode = modes[rotations % len(modes)]
                target = f"..pair{rotations}"
                if mode == "files":
                    # In place, one file then the other: the data directory's own files rewritten.
                    current = os.path.join(mount, os.readlink(os.path.join(mount, "..data")))
                    new_cert, new_key = pairs[rotations]
                    shutil.copyfile(new_cert, os.path.join(current, "cert.pem"))
                    time.sleep(0.3)
                    shutil.copyfile(new_key, os.path.join(current, "key.pem"))
                else:
                    link = os.path.join(mount, "..data_tmp")
                    os.symlink(target, link)
                    os.rename(link, os.path.join(mount, "..data"))
                    if mode == "sighup":
                        server.send_signal(signal.SIGHUP)
            outputs = [load.communicate(timeout=args.seconds + 60)[0] for load in loads]
            stop.set()
            prober.join(timeout=10)
            time.sleep(2.5)
            final = fingerprint(port)
        finally:
            stop.set()
            for load in loads:
                if load.poll() is None:
                    load.kill()
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        log.seek(0)
        lines = log.read().splitlines()
        reloaded = sum(1 for line in lines if "TLS certificate reloaded" in line)
        refused = [line for line in lines if "not reloaded" in line]
        kept = parse(outputs[0])
        fresh = parse(outputs[1])
        distinct = len({f for f in seen if f})
        failed_probes = sum(1 for f in seen if f is None)
        print("| load | requests | non-2xx | socket errors |")
        print("|---|---:|---:|---:|")
        print(f"| kept-alive (32 connections) | {kept[0]:,} | {kept[1]} | {kept[2]} ({kept[3]}) |")
        print(f"| a handshake per request (8 connections) | {fresh[0]:,} | {fresh[1]} | {fresh[2]} ({fresh[3]}) |")
        print()
        print(f"rotations: {rotations} in {args.seconds:.0f} s; reloads logged: {reloaded}; refused: {len(refused)}; "
              f"certificates the probe saw: {distinct} ({len(seen)} probes, {failed_probes} without a handshake); "
              f"the last pair in force at the end: {final == pair_fingerprint(pairs[rotations][0])}")
        for line in refused[:3]:
            print(f"    refused: {line[:200]}", file=sys.stderr)


def pair_fingerprint(cert_path):
    with open(cert_path) as f:
        der = ssl.PEM_cert_to_DER_cert(f.read())
    return hashlib.sha256(der).hexdigest()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    main()
