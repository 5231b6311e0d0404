#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Acceptance check of the Blender extension (issue 27, criterion 3) for one Blender.

    VENV/bin/python .ci/blender_extension.py --zip target/blender/retromodel-X.zip \
        --corpus $RETROMODEL_CORPUS --retromodel target/release/retromodel --out DIR

VENV is a virtual environment with `bpy` (Blender as a Python module) and, normally, the
retromodel wheel.  The extension zip is installed with bpy.ops.extensions.package_install_files
into a throw-away user folder (--register-module instead puts blender/ on sys.path and calls
register()).  For one corpus model of each family: import (shape keys = poses or bones =
joints, one clip per action, an image texture), export back to the same format and compare
with the original through `retromodel info --json` and OBJ poses (`convert --frame K`);
then models made by script (shape-key animation; an armature action) exported to .mdl,
.md2, .md3 and .md5mesh and checked for their frame counts; then (issue 39, criterion 3)
the skinned, animated scene exported to every extension of the package's
`retromodel.formats()["write"]` (each MDL kind the extension offers), each file read back
with `retromodel.load` and checked against the registry (`retromodel formats --json`) and
the scene; an extension the extension does not offer must be one retromodel refuses for
that scene too.  Exit status 1 on any failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import traceback

ap = argparse.ArgumentParser()
ap.add_argument("--zip")
ap.add_argument("--register-module", action="store_true",
                help="import blender/retromodel_blender and call register() instead of installing the zip")
ap.add_argument("--corpus", default=os.environ.get("RETROMODEL_CORPUS", "/work/shared/corpus"))
ap.add_argument("--retromodel", required=True, help="the retromodel CLI (for info and OBJ poses)")
ap.add_argument("--out", required=True)
ap.add_argument("--require-package", action="store_true",
                help="fail unless the extension uses the retromodel Python package")
ap.add_argument("--only", help="comma-separated case names")
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
# a user folder of our own: extensions install there, nothing of the machine's is read
os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp(prefix="blender-user-", dir=args.out)
if not args.require_package:
    os.environ.setdefault("RETROMODEL_CLI", args.retromodel)  # used only if the package is missing

import bpy  # noqa: E402
import numpy as np  # noqa: E402

VERSION = bpy.app.version_string
RESULTS = []


def record(name, ok, detail=""):
    RESULTS.append((name, ok, detail))
    print("%s %s %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)


def cli(*a):
    r = subprocess.run([args.retromodel] + [str(x) for x in a], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("retromodel %s: %s" % (" ".join(map(str, a)), r.stderr.strip()))
    return r


def info(path, *extra):
    return json.loads(cli("info", "--json", path, *extra).stdout.splitlines()[0])


def obj_positions(model, frame, tag):
    out = os.path.join(args.out, "obj", "%s_%d.obj" % (tag, frame))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cli("convert", model, out, "--frame", frame, "--force")
    v = [list(map(float, l.split()[1:4])) for l in open(out) if l.startswith("v ")]
    return np.array(v)


def set_distance(a, b):
    """The largest distance from a point of either set to the nearest of the other."""
    def one(p, q):
        worst = 0.0
        for i in range(0, len(p), 512):
            d = np.sqrt(((p[i:i + 512, None, :] - q[None, :, :]) ** 2).sum(-1)).min(1)
            worst = max(worst, float(d.max()))
        return worst
    return max(one(a, b), one(b, a))


# -- install ---------------------------------------------------------------------

def install():
    if args.register_module:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "blender"))
        import retromodel_blender
        retromodel_blender.register()
        record("register module", hasattr(bpy.ops.import_scene, "retromodel"))
        return retromodel_blender
    r = bpy.ops.extensions.package_install_files(filepath=os.path.abspath(args.zip), repo="user_default",
                                                 enable_on_install=True)
    ok = 'FINISHED' in r and hasattr(bpy.types, "IMPORT_SCENE_OT_retromodel") \
        and hasattr(bpy.types, "EXPORT_SCENE_OT_retromodel")
    record("install zip (extensions.package_install_files)", ok, str(r))
    mod = sys.modules.get("bl_ext.user_default.retromodel")
    return mod


EXT = install()
if EXT is None:
    print("the extension did not register; stopping")
    sys.exit(1)
