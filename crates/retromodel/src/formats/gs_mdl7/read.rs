//! Parsing: bytes to [`File`], every count, structure size and vertex index checked once,
//! here. References that real files get wrong (materials, texture coordinates, bones) are
//! kept as stored and judged by the converter.

use std::borrow::Cow;

use super::raw::*;
use super::FORMAT;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::io::Reader;
use crate::limits::{Budget, Limits};

/// Byte offset of each structure size in the header, in file order.
const SIZE_AT: [usize; 10] = [28, 30, 32, 34, 36, 38, 40, 42, 44, 46];

/// What one decoded picture costs: its bookkeeping and 4 bytes a texel.
fn picture_cost(texels: u64) -> u64 {
    128 + 4 * texels
}

/// Fails unless a record size is at least `min` (checked only where such records are read).
fn need_size(r: &Reader<'_>, what: &str, size: u16, min: u16, field: usize) -> Result<usize> {
    if size < min {
        return Err(r.error_at(
            SIZE_AT[field],
            ErrorKind::InvalidValue,
            format!("{what} structure size {size} is smaller than {min}"),
        ));
    }
    Ok(size as usize)
}

/// A table of records whose size the header gives (checked only where such records are read).
struct Table {
    /// What a record is called in errors (`"skin"`: "skin structure size ...").
    what: &'static str,
    /// Which header size field gives the record size ([`SIZE_AT`]).
    field: usize,
    /// The smallest record size read: the fields every record of the kind has.
    min: u16,
    /// The name of the count in errors.
    count_name: &'static str,
    /// What one record costs once decoded.
    cost: u64,
}

const SKINS: Table = Table {
    what: "skin",
    field: 1,
    min: 12,
    count_name: "numskins",
    cost: 256,
};
const SKINPOINTS: Table = Table {
    what: "skinpoint",
    field: 4,
    min: 8,
    count_name: "num_stpts",
    cost: 48,
};
const TRIANGLES: Table = Table {
    what: "triangle",
    field: 5,
    min: 6,
    count_name: "numtris",
    cost: 64,
};
const MAINVERTICES: Table = Table {
    what: "mainvertex",
    field: 6,
    min: 14,
    count_name: "numverts",
    cost: 64,
};
const FRAMES: Table = Table {
    what: "frame",
    field: 9,
    min: 24,
    count_name: "numframes",
    cost: 128,
};
const FRAMEVERTICES: Table = Table {
    what: "framevertex",
    field: 7,
    min: 14,
    count_name: "vertices_count",
    cost: 64,
};
const BONETRANS: Table = Table {
    what: "bonetrans",
    field: 8,
    min: 66,
    count_name: "matrix_count",
    cost: 128,
};

