//! The files the GoldSrc writer puts beside a model on request, as studiomdl does:
//! - **`NAMET.mdl`** (`$externaltextures`, `--external-textures`): an `IDST` file without
//!   bones that holds the textures and the skin-family table; the model itself then has no
//!   textures (the engine and every reader here load the pair).
//! - **`NAME01.mdl`, `NAME02.mdl` ...** (`$sequencegroupsize`, `--sequence-group-size`):
//!   sequence groups, `IDSQ` files of a 76-byte header then the animation values of the
//!   sequences of group N, their offsets counted from the file's first byte. Sequences go
//!   into group 0 (the model) in order until the next would take it past the size, then
//!   into groups of at most that size each (a sequence larger than the size has a group of
//!   its own). This is not studiomdl's own split: its automatic groups (`write.c`) move
//!   only sequences without an activity out of group 0, and only below 1024 KB; the file
//!   layout is the same.
//!
//! The writer (`from_model`) and the QC compiler (`qc::compile`) both lay out with
//! [`Layout`] and [`assign_groups`] and write with [`split`]; a compiled QC's side files are
//! [`renamed`] after the output when `convert x.qc y.mdl` writes them.

use std::borrow::Cow;

use super::raw::*;
use crate::codec::SideFile;
use crate::io::names::name_field;
use crate::io::Writer;

/// The bytes of one sequence's animation values: its `mstudioanim_t` records, then each
/// record's channel words in bone and channel order (the offsets the writer counted).
fn anim_bytes(q: &Sequence) -> usize {
    let words: usize = q.anims.iter().flat_map(|a| &a.channels).map(Vec::len).sum();
    (q.anims.len() * ANIM_SIZE + words * 2 + 3) & !3
}

/// The `$sequencegroupsize` (KB) that gives `merged` (a model with its groups read in)
/// groups no larger than `original`'s own: its largest group beyond group 0, rounded up to
/// whole kilobytes; `None` when `original` keeps every sequence in the model file, or when
/// its group files were not found (`merged` then has no animations there to size).
pub(crate) fn group_size_kb(original: &File<'_>, merged: &File<'_>) -> Option<i32> {
    if original.seq_groups.len() <= 1 {
        return None;
    }
    let mut sizes = vec![0usize; original.seq_groups.len()];
    for (o, q) in original.sequences.iter().zip(&merged.sequences) {
        if let Some(s) = usize::try_from(o.seq_group)
            .ok()
            .and_then(|g| sizes.get_mut(g))
        {
            *s += anim_bytes(q);
        }
    }
    let largest = sizes.iter().skip(1).copied().max().unwrap_or(0);
    (largest > 0).then(|| i32::try_from(largest.div_ceil(1024)).unwrap_or(i32::MAX))
}

/// Assigns each sequence its group for groups of at most `size` bytes of animation values
/// (group 0 the model's own) and returns the group records (`models/STEM01.mdl`, ...).
pub(super) fn assign_groups(
    seqs: &mut [Sequence],
    size: Option<usize>,
    stem: &str,
) -> Vec<SeqGroup> {
    let mut groups = vec![SeqGroup {
        label: name_field::<32>("default").0,
        name: [0; 64],
        unused1: 0,
        unused2: 0,
    }];
    let Some(size) = size else {
        return groups;
    };
    let mut group = 0usize;
    let mut used = 0;
    for q in seqs.iter_mut() {
        let bytes = anim_bytes(q);
        if used > 0 && used + bytes > size {
            group += 1;
            used = 0;
            groups.push(SeqGroup {
                label: name_field::<32>(&format!("seqgroup{group}")).0,
                name: name_field::<64>(&format!("models/{stem}{group:02}.mdl")).0,
                unused1: 0,
                unused2: 0,
            });
        }
        used += bytes;
        q.seq_group = group as i32;
    }
    groups
}

/// The sequence group files of `file` (groups 1 and up), each sequence's `anim_index` set
/// to where its values lie in its group's file.
pub(super) fn group_files(file: &mut File<'static>, stem: &str) -> Vec<SideFile> {
    let mut out = Vec::new();
    for g in 1..file.seq_groups.len() {
        let name = format!("{stem}{g:02}.mdl");
        let mut w = Writer::with_capacity(SEQ_HEADER_SIZE);
        SeqHeader {
            ident: *super::SEQ_MAGIC,
            version: super::VERSION,
            name: name_field::<64>(&name).0,
            length: 0,
        }
        .write(&mut w);
        let mut bytes = w.into_bytes();
        for q in file
            .sequences
            .iter_mut()
            .filter(|q| q.seq_group == g as i32)
        {
            q.anim_index = bytes.len() as i32;
            for a in &q.anims {
                for o in a.offsets {
                    bytes.extend(o.to_le_bytes());
                }
            }
            for a in &q.anims {
                for (o, ch) in a.offsets.iter().zip(&a.channels) {
                    if *o != 0 {
                        bytes.extend(ch.iter().flat_map(|v| v.to_le_bytes()));
                    }
                }
            }
            bytes.resize((bytes.len() + 3) & !3, 0);
        }
        let len = bytes.len() as i32;
        bytes[72..76].copy_from_slice(&len.to_le_bytes());
        out.push(SideFile {
            name,
            kind: "sequence group",
            bytes,
        });
    }
    out
}

