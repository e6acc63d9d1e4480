#!/usr/bin/env python3
"""Fails when modules of a crate import each other in a circle (DESIGN.md: one layer per folder,
dependencies pointing one way).

Usage: scripts/check-cycles.py CRATE_SRC_DIR [CRATE_SRC_DIR ...]   (CI: runtime/src macros/src ...)

Rules enforced here:
- no cycle between files (modules): an edge is a `crate::`, `super::` or `self::` path in a file's
  code (tests, after `#[cfg(test)]`, are not counted), to the module it names; edges to a module's
  own ancestors are ignored (a parent declares and re-exports its children);
- no cycle between the top-level modules (the layers: `server`, `dispatch`, `routing`, ...): the
  same edges, each file counted as its top-level folder, so two layers cannot depend on each other
  through different files either;
- the output names every cycle; the exit status is 1 if there is one, else 0.
"""
import os
import re
import sys

PATH = re.compile(r"\b(crate|super|self)((?:::\w+)+)")


def modules(src):
    found = {}
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, name), src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            found[tuple(rel)] = os.path.join(root, name)
    return found


def edges(mods):
    def resolve(path):
        for n in range(len(path), 0, -1):
            if tuple(path[:n]) in mods:
                return tuple(path[:n])
        return None

    graph = {m: set() for m in mods}
    for module, file in mods.items():
        with open(file, encoding="utf-8") as f:
            code = f.read().split("#[cfg(test)]")[0]
        is_dir = os.path.basename(file) in ("mod.rs", "lib.rs", "main.rs")
        for base, rest in PATH.findall(code):
            parts = rest.strip(":").split("::")
            if base == "crate":
                path = parts
            elif base == "self":
                path = list(module if is_dir else module[:-1]) + parts
            else:
                path = list(module[:-1] if is_dir else module[:-2]) + parts
            target = resolve(path)
            if target is None or target == module or module[: len(target)] == target:
                continue
            graph[module].add(target)
    return graph


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def name(module):
    return "::".join(module) or "crate root"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failed = False
    for src in sys.argv[1:]:
        mods = modules(src)
        graph = edges(mods)
        layers = {}
        for module, targets in graph.items():
            if not module:
                continue
            for target in targets:
                if target and target[0] != module[0]:
                    layers.setdefault(module[:1], set()).add(target[:1])
            layers.setdefault(module[:1], set())
        file_cycles = cycles(graph)
        layer_cycles = cycles(layers)
        for cycle in file_cycles:
            print(f"{src}: modules import each other in a circle: {', '.join(map(name, cycle))}")
        for cycle in layer_cycles:
            print(f"{src}: top-level modules (layers) depend on each other: {', '.join(map(name, cycle))}")
        failed |= bool(file_cycles or layer_cycles)
        print(f"{src}: {len(mods)} modules, {len(layers)} top-level modules, "
              f"{len(file_cycles) + len(layer_cycles)} cycles")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
