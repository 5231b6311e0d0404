#!/usr/bin/env python3
"""Cross-tool check of first-pose geometry through OBJ: for every corpus file of the given
kinds that both tools read, `assimp export X out.obj` and `retromodel convert X out.obj`
(frame 0, or the bind pose) must give the same triangles, corner by corner, to 1e-3 of the
model's size (both write Y-up: Assimp's importers turn Z-up the way
`retromodel::model::to_y_up` does). Triangles are compared as sets of corners, so a winding
difference would not hide a position difference.

Quake 3 player parts (lower.md3, upper.md3, head.md3 in one folder): Assimp loads the whole
player from any of them, assembled on its tags at frame 0, so they are compared with
`retromodel convert FOLDER out.obj` (the assembled player, frame 0). Assimp assembles the
lower-detail parts (lower_1.md3 ...) the same way; retromodel assembles only the full-detail
ones, so those are listed as not compared.

Half-Life MDL (`--hl1`): Assimp turns GoldSrc models a quarter turn about the vertical
axis more than its other importers (its (x, y, z) is our OBJ's (z, y, -x)), and loads every
sub-model of every body part where retromodel shows the body value 0 (the first of each
part): each of our triangles must match one of Assimp's.

Usage: cross_assimp_obj.py RETROMODEL_BINARY CORPUS_DIR [--absolute] [--subset] [--hl1] KIND...
KIND: a file extension (md5mesh) or a 4-byte magic (MDL5).
"""
import os
import re
import subprocess
import sys
import tempfile

from assimp_report import finish

binary, corpus, kinds = sys.argv[1], sys.argv[2], sys.argv[3:]
# --absolute: the tolerance is 1e-3 units (times max(1, |coordinate|)) instead of 1e-3 of
# the model's size.
ABSOLUTE = "--absolute" in kinds
# --subset: Assimp may load fewer triangles than the file has (its MDL7 loader drops groups
# and materials it does not handle); every triangle it does load must match one of ours.
SUBSET = "--subset" in kinds
# --hl1: Half-Life MDL (see above).
HL1 = "--hl1" in kinds
kinds = [k for k in kinds if k not in ("--absolute", "--subset", "--hl1")]
TOL = 1e-3


def triangles(path):
    verts, tris = [], []
    with open(path, encoding="latin-1") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                verts.append(tuple(float(x) for x in parts[1:4]))
            elif parts[0] == "f":
                idx = [int(p.split("/")[0]) for p in parts[1:]]
                idx = [i - 1 if i > 0 else len(verts) + i for i in idx]
                for k in range(1, len(idx) - 1):
                    tris.append((verts[idx[0]], verts[idx[k]], verts[idx[k + 1]]))
    return tris


def cell(p):
    return tuple(int(round(c / (0.01 * SIZE[0]))) for c in p)


SIZE = [1.0]


def close(a, b):
    if ABSOLUTE:
        return all(abs(x - y) <= TOL * max(1.0, abs(y)) for x, y in zip(a, b))
    return all(abs(x - y) <= TOL * SIZE[0] for x, y in zip(a, b))


def same_corners(t, u):
    return all(any(close(p, q) for q in u) for p in t) and all(any(close(q, p) for p in t) for q in u)


def centroid(t):
    return tuple(sum(c[k] for c in t) / 3 for k in range(3))


files = []
for root, dirs, names in os.walk(corpus):
    if os.path.basename(root) == "invalid":
        continue
    for n in sorted(names):
        p = os.path.join(root, n)
        ext = n.rsplit(".", 1)[-1].lower()
        with open(p, "rb") as f:
            magic = f.read(4).decode("latin-1")
        if ext in kinds or magic in kinds:
            files.append(p)
files.sort()

agree, failures, skipped = 0, [], []
with tempfile.TemporaryDirectory() as tmp:
    for i, p in enumerate(files):
        ours_path = os.path.join(tmp, f"{i}.ours.obj")
        theirs_path = os.path.join(tmp, f"{i}.theirs.obj")
        source = p
        folder, base = os.path.split(p)
        parts = ("lower.md3", "upper.md3", "head.md3")
        if all(os.path.exists(os.path.join(folder, q)) for q in parts):
            if base in parts:
                source = folder  # the assembled player, as Assimp loads it
                failed = [q for q in parts if subprocess.run(
                    ["assimp", "info", os.path.join(folder, q), "--raw"],
                    capture_output=True, timeout=300).returncode != 0]
                if failed:
                    skipped.append(p + f" (Assimp cannot load {', '.join(failed)} of this player)")
                    continue
            elif re.fullmatch(r"(lower|upper|head)_\d+\.md3", base):
                skipped.append(p + " (a lower-detail player part: Assimp assembles that level of detail)")
                continue
        # The file as stored (Assimp applies no Cube 2 md5.cfg).
        r = subprocess.run([binary, "convert", source, ours_path, "--force", "--no-model-config"], capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"{p}: retromodel failed: {r.stderr.strip()}")
            continue
        a = subprocess.run(["assimp", "export", p, theirs_path], capture_output=True, text=True, timeout=300)
        if a.returncode != 0 or not os.path.exists(theirs_path):
            skipped.append(p)
            continue
        ours, theirs = triangles(ours_path), triangles(theirs_path)
        if HL1:
            ours = [tuple((c[2], c[1], -c[0]) for c in t) for t in ours]
        pts = [c for t in ours for c in t] or [(0.0, 0.0, 0.0)]
        SIZE[0] = max(1e-6, max(max(c[k] for c in pts) - min(c[k] for c in pts) for k in range(3)))
        if not theirs:
            skipped.append(p + " (assimp loaded no triangles)")
            continue
        if len(ours) != len(theirs) and not (SUBSET and len(theirs) < len(ours)) and not (HL1 and len(ours) < len(theirs)):
            failures.append(f"{p}: {len(ours)} triangles vs assimp's {len(theirs)}")
            continue
        if HL1 and len(ours) < len(theirs):
            ours, theirs = theirs, ours  # each of ours (the shown sub-models) among Assimp's
        grid = {}
        for t in ours:
            grid.setdefault(cell(centroid(t)), []).append(t)
        bad = 0
        for u in theirs:
            c = cell(centroid(u))
            found = False
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for dz in (-1, 0, 1):
                        for t in grid.get((c[0] + dx, c[1] + dy, c[2] + dz), ()):
                            if same_corners(t, u):
                                found = True
                                break
                        if found:
                            break
                    if found:
                        break
                if found:
                    break
            if not found:
                bad += 1
        if bad:
            failures.append(f"{p}: {bad} of {len(theirs)} assimp triangles have no match within {TOL}")
        else:
            agree += 1

finish(
    f"assimp {' '.join(kinds)} first-pose check: {agree} agree, {len(failures)} disagree, {len(skipped)} not loaded by assimp",
    agree,
    failures,
    skipped,
)