/// Moves `file`'s textures and skin families into `NAMET.mdl` (returned), leaving the model
/// without textures. The textures are the last thing laid out, so the model ends where
/// their records began.
pub(super) fn texture_file(file: &mut File<'static>, stem: &str) -> SideFile {
    let h = &mut file.header;
    let textures = std::mem::take(&mut file.textures);
    let skins = std::mem::take(&mut file.skins);
    let (refs, families) = (h.fields[13], h.fields[14]);
    h.length = h.fields[11];
    for f in &mut h.fields[10..=15] {
        *f = 0;
    }
    let name = format!("{stem}T.mdl");
    let mut t = Header::new(&name);
    let mut l = Layout(HEADER_SIZE);
    t.fields[10] = textures.len() as i32;
    t.fields[11] = l.take(textures.len() * TEXTURE_SIZE);
    t.fields[13] = refs;
    t.fields[14] = families;
    t.fields[15] = l.take(skins.len() * 2);
    t.fields[12] = l.0 as i32;
    let textures: Vec<Texture<'static>> = textures
        .into_iter()
        .map(|x| Texture {
            index: l.take(x.pixels.len() + x.palette.len()),
            ..x
        })
        .collect();
    t.length = l.0 as i32;
    let tfile = File {
        header: t,
        bones: Vec::new(),
        controllers: Vec::new(),
        hitboxes: Vec::new(),
        sequences: Vec::new(),
        seq_groups: Vec::new(),
        textures,
        skins,
        body_parts: Vec::new(),
        attachments: Vec::new(),
        transitions: Cow::Borrowed(&[]),
        gaps: Vec::new(),
    };
    let mut bytes = tfile.write();
    bytes.resize(l.0, 0);
    SideFile {
        name,
        kind: TEXTURES,
        bytes,
    }
}

/// The model's bytes and the files beside it: the sequence groups past the first
/// ([`group_files`], which gives `file`'s sequences in them their offsets there) and, with
/// `external_textures`, `STEMT.mdl` ([`texture_file`]); `file` keeps its textures.
pub(super) fn split(
    file: &mut File<'static>,
    stem: &str,
    external_textures: bool,
) -> (Vec<u8>, Vec<SideFile>) {
    let mut side = group_files(file, stem);
    let mut owned;
    let mut main = &*file;
    if external_textures {
        owned = file.clone();
        side.push(texture_file(&mut owned, stem));
        main = &owned;
    }
    let mut bytes = main.write();
    bytes.resize(main.header.length as usize, 0);
    (bytes, side)
}

/// A model's bytes and the files [`split`] put beside it, renamed after `stem` (the name a
/// save gives them, which a compiled QC's `$modelname` need not match): the sequence group
/// records of the model, the group files' and the texture file's own names. Every name is a
/// fixed-size field, so nothing moves.
pub(crate) fn renamed(bytes: &[u8], side: &[SideFile], stem: &str) -> (Vec<u8>, Vec<SideFile>) {
    let mut main = bytes.to_vec();
    let mut side = side.to_vec();
    let groups_at = read_i32(bytes, SEQ_GROUP_INDEX_AT).and_then(|v| usize::try_from(v).ok());
    let mut g = 0usize;
    for s in &mut side {
        s.name = if s.kind == TEXTURES {
            format!("{stem}T.mdl")
        } else {
            g += 1;
            let at = groups_at.map(|at| at + g * SEQ_GROUP_SIZE + 32);
            patch_name(&mut main, at, &format!("models/{stem}{g:02}.mdl"));
            format!("{stem}{g:02}.mdl")
        };
        patch_name(&mut s.bytes, Some(8), &s.name);
    }
    (main, side)
}

/// The little-endian `i32` at `at`, if `bytes` hold one there.
fn read_i32(bytes: &[u8], at: usize) -> Option<i32> {
    let b = bytes.get(at..at + 4)?;
    Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Writes `name` into the 64-byte name field at `at`, if `bytes` hold one there.
fn patch_name(bytes: &mut [u8], at: Option<usize>, name: &str) {
    if let Some(field) = at.and_then(|at| bytes.get_mut(at..at + 64)) {
        field.copy_from_slice(&name_field::<64>(name).0);
    }
}

/// Where `seqgroupindex` ([`Header::fields`]`[9]`) lies in a model's bytes: the 26 counts
/// and offsets end the header.
const SEQ_GROUP_INDEX_AT: usize = HEADER_SIZE - 26 * 4 + 9 * 4;

/// [`SideFile::kind`] of the texture file.
const TEXTURES: &str = "textures";

/// Offsets handed out one after another, each section 4-byte aligned as studiomdl aligns
/// them.
pub(super) struct Layout(pub(super) usize);

impl Layout {
    /// The offset of a section of `len` bytes, the next one after it.
    pub(super) fn take(&mut self, len: usize) -> i32 {
        let at = self.0;
        self.0 = (self.0 + len + 3) & !3;
        at as i32
    }
}
