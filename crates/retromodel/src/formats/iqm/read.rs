//! Parsing: bytes to [`File`], every count, offset, size, name and index checked once, here.

use std::borrow::Cow;

use super::raw::*;
use super::FORMAT;
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::io::{layout, Fields, Reader};
use crate::limits::{Budget, Limits};

/// The header field offsets (the magic, then 27 `u32` fields).
fn field_at(index: usize) -> usize {
    16 + 4 * index
}

/// What one decoded frame costs in a Model: per pose a local transform, a scale and the
/// sampling tables (64 bytes).
const FRAME_POSE_COST: u64 = 64;

/// What one decoded frame costs beyond its poses: its list of transforms and of scales.
const FRAME_COST: u64 = 64;

impl<'a> File<'a> {
    /// Parses an IQM file (version 2, or 1). Sections, vertex array data and extension data
    /// borrow from `data`.
    ///
    /// Fails on a wrong magic, another version, a `filesize` past the end of the data, a
    /// count over the limits, a section or vertex array that runs past the end, an unknown
    /// vertex array format, a name outside the text table, a triangle index past the
    /// vertices, a mesh range past the vertices or triangles, a parent that is not a lower
    /// joint or pose, an animation past the frames, or frame channels that do not match
    /// the poses' masks.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let mut r = Reader::new(data, FORMAT);
        let header = read_header(&mut r).context_with(|| "header")?;
        check_header(&r, &header, data.len(), limits)?;
        let mut p = Parser {
            data,
            r,
            h: header,
            budget: Budget::new(limits),
            covered: vec![(0, HEADER_SIZE)],
        };
        // A frame costs its poses and its own list (the Model may decode each frame twice:
        // animations that overlap are bounded to that in `convert::add_ranges`).
        let per_frame =
            u64::from(header.num_poses.max(header.num_joints)) * FRAME_POSE_COST + FRAME_COST;
        p.r.charge(
            &mut p.budget,
            u64::from(header.num_frames) * per_frame,
            field_at(19),
        )?;
        let text = p.text()?;
        let meshes = p.meshes()?;
        let vertex_arrays = p.vertex_arrays()?;
        let (triangles, adjacency) = p.triangles()?;
        let joints = p.joints()?;
        let poses = p.poses()?;
        let anims = p.anims()?;
        let (frames, bounds) = p.frames()?;
        let comment = p.comment()?;
        let extensions = p.extensions()?;
        let gaps = layout::find_gaps(data, p.covered);
        Ok(File {
            header,
            text,
            meshes,
            vertex_arrays,
            triangles,
            adjacency,
            joints,
            poses,
            anims,
            frames,
            bounds,
            comment,
            extensions,
            gaps,
        })
    }
}

/// Checks the header against the data and the limits: `filesize` within the data, every
/// `num_` field within `max_count`.
fn check_header(r: &Reader<'_>, h: &Header, data_len: usize, limits: &Limits) -> Result<()> {
    if h.filesize as usize > data_len {
        return Err(r.error_at(
            field_at(1),
            ErrorKind::Truncated,
            format!(
                "filesize = {} is past the end of the file ({} bytes)",
                h.filesize, data_len
            ),
        ));
    }
    for (i, (name, value)) in h.fields().iter().enumerate() {
        if name.starts_with("num_") && *value > limits.max_count {
            return Err(r.error_at(
                field_at(i),
                ErrorKind::LimitExceeded,
                format!("{name} = {value} exceeds the limit of {}", limits.max_count),
            ));
        }
    }
    Ok(())
}

/// One parse under way: the reader, the checked header, the memory budget and the byte
/// ranges the sections read so far cover (for the gaps). Its methods read the sections in
/// file-header order, one each.
struct Parser<'a> {
    data: &'a [u8],
    r: Reader<'a>,
    h: Header,
    budget: Budget,
    covered: Vec<(usize, usize)>,
}

/// A file's triangles and their adjacency, as the triangle section reads them.
type TrianglesAndAdjacency = (Vec<[u32; 3]>, Vec<[u32; 3]>);

impl<'a> Parser<'a> {
    /// Checks the section of `count` records of `size` bytes whose offset `ofs` is stored
    /// in header field `field`, records the bytes it covers, and returns where it starts
    /// and its length.
    fn sect(
        &mut self,
        name: &str,
        field: usize,
        ofs: u32,
        count: u32,
        size: usize,
    ) -> Result<(usize, usize)> {
        let start = section(
            &self.r,
            name,
            field_at(field),
            ofs,
            count,
            size,
            self.data.len(),
        )?;
        let len = count as usize * size;
        if len > 0 {
            self.covered.push((start, start + len));
        }
        Ok((start, len))
    }

