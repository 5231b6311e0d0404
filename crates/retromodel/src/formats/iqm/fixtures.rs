//! Generated IQM files covering the format's branches: a skinned, animated model with two
//! meshes, adjacency, bounds, a comment and an extension; a static mesh; an animation-only
//! file; version 1; sections at odd offsets with holes and trailing data; every component
//! format in custom arrays; positions, texture coordinates, normals and weights in
//! integer, half and double formats; vertex colours and tangents.

use std::borrow::Cow;

use super::raw::*;
use crate::math::det;

/// Text table builder.
struct Text(Vec<u8>);

impl Text {
    fn add(&mut self, s: &str) -> u32 {
        let at = self.0.len() as u32;
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        at
    }
}

fn encode(format: ComponentFormat, values: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * format.bytes());
    for &v in values {
        match format {
            ComponentFormat::Byte => out.push(v as i8 as u8),
            ComponentFormat::UByte => out.push(v as u8),
            ComponentFormat::Short => out.extend((v as i16).to_le_bytes()),
            ComponentFormat::UShort => out.extend((v as u16).to_le_bytes()),
            ComponentFormat::Int => out.extend((v as i32).to_le_bytes()),
            ComponentFormat::UInt => out.extend((v as u32).to_le_bytes()),
            ComponentFormat::Half => out.extend(f32_to_half(v as f32).to_le_bytes()),
            ComponentFormat::Float => out.extend((v as f32).to_le_bytes()),
            ComponentFormat::Double => out.extend(v.to_le_bytes()),
        }
    }
    out
}

/// A half float for values the fixtures use (normal range, rounded towards zero).
fn f32_to_half(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let frac = ((bits >> 13) & 0x3ff) as u16;
    sign | ((exp.clamp(1, 30) as u16) << 10) | frac
}

fn array(kind: u32, format: ComponentFormat, size: u32, values: &[f64]) -> VertexArray<'static> {
    VertexArray {
        kind,
        flags: 0,
        format: format.value(),
        size,
        offset: 0,
        data: Cow::Owned(encode(format, values)),
    }
}

/// The formats the fixture model's arrays are stored in.
#[derive(Clone, Copy)]
struct Formats {
    position: ComponentFormat,
    texcoord: ComponentFormat,
    normal: ComponentFormat,
    weights: ComponentFormat,
    indexes: ComponentFormat,
}

const FLOATS: Formats = Formats {
    position: ComponentFormat::Float,
    texcoord: ComponentFormat::Float,
    normal: ComponentFormat::Float,
    weights: ComponentFormat::UByte,
    indexes: ComponentFormat::UByte,
};

/// Two quads (meshes "body" and "head"), each a square of side 2 standing on the XY plane,
/// the second above the first; three joints in a chain up Z.
fn base(version: u32, f: Formats, animated: bool, extras: bool) -> File<'static> {
    let mut text = Text(vec![0]);
    let body = text.add("body");
    let head = text.add("head");
    let body_mat = text.add("body.png");
    let head_mat = text.add("head.png");
    let meshes = vec![
        Mesh {
            name: body,
            material: body_mat,
            first_vertex: 0,
            num_vertexes: 4,
            first_triangle: 0,
            num_triangles: 2,
        },
        Mesh {
            name: head,
            material: head_mat,
            first_vertex: 4,
            num_vertexes: 4,
            first_triangle: 2,
            num_triangles: 2,
        },
    ];
    let mut pos = Vec::new();
    let mut uv = Vec::new();
    let mut nrm = Vec::new();
    let mut idx = Vec::new();
    let mut wgt = Vec::new();
    for (m, z0) in [(0u32, 0.0), (1, 2.0)] {
        for (k, (x, z)) in [(-1.0, 0.0), (1.0, 0.0), (1.0, 2.0), (-1.0, 2.0)]
            .iter()
            .enumerate()
        {
            pos.extend([*x, 0.0, z0 + z]);
            uv.extend([
                if *x < 0.0 { 0.0 } else { 1.0 },
                if *z > 0.0 { 0.0 } else { 1.0 },
            ]);
            nrm.extend([0.0, -1.0, 0.0]);
            let lower = m + u32::from(k >= 2);
            idx.extend([f64::from(lower), f64::from((lower + 1).min(2)), 0.0, 0.0]);
            let unit = f.weights.unit();
            let (a, b) = if k >= 2 { (0.75, 0.25) } else { (1.0, 0.0) };
            let q = |x: f64| if unit == 1.0 { x } else { (x * unit).round() };
            wgt.extend([q(a), q(b), 0.0, 0.0]);
        }
    }
    let mut vertex_arrays = vec![
        array(0, f.position, 3, &pos),
        array(1, f.texcoord, 2, &uv),
        array(2, f.normal, 3, &nrm),
        array(4, f.indexes, 4, &idx),
        array(5, f.weights, 4, &wgt),
    ];
    if extras {
        let tangents: Vec<f64> = (0..8).flat_map(|_| [1.0, 0.0, 0.0, 1.0]).collect();
        vertex_arrays.push(array(3, ComponentFormat::Float, 4, &tangents));
        let colours: Vec<f64> = (0..8)
            .flat_map(|v| [f64::from(v * 30), 128.0, 255.0, 255.0])
            .collect();
        vertex_arrays.push(array(6, ComponentFormat::UByte, 4, &colours));
    }
    // Clockwise seen from -Y (the front), as IQM files store them.
    let triangles = vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]];
    let names = ["root", "spine", "neck"];
    let joints: Vec<Joint> = names
        .iter()
        .enumerate()
        .map(|(i, n)| Joint {
            name: text.add(n),
            parent: i as i32 - 1,
            translate: [0.0, 0.0, if i == 0 { 0.0 } else { 2.0 }],
            rotate: if version == 1 {
                [0.0, 0.0, 0.0, 0.0]
            } else {
                [0.0, 0.0, 0.0, 1.0]
            },
            scale: [1.0; 3],
        })
        .collect();
    let mut file = File {
        meshes,
        vertex_arrays,
        triangles,
        joints,
        ..File::empty(Header {
            version,
            num_vertexes: 8,
            ..Header::default()
        })
    };
    if animated {
        add_animation(&mut file, &mut text);
    }
    if extras {
        file.adjacency = vec![
            [u32::MAX, u32::MAX, 1],
            [0, u32::MAX, u32::MAX],
            [u32::MAX, u32::MAX, 3],
            [2, u32::MAX, u32::MAX],
        ];
        file.comment = Cow::Owned(b"made by retromodel's fixtures\0".to_vec());
        let name = text.add("FTE_EVENT");
        file.extensions.push(Extension {
            at: 0,
            name,
            num_data: 0,
            ofs_data: 0,
            ofs_extensions: 0,
            data: Cow::Owned(vec![1, 2, 3, 4, 5, 6, 7, 8]),
        });
    }
    file.text = Cow::Owned(text.0);
    file.relayout();
    file
}

