#!/usr/bin/env python3
"""One way in and out (issue 39): the command line, the Python package and the web module
write the same bytes.

For each readable format, PER corpus files (the first that load, in path order; glTF and OBJ
files made from corpus models where the corpus has too few) are written to every writable
target (`web_export --list`: the registry's writers) by three writers:

- the CLI: `retromodel convert IN OUT [--mdl VARIANT] [options]`;
- the Python package: `retromodel.load(IN, ...).save(OUT, ...)`;
- the web module: `web_export` (crates/retromodel-web/examples), which adds the model's game
  folder to a `Workspace` as the page does with a dropped folder, opens the model and exports.

Every file each writer writes (side files included) must be byte-identical, and a target one
writer refuses must be refused by all three. Cases: default options for every input; then, on
the first OPTS inputs of each format, `--scale 2`, `--fps 20`, `--quantize` (glTF targets),
`prefer_md5` (the pairs the layout case wrote, the corpus's own, a classic model without one) and the
re-release layout (skeletal inputs to .md2 and .mdl).

A format the corpus has too few files of (ASCII WMP) is topped up with the registry's own
fixtures, written by `fuzz_seeds` (crates/retromodel/examples) when --seeds names it.

usage: parity.py RETROMODEL WEB_EXPORT CORPUS OUT [--per N] [--opts M] [--seeds FUZZ_SEEDS]
(the `retromodel` Python package must be importable)
"""

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import time
import warnings

import retromodel

SKIP_DIRS = ("edge_cases", "invalid", "malformed", "fuzz")
MAX_BYTES = 4_000_000


def targets(web_export):
    out = subprocess.run([web_export, "--list"], capture_output=True, text=True, check=True)
    return [t for t in out.stdout.split() if t]


def ext_of(target):
    return target.split(":")[0]


def candidates(corpus):
    read = set(retromodel.formats()["read"]) - {"md5anim", "md5camera"}
    for root, dirs, files in os.walk(corpus):
        dirs[:] = sorted(d for d in dirs if not any(s in d for s in SKIP_DIRS))
        for f in sorted(files):
            ext = f.rsplit(".", 1)[-1].lower() if "." in f else ""
            p = os.path.join(root, f)
            if ext in read and os.path.getsize(p) <= MAX_BYTES:
                yield p


def quiet_load(path, **options):
    """`retromodel.load` with its warnings silenced (they are not what is compared)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return retromodel.load(path, **options)


def format_of(path):
    """The format `retromodel.load` reads `path` as, or None when it does not load."""
    try:
        return quiet_load(path).format
    except Exception:
        return None


def pick_inputs(corpus, per):
    """{format: [path, ...]}, up to `per` files of each format that load."""
    by_format = {}
    for p in candidates(corpus):
        fmt = format_of(p)
        if fmt is None:
            continue
        lst = by_format.setdefault(fmt, [])
        if len(lst) < per:
            lst.append(p)
    return by_format


def web_root(path, corpus):
    """The folder a user would drop: the game folder of the corpus source the model is in
    (corpus/FORMAT/SOURCE), or its model's grandparent when that tree is large."""
    rel = os.path.relpath(path, corpus).split(os.sep)
    source = os.path.join(corpus, *rel[:2]) if len(rel) > 2 else os.path.dirname(path)
    total, count = 0, 0
    for root, _, files in os.walk(source):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
            count += 1
    if total > 60_000_000 or count > 3000:
        source = os.path.dirname(os.path.dirname(path))
    return source


def run_cli(binary, src, out, target, case):
    ext = ext_of(target)
    cmd = [binary, "convert", src, out, "--force"]
    if ":" in target:
        cmd += ["--mdl", target.split(":")[1]]
    cmd += case["cli"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip().splitlines() or ["?"])[-1]


def run_py(model, out, target, case):
    so = dict(case["save"])
    if ":" in target:
        so["mdl"] = target.split(":")[1]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.save(out, force=True, **so)
        return None
    except Exception as e:  # the writer refused
        return str(e)


