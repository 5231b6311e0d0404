//! A scene hierarchy over the meshes (levels): named nodes with local transforms, each
//! holding parts of meshes.
//!
//! **Mesh positions stay in model space.** A node does not move what it holds: every
//! consumer that reads [`crate::model::Mesh::positions`] (OBJ, bounds, the native writers,
//! `info`) sees the whole model in one space, with or without nodes. The node transforms
//! describe the hierarchy (a WMP object's position, angles and scale); an exporter that
//! writes the hierarchy (glTF) expresses each node's parts in the node's own space by the
//! inverse of the node's world transform ([`Model::node_world_matrices`]), so that the
//! written scene puts every vertex back where the Model has it.

use super::Model;

/// A node's transform relative to its parent (or to the model for a root):
/// `translation · rotation · scale`, applied to column vectors (as glTF's TRS).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeTransform {
    /// Translation.
    pub translation: [f32; 3],
    /// Rotation as a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Scale along the node's x, y and z axes (no component zero).
    pub scale: [f32; 3],
}

impl Default for NodeTransform {
    fn default() -> Self {
        NodeTransform::IDENTITY
    }
}

/// A 4x4 affine matrix in `f64`, column-major as everything in [`crate::math`]
/// (`m[4 * column + row]`, column vectors, the translation in elements 12, 13, 14).
pub type Matrix4 = crate::math::Mat4d;

impl NodeTransform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: NodeTransform = NodeTransform {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    };

    /// Whether every component of the translation, rotation and scale is finite.
    pub fn is_finite(&self) -> bool {
        self.translation
            .iter()
            .chain(&self.rotation)
            .chain(&self.scale)
            .all(|c| c.is_finite())
    }

    /// The matrix `T · R · S` (the rotation normalised first), in `f64`
    /// ([`crate::math::from_trs`]).
    pub fn matrix(&self) -> Matrix4 {
        crate::math::from_trs(
            self.translation.map(f64::from),
            self.rotation.map(f64::from),
            self.scale.map(f64::from),
        )
    }
}

/// The product `a · b` of two affine matrices ([`crate::math::mul`]).
pub fn mul_matrix(a: &Matrix4, b: &Matrix4) -> Matrix4 {
    crate::math::mul(a, b)
}

/// A run of one mesh's triangles that a node holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MeshPart {
    /// Index into [`Model::meshes`].
    pub mesh: usize,
    /// Indices into that mesh's [`crate::model::Mesh::triangles`].
    pub triangles: std::ops::Range<usize>,
}

/// A node of the scene hierarchy ([`Model::nodes`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneNode {
    /// Name (`object 12`, the WED group name, `block 3`, `light 1`).
    pub name: String,
    /// Index of the parent node, which is always lower; `None` for a root.
    pub parent: Option<usize>,
    /// Transform relative to the parent.
    pub transform: NodeTransform,
    /// The triangles the node holds (exported as one primitive per part); empty for a group
    /// or a marker (a light, an entity, an MD3 tag).
    pub parts: Vec<MeshPart>,
    /// For a node that moves (an MD3 tag, an assembled player's parts): its transform at each
    /// of [`Model::frames`], relative to the parent; `transform` is then the first frame's.
    /// Empty for a node that stays where `transform` puts it.
    pub frames: Vec<NodeTransform>,
}

impl SceneNode {
    /// The node's transform at model frame `frame` (`transform` for a still node or a frame
    /// past its list).
    pub fn transform_at(&self, frame: usize) -> &NodeTransform {
        self.frames.get(frame).unwrap_or(&self.transform)
    }
}

impl Model {
    /// The world (model-space) matrix of every node of [`Model::nodes`]: the product of the
    /// transforms from its root down to it. Assumes parents come before their children (as
    /// [`Model::validate`] checks); a parent index that does not is treated as a root.
    pub fn node_world_matrices(&self) -> Vec<Matrix4> {
        self.node_world_matrices_at(0)
    }

    /// Whether any node moves from frame to frame ([`SceneNode::frames`]).
    pub fn has_moving_nodes(&self) -> bool {
        self.nodes.iter().any(|n| !n.frames.is_empty())
    }

    /// The world matrix of every node at model frame `frame` (as
    /// [`Model::node_world_matrices`], with each moving node's transform of that frame).
    pub fn node_world_matrices_at(&self, frame: usize) -> Vec<Matrix4> {
        let mut out: Vec<Matrix4> = Vec::with_capacity(self.nodes.len());
        for (i, n) in self.nodes.iter().enumerate() {
            let local = n.transform_at(frame).matrix();
            let world = match n.parent {
                Some(p) if p < i => mul_matrix(&out[p], &local),
                _ => local,
            };
            out.push(world);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trs_matrix_and_composition() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        // A quarter turn about z, scale 2 in x, then moved by (1, 2, 3).
        let t = NodeTransform {
            translation: [1.0, 2.0, 3.0],
            rotation: [0.0, 0.0, h, h],
            scale: [2.0, 1.0, 1.0],
        };
        let m = t.matrix();
        // (1, 0, 0) -> scaled (2, 0, 0) -> turned (0, 2, 0) -> moved (1, 4, 3).
        let p: Vec<f64> = (0..3).map(|r| m[r] + m[12 + r]).collect();
        for (a, b) in p.iter().zip([1.0, 4.0, 3.0]) {
            assert!((a - b).abs() < 1e-6, "{p:?}");
        }
        let id = mul_matrix(&NodeTransform::IDENTITY.matrix(), &m);
        assert_eq!(id, m);
    }

    #[test]
    fn validate_checks_nodes() {
        use crate::model::Mesh;
        let mesh = Mesh {
            positions: vec![[0.0; 3]; 3],
            normals: vec![[0.0, 0.0, 1.0]; 3],
            uvs: vec![[0.0; 2]; 3],
            source_vertices: vec![0, 1, 2],
            triangles: vec![[0, 1, 2], [0, 2, 1]],
            ..Mesh::default()
        };
        let node = |parent, triangles| SceneNode {
            name: "n".into(),
            parent,
            transform: NodeTransform::IDENTITY,
            parts: vec![MeshPart { mesh: 0, triangles }],
            frames: Vec::new(),
        };
        let mut model = Model {
            meshes: vec![mesh],
            nodes: vec![node(None, 0..1), node(Some(0), 1..2)],
            ..Model::default()
        };
        model.validate().unwrap();
        let message = |m: &Model| m.validate().unwrap_err().message;
        model.nodes[1].parts[0].triangles = 0..2;
        assert_eq!(
            message(&model),
            "mesh 0: two node parts hold the same triangle"
        );
        model.nodes[1].parts[0].triangles = 1..3;
        assert_eq!(
            message(&model),
            "node 1: triangles 1..3 outside mesh 0's 0..2"
        );
        model.nodes[1] = node(Some(1), 1..2);
        assert_eq!(
            message(&model),
            "node 1: parent index not lower than its own"
        );
        model.nodes[1] = node(Some(0), 1..2);
        model.nodes[1].transform.scale[2] = 0.0;
        assert!(message(&model).starts_with("node 1: transform"));
    }
}
