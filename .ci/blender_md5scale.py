"""Checks in Blender that a Quake II re-release pair's .md5scale comes through glTF: a joint
at scale 0 in some frames hides the vertices it carries, as the engine does.

Run (Blender):   blender -b --factory-startup --python-exit-code 1 --python .ci/blender_md5scale.py -- \
                     SCALED.glb PLAIN.glb JOINT FRAMES [COUNT]
Run (bpy module): VENV/bin/python .ci/blender_md5scale.py -- SCALED.glb PLAIN.glb JOINT FRAMES [COUNT]

SCALED.glb is `retromodel convert NAME.md2 --prefer md5` of a pair whose .md5scale gives JOINT
the scale 0 in FRAMES (comma-separated MD2 frame numbers) and 1 elsewhere; PLAIN.glb the same
pair exported without the .md5scale. COUNT, when given, is the number of MD2 frames the
animation must have. retromodel writes the scales through a helper node `JOINT.md5scale`, a
leaf child of JOINT with a STEP `scale` channel that carries JOINT's weights, so in SCALED the
vertices JOINT carries are weighted to the bone `JOINT.md5scale`, in PLAIN to `JOINT`.

Each file is imported into an empty scene with Blender's glTF importer. The importer makes one
action per glTF animation (one here) and puts the keys at time * scene fps (24 by default; the
glTF is at 10 fps, so MD2 frame k sits at scene frame 2.4 k, between whole frames). The scene
frame of frame k is read from the action's keyframes (the sorted distinct key times, which must
be evenly spaced 0.1 s apart; an offset of the first key is allowed and reported) and set with
`scene.frame_set(whole, subframe=fraction)`. Per frame the evaluated (armature-deformed) meshes
give world-space vertex positions; vertices are matched between the two imports by mesh object
name and vertex index (both files come from the same converter, so the counts must agree; a
mismatch is a failure, not matched by nearest). The joint's vertices are those whose only
nonzero vertex group weight is 1 in the group named after the bone (`JOINT.md5scale` in SCALED,
`JOINT` in PLAIN); both imports must select the same vertices.

Checks:
- the animation moves the vertices of PLAIN more than 1 unit (so the frames were reached);
- in FRAMES, the joint's vertices in SCALED collapse to one point (max distance to their mean
  < 1e-3), the joint's head (its pose bone's head in world space), while in PLAIN they spread (> 1 unit), and the vertices with no weight on the joint
  agree between SCALED and PLAIN within 1e-3;
- in every other frame every vertex of SCALED is within 1e-3 of PLAIN's (largest coordinate
  difference);
- the helper bone's pose scale is 0 in FRAMES and 1 elsewhere (what the importer made of the
  STEP channel).
Lines starting with `blender:` summarise; exit status 1 on any failure.
"""
import math
import sys
import warnings

import numpy

# Debian's numpy is newer than the one Blender's glTF importer was written for.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    if not hasattr(numpy, "bool"):
        numpy.bool = bool

import bpy  # noqa: E402

COLLAPSED = 1e-3  # largest spread of hidden vertices (scene units)
SPREAD = 1.0  # smallest spread of the same vertices without the scale file
AGREE = 1e-3  # largest coordinate difference between the imports where nothing is hidden
HELPER = ".md5scale"

failures = []


def nanmax(*args):
    """max() that keeps a NaN (Python's max drops it when it is not first): a NaN coordinate or
    scale must fail the checks below, not vanish from them (issue 45)."""
    vals = list(args[0]) if len(args) == 1 else list(args)
    return float("nan") if any(math.isnan(v) for v in vals) else max(vals)


def fail(msg):
    print(f"blender: FAIL {msg}")
    failures.append(msg)


def action_fcurves(action):
    """The action's F-curves: `action.fcurves` before Blender 5, the channel bags of its
    layered strips from 5.0 on (where `Action.fcurves` is gone)."""
    fcurves = getattr(action, "fcurves", None)
    if fcurves is not None:
        return list(fcurves)
    out = []
    for layer in action.layers:
        for strip in layer.strips:
            for bag in strip.channelbags:
                out.extend(bag.fcurves)
    return out