/// Checks a table's record size and its count (`count`, stored at `count_at`) and charges
/// its records: `None` for an empty table, else the record size and the count.
fn open_table(
    r: &Reader<'_>,
    t: &Table,
    size: u16,
    (count, count_at): (i32, usize),
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Option<(usize, usize)>> {
    if count == 0 {
        return Ok(None);
    }
    let size = need_size(r, t.what, size, t.min, t.field)?;
    let n = r.count(count, t.count_name, size, count_at, limits)?;
    r.charge(budget, n as u64 * t.cost, count_at)?;
    Ok(Some((size, n)))
}

/// A table ([`open_table`]) whose records `decode` makes from their bytes alone.
fn read_table<T>(
    r: &mut Reader<'_>,
    t: &Table,
    size: u16,
    count: (i32, usize),
    limits: &Limits,
    budget: &mut Budget,
    decode: impl Fn(&[u8]) -> T,
) -> Result<Vec<T>> {
    let Some((size, n)) = open_table(r, t, size, count, limits, budget)? else {
        return Ok(Vec::new());
    };
    Ok(r.bytes(n * size)?.chunks_exact(size).map(decode).collect())
}

impl<'a> File<'a> {
    /// Parses an MDL7 file. Pictures, names and lumps borrow from `data`.
    ///
    /// Fails on a wrong magic, a negative or impossible count, a structure size too small for
    /// the fields every record of its kind has, an unknown skin type, a triangle or frame
    /// vertex index out of range, `data_size` or a lump past the end of the data, or
    /// truncated data. The version word is not judged.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let (mut r, header) = Reader::with_header(data, FORMAT, read_header)?;
        let h = &header;
        let mut budget = Budget::new(limits);

        let mut bones = Vec::new();
        if h.bones_num != 0 {
            let size = need_size(&r, "bone", h.sizes.bone, 16, 0)?;
            let n = r.count(h.bones_num, "bones_num", size, 8, limits)?;
            r.charge(&mut budget, n as u64 * (64 + size as u64), 8)?;
            bones.reserve_exact(n);
            for _ in 0..n {
                let rec = r.bytes(size)?;
                bones.push(Bone {
                    parent: u16_at(rec, 0),
                    unused: u16_at(rec, 2),
                    position: [f32_at(rec, 4), f32_at(rec, 8), f32_at(rec, 12)],
                    name: rec[16..].to_vec(),
                });
            }
        }

        let num_groups = r.count(h.groups_num, "groups_num", GROUP_SIZE, 12, limits)?;
        r.charge(&mut budget, num_groups as u64 * 256, 12)?;
        let mut groups = Vec::with_capacity(num_groups);
        for g in 0..num_groups {
            groups.push(
                read_group(&mut r, h, limits, &mut budget).context_with(|| format!("group {g}"))?,
            );
        }
        charge_model(&r, bones.len(), &groups, &mut budget)?;

        let num_deformers: usize = groups.iter().map(|g| g.deformers as usize).sum();
        let mut deformers = Vec::with_capacity(num_deformers.min(r.remaining() / 16));
        for d in 0..num_deformers {
            deformers.push(
                read_deformer(&mut r, limits, &mut budget)
                    .context_with(|| format!("deformer {d}"))?,
            );
        }

        let end = r.pos();
        let mut unclaimed = Cow::Borrowed(&data[end..end]);
        if h.data_size as i64 > end as i64 {
            if h.data_size as usize > data.len() {
                return Err(r.error_at(
                    16,
                    ErrorKind::Truncated,
                    format!(
                        "data_size = {} is past the end of the data ({} bytes)",
                        h.data_size,
                        data.len()
                    ),
                ));
            }
            unclaimed = Cow::Borrowed(r.bytes(h.data_size as usize - end)?);
        }
        let entlump = Cow::Borrowed(read_lump(&mut r, "entlump_size", h.entlump_size, 20)?);
        let medlump = Cow::Borrowed(read_lump(&mut r, "medlump_size", h.medlump_size, 24)?);
        let trailing = Cow::Borrowed(r.rest());
        Ok(File {
            header,
            bones,
            groups,
            deformers,
            unclaimed,
            entlump,
            medlump,
            trailing,
        })
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(b, at))
}

fn idx3(b: &[u8], at: usize) -> [u16; 3] {
    [u16_at(b, at), u16_at(b, at + 2), u16_at(b, at + 4)]
}

fn read_header(r: &mut Reader<'_>) -> Result<Header> {
    let magic = r.array::<4>()?;
    if magic != IDENT {
        return Err(r.bad_magic(&magic));
    }
    let version = r.i32()?;
    let bones_num = r.i32()?;
    let groups_num = r.i32()?;
    let data_size = r.i32()?;
    let entlump_size = r.i32()?;
    let medlump_size = r.i32()?;
    let mut sizes = [0u16; 10];
    for s in &mut sizes {
        *s = r.u16()?;
    }
    Ok(Header {
        version,
        bones_num,
        groups_num,
        data_size,
        entlump_size,
        medlump_size,
        sizes: StructSizes::from_array(sizes),
    })
}

/// A lump of `size` bytes after the model data; its size field is at `field`.
fn read_lump<'a>(r: &mut Reader<'a>, name: &str, size: i32, field: usize) -> Result<&'a [u8]> {
    if size < 0 {
        return Err(r.error_at(
            field,
            ErrorKind::BadCount,
            format!("negative count {name} = {size}"),
        ));
    }
    if size as usize > r.remaining() {
        return Err(r.error_at(
            field,
            ErrorKind::Truncated,
            format!(
                "{name} = {size} runs past the end of the data ({} bytes left at offset {:#x})",
                r.remaining(),
                r.pos()
            ),
        ));
    }
    r.bytes(size as usize)
}

