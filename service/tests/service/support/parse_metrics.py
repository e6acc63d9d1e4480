#!/usr/bin/env python3
"""Parse Prometheus text exposition from stdin with prometheus_client's own parser (the one
Prometheus' Python ecosystem trusts) and print each sample as a JSON line:
{"family": ..., "type": ..., "name": ..., "labels": {...}, "value": ...}.

Rules enforced here: a document the parser refuses is an error (exit 1, the parser's message on
stderr), never a partial answer; nothing is read but stdin.
"""

import json
import sys

from prometheus_client.parser import text_string_to_metric_families


def main():
    text = sys.stdin.read()
    try:
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                print(json.dumps({
                    "family": family.name,
                    "type": family.type,
                    "name": sample.name,
                    "labels": sample.labels,
                    "value": sample.value,
                }))
    except Exception as err:  # the parser raises ValueError and others on a bad document
        print(f"parse_metrics.py: {err!r}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
