"""Blender Source Tools imports the QC files retromodel decompiles (issue 42, criterion 3).

Runs under bpy (Blender as a Python module, 5.0.1 from PyPI), with Blender Source Tools
(`Artfunkel/BlenderSourceTools`, its `io_scene_valvesource` add-on folder) on `--bst`:

    python .ci/blender_source_tools.py --bst DIR CASE.json

CASE.json lists the cases, each `{"qc": PATH, "bones": N, "sequences": [NAMES]}`: what
retromodel wrote and what the QC should give. For each, a fresh scene imports the QC with
`bpy.ops.import_scene.smd` (which reads the `$body`/`$bodygroup` reference SMDs and every
`$sequence` SMD), and the check asserts:

- exactly one armature, with N bones;
- one action per sequence, named after each sequence's SMD: in Blender 5 (slotted actions)
  Source Tools makes one action for the armature with one slot per imported SMD, so there
  the slots are counted;
- at least one mesh with as many triangles as the case says (when it says).

Prints one line per case and exits 1 when any case fails.
"""
import argparse
import json
import os
import sys

import bpy


def enable(bst_dir):
    """Registers the add-on from its folder (bpy has no user add-on folder to install into)."""
    sys.path.insert(0, os.path.abspath(bst_dir))
    import io_scene_valvesource

    io_scene_valvesource.register()
    return io_scene_valvesource


def fresh_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    for a in list(bpy.data.actions):
        bpy.data.actions.remove(a)


def animations():
    """The imported animations: each action's slots where actions have slots (Blender 4.4+),
    else the actions."""
    out = []
    for a in bpy.data.actions:
        slots = list(getattr(a, "slots", []))
        out += [s.name_display for s in slots] if slots else [a.name]
    return out


def triangles(mesh_object):
    mesh = mesh_object.data
    mesh.calc_loop_triangles()
    return len(mesh.loop_triangles)


def check(case):
    fresh_scene()
    result = bpy.ops.import_scene.smd(filepath=os.path.abspath(case["qc"]), doAnim=True)
    problems = []
    if "FINISHED" not in result:
        problems.append(f"import returned {sorted(result)}")
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    # smd_bone_vis is the add-on's own bone display shape, not an imported mesh
    meshes = [o for o in bpy.data.objects if o.type == "MESH" and o.name != "smd_bone_vis"]
    bones = sum(len(a.data.bones) for a in arms)
    actions = sorted(animations())
    if len(arms) != 1:
        problems.append(f"{len(arms)} armatures, expected 1")
    if bones != case["bones"]:
        problems.append(f"{bones} bones, expected {case['bones']}")
    want = sorted(case["sequences"])
    if len(actions) != len(want):
        problems.append(f"{len(actions)} actions {actions}, expected {len(want)} {want}")
    else:
        missing = [s for s in want if not any(a == s or a.startswith(s + ".") for a in actions)]
        if missing:
            problems.append(f"no action for {missing} among {actions}")
    tris = sum(triangles(m) for m in meshes)
    if "triangles" in case and tris != case["triangles"]:
        problems.append(f"{tris} triangles, expected {case['triangles']}")
    if not meshes:
        problems.append("no mesh imported")
    name = os.path.basename(case["qc"])
    if problems:
        print(f"FAIL {name}: " + "; ".join(problems))
        return False
    print(f"ok   {name}: {bones} bones, {len(actions)} actions, {len(meshes)} meshes, {tris} triangles")
    return True


def main():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bst", required=True, help="folder holding io_scene_valvesource")
    p.add_argument("cases", help="JSON list of {qc, bones, sequences[, triangles]}")
    a = p.parse_args(argv)
    enable(a.bst)
    cases = json.load(open(a.cases))
    if not cases:
        print("no cases")
        return 1
    ok = sum(check(c) for c in cases)
    print(f"Blender Source Tools {bpy.app.version_string}: {ok} of {len(cases)} QC files imported as written")
    return 0 if ok == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
