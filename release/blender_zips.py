#!/usr/bin/env python3
"""One Blender extension zip per platform, each with that platform's retromodel wheel.

    python3 release/blender_zips.py WHEEL_DIR OUT_DIR

Takes the abi3 wheels in WHEEL_DIR, maps each wheel's platform tag to Blender's platform
names (linux-x64, linux-arm64, windows-x64, macos-arm64, macos-x64; a universal2 wheel
serves both macOS ones) and writes OUT_DIR/retromodel-<version>-<platform>.zip through
blender/build.py, which declares `platforms = [...]` in the manifest as Blender's
`extension build --split-platforms` does.
"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def blender_platforms(wheel):
    """Blender's platform names that a wheel (by its file name's platform tag) serves."""
    tag = os.path.basename(wheel)[: -len(".whl")].split("-")[-1]
    out = []
    for t in tag.split("."):
        if "linux" in t and t.endswith("x86_64"):
            out.append("linux-x64")
        elif "linux" in t and t.endswith("aarch64"):
            out.append("linux-arm64")
        elif t == "win_amd64":
            out.append("windows-x64")
        elif t.startswith("macosx_") and t.endswith("universal2"):
            out += ["macos-arm64", "macos-x64"]
        elif t.startswith("macosx_") and t.endswith("arm64"):
            out.append("macos-arm64")
        elif t.startswith("macosx_") and t.endswith("x86_64"):
            out.append("macos-x64")
    return sorted(set(out))


def main():
    wheel_dir, out = sys.argv[1:3]
    by_platform = {}
    for wheel in sorted(glob.glob(os.path.join(wheel_dir, "retromodel-*-abi3-*.whl"))):
        for p in blender_platforms(wheel):
            by_platform.setdefault(p, wheel)
    if not by_platform:
        sys.exit("no retromodel abi3 wheel in %s" % wheel_dir)
    for p, wheel in sorted(by_platform.items()):
        subprocess.run([sys.executable, os.path.join(ROOT, "blender", "build.py"), wheel,
                        "--platform", p, "--out", out], check=True)


if __name__ == "__main__":
    main()
