"""Criterion 1 of issue 27 on the corpus: `retromodel.load` agrees with `retromodel info
--json` on every corpus model file (the whole object: counts, clips, bounds, warnings), a
file the command line cannot read raises with its message, and positions of pose k equal
what `convert --frame k` writes to OBJ."""

import random
import warnings

import numpy as np
import pytest

import retromodel

from conftest import info_json, run_cli


def model_files(corpus):
    exts = set(retromodel.formats()["read"])
    return sorted(
        p for p in corpus.rglob("*") if p.is_file() and p.suffix.lower().lstrip(".") in exts
    )


def quiet_load(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", retromodel.RetromodelWarning)
        return retromodel.load(path, **kw)


def test_every_corpus_file_agrees_with_info_json(corpus, cli):
    files = model_files(corpus)
    assert len(files) > 300, f"only {len(files)} model files under {corpus}"
    infos = info_json(cli, files)
    loaded = failed = 0
    for f in files:
        want = infos[str(f)]
        try:
            m = quiet_load(f)
        except (retromodel.FormatError, OSError) as e:
            assert "error" in want, f"{f}: Python raised {e!r}, the command line read it"
            assert str(e) == want["error"], f"{f}: messages differ"
            failed += 1
            continue
        assert "error" not in want, f"{f}: the command line failed ({want['error']}), Python read it"
        got = m.info()
        assert got == want, f"{f}: info() differs from info --json"
        assert m.triangle_count == sum(len(x.triangles) for x in m.meshes)
        if m.skeleton is not None:
            assert len(m.skeleton) == want["joints"]
        loaded += 1
    print(f"{loaded} loaded, {failed} refused with the command line's message")
    assert loaded > 300


def obj_vertices(path):
    rows = [l.split()[1:4] for l in open(path, encoding="utf-8") if l.startswith("v ")]
    return np.array(rows, dtype=np.float64)


FAMILIES = ["quake_mdl", "md2", "md3", "3dgs_mdl", "md5", "assimp"]


@pytest.mark.parametrize("family", FAMILIES)
def test_pose_positions_equal_convert_frame_obj(corpus, cli, tmp_path, family):
    exts = {"quake_mdl": (".mdl",), "md2": (".md2",), "md3": (".md3",), "3dgs_mdl": (".mdl",),
            "md5": (".md5mesh",), "assimp": (".mdl", ".md2", ".md3")}[family]
    files = sorted(p for p in (corpus / family).rglob("*") if p.suffix.lower() in exts)
    rng = random.Random(27)
    rng.shuffle(files)
    checked = 0
    for f in files:
        try:
            # As `convert` reads it: a Cube 2 md5.cfg applied.
            m = quiet_load(f, model_config=True)
        except (retromodel.FormatError, OSError):
            continue
        if not m.meshes or m.vertex_count == 0:
            continue
        skeletal = m.skeleton is not None and not m.poses
        poses = [0] if skeletal else sorted({0, m.pose_count // 2, max(m.pose_count - 1, 0)})
        for k in poses:
            out = tmp_path / f"{checked}_{k}.obj"
            code, _, err = run_cli(cli, "convert", f, out, "--frame", k, check=False)
            if code != 0:
                pytest.fail(f"{f}: convert --frame {k} failed: {err}")
            want = obj_vertices(out)
            got = np.concatenate([mesh.positions(None if skeletal else k) for mesh in m.meshes])
            # OBJ is Y up: (x, y, z) -> (x, z, -y).
            got = np.stack([got[:, 0], got[:, 2], -got[:, 1]], axis=1).astype(np.float64)
            assert got.shape == want.shape, f"{f} pose {k}: {got.shape} vs OBJ {want.shape}"
            scale = max(1.0, float(np.abs(want).max()))
            assert np.abs(got - want).max() <= 1e-5 * scale, f"{f} pose {k}"
        checked += 1
        if checked == 4:
            break
    assert checked > 0, f"no {family} file checked"
