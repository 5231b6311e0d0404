#!/usr/bin/env python3
"""Cross-tool check: Assimp (`assimp info`) and `retromodel info --json` must agree on every
corpus IDPO and IDP2 file that Assimp loads (raw import, no post-processing): triangle count, and the bounds of the first pose (Assimp
converts Z-up to Y-up, so its (x, y, z) is our (x, z, -y)).

Usage: cross_assimp.py RETROMODEL_BINARY CORPUS_DIR
"""
import json
import os
import re
import subprocess
import sys

from assimp_report import finish

binary, corpus = sys.argv[1], sys.argv[2]
files = []
for root, _, names in os.walk(corpus):
    for n in names:
        p = os.path.join(root, n)
        with open(p, "rb") as f:
            if f.read(4) in (b"IDPO", b"IDP2"):
                files.append(p)
files.sort()

ours = {}
out = subprocess.run([binary, "info", "--json", *files], capture_output=True, text=True)
for line in out.stdout.splitlines():
    d = json.loads(line)
    ours[d["path"]] = d

vec = r"\(([-\d.e+]+) ([-\d.e+]+) ([-\d.e+]+)\)"
agree, skipped, failures = 0, [], []
for p in files:
    r = subprocess.run(["assimp", "info", p, "--raw"], capture_output=True, text=True, timeout=120)
    faces = re.search(r"^Faces:\s+(\d+)", r.stdout, re.M)
    lo = re.search(r"^Minimum point\s+" + vec, r.stdout, re.M)
    hi = re.search(r"^Maximum point\s+" + vec, r.stdout, re.M)
    if r.returncode != 0 or not (faces and lo and hi):
        skipped.append(p)
        continue
    d = ours.get(p)
    if d is None or "error" in d:
        failures.append(f"{p}: retromodel failed: {d and d.get('error')}")
        continue
    problems = []
    if int(faces.group(1)) != d["triangles"]:
        problems.append(f"faces {faces.group(1)} vs triangles {d['triangles']}")
    a_lo = [float(x) for x in lo.groups()]
    a_hi = [float(x) for x in hi.groups()]
    (x0, y0, z0), (x1, y1, z1) = d["bounds"]["min"], d["bounds"]["max"]
    want_lo, want_hi = [x0, z0, -y1], [x1, z1, -y0]
    tol = lambda v: 1e-3 * max(1.0, abs(v))
    if any(abs(a - b) > tol(b) for a, b in zip(a_lo + a_hi, want_lo + want_hi)):
        problems.append(f"bounds assimp {a_lo} {a_hi} vs ours (as Y-up) {want_lo} {want_hi}")
    if problems:
        failures.append(f"{p}: " + "; ".join(problems))
    else:
        agree += 1

loaded_by_us = {p for p, d in ours.items() if "error" not in d}
notes = []
for magic in ("IDPO", "IDP2"):
    of = [p for p in files if open(p, "rb").read(4).decode() == magic]
    them = [p for p in of if p in skipped and p in loaded_by_us]
    notes.append(f"  {magic}: {len(of)} files; {len(them)} that retromodel reads and assimp does not")
finish(
    f"assimp cross-check: {agree} agree, {len(failures)} disagree, {len(skipped)} not loaded by assimp",
    agree,
    failures,
    skipped,
    notes,
)