print("backend:", EXT.backend.describe())
record("backend is the retromodel package", EXT.backend._rm is not None or not args.require_package,
       EXT.backend.describe())


def clear():
    for coll in (bpy.data.objects, bpy.data.meshes, bpy.data.armatures, bpy.data.actions,
                 bpy.data.images, bpy.data.materials, bpy.data.shape_keys and [] or []):
        for x in list(coll):
            coll.remove(x)
    for c in list(bpy.data.collections):
        bpy.data.collections.remove(c)


def mesh_objects():
    return [o for o in bpy.data.objects if o.type == 'MESH' and o.data.polygons]


def image_textures():
    found = []
    for m in bpy.data.materials:
        if m.node_tree:
            for n in m.node_tree.nodes:
                if n.type == 'TEX_IMAGE' and n.image and n.image.size[0] > 0:
                    found.append(n.image.name)
    return found


# -- corpus models -----------------------------------------------------------------

C = args.corpus
CASES = [
    # name, model, exported extension, mdl kind, formats that keep one vertex per position
    ("quake-mdl (frame groups)", C + "/quake_mdl/github-pnahratow-LibreQuake/lq1/progs/flame2.mdl", ".mdl", "quake", True),
    ("md2 (with skin)", C + "/md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/bloodspider.md2", ".md2", None, True),
    ("md3 player folder", C + "/md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge/upper.md3", ".md3", None, False),
    ("md5 (mesh + md5anim)", C + "/md5/debian-redeclipse-data/redeclipse/data/weapons/grenade/grenade.md5mesh", ".md5mesh", None, False),
    ("3dgs mdl3", C + "/3dgs_mdl/github-Acknex-Morbius/source/models/items/staff.mdl", ".mdl", "gs3", True),
]
STEP = {".md3": 1.0 / 64}


def tolerance(ext, a, b):
    if ext in STEP:
        return STEP[ext] * 1.01
    if ext == ".md5mesh":
        return 1e-3
    # 8-bit formats: one step of the frame's grid in the original and in the export
    ext_a = np.ptp(a, axis=0).max() / 255.0
    ext_b = np.ptp(b, axis=0).max() / 255.0
    return (ext_a + ext_b) * 1.01


def check_corpus(name, path, ext, mdl, same_vertices):
    clear()
    folder = EXT.player_folder(path)
    src = folder or path
    # what retromodel.load gives (a player folder: the assembled player)
    glb = os.path.join(args.out, "loaded.glb")
    cli("convert", src, glb, "--force")
    orig = info(src) if not folder else info(glb)
    # the reference: the original itself, or for a player folder what `convert` assembles
    ref_path = src
    if folder:
        ref_path = os.path.join(args.out, "reference" + ext)
        cli("convert", folder, ref_path, "--force")
    ref = info(ref_path)
    r = bpy.ops.import_scene.retromodel(filepath=path)
    record(name + ": import", 'FINISHED' in r, str(r))
    meshes = mesh_objects()
    clips = EXT._clip_names(bpy.data.objects)
    n_clips = len(orig.get("clips") or []) or len(orig.get("animations") or [])
    if orig.get("joints"):
        arms = [o for o in bpy.data.objects if o.type == 'ARMATURE']
        bones = sum(len(a.data.bones) for a in arms)
        record(name + ": armature bones = joints", bones == orig["joints"], "%d bones, %d joints" % (bones, orig["joints"]))
    else:
        keys = [len(o.data.shape_keys.key_blocks) if o.data.shape_keys else 1 for o in meshes]
        record(name + ": shape keys = poses", keys and all(k == orig["poses"] for k in keys),
               "%s shape keys per mesh, %d poses" % (keys, orig["poses"]))
    record(name + ": one action per clip", len(clips) == n_clips, "%d actions, %d clips" % (len(clips), n_clips))
    imgs = image_textures()
    record(name + ": image texture", bool(imgs), ", ".join(sorted(set(imgs))))
    out = os.path.join(args.out, name.split()[0] + "-blender" + ext)
    kw = {"mdl": mdl} if mdl else {}
    r = bpy.ops.export_scene.retromodel(filepath=out, **kw)
    record(name + ": export " + ext, 'FINISHED' in r and os.path.isfile(out), str(r))
    if not os.path.isfile(out):
        return
    got = info(out)
    fields = ["triangles", "joints"] + (["vertices"] if same_vertices else [])
    if not orig.get("joints"):
        fields.append("poses")
    if mdl == "quake":
        fields.append("frame_groups")
    for f in fields:
        record("%s: %s" % (name, f), got.get(f) == ref.get(f), "exported %s, original %s" % (got.get(f), ref.get(f)))
    if orig.get("joints"):
        want = sorted(a["frames"] for a in orig.get("animations") or [])
        have = sorted(a["frames"] for a in got.get("animations") or [])
        record(name + ": md5anim frames", want == have, "exported %s, original %s" % (have, want))
    else:
        rc = {c["name"].rstrip("_"): c for c in ref["clips"]}
        gc = {c["name"].rstrip("_"): c for c in got["clips"]}
        record(name + ": clips", sorted(rc) == sorted(gc) and all(rc[k]["count"] == gc[k]["count"] for k in rc),
               "differ: %s" % {k: (gc.get(k, {}).get("count"), rc[k]["count"]) for k in rc if gc.get(k, {}).get("count") != rc[k]["count"]})
    # positions: first and last pose of up to three clips (the bind pose of an MD5)
    frames = [(0, 0)]
    if not orig.get("joints"):
        frames = []
        rc = {c["name"].rstrip("_"): c for c in ref["clips"]}
        gc = {c["name"].rstrip("_"): c for c in got["clips"]}
        for k in sorted(set(rc) & set(gc))[:3]:
            n = min(rc[k]["count"], gc[k]["count"])
            for j in sorted({0, n - 1}):
                frames.append((rc[k]["first"] + j, gc[k]["first"] + j))
    worst, tol_used = 0.0, 0.0
    for fa, fb in frames:
        a = obj_positions(ref_path, fa, "ref-" + name.split()[0])
        b = obj_positions(out, fb, "exp-" + name.split()[0])
        tol = tolerance(ext, a, b)
        d = set_distance(a, b)
        if tol_used == 0 or d - tol > worst - tol_used:
            worst, tol_used = d, tol
    record(name + ": positions within the quantisation step", worst <= tol_used or worst < 1e-6,
           "largest distance %.5f, step %.5f over %d poses" % (worst, tol_used, len(frames)))