/// Charges what the converter will allocate: per model frame a position and a normal for up
/// to one mesh vertex per triangle corner and per unused vertex, a morph target's
/// bookkeeping for every mesh (at most one per material a group uses) and the bones' motion
/// matrices; and per vertex its UV, index and joint influences.
fn charge_model(
    r: &Reader<'_>,
    bones: usize,
    groups: &[Group<'_>],
    budget: &mut Budget,
) -> Result<()> {
    let frames = groups.iter().map(|g| g.frames.len()).max().unwrap_or(0) as u64;
    let skins: u64 = groups.iter().map(|g| g.skins.len() as u64).sum();
    let (mut mesh_vertices, mut meshes) = (0u64, 0u64);
    for g in groups {
        let (t, v) = (g.triangles.len() as u64, g.vertices.len() as u64);
        mesh_vertices += 3 * t + v;
        if t + v > 0 {
            meshes += t.min(skins + 1).max(1);
        }
    }
    let per_frame = 256 + 24 * mesh_vertices + 128 * meshes + 64 * bones as u64;
    let cost = frames
        .max(1)
        .saturating_mul(per_frame)
        .saturating_add(64 * mesh_vertices);
    r.charge(budget, cost, 12)
}

fn read_group<'a>(
    r: &mut Reader<'a>,
    h: &Header,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Group<'a>> {
    let typ = r.u8()?;
    let deformers = r.u8()?;
    let max_weights = r.u8()?;
    let unused = r.u8()?;
    let groupdata_size = r.i32()?;
    let name = r.array::<16>()?;
    let at = r.pos();
    let mut c = [0i32; 5];
    for v in &mut c {
        *v = r.i32()?;
    }
    let [numskins, num_stpts, numtris, numverts, numframes] = c;
    let names = ["numskins", "num_stpts", "numtris", "numverts", "numframes"];
    if let Some(k) = c.iter().position(|&v| v < 0) {
        return Err(r.error_at(
            at + 4 * k,
            ErrorKind::BadCount,
            format!("negative count {} = {}", names[k], c[k]),
        ));
    }
    let s = h.sizes;

    let mut skins = Vec::new();
    if let Some((_, n)) = open_table(r, &SKINS, s.skin, (numskins, at), limits, budget)? {
        skins.reserve_exact(n);
        for i in 0..n {
            skins.push(read_skin(r, h, limits, budget).context_with(|| format!("skin {i}"))?);
        }
    }

    let stpts = (num_stpts, at + 4);
    let texcoords = read_table(r, &SKINPOINTS, s.skinpoint, stpts, limits, budget, |b| {
        TexCoord {
            u: f32_at(b, 0),
            v: f32_at(b, 4),
            extra: b[8..].to_vec(),
        }
    })?;

    let mut triangles = Vec::new();
    let tris = (numtris, at + 8);
    if let Some((size, n)) = open_table(r, &TRIANGLES, s.triangle, tris, limits, budget)? {
        triangles.reserve_exact(n);
        for i in 0..n {
            let start = r.pos();
            let b = r.bytes(size)?;
            let vertex = idx3(b, 0);
            if let Some(k) = vertex.iter().position(|&v| v as i32 >= numverts) {
                return Err(r
                    .error_at(
                        start + 2 * k,
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "vertex index {} out of range (numverts = {numverts})",
                            vertex[k]
                        ),
                    )
                    .in_context(format!("triangle {i}")));
            }
            triangles.push(Triangle {
                vertex,
                texcoord: if size >= 12 { idx3(b, 6) } else { [NONE16; 3] },
                material: if size >= 16 {
                    u32_at(b, 12)
                } else {
                    NO_MATERIAL
                },
                texcoord2: if size >= 22 { idx3(b, 16) } else { [NONE16; 3] },
                material2: if size >= 26 {
                    u32_at(b, 22)
                } else {
                    NO_MATERIAL
                },
                extra: b[triangle_fields_len(size)..].to_vec(),
            });
        }
    }

    let verts = (numverts, at + 12);
    let vertices = read_table(
        r,
        &MAINVERTICES,
        s.mainvertex,
        verts,
        limits,
        budget,
        vertex,
    )?;

    let mut frames = Vec::new();
    let count = (numframes, at + 16);
    if let Some((_, n)) = open_table(r, &FRAMES, s.frame, count, limits, budget)? {
        frames.reserve_exact(n);
        for f in 0..n {
            frames.push(
                read_frame(r, h, numverts, limits, budget).context_with(|| format!("frame {f}"))?,
            );
        }
    }

    Ok(Group {
        typ,
        deformers,
        max_weights,
        unused,
        groupdata_size,
        name,
        skins,
        texcoords,
        triangles,
        vertices,
        frames,
    })
}

