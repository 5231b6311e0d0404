//! Generated GoldSrc files for tests, the registry's sweeps and fuzzing seeds: a model with
//! every branch of the reader (two bones, a controller, a hit box, a looping sequence with
//! an event, a pivot and run-length-encoded channels, a still sequence, two textures with
//! flags, two skin families, a body part of two sub-models drawn by a strip and a fan, an
//! attachment and a transition table), its texture-less twin and a texture file.

use std::borrow::Cow;

use super::raw::*;
use crate::io::names::name_field;

/// Hands out offsets one after another from the end of the header.
struct Layout(usize);

impl Layout {
    fn take(&mut self, len: usize) -> i32 {
        let at = self.0;
        self.0 += len;
        at as i32
    }
}

fn header(name: &str) -> Header {
    Header {
        ident: *super::MAGIC,
        version: super::VERSION,
        name: name_field::<64>(name).0,
        length: 0,
        eye_position: [0.0, 0.0, 24.0],
        min: [-16.0, -16.0, 0.0],
        max: [16.0, 16.0, 72.0],
        bbmin: [-8.0, -8.0, 0.0],
        bbmax: [8.0, 8.0, 16.0],
        flags: 0,
        fields: [0; 26],
    }
}

fn bones() -> Vec<Bone> {
    let bone = |name: &str, parent: i32, z: f32, controller: i32| Bone {
        name: name_field::<32>(name).0,
        parent,
        flags: 0,
        bone_controller: [-1, -1, -1, -1, -1, controller],
        value: [0.0, 0.0, z, 0.0, 0.0, 0.0],
        scale: [0.01, 0.01, 0.01, 0.001, 0.001, 0.001],
    };
    vec![bone("root", -1, 0.0, -1), bone("head", 0, 8.0, 0)]
}

/// Channel words: runs of `(valid, total, values)`.
fn runs(list: &[(u8, u8, &[i16])]) -> Vec<u16> {
    let mut out = Vec::new();
    for (valid, total, values) in list {
        out.push(*valid as u16 | (*total as u16) << 8);
        out.extend(values.iter().map(|&v| v as u16));
    }
    out
}

/// The sequences: `walk` (4 frames, looping, animated, one event and a pivot) and `idle`
/// (1 frame, nothing stored).
fn sequences(l: &mut Layout, bones: usize) -> Vec<Sequence> {
    let seq = |label: &str, frames: i32, flags: i32| Sequence {
        label: name_field::<32>(label).0,
        fps: 10.0,
        flags,
        activity: 1,
        act_weight: 1,
        event_index: [0, 0],
        num_frames: frames,
        pivot_index: [0, 0],
        motion_type: 0,
        motion_bone: 0,
        linear_movement: [0.0; 3],
        automove: [0, 0],
        bbmin: [-8.0; 3],
        bbmax: [8.0; 3],
        num_blends: 1,
        anim_index: 0,
        blend_type: [0, 0],
        blend_start: [0.0, 0.0],
        blend_end: [1.0, 0.0],
        blend_parent: 0,
        seq_group: 0,
        entry_node: 0,
        exit_node: 0,
        node_flags: 0,
        next_seq: 0,
        events: Vec::new(),
        pivots: Vec::new(),
        anims: Vec::new(),
    };
    let mut walk = seq("walk", 4, STUDIO_LOOPING);
    walk.events = vec![Event {
        frame: 2,
        event: 5004,
        kind: 0,
        options: name_field::<64>("step.wav").0,
    }];
    walk.pivots = vec![Pivot {
        org: [0.0, 4.0, 0.0],
        start: 0,
        end: 3,
    }];
    let mut idle = seq("idle", 1, 0);
    let mut list = [walk, idle.clone()];
    for s in &mut list {
        s.event_index = [s.events.len() as i32, l.take(s.events.len() * EVENT_SIZE)];
        s.pivot_index = [s.pivots.len() as i32, l.take(s.pivots.len() * PIVOT_SIZE)];
    }
    // walk: root X moves in a run of 2 values over 4 frames; head ZR turns in two runs.
    let walk_anims = [
        [
            runs(&[(2, 4, &[0, 100])]),
            vec![],
            vec![],
            vec![],
            vec![],
            vec![],
        ],
        [
            vec![],
            vec![],
            vec![],
            vec![],
            vec![],
            runs(&[(1, 2, &[500]), (2, 2, &[-300, 700])]),
        ],
    ];
    list[0].anim_index = l.take(bones * ANIM_SIZE);
    for (b, chans) in walk_anims.into_iter().enumerate() {
        let rec = list[0].anim_index as usize + b * ANIM_SIZE;
        let mut anim = BoneAnim::default();
        for (c, words) in chans.into_iter().enumerate() {
            if !words.is_empty() {
                anim.offsets[c] = (l.take(words.len() * 2) as usize - rec) as u16;
                anim.channels[c] = words;
            }
        }
        list[0].anims.push(anim);
    }
    idle = list[1].clone();
    idle.anim_index = l.take(bones * ANIM_SIZE);
    idle.anims = vec![BoneAnim::default(); bones];
    list[1] = idle;
    list.to_vec()
}

