"""The runner the generated-client checks share: `@check` registers a function, `run(label)` calls
each, prints `LABEL: ok NAME` or `LABEL: FAIL NAME` with the traceback, then
`LABEL: N passed, N failed`, and exits 1 if any failed. Every check runs, whatever failed before.
"""

import sys
import traceback

CHECKS = []


def check(fn):
    """Register `fn` as a check (in the order written)."""
    CHECKS.append(fn)
    return fn


def run(label):
    """Run every registered check and exit with the result."""
    passed = failed = 0
    for fn in CHECKS:
        try:
            fn()
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            failed += 1
            print(f"{label}: FAIL {fn.__name__}")
            traceback.print_exc()
        else:
            passed += 1
            print(f"{label}: ok {fn.__name__}")
    print(f"{label}: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