/// A vertex record of at least 14 bytes.
fn vertex(b: &[u8]) -> Vertex {
    let (normal, used) = if b.len() >= 26 {
        (
            Normal::Full([f32_at(b, 14), f32_at(b, 18), f32_at(b, 22)]),
            26,
        )
    } else if b.len() >= 16 {
        (
            Normal::Index {
                index: b[14],
                pad: b[15],
            },
            16,
        )
    } else {
        (Normal::None, 14)
    };
    Vertex {
        position: [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8)],
        bone: u16_at(b, 12),
        normal,
        extra: b[used..].to_vec(),
    }
}

fn read_frame(
    r: &mut Reader<'_>,
    h: &Header,
    numverts: i32,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Frame> {
    let s = h.sizes;
    let head = r.bytes(s.frame as usize)?;
    let start = r.pos() - head.len();
    let mut name = [0u8; 16];
    name.copy_from_slice(&head[..16]);
    let vertices_count = u32_at(head, 16) as i32;
    let matrix_count = u32_at(head, 20) as i32;
    let extra = head[24..].to_vec();

    let mut vertices = Vec::new();
    let count = (vertices_count, start + 16);
    if let Some((size, n)) = open_table(r, &FRAMEVERTICES, s.framevertex, count, limits, budget)? {
        vertices.reserve_exact(n);
        for i in 0..n {
            let at = r.pos();
            let v = vertex(r.bytes(size)?);
            if v.bone as i32 >= numverts {
                return Err(r
                    .error_at(
                        at + 12,
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "vertex index {} out of range (numverts = {numverts})",
                            v.bone
                        ),
                    )
                    .in_context(format!("vertex {i}")));
            }
            vertices.push(v);
        }
    }

    let count = (matrix_count, start + 20);
    let transforms = read_table(r, &BONETRANS, s.bonetrans, count, limits, budget, |b| {
        BoneTransform {
            matrix: std::array::from_fn(|k| f32_at(b, 4 * k)),
            bone: u16_at(b, 64),
            // A 67-byte record covers the low byte of `unused` only: keep it.
            unused: match b.len() {
                n if n >= 68 => u16_at(b, 66),
                67 => u16::from(b[66]),
                _ => 0,
            },
            extra: b[b.len().min(68)..].to_vec(),
        }
    })?;
    Ok(Frame {
        name,
        vertices,
        transforms,
        extra,
    })
}

fn read_skin<'a>(
    r: &mut Reader<'a>,
    h: &Header,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Skin<'a>> {
    let at = r.pos();
    let rec = r.bytes(h.sizes.skin as usize)?;
    let head = SkinHead {
        at,
        skin_type: u32_at(rec, 0),
        width: u32_at(rec, 4),
        height: u32_at(rec, 8),
    };
    read_skin_data(r, head, rec[12..].to_vec(), h.sizes, limits, budget)
}

