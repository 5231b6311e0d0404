"""Imports glTF files into Blender headless and checks what came in.

Run: blender -b --factory-startup --python-exit-code 1 --python .ci/blender_check.py -- \
         FILE.glb:shape_keys=N:actions=M  FILE2.glb:armature_bones=B:actions=M ...

For each FILE it prints the mesh objects with their shape keys, the armatures with their
bones, and the actions, then checks the expectations given after the colons (shape_keys:
keys besides the Basis on the first mesh; armature_bones: bones of the first armature;
actions: number of actions; images: pictures loaded with pixels; clips: number of distinct NLA track names, which Blender's
importer makes one per glTF animation on every object it animates; chain=A>B>C: object A's
parent is B, whose parent is C). same_as=OTHER.glb compares the import with OTHER's (a
quantised file with its float export, issue 16): the same mesh objects, vertices, shape
key names and actions, every shape key's vertices at the same world positions within
tolerance=T (model units; quantised positions sit in the object's transform, so positions
are compared in world space), the same loop normals in world space within 1 degree, and
the same armature bones with their heads and tails within T. Exit status 1 on any
mismatch.
"""
import math
import sys

import numpy

# Debian's numpy is newer than the one Blender's glTF importer was written for.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy  # noqa: E402



def snapshot():
    """What the current scene holds, in world space: per mesh object (by name) its vertex
    count, shape keys (name and world positions), loop normals; per armature its bones
    (name, head, tail); the action names."""
    meshes, bones = {}, {}
    for o in bpy.data.objects:
        if o.type == "MESH":
            me = o.data
            me.calc_normals_split()
            mw = o.matrix_world
            nm = mw.to_3x3().inverted().transposed()
            keys = []
            if me.shape_keys:
                keys = [(kb.name, [mw @ d.co for d in kb.data]) for kb in me.shape_keys.key_blocks]
            else:
                keys = [("(rest)", [mw @ v.co for v in me.vertices])]
            normals = [(nm @ lp.normal).normalized() for lp in me.loops]
            meshes[o.data.name] = (len(me.vertices), keys, normals)
        elif o.type == "ARMATURE":
            mw = o.matrix_world
            for b in o.data.bones:
                bones[b.name] = (mw @ b.head_local, mw @ b.tail_local)
    return meshes, bones, sorted(a.name for a in bpy.data.actions)


def compare(path, other, tolerance):
    """Mismatches between the current scene (`path`) and `other`, a snapshot."""
    bad = []
    meshes, bones, actions = snapshot()
    o_meshes, o_bones, o_actions = other
    if sorted(meshes) != sorted(o_meshes):
        bad.append(f"meshes {sorted(meshes)} vs {sorted(o_meshes)}")
    if actions != o_actions:
        bad.append(f"actions {actions[:5]}... vs {o_actions[:5]}...")
    worst_p, worst_n, keys = 0.0, 0.0, 0
    for name in sorted(set(meshes) & set(o_meshes)):
        (n, k, nr), (on, ok, onr) = meshes[name], o_meshes[name]
        if n != on or [x[0] for x in k] != [x[0] for x in ok]:
            bad.append(f"mesh {name}: {n} vertices, keys {[x[0] for x in k][:4]}... vs {on}, {[x[0] for x in ok][:4]}...")
            continue
        for (_, ps), (_, ops) in zip(k, ok):
            keys += 1
            for p, q in zip(ps, ops):
                worst_p = max(worst_p, max(abs(p[i] - q[i]) for i in range(3)))
        for a, b in zip(nr, onr):
            worst_n = max(worst_n, math.degrees(a.angle(b, 0.0)))
    if sorted(bones) != sorted(o_bones):
        bad.append(f"bones {len(bones)} vs {len(o_bones)}")
    for name in set(bones) & set(o_bones):
        for p, q in zip(bones[name], o_bones[name]):
            worst_p = max(worst_p, max(abs(p[i] - q[i]) for i in range(3)))
    print(
        f"blender: {path}: {keys} poses (shape keys, or rest meshes) and {len(bones)} bones at most {worst_p:.6f} from "
        f"the other file's (tolerance {tolerance}), normals within {worst_n:.3f} degrees"
    )
    if worst_p > tolerance:
        bad.append(f"positions {worst_p} apart (tolerance {tolerance})")
    if worst_n > 1.0:
        bad.append(f"normals {worst_n} degrees apart")
    return bad


args = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
failures = 0
for spec in args:
    path, *expect = spec.split(":")
    want = dict(e.split("=") for e in expect)
    same_as = want.pop("same_as", None)
    tolerance = float(want.pop("tolerance", "0"))
    other = None
    if same_as:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        bpy.ops.import_scene.gltf(filepath=same_as)
        other = snapshot()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    if other is not None:
        for b in compare(path, other, tolerance):
            print(f"blender: MISMATCH {path} vs {same_as}: {b}")
            failures += 1
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    keys = 0
    if meshes and meshes[0].data.shape_keys:
        keys = len(meshes[0].data.shape_keys.key_blocks) - 1
    bones = len(arms[0].data.bones) if arms else 0
    actions = len(bpy.data.actions)
    tracks = {
        t.name
        for o in bpy.data.objects
        if o.animation_data
        for t in o.animation_data.nla_tracks
    }
    # images: pictures that came in with pixels (a texture that shows)
    images = sum(1 for i in bpy.data.images if i.size[0] > 0 and i.size[1] > 0)
    got = {"shape_keys": keys, "armature_bones": bones, "actions": actions, "clips": len(tracks), "images": images}
    chain = want.pop("chain", None)
    if chain:
        names = chain.split(">")
        o = bpy.data.objects.get(names[0])
        found = []
        while o is not None:
            found.append(o.name)
            o = o.parent
        print(f"blender: {path}: {names[0]} hierarchy {' > '.join(found)}")
        if found != names:
            print(f"blender: MISMATCH {path}: hierarchy {found}, expected {names}")
            failures += 1
    print(
        f"blender: {path}: {len(meshes)} meshes, {keys} shape keys, "
        f"{len(arms)} armatures ({bones} bones), {actions} actions: "
        + ", ".join(sorted(a.name for a in bpy.data.actions)[:12])
    )
    for k, v in want.items():
        if got.get(k) != int(v):
            print(f"blender: MISMATCH {path}: {k} = {got.get(k)}, expected {v}")
            failures += 1
sys.exit(1 if failures else 0)