# -- models made by script ----------------------------------------------------------

def scene_10fps():
    s = bpy.context.scene
    s.render.fps, s.render.fps_base = 10, 1.0
    return s


def shape_key_model():
    """A quad strip with three shape keys; actions 'wave' (frames 1-5) and 'pulse' (1-3),
    each pose one-hot on a frame, both in NLA tracks (as Blender users keep actions)."""
    clear()
    scene_10fps()
    me = bpy.data.meshes.new("strip")
    verts = [(x, y, 0.0) for x in range(4) for y in (0, 1)]
    faces = [(2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1) for i in range(3)]
    me.from_pydata(verts, [], faces)
    me.uv_layers.new()
    ob = bpy.data.objects.new("strip", me)
    bpy.context.scene.collection.objects.link(ob)
    ob.shape_key_add(name="Basis")
    for k in range(3):
        sk = ob.shape_key_add(name="pose%d" % (k + 1))
        for i, v in enumerate(sk.data):
            v.co.z = 0.2 * (k + 1) * (i % 2)
    # An empty named tag_* becomes an MD3 tag (a weapon or flag attachment point).
    tag = bpy.data.objects.new("tag_flag", None)
    bpy.context.scene.collection.objects.link(tag)
    tag.location = (0.5, 0.0, 1.0)
    keys = ob.data.shape_keys
    ad = keys.animation_data_create()
    for name, seq in (("wave", [0, 1, 2, 3, 0]), ("pulse", [0, 3, 0])):
        act = bpy.data.actions.new(name)
        ad.action = act
        for f, pose in enumerate(seq, start=1):
            for k in range(1, 4):
                kb = keys.key_blocks[k]
                kb.value = 1.0 if pose == k else 0.0
                kb.keyframe_insert("value", frame=f)
        track = ad.nla_tracks.new()
        track.name = name
        track.strips.new(name, 1, act)
        ad.action = None
    return {"wave": 5, "pulse": 3}