/// Type, width and height of a skin, and where its record starts (for errors).
pub(crate) struct SkinHead {
    /// Offset of the type word.
    pub at: usize,
    /// The type word.
    pub skin_type: u32,
    /// Width (or byte length).
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// A skin from its record (`head` and `name`) and the data after the record: picture (and
/// mip levels), material, definition text. Shared with HMP terrains, whose skins have the
/// same data without a name.
pub(crate) fn read_skin_data<'a>(
    r: &mut Reader<'a>,
    head: SkinHead,
    name: Vec<u8>,
    sizes: StructSizes,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Skin<'a>> {
    let SkinHead {
        at,
        skin_type,
        width,
        height,
    } = head;
    let kind = skin_type & 7;
    let mips = skin_type & SKIN_MIPMAPS != 0;
    let unknown = skin_type & !0x3F != 0 || (mips && matches!(kind, 1 | 6 | 7));
    if unknown {
        return Err(r.error_at(
            at,
            ErrorKind::InvalidValue,
            format!("unknown skin type {skin_type:#x}"),
        ));
    }
    let data = match kind {
        SKIN_REFERENCE => SkinData::Reference,
        SKIN_DDS => SkinData::Dds(Cow::Borrowed(take(r, width as u64)?)),
        SKIN_EXTERNAL => SkinData::External(Cow::Borrowed(take(r, width as u64)?)),
        _ => {
            let format = match kind {
                0 => PixelFormat::Indexed8,
                2 => PixelFormat::Rgb565,
                3 => PixelFormat::Argb4444,
                4 => PixelFormat::Bgr888,
                _ => PixelFormat::Bgra8888,
            };
            let max = limits.max_image_dimension;
            if width > max || height > max {
                return Err(r.error_at(
                    at + 4,
                    ErrorKind::LimitExceeded,
                    format!("skin size {width}x{height} exceeds the limit of {max} pixels a side"),
                ));
            }
            let bpp = format.bytes_per_pixel() as u64;
            let (w, ht) = (width as u64, height as u64);
            let pixels = take(r, w * ht * bpp)?;
            let mip_bytes = if mips {
                (1..=3).map(|k| (w >> k) * (ht >> k) * bpp).sum()
            } else {
                0
            };
            let mipmaps = take(r, mip_bytes)?;
            r.charge(budget, picture_cost(w * ht), at)?;
            SkinData::Pixels {
                format,
                pixels: Cow::Borrowed(pixels),
                mipmaps: Cow::Borrowed(mipmaps),
            }
        }
    };
    let mut material = None;
    if skin_type & SKIN_MATERIAL != 0 {
        let size = sizes.material as usize;
        if size < MATERIAL_SIZE || sizes.colorvalue as usize != COLOR_SIZE {
            return Err(r.error(
                ErrorKind::Unsupported,
                format!(
                    "material structure size {} with colour size {} is not supported \
                     (needs at least {MATERIAL_SIZE} with {COLOR_SIZE})",
                    sizes.material, sizes.colorvalue
                ),
            ));
        }
        let b = r.bytes(size)?;
        let color = |k: usize| std::array::from_fn(|c| f32_at(b, 16 * k + 4 * c));
        material = Some(Material {
            diffuse: color(0),
            ambient: color(1),
            specular: color(2),
            emissive: color(3),
            power: f32_at(b, 64),
            extra: Cow::Borrowed(&b[MATERIAL_SIZE..]),
        });
    }
    let mut definition = None;
    if skin_type & SKIN_DEFINITION != 0 {
        let len_at = r.pos();
        let len = r.i32()?;
        let n = r.count(len, "definition length", 1, len_at, limits)?;
        definition = Some(Cow::Borrowed(r.bytes(n)?));
    }
    Ok(Skin {
        skin_type,
        width,
        height,
        name,
        data,
        material,
        definition,
    })
}

/// Consumes `n` bytes (any size: a count past the data fails as truncated).
fn take<'a>(r: &mut Reader<'a>, n: u64) -> Result<&'a [u8]> {
    r.bytes(usize::try_from(n).unwrap_or(usize::MAX))
}

fn read_deformer(r: &mut Reader<'_>, limits: &Limits, budget: &mut Budget) -> Result<Deformer> {
    let start = r.pos();
    let version = r.u8()?;
    let typ = r.u8()?;
    let unused = [r.u8()?, r.u8()?];
    let group_index = r.i32()?;
    let elements_count = r.i32()?;
    let data_size = r.i32()?;
    let n = r.count(
        elements_count,
        "elements",
        DEFORMER_ELEMENT_HEAD_SIZE,
        start + 8,
        limits,
    )?;
    r.charge(budget, n as u64 * 64, start + 8)?;
    let mut elements = Vec::with_capacity(n);
    for e in 0..n {
        elements.push(read_element(r, limits, budget).context_with(|| format!("element {e}"))?);
    }
    Ok(Deformer {
        version,
        typ,
        unused,
        group_index,
        data_size,
        elements,
    })
}

fn read_element(
    r: &mut Reader<'_>,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<DeformerElement> {
    let index = r.i32()?;
    let name = r.array::<20>()?;
    let count_at = r.pos();
    let count = r.i32()?;
    let n = r.count(count, "weights", WEIGHT_SIZE, count_at, limits)?;
    // The weights, and the joint influences the converter makes of them.
    r.charge(budget, n as u64 * 24, count_at)?;
    let bytes = r.bytes(n * WEIGHT_SIZE)?;
    let weights = bytes
        .chunks_exact(WEIGHT_SIZE)
        .map(|b| Weight {
            vertex: u32_at(b, 0) as i32,
            weight: f32_at(b, 4),
        })
        .collect();
    Ok(DeformerElement {
        index,
        name,
        weights,
    })
}
