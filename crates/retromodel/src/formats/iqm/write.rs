//! Serialising: [`File`] to bytes, every section at the offset its header gives.

use super::raw::*;
use crate::io::{layout, Writer};

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte: each section at
    /// its header offset, each vertex array's data and each extension where their records
    /// say, the gaps between them restored.
    ///
    /// After editing the vectors, call [`File::relayout`] to place the sections anew.
    pub fn write(&self) -> Vec<u8> {
        let h = &self.header;
        let version = h.version;
        let mut header = Writer::with_capacity(HEADER_SIZE);
        header.bytes(&MAGIC);
        for (_, v) in h.fields() {
            header.u32(v);
        }
        let mut meshes = Writer::with_capacity(MESH_SIZE * self.meshes.len());
        for m in &self.meshes {
            for v in [
                m.name,
                m.material,
                m.first_vertex,
                m.num_vertexes,
                m.first_triangle,
                m.num_triangles,
            ] {
                meshes.u32(v);
            }
        }
        let mut arrays = Writer::with_capacity(VERTEX_ARRAY_SIZE * self.vertex_arrays.len());
        for a in &self.vertex_arrays {
            for v in [a.kind, a.flags, a.format, a.size, a.offset] {
                arrays.u32(v);
            }
        }
        let triangles = triangle_bytes(&self.triangles);
        let adjacency = triangle_bytes(&self.adjacency);
        let mut joints = Writer::with_capacity(joint_size(version) * self.joints.len());
        for j in &self.joints {
            joints.u32(j.name);
            joints.i32(j.parent);
            joints.vec3(j.translate);
            let n = if version == 1 { 3 } else { 4 };
            j.rotate[..n].iter().for_each(|&v| joints.f32(v));
            joints.vec3(j.scale);
        }
        let channels = pose_channels(version);
        let mut poses = Writer::with_capacity(pose_size(version) * self.poses.len());
        for p in &self.poses {
            poses.i32(p.parent);
            poses.u32(p.mask);
            p.channel_offset[..channels]
                .iter()
                .for_each(|&v| poses.f32(v));
            p.channel_scale[..channels]
                .iter()
                .for_each(|&v| poses.f32(v));
        }
        let mut anims = Writer::with_capacity(ANIM_SIZE * self.anims.len());
        for a in &self.anims {
            anims.u32(a.name);
            anims.u32(a.first_frame);
            anims.u32(a.num_frames);
            anims.f32(a.framerate);
            anims.u32(a.flags);
        }
        let mut frames = Writer::with_capacity(self.frames.len());
        frames.bytes(&self.frames);
        let mut bounds = Writer::with_capacity(BOUNDS_SIZE * self.bounds.len());
        for b in &self.bounds {
            bounds.vec3(b.bbmin);
            bounds.vec3(b.bbmax);
            bounds.f32(b.xyradius);
            bounds.f32(b.radius);
        }
        let extensions: Vec<Vec<u8>> = self
            .extensions
            .iter()
            .map(|e| {
                let mut w = Writer::with_capacity(EXTENSION_SIZE);
                for v in [e.name, e.num_data, e.ofs_data, e.ofs_extensions] {
                    w.u32(v);
                }
                w.into_bytes()
            })
            .collect();
        let (header, meshes, arrays, joints, poses, anims, frames, bounds) = (
            header.into_bytes(),
            meshes.into_bytes(),
            arrays.into_bytes(),
            joints.into_bytes(),
            poses.into_bytes(),
            anims.into_bytes(),
            frames.into_bytes(),
            bounds.into_bytes(),
        );
        let mut sections: Vec<(usize, &[u8])> = vec![
            (0, &header),
            (h.ofs_text as usize, &self.text),
            (h.ofs_meshes as usize, &meshes),
            (h.ofs_vertexarrays as usize, &arrays),
            (h.ofs_triangles as usize, &triangles),
            (h.ofs_adjacency as usize, &adjacency),
            (h.ofs_joints as usize, &joints),
            (h.ofs_poses as usize, &poses),
            (h.ofs_anims as usize, &anims),
            (h.ofs_frames as usize, &frames),
            (h.ofs_bounds as usize, &bounds),
            (h.ofs_comment as usize, &self.comment),
        ];
        for a in &self.vertex_arrays {
            sections.push((a.offset as usize, &a.data));
        }
        for (e, record) in self.extensions.iter().zip(&extensions) {
            sections.push((e.at as usize, record));
            sections.push((e.ofs_data as usize, &e.data));
        }
        layout::assemble(&sections, &self.gaps, h.filesize as usize)
    }

    /// Places every section anew after the header, in the order lsalzman's `iqm` tool
    /// writes them (text, meshes, vertex arrays and their data, triangles, adjacency,
    /// joints, poses, anims, frames, bounds, comment, extensions), each at a multiple of 4
    /// (vertex data at 8), sets the counts of the vectors, the offsets and `filesize`, and
    /// drops the gaps. `num_vertexes`, `num_frames` and `num_framechannels` are the caller's
    /// (they describe the arrays' and frames' contents, not a vector's length).
    pub fn relayout(&mut self) {
        let version = self.header.version;
        let mut at = HEADER_SIZE;
        let mut place = |len: usize, align: usize| -> u32 {
            if len == 0 {
                return 0;
            }
            at = at.div_ceil(align) * align;
            let start = at;
            at += len;
            start as u32
        };
        let h = &mut self.header;
        h.num_text = self.text.len() as u32;
        h.ofs_text = place(self.text.len(), 4);
        h.num_meshes = self.meshes.len() as u32;
        h.ofs_meshes = place(MESH_SIZE * self.meshes.len(), 4);
        h.num_vertexarrays = self.vertex_arrays.len() as u32;
        h.ofs_vertexarrays = place(VERTEX_ARRAY_SIZE * self.vertex_arrays.len(), 4);
        // The vertex data starts on 8 bytes, each array on its component size (at least 4).
        for (i, a) in self.vertex_arrays.iter_mut().enumerate() {
            let size = ComponentFormat::of(a.format).map_or(4, |f| f.bytes().max(4));
            a.offset = place(a.data.len(), if i == 0 { 8 } else { size });
        }
        h.num_triangles = self.triangles.len() as u32;
        h.ofs_triangles = place(TRIANGLE_SIZE * self.triangles.len(), 4);
        h.ofs_adjacency = place(TRIANGLE_SIZE * self.adjacency.len(), 4);
        h.num_joints = self.joints.len() as u32;
        h.ofs_joints = place(joint_size(version) * self.joints.len(), 4);
        h.num_poses = self.poses.len() as u32;
        h.ofs_poses = place(pose_size(version) * self.poses.len(), 4);
        h.num_anims = self.anims.len() as u32;
        h.ofs_anims = place(ANIM_SIZE * self.anims.len(), 4);
        h.ofs_frames = place(self.frames.len(), 4);
        h.ofs_bounds = place(BOUNDS_SIZE * self.bounds.len(), 4);
        h.num_comment = self.comment.len() as u32;
        h.ofs_comment = place(self.comment.len(), 4);
        h.num_extensions = self.extensions.len() as u32;
        let mut records = Vec::with_capacity(self.extensions.len());
        for e in &mut self.extensions {
            records.push(place(EXTENSION_SIZE, 4));
            e.num_data = e.data.len() as u32;
            e.ofs_data = place(e.data.len(), 4);
        }
        for (i, e) in self.extensions.iter_mut().enumerate() {
            e.at = records[i];
            e.ofs_extensions = records.get(i + 1).copied().unwrap_or(0);
        }
        h.ofs_extensions = records.first().copied().unwrap_or(0);
        h.filesize = at as u32;
        self.gaps.clear();
    }
}

fn triangle_bytes(t: &[[u32; 3]]) -> Vec<u8> {
    let mut w = Writer::with_capacity(TRIANGLE_SIZE * t.len());
    t.iter().flatten().for_each(|&v| w.u32(v));
    w.into_bytes()
}
