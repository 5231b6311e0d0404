//! Serialising: [`File`] to bytes, the exact mirror of the parser.

use super::raw::*;
use crate::io::Writer;

/// Appends `bytes` cut or zero-padded to `len`.
fn fixed(w: &mut Writer, bytes: &[u8], len: usize) {
    let n = bytes.len().min(len);
    w.bytes(&bytes[..n]);
    for _ in n..len {
        w.u8(0);
    }
}

/// Appends one record of `size` bytes: what `fill` writes, cut or zero-padded to `size`.
fn record(w: &mut Writer, size: u16, fill: impl FnOnce(&mut Writer)) {
    let mut rec = Writer::with_capacity(size as usize);
    fill(&mut rec);
    fixed(w, &rec.into_bytes(), size as usize);
}

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte.
    ///
    /// The writer trusts the vectors for every count and lump size, and the header for the
    /// rest: records are written with the header's structure sizes (fields a record is too
    /// short for are left out, `extra` bytes are cut or zero-padded to fit), and `data_size`
    /// and each group's `deformers` byte are written as stored, so callers that edit a `File`
    /// keep them in step ([`File::model_data_len`] is what `data_size` should be).
    pub fn write(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.size_hint());
        let h = &self.header;
        let s = h.sizes;
        w.bytes(&IDENT);
        for v in [
            h.version,
            self.bones.len() as i32,
            self.groups.len() as i32,
            h.data_size,
            self.entlump.len() as i32,
            self.medlump.len() as i32,
        ] {
            w.i32(v);
        }
        for v in s.to_array() {
            w.u16(v);
        }
        for b in &self.bones {
            record(&mut w, s.bone, |rec| {
                rec.u16(b.parent);
                rec.u16(b.unused);
                rec.vec3(b.position);
                rec.bytes(&b.name);
            });
        }
        for g in &self.groups {
            write_group(&mut w, g, s);
        }
        for d in &self.deformers {
            w.u8(d.version);
            w.u8(d.typ);
            w.bytes(&d.unused);
            w.i32(d.group_index);
            w.i32(d.elements.len() as i32);
            w.i32(d.data_size);
            for e in &d.elements {
                w.i32(e.index);
                w.bytes(&e.name);
                w.i32(e.weights.len() as i32);
                for x in &e.weights {
                    w.i32(x.vertex);
                    w.f32(x.weight);
                }
            }
        }
        w.bytes(&self.unclaimed);
        w.bytes(&self.entlump);
        w.bytes(&self.medlump);
        w.bytes(&self.trailing);
        w.into_bytes()
    }

    /// Bytes of the model data: header, bones, groups and deformers (where `data_size`
    /// should point), exactly as [`File::write`] writes them.
    pub fn model_data_len(&self) -> usize {
        let s = self.header.sizes;
        let mut n = HEADER_SIZE + self.bones.len() * s.bone as usize;
        for g in &self.groups {
            n += GROUP_SIZE
                + g.texcoords.len() * s.skinpoint as usize
                + g.triangles.len() * s.triangle as usize
                + g.vertices.len() * s.mainvertex as usize;
            n += g
                .skins
                .iter()
                .map(|k| s.skin as usize + skin_data_len(k, s))
                .sum::<usize>();
            for f in &g.frames {
                n += s.frame as usize
                    + f.vertices.len() * s.framevertex as usize
                    + f.transforms.len() * s.bonetrans as usize;
            }
        }
        for d in &self.deformers {
            n += DEFORMER_HEAD_SIZE;
            for e in &d.elements {
                n += DEFORMER_ELEMENT_HEAD_SIZE + WEIGHT_SIZE * e.weights.len();
            }
        }
        n
    }

    fn size_hint(&self) -> usize {
        self.model_data_len()
            + self.unclaimed.len()
            + self.entlump.len()
            + self.medlump.len()
            + self.trailing.len()
    }
}

/// Bytes [`write_skin_data`] writes for a skin.
pub(crate) fn skin_data_len(sk: &Skin<'_>, s: StructSizes) -> usize {
    let data = match &sk.data {
        SkinData::Reference => 0,
        SkinData::Dds(b) | SkinData::External(b) => b.len(),
        SkinData::Pixels {
            pixels, mipmaps, ..
        } => pixels.len() + mipmaps.len(),
    };
    data + sk.material.as_ref().map_or(0, |_| s.material as usize)
        + sk.definition.as_ref().map_or(0, |d| 4 + d.len())
}

