//! The GoldSrc records, one struct per structure of `studio.h`, field for field, each with
//! its size, its reading from a checked record ([`Fields`]) and its writing: the two
//! directions side by side so that they cannot drift apart. Names are kept as the stored
//! bytes (what follows the terminating zero included), so a file writes back byte for byte.

use std::borrow::Cow;

use crate::io::names::name_str;
use crate::io::{Fields, Gap, Writer};

/// `studiohdr_t`: 244 bytes.
pub const HEADER_SIZE: usize = 244;
/// `studioseqhdr_t`: 76 bytes.
pub const SEQ_HEADER_SIZE: usize = 76;
/// `mstudiobone_t`.
pub const BONE_SIZE: usize = 112;
/// `mstudiobonecontroller_t`.
pub const CONTROLLER_SIZE: usize = 24;
/// `mstudiobbox_t`.
pub const HITBOX_SIZE: usize = 32;
/// `mstudioseqdesc_t`.
pub const SEQUENCE_SIZE: usize = 176;
/// `mstudioevent_t`.
pub const EVENT_SIZE: usize = 76;
/// `mstudiopivot_t`.
pub const PIVOT_SIZE: usize = 20;
/// `mstudioseqgroup_t`.
pub const SEQ_GROUP_SIZE: usize = 104;
/// `mstudiotexture_t`.
pub const TEXTURE_SIZE: usize = 80;
/// `mstudiobodyparts_t`.
pub const BODY_PART_SIZE: usize = 76;
/// `mstudiomodel_t`.
pub const MODEL_SIZE: usize = 112;
/// `mstudiomesh_t`.
pub const MESH_SIZE: usize = 20;
/// `mstudioattachment_t`.
pub const ATTACHMENT_SIZE: usize = 88;
/// `mstudioanim_t`: six `u16` offsets.
pub const ANIM_SIZE: usize = 12;
/// A texture's palette after its pixels: 256 RGB colours.
pub const PALETTE_SIZE: usize = 768;

/// Texture flag `STUDIO_NF_FLATSHADE`.
pub const NF_FLATSHADE: i32 = 0x1;
/// Texture flag `STUDIO_NF_CHROME`: sphere-mapped from the view.
pub const NF_CHROME: i32 = 0x2;
/// Texture flag `STUDIO_NF_FULLBRIGHT`: unlit.
pub const NF_FULLBRIGHT: i32 = 0x4;
/// Texture flag `STUDIO_NF_NOMIPS`.
pub const NF_NOMIPS: i32 = 0x8;
/// Texture flag `STUDIO_NF_ALPHA` (Xash3D reuses 0x10 for its own purposes).
pub const NF_ALPHA: i32 = 0x10;
/// Texture flag `STUDIO_NF_ADDITIVE`: blended by adding.
pub const NF_ADDITIVE: i32 = 0x20;
/// Texture flag `STUDIO_NF_MASKED`: palette index 255 is transparent.
pub const NF_MASKED: i32 = 0x40;
/// Sequence flag `STUDIO_LOOPING`.
pub const STUDIO_LOOPING: i32 = 0x1;

/// The texture flags with their names, in bit order (`info` lists them so).
pub const TEXTURE_FLAGS: &[(i32, &str)] = &[
    (NF_FLATSHADE, "flatshade"),
    (NF_CHROME, "chrome"),
    (NF_FULLBRIGHT, "fullbright"),
    (NF_NOMIPS, "nomips"),
    (NF_ALPHA, "alpha"),
    (NF_ADDITIVE, "additive"),
    (NF_MASKED, "masked"),
];

fn vec3(f: &mut Fields) -> [f32; 3] {
    f.f32s()
}

fn i32s<const N: usize>(f: &mut Fields) -> [i32; N] {
    std::array::from_fn(|_| f.i32())
}

fn put_i32s(w: &mut Writer, v: &[i32]) {
    for &x in v {
        w.i32(x);
    }
}

