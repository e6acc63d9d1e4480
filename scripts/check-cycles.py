#!/usr/bin/env python3
"""Fails when modules of a crate import each other in a circle, or a layer imports from a layer
above it (DESIGN.md: one layer per folder, dependencies pointing one way).

Usage: scripts/check-cycles.py [--layers FILE] CRATE_SRC_DIR [CRATE_SRC_DIR ...]
       (CI: runtime/src runtime/template/src macros/src service/src; FILE defaults to
       scripts/layers.toml, which declares the layers of runtime/src and the decisions behind
       their order)

Rules enforced here:
- a node is a file (an inline `mod x { .. }` counts as the file it is in); an edge is a use of
  another file's item in code that is not test code: a `use` declaration, or a path in code
  (`crate::`, `$crate::`, `super::`, `self::`, a child module's or an imported name's `name::`),
  with `use a::{b, c::*}` groups expanded;
- a module's `self` is itself and its `super` its parent, whether it is a file or a folder:
  `a/b.rs` and `a/b/mod.rs` are both module `a::b`, whose `super` is `a` (`a/mod.rs` or `a.rs`);
- a path is resolved to the file that defines its item, through re-exports and glob imports (so
  `super::RequestCx` in `extract/arg.rs` is an edge to `extract/request.rs`, where `RequestCx` is
  defined, not to `extract/mod.rs`, which re-exports it); a `#[macro_export]` macro, which Rust
  puts at the crate root, resolves to the file that defines it;
- a re-export (`pub use`, `pub(crate) use`, ...) is a door, not a dependency: it is an edge only
  if the code of its own file uses the name; a private `use` always is (an unused one is a
  compiler warning);
- an edge to an ancestor (a child using an item its parent's file defines) is not counted: the
  parent declares its children and is their door, so every such use would be a cycle with it;
  the parent's file is the one place of a folder that both sides may share. Between siblings,
  and between modules of different folders, every edge counts;
- not counted: comments (doc comments too), string and char literals, visibilities
  (`pub(super)`, `pub(in crate::a)`), and any module-level item under `#[cfg(test)]` (a `tests`
  module, a test-only helper, a `#[cfg(test)] mod snapshots;` file) — that item only, not the
  rest of its file; a `#![cfg(test)]` file is skipped whole (a `#[cfg(test)]` method inside an
  `impl` is counted: more edges, never fewer);
- no cycle between files: each is printed with its members, then each of its edges with the file,
  line and path of its first use;
- no cycle between the top-level modules (each file counted as its top-level module), and, for a
  crate whose layers the layers file declares, no import from a top-level module to one on the
  same or a higher line of the file (each printed with its file, line and path), no top-level
  module left out of it, and no name in it that is not a top-level module; the crate root (`lib.rs`, and the façade modules written
  inline in it) is above every layer and is not checked against them;
- the exit status is 1 if any of those is found, else 0.

What it does not see: items made by a macro (a path to one resolves to the module that invokes
the macro), a glob `use` of another crate, and `#[path = ..]` modules (none in this workspace).
A crate with both `lib.rs` and `main.rs` is read from `lib.rs`: the binary is a crate of its own,
which can use the library only by its name.
"""
import os
import re
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11: load_layers says so if a layers file is there to read.
    tomllib = None

PATH_ROOTS = ("crate", "$crate", "super", "self")
ITEM_KEYWORDS = ("fn", "struct", "enum", "union", "trait", "type", "const", "static")
ROOT_FILES = ("mod", "lib", "main")
IDENT = re.compile(r"\$?\w")


# --- Lexing: Rust source to tokens, without comments, strings and char literals -------------------

TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<raw_string>(?:b|c)?r(?P<hashes>\#*)")
  | (?P<string>(?:b|c)?")
  | (?P<char>b?'(?:\\(?:u\{[0-9a-fA-F_]*\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])')
  | (?P<lifetime>'(?:r\#)?[A-Za-z_]\w*)
  | (?P<ident>\$?(?:r\#)?[A-Za-z_]\w*)
  | (?P<number>[0-9]\w*)
  | (?P<path_sep>::)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)
KEPT = ("lifetime", "ident", "number", "path_sep", "punct")


def tokens(code):
    """The code's tokens, as (text, line) pairs; comments and literals are dropped."""
    out, pos, line, end = [], 0, 1, len(code)
    while pos < end:
        m = TOKEN.match(code, pos)
        kind, text, start = m.lastgroup, m.group(0), pos
        pos = m.end()
        if kind == "block_comment":  # they nest
            depth = 1
            while depth and pos < end:
                if code.startswith("/*", pos):
                    depth, pos = depth + 1, pos + 2
                elif code.startswith("*/", pos):
                    depth, pos = depth - 1, pos + 2
                else:
                    pos += 1
        elif kind == "raw_string":
            close = code.find('"' + m.group("hashes"), pos)
            pos = end if close < 0 else close + 1 + len(m.group("hashes"))
        elif kind == "string":
            while pos < end and code[pos] != '"':
                pos += 2 if code[pos] == "\\" else 1
            pos += 1
        elif kind in KEPT:
            out.append((text[2:] if text.startswith("r#") else text, line))
        line += code.count("\n", start, pos)
    return out


def matching(toks, i):
    """The index just past the bracket group that opens at toks[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[toks[i][0]]]
    i += 1
    while i < len(toks) and stack:
        text = toks[i][0]
        if text in pairs:
            stack.append(pairs[text])
        elif text == stack[-1]:
            stack.pop()
        i += 1
    return i


def skip_visibility(toks, i):
    """(the index past a visibility starting at toks[i], or i; whether there was one)."""
    if i < len(toks) and toks[i][0] == "pub":
        if i + 2 < len(toks) and toks[i + 1][0] == "(" and toks[i + 2][0] in ("crate", "super", "self", "in"):
            return matching(toks, i + 1), True
        return i + 1, True
    return i, False


def use_tree(toks, i, prefix, out):
    """Reads the use tree (or path) at toks[i] into out, as (local name, or None for a glob;
    path) pairs; returns the index after it."""
    path = list(prefix)
    while i < len(toks):
        text = toks[i][0]
        if text == "{":
            i += 1
            while i < len(toks) and toks[i][0] != "}":
                i = i + 1 if toks[i][0] == "," else use_tree(toks, i, path, out)
            return i + 1
        if text == "*":
            out.append((None, path))
            return i + 1
        if not IDENT.match(text):
            break
        if text == "self" and path:
            # `a::{self}` or `a::{self as b}`: `a` itself.
            text = path[-1]
        else:
            path.append(text)
        i += 1
        if i < len(toks) and toks[i][0] == "as":
            out.append((toks[i + 1][0] if i + 1 < len(toks) else None, path))
            return i + 2
        if i + 1 < len(toks) and toks[i][0] == "::" and (toks[i + 1][0] in "{*" or IDENT.match(toks[i + 1][0])):
            i += 1
            continue
        out.append((text, path))  # the end, or a turbofish `f::<T>`: the path so far
        return i
    if len(path) > len(prefix):
        out.append((path[-1], path))
    return i


# --- Parsing: the module tree, each module's imports, items and code ------------------------------


class Module:
    def __init__(self, path, file, parent=None):
        self.path = path  # names from the crate root
        self.file = file  # the file it is written in (an inline module: its parent's)
        self.parent = parent
        self.children = {}  # name -> Module
        self.items = set()  # names of the items defined here
        self.uses = []  # (local name or None for a glob, path as written, is a re-export, line)
        self.code = []  # (tokens, start, end): its items other than `use` and `mod`
        self.exported_macros = set()

    def node(self):
        """The module of the file this module is written in."""
        module = self
        while module.parent is not None and module.file == module.parent.file:
            module = module.parent
        return module

    def children_dir(self):
        """Where the files of this module's children are."""
        if self.node() is not self:
            return os.path.join(self.parent.children_dir(), self.path[-1])
        base = os.path.splitext(self.file)[0]
        return os.path.dirname(self.file) if os.path.basename(base) in ROOT_FILES else base


def item_end(toks, i):
    """The index just past the item whose keyword is at toks[i]: its `;`, or its block's `}`
    (`const X: T = T { .. };` and `static` run to their `;`)."""
    text, after = toks[i][0], toks[i + 1][0] if i + 1 < len(toks) else ""
    to_semicolon = text in ("use", "static", "type") or (text == "const" and after not in ("fn", "unsafe", "async", "extern")) or (
        text == "extern" and after == "crate"
    )
    while i < len(toks):
        text = toks[i][0]
        if text == ";":
            return i + 1
        if text in ("(", "["):
            i = matching(toks, i)
        elif text == "{":
            i = matching(toks, i)
            if not to_semicolon:
                return i
        else:
            i += 1
    return i


def attributes(toks, i, end):
    """(the index past the outer attributes at toks[i]; whether one is `cfg(test)`, whether one is
    `macro_export`)."""
    cfg_test = macro_export = False
    while i + 1 < end and toks[i][0] == "#" and toks[i + 1][0] == "[":
        close = matching(toks, i + 1)
        attr = [text for text, _ in toks[i + 2 : close - 1]]
        cfg_test |= attr == ["cfg", "(", "test", ")"]
        macro_export |= attr == ["macro_export"]
        i = close
    return i, cfg_test, macro_export


def parse_items(toks, i, end, module, modules):
    """Reads the items of `module` in toks[i:end], and its children's."""
    while i < end:
        if toks[i][0] == "#" and i + 2 < end and toks[i + 1][0] == "!" and toks[i + 2][0] == "[":
            close = matching(toks, i + 2)
            if [text for text, _ in toks[i + 3 : close - 1]] == ["cfg", "(", "test", ")"]:
                return  # `#![cfg(test)]`: the whole module is test code
            i = close
            continue
        start = i
        i, cfg_test, macro_export = attributes(toks, i, end)
        i, public = skip_visibility(toks, i)
        if i >= end:
            break
        if toks[i][0] == "unsafe" and i + 1 < end and toks[i + 1][0] == "mod":
            i += 1
        text = toks[i][0]
        if text == "mod" and i + 2 < end and toks[i + 2][0] in (";", "{"):
            name, inline = toks[i + 1][0], toks[i + 2][0] == "{"
            past = matching(toks, i + 2) if inline else i + 3
            if not cfg_test:
                if inline:
                    child = Module(module.path + (name,), module.file, module)
                else:
                    folder = module.children_dir()
                    candidates = [os.path.join(folder, name + ".rs"), os.path.join(folder, name, "mod.rs")]
                    file = next((c for c in candidates if os.path.isfile(c)), None)
                    child = file and Module(module.path + (name,), file, module)
                if child:
                    module.children[name] = child
                    modules.append(child)
                    if inline:
                        parse_items(toks, i + 3, past - 1, child, modules)
                    else:
                        parse_file(child, modules)
            i = past
            continue
        past = max(item_end(toks, i), i + 1)
        if cfg_test:
            i = past
            continue
        if text == "use":
            found = []
            use_tree(toks, i + 1, [], found)
            module.uses.extend((name, path, public, toks[i][1]) for name, path in found)
            i = past
            continue
        # The item's name, after its qualifiers (`const unsafe extern "C" fn`: the string is gone).
        j = i
        while j + 1 < past and (
            toks[j][0] in ("async", "unsafe", "extern", "default")
            or (toks[j][0] == "const" and toks[j + 1][0] in ("fn", "unsafe", "async", "extern"))
        ):
            j += 1
        if j + 1 < past and toks[j][0] in ITEM_KEYWORDS and IDENT.match(toks[j + 1][0]):
            module.items.add(toks[j + 1][0])
        elif j + 2 < past and toks[j][0] == "macro_rules" and toks[j + 1][0] == "!":
            module.items.add(toks[j + 2][0])
            if macro_export:
                module.exported_macros.add(toks[j + 2][0])
        module.code.append((toks, start, past))
        i = past


def parse_file(module, modules):
    with open(module.file, encoding="utf-8") as f:
        toks = tokens(f.read())
    parse_items(toks, 0, len(toks), module, modules)


def crate_modules(root_file):
    """Every module of the crate whose root is root_file that is not test code, parents first."""
    root = Module((), root_file)
    modules = [root]
    parse_file(root, modules)
    return modules


# --- Resolution: a path to the module that defines its item ---------------------------------------

MISSING = object()


class Crate:
    def __init__(self, modules):
        self.modules = modules
        self.root = modules[0]
        # `#[macro_export]` puts a macro at the crate root; it is defined where it is written.
        self.macros = {name: m for m in modules for name in m.exported_macros}

    @staticmethod
    def imported(module, name):
        for local, path, _, _ in module.uses:
            if local == name:
                return path
        return None

    def absolute(self, module, path):
        """The path from the crate root, or None if it names another crate (std, hyper, ...)."""
        head = path[0] if path else "::"
        if head in ("crate", "$crate"):
            return list(path[1:])
        if head == "self":
            return list(module.path) + list(path[1:])
        if head == "super":
            base, rest = list(module.path), list(path)
            while rest[:1] == ["super"]:
                base, rest = base[:-1], rest[1:]
            return base + rest
        # A relative path: a name in this module's scope (a child, an item, an import), else the
        # name of a crate.
        if head in module.children or head in module.items or self.imported(module, head) is not None:
            return list(module.path) + list(path)
        return None

    def module_at(self, path):
        module = self.root
        for name in path:
            module = module.children.get(name)
            if module is None:
                return None
        return module

    def resolve(self, path, seen=frozenset()):
        """The module defining the item an absolute path names: None if it is another crate's, the
        deepest module the path reaches if the name is unknown (a macro's item, say)."""
        module = self.root
        for i, name in enumerate(path):
            if name in module.children:
                module = module.children[name]
                continue
            found = self.find(module, name, list(path[i + 1 :]), seen)
            return module if found is MISSING else found
        return module

    def find(self, module, name, rest, seen):
        """Where `name` of `module` (followed by `rest`) is defined, or MISSING."""
        if name in module.items:
            return module
        if module is self.root and name in self.macros:
            return self.macros[name]
        if (module.path, name) in seen:
            return MISSING  # a loop of re-exports
        seen = seen | {(module.path, name)}
        imported = self.imported(module, name)
        if imported is not None:
            target = self.absolute(module, imported)
            return None if target is None else self.resolve(target + rest, seen)
        for local, path, _, _ in module.uses:
            target = self.absolute(module, path) if local is None else None
            source = self.module_at(target) if target is not None else None
            if source is None:
                continue  # a glob of another crate, or of an enum's variants
            if name in source.children:
                return self.resolve(target + [name] + rest, seen)
            found = self.find(source, name, rest, seen)
            if found is not MISSING:
                return found
        return MISSING

    def edges(self):
        """{file's module path: {file's module path: [(line, path as written)]}}."""
        graph = {m.node().path: {} for m in self.modules}

        def add(module, path, line):
            target_path = self.absolute(module, path)
            target = self.resolve(target_path) if target_path is not None else None
            if target is None:
                return
            source, target = module.node().path, target.node().path
            if target != source[: len(target)]:  # not itself, nor an ancestor
                graph[source].setdefault(target, []).append((line, "::".join(path)))

        for module in self.modules:
            used = {text for toks, start, end in module.code for text, _ in toks[start:end]}
            for local, path, reexport, line in module.uses:
                if not reexport or local in used:
                    add(module, path, line)
            for toks, start, end in module.code:
                i = start
                while i < end:
                    text = toks[i][0]
                    if text == "pub":
                        i, _ = skip_visibility(toks, i)
                        continue
                    if (
                        i + 1 < end
                        and toks[i + 1][0] == "::"
                        and (i == start or toks[i - 1][0] != "::")
                        and (text in PATH_ROOTS or text in module.children or self.imported(module, text) is not None)
                    ):
                        found = []
                        past = use_tree(toks, i, [], found)
                        for _, path in found:
                            add(module, path, toks[i][1])
                        i = max(past, i + 1)
                        continue
                    i += 1
        return graph


# --- Cycles and layers ----------------------------------------------------------------------------


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


def load_layers(file):
    """{real path of a crate's src: [[top-level module, ...] per line, from the top down]}. The
    file's keys are relative to the repository root, the parent of the file's folder."""
    if not os.path.isfile(file):
        # Missing, the layer order would silently go unchecked.
        sys.exit(f"check-cycles.py: no layers file {file}")
    if tomllib is None:
        sys.exit(f"check-cycles.py: reading {file} needs Python 3.11 or later (tomllib)")
    with open(file, "rb") as f:
        data = tomllib.load(f)
    root = os.path.dirname(os.path.dirname(os.path.abspath(file)))
    return {
        os.path.realpath(os.path.join(root, src)): [[e] if isinstance(e, str) else list(e) for e in table["layers"]]
        for src, table in data.items()
    }


def name(module):
    return "::".join(module) or "crate root"


def check(src, levels):
    """(the problems found in the crate under src, as lines to print; a summary line)."""
    root = next((os.path.join(src, f) for f in ("lib.rs", "main.rs") if os.path.isfile(os.path.join(src, f))), None)
    if root is None:
        return [f"{src}: no lib.rs or main.rs"], f"{src}: not a crate"
    crate = Crate(crate_modules(root))
    graph = crate.edges()
    files = {m.node().path: m.file for m in crate.modules}
    problems = []

    file_cycles = cycles(graph)
    for cycle in file_cycles:
        problems.append(f"{src}: modules import each other in a circle: {', '.join(map(name, cycle))}")
        for module in cycle:
            for target in sorted(t for t in graph[module] if t in cycle):
                line, path = graph[module][target][0]
                problems.append(f"    {name(module)} -> {name(target)}: {files[module]}:{line} `{path}`")

    layers = {}
    for module, targets in graph.items():
        if module:
            layers.setdefault(module[:1], set()).update(t[:1] for t in targets if t and t[0] != module[0])
    layer_cycles = cycles(layers)
    for cycle in layer_cycles:
        problems.append(f"{src}: top-level modules (layers) depend on each other: {', '.join(map(name, cycle))}")

    against = 0
    if levels is not None:
        level_of = {layer: depth for depth, peers in enumerate(levels) for layer in peers}
        for (layer,) in sorted(layers):
            if layer not in level_of:
                against += 1
                problems.append(f"{src}: top-level module `{layer}` is in no layer of the layers file: place it")
        for layer in sorted(set(level_of) - {module for (module,) in layers}):
            against += 1
            problems.append(f"{src}: the layers file names `{layer}`, which is no top-level module")
        for module, targets in sorted(graph.items()):
            if not module or module[0] not in level_of:
                continue
            here = level_of[module[0]]
            for target, uses in sorted(targets.items()):
                if target[:1] == module[:1]:
                    continue
                there = level_of.get(target[0], here + 1) if target else -1
                if there > here:
                    continue
                kind = "a peer layer of" if there == here else "a layer above"
                top = f"`{target[0]}`" if target else "the crate root"
                for line, path in uses:
                    against += 1
                    problems.append(
                        f"{files[module]}:{line}: `{path}` imports from {top} ({name(target)}), "
                        f"{kind} `{module[0]}`"
                    )

    summary = f"{src}: {len(files)} modules, {len(layers)} top-level modules, {len(file_cycles) + len(layer_cycles)} cycles"
    if levels is not None:
        summary += f", {against} imports against the layer order"
    return problems, summary


def main(argv):
    layers_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.toml")
    if argv[:1] == ["--layers"]:
        if len(argv) < 2:
            sys.exit(__doc__)
        layers_file, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__)
    declared = load_layers(layers_file)
    failed = False
    for src in argv:
        problems, summary = check(src, declared.get(os.path.realpath(src)))
        for problem in problems:
            print(problem)
        print(summary)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