fn write_group(w: &mut Writer, g: &Group<'_>, s: StructSizes) {
    w.u8(g.typ);
    w.u8(g.deformers);
    w.u8(g.max_weights);
    w.u8(g.unused);
    w.i32(g.groupdata_size);
    w.bytes(&g.name);
    for n in [
        g.skins.len(),
        g.texcoords.len(),
        g.triangles.len(),
        g.vertices.len(),
        g.frames.len(),
    ] {
        w.i32(n as i32);
    }
    for sk in &g.skins {
        record(w, s.skin, |rec| {
            rec.u32(sk.skin_type);
            rec.u32(sk.width);
            rec.u32(sk.height);
            rec.bytes(&sk.name);
        });
        write_skin_data(w, sk, s);
    }
    for t in &g.texcoords {
        record(w, s.skinpoint, |rec| {
            rec.f32(t.u);
            rec.f32(t.v);
            rec.bytes(&t.extra);
        });
    }
    // Only the fields the record holds whole, then `extra` (which holds the bytes of a field
    // the record covers in part): a record of any size writes back as it was read.
    let whole = triangle_fields_len(s.triangle as usize);
    for t in &g.triangles {
        let mut rec = Writer::with_capacity(26 + t.extra.len());
        t.vertex.iter().for_each(|&v| rec.u16(v));
        if whole >= 12 {
            t.texcoord.iter().for_each(|&v| rec.u16(v));
        }
        if whole >= 16 {
            rec.u32(t.material);
        }
        if whole >= 22 {
            t.texcoord2.iter().for_each(|&v| rec.u16(v));
        }
        if whole >= 26 {
            rec.u32(t.material2);
        }
        rec.bytes(&t.extra);
        fixed(w, &rec.into_bytes(), s.triangle as usize);
    }
    for v in &g.vertices {
        write_vertex(w, v, s.mainvertex as usize);
    }
    for f in &g.frames {
        record(w, s.frame, |rec| {
            rec.bytes(&f.name);
            rec.i32(f.vertices.len() as i32);
            rec.i32(f.transforms.len() as i32);
            rec.bytes(&f.extra);
        });
        for v in &f.vertices {
            write_vertex(w, v, s.framevertex as usize);
        }
        for t in &f.transforms {
            let mut rec = Writer::with_capacity(68 + t.extra.len());
            t.matrix.iter().for_each(|&m| rec.f32(m));
            rec.u16(t.bone);
            rec.u16(t.unused);
            rec.bytes(&t.extra);
            fixed(w, &rec.into_bytes(), s.bonetrans as usize);
        }
    }
}

/// A vertex record of `size` bytes: the normal in the form the size calls for.
fn write_vertex(w: &mut Writer, v: &Vertex, size: usize) {
    let mut rec = Writer::with_capacity(26 + v.extra.len());
    rec.vec3(v.position);
    rec.u16(v.bone);
    if size >= 26 {
        rec.vec3(match v.normal {
            Normal::Full(n) => n,
            Normal::Index { index, .. } => {
                crate::formats::normals::normal(index).unwrap_or([0.0, 0.0, 1.0])
            }
            Normal::None => [0.0, 0.0, 1.0],
        });
    } else if size >= 16 {
        let (index, pad) = match v.normal {
            Normal::Index { index, pad } => (index, pad),
            Normal::Full(n) => (crate::formats::normals::nearest_index(n), 0),
            Normal::None => (crate::formats::normals::nearest_index([0.0, 0.0, 1.0]), 0),
        };
        rec.u8(index);
        rec.u8(pad);
    }
    rec.bytes(&v.extra);
    fixed(w, &rec.into_bytes(), size);
}

/// The data after a skin record (shared with HMP terrains).
pub(crate) fn write_skin_data(w: &mut Writer, sk: &Skin<'_>, s: StructSizes) {
    match &sk.data {
        SkinData::Reference => {}
        SkinData::Dds(b) | SkinData::External(b) => w.bytes(b),
        SkinData::Pixels {
            pixels, mipmaps, ..
        } => {
            w.bytes(pixels);
            w.bytes(mipmaps);
        }
    }
    if let Some(m) = &sk.material {
        record(w, s.material, |rec| {
            for c in [m.diffuse, m.ambient, m.specular, m.emissive] {
                c.iter().for_each(|&x| rec.f32(x));
            }
            rec.f32(m.power);
            rec.bytes(&m.extra);
        });
    }
    if let Some(d) = &sk.definition {
        w.i32(d.len() as i32);
        w.bytes(d);
    }
}