/// Two animations over the three joints: "bend" (3 frames, 10 fps, looping: the spine
/// turns about X by 0, 45 and 90 degrees) and "grow" (2 frames, 0 fps: the neck scales by
/// 1 and 2 and moves up by 0 and 1).
fn add_animation(file: &mut File<'static>, text: &mut Text) {
    let version = file.header.version;
    let channels = pose_channels(version);
    let half = std::f32::consts::FRAC_PI_4;
    let mut poses = Vec::new();
    for j in 0..3 {
        let mut p = Pose {
            parent: j - 1,
            ..Pose::default()
        };
        p.channel_offset[2] = if j == 0 { 0.0 } else { 2.0 };
        if version == 1 {
            // w is made from x, y, z (negative): rotation x channel, scale channels 6..9.
            p.channel_offset[6..9].copy_from_slice(&[1.0; 3]);
        } else {
            p.channel_offset[6] = 1.0;
            p.channel_offset[7..10].copy_from_slice(&[1.0; 3]);
        }
        poses.push(p);
    }
    // Spine: rotation x animated (channel 3), and for version 2 rotation w (channel 6).
    poses[1].mask = if version == 1 {
        1 << 3
    } else {
        (1 << 3) | (1 << 6)
    };
    // Version 1's w is the negative root: the same turn is stored with x positive.
    let sign = if version == 1 { 1.0 } else { -1.0 };
    poses[1].channel_scale[3] = sign * det::sin(half) / 65535.0;
    if version != 1 {
        poses[1].channel_offset[6] = det::cos(half);
        poses[1].channel_scale[6] = (1.0 - det::cos(half)) / 65535.0;
    }
    // Neck: translation z (channel 2) and the scale channels animated.
    let scale_channels = if version == 1 { 6..9 } else { 7..10 };
    poses[2].mask = (1 << 2) | scale_channels.clone().fold(0, |m, c| m | (1 << c));
    poses[2].channel_scale[2] = 1.0 / 65535.0;
    for c in scale_channels.clone() {
        poses[2].channel_scale[c] = 1.0 / 65535.0;
    }
    let mut frames = Vec::new();
    // bend: spine angle 0, 45, 90 degrees: x = -sin(a/2) from 0 to -sin(45°), w from 1 to cos(45°).
    for k in 0..3u32 {
        let a = k as f32 * half / 2.0;
        let x = ((sign * det::sin(a)) / poses[1].channel_scale[3]).round() as u16;
        frames.push(x);
        if version != 1 {
            let w = ((det::cos(a) - poses[1].channel_offset[6]) / poses[1].channel_scale[6]).round()
                as u16;
            frames.push(w);
        }
        frames.extend([0u16; 4]);
    }
    // grow: neck up by 0 and 1, scale 1 and 2.
    for k in 0..2u16 {
        let spine = if version == 1 {
            vec![0u16]
        } else {
            vec![0, 65535]
        };
        frames.extend(spine);
        frames.extend([k * 65535; 4]);
    }
    file.anims = vec![
        Anim {
            name: text.add("bend"),
            first_frame: 0,
            num_frames: 3,
            framerate: 10.0,
            flags: LOOP,
        },
        Anim {
            name: text.add("grow"),
            first_frame: 3,
            num_frames: 2,
            framerate: 0.0,
            flags: 0,
        },
    ];
    file.header.num_frames = 5;
    file.header.num_framechannels = poses.iter().map(|p| p.animated(channels) as u32).sum();
    file.poses = poses;
    file.set_frame_values(&frames);
    file.bounds = (0..5)
        .map(|k| Bounds {
            bbmin: [-1.0, -1.0, 0.0],
            bbmax: [1.0, 1.0, 4.0 + k as f32 * 0.5],
            xyradius: 2f32.sqrt(),
            radius: 4.5,
        })
        .collect();
}

