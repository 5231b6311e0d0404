"""Compares the frames of an MD2 and a Quake MDL with vertex positions per frame from a JSON
file ({"frames": [[[x, y, z], ...], ...]}): every written vertex must lie within one
quantisation step (per axis, the file's scale) of a source vertex in the same frame, and
every source vertex must have a written vertex that close. Prints the worst error in steps.

Usage: compare_frames.py EXPECTED.json FILE.md2 FILE.mdl
"""
import json
import struct
import sys


def md2_frames(data):
    (ident, version, sw, sh, fsize, nskins, nxyz, nst, ntris, nglcmds, nframes,
     oskins, ost, otris, oframes, oglcmds, oend) = struct.unpack_from("<4s16i", data, 0)
    assert ident == b"IDP2", ident
    frames = []
    for f in range(nframes):
        base = oframes + f * fsize
        scale = struct.unpack_from("<3f", data, base)
        trans = struct.unpack_from("<3f", data, base + 12)
        verts = []
        for v in range(nxyz):
            x, y, z, _ = struct.unpack_from("<4B", data, base + 40 + 4 * v)
            verts.append([x * scale[0] + trans[0], y * scale[1] + trans[1], z * scale[2] + trans[2]])
        frames.append((scale, verts))
    return frames


def mdl_frames(data):
    ident, version = struct.unpack_from("<4si", data, 0)
    assert ident == b"IDPO", ident
    scale = struct.unpack_from("<3f", data, 8)
    trans = struct.unpack_from("<3f", data, 20)
    nskins, sw, sh, nverts, ntris, nframes = struct.unpack_from("<6i", data, 48)
    pos = 84
    for _ in range(nskins):
        (kind,) = struct.unpack_from("<i", data, pos)
        assert kind == 0, "skin groups not expected here"
        pos += 4 + sw * sh
    pos += 12 * nverts + 16 * ntris
    frames = []
    for _ in range(nframes):
        (kind,) = struct.unpack_from("<i", data, pos)
        assert kind == 0, "frame groups not expected here"
        pos += 4 + 4 + 4 + 16
        verts = []
        for v in range(nverts):
            x, y, z, _ = struct.unpack_from("<4B", data, pos + 4 * v)
            verts.append([x * scale[0] + trans[0], y * scale[1] + trans[1], z * scale[2] + trans[2]])
        pos += 4 * nverts
        frames.append((scale, verts))
    return frames


def check(name, frames, expected):
    assert len(frames) == len(expected), f"{name}: {len(frames)} frames, expected {len(expected)}"
    worst = 0.0
    for f, ((scale, verts), want) in enumerate(zip(frames, expected)):
        def steps(a, b):
            return max(abs(a[k] - b[k]) / scale[k] for k in range(3))
        for v in verts:
            d = min(steps(v, w) for w in want)
            worst = max(worst, d)
            assert d <= 1.0 + 1e-3, f"{name}: frame {f}: vertex {v} is {d:.3f} steps from every source vertex"
        for w in want:
            d = min(steps(v, w) for v in verts)
            assert d <= 1.0 + 1e-3, f"{name}: frame {f}: source vertex {w} is {d:.3f} steps from every written vertex"
    print(f"{name}: {len(frames)} frames of {len(frames[0][1])} vertices match Blender within {worst:.3f} steps")


def main():
    expected = json.load(open(sys.argv[1]))["frames"]
    check("md2", md2_frames(open(sys.argv[2], "rb").read()), expected)
    check("mdl", mdl_frames(open(sys.argv[3], "rb").read()), expected)


main()