fn put_f32s(w: &mut Writer, v: &[f32]) {
    for &x in v {
        w.f32(x);
    }
}

/// `studiohdr_t`: the model's header, every count and offset as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// `IDST`.
    pub ident: [u8; 4],
    /// 10.
    pub version: i32,
    /// The model's name as studiomdl wrote it (often the output path).
    pub name: [u8; 64],
    /// The file's length as stored.
    pub length: i32,
    /// The ideal eye position.
    pub eye_position: [f32; 3],
    /// The movement hull's minimum.
    pub min: [f32; 3],
    /// The movement hull's maximum.
    pub max: [f32; 3],
    /// The clipping box's minimum.
    pub bbmin: [f32; 3],
    /// The clipping box's maximum.
    pub bbmax: [f32; 3],
    /// Model flags (rocket trail, rotate, ... as Quake's).
    pub flags: i32,
    /// `numbones`, `boneindex`, `numbonecontrollers`, `bonecontrollerindex`, `numhitboxes`,
    /// `hitboxindex`, `numseq`, `seqindex`, `numseqgroups`, `seqgroupindex`, `numtextures`,
    /// `textureindex`, `texturedataindex`, `numskinref`, `numskinfamilies`, `skinindex`,
    /// `numbodyparts`, `bodypartindex`, `numattachments`, `attachmentindex`, `soundtable`,
    /// `soundindex`, `soundgroups`, `soundgroupindex`, `numtransitions`, `transitionindex`, in
    /// that order ([`Header::FIELDS`] names them).
    pub fields: [i32; 26],
}

macro_rules! header_fields {
    ($($get:ident = $i:expr),* $(,)?) => {
        impl Header {
            $(
                #[doc = concat!("`", stringify!($get), "` as stored.")]
                pub fn $get(&self) -> i32 {
                    self.fields[$i]
                }
            )*
        }
    };
}

header_fields! {
    num_bones = 0, bone_index = 1, num_controllers = 2, controller_index = 3,
    num_hitboxes = 4, hitbox_index = 5, num_seq = 6, seq_index = 7,
    num_seq_groups = 8, seq_group_index = 9, num_textures = 10, texture_index = 11,
    texture_data_index = 12, num_skin_ref = 13, num_skin_families = 14, skin_index = 15,
    num_body_parts = 16, body_part_index = 17, num_attachments = 18, attachment_index = 19,
    sound_table = 20, sound_index = 21, sound_groups = 22, sound_group_index = 23,
    num_transitions = 24, transition_index = 25,
}

impl Header {
    /// A version-10 `IDST` header named `name`, every box, count and offset zero: where the
    /// writer, the QC compiler and the texture file start.
    pub fn new(name: &str) -> Header {
        Header {
            ident: *super::MAGIC,
            version: super::VERSION,
            name: crate::io::names::name_field::<64>(name).0,
            length: 0,
            eye_position: [0.0; 3],
            min: [0.0; 3],
            max: [0.0; 3],
            bbmin: [0.0; 3],
            bbmax: [0.0; 3],
            flags: 0,
            fields: [0; 26],
        }
    }

    /// The names of [`Header::fields`] as `studio.h` spells them.
    pub const FIELDS: [&'static str; 26] = [
        "numbones",
        "boneindex",
        "numbonecontrollers",
        "bonecontrollerindex",
        "numhitboxes",
        "hitboxindex",
        "numseq",
        "seqindex",
        "numseqgroups",
        "seqgroupindex",
        "numtextures",
        "textureindex",
        "texturedataindex",
        "numskinref",
        "numskinfamilies",
        "skinindex",
        "numbodyparts",
        "bodypartindex",
        "numattachments",
        "attachmentindex",
        "soundtable",
        "soundindex",
        "soundgroups",
        "soundgroupindex",
        "numtransitions",
        "transitionindex",
    ];

