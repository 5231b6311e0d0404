# SPDX-License-Identifier: GPL-3.0-or-later
"""retromodel for Blender: import and export classic game models.

Import: retromodel reads the model and writes it as a binary glTF in memory,
which Blender's own glTF importer turns into objects (shape keys for poses,
an armature for MD5 skeletons, one action per clip, the skins as images).
Export: Blender's own glTF exporter writes the scene (shape keys, armature,
actions, empties named tag_*) as a binary glTF into a temporary folder,
which retromodel writes as the game format.

Only bpy.ops.import_scene.gltf / bpy.ops.export_scene.gltf and a few plain
data reads are used, so that the parts of Blender's API that change between
releases stay out of this extension (see README.md).
"""

import os
import tempfile

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import backend

# The model formats come from retromodel's registry when the extension registers
# (register(): backend.formats() and backend.export_formats()), so that a format retromodel
# learns appears in the import and export filters with no edit here.  What the importer
# takes besides models: archives (a model inside one is named ARCHIVE:PATH; the file
# browser picks the archive) and a Quake 3 player's animation.cfg (the assembled player).
OTHER_INPUTS = (".pak", ".pk3", ".pk4", ".zip", ".cfg")
# The writer variants to offer for an extension (the MDL Kind choice).  retromodel's
# Python package does not list variants, so these are the names asked for; each one is
# offered only if retromodel writes it (backend.export_formats).
VARIANTS = {"mdl": ("quake", "gs3", "gs4", "gs5", "goldsrc")}
READ_EXTENSIONS = ()   # ".mdl", ...: the registry's readable formats, then OTHER_INPUTS
WRITE_EXTENSIONS = ()  # the registry's writable formats that a Blender export can be written as
SKELETAL_EXTENSIONS = ()  # of those, the formats that keep the skeleton (MD5, IQM, glTF)
REFUSED = {}           # ".hmp": why retromodel writes no such file from a Blender scene
PLAYER_PARTS = ("lower", "upper", "head")


def _known(op, **kw):
    """The keyword arguments that operator `op` has (options differ between Blender releases)."""
    names = {p.identifier for p in op.get_rna_type().properties}
    return {k: v for k, v in kw.items() if k in names}


def player_folder(path):
    """A Quake 3 player folder when `path` is one of its parts (lower/upper/head*.md3,
    animation.cfg) or the folder itself; None otherwise."""
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    name = os.path.basename(path).lower()
    is_part = os.path.isdir(path) or name == "animation.cfg" or (
        name.endswith(".md3") and name.split("_")[0].split(".")[0] in PLAYER_PARTS)
    if not is_part or not os.path.isfile(os.path.join(folder, "animation.cfg")):
        return None
    if all(os.path.isfile(os.path.join(folder, p + ".md3")) for p in PLAYER_PARTS):
        return folder
    return None


def _clip_names(objects):
    """The clips (glTF animations) the glTF importer made: one NLA track per animation
    on every animated data block (Blender 4.2: one action per animation and object;
    5.0: one slotted action per animation)."""
    names = []
    for ob in objects:
        blocks = [ob]
        if ob.type == 'MESH' and ob.data.shape_keys:
            blocks.append(ob.data.shape_keys)
        for b in blocks:
            ad = b.animation_data
            if ad:
                for t in ad.nla_tracks:
                    if t.name not in names:
                        names.append(t.name)
    return names


