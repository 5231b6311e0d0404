//! A [`Model`] as SMD files: the reference SMD, one animation SMD per skeletal animation
//! (its roots turned back by studiomdl's 90°, see [`super`]) and the textures as 8-bit BMP
//! files, all for studiomdl.

use super::{BonePose, File, Frame, Node, Triangle, Vertex, FORMAT};
use crate::codec::{Output, SideFile};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::goldsrc::convert::{turn, DEFAULT_TURN};
use crate::formats::goldsrc::from_model::{
    clean_name, quaternion_angles, strongest, texture, texture_name,
};
use crate::image::{Image, Pixels};
use crate::model::pose::{model_parents, to_local, JointPose};
use crate::model::{JointTransform, Mesh, Model};
use crate::options::WriteOptions;

/// A file name part made from an animation name: characters other than letters, digits,
/// `-` and `_` become `_`; an empty name becomes `animationN`.
fn file_part(name: &str, index: usize) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        format!("animation{index}")
    } else {
        s
    }
}

/// The bone poses of one frame of local transforms; with `turned_back`, an animation SMD's:
/// the roots (nodes without a parent) turned back by studiomdl's [`DEFAULT_TURN`], which
/// `Grab_Animation` turns them by again.
fn pose_lines(locals: &[JointTransform], nodes: &[Node], turned_back: bool) -> Vec<BonePose> {
    locals
        .iter()
        .enumerate()
        .map(|(bone, t)| {
            let a = quaternion_angles(t.rotation);
            let p = t.translation;
            let mut ch = [p[0], p[1], p[2], a[0], a[1], a[2]];
            if turned_back && nodes.get(bone).is_some_and(|n| n.parent < 0) {
                turn(&mut ch, -DEFAULT_TURN);
            }
            BonePose {
                bone,
                position: [ch[0], ch[1], ch[2]],
                rotation: [ch[3], ch[4], ch[5]],
            }
        })
        .collect()
}

/// The nodes and the bind pose's local transforms: the model's joints, or one `root` node
/// for a model without a skeleton.
fn skeleton(model: &Model) -> (Vec<Node>, Vec<JointTransform>) {
    if model.joints.is_empty() {
        let root = Node {
            name: "root".to_string(),
            parent: -1,
        };
        return (vec![root], vec![JointTransform::IDENTITY]);
    }
    let parents = model_parents(model);
    let global: Vec<JointPose> = model
        .joints
        .iter()
        .map(|j| JointPose::from_transform(&j.bind_transform()))
        .collect();
    let mut local = vec![JointPose::IDENTITY; global.len()];
    to_local(&parents, &global, &mut local);
    let nodes = model
        .joints
        .iter()
        .zip(&parents)
        .map(|(j, &parent)| Node {
            name: clean_name(&j.name),
            parent,
        })
        .collect();
    (nodes, local.iter().map(JointPose::to_transform).collect())
}

/// Fails on a number SMD text cannot hold (NaN, infinity).
fn finite(file: &File) -> Result<()> {
    let poses = file
        .frames
        .iter()
        .flat_map(|f| &f.bones)
        .flat_map(|b| b.position.iter().chain(&b.rotation));
    let corners = file
        .triangles
        .iter()
        .flat_map(|t| &t.corners)
        .flat_map(|c| {
            c.position
                .iter()
                .chain(&c.normal)
                .chain(&c.uv)
                .chain(c.links.iter().map(|l| &l.1))
        });
    if poses.chain(corners).all(|v| v.is_finite()) {
        return Ok(());
    }
    Err(Error::new(
        FORMAT,
        ErrorKind::InvalidModel,
        "the model has a position, angle, normal or texture coordinate that is not a finite \
         number",
        Location::None,
    ))
}

/// A mesh vertex as an SMD corner (`v` up, its strongest joint).
fn corner(mesh: &Mesh, i: u32) -> Vertex {
    let i = i as usize;
    let uv = mesh.uvs.get(i).copied().unwrap_or([0.0; 2]);
    Vertex {
        bone: strongest(mesh.joint_weights.get(i)).0 as i32,
        position: mesh.positions[i],
        normal: mesh.normals.get(i).copied().unwrap_or([0.0, 0.0, 1.0]),
        uv: [uv[0], 1.0 - uv[1]],
        links: Vec::new(),
    }
}