/// Two textures: `skin.bmp` (8×4, masked) and `chrome.bmp` (4×4, chrome and additive).
fn textures(l: &mut Layout) -> Vec<Texture<'static>> {
    let tex = |name: &str, flags: i32, w: i32, h: i32, l: &mut Layout| {
        let pixels: Vec<u8> = (0..w * h)
            .map(|i| if i == 0 { 255 } else { (i * 7) as u8 })
            .collect();
        let palette: Vec<u8> = (0..PALETTE_SIZE).map(|i| (i * 3 % 256) as u8).collect();
        Texture {
            name: name_field::<64>(name).0,
            flags,
            width: w,
            height: h,
            index: l.take(pixels.len() + PALETTE_SIZE),
            pixels: Cow::Owned(pixels),
            palette: Cow::Owned(palette),
        }
    };
    vec![
        tex("skin.bmp", NF_MASKED, 8, 4, l),
        tex("chrome.bmp", NF_CHROME | NF_ADDITIVE, 4, 4, l),
    ]
}

/// A sub-model of 4 vertices (two on each bone) drawn by a strip or a fan.
fn sub_model(name: &str, fan: bool, l: &mut Layout) -> SubModel<'static> {
    let vertices = vec![
        [0.0, 0.0, 0.0],
        [4.0, 0.0, 0.0],
        [0.0, 4.0, 0.0],
        [4.0, 4.0, 2.0],
    ];
    let normals = vec![[0.0, 0.0, 1.0]];
    let order: [i16; 4] = if fan { [0, 1, 3, 2] } else { [0, 1, 2, 3] };
    let mut commands = vec![if fan { -4 } else { 4 }];
    for v in order {
        commands.extend([v, 0, v * 2, v]);
    }
    commands.push(0);
    let mesh = Mesh {
        num_tris: 2,
        tri_index: l.take(commands.len() * 2),
        skin_ref: 0,
        num_norms: 1,
        norm_index: 0,
        commands,
    };
    let meshindex = l.take(MESH_SIZE);
    let vertinfo = l.take(4);
    let vertindex = l.take(4 * 12);
    let norminfo = l.take(1);
    let normindex = l.take(12);
    SubModel {
        name: name_field::<64>(name).0,
        kind: 0,
        bounding_radius: 6.0,
        fields: [
            1, meshindex, 4, vertinfo, vertindex, 1, norminfo, normindex, 0, 0,
        ],
        meshes: vec![mesh],
        vertices,
        vertex_bones: Cow::Owned(vec![0, 0, 1, 1]),
        normals,
        normal_bones: Cow::Owned(vec![0]),
    }
}