class IMPORT_SCENE_OT_retromodel(bpy.types.Operator, ImportHelper):
    """Import a game model through retromodel (the formats: see register())"""
    bl_idname = "import_scene.retromodel"
    bl_label = "Import Game Model (retromodel)"
    bl_options = {'REGISTER', 'UNDO', 'PRESET'}

    filter_glob: StringProperty(default="", options={'HIDDEN'})  # set by register()
    skin_name: StringProperty(name="Skin Name", description="Quake 3 models: the .skin to use (default, red, blue)", default="")
    game_dir: StringProperty(name="Game Folder", description="A game's data folder (baseq2, baseoa, base), its archives included, where skins named by the model are looked for", default="", subtype='DIR_PATH')
    palette: StringProperty(name="Palette", description="A 768-byte palette.lmp for 8-bit skins instead of the one found beside the model or Quake's", default="", subtype='FILE_PATH')
    anims: StringProperty(name="MD5 Animations", description="MD5 meshes: .md5anim files to include, separated by ';' (default: every one beside the mesh that fits)", default="")
    assemble_player: BoolProperty(name="Assemble Quake 3 Player", description="A lower/upper/head .md3 or animation.cfg of a player folder imports the whole player (upper on tag_torso, head on tag_head, one clip per animation.cfg entry)", default=True)
    model_config: BoolProperty(name="Apply Model Config", description="MD5: apply what a Cube 2 / Red Eclipse md5.cfg beside the mesh says (size, turn, animation speeds), as the game shows the model; off: the file as stored", default=True)
    clips_as_actions: BoolProperty(name="Clips as Actions", description="One action per clip (frame group, named frames, animation.cfg entry, .md5anim); off: poses as shape keys only", default=True)
    body: IntProperty(name="Body", description="Half-Life models of body parts: the body value the game sets, which picks each part's sub-model (heads, weapons); 0: the first of each", default=0, min=0)
    skin_family: IntProperty(name="Skin Family", description="Half-Life models: the skin family the game sets; 0: the first", default=0, min=0)
    fps: IntProperty(name="Scene FPS", description="Frames per second to set the scene to, so that each pose falls on a frame (0: the model's own rate)", default=0, min=0, max=240)

    def execute(self, context):
        path = bpy.path.abspath(self.filepath)
        src = (player_folder(path) if self.assemble_player else None) or path
        try:
            loaded = backend.load_glb(
                src,
                game_dirs=[bpy.path.abspath(self.game_dir)] if self.game_dir else (),
                skin_name=self.skin_name or None,
                anims=[a.strip() for a in self.anims.split(";") if a.strip()],
                palette=bpy.path.abspath(self.palette) if self.palette else None,
                model_config=self.model_config,
                body=self.body,
                skin_family=self.skin_family)
        except backend.BackendError as e:
            self.report({'ERROR'}, str(e))
            return {'CANCELLED'}
        clips = loaded.info.get("clips") or []
        # the model's rate: of its first clip, or of its first .md5anim
        rates = [c.get("fps") for c in clips] + [a.get("fps") for a in loaded.info.get("animations") or []]
        rates = [r for r in rates if r]
        fps = self.fps or (round(rates[-1] if loaded.info.get("animations") else rates[0]) if rates else 0)
        scene = context.scene
        if fps:
            # the glTF importer turns key times into frames at the scene's rate
            scene.render.fps, scene.render.fps_base = int(fps), 1.0
        before = set(bpy.data.objects)
        with tempfile.TemporaryDirectory(prefix="retromodel-") as tmp:
            glb = os.path.join(tmp, os.path.splitext(os.path.basename(src.rstrip("/\\")))[0] + ".glb")
            with open(glb, "wb") as f:
                f.write(loaded.glb)
            result = bpy.ops.import_scene.gltf(**_known(
                bpy.ops.import_scene.gltf, filepath=glb, merge_vertices=False,
                disable_bone_shape=True, import_pack_images=True, import_shading='NORMALS'))
        if 'FINISHED' not in result:
            self.report({'ERROR'}, "Blender's glTF importer failed on retromodel's output")
            return {'CANCELLED'}
        new = [ob for ob in bpy.data.objects if ob not in before]
        _keep_clip_extras(new, loaded.glb)
        for ob in new:
            # in game units: exported back at scale 1 (see EXPORT_SCENE_OT_retromodel)
            ob["retromodel_source"] = os.path.basename(src.rstrip("/\\"))
        if not self.clips_as_actions:
            _drop_actions(new)
        elif clips:
            longest = max(int(round(c["count"] * fps / c["fps"])) if c.get("fps") and fps else c["count"] for c in clips)
            longest = max([longest] + [a.get("frames", 0) for a in loaded.info.get("animations") or []])
            scene.frame_start, scene.frame_end = 0, max(longest - 1, 0)
        for w in loaded.warnings:
            self.report({'WARNING'}, w)
        inf = loaded.info
        self.report({'INFO'}, "%s: %s, %d vertices, %d triangles, %d poses, %d joints, %d clips" % (
            os.path.basename(src.rstrip("/\\")), inf.get("format", "?"), inf.get("vertices", 0),
            inf.get("triangles", 0), inf.get("poses", 0), inf.get("joints", 0), len(clips)))
        return {'FINISHED'}


def _glb_animation_extras(glb):
    """{animation name: extras} of a binary glTF (retromodel writes frameCount and
    frameGroup there: what rebuilds a clip exactly, Quake MDL frame groups included)."""
    import json
    import struct
    try:
        (length,) = struct.unpack_from("<I", glb, 12)
        doc = json.loads(glb[20:20 + length])
    except (ValueError, struct.error):
        return {}
    return {a.get("name"): a["extras"] for a in doc.get("animations", [])
            if isinstance(a.get("extras"), dict)}