def tree(d):
    out = {}
    if not os.path.isdir(d):
        return out
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, d)] = p
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("web_export")
    ap.add_argument("corpus")
    ap.add_argument("out")
    ap.add_argument("--per", type=int, default=5)
    ap.add_argument("--opts", type=int, default=2)
    ap.add_argument("--seeds", help="the fuzz_seeds example: registry fixtures for formats the corpus lacks")
    a = ap.parse_args()
    start = time.time()
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    all_targets = targets(a.web_export)
    inputs = pick_inputs(a.corpus, a.per)
    # glTF and OBJ inputs: those of the corpus, topped up with files made from corpus models.
    gen = os.path.join(a.out, "inputs")
    seeds = [p for f in ("quake-mdl", "md2", "md5mesh", "iqm", "md3") for p in inputs.get(f, [])]
    for fmt, ext in (("gltf", "glb"), ("gltf", "gltf"), ("obj", "obj")):
        have = inputs.setdefault(fmt, [])
        for i, s in enumerate(seeds):
            if len(have) >= a.per:
                break
            d = os.path.join(gen, f"{ext}{i}")
            os.makedirs(d, exist_ok=True)
            o = os.path.join(d, os.path.splitext(os.path.basename(s))[0] + "." + ext)
            if subprocess.run([a.binary, "convert", s, o, "--force"], capture_output=True).returncode == 0:
                have.append(o)
    if a.seeds and any(len(v) < a.per for v in inputs.values()):
        seeds_dir = os.path.join(a.out, "fixtures")
        subprocess.run([a.seeds, seeds_dir], check=True, capture_output=True)
        for root, _, files in sorted(os.walk(seeds_dir)):
            if os.path.basename(root).startswith(("import_", "archive", "image_")):
                continue
            for f in sorted(files):
                p = os.path.join(root, f)
                fmt = format_of(p)
                if fmt in inputs and len(inputs[fmt]) < a.per:
                    inputs[fmt].append(p)
    short = [f for f, lst in inputs.items() if len(lst) < a.per]
    print(f"parity: {sum(len(v) for v in inputs.values())} inputs, {len(inputs)} formats "
          f"({', '.join(f'{k} {len(v)}' for k, v in sorted(inputs.items()))}); "
          f"{len(all_targets)} targets: {' '.join(all_targets)}")
    if short:
        print(f"parity: fewer than {a.per} files of: {', '.join(short)}")
        return 1
    glb_targets = [t for t in all_targets if ext_of(t) in ("glb", "gltf")]
    classic = [t for t in all_targets if t in ("md2", "mdl:quake")]
    skeletal = {"md5mesh", "iqm", "gltf"}
    pairs = []
    for root, _, files in os.walk(a.corpus):
        for f in files:
            if f.endswith(".md2") and os.path.isfile(os.path.join(root, "md5", f[:-4] + ".md5mesh")):
                pairs.append(os.path.join(root, f))
    cases = [("default", {"cli": [], "load": {}, "save": {}, "web": []}, None, all_targets)]
    cases.append(("scale", {"cli": ["--scale", "2"], "load": {}, "save": {"scale": 2.0}, "web": ["--scale", "2"]}, None, all_targets))
    cases.append(("fps", {"cli": ["--fps", "20"], "load": {"fps": 20.0}, "save": {"fps": 20.0}, "web": ["--fps", "20"]}, None, all_targets))
    cases.append(("quantize", {"cli": ["--quantize"], "load": {}, "save": {"quantize": True}, "web": ["--quantize"]}, None, glb_targets))
    cases.append(("rerelease", {"cli": ["--rerelease"], "load": {}, "save": {"rerelease": True}, "web": ["--rerelease"]},
                  [p for f in sorted(skeletal) for p in inputs.get(f, [])[: a.opts]], classic))
    # The re-release pairs the layout case writes (MD2 or MDL with its MD5 beside it), then the
    # corpus's own, and a classic model without one (the warning path), shown with prefer_md5.
    cases.append(("prefer_md5", {"cli": ["--prefer", "md5"], "load": {"prefer_md5": True}, "save": {}, "web": ["--prefer-md5"]},
                  "pairs", all_targets))
    compared = identical = refused = 0
    bad = []
    for name, case, only, tlist in cases:
        if only is None:
            chosen = [p for f in sorted(inputs) for p in (inputs[f] if name == "default" else inputs[f][: a.opts])]
        elif only == "pairs":
            written = []
            for root, _, files in os.walk(os.path.join(a.out, "rerelease")):
                if os.sep + "cli" + os.sep not in root + os.sep:
                    continue
                for f in sorted(files):
                    stem, ext = os.path.splitext(f)
                    mesh = os.path.join(root, "md5", stem + ".md5mesh") if ext == ".md2" else os.path.join(root, stem + ".md5mesh")
                    if ext in (".md2", ".mdl") and os.path.isfile(mesh):
                        written.append(os.path.join(root, f))
            chosen = sorted(written)[: 2 * a.opts] + sorted(pairs)[: a.opts] + inputs.get("md2", [])[:1]
            if not written:
                bad.append("prefer_md5: the re-release layout case wrote no pair to show")
        else:
            chosen = only
        for n, src in enumerate(chosen):
            stem = os.path.splitext(os.path.basename(src))[0]
            base = os.path.join(a.out, name, str(n))
            errors = {}
            try:
                model = quiet_load(src, **case["load"])
            except Exception as e:
                bad.append(f"{name} {src}: Python cannot load it: {e}")
                continue
            for t in tlist:
                tid = t.replace(":", "_")
                errors[("cli", t)] = run_cli(a.binary, src, os.path.join(base, "cli", tid, f"{stem}.{ext_of(t)}"), t, case)
                errors[("py", t)] = run_py(model, os.path.join(base, "py", tid, f"{stem}.{ext_of(t)}"), t, case)
            root = web_root(src, a.corpus) if src.startswith(os.path.abspath(a.corpus)) or src.startswith(a.corpus) else os.path.dirname(src)
            rel = os.path.relpath(src, root).replace(os.sep, "/")
            r = subprocess.run([a.web_export, root, rel, os.path.join(base, "web")] + tlist + case["web"], capture_output=True, text=True)
            if r.returncode != 0:
                bad.append(f"{name} {src}: the web module cannot open it: {r.stderr.strip()}")
                continue
            for t in tlist:
                tid = t.replace(":", "_")
                web_dir = os.path.join(base, "web", tid)
                web_err = os.path.join(web_dir, "ERROR")
                errors[("web", t)] = open(web_err).read() if os.path.isfile(web_err) else None
                failed = [w for w in ("cli", "py", "web") if errors[(w, t)] is not None]
                if failed:
                    if len(failed) == 3:
                        refused += 1
                    else:
                        bad.append(f"{name} {src} -> {t}: refused only by {', '.join(failed)}: "
                                   + "; ".join(f"{w}: {errors[(w, t)]}" for w in failed))
                    continue
                trees = {w: tree(os.path.join(base, w, tid)) for w in ("cli", "py", "web")}
                names = set(trees["cli"])
                if set(trees["py"]) != names or set(trees["web"]) != names:
                    bad.append(f"{name} {src} -> {t}: different files: " +
                               "; ".join(f"{w} {sorted(trees[w])}" for w in trees))
                    continue
                compared += 1
                differ = [f"{w} {f}" for f in sorted(names) for w in ("py", "web")
                          if not filecmp.cmp(trees["cli"][f], trees[w][f], shallow=False)]
                if differ:
                    bad.append(f"{name} {src} -> {t}: bytes differ from the CLI's: {', '.join(differ)}")
                else:
                    identical += 1
    print(f"parity: {compared} conversions written by all three, {identical} byte-identical; "
          f"{refused} refused by all three; {len(bad)} disagreements; {time.time() - start:.0f} s")
    for b in bad[:60]:
        print("  " + b)
    if len(bad) > 60:
        print(f"  ... and {len(bad) - 60} more")
    return 1 if bad or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
