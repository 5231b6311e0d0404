#!/usr/bin/env python3
"""Issue 40: the Windows build, run under Wine, writes the same bytes as the Linux build.

    python3 .ci/wine_parity.py --linux target/release/retromodel \
        --windows target/x86_64-pc-windows-gnu/release/retromodel.exe [--per-format 5]

Part 1, parity: corpus models ($RETROMODEL_CORPUS), N of each format the Linux build reads
(chosen by `info --json`, spread over the sizes), plus glTF and OBJ sources the Linux build
writes first, are converted to every target `formats --json` lists as written (MDL, the
GameStudio MDL variants, MD2, MD3, md5mesh, IQM, GLB, glTF with side files, OBJ), once by
each build, each conversion in its own folder. Every file each writes must be the same bytes,
and a conversion that fails must fail on both with the same message. A table per source
format and target is printed; any difference fails.

Part 2, Windows paths and console (under Wine only): drive letters (`C:\\`, and `Z:\\`,
Wine's `/`) with backslashes; `ARCHIVE:PATH` after a drive letter, with a file named `C`
in the current folder; a non-ASCII file name; a path over 260 characters; `info`'s
console output the same text as Linux's.

Needs `wine` (Debian's wine64) and the stand-in bcryptprimitives.dll beside the .exe
(.ci/wine_parity.sh builds and places it).
"""

import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Corpus folders and the extensions of their models (side files are skipped).
SOURCES = {
    "quake_mdl": ("mdl",),
    "md2": ("md2",),
    "md3": ("md3",),
    "md5": ("md5mesh",),
    "iqm": ("iqm",),
    "3dgs_mdl": ("mdl",),
    "3dgs_hmp": ("hmp",),
    "3dgs_wmp": ("wmp",),
    "hl1_mdl": ("mdl",),
}


def wine_env():
    env = dict(os.environ)
    env.setdefault("WINEPREFIX", str(Path.home() / ".wine-retromodel"))
    env["WINEDEBUG"] = "-all"
    # The stand-in DLL beside the program, not Wine's built-in one; no Mono/Gecko prompts.
    env["WINEDLLOVERRIDES"] = "bcryptprimitives=n,b;mscoree,mshtml="
    return env


class Runner:
    def __init__(self, linux, windows):
        self.linux = str(Path(linux).resolve())
        self.windows = str(Path(windows).resolve())
        self.env = wine_env()
        self.wine_time = 0.0
        self.linux_time = 0.0
        # One Wine server for the whole run (a fresh one per program costs seconds).
        subprocess.run(["wineserver", "-p"], env=self.env, check=False)
        # Start Wine's services now, their output to /dev/null: started by the first program
        # they would inherit its pipes, and reading its output would wait for them forever.
        subprocess.run(["wine", "wineboot"], env=self.env, check=False, timeout=300,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.run("windows", ["--version"], ".")

    def close(self):
        subprocess.run(["wineserver", "-k"], env=self.env, check=False)

    def run(self, which, args, cwd):
        t = time.monotonic()
        if which == "linux":
            cmd = [self.linux] + args
            env = dict(os.environ)
        else:
            cmd = ["wine", self.windows] + args
            env = self.env
        for attempt in range(3):
            try:
                p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=120)
                break
            except subprocess.TimeoutExpired:
                # Should not happen (see wineboot above): one more try before failing.
                print(f"wine_parity: {' '.join(args[:2])}: timed out, try {attempt + 2} of 3",
                      file=sys.stderr)
                if attempt == 2:
                    raise
        dt = time.monotonic() - t
        if which == "linux":
            self.linux_time += dt
        else:
            self.wine_time += dt
        return p


def files_of(folder):
    out = {}
    for root, _, names in os.walk(folder):
        for n in names:
            p = Path(root) / n
            out[str(p.relative_to(folder))] = p.read_bytes()
    return out


def message(p):
    """A run's error text, with the platform's line ends and program name made equal."""
    text = p.stderr.decode("utf-8", "replace").replace("\r\n", "\n")
    return "\n".join(l for l in text.splitlines() if l.strip())


def pick_sources(runner, corpus, per_format, work):
    """N models of each format name the Linux build reads, spread over their sizes."""
    by_format = {}
    for folder, exts in SOURCES.items():
        base = corpus / folder
        if not base.is_dir():
            continue
        cands = sorted(
            (p for p in base.rglob("*") if p.is_file() and p.suffix[1:].lower() in exts),
            key=lambda p: (p.stat().st_size, str(p)),
        )
        for p in cands:
            r = runner.run("linux", ["info", "--json", str(p)], work)
            if r.returncode != 0:
                continue
            try:
                fmt = json.loads(r.stdout.decode().splitlines()[0]).get("format", folder)
            except (ValueError, IndexError, AttributeError):
                fmt = folder
            by_format.setdefault(fmt, []).append(p)
    chosen = {}
    for fmt, paths in by_format.items():
        n = min(per_format, len(paths))
        # Spread over the lower 90% of sizes (the largest files only slow Wine down).
        top = max(n, int(len(paths) * 0.9))
        idx = sorted({round(i * (top - 1) / max(n - 1, 1)) for i in range(n)})
        chosen[fmt] = [paths[i] for i in idx]
    return chosen


