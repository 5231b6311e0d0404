//! An SMD [`File`] (and the animation SMDs that go with it) as a [`Model`].

use std::collections::HashMap;

use super::{BonePose, File, Vertex};
use crate::formats::goldsrc::convert::{angle_quaternion, turn, DEFAULT_TURN};
use crate::limits::Limits;
use crate::math::Quat;
use crate::model::pose::{to_global_in_place, JointPose};
use crate::model::{Converted, Influences, Joint, JointTransform, Mesh, Model, SkeletalAnimation};
use crate::resolve::Resolver;

/// studiomdl's rate for a sequence without `fps` (`sequence[numseq].fps = 30.0`).
pub const DEFAULT_FPS: f32 = 30.0;

/// A bone pose as a local transform (GoldSrc's `AngleQuaternion`); with `turned`, a root
/// (a node without a parent) of an animation SMD turned by studiomdl's [`DEFAULT_TURN`]
/// (`Grab_Animation`).
fn local(file: &File, b: &BonePose, turned: bool) -> JointPose {
    let (p, r) = (b.position, b.rotation);
    let mut ch = [p[0], p[1], p[2], r[0], r[1], r[2]];
    if turned && file.nodes.get(b.bone).is_some_and(|n| n.parent < 0) {
        turn(&mut ch, DEFAULT_TURN);
    }
    JointPose::new(
        [ch[0], ch[1], ch[2]],
        Quat::from_array(angle_quaternion([ch[3], ch[4], ch[5]])),
    )
}

/// Each frame's local poses (an animation SMD's: roots turned, [`local`]), in file order: a
/// bone a frame leaves out keeps its pose of the frame before (the first frame's of `base`).
fn frame_poses(file: &File, base: &[JointPose]) -> Vec<Vec<JointPose>> {
    let mut pose = base.to_vec();
    file.frames
        .iter()
        .map(|f| {
            for b in &f.bones {
                pose[b.bone] = local(file, b, true);
            }
            pose.clone()
        })
        .collect()
}

/// The parents as the pose functions take them.
fn parents(file: &File) -> Vec<i32> {
    file.nodes.iter().map(|n| n.parent).collect()
}

/// The joints in the first frame's pose (the reference pose; an animation SMD's, `turned`,
/// as studiomdl turns its roots), object space; bones that frame leaves out (or every bone,
/// without a frame) at their parent, unturned, with a warning.
fn joints(file: &File, turned: bool, warnings: &mut Vec<String>) -> (Vec<Joint>, Vec<JointPose>) {
    let n = file.nodes.len();
    let mut bind = vec![JointPose::IDENTITY; n];
    let mut posed = vec![false; n];
    if let Some(f) = file.frames.first() {
        for b in &f.bones {
            bind[b.bone] = local(file, b, turned);
            posed[b.bone] = true;
        }
    }
    let missing = posed.iter().filter(|p| !**p).count();
    if missing > 0 {
        warnings.push(format!(
            "{missing} of {n} nodes have no pose in the first skeleton frame: at their \
             parent, unturned"
        ));
    }
    let locals = bind.clone();
    to_global_in_place(&parents(file), &mut bind);
    let joints = file
        .nodes
        .iter()
        .zip(&bind)
        .map(|(node, g)| Joint {
            name: node.name.clone(),
            parent: (node.parent >= 0).then_some(node.parent as usize),
            translation: g.pos,
            rotation: g.orient.to_array(),
        })
        .collect();
    (joints, locals)
}

/// A corner's influences: Source's links, what they leave to `bone`, normalised; GoldSrc's
/// one bone otherwise.
fn influences(v: &Vertex) -> Influences {
    let sum: f32 = v.links.iter().map(|l| l.1.max(0.0)).sum();
    if v.links.is_empty() || sum <= 0.0 {
        return Influences::from_slice(&[(v.bone as u32, 1.0)]);
    }
    let mut out: Influences = v
        .links
        .iter()
        .filter(|l| l.1 > 0.0)
        .map(|&(b, w)| (b as u32, w))
        .collect();
    if sum < 1.0 {
        out.push((v.bone as u32, 1.0 - sum));
    }
    let total: f32 = out.iter().map(|l| l.1).sum();
    for l in out.iter_mut() {
        l.1 /= total;
    }
    out
}

/// One mesh per material, in the order materials first appear; corners that are equal
/// share a vertex. SMD triangles run counter-clockwise and `v` runs up (studiomdl reads the
/// bottom-up BMP rows from `v · (height − 1)`): the Model's run clockwise, `v` down.
fn meshes(file: &File) -> Vec<Mesh> {
    let mut meshes: Vec<Mesh> = Vec::new();
    let mut by_material: HashMap<&str, usize> = HashMap::new();
    let mut index: Vec<HashMap<Vec<u32>, u32>> = Vec::new();
    for t in &file.triangles {
        let m = *by_material.entry(t.material.as_str()).or_insert_with(|| {
            meshes.push(Mesh {
                name: t.material.clone(),
                ..Mesh::default()
            });
            index.push(HashMap::new());
            meshes.len() - 1
        });
        let mesh = &mut meshes[m];
        let ids = [0, 2, 1].map(|c| {
            let v = &t.corners[c];
            let mut key: Vec<u32> = [v.bone as u32]
                .into_iter()
                .chain(
                    v.position
                        .iter()
                        .chain(&v.normal)
                        .chain(&v.uv)
                        .map(|f| f.to_bits()),
                )
                .collect();
            key.extend(v.links.iter().flat_map(|&(b, w)| [b as u32, w.to_bits()]));
            *index[m].entry(key).or_insert_with(|| {
                let id = mesh.positions.len() as u32;
                mesh.positions.push(v.position);
                mesh.normals
                    .push(crate::math::normalize_or(v.normal, [0.0, 0.0, 1.0]));
                mesh.uvs.push([v.uv[0], 1.0 - v.uv[1]]);
                mesh.source_vertices.push(id);
                mesh.joint_weights.push(influences(v));
                id
            })
        });
        mesh.triangles.push(ids);
    }
    meshes
}

