//! Invariants of a [`Model`], checked by every writer before it writes.

use super::Model;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::image::Pixels;

/// The error for a broken invariant ([`ErrorKind::InvalidModel`], no location).
fn fail(msg: String) -> Result<()> {
    Err(Error::new(
        "model",
        ErrorKind::InvalidModel,
        msg,
        Location::None,
    ))
}

impl Model {
    /// Checks the invariants: array lengths agree, indices are in range, clips lie inside the
    /// frame list, every picture's pixel buffer matches its size, scene nodes come after
    /// their parents with finite transforms (unit rotation, no zero scale) and hold disjoint
    /// triangle runs of unskinned meshes.
    pub fn validate(&self) -> Result<()> {
        self.validate_meshes()?;
        self.validate_clips()?;
        self.validate_skins()?;
        self.validate_animations()?;
        self.validate_joints()?;
        self.validate_nodes()
    }

    /// Each mesh: per-vertex arrays as long as its positions, triangles' vertex indices, one
    /// morph target a frame of as many vertices, joint weights and joint indices, its skin.
    fn validate_meshes(&self) -> Result<()> {
        for (mi, m) in self.meshes.iter().enumerate() {
            let n = m.positions.len();
            if m.normals.len() != n || m.uvs.len() != n || m.source_vertices.len() != n {
                return fail(format!(
                    "mesh {mi}: {n} positions but {} normals, {} uvs, {} source vertices",
                    m.normals.len(),
                    m.uvs.len(),
                    m.source_vertices.len()
                ));
            }
            if let Some(t) = m
                .triangles
                .iter()
                .position(|t| t.iter().any(|&i| i as usize >= n))
            {
                return fail(format!(
                    "mesh {mi}: triangle {t}: vertex index out of range (vertices = {n})"
                ));
            }
            if m.morph_targets.len() != self.frames.len() {
                return fail(format!(
                    "mesh {mi}: {} morph targets for {} frames",
                    m.morph_targets.len(),
                    self.frames.len()
                ));
            }
            for (fi, t) in m.morph_targets.iter().enumerate() {
                if t.positions.len() != n || t.normals.len() != n {
                    return fail(format!(
                        "mesh {mi}: frame {fi}: vertex count differs from {n}"
                    ));
                }
            }
            if !m.joint_weights.is_empty() && m.joint_weights.len() != n {
                return fail(format!(
                    "mesh {mi}: {} joint weight lists for {n} vertices",
                    m.joint_weights.len()
                ));
            }
            let joints = self.joints.len();
            if let Some(v) = m
                .joint_weights
                .iter()
                .position(|w| w.iter().any(|&(j, _)| j as usize >= joints))
            {
                return fail(format!(
                    "mesh {mi}: vertex {v}: joint index out of range (joints = {joints})"
                ));
            }
            if let Some(s) = m.skin {
                if s >= self.skins.len() {
                    return fail(format!("mesh {mi}: skin {s} out of range"));
                }
            }
        }
        Ok(())
    }

    /// Each clip inside the frame list, with a time for each frame when it has times.
    fn validate_clips(&self) -> Result<()> {
        for c in &self.clips {
            if c.count == 0 || c.first + c.count > self.frames.len() {
                return fail(format!(
                    "clip {:?}: frames {}..{} outside 0..{}",
                    c.name,
                    c.first,
                    c.first + c.count,
                    self.frames.len()
                ));
            }
            if let Some(t) = &c.frame_times {
                if t.len() != c.count {
                    return fail(format!(
                        "clip {:?}: {} times for {} frames",
                        c.name,
                        t.len(),
                        c.count
                    ));
                }
            }
        }
        Ok(())
    }

    /// Each skin picture's pixel buffer as long as its size needs, and a time for each
    /// picture when the skin has times.
    fn validate_skins(&self) -> Result<()> {
        for (si, s) in self.skins.iter().enumerate() {
            for (pi, p) in s.pictures.iter().enumerate() {
                let texels = p.width as u64 * p.height as u64;
                let (len, want) = match &p.pixels {
                    Pixels::Indexed { indices, .. } => (indices.len() as u64, texels),
                    Pixels::Rgba8(rgba) => (rgba.len() as u64, 4 * texels),
                };
                if len != want {
                    return fail(format!(
                        "skin {si}: picture {pi}: {len} bytes of pixels for {}x{} (needs {want})",
                        p.width, p.height
                    ));
                }
            }
            if let Some(t) = &s.picture_times {
                if t.len() != s.pictures.len() {
                    return fail(format!(
                        "skin {si}: {} times for {} pictures",
                        t.len(),
                        s.pictures.len()
                    ));
                }
            }
        }
        Ok(())
    }