def targets(runner, work):
    """(label, extension, extra args) for every format the build writes."""
    r = runner.run("linux", ["formats", "--json"], work)
    out = []
    for line in r.stdout.decode().splitlines():
        f = json.loads(line)
        if not f.get("write"):
            continue
        ext = f["extensions"][0]
        if f["name"].startswith("gs-mdl"):
            for v in f["variants"]:
                out.append((f["name"], ext, ["--mdl", v]))
        elif f["name"] in ("md5anim", "md5camera"):
            continue  # written beside an md5mesh, compared with it
        else:
            out.append((f["name"], ext, []))
    return out


def parity(runner, corpus, per_format, work):
    chosen = pick_sources(runner, corpus, per_format, work)
    # glTF and OBJ as sources too: written by the Linux build from the first Quake MDL and MD5.
    made = work / "sources"
    made.mkdir()
    for fmt, ext in (("glb", "glb"), ("gltf", "gltf"), ("obj", "obj")):
        for i, src in enumerate((chosen.get("quake-mdl", []) + chosen.get("md5mesh", []))[:per_format]):
            d = made / f"{ext}{i}"
            d.mkdir()
            dst = d / f"src{i}.{ext}"
            extra = ["--embed"] if ext == "gltf" else []
            if runner.run("linux", ["convert", str(src), str(dst)] + extra, work).returncode == 0:
                chosen.setdefault(fmt, []).append(dst)
    tgts = targets(runner, work)
    table = {}
    diffs = []
    n = 0
    for fmt in sorted(chosen):
        for src in chosen[fmt]:
            for label, ext, extra in tgts:
                n += 1
                results = {}
                for which in ("linux", "windows"):
                    out = work / "out" / which / f"{n}"
                    out.mkdir(parents=True)
                    rel_src = os.path.relpath(src, work)
                    rel_out = os.path.relpath(out / f"out.{ext}", work)
                    if which == "windows":
                        rel_src = rel_src.replace("/", "\\")
                        rel_out = rel_out.replace("/", "\\")
                    p = runner.run(which, ["convert", rel_src, rel_out, "--force"] + extra, work)
                    results[which] = (p.returncode, files_of(out), message(p) if p.returncode else "")
                lin, win = results["linux"], results["windows"]
                row = table.setdefault((fmt, label + (" " + extra[1] if extra else "")), [0, 0, 0, 0])
                if lin[0] != 0:
                    row[2] += 1
                same = lin[0] == win[0] and lin[1].keys() == win[1].keys() and all(
                    lin[1][k] == win[1][k] for k in lin[1]
                ) and lin[2].replace("\\", "/") == win[2].replace("\\", "/")
                if same:
                    row[0] += 1
                else:
                    row[1] += 1
                    bad = sorted(k for k in set(lin[1]) | set(win[1]) if lin[1].get(k) != win[1].get(k))
                    diffs.append((str(src.relative_to(corpus) if corpus in src.parents else src.name),
                                  label, extra, lin[0], win[0], bad, lin[2][:200], win[2][:200]))
                row[3] += sum(len(v) for v in lin[1].values())
    print(f"{'source format':<16} {'target':<16} {'same':>5} {'diff':>5} {'both fail':>9} {'bytes':>12}")
    for (fmt, label), (same, diff, failed, size) in sorted(table.items()):
        print(f"{fmt:<16} {label:<16} {same:>5} {diff:>5} {failed:>9} {size:>12}")
    total_same = sum(r[0] for r in table.values())
    print(f"sources: {sum(len(v) for v in chosen.values())} "
          f"({', '.join(f'{k} {len(v)}' for k, v in sorted(chosen.items()))}); "
          f"conversions: {n}, byte-identical: {total_same}, different: {len(diffs)}")
    for d in diffs:
        print("DIFF", *d)
    return not diffs


def make_pak(path, entries):
    """A Quake PAK (`PACK`, directory of 64-byte entries) holding `entries` {name: bytes}."""
    data = b""
    directory = b""
    ofs = 12
    for name, body in entries.items():
        directory += name.encode().ljust(56, b"\0") + struct.pack("<ii", ofs, len(body))
        data += body
        ofs += len(body)
    path.write_bytes(b"PACK" + struct.pack("<ii", 12 + len(data), len(directory)) + data + directory)