    /// Whether a name offset lies in the text table (0 is the empty name).
    #[inline]
    fn name_ok(&self, ofs: u32) -> bool {
        ofs == 0 || ofs < self.h.num_text
    }

    /// The error for `what`'s name offset `ofs` outside the text, at byte `at`.
    fn bad_name(&self, at: usize, what: String, ofs: u32) -> Error {
        self.r.error_at(
            at,
            ErrorKind::IndexOutOfRange,
            format!(
                "{what}: name offset {ofs} is outside the text ({} bytes)",
                self.h.num_text
            ),
        )
    }

    /// The text table, borrowed.
    fn text(&mut self) -> Result<Cow<'a, [u8]>> {
        let h = self.h;
        let (at, len) = self.sect("text", 4, h.ofs_text, h.num_text, 1)?;
        Ok(Cow::Borrowed(&self.data[at..at + len]))
    }

    /// The meshes, their names and vertex and triangle ranges checked.
    fn meshes(&mut self) -> Result<Vec<Mesh>> {
        let h = self.h;
        let (meshes_at, _) = self.sect("meshes", 6, h.ofs_meshes, h.num_meshes, MESH_SIZE)?;
        self.r.charge(
            &mut self.budget,
            u64::from(h.num_meshes) * 1024,
            field_at(5),
        )?;
        self.r.seek(meshes_at)?;
        let mut meshes = Vec::with_capacity(h.num_meshes as usize);
        let records = self.r.records(h.num_meshes as usize, MESH_SIZE)?;
        let r = &self.r;
        for (i, rec) in records.enumerate() {
            let at = meshes_at + i * MESH_SIZE;
            let mut f = Fields::new(rec);
            let m = Mesh {
                name: f.u32(),
                material: f.u32(),
                first_vertex: f.u32(),
                num_vertexes: f.u32(),
                first_triangle: f.u32(),
                num_triangles: f.u32(),
            };
            for (what, ofs) in [("name", m.name), ("material", m.material)] {
                if !self.name_ok(ofs) {
                    return Err(self.bad_name(at, format!("mesh {i} {what}"), ofs));
                }
            }
            let past =
                |first: u32, n: u32, total: u32| u64::from(first) + u64::from(n) > u64::from(total);
            if past(m.first_vertex, m.num_vertexes, h.num_vertexes) {
                return Err(r.error_at(
                    at + 8,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "mesh {i}: vertices {}..{} past num_vertexes = {}",
                        m.first_vertex,
                        u64::from(m.first_vertex) + u64::from(m.num_vertexes),
                        h.num_vertexes
                    ),
                ));
            }
            if past(m.first_triangle, m.num_triangles, h.num_triangles) {
                return Err(r.error_at(
                    at + 16,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "mesh {i}: triangles {}..{} past num_triangles = {}",
                        m.first_triangle,
                        u64::from(m.first_triangle) + u64::from(m.num_triangles),
                        h.num_triangles
                    ),
                ));
            }
            meshes.push(m);
        }
        Ok(meshes)
    }

    /// The vertex arrays: each one's format and size checked and its data borrowed.
    fn vertex_arrays(&mut self) -> Result<Vec<VertexArray<'a>>> {
        let h = self.h;
        let (arrays_at, _) = self.sect(
            "vertexarrays",
            9,
            h.ofs_vertexarrays,
            h.num_vertexarrays,
            VERTEX_ARRAY_SIZE,
        )?;
        let mut vertex_arrays = Vec::with_capacity(h.num_vertexarrays as usize);
        self.r.seek(arrays_at)?;
        let records = self
            .r
            .records(h.num_vertexarrays as usize, VERTEX_ARRAY_SIZE)?;
        for (i, rec) in records.enumerate() {
            let at = arrays_at + i * VERTEX_ARRAY_SIZE;
            let mut f = Fields::new(rec);
            let (kind, flags, format, size, offset) = (f.u32(), f.u32(), f.u32(), f.u32(), f.u32());
            let Some(f) = ComponentFormat::of(format) else {
                return Err(self.r.error_at(
                    at + 8,
                    ErrorKind::InvalidValue,
                    format!(
                        "vertex array {i}: unknown component format {format} (0..8 are defined)"
                    ),
                ));
            };
            if size == 0 || size > 64 {
                return Err(self.r.error_at(
                    at + 12,
                    ErrorKind::InvalidValue,
                    format!("vertex array {i}: {size} components a vertex (1..64 are read)"),
                ));
            }
            let stride = size as usize * f.bytes();
            let what = format!("vertex array {i} ({})", ArrayType::of(kind).name());
            let start = section(
                &self.r,
                &what,
                at + 16,
                offset,
                h.num_vertexes,
                stride,
                self.data.len(),
            )?;
            let len = h.num_vertexes as usize * stride;
            self.r.charge(&mut self.budget, 3 * len as u64, at)?;
            if len > 0 {
                self.covered.push((start, start + len));
            }
            vertex_arrays.push(VertexArray {
                kind,
                flags,
                format,
                size,
                offset,
                data: Cow::Borrowed(&self.data[start..start + len]),
            });
        }
        Ok(vertex_arrays)
    }

    /// The triangles, every index checked against the vertices, and the adjacency (empty
    /// when absent).
    fn triangles(&mut self) -> Result<TrianglesAndAdjacency> {
        let h = self.h;
        let (tris_at, _) = self.sect(
            "triangles",
            11,
            h.ofs_triangles,
            h.num_triangles,
            TRIANGLE_SIZE,
        )?;
        self.r.charge(
            &mut self.budget,
            u64::from(h.num_triangles) * 40,
            field_at(10),
        )?;
        let triangles = read_triangles(&mut self.r, tris_at, h.num_triangles)?;
        // One pass without an early exit (it vectorises), then the triangle to blame.
        let all_inside = triangles
            .as_flattened()
            .iter()
            .fold(true, |ok, &v| ok & (v < h.num_vertexes));
        for (i, t) in triangles.iter().enumerate().filter(|_| !all_inside) {
            if let Some(&v) = t.iter().find(|&&v| v >= h.num_vertexes) {
                return Err(self.r.error_at(
                    tris_at + i * TRIANGLE_SIZE,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "triangle {i}: vertex {v} past num_vertexes = {}",
                        h.num_vertexes
                    ),
                ));
            }
        }
        let adjacency = if h.ofs_adjacency != 0 {
            let (at, _) = self.sect(
                "adjacency",
                12,
                h.ofs_adjacency,
                h.num_triangles,
                TRIANGLE_SIZE,
            )?;
            read_triangles(&mut self.r, at, h.num_triangles)?
        } else {
            Vec::new()
        };
        Ok((triangles, adjacency))
    }

    /// The joints (version 1 rotations widened to four values), names and parents checked.
    fn joints(&mut self) -> Result<Vec<Joint>> {
        let h = self.h;
        let version = h.version;
        let jsize = joint_size(version);
        let (joints_at, _) = self.sect("joints", 14, h.ofs_joints, h.num_joints, jsize)?;
        self.r.charge(
            &mut self.budget,
            u64::from(h.num_joints) * 256,
            field_at(13),
        )?;
        self.r.seek(joints_at)?;
        let mut joints = Vec::with_capacity(h.num_joints as usize);
        let records = self.r.records(h.num_joints as usize, jsize)?;
        for (i, rec) in records.enumerate() {
            let at = joints_at + i * jsize;
            let mut f = Fields::new(rec);
            let name = f.u32();
            let parent = f.i32();
            let translate = f.f32s();
            let rotate = if version == 1 {
                let [x, y, z] = f.f32s();
                [x, y, z, 0.0]
            } else {
                f.f32s()
            };
            let scale = f.f32s();
            if !self.name_ok(name) {
                return Err(self.bad_name(at, format!("joint {i}"), name));
            }
            check_parent(&self.r, at + 4, "joint", i, parent)?;
            joints.push(Joint {
                name,
                parent,
                translate,
                rotate,
                scale,
            });
        }
        Ok(joints)
    }

    /// The poses, parents checked, and their masks' channel count against
    /// `num_framechannels`.
    fn poses(&mut self) -> Result<Vec<Pose>> {
        let h = self.h;
        let version = h.version;
        let channels = pose_channels(version);
        let (poses_at, _) = self.sect("poses", 16, h.ofs_poses, h.num_poses, pose_size(version))?;
        self.r
            .charge(&mut self.budget, u64::from(h.num_poses) * 128, field_at(15))?;
        self.r.seek(poses_at)?;
        let mut poses = Vec::with_capacity(h.num_poses as usize);
        let psize = pose_size(version);
        let records = self.r.records(h.num_poses as usize, psize)?;
        for (i, rec) in records.enumerate() {
            let at = poses_at + i * psize;
            let mut f = Fields::new(rec);
            let parent = f.i32();
            let mask = f.u32();
            let mut p = Pose {
                parent,
                mask,
                ..Pose::default()
            };
            for c in 0..channels {
                p.channel_offset[c] = f.f32();
            }
            for c in 0..channels {
                p.channel_scale[c] = f.f32();
            }
            check_parent(&self.r, at, "pose", i, parent)?;
            poses.push(p);
        }
        let animated: u64 = poses.iter().map(|p| p.animated(channels) as u64).sum();
        if h.num_frames > 0 && animated != u64::from(h.num_framechannels) {
            return Err(self.r.error_at(
                field_at(20),
                ErrorKind::InvalidValue,
                format!(
                    "num_framechannels = {} but the poses' masks animate {animated} channels",
                    h.num_framechannels
                ),
            ));
        }
        Ok(poses)
    }

    /// The animations, names and frame ranges checked.
    fn anims(&mut self) -> Result<Vec<Anim>> {
        let h = self.h;
        let (anims_at, _) = self.sect("anims", 18, h.ofs_anims, h.num_anims, ANIM_SIZE)?;
        self.r
            .charge(&mut self.budget, u64::from(h.num_anims) * 256, field_at(17))?;
        self.r.seek(anims_at)?;
        let mut anims = Vec::with_capacity(h.num_anims as usize);
        let records = self.r.records(h.num_anims as usize, ANIM_SIZE)?;
        for (i, rec) in records.enumerate() {
            let at = anims_at + i * ANIM_SIZE;
            let mut f = Fields::new(rec);
            let a = Anim {
                name: f.u32(),
                first_frame: f.u32(),
                num_frames: f.u32(),
                framerate: f.f32(),
                flags: f.u32(),
            };
            if !self.name_ok(a.name) {
                return Err(self.bad_name(at, format!("anim {i}"), a.name));
            }
            if u64::from(a.first_frame) + u64::from(a.num_frames) > u64::from(h.num_frames) {
                return Err(self.r.error_at(
                    at + 4,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "anim {i}: frames {}..{} past num_frames = {}",
                        a.first_frame,
                        u64::from(a.first_frame) + u64::from(a.num_frames),
                        h.num_frames
                    ),
                ));
            }
            anims.push(a);
        }
        Ok(anims)
    }

    /// The frame values (borrowed, still encoded) and the per-frame bounds (empty when
    /// absent).
    fn frames(&mut self) -> Result<(Cow<'a, [u8]>, Vec<Bounds>)> {
        let h = self.h;
        let frame_values = u64::from(h.num_frames) * u64::from(h.num_framechannels);
        let frame_values = u32::try_from(frame_values).map_err(|_| {
            self.r.error_at(
                field_at(19),
                ErrorKind::LimitExceeded,
                format!(
                    "{} frames of {} channels are too many",
                    h.num_frames, h.num_framechannels
                ),
            )
        })?;
        let (frames_at, _) = self.sect("frames", 21, h.ofs_frames, frame_values, 2)?;
        self.r.seek(frames_at)?;
        // Kept as stored (little-endian 16-bit values): decoding waits for the frames' use.
        let frames = Cow::Borrowed(self.r.bytes(frame_values as usize * 2)?);
        let bounds = if h.ofs_bounds != 0 && h.num_frames > 0 {
            let (at, _) = self.sect("bounds", 22, h.ofs_bounds, h.num_frames, BOUNDS_SIZE)?;
            self.r.seek(at)?;
            self.r
                .records(h.num_frames as usize, BOUNDS_SIZE)?
                .map(|rec| {
                    let mut f = Fields::new(rec);
                    Bounds {
                        bbmin: f.f32s(),
                        bbmax: f.f32s(),
                        xyradius: f.f32(),
                        radius: f.f32(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok((frames, bounds))
    }

    /// The comment, borrowed.
    fn comment(&mut self) -> Result<Cow<'a, [u8]>> {
        let h = self.h;
        let (at, len) = self.sect("comment", 24, h.ofs_comment, h.num_comment, 1)?;
        Ok(Cow::Borrowed(&self.data[at..at + len]))
    }

    /// The extensions, following their chain from the header: each one's name checked and
    /// its data borrowed.
    fn extensions(&mut self) -> Result<Vec<Extension<'a>>> {
        let h = self.h;
        let data = self.data;
        let mut extensions = Vec::new();
        let mut next = h.ofs_extensions;
        let mut field = field_at(26);
        for i in 0..h.num_extensions as usize {
            let what = format!("extension {i}");
            let at = section(&self.r, &what, field, next, 1, EXTENSION_SIZE, data.len())?;
            if at == 0 {
                return Err(self.r.error_at(
                    field,
                    ErrorKind::InvalidValue,
                    format!(
                        "{what}: the chain ends at offset 0 after {i} of {} extensions",
                        h.num_extensions
                    ),
                ));
            }
            self.covered.push((at, at + EXTENSION_SIZE));
            let r = &mut self.r;
            r.seek(at)?;
            let (name, num_data, ofs_data, ofs_next) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
            if !self.name_ok(name) {
                return Err(self.bad_name(at, what, name));
            }
            let start = section(
                &self.r,
                &format!("{what} data"),
                at + 8,
                ofs_data,
                num_data,
                1,
                data.len(),
            )?;
            self.r
                .charge(&mut self.budget, u64::from(num_data) + 256, at + 4)?;
            if num_data > 0 {
                self.covered.push((start, start + num_data as usize));
            }
            extensions.push(Extension {
                at: at as u32,
                name,
                num_data,
                ofs_data,
                ofs_extensions: ofs_next,
                data: Cow::Borrowed(&data[start..start + num_data as usize]),
            });
            next = ofs_next;
            field = at + 12;
        }
        Ok(extensions)
    }
}

fn read_header(r: &mut Reader<'_>) -> Result<Header> {
    let magic = r.bytes(16)?;
    if magic != MAGIC {
        let four: [u8; 4] = [magic[0], magic[1], magic[2], magic[3]];
        if &four != b"INTE" {
            return Err(r.bad_magic(&four));
        }
        return Err(r.error_at(
            0,
            ErrorKind::BadMagic,
            format!(
                "bad magic {} (expected \"INTERQUAKEMODEL\" and a NUL)",
                crate::io::magic::show_magic(magic.strip_suffix(b"\0").unwrap_or(magic))
            ),
        ));
    }
    // Field by field, so that a truncated header names the field it ends in.
    let mut v = [0u32; 27];
    for f in &mut v {
        *f = r.u32()?;
    }
    let h = Header::from_fields(v);
    if h.version != 1 && h.version != VERSION {
        return Err(r.error_at(
            16,
            ErrorKind::UnsupportedVersion,
            format!("unsupported version {} (1 and 2 are read)", h.version),
        ));
    }
    Ok(h)
}

/// Checks that `count × size` bytes at `offset` (stored in the field at `field_at`) lie in
/// the file and returns where they start (0 for an empty section, whose offset means
/// nothing).
fn section(
    r: &Reader<'_>,
    name: &str,
    field_at: usize,
    offset: u32,
    count: u32,
    size: usize,
    file_len: usize,
) -> Result<usize> {
    let len = u64::from(count) * size as u64;
    if len == 0 {
        return Ok(0);
    }
    let end = u64::from(offset) + len;
    if end > file_len as u64 {
        return Err(r.error_at(
            field_at,
            ErrorKind::Truncated,
            format!(
                "{name}: bytes {offset}..{end} are past the end of the file ({file_len} bytes)"
            ),
        ));
    }
    Ok(offset as usize)
}

fn read_triangles(r: &mut Reader<'_>, at: usize, n: u32) -> Result<Vec<[u32; 3]>> {
    r.seek(at)?;
    let raw = r.bytes(n as usize * TRIANGLE_SIZE)?;
    // Index by index over the flat data (it vectorises).
    let mut out = vec![[0u32; 3]; n as usize];
    out.as_flattened_mut()
        .iter_mut()
        .zip(raw.as_chunks::<4>().0)
        .for_each(|(o, b)| *o = u32::from_le_bytes(*b));
    Ok(out)
}

fn check_parent(r: &Reader<'_>, at: usize, what: &str, i: usize, parent: i32) -> Result<()> {
    if parent < -1 || (parent >= 0 && parent as usize >= i) {
        return Err(r.error_at(
            at,
            ErrorKind::InvalidValue,
            format!("{what} {i}: parent {parent} is not a lower {what} or -1"),
        ));
    }
    Ok(())
}
