#!/usr/bin/env python3
"""Checks the artifacts release/build.sh wrote (issue 40's acceptance criterion 1).

    python3 release/check.py OUT              # every check on what OUT holds
    python3 release/check.py --blender OUT    # the Blender zips only
    python3 release/check.py --wheels OUT     # the wheels only
    python3 release/check.py --cli --sums OUT # the CLIs and SHA256SUMS (flags combine;
                                              # build.sh passes those of RELEASE_ONLY)

- Linux CLI: no glibc symbol newer than 2.17 (`objdump -T`), and it runs (`--version`);
- Windows CLI zip: retromodel.exe (PE32+, x86-64), the licences and README.txt;
- macOS CLI: Mach-O of the architecture its name says (or both, universal);
- wheels: `auditwheel show` (the manylinux tag in the name is the one auditwheel finds),
  `abi3audit` (only the limited API), the .pyd imports only python3.dll and system DLLs
  (`x86_64-w64-mingw32-objdump -p`), the macOS .so is Mach-O of the tagged architectures
  with a minimum macOS (LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX) equal to the tag's;
- Blender zips: the manifest names its platforms and lists the wheel it holds, whose tag
  serves exactly those platforms; the version is the workspace's;
- SHA256SUMS: `sha256sum -c`.
Each line printed is one check: "ok ..." or "FAIL ..."; exit status 1 if any failed.
Mach-O and PE headers are read here (a few lines of struct), so no macOS tool is needed.
"""
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "release"))
import blender_zips  # noqa: E402
import version as workspace_version  # noqa: E402

VENV = os.path.join(ROOT, "target", "venv-release", "bin")
FAILED = []

# DLLs every Windows has (kernel, CRT, Winsock, crypto RNG): what a .pyd may import besides
# python3.dll (the stable ABI's DLL; python3XX.dll would tie it to one Python).
SYSTEM_DLLS = {
    "kernel32.dll", "ntdll.dll", "advapi32.dll", "bcrypt.dll", "bcryptprimitives.dll", "ws2_32.dll",
    "userenv.dll", "msvcrt.dll", "ucrtbase.dll", "shell32.dll", "ole32.dll", "oleaut32.dll",
    "user32.dll", "secur32.dll", "crypt32.dll", "synchronization.dll", "vcruntime140.dll",
}

CPU = {0x01000007: "x86_64", 0x0100000C: "arm64"}


def report(ok, what):
    """Prints one check's line and remembers a failure."""
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILED.append(what)


def macho(data):
    """[(arch, minos "X.Y" or None)] of a Mach-O file or of each slice of a universal one."""
    magic = struct.unpack_from(">I", data)[0]
    if magic in (0xCAFEBABE, 0xBEBAFECA):
        n = struct.unpack_from(">I", data, 4)[0]
        out = []
        for i in range(n):
            _, _, off, size, _ = struct.unpack_from(">iiIII", data, 8 + 20 * i)
            out += macho(data[off:off + size])
        return out
    if struct.unpack_from("<I", data)[0] != 0xFEEDFACF:
        return []
    cpu, _, _, ncmds, _ = struct.unpack_from("<iiIII", data, 4)
    minos, off = None, 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == 0x32:  # LC_BUILD_VERSION: platform, minos, sdk
            v = struct.unpack_from("<I", data, off + 12)[0]
            minos = "%d.%d" % (v >> 16, (v >> 8) & 0xFF)
        elif cmd == 0x24:  # LC_VERSION_MIN_MACOSX: version, sdk
            v = struct.unpack_from("<I", data, off + 8)[0]
            minos = "%d.%d" % (v >> 16, (v >> 8) & 0xFF)
        off += size
    return [(CPU.get(cpu & 0xFFFFFFFF, hex(cpu)), minos)]


def pe_machine(data):
    """The COFF machine of a PE file ("x86_64" for 0x8664), or None if it is not PE."""
    if data[:2] != b"MZ":
        return None
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        return None
    return {0x8664: "x86_64", 0xAA64: "arm64"}.get(struct.unpack_from("<H", data, pe + 4)[0], "other")


def glibc_max(path):
    """The newest GLIBC_x.y symbol version a binary needs, as a tuple (or () if none)."""
    out = subprocess.run(["objdump", "-T", path], capture_output=True, text=True, check=True).stdout
    vs = [tuple(int(p) for p in m.split(".")) for m in re.findall(r"GLIBC_([0-9.]+)", out)]
    return max(vs) if vs else ()