def armature_model():
    """A two-bone arm skinning a box; actions 'bend' (frames 1-9) and 'twist' (1-5)."""
    clear()
    scene_10fps()
    arm = bpy.data.armatures.new("rig")
    rig = bpy.data.objects.new("rig", arm)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode='EDIT')
    b1 = arm.edit_bones.new("root")
    b1.head, b1.tail = (0, 0, 0), (0, 0, 1)
    b2 = arm.edit_bones.new("tip")
    b2.head, b2.tail, b2.parent = (0, 0, 1), (0, 0, 2), b1
    bpy.ops.object.mode_set(mode='OBJECT')
    me = bpy.data.meshes.new("box")
    verts = [(x, y, z) for z in (0, 1, 2) for x in (-0.2, 0.2) for y in (-0.2, 0.2)]
    faces = []
    for z in range(2):
        o, n = 4 * z, 4 * z + 4
        faces += [(o, o + 1, n + 1, n), (o + 1, o + 3, n + 3, n + 1), (o + 3, o + 2, n + 2, n + 3), (o + 2, o, n, n + 2)]
    me.from_pydata(verts, [], faces)
    me.uv_layers.new()
    box = bpy.data.objects.new("box", me)
    bpy.context.scene.collection.objects.link(box)
    box.parent = rig
    g1, g2 = box.vertex_groups.new(name="root"), box.vertex_groups.new(name="tip")
    for i, v in enumerate(verts):
        (g1 if v[2] < 1.5 else g2).add([i], 1.0, 'REPLACE')
    mod = box.modifiers.new("rig", 'ARMATURE')
    mod.object = rig
    ad = rig.animation_data_create()
    for name, n, axis in (("bend", 9, 0), ("twist", 5, 2)):
        act = bpy.data.actions.new(name)
        ad.action = act
        pb = rig.pose.bones["tip"]
        pb.rotation_mode = 'XYZ'
        for f in range(1, n + 1):
            e = [0.0, 0.0, 0.0]
            e[axis] = 0.15 * (f - 1)
            pb.rotation_euler = e
            pb.keyframe_insert("rotation_euler", frame=f)
        track = ad.nla_tracks.new()
        track.name = name
        track.strips.new(name, 1, act)
        ad.action = None
    pb.rotation_euler = (0, 0, 0)
    return {"bend": 9, "twist": 5}


def check_scripted(name, make):
    for ext, mdl in ((".mdl", "quake"), (".md2", None), (".md3", None), (".md5mesh", None)):
        want = make()
        out = os.path.join(args.out, "%s%s" % (name, ext))
        try:
            r = bpy.ops.export_scene.retromodel(filepath=out, **({"mdl": mdl} if mdl else {}))
        except RuntimeError as e:
            msg = str(e).strip().splitlines()[-1]
            record("%s -> %s" % (name, ext), False, msg)
            continue
        if not os.path.isfile(out):
            record("%s -> %s" % (name, ext), False, "nothing written: %s" % r)
            continue
        got = info(out)
        if ext == ".md3" and name == "shape-keys":
            tags = got.get("header", {}).get("num_tags")
            record("%s -> %s: the tag_flag empty is an MD3 tag" % (name, ext), tags == 1, "num_tags %s" % tags)
        if ext == ".md5mesh":
            have = {os.path.splitext(os.path.basename(a["file"]))[0].split("_")[-1]: a["frames"]
                    for a in got.get("animations") or []}
            # Shape keys become one joint per vertex (MD5 animates joints only), one
            # md5anim per action, every pose kept.
        else:
            have = {c["name"]: c["count"] for c in got.get("clips") or []}
        record("%s -> %s frame counts" % (name, ext), have == want,
               "retromodel info: %s, expected %s" % (have, want))


# -- every writer of the registry (issue 39, criterion 3) ---------------------------

def registry():
    """{format name: its `retromodel formats --json` entry} (extensions, write, variants)."""
    return {f["name"]: f for f in map(json.loads, cli("formats", "--json").stdout.splitlines())}


def scene_counts():
    """What the scene holds: triangles, armature bones."""
    tris = sum(len(p.vertices) - 2 for o in mesh_objects() for p in o.data.polygons)
    bones = sum(len(o.data.bones) for o in bpy.data.objects if o.type == 'ARMATURE')
    return tris, bones


def animation_frames(inf):
    """{clip or animation name: frames} of a read-back file (an md5anim file named
    MODEL_CLIP or MODEL-CLIP counts as CLIP)."""
    out = {}
    for a in inf.get("animations") or []:
        name = a["name"].replace("-", "_").split("_")[-1]
        out[name] = a["frames"]
    return out


