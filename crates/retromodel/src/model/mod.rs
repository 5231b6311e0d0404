//! The format-neutral model: meshes with morph frames, clips, skins and (for skeletal formats)
//! a skeleton.
//!
//! Coordinates stay in the source format's Z-up space; the glTF exporter converts axes in one
//! place. Every mesh carries one morph target per model frame, so any pose can be sampled
//! without going back to the file.

pub mod atlas;
pub mod bake;
mod clips;
pub mod fit_bones;
pub mod frame_names;
pub mod influences;
mod join;
pub mod merge_joints;
pub mod pose;
pub mod retime;
pub mod rig;
mod scene;
mod skeletal;
pub mod split;
mod timeline;
pub mod transform;
mod validate;
pub mod weld;

pub use clips::{clips_from_frame_names, opening_clip};
pub use join::join_animations;
pub use scene::{mul_matrix, Matrix4, MeshPart, NodeTransform, SceneNode};
pub use skeletal::{
    CameraKey, CameraPath, FrameSource, Frames, JointTransform, ScaleFrames, SkeletalAnimation,
    Stored, WeightScales,
};
pub use timeline::{KeyPose, Timeline, DEFAULT_FPS};

/// A vertex's joint influences, `(index into Model::joints, weight)`: a list that keeps up to
/// four inline (no allocation per vertex for the usual case) and dereferences to a slice.
/// Build one with `Influences::from_slice`, `.into()` from a `Vec` or array, or `collect()`.
pub type Influences = smallvec::SmallVec<[(u32, f32); 4]>;

use crate::image::Image;

/// A complete model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Model {
    /// The meshes; each has one morph target per entry of `frames`.
    pub meshes: Vec<Mesh>,
    /// Poses in order, group members included.
    pub frames: Vec<Frame>,
    /// Named frame ranges with timing.
    pub clips: Vec<Clip>,
    /// Skins; a mesh refers to one by index.
    pub skins: Vec<Skin>,
    /// Joints of a skeletal model (empty for vertex-animated formats).
    pub joints: Vec<Joint>,
    /// Skeletal animations over [`Model::joints`]. A Model with animations and meshes with
    /// [`Mesh::joint_weights`] is skeletal: those meshes' `positions` and `normals` are the
    /// bind pose the joints skin (their morph targets, if any, are the same motion baked
    /// per frame for keyframe writers), and exporters that write skins animate the joints
    /// instead of morphing (never both).
    pub animations: Vec<SkeletalAnimation>,
    /// Scales of the animations' joint transforms, for formats whose bone matrices scale
    /// (MDL7): per animation of [`Model::animations`], per frame, per joint, the scale `S`
    /// of the local transform `T · R · S`. Empty when every scale is 1 (MD5).
    /// Each may stay in its format's stored form until read ([`Stored`]).
    pub animation_scales: Vec<ScaleFrames>,
    /// A camera path (Doom 3 md5camera), if the file is one.
    pub camera: Option<CameraPath>,
    /// Quake MDL header values no other format has (effect flags, synctype, eye position),
    /// when the model came from an MDL: an MDL written from the model keeps them.
    pub mdl_extras: Option<MdlExtras>,
    /// A scene hierarchy over the meshes (WMP levels: objects, blocks, lights), parents
    /// before children; empty for models, which exporters write as one node per mesh. Mesh
    /// positions stay in model space whatever the nodes say (see [`SceneNode`]); a mesh that
    /// a node holds a part of is exported only through nodes.
    pub nodes: Vec<SceneNode>,
    /// How each skin is drawn beyond its picture (Half-Life's additive and chrome
    /// textures), by skin index; empty, or shorter than `skins`, where skins are plain.
    pub skin_effects: Vec<SkinEffects>,
    /// What the animations fire for the game to act on (Half-Life's sequence events), by
    /// animation index of [`Model::animations`]; empty, or shorter than `animations`, where
    /// animations have none. glTF carries them in the animation's `extras.events`.
    pub animation_events: Vec<Vec<AnimationEvent>>,
}

/// Something an animation fires at a frame for the game to act on (Half-Life's
/// `mstudioevent_t`: event 5004 plays the sound its options name, 5001 a muzzle flash, ...).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnimationEvent {
    /// The frame it fires on.
    pub frame: i32,
    /// The event number.
    pub event: i32,
    /// The event's type (unused by the GoldSrc engine; kept).
    pub kind: i32,
    /// The options text (a sound's file name, ...).
    pub options: String,
}

/// How a skin is drawn beyond its picture: what glTF has no material property for, written
/// to the material's `extras` (`{"effects": ["additive", "chrome"]}`) and shown by the
/// renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SkinEffects {
    /// Blended by adding its colour to what is behind (Half-Life `STUDIO_NF_ADDITIVE`).
    pub additive: bool,
    /// Sphere-mapped from the view, a fake reflection (Half-Life `STUDIO_NF_CHROME`).
    pub chrome: bool,
}