    /// Each skeletal animation frame with a transform a joint; weight scales and animation
    /// scales that match the frames and joints.
    fn validate_animations(&self) -> Result<()> {
        for a in &self.animations {
            if let Some(f) = a.frames.iter().position(|f| f.len() != self.joints.len()) {
                return fail(format!(
                    "animation {:?}: frame {f}: {} joint transforms for {} joints",
                    a.name,
                    a.frames[f].len(),
                    self.joints.len()
                ));
            }
        }
        for a in &self.animations {
            if let Some(ws) = &a.weight_scales {
                if ws.frames.len() != a.frames.len()
                    || ws.scale_positions.len() != self.joints.len()
                    || ws.frames.iter().any(|f| f.len() != self.joints.len())
                {
                    return fail(format!(
                        "animation {:?}: weight scales do not match its frames and joints",
                        a.name
                    ));
                }
                if ws.frames.iter().flatten().any(|s| !s.is_finite()) {
                    return fail(format!(
                        "animation {:?}: a weight scale is not finite",
                        a.name
                    ));
                }
            }
        }
        if self.animation_events.len() > self.animations.len() {
            return fail(format!(
                "{} animation event lists for {} animations",
                self.animation_events.len(),
                self.animations.len()
            ));
        }
        if !self.animation_scales.is_empty() {
            if self.animation_scales.len() != self.animations.len() {
                return fail(format!(
                    "{} animation scale lists for {} animations",
                    self.animation_scales.len(),
                    self.animations.len()
                ));
            }
            for (a, s) in self.animations.iter().zip(&self.animation_scales) {
                if s.len() != a.frames.len() || s.iter().any(|f| f.len() != self.joints.len()) {
                    return fail(format!(
                        "animation {:?}: scales do not match its frames and joints",
                        a.name
                    ));
                }
            }
        }
        Ok(())
    }

    /// Each joint after its parent.
    fn validate_joints(&self) -> Result<()> {
        for (ji, j) in self.joints.iter().enumerate() {
            if matches!(j.parent, Some(p) if p >= ji) {
                return fail(format!("joint {ji}: parent index not lower than its own"));
            }
        }
        Ok(())
    }

    /// Scene nodes: parents first, finite invertible transforms, parts inside their
    /// meshes, no triangle held twice, no skinned mesh (a skin places those).
    fn validate_nodes(&self) -> Result<()> {
        let mut held: Vec<Vec<std::ops::Range<usize>>> = vec![Vec::new(); self.meshes.len()];
        for (ni, n) in self.nodes.iter().enumerate() {
            if matches!(n.parent, Some(p) if p >= ni) {
                return fail(format!("node {ni}: parent index not lower than its own"));
            }
            if !n.frames.is_empty() && n.frames.len() != self.frames.len() {
                return fail(format!(
                    "node {ni}: {} frame transforms for {} frames",
                    n.frames.len(),
                    self.frames.len()
                ));
            }
            for t in std::iter::once(&n.transform).chain(&n.frames) {
                let finite = t.is_finite();
                let len = t.rotation.iter().map(|c| c * c).sum::<f32>().sqrt();
                if !finite || (len - 1.0).abs() > 1e-3 || t.scale.contains(&0.0) {
                    return fail(format!(
                        "node {ni}: transform {t:?} is not finite with a unit rotation and a non-zero scale"
                    ));
                }
            }
            for part in &n.parts {
                let Some(m) = self.meshes.get(part.mesh) else {
                    return fail(format!("node {ni}: mesh {} out of range", part.mesh));
                };
                let r = &part.triangles;
                if r.start > r.end || r.end > m.triangles.len() {
                    return fail(format!(
                        "node {ni}: triangles {}..{} outside mesh {}'s 0..{}",
                        r.start,
                        r.end,
                        part.mesh,
                        m.triangles.len()
                    ));
                }
                if !m.joint_weights.is_empty() {
                    return fail(format!(
                        "node {ni}: mesh {} has joint weights; skinned meshes are in no node",
                        part.mesh
                    ));
                }
                if !r.is_empty() {
                    held[part.mesh].push(r.clone());
                }
            }
        }
        for (mi, ranges) in held.iter_mut().enumerate() {
            ranges.sort_by_key(|r| (r.start, r.end));
            if ranges.windows(2).any(|w| w[1].start < w[0].end) {
                return fail(format!("mesh {mi}: two node parts hold the same triangle"));
            }
        }
        Ok(())
    }
}
