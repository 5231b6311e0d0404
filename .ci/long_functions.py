#!/usr/bin/env python3
"""No library function over 200 lines (issue 39, "the house"): every `fn` of the workspace's
crates' `src/` folders, tests (`#[cfg(test)]` modules, `tests/`) and generated fixtures
(`fixtures.rs`) aside, measured from its `fn` line to its closing brace at the same indent.

    python3 .ci/long_functions.py [LIMIT]
"""
import os
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 200
FN = re.compile(r"^(\s*)(pub(\([^)]*\))? )?(const )?(async )?(unsafe )?fn (\w+)")
long = []
count = 0
for root, dirs, files in os.walk("crates"):
    dirs[:] = sorted(d for d in dirs if d not in ("tests", "target"))
    if os.sep + "src" not in root + os.sep and not root.endswith("src"):
        continue
    for f in sorted(files):
        if not f.endswith(".rs") or f == "fixtures.rs":
            continue
        path = os.path.join(root, f)
        lines = open(path, encoding="utf-8").read().split("\n")
        skip_to = -1  # the last line of a `#[cfg(test)]` item (a test module, a test helper)
        for i, line in enumerate(lines):
            if i <= skip_to:
                continue
            t = re.match(r"(\s*)#\[cfg\(test\)\]", line)
            if t:
                # The item after the attribute ends at the first `}` at its indent (or is one
                # line: `mod tests;`, a `use`).
                close = t.group(1) + "}"
                for j in range(i + 1, len(lines)):
                    if lines[j].rstrip().endswith(";") and lines[j].startswith(t.group(1)) and j == i + 1:
                        skip_to = j
                        break
                    if lines[j] == close:
                        skip_to = j
                        break
                continue
            m = FN.match(line)
            if not m:
                continue
            count += 1
            close = m.group(1) + "}"
            for j in range(i + 1, len(lines)):
                if lines[j] == close:
                    if j - i + 1 > LIMIT:
                        long.append((j - i + 1, path, m.group(7), i + 1))
                    break
print(f"{count} functions, {len(long)} over {LIMIT} lines")
for n, path, name, line in sorted(long, reverse=True):
    print(f"  {path}:{line} {name}: {n} lines")
sys.exit(1 if long else 0)
