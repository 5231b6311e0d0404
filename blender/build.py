#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Build the installable Blender extension: target/blender/retromodel-<version>.zip.

    python blender/build.py [WHEEL...] [--platform P...] [--out DIR] [--no-wheel]

WHEEL: the retromodel wheel to bundle (default: the newest target/wheels/retromodel-*.whl,
as `maturin build --release -m crates/retromodel-py/Cargo.toml` writes it).  The wheel
goes into the zip's wheels/ folder and its name into the manifest's `wheels` list, which
Blender installs when it installs the extension.  --no-wheel builds a zip without it
(for trying the extension against a retromodel installed some other way).

--platform (repeatable: linux-x64, linux-arm64, windows-x64, macos-arm64, macos-x64) writes
the manifest's `platforms` list and names the zip retromodel-<version>-<platform>.zip, as
Blender's `extension build --split-platforms` does; release/build.sh makes one per platform
with that platform's wheel.  The version is the workspace Cargo.toml's (release/version.py).
"""
import argparse
import glob
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "blender", "retromodel_blender")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("wheel", nargs="*")
    ap.add_argument("--platform", action="append", default=[])
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "blender"))
    ap.add_argument("--no-wheel", action="store_true")
    a = ap.parse_args()
    wheels = []
    if not a.no_wheel:
        wheels = a.wheel or [newest(os.path.join(ROOT, "target", "wheels", "retromodel-*.whl"))]
        for wheel in wheels:
            if not wheel or not os.path.isfile(wheel):
                sys.exit("no retromodel wheel: build one with `maturin build --release -m "
                         "crates/retromodel-py/Cargo.toml` or pass its path (or --no-wheel)")
    manifest = open(os.path.join(SRC, "blender_manifest.toml"), encoding="utf-8").read()
    sys.path.insert(0, os.path.join(ROOT, "release"))
    import version as workspace_version

    version = workspace_version.version()
    manifest, n = re.subn(r'^version\s*=\s*"[^"]*"', 'version = "%s"' % version, manifest, count=1, flags=re.M)
    assert n == 1, "the manifest has no version line"
    listed = ", ".join('"./wheels/%s"' % os.path.basename(w) for w in wheels)
    manifest, n = re.subn(r"^wheels\s*=\s*\[[^\]]*\]", "wheels = [%s]" % listed, manifest, flags=re.M)
    assert n == 1, "the manifest has no wheels = [...] line"
    if a.platform:
        # top-level keys go before the first [table]
        platforms = "platforms = [%s]\n" % ", ".join('"%s"' % p for p in a.platform)
        manifest = re.sub(r"^\[permissions\]", platforms + "\n[permissions]", manifest, count=1, flags=re.M)
    os.makedirs(a.out, exist_ok=True)
    suffix = "-" + "-".join(a.platform) if a.platform else ""
    out = os.path.join(a.out, "retromodel-%s%s.zip" % (version, suffix))
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        # Blender's extension zips hold the manifest at the top level
        for dirpath, dirnames, filenames in os.walk(SRC):
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "wheels"))
            for f in sorted(filenames):
                if f.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, SRC).replace(os.sep, "/")
                if rel == "blender_manifest.toml":
                    z.writestr(rel, manifest)
                else:
                    z.write(path, rel)
        for wheel in wheels:
            z.write(wheel, "wheels/" + os.path.basename(wheel))
    os.replace(tmp, out)
    print(out)


def newest(pattern):
    files = glob.glob(pattern)
    return max(files, key=os.path.getmtime) if files else None


if __name__ == "__main__":
    main()