/// The texture file name of each skin (`NAME.bmp`, `skinN.bmp` on a clash), with its BMP
/// file; `None` for a skin without a picture.
fn textures(model: &Model, out: &mut Output) -> Vec<Option<String>> {
    let mut names: Vec<Option<String>> = Vec::new();
    for (i, skin) in model.skins.iter().enumerate() {
        let Some(picture) = skin.pictures.first() else {
            names.push(None);
            continue;
        };
        let mut name = texture_name(&skin.name, i);
        if names
            .iter()
            .flatten()
            .any(|n| n.eq_ignore_ascii_case(&name))
        {
            name = format!("skin{i}.bmp");
        }
        out.side_files.push(bmp(&name, picture, &mut out.warnings));
        names.push(Some(name));
    }
    names
}

/// A picture as an 8-bit BMP side file (GoldSrc's 256 colours, as the MDL writer makes
/// them).
fn bmp(name: &str, picture: &Image, warnings: &mut Vec<String>) -> SideFile {
    let t = texture(name, picture, warnings);
    SideFile {
        name: name.to_string(),
        kind: "texture",
        bytes: crate::image::bmp_write::encode_indexed(t.width, t.height, &t.pixels, &t.palette),
    }
}

/// The reference SMD of `model` and its side files (see [`super::codec`]).
pub fn from_model(model: &Model, options: &WriteOptions) -> Result<(File, Output)> {
    model.validate()?;
    let mut out = Output::default();
    let (nodes, bind) = skeleton(model);
    let skin_names = textures(model, &mut out);
    let mut untextured = false;
    let mut triangles = Vec::new();
    for mesh in &model.meshes {
        let material = match mesh.skin.and_then(|s| skin_names.get(s).cloned().flatten()) {
            Some(name) => name,
            None => {
                untextured = true;
                "untextured.bmp".to_string()
            }
        };
        for t in &mesh.triangles {
            triangles.push(Triangle {
                material: material.clone(),
                corners: [corner(mesh, t[0]), corner(mesh, t[2]), corner(mesh, t[1])],
            });
        }
    }
    if untextured && !out.side_files.iter().any(|f| f.name == "untextured.bmp") {
        let px = crate::image::UNTEXTURED;
        let grey = Image::new(8, 8, Pixels::Rgba8(px.repeat(64)));
        out.side_files
            .push(bmp("untextured.bmp", &grey, &mut out.warnings));
    }
    let shared = model
        .meshes
        .iter()
        .flat_map(|m| &m.joint_weights)
        .filter(|w| strongest(Some(w)).1)
        .count();
    if shared > 0 {
        out.notes.push(format!(
            "{shared} vertices follow several joints: GoldSrc SMD gives each its strongest"
        ));
    }
    let stem = options.side_file_stem();
    for (i, a) in model.animations.iter().enumerate() {
        let anim = File {
            nodes: nodes.clone(),
            frames: a
                .frames
                .iter()
                .enumerate()
                .map(|(f, locals)| Frame {
                    time: f as i32,
                    bones: pose_lines(locals, &nodes, true),
                })
                .collect(),
            triangles: Vec::new(),
        };
        finite(&anim)?;
        out.side_files.push(SideFile {
            name: format!("{stem}_{}.smd", file_part(&a.name, i)),
            kind: "animation",
            bytes: anim.write(),
        });
    }
    // A reference SMD without triangles reads as an animation SMD (turned, as studiomdl
    // turns one): its bind pose is written turned back, so it reads back as it was.
    let bones = pose_lines(&bind, &nodes, triangles.is_empty());
    let file = File {
        nodes,
        frames: vec![Frame { time: 0, bones }],
        triangles,
    };
    finite(&file)?;
    Ok((file, out))
}