def _keep_clip_extras(objects, glb):
    """Copy each glTF animation's extras onto its actions as custom properties, which
    Blender's exporter writes back as the animation's extras (export_extras)."""
    extras = _glb_animation_extras(glb)
    if not extras:
        return
    for ob in objects:
        blocks = [ob] + ([ob.data.shape_keys] if ob.type == 'MESH' and ob.data.shape_keys else [])
        for b in blocks:
            ad = b.animation_data
            for t in (ad.nla_tracks if ad else ()):
                for strip in t.strips:
                    if strip.action is not None and t.name in extras:
                        for k, v in extras[t.name].items():
                            if isinstance(v, (int, float, str, bool)):
                                strip.action[k] = v


def _drop_actions(objects):
    for ob in objects:
        blocks = [ob] + ([ob.data.shape_keys] if ob.type == 'MESH' and ob.data.shape_keys else [])
        for b in blocks:
            ad = b.animation_data
            if not ad:
                continue
            acts = {s.action for t in ad.nla_tracks for s in t.strips if s.action}
            if ad.action:
                acts.add(ad.action)
            b.animation_data_clear()
            for a in acts:
                if a.users == 0:
                    bpy.data.actions.remove(a)


class EXPORT_SCENE_OT_retromodel(bpy.types.Operator, ExportHelper):
    """Export as a game model through retromodel; the format from the file's extension (the formats: see register())"""
    bl_idname = "export_scene.retromodel"
    bl_label = "Export Game Model (retromodel)"
    bl_options = {'REGISTER', 'PRESET'}

    filename_ext = ".md3"  # register(): .md3 if retromodel writes it, else its first format
    check_extension = None  # the extension picks the format: keep the one typed
    filter_glob: StringProperty(default="", options={'HIDDEN'})  # set by register()

    # register(): the variants retromodel writes; this default is replaced
    mdl: EnumProperty(name="MDL Kind", description=".mdl files: which MDL to write",
                      items=(('quake', "quake", ""),))
    use_selection: BoolProperty(name="Selected Only", description="Export the selected objects only", default=False)
    animation: EnumProperty(name="Clips", items=(
        ('ACTIONS', "Actions", "Each action (shape keys, armature, tag empties) becomes a clip"),
        ('RANGE', "Frame Range", "The frames from Start to End, as the scene plays them, become one clip")),
        default='ACTIONS')
    sample_frames: BoolProperty(name="Sample Every Frame", description="Bake the animation on every frame (drivers, constraints, NLA blending) instead of writing the keys as they are", default=False)
    frame_start: IntProperty(name="Start", default=1)
    frame_end: IntProperty(name="End", default=10)
    fps: FloatProperty(name="FPS", description="The rate animations are sampled at (0: 10 for MDL, MD2, MD3, as their games step frames; the scene's for formats that keep the skeleton: MD5, IQM, glTF)", default=0.0, min=0.0, max=240.0)
    dither: BoolProperty(name="Dither Skin", description="MDL/MD2 skins: Floyd-Steinberg dithering when matching colours to the palette", default=False)
    palette: StringProperty(name="Palette", description="A 768-byte palette.lmp for 8-bit skins (default: Quake's for MDL)", default="", subtype='FILE_PATH')
    strict: BoolProperty(name="Strict", description="Fail instead of warning when the result exceeds the target engine's limits", default=False)
    scale: FloatProperty(name="Scale", description="Scale factor (0: 1 for models imported by retromodel, else metres to game units, 32 a metre, 40 for MD5)", default=0.0, min=0.0)
    fit_height: FloatProperty(name="Fit Height", description="Scale the model to this many units tall (0: off)", default=0.0, min=0.0)
    rotate: FloatProperty(name="Yaw", description="Turn the model about the up axis, degrees", default=0.0)
    keep_skin_size: BoolProperty(name="Keep Skin Size", description="Keep skins over 480 texels high instead of resampling them", default=False)
    skin: StringProperty(name="Skin Picture", description="A PNG or PCX to use as the only skin instead of the material's image", default="", subtype='FILE_PATH')
    bones: IntProperty(name="Bones", description="At most this many joints (0: the format's own limit, 128 for Half-Life MDL): an armature's least important bones merge into their parents, shape keys get this many fitted rigid bones; the shape error is reported", default=0, min=0, max=4096)
    external_textures: BoolProperty(name="External Textures", description="Half-Life MDL: the textures in NAMET.mdl beside the model ($externaltextures)", default=False)
    sequence_group_size: IntProperty(name="Sequence Group KB", description="Half-Life MDL: at most this many KB of animation in the model, the rest in NAME01.mdl, NAME02.mdl ... (0: all in the model)", default=0, min=0)

    def execute(self, context):
        out = bpy.path.abspath(self.filepath)
        ext = os.path.splitext(out)[1].lower()
        if ext not in WRITE_EXTENSIONS:
            if ext in REFUSED:
                self.report({'ERROR'}, "retromodel writes no %s from a Blender scene: %s (one of %s)" % (
                    ext, REFUSED[ext], " ".join(WRITE_EXTENSIONS)))
            else:
                self.report({'ERROR'}, "unknown output extension %r (one of %s)" % (ext, " ".join(WRITE_EXTENSIONS)))
            return {'CANCELLED'}
        scene = context.scene
        scale = self.scale or None
        if scale is None and not self.fit_height and any(
                "retromodel_source" in ob for ob in (context.selected_objects if self.use_selection else scene.objects)):
            # imported by this extension: already in game units, not metres to scale up
            scale = 1.0
        fps = self.fps or None
        # Half-Life MDL (the goldsrc variant) and its QC keep the skeleton too; the probe
        # cannot tell for them (one .mdl extension has keyframe variants, and a QC does not
        # read back without its SMDs)
        skeletal = ext in SKELETAL_EXTENSIONS or ext == ".qc" or (ext == ".mdl" and self.mdl == "goldsrc")
        if fps is None and skeletal:
            # MD5, IQM and glTF keep the skeleton's animations at their own rate: sample
            # at the scene's, so that each key stays a frame (retromodel's default, 24,
            # would resample a 10 fps scene and cut its last key)
            fps = scene.render.fps / scene.render.fps_base
        old_range = (scene.frame_start, scene.frame_end)
        with tempfile.TemporaryDirectory(prefix="retromodel-") as tmp:
            glb = os.path.join(tmp, "blender.glb")
            try:
                if self.animation == 'RANGE':
                    scene.frame_start, scene.frame_end = self.frame_start, self.frame_end
                result = bpy.ops.export_scene.gltf(**export_gltf_options(
                    glb, self.use_selection, self.animation, self.sample_frames))
            finally:
                scene.frame_start, scene.frame_end = old_range
            if 'FINISHED' not in result or not os.path.isfile(glb):
                self.report({'ERROR'}, "Blender's glTF exporter failed")
                return {'CANCELLED'}
            try:
                saved = backend.save_glb(
                    glb, out, fps=fps, mdl=self.mdl if ext[1:] in VARIANTS else None,
                    palette=bpy.path.abspath(self.palette) if self.palette else None,
                    dither=self.dither, strict=self.strict, scale=scale,
                    fit_height=self.fit_height or None, rotate=self.rotate or None,
                    keep_skin_size=self.keep_skin_size,
                    skin=bpy.path.abspath(self.skin) if self.skin else None,
                    bones=self.bones or None,
                    external_textures=self.external_textures and ext == ".mdl",
                    sequence_group_size=(self.sequence_group_size or None) if ext == ".mdl" else None)
            except backend.BackendError as e:
                self.report({'ERROR'}, str(e))
                return {'CANCELLED'}
        for w in saved.warnings:
            self.report({'WARNING'}, w)
        for n in saved.notes:
            self.report({'INFO'}, n)
        msg = "Wrote %s" % ", ".join(os.path.basename(f) for f in saved.files or [out])
        if saved.max_error is not None:
            msg += "; largest %s error %.4g units" % (
                "shape" if self.bones else "quantisation", saved.max_error)
        self.report({'INFO'}, msg)
        return {'FINISHED'}

    def draw(self, context):
        layout = self.layout
        layout.use_property_split = True
        for name in ("mdl", "use_selection", "animation", "sample_frames"):
            layout.prop(self, name)
        if self.animation == 'RANGE':
            row = layout.row(align=True)
            row.prop(self, "frame_start")
            row.prop(self, "frame_end")
        for name in ("fps", "scale", "fit_height", "rotate", "skin", "palette", "dither", "keep_skin_size", "strict", "bones"):
            layout.prop(self, name)
        if self.mdl == "goldsrc":
            # Half-Life MDL's side files; QC + SMD export (branches qc, smd) hooks in here too
            for name in ("external_textures", "sequence_group_size"):
                layout.prop(self, name)