impl SkinEffects {
    /// The effects' names, as the glTF `extras` list them.
    pub fn names(self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.additive {
            v.push("additive");
        }
        if self.chrome {
            v.push("chrome");
        }
        v
    }
}

/// Quake MDL header values that only MDL stores (`flags`: rotate, trails, gib effects;
/// `synctype`; `eyeposition`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MdlExtras {
    /// The header's `flags` (the writer sets `MF_HOLEY` itself from the skins).
    pub flags: i32,
    /// The header's `synctype` (0 synchronised, 1 random).
    pub synctype: i32,
    /// The header's `eyeposition`.
    pub eye_position: [f32; 3],
}

/// A model converted from a file, and what the conversion noticed.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The model.
    pub model: Model,
    /// Non-fatal problems (bad group intervals, out-of-table normals, ...).
    pub warnings: Vec<String>,
}

/// One pose of the whole model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    /// The name as stored (`run3`).
    pub name: String,
    /// Axis-aligned bounds of the pose: minimum corner.
    pub bounds_min: [f32; 3],
    /// Axis-aligned bounds of the pose: maximum corner.
    pub bounds_max: [f32; 3],
    /// The spacing, per model axis, of the grid the source file stored this pose's positions
    /// on: Quake MDL and GameStudio MDL2..MDL5 the header's `scale` (QuakeForge's `MD16` a
    /// 256th of it), MD2 the frame's `scale`, MD3 1/64 unit. `None` when the positions were
    /// stored as floats (MD5, MDL7, WMP, imported glTF and OBJ) or are not known. A writer
    /// that rounds positions to a grid of its own and stays within half of this step keeps
    /// what the source stored (the glTF exporter's quantisation does).
    pub position_step: Option<[f32; 3]>,
}

/// A triangle mesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Mesh name (empty when the format has none).
    pub name: String,
    /// Vertex positions of the first pose; for a mesh with joint weights in a Model with
    /// [`Model::animations`], the bind pose the joints skin (MD5, MDL7 with bones).
    pub positions: Vec<[f32; 3]>,
    /// Unit normals of the first pose (of the bind pose, as for `positions`).
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates, `[0, 1]` across the skin, `v` downwards.
    pub uvs: Vec<[f32; 2]>,
    /// Triangles as indices into the vertex arrays, front faces clockwise when seen from the
    /// front (Quake's, Quake 2's and Doom 3's winding; readers of counter-clockwise formats
    /// such as 3D GameStudio's turn their triangles around).
    pub triangles: Vec<[u32; 3]>,
    /// One morph target per model frame: absolute positions and normals of every vertex.
    pub morph_targets: Vec<MorphTarget>,
    /// For each vertex, the vertex index in the source file it came from. Formats that split
    /// vertices (Quake's seam) have more mesh vertices than file vertices.
    pub source_vertices: Vec<u32>,
    /// Index into [`Model::skins`], if the mesh is textured.
    pub skin: Option<usize>,
    /// Joint influences of each vertex, `(index into Model::joints, weight)` with weights
    /// summing to 1; empty for vertex-animated meshes.
    pub joint_weights: Vec<Influences>,
    /// Width and height in texels that the texture coordinates were made for (the file's
    /// skin size), when known; writers of texel-based formats use it when the skin has no
    /// picture to measure.
    pub skin_size: Option<[u32; 2]>,
}

/// Vertex data of one pose.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MorphTarget {
    /// Absolute positions, one per mesh vertex.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals, one per mesh vertex.
    pub normals: Vec<[f32; 3]>,
}

/// A named range of frames played as one animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Name (`run`).
    pub name: String,
    /// Index of the first frame in [`Model::frames`].
    pub first: usize,
    /// Number of frames.
    pub count: usize,
    /// Playback rate in frames per second.
    pub fps: f32,
    /// Cumulative end time of each frame in seconds, when the file stores per-frame timing
    /// (Quake frame groups); `None` means a uniform `1 / fps` step.
    pub frame_times: Option<Vec<f32>>,
}

/// A skin: one picture, or an animated group of pictures.
#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    /// Name (empty when the format stores none).
    pub name: String,
    /// The pictures; more than one for an animated group.
    pub pictures: Vec<Image>,
    /// Cumulative end time of each picture in seconds, for groups.
    pub picture_times: Option<Vec<f32>>,
    /// Where a picture looked up by name was found and by which rule
    /// (`guard1_body.png (image path beside the model)`, see [`crate::skin_lookup`]); `None`
    /// for pictures stored in the model file and skins not looked up.
    pub source: Option<String>,
}

/// A joint of a skeleton (bind pose, object space).
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Name.
    pub name: String,
    /// Index of the parent joint, which is always lower; `None` for a root.
    pub parent: Option<usize>,
    /// Position in object space.
    pub translation: [f32; 3],
    /// Orientation in object space as a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
}