    /// Byte offset of field `i` of [`Header::fields`] in the file.
    pub const fn field_offset(i: usize) -> usize {
        140 + 4 * i
    }

    /// Reads the 244 bytes.
    pub fn read(f: &mut Fields) -> Header {
        Header {
            ident: f.array(),
            version: f.i32(),
            name: f.array(),
            length: f.i32(),
            eye_position: vec3(f),
            min: vec3(f),
            max: vec3(f),
            bbmin: vec3(f),
            bbmax: vec3(f),
            flags: f.i32(),
            fields: i32s(f),
        }
    }

    /// Writes the 244 bytes.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.ident);
        w.i32(self.version);
        w.bytes(&self.name);
        w.i32(self.length);
        for v in [
            self.eye_position,
            self.min,
            self.max,
            self.bbmin,
            self.bbmax,
        ] {
            w.vec3(v);
        }
        w.i32(self.flags);
        put_i32s(w, &self.fields);
    }

    /// The model's name as text.
    pub fn name(&self) -> String {
        name_str(&self.name)
    }
}

/// `studioseqhdr_t`: the header of a sequence group file (`IDSQ`).
#[derive(Debug, Clone, PartialEq)]
pub struct SeqHeader {
    /// `IDSQ`.
    pub ident: [u8; 4],
    /// 10.
    pub version: i32,
    /// The name studiomdl gave it.
    pub name: [u8; 64],
    /// The file's length as stored.
    pub length: i32,
}

impl SeqHeader {
    /// Reads the 76 bytes.
    pub fn read(f: &mut Fields) -> SeqHeader {
        SeqHeader {
            ident: f.array(),
            version: f.i32(),
            name: f.array(),
            length: f.i32(),
        }
    }

    /// Writes the 76 bytes.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.ident);
        w.i32(self.version);
        w.bytes(&self.name);
        w.i32(self.length);
    }
}

/// `mstudiobone_t`: a bone, its six degrees of freedom (X, Y, Z, XR, YR, ZR) at rest and the
/// scale of their stored deltas.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// Name.
    pub name: [u8; 32],
    /// Parent bone, -1 for a root.
    pub parent: i32,
    /// Flags (`STUDIO_HAS_NORMALS`, ...).
    pub flags: i32,
    /// The bone controller of each degree of freedom, -1 for none.
    pub bone_controller: [i32; 6],
    /// Default values: position, then Euler angles in radians.
    pub value: [f32; 6],
    /// Scale of the stored animation values.
    pub scale: [f32; 6],
}

