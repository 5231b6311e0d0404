#!/usr/bin/env python3
"""Issue 16's size table: the corpus's model files against their glTF conversions, float and
quantised, per format.

Usage: .ci/gltf_sizes.py RETROMODEL_BINARY CORPUS_DIR FLOAT_DIR QUANTISED_DIR

FLOAT_DIR and QUANTISED_DIR are `retromodel convert CORPUS_DIR DIR --to glb` outputs (without
and with --quantize). Per format (by the input's magic bytes) it prints the model files'
bytes, the bytes of the skin files the model reads from beside it (MD2 and MD3 skins are
separate files that the GLB embeds; `info --json`'s `skin_sources`, found under the model's
folder or one of its parents), and for each output its total, its images and the rest
(geometry, animation, JSON), with the ratios to the model files and to models plus skins.
"""
import json
import os
import struct
import subprocess
import sys
from collections import defaultdict

FORMATS = {
    b"IDPO": "Quake MDL",
    b"RAPO": "Quake MDL",
    b"MD16": "Quake MDL",
    b"IDP2": "MD2",
    b"IDP3": "MD3",
    b"MDL2": "GameStudio",
    b"MDL3": "GameStudio",
    b"MDL4": "GameStudio",
    b"MDL5": "GameStudio",
    b"MDL7": "GameStudio",
    b"HMP4": "HMP",
    b"HMP5": "HMP",
    b"HMP7": "HMP",
}
KEYFRAME = ("Quake MDL", "MD2", "MD3", "GameStudio")


def glb_parts(path):
    """(total bytes, image bytes) of a GLB."""
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<I", data[12:16])
    doc = json.loads(data[20 : 20 + length])
    views = doc.get("bufferViews", [])
    images = sum(views[i["bufferView"]]["byteLength"] for i in doc.get("images", []) if "bufferView" in i)
    return len(data), images


def skin_bytes(binary, model):
    """Bytes of the skin files `info` says the model reads, found from its folder up."""
    out = subprocess.run([binary, "info", "--json", model], capture_output=True, text=True)
    try:
        info = json.loads(out.stdout.splitlines()[0])
    except (IndexError, ValueError):
        return 0, 0
    total, missing = 0, 0
    for source in info.get("skin_sources") or []:
        if not source:
            continue
        rel = source.rsplit(" (", 1)[0]
        d = os.path.dirname(model)
        for _ in range(12):
            p = os.path.join(d, rel)
            if os.path.isfile(p):
                total += os.path.getsize(p)
                break
            if os.path.dirname(d) == d:
                missing += 1
                break
            d = os.path.dirname(d)
        else:
            missing += 1
    return total, missing


def main():
    binary, corpus, float_dir, quant_dir = sys.argv[1:5]
    rows = defaultdict(lambda: defaultdict(int))
    for root, _, files in os.walk(float_dir):
        for name in files:
            if not name.endswith(".glb"):
                continue
            rel = os.path.relpath(os.path.join(root, name), float_dir)[: -len(".glb")]
            source = next(
                (
                    os.path.join(corpus, rel + ext)
                    for ext in (".mdl", ".md2", ".md3", ".hmp", ".MDL", ".MD2", ".MD3", ".HMP")
                    if os.path.isfile(os.path.join(corpus, rel + ext))
                ),
                None,
            )
            quant = os.path.join(quant_dir, rel + ".glb")
            if source is None or not os.path.isfile(quant):
                continue
            with open(source, "rb") as f:
                fmt = FORMATS.get(f.read(4))
            if fmt is None:
                continue
            r = rows[fmt]
            r["files"] += 1
            r["input"] += os.path.getsize(source)
            skins, missing = skin_bytes(binary, source) if fmt in ("MD2", "MD3") else (0, 0)
            r["skins"] += skins
            r["missing"] += missing
            for kind, path in (("float", os.path.join(root, name)), ("quant", quant)):
                total, images = glb_parts(path)
                r[kind] += total
                r[kind + "_images"] += images
    mb = lambda n: f"{n / 1e6:8.2f}"
    print(
        "format        files  input MB (+skins)  |  float MB  images  rest  x input  |"
        "  quantised MB  images  rest  x input  x input+skins"
    )
    total = defaultdict(int)
    for fmt in sorted(rows):
        r = rows[fmt]
        if fmt in KEYFRAME:
            for k, v in r.items():
                total[k] += v
        line = lambda r, name: (
            f"{name:12} {r['files']:6} {mb(r['input'])} ({mb(r['input'] + r['skins']).strip()})  |"
            f" {mb(r['float'])} {mb(r['float_images'])} {mb(r['float'] - r['float_images'])}"
            f" {r['float'] / r['input']:6.2f}x  |"
            f"     {mb(r['quant'])} {mb(r['quant_images'])} {mb(r['quant'] - r['quant_images'])}"
            f" {r['quant'] / r['input']:6.2f}x  {r['quant'] / (r['input'] + r['skins']):6.2f}x"
        )
        print(line(r, fmt))
    print(line(total, "keyframe"))
    missing = sum(r["missing"] for r in rows.values())
    if missing:
        print(f"({missing} skin files named by info were not found beside their models)")


if __name__ == "__main__":
    main()
