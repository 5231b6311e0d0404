//! A node's space for the glTF exporter: model-space points and normals expressed in the
//! space of the node a mesh hangs from (levels with a node hierarchy), used by the mesh
//! writer and the quantiser.

use crate::model::Matrix4;

/// A node's space: model-space points and normals expressed in it.
pub(super) struct Local {
    /// The inverse of the node's world matrix (rows of the linear part, then translation).
    inverse: [[f64; 3]; 3],
    /// Translation of the inverse.
    offset: [f64; 3],
    /// The transpose of the world matrix's linear part: turns model-space normals into
    /// node-space ones (the inverse transpose of the inverse).
    normal: [[f64; 3]; 3],
}

impl Local {
    /// The space of a node with world matrix `w`, `None` when `w` cannot be inverted.
    pub(super) fn of_world(w: &Matrix4) -> Option<Local> {
        let a = |r: usize, c: usize| w[4 * c + r];
        let cof = [
            [
                a(1, 1) * a(2, 2) - a(1, 2) * a(2, 1),
                a(0, 2) * a(2, 1) - a(0, 1) * a(2, 2),
                a(0, 1) * a(1, 2) - a(0, 2) * a(1, 1),
            ],
            [
                a(1, 2) * a(2, 0) - a(1, 0) * a(2, 2),
                a(0, 0) * a(2, 2) - a(0, 2) * a(2, 0),
                a(0, 2) * a(1, 0) - a(0, 0) * a(1, 2),
            ],
            [
                a(1, 0) * a(2, 1) - a(1, 1) * a(2, 0),
                a(0, 1) * a(2, 0) - a(0, 0) * a(2, 1),
                a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0),
            ],
        ];
        let det = a(0, 0) * cof[0][0] + a(0, 1) * cof[1][0] + a(0, 2) * cof[2][0];
        let size = (0..3)
            .flat_map(|r| (0..3).map(move |c| (r, c)))
            .map(|(r, c)| a(r, c).abs())
            .fold(0.0, f64::max);
        if !(det.is_finite() && det.abs() > 1e-12 * size * size * size) {
            return None;
        }
        let inverse = cof.map(|row| row.map(|c| c / det));
        let t = [w[12], w[13], w[14]];
        let offset = std::array::from_fn(|r| -(0..3).map(|k| inverse[r][k] * t[k]).sum::<f64>());
        let normal = std::array::from_fn(|r| std::array::from_fn(|c| w[4 * r + c]));
        Some(Local {
            inverse,
            offset,
            normal,
        })
    }

    fn apply(m: &[[f64; 3]; 3], p: [f32; 3]) -> [f64; 3] {
        let p = p.map(f64::from);
        std::array::from_fn(|r| (0..3).map(|k| m[r][k] * p[k]).sum::<f64>())
    }

    /// Model-space points in the node's space.
    pub(super) fn points(&self, p: &[[f32; 3]]) -> Vec<[f32; 3]> {
        p.iter()
            .map(|&v| {
                let q = Self::apply(&self.inverse, v);
                std::array::from_fn(|k| (q[k] + self.offset[k]) as f32)
            })
            .collect()
    }

    /// A vector of the node's space (Y-up) in model space (Z-up): the node's world matrix
    /// applied to it.
    pub(super) fn to_model(&self, e: [f64; 3]) -> [f64; 3] {
        let v = [e[0], -e[2], e[1]];
        std::array::from_fn(|r| (0..3).map(|c| self.normal[c][r] * v[c]).sum::<f64>())
    }

    /// The largest factor by which the node's world matrix stretches a vector.
    pub(super) fn scale(&self) -> f64 {
        (0..3)
            .map(|c| {
                (0..3)
                    .map(|r| self.normal[c][r].powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .fold(0.0, f64::max)
    }

    /// Model-space normals in the node's space (not yet of unit length).
    pub(super) fn normals(&self, n: &[[f32; 3]]) -> Vec<[f32; 3]> {
        n.iter()
            .map(|&v| Self::apply(&self.normal, v).map(|c| c as f32))
            .collect()
    }
}