impl Bone {
    /// Reads one record.
    pub fn read(f: &mut Fields) -> Bone {
        Bone {
            name: f.array(),
            parent: f.i32(),
            flags: f.i32(),
            bone_controller: i32s(f),
            value: f.f32s(),
            scale: f.f32s(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.name);
        w.i32(self.parent);
        w.i32(self.flags);
        put_i32s(w, &self.bone_controller);
        put_f32s(w, &self.value);
        put_f32s(w, &self.scale);
    }

    /// The name as text.
    pub fn name(&self) -> String {
        name_str(&self.name)
    }
}

/// `mstudiobonecontroller_t`.
#[derive(Debug, Clone, PartialEq)]
pub struct BoneController {
    /// The bone it moves (-1 read as 0 by the engine).
    pub bone: i32,
    /// Motion type bits (`STUDIO_X` .. `STUDIO_ZR`, `STUDIO_RLOOP`).
    pub kind: i32,
    /// Value at controller byte 0.
    pub start: f32,
    /// Value at controller byte 255.
    pub end: f32,
    /// Controller byte at rest.
    pub rest: i32,
    /// Which controller: 0..3 set by the game, 4 the mouth.
    pub index: i32,
}

impl BoneController {
    /// Reads one record.
    pub fn read(f: &mut Fields) -> BoneController {
        BoneController {
            bone: f.i32(),
            kind: f.i32(),
            start: f.f32(),
            end: f.f32(),
            rest: f.i32(),
            index: f.i32(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.i32(self.bone);
        w.i32(self.kind);
        w.f32(self.start);
        w.f32(self.end);
        w.i32(self.rest);
        w.i32(self.index);
    }
}

/// `mstudiobbox_t`: a hit box.
#[derive(Debug, Clone, PartialEq)]
pub struct Hitbox {
    /// The bone it follows.
    pub bone: i32,
    /// Hit group.
    pub group: i32,
    /// Minimum corner, in the bone's space.
    pub bbmin: [f32; 3],
    /// Maximum corner.
    pub bbmax: [f32; 3],
}

impl Hitbox {
    /// Reads one record.
    pub fn read(f: &mut Fields) -> Hitbox {
        Hitbox {
            bone: f.i32(),
            group: f.i32(),
            bbmin: vec3(f),
            bbmax: vec3(f),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.i32(self.bone);
        w.i32(self.group);
        w.vec3(self.bbmin);
        w.vec3(self.bbmax);
    }
}

/// `mstudioevent_t`: an animation event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Frame it fires on.
    pub frame: i32,
    /// Event number (5004 plays a sound, ...).
    pub event: i32,
    /// Type (unused by the engine).
    pub kind: i32,
    /// Options text (a sound's name, ...).
    pub options: [u8; 64],
}

impl Event {
    /// The options as text.
    pub fn options(&self) -> String {
        name_str(&self.options)
    }

    /// Reads one record.
    pub fn read(f: &mut Fields) -> Event {
        Event {
            frame: f.i32(),
            event: f.i32(),
            kind: f.i32(),
            options: f.array(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.i32(self.frame);
        w.i32(self.event);
        w.i32(self.kind);
        w.bytes(&self.options);
    }
}

/// `mstudiopivot_t`: a foot pivot.
#[derive(Debug, Clone, PartialEq)]
pub struct Pivot {
    /// Pivot point.
    pub org: [f32; 3],
    /// First frame.
    pub start: i32,
    /// Last frame.
    pub end: i32,
}

impl Pivot {
    /// Reads one record.
    pub fn read(f: &mut Fields) -> Pivot {
        Pivot {
            org: vec3(f),
            start: f.i32(),
            end: f.i32(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.vec3(self.org);
        w.i32(self.start);
        w.i32(self.end);
    }
}

/// One bone's animation in one blend of a sequence: `mstudioanim_t`'s six offsets (from the
/// record itself; 0 is a channel that stays at the bone's default) and each channel's
/// run-length-encoded values (`mstudioanimvalue_t` words: a run header `valid | total << 8`,
/// then `valid` values; the last value holds for the rest of the run's `total` frames).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoneAnim {
    /// The stored offsets, X, Y, Z, XR, YR, ZR.
    pub offsets: [u16; 6],
    /// Each channel's words, as far as the sequence's frames reach (empty for offset 0).
    pub channels: [Vec<u16>; 6],
}

/// `mstudioseqdesc_t`: a sequence, its events and pivots, and (for sequences of group 0) its
/// animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    /// Label.
    pub label: [u8; 32],
    /// Frames a second.
    pub fps: f32,
    /// Flags (`STUDIO_LOOPING`).
    pub flags: i32,
    /// Activity.
    pub activity: i32,
    /// Activity weight.
    pub act_weight: i32,
    /// `numevents`, `eventindex`.
    pub event_index: [i32; 2],
    /// Number of frames.
    pub num_frames: i32,
    /// `numpivots`, `pivotindex`.
    pub pivot_index: [i32; 2],
    /// Motion type bits.
    pub motion_type: i32,
    /// Motion bone.
    pub motion_bone: i32,
    /// Linear movement over the sequence.
    pub linear_movement: [f32; 3],
    /// `automoveposindex`, `automoveangleindex` (unused).
    pub automove: [i32; 2],
    /// Per-sequence bounding box minimum.
    pub bbmin: [f32; 3],
    /// Per-sequence bounding box maximum.
    pub bbmax: [f32; 3],
    /// Number of blends.
    pub num_blends: i32,
    /// Offset of the `mstudioanim_t` array `[blend][bone]`, in the sequence group's data.
    pub anim_index: i32,
    /// Blend types.
    pub blend_type: [i32; 2],
    /// Blend start values.
    pub blend_start: [f32; 2],
    /// Blend end values.
    pub blend_end: [f32; 2],
    /// Blend parent.
    pub blend_parent: i32,
    /// Sequence group (0: this file).
    pub seq_group: i32,
    /// Transition node at entry.
    pub entry_node: i32,
    /// Transition node at exit.
    pub exit_node: i32,
    /// Transition rules.
    pub node_flags: i32,
    /// Sequence that follows.
    pub next_seq: i32,
    /// The events.
    pub events: Vec<Event>,
    /// The pivots.
    pub pivots: Vec<Pivot>,
    /// The animation, `num_blends` × bones, when it lies in this file (group 0); empty for a
    /// sequence of another group, whose file [`super::read_group_anims`] reads.
    pub anims: Vec<BoneAnim>,
}

impl Sequence {
    /// Reads one record (events, pivots and animation are read after, from their offsets).
    pub fn read(f: &mut Fields) -> Sequence {
        Sequence {
            label: f.array(),
            fps: f.f32(),
            flags: f.i32(),
            activity: f.i32(),
            act_weight: f.i32(),
            event_index: i32s(f),
            num_frames: f.i32(),
            pivot_index: i32s(f),
            motion_type: f.i32(),
            motion_bone: f.i32(),
            linear_movement: vec3(f),
            automove: i32s(f),
            bbmin: vec3(f),
            bbmax: vec3(f),
            num_blends: f.i32(),
            anim_index: f.i32(),
            blend_type: i32s(f),
            blend_start: f.f32s(),
            blend_end: f.f32s(),
            blend_parent: f.i32(),
            seq_group: f.i32(),
            entry_node: f.i32(),
            exit_node: f.i32(),
            node_flags: f.i32(),
            next_seq: f.i32(),
            events: Vec::new(),
            pivots: Vec::new(),
            anims: Vec::new(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.label);
        w.f32(self.fps);
        w.i32(self.flags);
        w.i32(self.activity);
        w.i32(self.act_weight);
        put_i32s(w, &self.event_index);
        w.i32(self.num_frames);
        put_i32s(w, &self.pivot_index);
        w.i32(self.motion_type);
        w.i32(self.motion_bone);
        w.vec3(self.linear_movement);
        put_i32s(w, &self.automove);
        w.vec3(self.bbmin);
        w.vec3(self.bbmax);
        w.i32(self.num_blends);
        w.i32(self.anim_index);
        put_i32s(w, &self.blend_type);
        put_f32s(w, &self.blend_start);
        put_f32s(w, &self.blend_end);
        for v in [
            self.blend_parent,
            self.seq_group,
            self.entry_node,
            self.exit_node,
            self.node_flags,
            self.next_seq,
        ] {
            w.i32(v);
        }
    }

    /// The label as text.
    pub fn label(&self) -> String {
        name_str(&self.label)
    }

    /// Whether the sequence loops.
    pub fn looping(&self) -> bool {
        self.flags & STUDIO_LOOPING != 0
    }
}

/// `mstudioseqgroup_t`: a sequence group; group 0 is the model's own file, group N is
/// `NAME0N.mdl` beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeqGroup {
    /// Label.
    pub label: [u8; 32],
    /// File name as studiomdl wrote it.
    pub name: [u8; 64],
    /// Was `cache`.
    pub unused1: i32,
    /// Was `data`.
    pub unused2: i32,
}

impl SeqGroup {
    /// Reads one record.
    pub fn read(f: &mut Fields) -> SeqGroup {
        SeqGroup {
            label: f.array(),
            name: f.array(),
            unused1: f.i32(),
            unused2: f.i32(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.label);
        w.bytes(&self.name);
        w.i32(self.unused1);
        w.i32(self.unused2);
    }
}

/// `mstudiotexture_t` with its pixels (`width × height` palette indices) and its own palette.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture<'a> {
    /// Name (the source picture's file name).
    pub name: [u8; 64],
    /// Flags (`NF_*`).
    pub flags: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
    /// Offset of the pixels.
    pub index: i32,
    /// The pixels.
    pub pixels: Cow<'a, [u8]>,
    /// The palette after them (768 bytes).
    pub palette: Cow<'a, [u8]>,
}

impl Texture<'_> {
    /// Reads one record (pixels and palette are read after).
    pub fn read(f: &mut Fields) -> Texture<'static> {
        Texture {
            name: f.array(),
            flags: f.i32(),
            width: f.i32(),
            height: f.i32(),
            index: f.i32(),
            pixels: Cow::Borrowed(&[]),
            palette: Cow::Borrowed(&[]),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.name);
        w.i32(self.flags);
        w.i32(self.width);
        w.i32(self.height);
        w.i32(self.index);
    }

    /// The name as text.
    pub fn name(&self) -> String {
        name_str(&self.name)
    }

    /// The texture's flag names, in bit order (unknown bits as hex).
    pub fn flag_names(&self) -> Vec<String> {
        let mut names: Vec<String> = TEXTURE_FLAGS
            .iter()
            .filter(|(bit, _)| self.flags & bit != 0)
            .map(|(_, n)| n.to_string())
            .collect();
        let known = TEXTURE_FLAGS.iter().fold(0, |a, (b, _)| a | b);
        if self.flags & !known != 0 {
            names.push(format!("0x{:x}", self.flags & !known));
        }
        names
    }
}

/// `mstudiomesh_t` with its triangle commands.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Number of triangles.
    pub num_tris: i32,
    /// Offset of the triangle commands.
    pub tri_index: i32,
    /// Skin reference (a column of the skin families).
    pub skin_ref: i32,
    /// Per-mesh normal count.
    pub num_norms: i32,
    /// Per-mesh normal offset (unused by the engine).
    pub norm_index: i32,
    /// The commands: a count (> 0 a strip, < 0 a fan, 0 the end) then that many
    /// `[vertex, normal, s, t]`; the final 0 included.
    pub commands: Vec<i16>,
}

impl Mesh {
    /// Reads one record (its commands are read after).
    pub fn read(f: &mut Fields) -> Mesh {
        Mesh {
            num_tris: f.i32(),
            tri_index: f.i32(),
            skin_ref: f.i32(),
            num_norms: f.i32(),
            norm_index: f.i32(),
            commands: Vec::new(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.i32(self.num_tris);
        w.i32(self.tri_index);
        w.i32(self.skin_ref);
        w.i32(self.num_norms);
        w.i32(self.norm_index);
    }

    /// The triangle commands as (`fan`, `[vertex, normal, s, t]` list) runs.
    pub fn runs(&self) -> impl Iterator<Item = (bool, &[i16])> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            let count = *self.commands.get(at)?;
            if count == 0 {
                return None;
            }
            let n = count.unsigned_abs() as usize * 4;
            let run = self.commands.get(at + 1..at + 1 + n)?;
            at += 1 + n;
            Some((count < 0, run))
        })
    }

