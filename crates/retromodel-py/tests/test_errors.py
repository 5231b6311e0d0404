"""Bad input raises `FormatError` (a `ValueError`) with the command line's message, and the
inputs that once broke the library load in bounded memory."""

import json
import pathlib
import subprocess
import sys
import warnings

import pytest

import retromodel

from conftest import ROOT, info_json

REGRESSIONS = sorted(
    p
    for d in (ROOT / "crates/retromodel/tests/regressions", ROOT / "crates/retromodel/tests/fuzz_inputs",
              ROOT.parent / "shared" / "fuzz-findings")
    if d.is_dir()
    for p in d.iterdir()
    if p.is_file() and p.suffix != ".md"
)


def test_format_error_is_a_value_error_with_where():
    bad = b"IDPO" + (6).to_bytes(4, "little") + b"\0" * 10
    with pytest.raises(retromodel.FormatError) as e:
        retromodel.loads(bad, "short.mdl")
    assert isinstance(e.value, ValueError)
    assert e.value.format == "quake-mdl"
    assert e.value.offset is not None and e.value.offset > 0
    assert str(e.value).startswith("quake-mdl: ")
    assert e.value.line is None


def test_text_errors_carry_line_and_column():
    bad = b"MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\njoints {\n  \"origin\" -1 ( 0 0 0 ) ( 0 0 zero )\n}\n"
    with pytest.raises(retromodel.FormatError) as e:
        retromodel.loads(bad, "bad.md5mesh")
    assert e.value.line == 6, str(e.value)
    assert e.value.column is not None
    assert f"{e.value.line}:{e.value.column}" in str(e.value)


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        retromodel.load(tmp_path / "nothing.mdl")


def test_not_a_model():
    with pytest.raises(retromodel.FormatError) as e:
        retromodel.loads(b"hello, this is text and not a model", "x.txt")
    assert str(e.value) == 'unknown: not a known model format (magic "hell") at offset 0x0'
    assert e.value.offset == 0


def damaged(corpus):
    """Truncations and bit flips of a few corpus files of each binary family."""
    out = []
    for family, ext in [("quake_mdl", ".mdl"), ("md2", ".md2"), ("md3", ".md3"), ("3dgs_mdl", ".mdl")]:
        files = sorted((corpus / family).rglob("*" + ext))[:3]
        for f in files:
            data = f.read_bytes()
            for cut in (7, 60, len(data) // 3, len(data) - 1):
                out.append((f"{f.name}.cut{cut}{ext}", data[:cut]))
            for pos in (8, 12, 40, 76):
                if pos < len(data):
                    flipped = bytearray(data)
                    flipped[pos] ^= 0x80
                    out.append((f"{f.name}.flip{pos}{ext}", bytes(flipped)))
    return out


def test_damaged_files_fail_with_the_command_lines_message(corpus, cli, tmp_path):
    cases = damaged(corpus)
    assert len(cases) > 40
    paths = []
    for name, data in cases:
        p = tmp_path / name
        p.write_bytes(data)
        paths.append(p)
    infos = info_json(cli, paths)
    refused = 0
    for p in paths:
        want = infos[str(p)]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", retromodel.RetromodelWarning)
                m = retromodel.load(p)
        except retromodel.FormatError as e:
            assert want.get("error") == str(e), p.name
            refused += 1
            continue
        assert "error" not in want, f"{p.name}: the command line refused it: {want['error']}"
        assert m.info() == want
    assert refused > 20


MEMORY_CHECK = r"""
import resource, sys, warnings
import retromodel
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
warnings.simplefilter("ignore")
outcomes = []
for path in sys.argv[1:]:
    try:
        m = retromodel.load(path)
        for mesh in m.meshes:
            mesh.all_positions()
        m.to_glb()
        outcomes.append("ok")
    except (retromodel.FormatError, OSError, ValueError) as e:
        outcomes.append(type(e).__name__)
print(outcomes)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_fuzz_findings_load_in_bounded_memory():
    assert REGRESSIONS, "no regression inputs found"
    p = subprocess.run(
        [sys.executable, "-c", MEMORY_CHECK, *map(str, REGRESSIONS)],
        capture_output=True, text=True, timeout=600,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    maxrss_kib = int(p.stdout.split()[-1])
    print(f"{len(REGRESSIONS)} inputs, peak RSS {maxrss_kib / 1024:.0f} MiB")
    assert maxrss_kib < 1536 * 1024
