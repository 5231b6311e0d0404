#!/usr/bin/env python3
"""Cross-tool check of the GoldSrc writer (issue 42): every corpus MD5 and IQM model with
triangles, and every corpus Quake MDL (IDPO) and MD2 (IDP2) model (bones fitted to their
vertex motion), is converted with `convert --mdl goldsrc`, and Assimp's Half-Life 1 loader
(`assimp info`, raw import) must load the result with the faces `retromodel info` reads back,
one animation per sequence with the same names, and the same extents (sorted, as Assimp turns
the axes; within 0.1 % of the largest).

Usage: cross_assimp_goldsrc.py RETROMODEL_BINARY CORPUS_DIR [OUT_DIR]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from assimp_report import finish

binary, corpus = sys.argv[1], sys.argv[2]
out_dir = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="goldsrc-")
os.makedirs(out_dir, exist_ok=True)
files = []
for sub in ("md5", "iqm"):
    for root, _, names in os.walk(os.path.join(corpus, sub)):
        for n in names:
            if n.endswith((".md5mesh", ".iqm")) and not n.endswith(".md5anim.iqm"):
                files.append(os.path.join(root, n))
for root, _, names in os.walk(corpus):
    for n in names:
        p = os.path.join(root, n)
        with open(p, "rb") as f:
            if f.read(4) in (b"IDPO", b"IDP2"):
                files.append(p)
files.sort()

vec = r"\(([-\d.e+]+) ([-\d.e+]+) ([-\d.e+]+)\)"
agree, skipped, failures, notes = 0, [], [], []
for i, src in enumerate(files):
    out = os.path.join(out_dir, f"{i:03d}_{os.path.basename(src)}.mdl")
    c = subprocess.run([binary, "convert", src, out, "--mdl", "goldsrc", "--force"],
                       capture_output=True, text=True)
    if c.returncode != 0:
        # Animation-only files (no triangles) have nothing to write.
        if "half-life-mdl:" not in c.stderr:
            # The source itself is refused (the corpus's corrupt MD2 files): not the writer's.
            notes.append(f"  source refused: {src}: {c.stderr.strip()[-160:]}")
        else:
            failures.append(f"{src}: convert failed: {c.stderr.strip()[-300:]}")
        continue
    info = subprocess.run([binary, "info", "--json", out], capture_output=True, text=True)
    d = json.loads(info.stdout.splitlines()[0])
    if d.get("triangles", 0) == 0:
        notes.append(f"  no triangles: {src}")
        continue
    r = subprocess.run(["assimp", "info", out, "--raw"], capture_output=True, text=True,
                       timeout=120)
    faces = re.search(r"^Faces:\s+(\d+)", r.stdout, re.M)
    anims = re.search(r"^Animations:\s+(\d+)", r.stdout, re.M)
    lo = re.search(r"^Minimum point\s+" + vec, r.stdout, re.M)
    hi = re.search(r"^Maximum point\s+" + vec, r.stdout, re.M)
    if r.returncode != 0 or not (faces and anims and lo and hi):
        skipped.append(f"{src} -> {out}")
        continue
    named = re.findall(r"^\s+'([^']*)'$", r.stdout.split("Named Animations:")[-1], re.M)
    ours_names = [a["name"] for a in d["animations"]]
    problems = []
    if int(faces.group(1)) != d["triangles"]:
        problems.append(f"faces {faces.group(1)} vs triangles {d['triangles']}")
    if int(anims.group(1)) != len(ours_names) or named != ours_names:
        problems.append(f"animations {named} vs sequences {ours_names}")
    a_ext = sorted(float(h) - float(l) for l, h in zip(lo.groups(), hi.groups()))
    b = d["bounds"]
    o_ext = sorted(h - l for l, h in zip(b["min"], b["max"]))
    tol = 1e-3 * max(o_ext + [1e-6])
    if any(abs(x - y) > tol for x, y in zip(a_ext, o_ext)):
        problems.append(f"extents {a_ext} vs {o_ext}")
    if problems:
        failures.append(f"{src}: " + "; ".join(problems))
    else:
        agree += 1

finish(f"GoldSrc written from MD5/IQM/MDL/MD2, read by Assimp: {agree} agree, {len(failures)} disagree, "
       f"{len(skipped)} not loaded", agree, failures, skipped, notes)