def check_every_writer():
    """The skinned, animated scene exported to every writable format of the registry."""
    rm = EXT.backend._rm
    if rm is None:
        record("every writer", False, "needs the retromodel package (the CLI fallback lists no writers)")
        return
    formats = registry()
    write = rm.formats()["write"]
    want = armature_model()
    tris, bones = scene_counts()
    offered = [e[1:] for e in EXT.WRITE_EXTENSIONS]
    print("registry writes: %s; the extension offers: %s" % (" ".join(write), " ".join(offered)), flush=True)
    record("every writer: IQM and Quake MDL offered", "iqm" in offered and "mdl" in offered, " ".join(offered))
    record("every writer: the extension offers only the registry's", set(offered) <= set(write),
           " ".join(sorted(set(offered) - set(write))))
    # the file browsers' filters: every readable format, every offered one
    read = rm.formats()["read"]
    imp = set(bpy.ops.import_scene.retromodel.get_rna_type().properties["filter_glob"].default.split(";"))
    exp = set(bpy.ops.export_scene.retromodel.get_rna_type().properties["filter_glob"].default.split(";"))
    record("every writer: the import filter lists every readable format", {"*." + e for e in read} <= imp,
           "missing: %s" % " ".join(sorted({"*." + e for e in read} - imp)))
    record("every writer: the export filter lists the offered formats", exp == {"*." + e for e in offered},
           " ".join(sorted(exp)))
    kinds = [i.identifier for i in bpy.ops.export_scene.retromodel.get_rna_type().properties["mdl"].enum_items]
    for ext in write:
        for kind in (kinds if ext in EXT.VARIANTS else [None]):
            label = "." + ext + (" (mdl=%s)" % kind if kind else "")
            folder = os.path.join(args.out, "every", ext + ("-" + kind if kind else ""))
            os.makedirs(folder, exist_ok=True)
            out = os.path.join(folder, "armature." + ext)
            if ext not in offered:
                check_refused(label, folder, out)
                continue
            try:
                r = bpy.ops.export_scene.retromodel(filepath=out, **({"mdl": kind} if kind else {}))
            except RuntimeError as e:
                record("every writer %s: export" % label, False, str(e).strip().splitlines()[-1])
                continue
            if 'FINISHED' not in r or not os.path.isfile(out):
                record("every writer %s: export" % label, False, "nothing written: %s" % r)
                continue
            try:
                check_written(label, out, ext, kind, formats, want, tris, bones)
            except Exception as e:
                traceback.print_exc()
                record("every writer %s: read back" % label, False, "%s: %s" % (type(e).__name__, e))


def check_refused(label, folder, out):
    """An extension the extension does not offer: retromodel must refuse Blender's glTF of
    the scene for it (else the extension hides a format retromodel writes)."""
    glb = os.path.join(folder, "scene.glb")
    r = bpy.ops.export_scene.gltf(**EXT.export_gltf_options(glb))
    if 'FINISHED' not in r:
        record("every writer %s: Blender's glTF" % label, False, str(r))
        return
    try:
        EXT.backend.save_glb(glb, out)
    except EXT.backend.BackendError as e:
        record("every writer %s: not offered, and retromodel refuses the scene" % label, True, str(e))
        print("  not exported %s: %s" % (label, e), flush=True)
        # the operator says so, with retromodel's reason
        try:
            r = bpy.ops.export_scene.retromodel(filepath=out)
            said = str(r)
        except RuntimeError as err:
            said = str(err).strip()
        record("every writer %s: the operator refuses it with retromodel's reason" % label,
               str(e) in said and not os.path.exists(out), said.splitlines()[-1] if said else "")
        return
    record("every writer %s: not offered, and retromodel refuses the scene" % label, False,
           "retromodel wrote %s; the extension left it out: %s" % (out, EXT.REFUSED.get("." + label[1:].split()[0])))


