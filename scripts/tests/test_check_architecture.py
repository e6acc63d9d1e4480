"""Tests of scripts/check-architecture.py on small repositories written to a temporary directory.

Rules enforced here: each test runs the script as CI does (a subprocess, its exit status and
output) on a repository made for the one rule it tests, so a checker that stops comparing the
page with the code fails a test by name.
"""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "check-architecture.py")

LAYERS_TOML = """["runtime/src"]
layers = [
  ["server", "testing"],
  "dispatch",
  "budget",
]
"""

TABLE = """<!-- layers -->
| Layer | Holds | Imports from |
|---|---|---|
| `server`, `testing` | driving an app | below |
| `dispatch` | one request | below |
| `budget` | memory | nothing |
<!-- /layers -->
"""

FLOW = """<!-- flow -->
accept (`runtime/src/server/mod.rs`) → dispatch (`runtime/src/dispatch.rs`)
<!-- /flow -->
"""


class CheckArchitecture(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.root = self.tmp.name
        for path in ["runtime/src/lib.rs", "runtime/src/server/mod.rs", "runtime/src/testing.rs",
                     "runtime/src/dispatch.rs", "runtime/src/budget.rs"]:
            self.write(path, "")
        self.write("scripts/layers.toml", LAYERS_TOML)

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def run_check(self, page):
        self.write("ARCHITECTURE.md", page)
        return subprocess.run([sys.executable, SCRIPT, "--root", self.root], capture_output=True, text=True)

    def test_a_page_that_matches_passes(self):
        result = self.run_check("# A\n" + TABLE + FLOW)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_rows_out_of_order_fail(self):
        swapped = TABLE.replace("| `dispatch` | one request | below |\n| `budget` | memory | nothing |",
                                "| `budget` | memory | nothing |\n| `dispatch` | one request | below |")
        result = self.run_check(swapped + FLOW)
        self.assertEqual(result.returncode, 1)
        self.assertIn("not scripts/layers.toml's order", result.stderr)

    def test_a_module_missing_from_the_table_fails(self):
        self.write("runtime/src/extra.rs", "")
        result = self.run_check(TABLE + FLOW)
        self.assertEqual(result.returncode, 1)
        self.assertIn("runtime/src/extra is not in ARCHITECTURE.md's layer table", result.stderr)

    def test_a_module_that_does_not_exist_fails(self):
        os.remove(os.path.join(self.root, "runtime/src/budget.rs"))
        result = self.run_check(TABLE + FLOW)
        self.assertEqual(result.returncode, 1)
        self.assertIn("names a module runtime/src does not have: budget", result.stderr)

    def test_a_path_that_does_not_exist_fails(self):
        result = self.run_check(TABLE + FLOW + "See `runtime/src/gone.rs`.\n")
        self.assertEqual(result.returncode, 1)
        self.assertIn("a path that does not exist: runtime/src/gone.rs", result.stderr)

    def test_a_page_without_a_flow_fails(self):
        result = self.run_check(TABLE)
        self.assertEqual(result.returncode, 1)
        self.assertIn("no request flow", result.stderr)


if __name__ == "__main__":
    unittest.main()