def windows_paths(runner, corpus, work):
    """Drive letters, backslashes, ARCHIVE:PATH after a drive letter, a non-ASCII name, a long
    path and console output, under Wine, each checked against the Linux build."""
    model = sorted((corpus / "quake_mdl").rglob("*.mdl"), key=lambda p: p.stat().st_size)[0]
    body = model.read_bytes()
    prefix = Path(runner.env["WINEPREFIX"]) / "drive_c"
    cdir = prefix / "retromodel-paths"
    shutil.rmtree(cdir, ignore_errors=True)
    cdir.mkdir(parents=True)
    zdir = work / "paths"
    zdir.mkdir()
    for d in (cdir, zdir):
        (d / "player.mdl").write_bytes(body)
        make_pak(d / "pak0.pak", {"progs/player.mdl": body})
        (d / "modèle_ü.mdl").write_bytes(body)
    # A file named C in the current folder: `C:\...` must still be a drive, not an archive.
    (work / "C").write_bytes(b"PACK")
    long_dir = cdir
    while len(str(long_dir).split("drive_c", 1)[1]) < 270:
        long_dir = long_dir / ("d" * 40)
    long_dir.mkdir(parents=True)
    (long_dir / "long.mdl").write_bytes(body)
    long_win = "C:" + str(long_dir).split("drive_c", 1)[1].replace("/", "\\") + "\\long.mdl"
    zwin = "Z:" + str(zdir).replace("/", "\\")

    (zdir / "long.mdl").write_bytes(body)
    want_glb = work / "want.glb"
    runner.run("linux", ["convert", str(zdir / "player.mdl"), str(want_glb)], work)
    cases = [
        ("C: drive, backslashes", r"C:\retromodel-paths\player.mdl", "player.mdl"),
        ("Z: drive (Wine's /)", zwin + "\\player.mdl", "player.mdl"),
        ("forward slashes on Z:", zwin.replace("\\", "/") + "/player.mdl", "player.mdl"),
        ("C:\\...\\pak0.pak:progs/player.mdl", r"C:\retromodel-paths\pak0.pak:progs/player.mdl", "player.mdl"),
        ("Z:\\...\\pak0.pak:progs/player.mdl", zwin + r"\pak0.pak:progs/player.mdl", "player.mdl"),
        ("non-ASCII name modèle_ü.mdl", r"C:\retromodel-paths\modèle_ü.mdl", "modèle_ü.mdl"),
        (f"long path ({len(long_win)} chars)", long_win, "long.mdl"),
    ]
    ok = True
    print(f"{'windows path case':<44} {'exit':>4}  same info text as Linux")
    for name, path, base in cases:
        p = runner.run("windows", ["info", path], work)
        got = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
        want = runner.run("linux", ["info", str(zdir / base)], work).stdout.decode()
        # info names the file as given on its first line (checked: the path, in UTF-8);
        # the rest, the file name included, must be the same text as Linux's.
        first = got.split("\n", 1)[0]
        same = (
            p.returncode == 0
            and first.startswith(path + ":")
            and got.split("\n", 1)[1:] == want.split("\n", 1)[1:]
        )
        ok &= same
        print(f"{name:<44} {p.returncode:>4}  {'yes' if same else 'NO: ' + message(p)[:200]}")
    # Writing: a non-ASCII output name, and into the long path, byte-identical to Linux.
    for name, out in (
        ("write C:\\...\\sortie_é.glb", r"C:\retromodel-paths\sortie_é.glb"),
        ("write into the long path", long_win[: -len("long.mdl")] + "out.glb"),
    ):
        p = runner.run("windows", ["convert", r"C:\retromodel-paths\modèle_ü.mdl", out, "--force"], work)
        host = prefix / out[3:].replace("\\", "/")
        same = p.returncode == 0 and host.is_file() and host.read_bytes() == want_glb.read_bytes()
        ok &= same
        print(f"{name:<44} {p.returncode:>4}  {'yes' if same else 'NO: ' + message(p)[:200]}")
    shutil.rmtree(cdir, ignore_errors=True)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--linux", required=True)
    ap.add_argument("--windows", required=True)
    ap.add_argument("--per-format", type=int, default=5)
    ap.add_argument("--skip-parity", action="store_true")
    args = ap.parse_args()
    corpus = Path(os.environ.get("RETROMODEL_CORPUS", "shared/corpus")).resolve()
    if not corpus.is_dir():
        print(f"wine_parity: no corpus at {corpus} (set RETROMODEL_CORPUS)")
        return 1
    runner = Runner(args.linux, args.windows)
    t = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="wine-parity-") as tmp:
            work = Path(tmp)
            ok = True
            if not args.skip_parity:
                ok &= parity(runner, corpus, args.per_format, work)
            ok &= windows_paths(runner, corpus, work)
    finally:
        runner.close()
    print(f"wine_parity: {'ok' if ok else 'FAILED'} in {time.monotonic() - t:.0f} s "
          f"(Wine {runner.wine_time:.0f} s, Linux {runner.linux_time:.0f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