impl Joint {
    /// The bind pose as a transform (object space).
    pub fn bind_transform(&self) -> JointTransform {
        JointTransform {
            translation: self.translation,
            rotation: self.rotation,
        }
    }
}

/// The one axis conversion of every exporter: the model's Z-up space (Quake, Doom 3) to the
/// Y-up space of glTF and OBJ, `(x, y, z) -> (x, z, -y)`. A rotation, so winding and
/// handedness are kept.
pub fn to_y_up(p: [f32; 3]) -> [f32; 3] {
    [p[0], p[2], -p[1] + 0.0]
}

/// [`to_y_up`] for a rotation quaternion `[x, y, z, w]`: the vector part turns with the axes,
/// `(x, y, z, w) -> (x, z, -y, w)`.
pub fn quat_to_y_up(q: [f32; 4]) -> [f32; 4] {
    let [x, y, z] = to_y_up([q[0], q[1], q[2]]);
    [x, y, z, q[3]]
}

impl Converted {
    /// A one-mesh keyframe model (Quake MDL, MD2, GameStudio MDL and HMP): the mesh shows
    /// the first skin when there is one.
    pub fn keyframed(
        mut mesh: Mesh,
        frames: Vec<Frame>,
        clips: Vec<Clip>,
        skins: Vec<Skin>,
        warnings: Vec<String>,
    ) -> Converted {
        mesh.skin = (!skins.is_empty()).then_some(0);
        Converted {
            model: Model {
                meshes: vec![mesh],
                frames,
                clips,
                skins,
                ..Model::default()
            },
            warnings,
        }
    }
}

impl Mesh {
    /// An unnamed mesh of keyframe poses, with no skin and no joint weights: its positions
    /// and normals are those of the first pose ([`MorphTarget::first_pose`]).
    pub fn keyframed(
        uvs: Vec<[f32; 2]>,
        triangles: Vec<[u32; 3]>,
        morph_targets: Vec<MorphTarget>,
        source_vertices: Vec<u32>,
        skin_size: Option<[u32; 2]>,
    ) -> Mesh {
        let (positions, normals) = MorphTarget::first_pose(&morph_targets, source_vertices.len());
        Mesh {
            positions,
            normals,
            uvs,
            triangles,
            morph_targets,
            source_vertices,
            skin_size,
            ..Mesh::default()
        }
    }
}

impl MorphTarget {
    /// The first pose's positions and normals, the defaults of a mesh: a copy of the first
    /// target, or `n` vertices at the origin facing up when there is none.
    pub fn first_pose(targets: &[MorphTarget], n: usize) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
        match targets.first() {
            Some(t) => (t.positions.clone(), t.normals.clone()),
            None => (vec![[0.0; 3]; n], vec![[0.0, 0.0, 1.0]; n]),
        }
    }
}

impl Model {
    /// Makes `picture` the model's only skin, named `name`, shown by every mesh (texture
    /// coordinates laid out on its size): `convert --skin` and `save(skin=...)`.
    pub fn use_only_skin(&mut self, name: String, picture: crate::image::Image) {
        let size = [picture.width, picture.height];
        self.skins = vec![Skin {
            source: None,
            name,
            pictures: vec![picture],
            picture_times: None,
        }];
        for mesh in &mut self.meshes {
            mesh.skin = Some(0);
            mesh.skin_size = Some(size);
        }
    }

    /// Total vertex count of one pose, summed over meshes.
    pub fn vertex_count(&self) -> usize {
        self.meshes.iter().map(|m| m.positions.len()).sum()
    }

    /// Axis-aligned bounds `[min, max]` of the first pose over all meshes, or `None` for a
    /// model without vertices.
    pub fn bounds(&self) -> Option<[[f32; 3]; 2]> {
        let mut it = self.meshes.iter().flat_map(|m| &m.positions);
        let first = *it.next()?;
        Some(it.fold([first, first], |[lo, hi], p| {
            [
                std::array::from_fn(|a| lo[a].min(p[a])),
                std::array::from_fn(|a| hi[a].max(p[a])),
            ]
        }))
    }

    /// Each skin's name, in order (what `info` lists as skin names).
    pub fn skin_names(&self) -> Vec<String> {
        self.skins.iter().map(|s| s.name.clone()).collect()
    }

    /// Total triangle count, summed over meshes.
    pub fn triangle_count(&self) -> usize {
        self.meshes.iter().map(|m| m.triangles.len()).sum()
    }

    /// The poses the model shows: its keyframes, else its camera keys, else the frames of
    /// its skeletal animations.
    pub fn pose_count(&self) -> usize {
        if !self.frames.is_empty() {
            self.frames.len()
        } else if let Some(camera) = &self.camera {
            camera.keys.len()
        } else {
            // Counted without decoding frames kept stored.
            self.animations.iter().map(|a| a.frames.count()).sum()
        }
    }
}
