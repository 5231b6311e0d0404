#!/usr/bin/env python3
"""Issue 43's size criterion, measured side by side in one run: for every Quake MDL and MD2
file of the corpus, the geometry bytes of `convert` (plain), `convert --quantize`,
`convert --compress` and gltfpack -cc on the plain export, against the model files.

Geometry bytes: the .glb's size less its embedded pictures (the buffer views images read),
so JSON, padding, animation and the compressed views all count. The model files are counted
whole (an MDL with the skins it holds inside; an MD2's skins are files beside it, left out),
as the issue's criterion does. gltfpack -cc (npm `gltfpack`) repacks our plain
.glb with its defaults (its own quantisation: 14-bit positions, 8-bit normals, 12-bit
texture coordinates; vertex and triangle reordering), so its files are lossier than ours.

Usage: bench/gltf_size.py RETROMODEL_BINARY CORPUS_DIR NODE_MODULES [--jobs N] [--csv FILE]

NODE_MODULES holds `gltfpack` (`npm install --prefix target/npm gltfpack`). Prints one
table per format (totals and ratios) and, with --csv, every file's numbers.
"""
import argparse
import concurrent.futures
import json
import os
import struct
import subprocess
import sys
import tempfile

FORMATS = {b"IDPO": "Quake MDL", b"IDP2": "MD2"}
KINDS = ("plain", "quantize", "compress", "gltfpack")


def geometry(path):
    """Bytes of a .glb less the buffer views its images read."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"glTF":
        raise ValueError(f"{path}: not a GLB")
    (n,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20 : 20 + n])
    views = doc.get("bufferViews", [])
    images = {i["bufferView"] for i in doc.get("images", []) if "bufferView" in i}
    return len(data) - sum(views[v]["byteLength"] for v in images)


def measure(binary, pack, src, out):
    """The four geometry sizes of one model (None where a tool failed, with its message)."""
    base = os.path.join(out, str(abs(hash(src))))
    paths = {k: f"{base}.{k}.glb" for k in KINDS}
    commands = {
        "plain": [binary, "convert", src, paths["plain"]],
        "quantize": [binary, "convert", src, paths["quantize"], "--quantize"],
        "compress": [binary, "convert", src, paths["compress"], "--compress"],
        "gltfpack": ["node", pack, "-i", paths["plain"], "-o", paths["gltfpack"], "-cc"],
    }
    sizes, errors = {}, []
    for k in KINDS:
        r = subprocess.run(commands[k], capture_output=True, text=True)
        if r.returncode != 0 or not os.path.isfile(paths[k]):
            errors.append(f"{k}: {r.stderr.strip()[:200]}")
            sizes[k] = None
            continue
        sizes[k] = geometry(paths[k])
    for p in paths.values():
        if os.path.exists(p):
            os.remove(p)
    return sizes, errors


def models(corpus):
    """(format, path) of every Quake MDL and MD2 file under the corpus's folders for them."""
    found = []
    for folder in ("quake_mdl", "md2"):
        for root, _, files in os.walk(os.path.join(corpus, folder)):
            for name in files:
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    fmt = FORMATS.get(f.read(4))
                if fmt:
                    found.append((fmt, path))
    return sorted(found)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("corpus")
    ap.add_argument("node_modules")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--csv")
    a = ap.parse_args()
    pack = os.path.join(a.node_modules, "gltfpack", "cli.js")
    out = tempfile.mkdtemp(prefix="gltf_size.")
    files = models(a.corpus)
    totals = {}
    rows = []
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = {pool.submit(measure, a.binary, pack, p, out): (fmt, p) for fmt, p in files}
        for job in concurrent.futures.as_completed(jobs):
            fmt, path = jobs[job]
            sizes, errors = job.result()
            if errors:
                failed += 1
                print(f"{os.path.relpath(path, a.corpus)}: {'; '.join(errors)}", file=sys.stderr)
                continue
            model = os.path.getsize(path)
            rows.append((fmt, os.path.relpath(path, a.corpus), model, sizes))
            t = totals.setdefault(fmt, {"files": 0, "model": 0, **{k: 0 for k in KINDS}})
            t["files"] += 1
            t["model"] += model
            for k in KINDS:
                t[k] += sizes[k]
    os.rmdir(out)
    print(f"| format | files | model files | {' | '.join(KINDS)} | compress / gltfpack |")
    print("|---|---:|---:|" + "---:|" * len(KINDS) + "---:|")
    for fmt, t in sorted(totals.items()):
        cells = " | ".join(f"{t[k]:,} ({t[k] / t['model']:.2f}x)".replace(",", " ") for k in KINDS)
        print(
            f"| {fmt} | {t['files']} | {t['model']:,} | {cells} | {t['compress'] / t['gltfpack']:.2f} |".replace(
                ",", " "
            )
        )
    if failed:
        print(f"({failed} files left out: a conversion failed, see above)")
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("format,file,model," + ",".join(KINDS) + "\n")
            for fmt, rel, model, sizes in sorted(rows):
                f.write(f"{fmt},{rel},{model}," + ",".join(str(sizes[k]) for k in KINDS) + "\n")


if __name__ == "__main__":
    main()