    /// The triangles the commands draw, each three `[vertex, normal, s, t]` corners in the
    /// stored winding (strips alternate as OpenGL draws them; fans turn about the first).
    pub fn triangles(&self) -> Vec<[[i16; 4]; 3]> {
        let mut out = Vec::new();
        for (fan, run) in self.runs() {
            let c: Vec<[i16; 4]> = run
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect();
            for k in 0..c.len().saturating_sub(2) {
                out.push(if fan {
                    [c[0], c[k + 1], c[k + 2]]
                } else if k % 2 == 0 {
                    [c[k], c[k + 1], c[k + 2]]
                } else {
                    [c[k + 1], c[k], c[k + 2]]
                });
            }
        }
        out
    }
}

/// `mstudiomodel_t`: a sub-model with its meshes, vertices and normals (in their bones'
/// spaces) and the bone of each.
#[derive(Debug, Clone, PartialEq)]
pub struct SubModel<'a> {
    /// Name.
    pub name: [u8; 64],
    /// Type (unused).
    pub kind: i32,
    /// Bounding radius.
    pub bounding_radius: f32,
    /// `nummesh`, `meshindex`, `numverts`, `vertinfoindex`, `vertindex`, `numnorms`,
    /// `norminfoindex`, `normindex`, `numgroups`, `groupindex`.
    pub fields: [i32; 10],
    /// The meshes.
    pub meshes: Vec<Mesh>,
    /// The vertices.
    pub vertices: Vec<[f32; 3]>,
    /// Each vertex's bone.
    pub vertex_bones: Cow<'a, [u8]>,
    /// The normals.
    pub normals: Vec<[f32; 3]>,
    /// Each normal's bone.
    pub normal_bones: Cow<'a, [u8]>,
}

