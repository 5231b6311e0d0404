#!/usr/bin/env python3
"""retromodel's Python package against vgio 1.3 on the corpus's Quake MDL and MD2 files.

Issue 27, acceptance criterion 2: load speed of ``retromodel.load`` against vgio reading
the same files, both doing the same work, with every pose of every frame decoded to float
positions in model units; MB/s of both side by side in one run, and the ratio.

    target/venv-py/bin/python bench/python_vgio.py [--corpus DIR] [--rounds N] [--quick]

Files: every ``.mdl`` (any case) under the corpus whose first 4 bytes are ``IDPO`` and
every ``.md2`` with ``IDP2``. Each file is first loaded once by both tools (the warm-up,
which also checks that the two agree on every pose); only files that both load without
error are timed, and the files each tool fails on are named.

What each side does per file (the timed work):

- retromodel: ``m = retromodel.load(path)`` (reads the file, parses it, decodes every pose
  into the Model's morph targets, skins included, side files looked up as the CLI does),
  then ``mesh.all_positions()`` for every mesh: one float32 ``(poses, n, 3)`` numpy array
  per mesh, in model units (n = mesh vertices, after retromodel's seam/UV split).
- vgio: ``vgio.quake.mdl.Mdl.open(path)`` / ``vgio.quake2.md2.Md2.open(path)`` (reads and
  parses the file into Python objects: one TriVertex per packed vertex, skins as tuples
  of ints), then for every frame (every sub-frame of an MDL frame group) the packed byte
  vertices become one float32 ``(n, 3)`` numpy array: ``bytes * scale + origin`` (MDL:
  header scale/origin; MD2: the frame's scale/translate), computed in float64 and
  rounded to float32 (n = file vertices). vgio itself gives only the packed bytes.

Timing: per format, the tools alternate within each round (retromodel pass over all the
files, then vgio pass); each tool's best round counts. MB/s = file bytes of the files both
load / seconds of that tool's best pass.

Correctness: in the warm-up pass every retromodel pose is compared with vgio's decoded
frame through ``mesh.source_vertices`` (mesh vertex -> file vertex): max absolute
difference must be within 1e-4 (plus 1e-6 relative, for coordinates in the thousands).

``--quick`` (CI smoke): a handful of small files per format, one round; exits non-zero
when either tool loads no file of a format or the positions disagree. The speed ratio
never fails the run (speed targets are reported, not tested).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
import warnings

import numpy as np

import retromodel
import vgio
from vgio.quake import mdl as vgio_mdl
from vgio.quake2 import md2 as vgio_md2

ATOL = 1e-4
RTOL = 1e-6
GOAL = 20.0

FORMATS = [
    # key, label, extension, magic
    ("mdl", "Quake MDL (IDPO)", ".mdl", b"IDPO"),
    ("md2", "Quake 2 MD2 (IDP2)", ".md2", b"IDP2"),
]


# --------------------------------------------------------------------------------------
# The two loads (the timed work)


def retromodel_load(path: str) -> list:
    """retromodel: read + parse + every pose decoded; one float32 (poses, n, 3) per mesh."""
    m = retromodel.load(path)
    return [mesh.all_positions() for mesh in m.meshes]


def vgio_mdl_load(path: str) -> list:
    """vgio MDL: read + parse; every frame and group sub-frame to float32 (n, 3)."""
    with vgio_mdl.Mdl.open(path) as m:
        scale = np.array(m.scale, dtype=np.float64)
        origin = np.array(m.origin, dtype=np.float64)
        out = []
        for frame in m.frames:
            frames = frame.frames if frame.type == vgio_mdl.GROUP else (frame,)
            for f in frames:
                packed = np.array([(v.x, v.y, v.z) for v in f.vertexes], dtype=np.float64)
                out.append((packed.reshape(-1, 3) * scale + origin).astype(np.float32))
        return out


def vgio_md2_load(path: str) -> list:
    """vgio MD2: read + parse; every frame to float32 (n, 3) with its scale/translate."""
    with vgio_md2.Md2.open(path) as m:
        out = []
        for f in m.frames:
            packed = np.array([(v.x, v.y, v.z) for v in f.vertexes], dtype=np.float64)
            out.append(
                (packed.reshape(-1, 3) * np.array(f.scale) + np.array(f.translate)).astype(
                    np.float32
                )
            )
        return out


VGIO_LOAD = {"mdl": vgio_mdl_load, "md2": vgio_md2_load}


def retromodel_loads(path: str) -> list:
    """retromodel without side files: read the bytes, ``loads`` them, every pose to numpy.

    The same work as vgio's side: ``load`` also finds and decodes skin pictures beside the
    model (UFO:AI's MD2 skins are PNG/JPEG files next to it), which vgio never reads.
    """
    with open(path, "rb") as fh:
        data = fh.read()
    m = retromodel.loads(data, os.path.basename(path))
    return [mesh.all_positions() for mesh in m.meshes]


# --------------------------------------------------------------------------------------


def find_files(corpus: str) -> dict:
    found = {key: [] for key, *_ in FORMATS}
    for root, dirs, files in os.walk(corpus):
        dirs.sort()
        for name in sorted(files):
            ext = os.path.splitext(name)[1].lower()
            for key, _label, want_ext, magic in FORMATS:
                if ext != want_ext:
                    continue
                path = os.path.join(root, name)
                try:
                    with open(path, "rb") as fh:
                        head = fh.read(4)
                except OSError:
                    continue
                if head == magic:
                    found[key].append(path)
    return found


def one_line(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}".replace("\n", " ")
    return text if len(text) <= 200 else text[:197] + "..."


def compare(path: str, rm_model, rm_arrays: list, vg_frames: list) -> str | None:
    """None when every retromodel pose matches vgio's decoded frame; else what differs."""
    meshes = rm_model.meshes
    if len(meshes) != 1:
        return f"retromodel has {len(meshes)} meshes (expected 1)"
    pos = rm_arrays[0]
    src = np.asarray(meshes[0].source_vertices, dtype=np.int64)
    if pos.shape[0] != len(vg_frames):
        return f"poses: retromodel {pos.shape[0]}, vgio {len(vg_frames)}"
    if len(vg_frames) == 0:
        return None
    nfile = vg_frames[0].shape[0]
    if src.shape[0] != pos.shape[1]:
        return f"source_vertices has {src.shape[0]} entries for {pos.shape[1]} vertices"
    if src.size and (src.min() < 0 or src.max() >= nfile):
        return f"source_vertices out of range (file has {nfile} vertices)"
    worst = 0.0
    worst_pose = -1
    for i, ref in enumerate(vg_frames):
        if ref.shape[0] != nfile:
            return f"vgio frame {i} has {ref.shape[0]} vertices, frame 0 {nfile}"
        expect = ref[src]
        diff = np.abs(pos[i].astype(np.float64) - expect.astype(np.float64))
        tol = ATOL + RTOL * np.abs(expect.astype(np.float64))
        if diff.size and (diff > tol).any():
            d = float(diff.max())
            if d > worst:
                worst, worst_pose = d, i
    if worst_pose >= 0:
        return f"positions differ: max |diff| {worst:.6g} (pose {worst_pose})"
    return None


def max_abs_diff(rm_model, rm_arrays, vg_frames) -> float:
    src = np.asarray(rm_model.meshes[0].source_vertices, dtype=np.int64)
    ref = np.stack(vg_frames)[:, src, :]
    return float(np.abs(rm_arrays[0].astype(np.float64) - ref).max()) if ref.size else 0.0


def warm_up(key: str, files: list, check: bool, want: int = 0) -> tuple:
    """Load every file once with each tool (or until ``want`` files load with both).

    Returns (tried, both, rm_fail, vg_fail, mismatches, max_diff, checked).
    """
    both, rm_fail, vg_fail, mismatches = [], [], [], []
    max_diff = 0.0
    checked = 0
    tried = []
    for path in files:
        if want and len(both) >= want:
            break
        tried.append(path)
        rm_err = vg_err = None
        rm_model = rm_arrays = vg_frames = None
        try:
            rm_model = retromodel.load(path)
            rm_arrays = [mesh.all_positions() for mesh in rm_model.meshes]
        except Exception as e:  # noqa: BLE001 - a failure is a result here
            rm_err = one_line(e)
        try:
            vg_frames = VGIO_LOAD[key](path)
        except Exception as e:  # noqa: BLE001
            vg_err = one_line(e)
        if rm_err:
            rm_fail.append((path, rm_err))
        if vg_err:
            vg_fail.append((path, vg_err))
        if rm_err or vg_err:
            continue
        both.append(path)
        if check:
            problem = compare(path, rm_model, rm_arrays, vg_frames)
            checked += 1
            if problem:
                mismatches.append((path, problem))
            else:
                max_diff = max(max_diff, max_abs_diff(rm_model, rm_arrays, vg_frames))
    return tried, both, rm_fail, vg_fail, mismatches, max_diff, checked


def timed_pass(fn, files: list) -> float:
    gc.collect()
    t0 = time.perf_counter()
    for path in files:
        fn(path)
    return time.perf_counter() - t0


def quick_order(files: list, limit: int = 200_000) -> list:
    """Small files, in an order that visits the sorted list's parts evenly (stride 7)."""
    small = [p for p in files if os.path.getsize(p) <= limit]
    return [small[(i * 7) % len(small)] for i in range(len(small))] if len(small) % 7 else small


def grouped(fails: list) -> dict:
    by = {}
    for path, err in fails:
        by.setdefault(err, []).append(path)
    return by


def rel(path: str, corpus: str) -> str:
    return os.path.relpath(path, corpus)


def main() -> int:
    default_corpus = os.environ.get("RETROMODEL_CORPUS") or os.path.join("..", "shared", "corpus")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=default_corpus)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="CI smoke: a few small files, 1 round")
    ap.add_argument("--no-check", action="store_true", help="skip the position comparison")
    args = ap.parse_args()

    corpus = args.corpus
    if not os.path.isdir(corpus):
        print(f"corpus not found: {corpus}", file=sys.stderr)
        return 2
    rounds = 1 if args.quick else max(1, args.rounds)
    warnings.simplefilter("ignore")  # RetromodelWarning for odd files: not part of this

    found = find_files(corpus)
    failed = False
    rows = []
    notes = []
    profile = []

    for key, label, _ext, _magic in FORMATS:
        files = found[key]
        if args.quick:
            files = quick_order(files)
        files, both, rm_fail, vg_fail, mismatches, max_diff, checked = warm_up(
            key, files, check=not args.no_check, want=4 if args.quick else 0
        )
        print(
            f"{label}: {len(files)} files; retromodel loads {len(files) - len(rm_fail)}, "
            f"vgio {len(files) - len(vg_fail)}, both {len(both)}",
            file=sys.stderr,
        )
        for what, fails in (("retromodel", rm_fail), ("vgio", vg_fail)):
            for err, paths in grouped(fails).items():
                notes.append(
                    f"- {label}: {what} fails on {len(paths)} file(s) with `{err}`: "
                    + ", ".join(rel(p, corpus) for p in paths)
                )
        if not args.no_check:
            if mismatches:
                failed = True
                for path, problem in mismatches:
                    notes.append(f"- {label}: MISMATCH {rel(path, corpus)}: {problem}")
            notes.append(
                f"- {label}: positions checked on {checked} files: "
                f"{checked - len(mismatches)} agree (max |diff| {max_diff:.3g})"
            )
        if len(files) - len(rm_fail) == 0 or len(files) - len(vg_fail) == 0 or not both:
            failed = True
            notes.append(f"- {label}: a tool loads none of the files")
            continue

        nbytes = sum(os.path.getsize(p) for p in both)
        poses = 0
        for p in both:
            poses += retromodel.load(p).info()["poses"]
        best = {"retromodel": float("inf"), "loads": float("inf"), "vgio": float("inf")}
        for r in range(rounds):
            # alternate which tool goes first each round
            order = [
                ("retromodel", retromodel_load),
                ("loads", retromodel_loads),
                ("vgio", VGIO_LOAD[key]),
            ]
            if r % 2:
                order.reverse()
            for name, fn in order:
                t = timed_pass(fn, both)
                best[name] = min(best[name], t)
                print(f"  round {r + 1}: {name:10s} {t:8.3f} s", file=sys.stderr)
        # Where retromodel's time goes: load alone, and all_positions on loaded models.
        t_load = t_pos = float("inf")
        for _ in range(rounds):
            t_load = min(t_load, timed_pass(retromodel.load, both))
            models = [retromodel.load(p) for p in both]
            gc.collect()
            t0 = time.perf_counter()
            for m in models:
                for mesh in m.meshes:
                    mesh.all_positions()
            t_pos = min(t_pos, time.perf_counter() - t0)
            del models
        profile.append(
            f"- {label}: retromodel.load alone {t_load:.4f} s, all_positions() on the loaded "
            f"models {t_pos:.4f} s, read + loads (no side files) + all_positions "
            f"{best['loads']:.4f} s, against load + all_positions {best['retromodel']:.4f} s "
            f"(best of {rounds} each)"
        )
        mbs_rm = nbytes / best["retromodel"] / 1e6
        mbs_ls = nbytes / best["loads"] / 1e6
        mbs_vg = nbytes / best["vgio"] / 1e6
        rows.append(
            (
                label,
                len(files),
                len(files) - len(rm_fail),
                len(files) - len(vg_fail),
                len(both),
                nbytes,
                poses,
                best["retromodel"],
                best["vgio"],
                mbs_rm,
                mbs_vg,
                mbs_rm / mbs_vg,
                mbs_ls,
                mbs_ls / mbs_vg,
            )
        )

    print(
        f"Corpus: {corpus}. retromodel {retromodel.__version__}, vgio "
        f"{getattr(vgio, '__version__', '1.3')}, numpy {np.__version__}, Python "
        f"{platform.python_version()}; {os.cpu_count()} CPUs. Best of {rounds} round(s), "
        f"tools alternating.\n"
    )
    print(
        "| format | files: found / retromodel / vgio / both | bytes | poses | "
        "s retromodel | s vgio | MB/s retromodel | MB/s vgio | retromodel / vgio | "
        "MB/s retromodel, no side files | ratio, no side files |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for lab, nf, nr, nv, nb, nbytes, poses, srm, svg, mrm, mvg, ratio, mls, rls in rows:
        print(
            f"| {lab} | {nf} / {nr} / {nv} / {nb} | {nbytes} | {poses} | {srm:.3f} | "
            f"{svg:.3f} | {mrm:.1f} | {mvg:.2f} | {ratio:.1f}x | {mls:.1f} | {rls:.1f}x |"
        )
    print()
    for n in notes + profile:
        print(n)
    summary = "; ".join(
        f"{lab}: {ratio:.1f}x vgio ({mrm:.1f} against {mvg:.2f} MB/s, {nb} files, "
        + (
            "smoke: a few small files, not a speed measure)"
            if args.quick
            else f"goal {GOAL:.0f}x {'met' if ratio >= GOAL else 'not met'})"
        )
        for lab, _nf, _nr, _nv, nb, _b, _p, _s1, _s2, mrm, mvg, ratio, _ml, _rl in rows
    )
    print(f"\nSummary: {summary}." if rows else "\nSummary: nothing loaded.")
    if failed:
        print("FAILED: a tool loaded nothing or positions disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