def wine_run(name, exe):
    """The Windows CLI under Wine: --version, then `sample` and `convert` to glTF. Wine 8
    lacks ProcessPrng, which Rust's std calls: the stand-in bcryptprimitives.dll of
    release/wine/ goes beside the program (only here, never into the zip)."""
    src = os.path.join(ROOT, "release", "wine", "processprng.c")
    if not shutil.which("wine") or not os.path.isfile(src):
        print("skip %s under Wine: %s" % (name, "no wine" if not shutil.which("wine") else "no release/wine/processprng.c"))
        return
    with tempfile.TemporaryDirectory() as tmp:
        open(os.path.join(tmp, "retromodel.exe"), "wb").write(exe)
        subprocess.run(["x86_64-w64-mingw32-gcc", "-O2", "-shared", "-o", os.path.join(tmp, "bcryptprimitives.dll"),
                        src, src[:-2] + ".def", "-ladvapi32"], check=True)
        env = dict(os.environ, WINEDEBUG="-all", WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree,mshtml=")
        outs = []
        for args in (["--version"], ["sample", "s.mdl", "--force"], ["convert", "s.mdl", "s.glb", "--force"]):
            r = subprocess.run(["wine", "retromodel.exe"] + args, cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
            outs.append(r.returncode)
            if r.returncode:
                break
        glb = os.path.join(tmp, "s.glb")
        ok = outs == [0, 0, 0] and os.path.isfile(glb) and open(glb, "rb").read(4) == b"glTF"
        report(ok, "%s: retromodel.exe runs under Wine (--version, sample, convert to .glb): exit %s" % (name, outs))


def check_cli(out):
    """The CLI archives: Linux (glibc), Windows (PE, zip contents), macOS (Mach-O)."""
    for tgz in sorted(glob.glob(os.path.join(out, "retromodel-*-linux-*.tar.gz"))):
        with tempfile.TemporaryDirectory() as tmp, tarfile.open(tgz) as t:
            t.extractall(tmp, filter="data")
            exe = glob.glob(os.path.join(tmp, "*", "retromodel"))
            report(len(exe) == 1, "%s holds retromodel" % os.path.basename(tgz))
            if not exe:
                continue
            g = glibc_max(exe[0])
            report(g <= (2, 17), "%s: newest glibc symbol %s (<= 2.17)" % (os.path.basename(tgz), ".".join(map(str, g)) or "none"))
            if "x86_64" in tgz:
                r = subprocess.run([exe[0], "--version"], capture_output=True, text=True)
                report(r.returncode == 0, "%s runs here: %s" % (os.path.basename(tgz), r.stdout.strip()))
    for z in sorted(glob.glob(os.path.join(out, "retromodel-*-windows-x86_64.zip"))):
        with zipfile.ZipFile(z) as f:
            names = {n.split("/", 1)[-1] for n in f.namelist()}
            want = {"retromodel.exe", "LICENSE-MIT", "LICENSE-APACHE", "README.txt"}
            report(want <= names, "%s holds %s" % (os.path.basename(z), ", ".join(sorted(want))))
            exe = [n for n in f.namelist() if n.endswith("retromodel.exe")]
            if exe:
                data = f.read(exe[0])
                report(pe_machine(data) == "x86_64", "%s: retromodel.exe is PE32+ x86-64" % os.path.basename(z))
                wine_run(os.path.basename(z), data)

    for tgz in sorted(glob.glob(os.path.join(out, "retromodel-*-macos-*.tar.gz"))):
        arch = re.search(r"macos-(\w+)\.tar\.gz$", tgz).group(1)
        want = {"arm64"} if arch == "arm64" else {"x86_64"} if arch == "x86_64" else {"arm64", "x86_64"}
        with tarfile.open(tgz) as t:
            m = [x for x in t.getmembers() if x.name.endswith("/retromodel")]
            got = {a for a, _ in macho(t.extractfile(m[0]).read())} if m else set()
        report(got == want, "%s: Mach-O %s" % (os.path.basename(tgz), "+".join(sorted(got)) or "not Mach-O"))


def wheel_platform_tags(name):
    """The platform tags of a wheel's file name (split on '.')."""
    return name[: -len(".whl")].split("-")[-1].split(".")


def check_wheels(out):
    """Every retromodel abi3 wheel in OUT with the tools each platform's wheel needs."""
    wheels = sorted(glob.glob(os.path.join(out, "retromodel-*.whl")))
    report(bool(wheels), "wheels: %d" % len(wheels))
    for w in wheels:
        name = os.path.basename(w)
        report("-cp311-abi3-" in name, "%s: abi3 for CPython >= 3.11" % name)
        r = subprocess.run([os.path.join(VENV, "abi3audit"), "--strict", "--report", w], capture_output=True, text=True)
        report(r.returncode == 0, "%s: abi3audit --strict%s" % (name, "" if r.returncode == 0 else "\n" + r.stdout + r.stderr))
        tags = wheel_platform_tags(name)
        with zipfile.ZipFile(w) as z:
            libs = [n for n in z.namelist() if re.search(r"_native[^/]*\.(so|pyd)$", n)]
            report(len(libs) == 1, "%s: one extension module (%s)" % (name, ", ".join(libs)))
            if not libs:
                continue
            data = z.read(libs[0])
        if any("linux" in t for t in tags):
            r = subprocess.run([os.path.join(VENV, "auditwheel"), "show", w], capture_output=True, text=True)
            text = " ".join(r.stdout.split())
            m = re.search(r'consistent with the following platform tag: "([^"]+)"', text)
            found = m.group(1) if m else None
            report(found is not None and found in tags,
                   "%s: auditwheel show: %s" % (name, found or text[:300]))
        if "win_amd64" in tags:
            with tempfile.NamedTemporaryFile(suffix=".pyd") as f:
                f.write(data)
                f.flush()
                dump = subprocess.run(["x86_64-w64-mingw32-objdump", "-p", f.name], capture_output=True, text=True, check=True).stdout
            dlls = sorted({d.lower() for d in re.findall(r"DLL Name: (\S+)", dump)})
            bad = [d for d in dlls if d != "python3.dll" and d not in SYSTEM_DLLS and not d.startswith("api-ms-win-")]
            report("python3.dll" in dlls and not bad, "%s: the .pyd imports %s" % (name, ", ".join(dlls)))
            report(pe_machine(data) == "x86_64", "%s: the .pyd is PE32+ x86-64" % name)
        mac = [t for t in tags if t.startswith("macosx_")]
        if mac:
            want = {}
            for t in mac:
                mj, mn, arch = re.match(r"macosx_(\d+)_(\d+)_(\w+)$", t).groups()
                for a in (["arm64", "x86_64"] if arch == "universal2" else [arch]):
                    want.setdefault(a, "%s.%s" % (mj, mn))
            if len(mac) > 1:  # universal2 with per-arch tags: the per-arch minimum wins
                for t in mac:
                    mj, mn, arch = re.match(r"macosx_(\d+)_(\d+)_(\w+)$", t).groups()
                    if arch != "universal2":
                        want[arch] = "%s.%s" % (mj, mn)
            got = dict(macho(data))
            report(got == want, "%s: Mach-O %s, tag wants %s" % (
                name, ", ".join("%s minos %s" % kv for kv in sorted(got.items())) or "none",
                ", ".join("%s minos %s" % kv for kv in sorted(want.items()))))


def check_blender(out):
    """Each Blender zip names its platforms and holds the wheel that serves exactly them."""
    zips = sorted(glob.glob(os.path.join(out, "retromodel-*-*.zip")))
    zips = [z for z in zips if re.search(r"-(linux|windows|macos)-(x64|arm64)\.zip$", z)]
    report(bool(zips), "Blender zips: %d" % len(zips))
    v = workspace_version.version()
    for z in zips:
        name = os.path.basename(z)
        with zipfile.ZipFile(z) as f:
            man = f.read("blender_manifest.toml").decode()
            wheels = [n for n in f.namelist() if n.startswith("wheels/") and n.endswith(".whl")]
        plats = re.findall(r'"([^"]+)"', re.search(r"^platforms\s*=\s*\[(.*)\]", man, re.M).group(1)) \
            if re.search(r"^platforms\s*=", man, re.M) else []
        listed = re.findall(r'"\./(wheels/[^"]+)"', re.search(r"^wheels\s*=\s*\[(.*)\]", man, re.M).group(1))
        mv = re.search(r'^version\s*=\s*"([^"]+)"', man, re.M).group(1)
        report(mv == v, "%s: manifest version %s" % (name, mv))
        report(bool(plats) and name.endswith("-%s.zip" % "-".join(plats)), "%s: platforms = %s" % (name, plats))
        report(sorted(listed) == sorted(wheels) and len(wheels) == 1, "%s: holds and lists %s" % (name, wheels))
        for w in wheels:
            serves = blender_zips.blender_platforms(w)
            report(set(plats) <= set(serves), "%s: %s serves %s" % (name, os.path.basename(w), serves))


def check_sums(out):
    """SHA256SUMS lists every file beside it and verifies."""
    sums = os.path.join(out, "SHA256SUMS")
    if not os.path.isfile(sums):
        report(False, "SHA256SUMS exists")
        return
    listed = {line.split(None, 1)[1].strip().lstrip("*") for line in open(sums) if line.strip()}
    files = {f for f in os.listdir(out) if f != "SHA256SUMS" and os.path.isfile(os.path.join(out, f))}
    report(listed == files, "SHA256SUMS lists every file (%d)" % len(files))
    r = subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=out, capture_output=True, text=True)
    report(r.returncode == 0, "sha256sum -c SHA256SUMS" + ("" if r.returncode == 0 else ": " + r.stdout + r.stderr))


def main():
    args = sys.argv[1:]
    only = [a for a in args if a.startswith("--")]
    out = [a for a in args if not a.startswith("--")][0]
    if not only or "--cli" in only:
        check_cli(out)
    if not only or "--wheels" in only:
        check_wheels(out)
    if not only or "--blender" in only:
        check_blender(out)
    if not only or "--sums" in only:
        check_sums(out)
    if FAILED:
        print("%d check(s) failed" % len(FAILED))
        sys.exit(1)
    print("every check passed")


if __name__ == "__main__":
    main()