impl SubModel<'_> {
    /// Reads one record (meshes and arrays are read after).
    pub fn read(f: &mut Fields) -> SubModel<'static> {
        SubModel {
            name: f.array(),
            kind: f.i32(),
            bounding_radius: f.f32(),
            fields: i32s(f),
            meshes: Vec::new(),
            vertices: Vec::new(),
            vertex_bones: Cow::Borrowed(&[]),
            normals: Vec::new(),
            normal_bones: Cow::Borrowed(&[]),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.name);
        w.i32(self.kind);
        w.f32(self.bounding_radius);
        put_i32s(w, &self.fields);
    }

    /// The name as text.
    pub fn name(&self) -> String {
        name_str(&self.name)
    }

    /// The same sub-model, detached from its input.
    pub fn into_owned(self) -> SubModel<'static> {
        SubModel {
            vertex_bones: Cow::Owned(self.vertex_bones.into_owned()),
            normal_bones: Cow::Owned(self.normal_bones.into_owned()),
            ..self
        }
    }
}

/// `mstudiobodyparts_t` with its sub-models (the engine shows one of them at a time).
#[derive(Debug, Clone, PartialEq)]
pub struct BodyPart<'a> {
    /// Name.
    pub name: [u8; 64],
    /// Number of sub-models.
    pub num_models: i32,
    /// The body value's stride for this part.
    pub base: i32,
    /// Offset of the sub-models.
    pub model_index: i32,
    /// The sub-models.
    pub models: Vec<SubModel<'a>>,
}