def export_gltf_options(path, use_selection=False, animation='ACTIONS', sample=False):
    """The options of Blender's glTF exporter that give retromodel what it reads:
    every action a glTF animation (shape-key weights, bone and object transforms),
    sampled on every frame, morph targets, the armature as a skin, empties as nodes,
    images as they are (PNG stays PNG).

    Keys are written as they are unless `sample`: a model imported from retromodel then
    keeps each pose on its key at the clip's own rate (a Quake 3 player's clips run at
    10 to 25 frames a second, which no one scene rate samples), and retromodel samples
    what is between keys itself; `sample` bakes every frame (drivers, constraints)."""
    kw = dict(
        filepath=path, export_format='GLB', use_selection=use_selection,
        export_yup=True, export_apply=False, export_texcoords=True, export_normals=True,
        export_materials='EXPORT', export_image_format='AUTO', export_extras=True,
        # `_SOURCE_VERTEX`, which retromodel's glTF carries and Blender keeps as a point
        # attribute: the file's vertices come back as they were (seam copies, duplicates).
        export_attributes=True,
        export_cameras=False, export_lights=False,
        export_animations=True, export_force_sampling=sample, export_frame_step=1,
        export_optimize_animation_size=False, export_anim_slide_to_zero=True,
        export_morph=True, export_morph_normal=True, export_morph_animation=True,
        export_skins=True, export_all_influences=False, export_def_bones=False,
        export_rest_position_armature=True, export_anim_single_armature=True,
        export_try_sparse_sk=False, export_draco_mesh_compression_enable=False)
    if animation == 'RANGE':
        kw.update(export_animation_mode='SCENE', export_frame_range=True)
    else:
        kw.update(export_animation_mode='ACTIONS', export_frame_range=False,
                  export_nla_strips=True, export_merge_animation='ACTION')
    return _known(bpy.ops.export_scene.gltf, **kw)


def menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_retromodel.bl_idname, text="Game Model (retromodel)")


def menu_export(self, context):
    self.layout.operator(EXPORT_SCENE_OT_retromodel.bl_idname, text="Game Model (retromodel)")


classes = (IMPORT_SCENE_OT_retromodel, EXPORT_SCENE_OT_retromodel)


def load_formats():
    """Fill READ_EXTENSIONS, WRITE_EXTENSIONS, SKELETAL_EXTENSIONS and REFUSED from
    retromodel's registry, and the operators' file filters, MDL Kind choice and
    descriptions from them.  Without retromodel (the package missing) the filters show
    every file and the operators report what is missing when run."""
    global READ_EXTENSIONS, WRITE_EXTENSIONS, SKELETAL_EXTENSIONS, REFUSED
    try:
        found = backend.formats()
        exports = backend.export_formats(VARIANTS)
    except backend.BackendError as e:
        found, exports, missing = {"read": []}, backend.Exports(), str(e)
    else:
        missing = None
    dots = lambda names: tuple("." + e for e in names)  # noqa: E731
    READ_EXTENSIONS = dots(found["read"]) + tuple(e for e in OTHER_INPUTS if e[1:] not in found["read"])
    WRITE_EXTENSIONS = dots(exports.extensions)
    SKELETAL_EXTENSIONS = dots(exports.skeletal)
    REFUSED = {"." + e: why for e, why in exports.refused.items()}
    imp, exp = IMPORT_SCENE_OT_retromodel, EXPORT_SCENE_OT_retromodel
    imp.__annotations__["filter_glob"] = StringProperty(
        default=";".join("*" + e for e in READ_EXTENSIONS) if not missing else "*", options={'HIDDEN'})
    exp.__annotations__["filter_glob"] = StringProperty(
        default=";".join("*" + e for e in WRITE_EXTENSIONS) if not missing else "*", options={'HIDDEN'})
    kinds = exports.variants.get("mdl") or [("quake", "quake")]
    exp.__annotations__["mdl"] = EnumProperty(
        name="MDL Kind", description=".mdl files: which MDL to write (retromodel's --mdl)",
        items=tuple((v, v, about) for v, about in kinds),
        default="quake" if any(v == "quake" for v, _ in kinds) else kinds[0][0])
    exp.filename_ext = ".md3" if ".md3" in WRITE_EXTENSIONS or missing else (WRITE_EXTENSIONS or (".glb",))[0]

    imp.bl_description = "Import a game model through retromodel: %s" % (
        " ".join(READ_EXTENSIONS) if not missing else missing)
    exp.bl_description = "Export as a game model through retromodel, the format from the file's extension: %s" % (
        " ".join(e + (" (%s)" % ", ".join(v for v, _ in exports.variants[e[1:]]) if e[1:] in exports.variants else "")
                 for e in WRITE_EXTENSIONS) if not missing else missing)


def register():
    load_formats()
    for c in classes:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
