#!/usr/bin/env python3
"""An OTLP/HTTP receiver that takes what it is sent and counts it, nothing more: the peer a
--otel run of bench/run.py exports its spans to (issue 45's cost row). It runs in a process of
its own, so decoding and storing spans is nobody's cost; every peer exports to its own sink.

Usage: otlp_sink.py PORT STATS_FILE — answers every POST with 200 and an empty
`application/x-protobuf` body (an empty Export*ServiceResponse: everything accepted), and keeps
STATS_FILE a JSON object of the requests and bytes received per path.
"""

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: exporters reuse their connection
    stats = {}
    lock = threading.Lock()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        received = len(self.rfile.read(length)) if length else 0
        with Sink.lock:
            entry = Sink.stats.setdefault(self.path, {"requests": 0, "bytes": 0})
            entry["requests"] += 1
            entry["bytes"] += received
            tmp = STATS_FILE + ".tmp"
            with open(tmp, "w") as f:
                json.dump(Sink.stats, f)
            os.replace(tmp, STATS_FILE)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    STATS_FILE = sys.argv[2]
    with open(STATS_FILE, "w") as f:
        json.dump({}, f)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