def key_frames(action):
    """The distinct key times of the action, sorted (scene frames, possibly fractional)."""
    times = []
    for fc in action_fcurves(action):
        for kp in fc.keyframe_points:
            t = kp.co[0]
            if not any(abs(t - u) < 1e-4 for u in times):
                times.append(t)
    return sorted(times)


def set_frame(scene, f):
    whole = math.floor(f)
    scene.frame_set(int(whole), subframe=f - whole)


class Import:
    """One glTF imported into an empty scene: its armature, skinned meshes, action and the
    scene frame of each glTF key."""

    def __init__(self, path, group):
        self.path = path
        bpy.ops.wm.read_factory_settings(use_empty=True)
        result = bpy.ops.import_scene.gltf(filepath=path)
        if "FINISHED" not in result:
            raise SystemExit(f"blender: FAIL {path}: import returned {result}")
        self.scene = bpy.context.scene
        arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
        self.meshes = sorted(
            (o for o in bpy.data.objects if o.type == "MESH" and any(m.type == "ARMATURE" for m in o.modifiers)),
            key=lambda o: o.name,
        )
        if len(arms) != 1 or not self.meshes:
            raise SystemExit(f"blender: FAIL {path}: {len(arms)} armatures, {len(self.meshes)} skinned meshes")
        self.arm = arms[0]
        actions = list(bpy.data.actions)
        if len(actions) != 1:
            raise SystemExit(f"blender: FAIL {path}: {len(actions)} actions ({[a.name for a in actions]}), expected 1")
        self.action = actions[0]
        ad = self.arm.animation_data
        if ad is None:
            raise SystemExit(f"blender: FAIL {path}: the armature has no animation data")
        if ad.action != self.action:
            # The importer leaves the first animation active; make sure it is.
            ad.action = self.action
            if hasattr(ad, "action_slot") and ad.action_slot is None and len(self.action.slots):
                ad.action_slot = self.action.slots[0]
        self.times = key_frames(self.action)
        self.fps = self.scene.render.fps / self.scene.render.fps_base
        # Vertices whose only nonzero weight is 1 in `group`, per mesh object.
        self.group = group
        self.joint_verts = {}
        for o in self.meshes:
            vg = o.vertex_groups.get(group)
            sel = []
            if vg is not None:
                for v in o.data.vertices:
                    ws = [(g.group, g.weight) for g in v.groups if g.weight > 0.0]
                    if len(ws) == 1 and ws[0][0] == vg.index and ws[0][1] >= 0.9999:
                        sel.append(v.index)
            self.joint_verts[o.name] = sel
        # Vertices with no weight at all on `group`.
        self.free_verts = {}
        for o in self.meshes:
            vg = o.vertex_groups.get(group)
            gi = vg.index if vg is not None else -1
            self.free_verts[o.name] = [
                v.index for v in o.data.vertices if not any(g.group == gi and g.weight > 0.0 for g in v.groups)
            ]
        self.mesh_names = [o.name for o in self.meshes]
        self.poses = {}
        self.helper_scales = {}
        self.joint_heads = {}

    def describe(self):
        bones = [b.name for b in self.arm.data.bones]
        nverts = sum(len(o.data.vertices) for o in self.meshes)
        njoint = sum(len(v) for v in self.joint_verts.values())
        first = self.times[0] if self.times else float("nan")
        print(
            f"blender: {self.path}: armature {self.arm.name!r} bones {bones}, {len(self.meshes)} skinned meshes "
            f"({nverts} vertices, {njoint} fully on {self.group!r}), action {self.action.name!r} with "
            f"{len(self.times)} key times, scene fps {self.fps:g}, first key at scene frame {first:g}"
        )

    def check_times(self, count):
        if count is not None and len(self.times) != count:
            fail(f"{self.path}: {len(self.times)} key times, expected {count} frames")
        worst = 0.0
        for k, t in enumerate(self.times):
            worst = nanmax(worst, abs(t - self.times[0] - k / 10 * self.fps))
        if not worst <= 1e-3:
            fail(f"{self.path}: key times not 0.1 s apart (worst {worst:g} scene frames off)")

    def evaluate(self, k):
        """World-space positions of every vertex of every skinned mesh at MD2 frame k."""
        set_frame(self.scene, self.times[k])
        dg = bpy.context.evaluated_depsgraph_get()
        out = {}
        for o in self.meshes:
            ev = o.evaluated_get(dg)
            me = ev.to_mesh()
            mw = ev.matrix_world.copy()
            out[o.name] = [mw @ v.co for v in me.vertices]
            ev.to_mesh_clear()
        pb = self.arm.pose.bones.get(self.group)
        if pb is not None and self.group.endswith(HELPER):
            self.helper_scales[k] = (tuple(pb.scale), pb.matrix.to_3x3().determinant())
            # The joint itself: where its vertices collapse to.
            joint = self.arm.pose.bones.get(self.group[: -len(HELPER)])
            if joint is not None:
                self.joint_heads[k] = self.arm.matrix_world @ joint.head
        return out