/// The textures of the meshes, found through `resolver` by material name (as written, then
/// its file name alone); a material without a picture leaves its mesh untextured, with a
/// warning.
fn attach_skins(converted: &mut Converted, resolver: &dyn Resolver) {
    let mut lookup = crate::skin_lookup::SkinLookup::new(resolver, &Limits::default());
    let mut by_path = HashMap::new();
    let model = &mut converted.model;
    for (i, mesh) in model.meshes.iter_mut().enumerate() {
        let base = mesh.name.rsplit(['/', '\\']).next().unwrap_or(&mesh.name);
        let found = lookup.image_path(&mesh.name).or_else(|| {
            (base != mesh.name)
                .then(|| lookup.image_path(base))
                .flatten()
        });
        match found {
            Some(f) => {
                mesh.skin_size = Some([f.image.width, f.image.height]);
                mesh.skin = Some(f.shared_skin(&mut model.skins, &mut by_path));
            }
            None => converted.warnings.push(format!(
                "mesh {i}: texture {:?} not found; untextured",
                mesh.name
            )),
        }
    }
    converted.warnings.append(&mut lookup.warnings);
}

/// The file name's stem (`walk` for `models/walk.smd`).
fn stem(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.rsplit_once('.').map_or(base, |(s, _)| s)
}

/// An animation SMD's frames as an animation of `reference`'s joints, matched by node
/// name, its roots turned as studiomdl turns them ([`DEFAULT_TURN`]); an error when a node
/// of either is missing from the other.
pub fn animation(
    reference: &File,
    bind: &[JointPose],
    anim: &File,
    name: &str,
) -> Result<SkeletalAnimation, String> {
    if anim.nodes.len() != reference.nodes.len() {
        return Err(format!(
            "{} nodes, the reference has {}",
            anim.nodes.len(),
            reference.nodes.len()
        ));
    }
    let mut map = Vec::with_capacity(anim.nodes.len());
    for n in &anim.nodes {
        match reference.nodes.iter().position(|r| r.name == n.name) {
            Some(i) => map.push(i),
            None => return Err(format!("node {:?} is not in the reference", n.name)),
        }
    }
    // The animation's own node order, its first pose from the reference's bind.
    let base: Vec<JointPose> = map.iter().map(|&i| bind[i]).collect();
    let frames = frame_poses(anim, &base)
        .into_iter()
        .map(|pose| {
            let mut out = vec![JointTransform::IDENTITY; map.len()];
            for (k, &i) in map.iter().enumerate() {
                out[i] = pose[k].to_transform();
            }
            out
        })
        .collect::<Vec<_>>();
    Ok(SkeletalAnimation {
        name: name.to_string(),
        fps: DEFAULT_FPS,
        frames: frames.into(),
        bounds: Vec::new(),
        loops: false,
        weight_scales: None,
    })
}

/// The Model of an SMD: a reference SMD's meshes (textures through `resolver`) and
/// skeleton, with the animation SMDs the resolver lists (`--anim`, else the `.smd` files
/// beside it) whose nodes are the reference's; an animation SMD alone is a skeleton and its
/// one animation, named after the file.
pub fn to_model(file: &File, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    // An animation SMD alone: its skeleton at its first frame as studiomdl reads a frame.
    let (joints, bind) = joints(file, file.triangles.is_empty(), &mut warnings);
    let own = resolver.model_name();
    let mut converted = Converted {
        model: Model {
            meshes: meshes(file),
            joints,
            ..Model::default()
        },
        warnings,
    };
    if file.triangles.is_empty() {
        if file.frames.is_empty() {
            return converted;
        }
        let name = own.as_deref().map_or("animation", stem).to_string();
        if let Ok(a) = animation(file, &bind, file, &name) {
            converted.model.animations.push(a);
        }
        return converted;
    }
    attach_skins(&mut converted, resolver);
    let own_file = own
        .as_deref()
        .map(|n| n.rsplit(['/', '\\']).next().unwrap_or(n));
    for name in resolver.list("smd") {
        if Some(name.rsplit(['/', '\\']).next().unwrap_or(&name)) == own_file {
            continue;
        }
        let Some(bytes) = resolver.load(&name) else {
            converted
                .warnings
                .push(format!("{name}: cannot be read; left out"));
            continue;
        };
        let anim = match File::parse(&bytes, &Limits::default()) {
            Ok(a) => a,
            Err(e) => {
                converted.warnings.push(format!("{name}: {e}; left out"));
                continue;
            }
        };
        if !anim.triangles.is_empty() {
            // Another body part's reference SMD.
            continue;
        }
        match animation(file, &bind, &anim, stem(&name)) {
            Ok(a) => converted.model.animations.push(a),
            Err(e) => converted.warnings.push(format!("{name}: {e}; left out")),
        }
    }
    converted
}