/// The skinned, animated model with every section (the `sample` file).
pub fn skinned() -> Vec<u8> {
    base(2, FLOATS, true, true).write()
}

/// The model without joints or animations, floats only.
pub fn static_mesh() -> Vec<u8> {
    let mut f = base(2, FLOATS, false, false);
    f.joints.clear();
    f.vertex_arrays.truncate(3);
    f.relayout();
    f.write()
}

/// An animation-only file: the poses and frames of [`skinned`], no joints, meshes or
/// vertices.
pub fn anim_only() -> Vec<u8> {
    let mut f = base(2, FLOATS, true, false);
    f.meshes.clear();
    f.vertex_arrays.clear();
    f.triangles.clear();
    f.joints.clear();
    f.header.num_vertexes = 0;
    f.relayout();
    f.write()
}

/// Version 1: three-component joint rotations and 9-channel poses.
pub fn version1() -> Vec<u8> {
    base(1, FLOATS, true, false).write()
}

/// [`skinned`] with its sections at odd offsets: 3 bytes of padding before every section,
/// and 5 trailing bytes past `filesize`.
pub fn unaligned() -> Vec<u8> {
    let f = base(2, FLOATS, true, true);
    let bytes = f.write();
    let mut parsed = File::parse(&bytes, &crate::limits::Limits::default())
        .expect("fixture parses")
        .into_owned();
    // Shift every offset by 3 and insert 3 bytes after the header.
    let shift = |v: &mut u32| {
        if *v != 0 {
            *v += 3;
        }
    };
    let h = &mut parsed.header;
    for v in [
        &mut h.ofs_text,
        &mut h.ofs_meshes,
        &mut h.ofs_vertexarrays,
        &mut h.ofs_triangles,
        &mut h.ofs_adjacency,
        &mut h.ofs_joints,
        &mut h.ofs_poses,
        &mut h.ofs_anims,
        &mut h.ofs_frames,
        &mut h.ofs_bounds,
        &mut h.ofs_comment,
        &mut h.ofs_extensions,
    ] {
        shift(v);
    }
    h.filesize += 3;
    for a in &mut parsed.vertex_arrays {
        shift(&mut a.offset);
    }
    for e in &mut parsed.extensions {
        e.at += 3;
        shift(&mut e.ofs_data);
        shift(&mut e.ofs_extensions);
    }
    parsed.gaps = vec![crate::io::Gap {
        offset: HEADER_SIZE,
        bytes: Cow::Owned(vec![0xAA; 3]),
    }];
    let end = parsed.header.filesize as usize;
    parsed.gaps.push(crate::io::Gap {
        offset: end,
        bytes: Cow::Owned(b"trail".to_vec()),
    });
    parsed.write()
}

/// The model with positions, texture coordinates and normals in other formats and the
/// weights as floats: `(positions, texcoords, normals, weights)`.
fn formats(
    position: ComponentFormat,
    texcoord: ComponentFormat,
    normal: ComponentFormat,
    weights: ComponentFormat,
) -> Vec<u8> {
    base(
        2,
        Formats {
            position,
            texcoord,
            normal,
            weights,
            indexes: ComponentFormat::UByte,
        },
        true,
        false,
    )
    .write()
}

/// A static mesh with nine custom arrays (types 0x10..0x18), one per component format.
pub fn every_format() -> Vec<u8> {
    let mut f = base(2, FLOATS, false, false);
    f.joints.clear();
    f.vertex_arrays.truncate(3);
    for (k, format) in ComponentFormat::ALL.iter().enumerate() {
        let values: Vec<f64> = (0..8).map(f64::from).collect();
        f.vertex_arrays
            .push(array(0x10 + k as u32, *format, 1, &values));
    }
    f.relayout();
    f.write()
}

/// Every fixture, named.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    use ComponentFormat::*;
    vec![
        ("skinned.iqm", skinned()),
        ("static.iqm", static_mesh()),
        ("anim_only.iqm", anim_only()),
        ("version1.iqm", version1()),
        ("unaligned.iqm", unaligned()),
        ("every_format.iqm", every_format()),
        ("halfs.iqm", formats(Half, Half, Half, UByte)),
        ("doubles.iqm", formats(Double, Double, Double, Float)),
        ("integers.iqm", formats(Short, UShort, Byte, UShort)),
        ("ints.iqm", formats(Int, UInt, Int, UInt)),
    ]
}
