#!/usr/bin/env python3
"""The core crate's import graph against its layers (ARCHITECTURE.md, "Layers").

Reads every file under crates/retromodel/src, takes the crate paths its code names (`crate::a::b`,
`super::x`, `self::x`; comments, doc links and `#[cfg(test)]` modules left out), maps each to
the file that defines it, and fails when
  - two files import each other, directly or through a loop of files (a cycle), or
  - a file imports a layer above its own (LAYERS, bottom first).

    python3 .ci/layers.py [crates/retromodel/src]
"""
import os
import re
import sys

# Bottom first; a file may import its own layer and those below. A top-level module
# (folder or file) belongs to one layer.
LAYERS = [
    ["error", "limits", "hash", "math", "diagnostic", "resolve"],
    ["io"],
    ["image", "vfs"],
    ["model"],
    ["options", "skin_lookup"],
    ["summary"],
    ["codec"],
    ["interchange", "formats"],
    ["registry", "conform"],
    ["inputs", "document", "rerelease"],
    ["front"],
    ["lib"],
]
# Imports from a lower layer to a higher one that are allowed, each justified in
# ARCHITECTURE.md ("Layers"): (from module, to module).
ALLOWED_UP = set()

ROOT = sys.argv[1] if len(sys.argv) > 1 else "crates/retromodel/src"
PATH = re.compile(r"(?<![\w:])(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
GROUP = re.compile(r"(?<![\w:])(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^{}]*)\}")


def module_of(path):
    """crates/retromodel/src/a/b.rs -> ['a', 'b']; a/mod.rs -> ['a']; lib.rs -> []."""
    rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return rel


def file_of(parts):
    """The longest prefix of `parts` that is a file of the crate."""
    for n in range(len(parts), -1, -1):
        base = os.path.join(ROOT, *parts[:n]) if n else ROOT
        if n == 0:
            return os.path.join(ROOT, "lib.rs")
        if os.path.isfile(base + ".rs"):
            return base + ".rs"
        if os.path.isfile(os.path.join(base, "mod.rs")):
            return os.path.join(base, "mod.rs")
    return None


def strip_tests(text):
    """The text without `#[cfg(test)] mod ... { ... }` blocks (brace-matched)."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\(\w+\))?\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def imports(path):
    me = module_of(path)
    text = strip_tests(open(path, encoding="utf-8").read())
    text = re.sub(r"//[^\n]*", "", text)
    found = set()

    def resolve(head, tail):
        parts = [p for p in tail.split("::") if p]
        if head == "crate":
            base = []
        elif head == "self":
            base = me
        else:  # super
            base = me[:-1]
            while parts and parts[0] == "super":
                base, parts = base[:-1], parts[1:]
        target = file_of(base + parts)
        if target and os.path.abspath(target) != os.path.abspath(path):
            found.add(target)

    for m in GROUP.finditer(text):
        for item in m.group(3).split(","):
            item = item.strip().split(" as ")[0].strip()
            if item and item != "self" and re.match(r"^[A-Za-z_]\w*(::\w+)*$", item):
                resolve(m.group(1), m.group(2) + "::" + item)
            elif item == "self":
                resolve(m.group(1), m.group(2))
    for m in PATH.finditer(text):
        resolve(m.group(1), m.group(2))
    return found


def layer(path):
    top = (module_of(path) or ["lib"])[0]
    for i, names in enumerate(LAYERS):
        if top in names:
            return i, top
    return None, top


def main():
    files = []
    for d, _, names in os.walk(ROOT):
        files += [os.path.join(d, n) for n in names if n.endswith(".rs")]
    graph = {f: imports(f) for f in sorted(files)}
    problems = []
    for f, targets in graph.items():
        lf, mf = layer(f)
        if lf is None:
            problems.append(f"{f}: module {mf!r} is in no layer of .ci/layers.py")
            continue
        for t in sorted(targets):
            lt, mt = layer(t)
            if lt is not None and lt > lf and (mf, mt) not in ALLOWED_UP:
                problems.append(f"{f} imports {t}: layer {mt} is above {mf}")
    # Cycles: Tarjan's strongly connected components.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    for c in comps:
        problems.append("files that import each other: " + ", ".join(c))
    edges = sum(len(t) for t in graph.values())
    print(f"{len(graph)} files, {edges} imports, {len(comps)} cycles, "
          f"{sum('layer' in p and 'above' in p for p in problems)} imports up a layer")
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
