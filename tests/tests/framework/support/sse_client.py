"""An EventSource in Python: httpx with httpx-sse's parser, against the SSE route `/feed`.

Usage: python sse_client.py BASE_URL

It reads the stream until the server ends it, waits the `retry` the server asked for, reconnects
with `Last-Event-ID` (as a browser's EventSource does), and after event 6 of the second stream
leaves while the server's producer is still running. Then it prints one JSON line (the events of
each connection, with their status and content type) and stays alive for 3 s, so that what the
server sees is the client closing the response, not the process ending.
"""

import json
import sys
import time

import httpx
from httpx_sse import connect_sse


def main() -> None:
    base = sys.argv[1]
    connections = []
    last_id = None
    retry_ms = None
    with httpx.Client(base_url=base, timeout=10.0) as client:
        for attempt in range(2):
            headers = {"Cache-Control": "no-cache"}
            if last_id is not None:
                headers["Last-Event-ID"] = last_id
            events = []
            with connect_sse(client, "GET", "/feed", headers=headers) as source:
                response = source.response
                for sse in source.iter_sse():
                    events.append(
                        {"event": sse.event, "data": sse.data, "id": sse.id, "retry": sse.retry}
                    )
                    if sse.id:
                        last_id = sse.id
                    if sse.retry is not None:
                        retry_ms = sse.retry
                    if attempt == 1 and sse.id == "6":
                        break
                connections.append(
                    {
                        "status": response.status_code,
                        "content_type": response.headers.get("content-type"),
                        "events": events,
                    }
                )
            # Leaving the block closed the response: on the second stream, before its end.
            if attempt == 0:
                time.sleep((retry_ms if retry_ms is not None else 3000) / 1000)
        print(json.dumps({"connections": connections}), flush=True)
        time.sleep(3)


if __name__ == "__main__":
    main()
