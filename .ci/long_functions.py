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
        in_test = False
        for i, line in enumerate(lines):
            if re.match(r"\s*#\[cfg\(test\)\]", line):
                in_test = True
            m = FN.match(line)
            if not m or in_test:
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
