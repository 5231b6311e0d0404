"""The rest of the package's surface on real files: archives and game folders, skins as
arrays, validation, glTF in memory, saving safely, converting one file and a tree with
progress, warnings through `warnings`."""

import warnings

import numpy as np
import pytest

import retromodel
from conftest import ROOT, run_cli, skip_or_fail


def first(corpus, pattern):
    found = sorted(corpus.rglob(pattern))
    if not found:
        skip_or_fail(f"no {pattern} in the corpus")
    return found[0]


def quiet(f, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", retromodel.RetromodelWarning)
        return f(*a, **kw)


def test_skins_validate_glb_and_safe_save(corpus, tmp_path):
    path = first(corpus / "quake_mdl", "*.mdl")
    m = quiet(retromodel.load, path)
    pic = m.skins[0].pictures[0]
    assert pic.dtype == np.uint8 and pic.ndim == 3 and pic.shape[2] == 4
    assert m.validate("quakespasm") == cli_findings(path, "quakespasm")
    back = quiet(retromodel.loads, m.to_glb(), "x.glb")
    assert back.format == "glb" and back.pose_count == m.pose_count
    out = tmp_path / "copy.mdl"
    report = m.save(out)
    assert report.written_back and out.read_bytes() == path.read_bytes()
    with pytest.raises(OSError, match="exists"):
        m.save(out)
    m.save(out, force=True)


def cli_findings(path, engine):
    """`retromodel validate --engine` of one file as `Model.validate` gives them: a list of
    (severity, message)."""
    import os

    from conftest import cli_path

    cli = cli_path()
    if cli is None:
        skip_or_fail("no retromodel binary to compare validate with")
    _, out, _ = run_cli(cli, "validate", "--engine", engine, path, check=False)
    found = []
    prefix = f"{os.fspath(path)}: "
    for line in out.splitlines():
        if not line.startswith(prefix):
            continue
        rest = line[len(prefix):]
        for severity in ("error", "warning"):
            if rest.startswith(severity + ": "):
                found.append((severity, rest[len(severity) + 2:]))
    return found


def test_validate_by_value(corpus):
    """`Model.validate` gives the findings by value: the Quake skin type quakespasm
    misreads, ioquake3's rules on a Cube 2 IQM, and what the command line prints."""
    mdl = first(corpus / "quake_mdl", "griechin.mdl")
    m = quiet(retromodel.load, mdl)
    assert m.validate("quakespasm") == [(
        "error",
        "skin 0: type 2 (16-bit 5-6-5 RGB) is not a Quake skin type; quakespasm reads it as a group",
    )]
    iqm = first(corpus / "iqm", "snoutx10k.iqm")
    found = quiet(retromodel.load, iqm).validate("ioq3")
    assert found == cli_findings(iqm, "ioq3")
    assert sum(s == "error" for s, _ in found) == 2, found
    assert found == quiet(retromodel.load, iqm).validate("ioq3")
    assert quiet(retromodel.load, iqm).validate("tesseract") == cli_findings(iqm, "tesseract")


def test_warnings_go_through_the_warnings_module(corpus):
    path = first(corpus / "3dgs_mdl", "a4Cube.mdl")
    with pytest.warns(retromodel.RetromodelWarning) as caught:
        retromodel.load(path)
    # The file's own two missing external skins, each said once.
    messages = sorted(str(w.message) for w in caught)
    assert messages == [
        'skin 0: external picture "a4Cube.pcx" not found',
        'skin 1: external picture "a4Cube_nm.tga" not found',
    ], messages


def test_archive_paths_and_game_fs(corpus):
    pak = first(corpus / "archives", "*.pk3")
    fs = retromodel.GameFs()
    fs.add_archive(pak)
    models = [p for p in fs.files() if p.lower().endswith((".md3", ".mdl", ".md2"))]
    assert models, f"no models in {pak}"
    m = quiet(fs.load, models[0])
    assert m.vertex_count > 0 and models[0] in fs
    assert len(fs.read(models[0])) > 0
    direct = quiet(retromodel.load, f"{pak}:{models[0]}")
    assert direct.info()["vertices"] == m.info()["vertices"]
    with pytest.raises(KeyError):
        fs.read("no/such/file.mdl")


def test_convert_and_convert_tree_with_progress(corpus, tmp_path):
    src = first(corpus / "md2", "*.md2")
    report = quiet(retromodel.convert, src, tmp_path / "one.mdl")
    assert (tmp_path / "one.mdl").is_file() and report.max_error is not None
    seen = []
    entries = quiet(
        retromodel.convert_tree, src.parent, tmp_path / "tree", "glb",
        progress=lambda done, total, entry: seen.append((done, total, entry[2])),
    )
    assert entries and len(seen) == len(entries)
    assert seen[-1][0] == seen[-1][1] == len(entries)
    assert any(e[2] == "converted" for e in entries)
    again = quiet(retromodel.convert_tree, src.parent, tmp_path / "tree", "glb")
    assert all(e[2] in ("kept", "unsupported", "failed") for e in again)


def quat_matrix(q):
    """The rotation matrix of a unit quaternion (x, y, z, w)."""
    x, y, z, w = (float(v) for v in q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def test_skeleton_and_joint_matrices(corpus):
    path = first(corpus / "md5", "*.md5mesh")
    m = quiet(retromodel.load, path)
    sk = m.skeleton
    assert sk is not None and sk.bind.shape == (len(sk), 4, 4)
    assert m.meshes[0].joints.shape == (m.meshes[0].vertex_count, 4)
    np.testing.assert_allclose(m.meshes[0].weights.sum(axis=1), 1.0, atol=1e-5)
    # In the bind pose every skinning matrix is the identity.
    if not m.animations:
        mats = m.joint_matrices()
        np.testing.assert_allclose(mats, np.broadcast_to(np.eye(4), mats.shape), atol=1e-4)
    else:
        # Independently of the library's pose code: each joint's object-space transform at
        # frame 0 from the animation's local translations and rotations down the parents,
        # times the inverse bind matrix.
        a = m.animations[0]
        t, r = a.translations[0], a.rotations[0]
        world = np.zeros((len(sk), 4, 4))
        for j, parent in enumerate(sk.parents):
            local = np.eye(4)
            local[:3, :3] = quat_matrix(r[j])
            local[:3, 3] = t[j]
            world[j] = local if parent < 0 else world[parent] @ local
        expected = world @ np.linalg.inv(sk.bind.astype(np.float64))
        got = m.joint_matrices(0, 0.0)
        assert got.shape == (len(sk), 4, 4)
        np.testing.assert_allclose(got, expected, atol=1e-3)


def test_rerelease_pair_with_prefer_md5(corpus, cli, tmp_path):
    """A Quake II re-release layout authored by the command line, loaded through its MD5
    (prefer_md5=True) with the MD2's frame names; the .md5scale hides a joint."""
    mesh = corpus / "md5/debian-redeclipse-data/redeclipse/data/props/flag/mesh.md5mesh"
    if not mesh.is_file():
        skip_or_fail("no flag.md5mesh in the corpus")
    md2 = tmp_path / "flag.md2"
    run_cli(cli, "convert", mesh, md2, "--rerelease")
    (tmp_path / "md5" / "flag.md5scale").write_text('{ "Bone.003": { "3": 0 } }')
    classic = quiet(retromodel.load, md2)
    assert classic.skeleton is None
    m = quiet(retromodel.load, md2, prefer_md5=True)
    assert m.skeleton is not None and len(m.skeleton) == 4
    assert m.poses == classic.poses
    k = list(m.skeleton.names).index("Bone.003")
    fps = m.clips[0].fps if m.clips else 10.0
    hidden = m.joint_matrices(0, 3 / fps, loop=False)
    shown = m.joint_matrices(0, 2 / fps, loop=False)
    # Scale 0: the joint's skinning matrix has no linear part in frame 3.
    np.testing.assert_allclose(hidden[k][:3, :3], 0.0, atol=1e-6)
    assert np.abs(shown[k][:3, :3]).max() > 0.5


def test_half_life_model_through_the_front_door(corpus):
    # Issue 41: a GoldSrc model loads with its texture file (manT.mdl) found beside it, its
    # skeleton, one animation per sequence, and its textures' flags in the skin effects.
    hl1 = corpus / "assimp" / "test" / "models" / "MDL" / "MDL (HL1)"
    m = retromodel.load(hl1 / "man.mdl")
    assert len(m.skeleton) == 8
    assert [a.name for a in m.animations] == ["reference", "walk", "arms_up"]
    assert len(m.skins) > 0, "the textures of manT.mdl"
    assert m.info()["format"] == "half-life-mdl"
    # The walk's two footstep events, as the file stores them (info: "walk: ... 2 events").
    walk = m.animations[1]
    assert walk.events == [
        {"frame": 0, "event": 1004, "type": 0, "options": "common/npc_step1.wav"},
        {"frame": 13, "event": 1004, "type": 0, "options": "common/npc_step3.wav"},
    ]
    assert m.animations[0].events == []
    # A sequence group file alone is not a model: the same message as the command line.
    with pytest.raises(retromodel.FormatError, match="sequence group file"):
        retromodel.load(hl1 / "man01.mdl")


def test_half_life_body_and_skin_family(corpus):
    # load(body=..., skin_family=...) picks a body part's sub-model and the skin family as
    # the command line's --body and --skin-family do. cube.mdl: a "hat" part of three
    # sub-models (blank, hat_cube, hat_cone; base 1) and three skin families.
    cube = first(corpus / "hl1_mdl", "cube.mdl")
    plain = retromodel.load(cube)
    hat = retromodel.load(cube, body=1)
    assert len(hat.meshes) == len(plain.meshes) + 1
    assert sum(len(m.triangles) for m in hat.meshes) > sum(len(m.triangles) for m in plain.meshes)
    assert retromodel.load(cube, body=4).meshes[-1].vertex_count == hat.meshes[-1].vertex_count
    fam = retromodel.load(cube, body=1, skin_family=2)
    assert [m.skin for m in fam.meshes] != [m.skin for m in hat.meshes]
    with pytest.warns(retromodel.RetromodelWarning, match="skin family 7 asked for, the model has 3"):
        retromodel.load(cube, skin_family=7)
    assert len(retromodel.loads(cube.read_bytes(), "cube.mdl", body=1).meshes) == len(hat.meshes)


def test_compressed_glb(corpus):
    """Issue 43: ``compress=`` writes meshopt-compressed glTF (implying ``quantize``) that
    loads back with the quantised file's poses; ``"khr"`` names the Khronos extension."""
    import json
    import struct

    m = quiet(retromodel.load, first(corpus / "quake_mdl", "*.mdl"))
    quantized = m.to_glb(quantize=True)
    for compress, name in [(True, "EXT_meshopt_compression"), ("khr", "KHR_meshopt_compression")]:
        glb = quiet(m.to_glb, compress=compress)
        (n,) = struct.unpack_from("<I", glb, 12)
        doc = json.loads(glb[20 : 20 + n])
        assert name in doc["extensionsRequired"] and "KHR_mesh_quantization" in doc["extensionsRequired"]
        back, q = quiet(retromodel.loads, glb, "c.glb"), quiet(retromodel.loads, quantized, "q.glb")
        assert back.pose_count == q.pose_count == m.pose_count
    with pytest.raises(ValueError, match="compress"):
        m.to_glb(compress="zip")


def gltfpack():
    """gltfpack's command line from npm (target/npm, as .ci/run installs it), or None."""
    import shutil

    script = ROOT / "target" / "npm" / "node_modules" / "gltfpack" / "cli.js"
    node = shutil.which("node")
    return [node, str(script)] if node and script.is_file() else None


def paths(mesh):
    """Each vertex's position (the bind pose's for a skinned mesh) followed by its positions
    through every pose, as one row; the rows sorted."""
    p = mesh.all_positions()
    rows = np.concatenate([mesh.positions(), p.transpose(1, 0, 2).reshape(p.shape[1], -1)], axis=1)
    return rows[np.lexsort(rows.T[::-1])]


def test_gltfpack_compressed_files_open(corpus, tmp_path):
    """Issue 43, criterion 3: another tool's meshopt-compressed glTF (gltfpack ``-cc``:
    EXT_meshopt_compression, octahedral normals, quaternion rotations) opens with the counts of
    gltfpack's uncompressed file of the same model, and a keyframe model's every pose decodes
    to the uncompressed file's positions exactly (the codec is lossless; both files share
    gltfpack's quantisation), as does a skeletal model's bind pose."""
    import subprocess

    pack = gltfpack()
    if pack is None:
        skip_or_fail("no gltfpack (npm install --prefix target/npm gltfpack) or node")
    keyframe = first(corpus / "md2", "bloodspider.md2")
    skeletal = first(corpus / "assimp", "Bob.md5mesh")
    for src in [keyframe, skeletal]:
        glb = tmp_path / (src.stem + ".glb")
        glb.write_bytes(quiet(retromodel.load, src).to_glb())
        plain, packed = tmp_path / (src.stem + ".plain.glb"), tmp_path / (src.stem + ".cc.glb")
        subprocess.run(pack + ["-i", str(glb), "-o", str(plain)], check=True, capture_output=True)
        subprocess.run(pack + ["-i", str(glb), "-o", str(packed), "-cc"], check=True, capture_output=True)
        assert b"EXT_meshopt_compression" in packed.read_bytes()[:4096]
        a, b = quiet(retromodel.load, plain), quiet(retromodel.load, packed)
        counts = lambda m: (  # noqa: E731
            m.vertex_count,
            m.triangle_count,
            m.pose_count,
            len(m.meshes),
            len(m.animations),
            len(m.skeleton.names) if m.skeleton else 0,
        )
        assert counts(a) == counts(b), f"{src.name}: -cc {counts(b)}, plain {counts(a)}"
        assert counts(b)[1] > 0
        for ma, mb in zip(a.meshes, b.meshes):
            # gltfpack orders vertices differently with and without compression: compare each
            # vertex's path through every pose, as sets.
            pa, pb = paths(ma), paths(mb)
            if a.skeleton is None:
                assert np.array_equal(pa, pb), f"{src.name}: {ma.name}"
            else:
                # The bind pose exactly; the poses within what gltfpack's 16-bit quaternion
                # filter allows, 1/1000 of the model's size.
                assert np.array_equal(pa[:, :3], pb[:, :3]), f"{src.name}: {ma.name} bind pose"
                size = np.ptp(pa[:, :3], axis=0).max()
                assert np.abs(pa - pb).max() <= size / 1000, f"{src.name}: {ma.name}"
    assert quiet(retromodel.load, tmp_path / "bloodspider.cc.glb").pose_count > 1
