"""Models built from numpy arrays save in every writable format and load back with the same
counts: a pipeline can write a Quake MDL without Blender."""

import numpy as np
import pytest

import retromodel


def box(poses=6):
    """A box that grows over `poses` poses, with a checker skin."""
    corners = np.array([[x, y, z] for x in (-8, 8) for y in (-8, 8) for z in (0, 24)], np.float32)
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = []
    for a, b, c, d in faces:
        tris += [(a, c, b), (a, d, c)]
    positions = np.stack([corners * (1 + 0.1 * k) for k in range(poses)])
    uvs = (corners[:, :2] + 8) / 16
    skin = np.zeros((32, 32, 4), np.uint8)
    skin[..., 3] = 255
    skin[::2, ::2, 0] = 255
    skin[1::2, 1::2, 2] = 200
    return positions, np.array(tris, np.uint32), uvs, skin


def test_keyframes_save_and_load_back(tmp_path):
    positions, tris, uvs, skin = box()
    m = retromodel.from_keyframes(
        positions, tris, uvs=uvs, skin=skin,
        pose_names=[f"grow{i + 1}" for i in range(6)], clips=[("grow", 0, 6, 10.0)], name="box",
    )
    assert m.pose_count == 6 and m.triangle_count == 12 and m.format is None
    assert m.info()["poses"] == 6
    np.testing.assert_allclose(m.meshes[0].positions(5), positions[5])
    for ext in ("mdl", "md2", "md3", "md5mesh", "glb", "obj"):
        out = tmp_path / f"box.{ext}"
        report = m.save(out)
        assert out.is_file() and str(out) in report.files[-1]
        back = retromodel.load(out)
        info = back.info()
        assert info["triangles"] == 12, ext
        if ext in ("mdl", "md2", "md3"):
            assert info["poses"] == 6, ext
            assert report.max_error is not None and report.max_error < 0.2, ext
            got = back.meshes[0].positions(5)
            # Each written vertex lies on a source vertex, within the quantisation step.
            near = np.abs(got[:, None, :] - positions[5][None]).max(axis=2).min(axis=1)
            assert near.max() <= report.max_error + 1e-4, ext
        if ext == "md5mesh":
            assert info["joints"] >= 1


def test_skinned_saves_as_md5_with_animation_and_bakes_to_keyframes(tmp_path):
    # Two joints: a root and a child that turns a quarter about Z over 5 frames.
    positions = np.array([[0, 0, 0], [0, 0, 10], [4, 0, 10], [0, 0, 20], [4, 0, 20]], np.float32)
    tris = np.array([[0, 2, 1], [1, 2, 4], [1, 4, 3]], np.uint32)
    joints = np.array([[0], [0], [0], [1], [1]])
    weights = np.ones((5, 1), np.float32)
    turn = [np.array([0, 0, np.sin(a / 2), np.cos(a / 2)], np.float32) for a in np.linspace(0, np.pi / 2, 5)]
    ident = np.array([0, 0, 0, 1], np.float32)
    translations = np.array([[[0, 0, 0], [0, 0, 10]]] * 5, np.float32)
    rotations = np.array([[ident, q] for q in turn], np.float32)
    m = retromodel.from_skinned(
        positions, tris, joints, weights,
        joint_names=["root", "arm"], parents=[-1, 0],
        bind_translations=[[0, 0, 0], [0, 0, 10]], bind_rotations=[ident, ident],
        animations=[("bend", 10.0, translations, rotations)], name="arm",
    )
    assert len(m.skeleton) == 2 and m.animations[0].frame_count == 5
    mats = m.joint_matrices("bend", 0.4, loop=False)
    # At the end the child's skinning matrix turns (4, 0, 20) about Z through (0, 0, 10).
    p = mats[1] @ np.array([4, 0, 20, 1], np.float32)
    np.testing.assert_allclose(p[:3], [0, 4, 20], atol=1e-4)
    out = tmp_path / "arm.md5mesh"
    report = m.save(out)
    assert (tmp_path / "bend.md5anim").is_file(), report.files
    back = retromodel.load(out)
    assert back.info()["joints"] == 2 and back.animations[0].frame_count == 5
    for ext in ("mdl", "md2", "md3"):
        k = retromodel.load(m.save(tmp_path / f"arm.{ext}").files[-1]).info()
        # 5 frames at 10 fps span 0.4 s: baked at the targets' 10 fps, 5 poses.
        assert k["poses"] == 5, (ext, k["poses"])


def test_bad_arrays_raise_value_error():
    positions, tris, uvs, skin = box(1)
    with pytest.raises(ValueError, match="out of range"):
        retromodel.from_keyframes(positions, tris + 100)
    with pytest.raises(ValueError, match="uvs"):
        retromodel.from_keyframes(positions, tris, uvs=uvs[:3])
    with pytest.raises(ValueError, match="clip"):
        retromodel.from_keyframes(positions, tris, clips=[("x", 0, 9, 10.0)])
