//! Writing a GoldSrc file back: every structure at the offset its header (or parent
//! structure) gives, the gaps restored between them. An unmodified file comes back byte for
//! byte; a file whose structures were changed must keep their offsets consistent (laying a
//! model out anew is the job of the writer from a Model).

use std::borrow::Cow;

use super::raw::*;
use crate::io::layout::assemble;
use crate::io::Writer;

/// The sections of a file being written: `(offset, bytes)`.
#[derive(Default)]
struct Sections<'a> {
    list: Vec<(usize, Cow<'a, [u8]>)>,
}

impl<'a> Sections<'a> {
    /// Records written one after another at `ofs`.
    fn records<T>(&mut self, ofs: i32, items: &[T], size: usize, write: impl Fn(&T, &mut Writer)) {
        if items.is_empty() || ofs < 0 {
            return;
        }
        let mut w = Writer::with_capacity(items.len() * size);
        for it in items {
            write(it, &mut w);
        }
        self.list.push((ofs as usize, Cow::Owned(w.into_bytes())));
    }

    fn bytes(&mut self, ofs: usize, b: &'a [u8]) {
        self.list.push((ofs, Cow::Borrowed(b)));
    }

    fn words(&mut self, ofs: usize, words: impl Iterator<Item = [u8; 2]>) {
        let b: Vec<u8> = words.flatten().collect();
        self.list.push((ofs, Cow::Owned(b)));
    }
}

impl File<'_> {
    /// The file's bytes: byte for byte what it was parsed from, unless it was changed.
    pub fn write(&self) -> Vec<u8> {
        let h = &self.header;
        let mut s = Sections::default();
        let mut w = Writer::with_capacity(HEADER_SIZE);
        h.write(&mut w);
        s.list.push((0, Cow::Owned(w.into_bytes())));
        s.records(h.bone_index(), &self.bones, BONE_SIZE, Bone::write);
        s.records(
            h.controller_index(),
            &self.controllers,
            CONTROLLER_SIZE,
            BoneController::write,
        );
        s.records(h.hitbox_index(), &self.hitboxes, HITBOX_SIZE, Hitbox::write);
        s.records(
            h.seq_index(),
            &self.sequences,
            SEQUENCE_SIZE,
            Sequence::write,
        );
        for q in &self.sequences {
            s.records(q.event_index[1], &q.events, EVENT_SIZE, Event::write);
            s.records(q.pivot_index[1], &q.pivots, PIVOT_SIZE, Pivot::write);
            if q.seq_group == 0 {
                write_anims(&mut s, q);
            }
        }
        s.records(
            h.seq_group_index(),
            &self.seq_groups,
            SEQ_GROUP_SIZE,
            SeqGroup::write,
        );
        s.records(
            h.texture_index(),
            &self.textures,
            TEXTURE_SIZE,
            Texture::write,
        );
        for t in &self.textures {
            s.bytes(t.index as usize, &t.pixels);
            s.bytes(t.index as usize + t.pixels.len(), &t.palette);
        }
        s.words(
            h.skin_index().max(0) as usize,
            self.skins.iter().map(|v| v.to_le_bytes()),
        );
        s.records(
            h.body_part_index(),
            &self.body_parts,
            BODY_PART_SIZE,
            BodyPart::write,
        );
        for b in &self.body_parts {
            write_body_part(&mut s, b);
        }
        s.records(
            h.attachment_index(),
            &self.attachments,
            ATTACHMENT_SIZE,
            Attachment::write,
        );
        s.bytes(h.transition_index().max(0) as usize, &self.transitions);
        let list: Vec<(usize, &[u8])> = s.list.iter().map(|(o, b)| (*o, &b[..])).collect();
        assemble(&list, &self.gaps, 0)
    }
}

/// A sequence's `mstudioanim_t` records and their channels.
fn write_anims(s: &mut Sections, q: &Sequence) {
    s.records(q.anim_index, &q.anims, ANIM_SIZE, |a, w| {
        for o in a.offsets {
            w.u16(o);
        }
    });
    for (k, a) in q.anims.iter().enumerate() {
        let rec = q.anim_index as usize + k * ANIM_SIZE;
        for (o, ch) in a.offsets.iter().zip(&a.channels) {
            if *o != 0 {
                s.words(rec + *o as usize, ch.iter().map(|v| v.to_le_bytes()));
            }
        }
    }
}

/// A body part's sub-models, their meshes, commands and arrays.
fn write_body_part<'a>(s: &mut Sections<'a>, b: &'a BodyPart) {
    s.records(b.model_index, &b.models, MODEL_SIZE, SubModel::write);
    for m in &b.models {
        let [_, meshindex, _, vertinfo, vertindex, _, norminfo, normindex, _, _] = m.fields;
        s.records(meshindex, &m.meshes, MESH_SIZE, Mesh::write);
        for mesh in &m.meshes {
            s.words(
                mesh.tri_index as usize,
                mesh.commands.iter().map(|v| v.to_le_bytes()),
            );
        }
        s.records(vertindex, &m.vertices, 12, |v, w| w.vec3(*v));
        s.records(normindex, &m.normals, 12, |v, w| w.vec3(*v));
        if !m.vertex_bones.is_empty() {
            s.bytes(vertinfo as usize, &m.vertex_bones);
        }
        if !m.normal_bones.is_empty() {
            s.bytes(norminfo as usize, &m.normal_bones);
        }
    }
}