impl BodyPart<'_> {
    /// Reads one record (the sub-models are read after).
    pub fn read(f: &mut Fields) -> BodyPart<'static> {
        BodyPart {
            name: f.array(),
            num_models: f.i32(),
            base: f.i32(),
            model_index: f.i32(),
            models: Vec::new(),
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.name);
        w.i32(self.num_models);
        w.i32(self.base);
        w.i32(self.model_index);
    }

    /// The name as text.
    pub fn name(&self) -> String {
        name_str(&self.name)
    }
}

/// `mstudioattachment_t`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    /// Name.
    pub name: [u8; 32],
    /// Type.
    pub kind: i32,
    /// The bone it follows.
    pub bone: i32,
    /// The point, in the bone's space.
    pub org: [f32; 3],
    /// Three direction vectors.
    pub vectors: [[f32; 3]; 3],
}

impl Attachment {
    /// Reads one record.
    pub fn read(f: &mut Fields) -> Attachment {
        Attachment {
            name: f.array(),
            kind: f.i32(),
            bone: f.i32(),
            org: vec3(f),
            vectors: [vec3(f), vec3(f), vec3(f)],
        }
    }

    /// Writes one record.
    pub fn write(&self, w: &mut Writer) {
        w.bytes(&self.name);
        w.i32(self.kind);
        w.i32(self.bone);
        w.vec3(self.org);
        for v in self.vectors {
            w.vec3(v);
        }
    }
}

