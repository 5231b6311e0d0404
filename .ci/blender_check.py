"""Imports glTF files into Blender headless and checks what came in.

Run: blender -b --factory-startup --python-exit-code 1 --python .ci/blender_check.py -- \
         FILE.glb:shape_keys=N:actions=M  FILE2.glb:armature_bones=B:actions=M ...

For each FILE it prints the mesh objects with their shape keys, the armatures with their
bones, and the actions, then checks the expectations given after the colons (shape_keys:
keys besides the Basis on the first mesh; armature_bones: bones of the first armature;
actions: number of actions; clips: number of distinct NLA track names, which Blender's
importer makes one per glTF animation on every object it animates; chain=A>B>C: object A's
parent is B, whose parent is C). Exit status 1 on any mismatch.
"""
import sys

import numpy

# Debian's numpy is newer than the one Blender's glTF importer was written for.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
failures = 0
for spec in args:
    path, *expect = spec.split(":")
    want = dict(e.split("=") for e in expect)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
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
    got = {"shape_keys": keys, "armature_bones": bones, "actions": actions, "clips": len(tracks)}
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
