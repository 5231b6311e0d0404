#!/usr/bin/env python3
"""Cross-tool check of HMP terrains. Assimp's HMP importer places the grid at the origin
without the header's origin, keeps Z up, and makes heights up as
`((z / 0xffff) - 0.5) * trisize_x * 8` (HMPLoader.cpp) instead of the header's
`origin + scale * z`. So the check is: the same grid (cells at the same spacing, row 0 at
the +y edge in ours and at y = 0 in Assimp's) and heights that are one affine function of
the other at every grid point, to 1e-3 of the height range.

Usage: cross_assimp_hmp.py RETROMODEL_BINARY CORPUS_DIR
"""
import os
import subprocess
import sys
import tempfile

from assimp_report import finish

binary, corpus = sys.argv[1], sys.argv[2]


def verts(path):
    out = []
    with open(path, encoding="latin-1") as f:
        for line in f:
            p = line.split()
            if p and p[0] == "v":
                out.append(tuple(float(x) for x in p[1:4]))
    return out


def grid(points, flip_y):
    """(ix, iy) -> height for points (x, y, h) on a regular grid."""
    xs = sorted({round(p[0], 4) for p in points})
    ys = sorted({round(p[1], 4) for p in points})
    if len(xs) < 2 or len(ys) < 2:
        return None
    sx, sy = xs[1] - xs[0], ys[1] - ys[0]
    g = {}
    for x, y, h in points:
        ix, iy = round((x - xs[0]) / sx), round((y - ys[0]) / sy)
        if flip_y:
            iy = len(ys) - 1 - iy
        g[(ix, iy)] = h
    return g, (len(xs), len(ys)), (sx, sy)


files = []
for root, _, names in os.walk(corpus):
    for n in names:
        p = os.path.join(root, n)
        with open(p, "rb") as f:
            if f.read(3) == b"HMP":
                files.append(p)
files.sort()
agree, failures, skipped = 0, [], []
with tempfile.TemporaryDirectory() as tmp:
    for i, p in enumerate(files):
        ours_path, theirs_path = os.path.join(tmp, f"{i}.o.obj"), os.path.join(tmp, f"{i}.t.obj")
        r = subprocess.run([binary, "convert", p, ours_path, "--force"], capture_output=True, text=True)
        a = subprocess.run(["assimp", "export", p, theirs_path], capture_output=True, text=True, timeout=300)
        if a.returncode != 0 or not os.path.exists(theirs_path):
            skipped.append(p)
            continue
        if r.returncode != 0:
            failures.append(f"{p}: retromodel failed: {r.stderr.strip()}")
            continue
        # Ours is Y-up (x, h, -y); Assimp's HMP output stays Z-up (x, y, h).
        ours = grid([(x, -z, y) for x, y, z in verts(ours_path)], True)
        theirs = grid(verts(theirs_path), False)
        if ours is None or theirs is None or ours[1] != theirs[1]:
            failures.append(f"{p}: grids differ: {ours and ours[1]} vs {theirs and theirs[1]}")
            continue
        if any(abs(a - b) > 1e-3 * max(1.0, abs(b)) for a, b in zip(ours[2], theirs[2])):
            failures.append(f"{p}: grid spacing {ours[2]} vs {theirs[2]}")
            continue
        keys = sorted(ours[0])
        xo = [ours[0][k] for k in keys]
        yt = [theirs[0].get(k) for k in keys]
        if None in yt:
            failures.append(f"{p}: grid points missing in assimp's output")
            continue
        n = len(xo)
        mx, my = sum(xo) / n, sum(yt) / n
        vx = sum((x - mx) ** 2 for x in xo)
        slope = sum((x - mx) * (y - my) for x, y in zip(xo, yt)) / vx if vx > 0 else 0.0
        worst = max(abs(y - (my + slope * (x - mx))) for x, y in zip(xo, yt))
        span = max(yt) - min(yt)
        if worst > 1e-3 * max(span, 1e-6):
            failures.append(f"{p}: heights are not one affine function of ours (residual {worst} of range {span})")
        else:
            agree += 1
finish(
    f"assimp hmp check (grid + affine heights): {agree} agree, {len(failures)} disagree, {len(skipped)} not loaded by assimp",
    agree,
    failures,
    skipped,
)
