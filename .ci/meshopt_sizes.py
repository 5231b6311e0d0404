#!/usr/bin/env python3
"""Geometry bytes of `convert --compress` against the model file, `--quantize` and gltfpack
-cc (issue 43, criterion 4). Geometry bytes: every buffer view no image reads, at its
stored (compressed) length. gltfpack packs our plain .glb with its defaults (-cc: its own
quantisation, 14-bit positions, 8-bit normals, 12-bit texture coordinates, and vertex and
triangle reordering), so its files are lossier than ours; the numbers compare sizes only.

Usage: .ci/meshopt_sizes.py RETROMODEL_BINARY CORPUS_DIR NODE_MODULES [FILE...]
"""
import json, os, struct, subprocess, sys, tempfile

DEFAULT = [
    "quake_mdl/github-Ademan-LibreQuake/lq1/progs/zombie.mdl",
    "md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/bloodspider.md2",
    "assimp/test/models-nonbsd/MD5/Bob.md5mesh",
    "assimp/test/models/MDL/MDL (HL1)/man.mdl",
    "iqm/github-raysan5-raylib/examples/models/resources/models/iqm/guy.iqm",
]
NAMES = ("EXT_meshopt_compression", "KHR_meshopt_compression")


def geometry(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20 : 20 + n])
    images = {i.get("bufferView") for i in doc.get("images", [])}
    total = 0
    for k, v in enumerate(doc.get("bufferViews", [])):
        if k in images:
            continue
        ext = next((v["extensions"][e] for e in NAMES if e in v.get("extensions", {})), None)
        total += ext["byteLength"] if ext else v["byteLength"]
    return total


def main():
    binary, corpus, modules = sys.argv[1:4]
    files = sys.argv[4:] or DEFAULT
    out = tempfile.mkdtemp()
    pack = os.path.join(modules, "gltfpack", "cli.js")
    print("| model | file | float | --quantize | --compress | gltfpack -cc | compress/quantize | compress/gltfpack |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for f in files:
        src = os.path.join(corpus, f)
        n = os.path.basename(f)
        g = {k: os.path.join(out, f"{n}.{k}.glb") for k in ("plain", "q", "c", "pack")}
        run = lambda *a: subprocess.run(a, check=True, capture_output=True)
        run(binary, "convert", src, g["plain"])
        run(binary, "convert", src, g["q"], "--quantize")
        run(binary, "convert", src, g["c"], "--compress")
        run("node", pack, "-i", g["plain"], "-o", g["pack"], "-cc")
        s = {k: geometry(p) for k, p in g.items()}
        print(
            f"| {n} | {os.path.getsize(src)} | {s['plain']} | {s['q']} | {s['c']} | {s['pack']} "
            f"| {s['c'] / s['q']:.3f} | {s['c'] / s['pack']:.2f} |"
        )


main()
