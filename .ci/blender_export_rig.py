"""Blender (headless) makes a skinned, animated model and exports it as .glb, and writes
where every vertex is at each frame, as Blender evaluates it, to a JSON file.

Run: blender -b --factory-startup --python-exit-code 1 --python blender_export_rig.py -- OUT.glb OUT.json

The rig: a column of 1 x 1 x 4 subdivided in height, two bones (lower, upper) with
automatic weights; the upper bone bends 90 degrees about X and the armature moves 2 units
along Y over 1 second at 10 frames per second (frames 1..11).
"""
import json
import math
import sys

import bpy
import numpy

numpy.bool = bool  # Debian's numpy and Blender 3.4's glTF add-on

glb_path, json_path = sys.argv[sys.argv.index("--") + 1:][:2]

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 10
scene.frame_start, scene.frame_end = 1, 11

bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0, 0, 2))
column = bpy.context.active_object
column.scale = (1, 1, 4)
bpy.ops.object.transform_apply(scale=True)
bpy.ops.object.mode_set(mode="EDIT")
bpy.ops.mesh.subdivide(number_cuts=7)
bpy.ops.object.mode_set(mode="OBJECT")
column.name = "column"

bpy.ops.object.armature_add(location=(0, 0, 0))
rig = bpy.context.active_object
rig.name = "rig"
bpy.ops.object.mode_set(mode="EDIT")
lower = rig.data.edit_bones[0]
lower.name = "lower"
lower.head, lower.tail = (0, 0, 0), (0, 0, 2)
upper = rig.data.edit_bones.new("upper")
upper.head, upper.tail = (0, 0, 2), (0, 0, 4)
upper.parent = lower
bpy.ops.object.mode_set(mode="OBJECT")

column.select_set(True)
rig.select_set(True)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.parent_set(type="ARMATURE_AUTO")

action_bones = rig.pose.bones
for frame, angle, y in [(1, 0.0, 0.0), (6, 45.0, 1.0), (11, 90.0, 2.0)]:
    scene.frame_set(frame)
    action_bones["upper"].rotation_mode = "XYZ"
    action_bones["upper"].rotation_euler = (math.radians(angle), 0, 0)
    action_bones["upper"].keyframe_insert("rotation_euler", frame=frame)
    rig.location = (0, y, 0)
    rig.keyframe_insert("location", frame=frame)
for fc in rig.animation_data.action.fcurves:
    for k in fc.keyframe_points:
        k.interpolation = "LINEAR"
rig.animation_data.action.name = "bend"

frames = []
for frame in range(1, 12):
    scene.frame_set(frame)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = column.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    frames.append([list(evaluated.matrix_world @ v.co) for v in mesh.vertices])
    evaluated.to_mesh_clear()
scene.frame_set(1)

bpy.ops.export_scene.gltf(filepath=glb_path, export_format="GLB", export_animations=True,
                          export_frame_range=True, export_force_sampling=True)
with open(json_path, "w") as f:
    json.dump({"fps": 10, "frames": frames}, f)
print("blender: exported", glb_path, len(frames), "frames of", len(frames[0]), "vertices")
