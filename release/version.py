#!/usr/bin/env python3
"""The release version, from its one place: the workspace Cargo.toml's [workspace.package].

    python3 release/version.py          # prints it (0.1.0)
    python3 release/version.py --check  # exit 1 if anything else names another version

Every crate says `version.workspace = true`; the Python package's version is `dynamic`
(maturin takes the crate's); blender/build.py writes this version into the extension's
manifest. --check verifies those three, and that the manifest in the source tree says the
same (so an unbuilt checkout is not misleading).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def version():
    """The [workspace.package] version of the workspace Cargo.toml."""
    text = open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8").read()
    section = re.search(r"^\[workspace\.package\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    m = re.search(r'^version\s*=\s*"([^"]+)"', section.group(1), re.M)
    return m.group(1)


def check():
    """A list of problems: places that name a version other than the workspace's."""
    v, problems = version(), []
    crates = os.path.join(ROOT, "crates")
    for c in sorted(os.listdir(crates)):
        toml = os.path.join(crates, c, "Cargo.toml")
        if os.path.isfile(toml):
            t = open(toml, encoding="utf-8").read()
            pkg = re.search(r"^\[package\]\n(.*?)(?=^\[|\Z)", t, re.M | re.S).group(1)
            if not re.search(r"^version\.workspace\s*=\s*true", pkg, re.M):
                problems.append("%s: version is not `version.workspace = true`" % toml)
    py = open(os.path.join(crates, "retromodel-py", "pyproject.toml"), encoding="utf-8").read()
    if not re.search(r'^dynamic\s*=\s*\[[^\]]*"version"', py, re.M) or re.search(r"^version\s*=", py, re.M):
        problems.append("crates/retromodel-py/pyproject.toml: the version must be dynamic (from Cargo)")
    man = open(os.path.join(ROOT, "blender", "retromodel_blender", "blender_manifest.toml"), encoding="utf-8").read()
    mv = re.search(r'^version\s*=\s*"([^"]+)"', man, re.M).group(1)
    if mv != v:
        problems.append("blender_manifest.toml: version %s, the workspace's is %s" % (mv, v))
    return problems


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        p = check()
        for line in p:
            print(line, file=sys.stderr)
        if p:
            sys.exit(1)
        print("version %s: Cargo.toml, every crate, pyproject.toml and the Blender manifest agree" % version())
    else:
        print(version())