def check_written(label, out, ext, kind, formats, want, tris, bones):
    m = EXT.backend._rm.load(out)
    inf = m.info()
    fmt = formats.get(inf.get("format"), {})
    record("every writer %s: detected as a written format of the extension" % label,
           ext in fmt.get("extensions", ()) and fmt.get("write") and (kind is None or kind in fmt.get("variants", ())),
           "%s %s" % (inf.get("format"), fmt.get("extensions")))
    have = animation_frames(inf)
    if inf.get("meshes") or inf.get("triangles"):
        record("every writer %s: triangles" % label, inf.get("triangles") == tris and inf.get("vertices", 0) > 0,
               "%s vertices, %s triangles, the scene %d" % (inf.get("vertices"), inf.get("triangles"), tris))
    else:
        # an animation-only file (md5anim): the skeleton and one of the actions (one
        # animation a file, named after the file)
        record("every writer %s: one action of the scene" % label,
               inf.get("joints") == bones and len(have) == 1 and list(have.values())[0] in want.values(),
               "no mesh, %s joints, animations %s, the scene %s" % (inf.get("joints"), have, want))
    if inf.get("joints"):
        record("every writer %s: joints" % label, inf["joints"] == bones,
               "%d joints, the scene %d bones" % (inf["joints"], bones))
    if have and (inf.get("meshes") or inf.get("triangles")):
        record("every writer %s: animation frames" % label, have == want, "%s, the scene %s" % (have, want))
    elif not have:
        record("every writer %s: one pose (the format keeps no animation)" % label, inf.get("poses") == 1,
               "%s poses" % inf.get("poses"))
    print("  exported %s: %s (%d bytes): %s, %s vertices, %s triangles, %s joints, %s poses, animations %s" % (
        label, os.path.basename(out), os.path.getsize(out), inf.get("format"), inf.get("vertices"),
        inf.get("triangles"), inf.get("joints"), inf.get("poses"), have), flush=True)


def check_goldsrc_export():
    """The armature scene exported as Half-Life MDL with the GoldSrc options: one bone
    (--bones 1: the tip merged into the root, the shape error reported) and the textures in
    NAMET.mdl; read back (the pair), one joint and the scene's animations."""
    want = armature_model()
    tris, _ = scene_counts()
    folder = os.path.join(args.out, "goldsrc")
    os.makedirs(folder, exist_ok=True)
    out = os.path.join(folder, "arm.mdl")
    r = bpy.ops.export_scene.retromodel(filepath=out, mdl="goldsrc", bones=1, external_textures=True)
    record("goldsrc: export", 'FINISHED' in r and os.path.isfile(out), str(r))
    record("goldsrc: textures in armT.mdl", os.path.isfile(os.path.join(folder, "armT.mdl")),
           " ".join(sorted(os.listdir(folder))))
    if EXT.backend._rm is None:
        return
    inf = EXT.backend._rm.load(out).info()
    record("goldsrc: read back as Half-Life MDL", inf.get("format") == "half-life-mdl", str(inf.get("format")))
    record("goldsrc: one bone (--bones 1)", inf.get("joints") == 1, "%s joints" % inf.get("joints"))
    record("goldsrc: triangles", inf.get("triangles") == tris, "%s, the scene %d" % (inf.get("triangles"), tris))
    record("goldsrc: the actions", animation_frames(inf) == want, "%s, the scene %s" % (animation_frames(inf), want))


def check_half_life():
    """Issue 41: a Half-Life model imports through the extension (import only: writing
    GoldSrc from a scene is issue 42) with its armature, one action per sequence and its
    textures (manT.mdl's, found beside man.mdl); the Body option shows the sub-model the
    game would (cube.mdl's hat), as --body does."""
    hl = C + "/assimp/test/models/MDL/MDL (HL1)/man.mdl"
    orig = info(hl)
    clear()
    r = bpy.ops.import_scene.retromodel(filepath=hl)
    record("half-life: import", 'FINISHED' in r, str(r))
    bones = sum(len(a.data.bones) for a in bpy.data.objects if a.type == 'ARMATURE')
    record("half-life: armature bones = joints", bones == orig["joints"], "%d bones, %d joints" % (bones, orig["joints"]))
    clips = EXT._clip_names(bpy.data.objects)
    n = len(orig.get("animations") or [])
    record("half-life: one action per sequence", len(clips) == n, "%d actions, %d sequences" % (len(clips), n))
    imgs = image_textures()
    record("half-life: image textures (manT.mdl)", bool(imgs), ", ".join(sorted(set(imgs))))
    cube = C + "/hl1_mdl/github-LogicAndTrick-sledge-formats/Sledge.Formats.Model.Tests/Resources/mdl10/cube.mdl"
    counts = []
    for body in (0, 1):
        clear()
        bpy.ops.import_scene.retromodel(filepath=cube, body=body)
        counts.append(sum(len(o.data.polygons) for o in mesh_objects()))
    want = [info(cube, "--body", str(b))["triangles"] for b in (0, 1)]
    record("half-life: Body picks the sub-model", counts == want and counts[0] < counts[1],
           "faces %s, info --body: %s" % (counts, want))