/// The full model (see the module's comment); `textures` false leaves them (and the skin
/// families) out, as studiomdl's `$externaltextures` does.
pub fn model(textures_inside: bool) -> Vec<u8> {
    let mut l = Layout(HEADER_SIZE);
    let mut h = header("fixture.mdl");
    let bones = bones();
    h.fields[0] = bones.len() as i32;
    h.fields[1] = l.take(bones.len() * BONE_SIZE);
    let controllers = vec![BoneController {
        bone: 1,
        kind: 0x20,
        start: -30.0,
        end: 30.0,
        rest: 128,
        index: 0,
    }];
    h.fields[2] = 1;
    h.fields[3] = l.take(CONTROLLER_SIZE);
    let hitboxes = vec![Hitbox {
        bone: 1,
        group: 1,
        bbmin: [-2.0; 3],
        bbmax: [2.0; 3],
    }];
    h.fields[4] = 1;
    h.fields[5] = l.take(HITBOX_SIZE);
    h.fields[6] = 2;
    h.fields[7] = l.take(2 * SEQUENCE_SIZE);
    let sequences = sequences(&mut l, bones.len());
    let seq_groups = vec![SeqGroup {
        label: name_field::<32>("default").0,
        name: [0; 64],
        unused1: 0,
        unused2: 0,
    }];
    h.fields[8] = 1;
    h.fields[9] = l.take(SEQ_GROUP_SIZE);
    h.fields[16] = 1;
    h.fields[17] = l.take(BODY_PART_SIZE);
    let model_index = l.take(2 * MODEL_SIZE);
    let models = vec![
        sub_model("strip", false, &mut l),
        sub_model("fan", true, &mut l),
    ];
    let body_parts = vec![BodyPart {
        name: name_field::<64>("body").0,
        num_models: 2,
        base: 1,
        model_index,
        models,
    }];
    let attachments = vec![Attachment {
        name: name_field::<32>("hand").0,
        kind: 0,
        bone: 1,
        org: [1.0, 2.0, 3.0],
        vectors: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    }];
    h.fields[18] = 1;
    h.fields[19] = l.take(ATTACHMENT_SIZE);
    h.fields[24] = 1;
    h.fields[25] = l.take(1);
    let (textures, skins) = if textures_inside {
        h.fields[10] = 2;
        h.fields[11] = l.take(2 * TEXTURE_SIZE);
        h.fields[12] = l.0 as i32;
        let t = textures(&mut l);
        h.fields[13] = 1;
        h.fields[14] = 2;
        h.fields[15] = l.take(2 * 2);
        (t, vec![0i16, 1])
    } else {
        (Vec::new(), Vec::new())
    };
    h.length = l.0 as i32;
    File {
        header: h,
        bones,
        controllers,
        hitboxes,
        sequences,
        seq_groups,
        textures,
        skins,
        body_parts,
        attachments,
        transitions: Cow::Owned(vec![1]),
        gaps: Vec::new(),
    }
    .write()
}

/// A texture file (`NAMET.mdl`) for [`model`]`(false)`: the textures and skin families.
pub fn texture_file() -> Vec<u8> {
    let mut l = Layout(HEADER_SIZE);
    let mut h = header("fixtureT.mdl");
    h.fields[10] = 2;
    h.fields[11] = l.take(2 * TEXTURE_SIZE);
    h.fields[12] = l.0 as i32;
    let textures = textures(&mut l);
    h.fields[13] = 1;
    h.fields[14] = 2;
    h.fields[15] = l.take(4);
    h.length = l.0 as i32;
    File {
        header: h,
        bones: Vec::new(),
        controllers: Vec::new(),
        hitboxes: Vec::new(),
        sequences: Vec::new(),
        seq_groups: Vec::new(),
        textures,
        skins: vec![0, 1],
        body_parts: Vec::new(),
        attachments: Vec::new(),
        transitions: Cow::Borrowed(&[]),
        gaps: Vec::new(),
    }
    .write()
}

/// Every fixture, named.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("model", model(true)),
        ("external-textures", model(false)),
        ("texture-file", texture_file()),
    ]
}