def spread(points):
    if not points:
        return float("nan")
    n = len(points)
    mean = sum((p for p in points), points[0] * 0) / n
    return nanmax((p - mean).length for p in points)


def main():
    args = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    if len(args) not in (4, 5):
        raise SystemExit(__doc__)
    scaled_path, plain_path, joint, frames = args[:4]
    count = int(args[4]) if len(args) == 5 else None
    hidden = sorted(int(f) for f in frames.split(","))
    print(f"blender: Blender {bpy.app.version_string} ({'module' if bpy.app.background and not bpy.app.binary_path else bpy.app.binary_path})")

    results = []
    for path, group in ((scaled_path, joint + HELPER), (plain_path, joint)):
        imp = Import(path, group)
        imp.describe()
        imp.check_times(count)
        if not results:  # the scaled file
            names = [b.name for b in imp.arm.data.bones]
            if joint + HELPER not in names:
                fail(f"{path}: no helper bone {joint + HELPER!r} among {names}")
            hb = imp.arm.data.bones.get(joint + HELPER)
            if hb is not None and (hb.parent is None or hb.parent.name != joint or hb.children):
                fail(f"{path}: helper bone {hb.name!r} is not a leaf child of {joint!r}")
        n = len(imp.times)
        imp.poses = {k: imp.evaluate(k) for k in range(n)}
        # The next import empties the scene: keep only plain data.
        imp.arm = imp.meshes = imp.action = imp.scene = None
        results.append(imp)
    scaled, plain = results

    if len(scaled.times) != len(plain.times):
        fail(f"{len(scaled.times)} frames in the scaled import, {len(plain.times)} in the plain one")
    n = min(len(scaled.times), len(plain.times))
    for k in hidden:
        if k >= n:
            fail(f"hidden frame {k} past the last frame ({n - 1})")
    if not any(k not in hidden for k in range(n)):
        fail("no frame left to compare")
    names_s, names_p = scaled.mesh_names, plain.mesh_names
    if names_s != names_p:
        fail(f"mesh objects {names_s} vs {names_p}")
        return
    for name in names_s:
        a = len(scaled.poses[0][name])
        b = len(plain.poses[0][name])
        if a != b:
            fail(f"mesh {name}: {a} vertices in the scaled import, {b} in the plain one")
    if failures:
        return
    if scaled.joint_verts != plain.joint_verts:
        fail(
            f"the vertices fully on {joint + HELPER!r} in the scaled import "
            f"({sum(len(v) for v in scaled.joint_verts.values())}) are not those fully on {joint!r} in the plain one "
            f"({sum(len(v) for v in plain.joint_verts.values())})"
        )
    njoint = sum(len(v) for v in scaled.joint_verts.values())
    if njoint == 0:
        fail(f"no vertex fully on {joint!r}")
        return

    # The animation must move things, or frame_set did not reach it.
    moved = nanmax(
        (pp - p0).length
        for k in range(1, n)
        for name in names_p
        for pp, p0 in zip(plain.poses[k][name], plain.poses[0][name])
    )
    print(f"blender: the plain import's vertices move up to {moved:.3f} from frame 0 over the {n} frames")
    if not moved > SPREAD:
        fail(f"the animation moves vertices only {moved} (want > {SPREAD}): frames not reached")

    worst_other, worst_free, worst_head = 0.0, 0.0, 0.0
    hidden_spreads, plain_spreads = [], []
    for k in range(n):
        ps, pp = scaled.poses[k], plain.poses[k]
        js = [ps[name][i] for name in names_s for i in scaled.joint_verts[name]]
        jp = [pp[name][i] for name in names_s for i in plain.joint_verts[name]]
        s_s, s_p = spread(js), spread(jp)
        diff = 0.0
        for name in names_s:
            idx = range(len(ps[name])) if k not in hidden else scaled.free_verts[name]
            for i in idx:
                d = ps[name][i] - pp[name][i]
                diff = nanmax(diff, abs(d.x), abs(d.y), abs(d.z))
        sc, det = scaled.helper_scales.get(k, ((float("nan"),) * 3, float("nan")))
        want_scale = 0.0 if k in hidden else 1.0
        tag = "hidden" if k in hidden else "shown"
        print(
            f"blender: frame {k:2d} (scene frame {scaled.times[k]:.4f}) {tag}: spread of the {njoint} vertices on "
            f"{joint!r} {s_s:.6f} scaled, {s_p:.6f} plain; largest difference "
            f"{'of the other vertices ' if k in hidden else ''}{diff:.6f}; helper pose scale "
            f"({sc[0]:g}, {sc[1]:g}, {sc[2]:g}), pose matrix determinant {det:g}"
        )
        if not all(abs(c - want_scale) <= 1e-6 for c in sc):
            fail(f"frame {k}: helper bone pose scale {sc}, expected {want_scale}")
        if k in hidden:
            hidden_spreads.append(s_s)
            plain_spreads.append(s_p)
            worst_free = nanmax(worst_free, diff)
            head = scaled.joint_heads.get(k)
            off = nanmax((p - head).length for p in js) if head is not None else float("nan")
            worst_head = nanmax(worst_head, off)
            if not off < COLLAPSED:
                fail(f"frame {k}: the hidden vertices are {off} from the joint {joint!r} (want < {COLLAPSED})")
            if not s_s < COLLAPSED:
                fail(f"frame {k}: the vertices on {joint!r} spread {s_s} in the scaled import (want < {COLLAPSED})")
            if not s_p > SPREAD:
                fail(f"frame {k}: the vertices on {joint!r} spread only {s_p} in the plain import (want > {SPREAD})")
            if not diff <= AGREE:
                fail(f"frame {k}: the vertices off {joint!r} differ by {diff} between the imports (want <= {AGREE})")
        else:
            worst_other = nanmax(worst_other, diff)
            if not diff <= AGREE:
                fail(f"frame {k}: the imports differ by {diff} (want <= {AGREE})")
    print(
        f"blender: {joint!r} hidden in frames {hidden}: its {njoint} vertices spread at most {max(hidden_spreads):.3g} "
        f"(scaled), at most {worst_head:.3g} from the joint's head, vs at least {min(plain_spreads):.3g} (plain); the other vertices agree within {worst_free:.3g}; "
        f"the {n - len(hidden)} other frames agree within {worst_other:.3g}"
    )


main()
if failures:
    print(f"blender: {len(failures)} failures")
    sys.exit(1)
print("blender: md5scale check passed")