def check_meshopt():
    """Issue 43, criterion 4: a gltfpack -cc file (EXT_meshopt_compression), which
    Blender's own importer refuses, imports through the extension with its armature and
    actions (an MD5 mesh) or its shape keys (a Quake MDL): retromodel decodes it first."""
    pack = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "npm", "node_modules", "gltfpack", "cli.js")
    if not os.path.isfile(pack):
        record("meshopt: gltfpack (npm) in target/npm", False, "missing: npm install --prefix target/npm gltfpack")
        return
    for name, model in (("md5", C + "/assimp/test/models-nonbsd/MD5/Bob.md5mesh"),
                        ("mdl", C + "/quake_mdl/github-Ademan-LibreQuake/lq1/progs/zombie.mdl")):
        glb = os.path.join(args.out, "meshopt-%s.glb" % name)
        packed = os.path.join(args.out, "meshopt-%s-cc.glb" % name)
        cli("convert", model, glb, "--force")
        subprocess.run(["node", pack, "-i", glb, "-o", packed, "-cc"], check=True, capture_output=True)
        with open(packed, "rb") as f:
            head = f.read(4096)
        record("meshopt %s: gltfpack wrote EXT_meshopt_compression" % name, b"EXT_meshopt_compression" in head)
        want = info(packed)
        clear()
        r = bpy.ops.import_scene.retromodel(filepath=packed)
        record("meshopt %s: import" % name, 'FINISHED' in r, str(r))
        if want.get("joints"):
            bones = sum(len(a.data.bones) for a in bpy.data.objects if a.type == 'ARMATURE')
            record("meshopt %s: armature bones = joints" % name, bones == want["joints"], "%d bones, %d joints" % (bones, want["joints"]))
            n = len([a for a in want.get("animations") or [] if a.get("kind") == "skeletal"])
            acts = len(EXT._clip_names(bpy.data.objects))
            record("meshopt %s: one action per animation" % name, acts == n, "%d actions, %d animations" % (acts, n))
        else:
            keys = [len(o.data.shape_keys.key_blocks) if o.data.shape_keys else 1 for o in mesh_objects()]
            record("meshopt %s: shape keys = poses" % name, bool(keys) and all(k == want["poses"] for k in keys),
                   "%s shape keys, %d poses" % (keys, want["poses"]))


def main():
    only = set(args.only.split(",")) if args.only else None
    for case in CASES:
        if only and case[0].split()[0] not in only:
            continue
        try:
            check_corpus(*case)
        except Exception as e:
            traceback.print_exc()
            record(case[0], False, "%s: %s" % (type(e).__name__, e))
    for name, check in (("half-life", check_half_life), ("meshopt", check_meshopt),
                        ("goldsrc", check_goldsrc_export)):
        if only and name not in only:
            continue
        try:
            check()
        except Exception as e:
            traceback.print_exc()
            record(name, False, "%s: %s" % (type(e).__name__, e))
    for name, make in (("shape-keys", shape_key_model), ("armature", armature_model)):
        if only and name not in only:
            continue
        try:
            check_scripted(name, make)
        except Exception as e:
            traceback.print_exc()
            record(name, False, "%s: %s" % (type(e).__name__, e))
    if not only or "every-writer" in only:
        try:
            check_every_writer()
        except Exception as e:
            traceback.print_exc()
            record("every writer", False, "%s: %s" % (type(e).__name__, e))
    failed = [r for r in RESULTS if not r[1]]
    print("\n== Blender %s: %d checks, %d failed ==" % (VERSION, len(RESULTS), len(failed)))
    for n, ok, d in failed:
        print("  FAIL %s: %s" % (n, d))
    sys.stdout.flush()
    sys.stderr.flush()
    # os._exit: bpy 4.2 as a module can crash while the interpreter shuts down (status 139)
    os._exit(1 if failed else 0)


main()
