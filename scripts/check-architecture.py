#!/usr/bin/env python3
"""Fails when ARCHITECTURE.md no longer describes the code: its layer table differs from the
order in scripts/layers.toml, names a module runtime/src does not have, or a path it writes does
not exist.

Usage: scripts/check-architecture.py [--root DIR]   (DIR: the repository, default this script's)

Rules enforced here:
- the rows between `<!-- layers -->` and `<!-- /layers -->` are the layers of
  `["runtime/src"]` in scripts/layers.toml, top down: each row's first cell names (in backticks)
  exactly the modules of that line, in any order within the row, and no row is missing or extra;
- every module a row names exists in runtime/src (`name.rs` or `name/`), and every top-level
  module of runtime/src but `lib` is in the table (the layer check fails on one that is not in
  layers.toml anyway; here it is the page that must say so);
- every backticked token that is a path (it contains a `/` and names a file with an extension,
  or ends with `/`) exists, relative to the repository root;
- the page has a request flow between `<!-- flow -->` and `<!-- /flow -->`, and it names at
  least one file.
"""
import argparse
import os
import re
import sys
import tomllib

LAYERS_KEY = "runtime/src"


def block(text, name):
    match = re.search(rf"<!-- {name} -->\n(.*?)<!-- /{name} -->", text, re.S)
    return match.group(1) if match else None


def table_layers(rows_text):
    layers = []
    for line in rows_text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        first = line.strip("|").split("|")[0].strip()
        if first == "Layer" or set(first) <= set("-: "):
            continue
        layers.append(sorted(re.findall(r"`([^`]+)`", first)))
    return layers


def paths_in(text):
    found = []
    for token in re.findall(r"`([^`\s]+)`", text):
        if "/" not in token or "://" in token:
            continue
        if token.endswith("/") or re.search(r"\.[A-Za-z0-9]+$", token.rsplit("/", 1)[-1]):
            found.append(token)
    return found


def check(root):
    problems = []
    page_path = os.path.join(root, "ARCHITECTURE.md")
    try:
        with open(page_path, encoding="utf-8") as f:
            page = f.read()
    except OSError as err:
        return [f"ARCHITECTURE.md cannot be read: {err}"]
    with open(os.path.join(root, "scripts", "layers.toml"), "rb") as f:
        declared = tomllib.load(f)[LAYERS_KEY]["layers"]
    declared = [sorted([line] if isinstance(line, str) else line) for line in declared]

    rows = block(page, "layers")
    if rows is None:
        problems.append("ARCHITECTURE.md has no <!-- layers --> ... <!-- /layers --> table")
    else:
        written = table_layers(rows)
        if written != declared:
            problems.append(
                "ARCHITECTURE.md's layer table is not scripts/layers.toml's order:\n"
                f"  the page:        {written}\n  layers.toml:     {declared}"
            )
        src = os.path.join(root, LAYERS_KEY)
        named = {name for row in written for name in row}
        for name in sorted(named):
            if not (os.path.isfile(os.path.join(src, name + ".rs")) or os.path.isdir(os.path.join(src, name))):
                problems.append(f"ARCHITECTURE.md names a module runtime/src does not have: {name}")
        if os.path.isdir(src):
            present = {e[:-3] if e.endswith(".rs") else e for e in os.listdir(src)} - {"lib"}
            for name in sorted(present - named):
                problems.append(f"runtime/src/{name} is not in ARCHITECTURE.md's layer table")

    flow = block(page, "flow")
    if flow is None or not paths_in(flow):
        problems.append("ARCHITECTURE.md has no request flow naming its files (<!-- flow --> ... <!-- /flow -->)")

    for path in paths_in(page):
        if not os.path.exists(os.path.join(root, path)):
            problems.append(f"ARCHITECTURE.md names a path that does not exist: {path}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()
    problems = check(args.root)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print("ARCHITECTURE.md matches the code (layers, modules, paths)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