/// A parsed studio model (`IDST`): a model, or a texture file (`NAMET.mdl`: textures and
/// skins, no bones). Every structure is kept with its offset's bytes; the bytes no
/// structure claims are [`Gap`]s, so the file writes back byte for byte.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header.
    pub header: Header,
    /// The bones.
    pub bones: Vec<Bone>,
    /// The bone controllers.
    pub controllers: Vec<BoneController>,
    /// The hit boxes.
    pub hitboxes: Vec<Hitbox>,
    /// The sequences.
    pub sequences: Vec<Sequence>,
    /// The sequence groups.
    pub seq_groups: Vec<SeqGroup>,
    /// The textures.
    pub textures: Vec<Texture<'a>>,
    /// The skin families: `numskinfamilies` rows of `numskinref` texture indices.
    pub skins: Vec<i16>,
    /// The body parts.
    pub body_parts: Vec<BodyPart<'a>>,
    /// The attachments.
    pub attachments: Vec<Attachment>,
    /// The transition table (`numtransitions²` bytes).
    pub transitions: Cow<'a, [u8]>,
    /// Bytes no structure claims.
    pub gaps: Vec<Gap<'a>>,
}

impl File<'_> {
    /// Skin family `family`: a texture index for each skin reference.
    pub fn skin_family(&self, family: usize) -> &[i16] {
        let n = self.header.num_skin_ref().max(0) as usize;
        self.skins.get(family * n..(family + 1) * n).unwrap_or(&[])
    }

    /// Whether this is a texture file (`NAMET.mdl`): textures, no bones.
    pub fn is_texture_file(&self) -> bool {
        self.bones.is_empty() && !self.textures.is_empty()
    }

    /// Whether the model's textures live in `NAMET.mdl` (none here, yet sub-models).
    pub fn has_external_textures(&self) -> bool {
        self.textures.is_empty() && self.body_parts.iter().any(|b| !b.models.is_empty())
    }

    /// Bytes kept outside every structure.
    pub fn gap_bytes(&self) -> usize {
        self.gaps.iter().map(|g| g.bytes.len()).sum()
    }

    /// The same file, detached from its input.
    pub fn into_owned(self) -> File<'static> {
        File {
            textures: self
                .textures
                .into_iter()
                .map(|t| Texture {
                    pixels: Cow::Owned(t.pixels.into_owned()),
                    palette: Cow::Owned(t.palette.into_owned()),
                    ..t
                })
                .collect(),
            body_parts: self
                .body_parts
                .into_iter()
                .map(|b| BodyPart {
                    models: b.models.into_iter().map(SubModel::into_owned).collect(),
                    ..b
                })
                .collect(),
            transitions: Cow::Owned(self.transitions.into_owned()),
            gaps: self.gaps.into_iter().map(Gap::into_owned).collect(),
            ..self
        }
    }
}

/// A parsed sequence group file (`IDSQ`, `NAME01.mdl`): its header and the animation data
/// after it, which only the model's sequences can read ([`super::read_group_anims`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SeqGroupFile<'a> {
    /// The header.
    pub header: SeqHeader,
    /// The whole file (animation offsets count from its first byte).
    pub data: Cow<'a, [u8]>,
}

/// A GoldSrc file: a studio model or a sequence group.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // one a parse, matched at once: a box would only add an indirection
pub enum AnyFile<'a> {
    /// `IDST`.
    Studio(File<'a>),
    /// `IDSQ`.
    SeqGroup(SeqGroupFile<'a>),
}
