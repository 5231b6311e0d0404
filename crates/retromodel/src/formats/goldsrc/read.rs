//! Reading GoldSrc files: every structure from its header offset, checked against the file's
//! length and the [`Limits`] before anything is allocated, and the ranges they cover
//! recorded so that the bytes left over are kept as gaps.

use std::borrow::Cow;

use super::raw::*;
use super::{FORMAT, MAGIC, SEQ_MAGIC, VERSION};
use crate::error::{ErrorKind, Result, ResultExt};
use crate::io::layout::find_gaps;
use crate::io::{Fields, Reader};
use crate::limits::{Budget, Limits};

/// The most triangle-command words one mesh may hold before the reader gives up: more than
/// any engine draws (GoldSrc's 20000 triangles as single-triangle strips).
const MAX_COMMAND_WORDS: usize = 20_000 * 13 + 1;

impl<'a> AnyFile<'a> {
    /// Parses a GoldSrc file: a studio model (`IDST`) or a sequence group (`IDSQ`).
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<AnyFile<'a>> {
        if data.starts_with(SEQ_MAGIC) {
            SeqGroupFile::parse(data).map(AnyFile::SeqGroup)
        } else {
            File::parse(data, limits).map(AnyFile::Studio)
        }
    }

    /// Writes the file back.
    pub fn write(&self) -> Vec<u8> {
        match self {
            AnyFile::Studio(f) => f.write(),
            AnyFile::SeqGroup(f) => f.data.to_vec(),
        }
    }
}

impl<'a> SeqGroupFile<'a> {
    /// Parses a sequence group file: its header; the animation data after it is read with
    /// the model's sequences ([`read_group_anims`]).
    pub fn parse(data: &'a [u8]) -> Result<SeqGroupFile<'a>> {
        let (_, header) = Reader::with_header(data, FORMAT, |r| {
            r.magic_and_version(*SEQ_MAGIC, VERSION)?;
            r.seek(0)?;
            let rec = r.bytes(SEQ_HEADER_SIZE)?;
            Ok(SeqHeader::read(&mut Fields::new(rec)))
        })?;
        Ok(SeqGroupFile {
            header,
            data: Cow::Borrowed(data),
        })
    }
}

impl<'a> File<'a> {
    /// Parses a studio model (`IDST`, version 10): a model or a texture file.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let (r, header) = Reader::with_header(data, FORMAT, |r| {
            if r.remaining() >= 4 && data.starts_with(SEQ_MAGIC) {
                return Err(r.error_at(
                    0,
                    ErrorKind::Unsupported,
                    "this is a sequence group file (IDSQ): open the model it belongs to",
                ));
            }
            r.magic_and_version(*MAGIC, VERSION)?;
            r.seek(0)?;
            let rec = r.bytes(HEADER_SIZE)?;
            Ok(Header::read(&mut Fields::new(rec)))
        })?;
        let mut p = Parser {
            data,
            r,
            budget: Budget::new(limits),
            limits,
            covered: vec![(0, HEADER_SIZE)],
            frames: 0,
            claims: Claims::new(data.len()),
        };
        let h = header.clone();
        let bones = p.records("bones", 0, BONE_SIZE, Bone::read)?;
        let controllers = p.records("bone controllers", 2, CONTROLLER_SIZE, |f| {
            BoneController::read(f)
        })?;
        let hitboxes = p.records("hit boxes", 4, HITBOX_SIZE, Hitbox::read)?;
        let mut sequences = p.records("sequences", 6, SEQUENCE_SIZE, Sequence::read)?;
        for (i, s) in sequences.iter_mut().enumerate() {
            let rec = h.seq_index() as usize + i * SEQUENCE_SIZE;
            p.sequence_data(s, rec, bones.len())
                .context_with(|| format!("sequence {i} ({})", s.label()))?;
        }
        let seq_groups = p.records("sequence groups", 8, SEQ_GROUP_SIZE, SeqGroup::read)?;
        let mut textures = p.records("textures", 10, TEXTURE_SIZE, Texture::read)?;
        for (i, t) in textures.iter_mut().enumerate() {
            let rec = h.texture_index() as usize + i * TEXTURE_SIZE;
            p.texture_data(t, rec)
                .context_with(|| format!("texture {i} ({})", t.name()))?;
        }
        let skins = p.skins(&h)?;
        let mut body_parts = p.records("body parts", 16, BODY_PART_SIZE, BodyPart::read)?;
        for (i, b) in body_parts.iter_mut().enumerate() {
            let rec = h.body_part_index() as usize + i * BODY_PART_SIZE;
            p.body_part(b, rec)
                .context_with(|| format!("body part {i} ({})", b.name()))?;
        }
        let attachments = p.records("attachments", 18, ATTACHMENT_SIZE, Attachment::read)?;
        let transitions = p.transitions(&h)?;
        let gaps = find_gaps(data, p.covered);
        Ok(File {
            header,
            bones,
            controllers,
            hitboxes,
            sequences,
            seq_groups,
            textures,
            skins,
            body_parts,
            attachments,
            transitions,
            gaps,
        })
    }
}

/// Reads the animation of the sequences of group `group` from that group's file (`IDSQ`),
/// into `file`'s sequences; fails, naming the sequence, if the data does not hold them.
pub fn read_group_anims(file: &mut File, group: usize, data: &[u8], limits: &Limits) -> Result<()> {
    let mut r = Reader::new(data, FORMAT);
    let mut budget = Budget::new(limits);
    let mut claims = Claims::new(data.len());
    let bones = file.bones.len();
    for (i, s) in file.sequences.iter_mut().enumerate() {
        if s.seq_group != group as i32 {
            continue;
        }
        let mut covered = Vec::new();
        s.anims = read_anims(&mut r, &mut budget, &mut claims, s, bones, &mut covered)
            .context_with(|| format!("sequence {i} ({})", s.label()))?;
    }
    Ok(())
}

/// One parse under way: the reader, the memory budget and the byte ranges read so far.
struct Parser<'a, 'l> {
    data: &'a [u8],
    r: Reader<'a>,
    budget: Budget,
    limits: &'l Limits,
    covered: Vec<(usize, usize)>,
    /// The frames of the sequences read so far.
    frames: u64,
    /// The bytes the structures read so far claim.
    claims: Claims,
}

/// The bytes the structures (and animation channels) read so far claim, each counted as
/// often as it is read. Structures may share data, but a file whose structures claim more
/// than 4 times its bytes shares more than a model does: refused, so that a small file cannot
/// make the reader copy the same bytes over and over.
struct Claims {
    claimed: u64,
    len: usize,
}

impl Claims {
    fn new(len: usize) -> Self {
        Claims { claimed: 0, len }
    }

    /// Adds `len` bytes read for the field at `at`; fails past 4 times the file's bytes.
    fn claim(&mut self, r: &Reader, len: u64, at: usize) -> Result<()> {
        self.claimed += len;
        let most = 4 * self.len as u64 + 4096;
        if self.claimed > most {
            return Err(r.error_at(
                at,
                ErrorKind::LimitExceeded,
                format!(
                    "the structures and animation values read so far claim {} bytes, more than 4 times the file's {} bytes: they share their data more than a model does",
                    self.claimed, self.len
                ),
            ));
        }
        Ok(())
    }
}

impl<'a> Parser<'a, '_> {
    /// The header's count field `field` (its offset field follows it) and where it points,
    /// checked: `count` records of `size` bytes inside the file.
    fn section(&mut self, name: &str, field: usize, size: usize) -> Result<(usize, usize)> {
        let count = self.header_field(field);
        let ofs = self.header_field(field + 1);
        self.checked_section(name, Header::field_offset(field), count, ofs, size)
    }

    fn header_field(&self, i: usize) -> i32 {
        let at = Header::field_offset(i);
        i32::from_le_bytes(self.data[at..at + 4].try_into().expect("4 bytes"))
    }

    /// `count` records of `size` bytes at `ofs` (both stored at `at`), inside the file and
    /// the limits; covered. Returns where they start and how many there are.
    fn checked_section(
        &mut self,
        name: &str,
        at: usize,
        count: i32,
        ofs: i32,
        size: usize,
    ) -> Result<(usize, usize)> {
        let n = self.r.count_in_limit(count, name, at, self.limits)?;
        if n == 0 {
            return Ok((0, 0));
        }
        let len = (n as u64) * size as u64;
        if ofs < 0 || ofs as u64 + len > self.data.len() as u64 {
            return Err(self.r.error_at(
                at,
                ErrorKind::BadCount,
                format!(
                    "{n} {name} of {size} bytes at offset {ofs} run past the end of the file ({} bytes)",
                    self.data.len()
                ),
            ));
        }
        self.r.charge(&mut self.budget, len, at)?;
        self.claim(len, at)?;
        let start = ofs as usize;
        self.covered.push((start, start + len as usize));
        Ok((start, n))
    }

    /// Counts `len` bytes read by a structure (stored at `at`). Structures may share bytes
    /// (two sub-models on one vertex array), but a file whose structures claim more than
    /// four times its size makes each copy cost again: refused, so that a small file cannot
    /// ask for a huge model.
    fn claim(&mut self, len: u64, at: usize) -> Result<()> {
        self.claims.claim(&self.r, len, at)
    }

    /// The records of the section counted by header field `field`.
    fn records<T>(
        &mut self,
        name: &str,
        field: usize,
        size: usize,
        read: impl Fn(&mut Fields) -> T,
    ) -> Result<Vec<T>> {
        let (start, n) = self.section(name, field, size)?;
        self.read_records(start, n, size, read)
    }

    fn read_records<T>(
        &mut self,
        start: usize,
        n: usize,
        size: usize,
        read: impl Fn(&mut Fields) -> T,
    ) -> Result<Vec<T>> {
        if n == 0 {
            return Ok(Vec::new());
        }
        self.r.seek(start)?;
        Ok(self
            .r
            .records(n, size)?
            .map(|rec| read(&mut Fields::new(rec)))
            .collect())
    }

    /// A sequence's events, pivots and (in group 0) animation.
    fn sequence_data(&mut self, s: &mut Sequence, rec: usize, bones: usize) -> Result<()> {
        // Run-length-encoded frames cost two bytes per 255 (or nothing, for channels at
        // rest), yet each becomes a transform per bone when converted: the frames of all
        // sequences count against `Limits::max_sampled_frames`, so that a damaged frame count
        // fails here, not as a huge allocation later.
        let frames = s.num_frames.max(0) as u64;
        self.frames += frames;
        if self.frames > self.limits.max_sampled_frames as u64 {
            return Err(self.r.error_at(
                rec + 56,
                ErrorKind::LimitExceeded,
                format!(
                    "numframes = {frames} brings the sequences' frames to {}, over the limit of {}",
                    self.frames, self.limits.max_sampled_frames
                ),
            ));
        }
        self.r.charge(
            &mut self.budget,
            frames * bones.max(1) as u64 * 28,
            rec + 56,
        )?;
        let (e, n) = self.checked_section(
            "events",
            rec + 48,
            s.event_index[0],
            s.event_index[1],
            EVENT_SIZE,
        )?;
        s.events = self.read_records(e, n, EVENT_SIZE, Event::read)?;
        let (p, n) = self.checked_section(
            "pivots",
            rec + 60,
            s.pivot_index[0],
            s.pivot_index[1],
            PIVOT_SIZE,
        )?;
        s.pivots = self.read_records(p, n, PIVOT_SIZE, Pivot::read)?;
        if s.seq_group == 0 {
            s.anims = read_anims(
                &mut self.r,
                &mut self.budget,
                &mut self.claims,
                s,
                bones,
                &mut self.covered,
            )?;
        }
        Ok(())
    }

    /// A texture's pixels and palette.
    fn texture_data(&mut self, t: &mut Texture<'a>, rec: usize) -> Result<()> {
        self.r.skin_size(t.width, t.height, rec + 68, self.limits)?;
        let pixels = t.width as usize * t.height as usize;
        let (start, _) =
            self.checked_section("texture bytes", rec + 76, 1, t.index, pixels + PALETTE_SIZE)?;
        t.pixels = Cow::Borrowed(&self.data[start..start + pixels]);
        t.palette = Cow::Borrowed(&self.data[start + pixels..start + pixels + PALETTE_SIZE]);
        Ok(())
    }

    /// The skin families.
    fn skins(&mut self, h: &Header) -> Result<Vec<i16>> {
        let refs = self.r.count_in_limit(
            h.num_skin_ref(),
            "numskinref",
            Header::field_offset(13),
            self.limits,
        )?;
        let families = self.r.count_in_limit(
            h.num_skin_families(),
            "numskinfamilies",
            Header::field_offset(14),
            self.limits,
        )?;
        let n = refs
            .checked_mul(families)
            .filter(|&n| n <= i32::MAX as usize);
        let Some(n) = n else {
            return Err(self.r.error_at(
                Header::field_offset(13),
                ErrorKind::LimitExceeded,
                format!("{families} skin families of {refs} references are too many"),
            ));
        };
        // Families of no references cost no bytes, yet each is a row of `info` and a skin
        // choice: a 900-byte file claiming 8.6 million of them made a 26 MB summary (found
        // by fuzzing). More families than the file has bytes cannot be meant.
        if refs == 0 && families > self.data.len() {
            return Err(self.r.error_at(
                Header::field_offset(14),
                ErrorKind::BadCount,
                format!(
                    "numskinfamilies = {families} without skin references, more than the file's {} bytes",
                    self.data.len()
                ),
            ));
        }
        let (start, n) = self.checked_section(
            "skin references",
            Header::field_offset(14),
            n as i32,
            h.skin_index(),
            2,
        )?;
        self.read_records(start, n, 2, |f| f.i16())
    }

    /// A body part's sub-models and their meshes and arrays.
    fn body_part(&mut self, b: &mut BodyPart<'a>, rec: usize) -> Result<()> {
        let (start, n) = self.checked_section(
            "sub-models",
            rec + 64,
            b.num_models,
            b.model_index,
            MODEL_SIZE,
        )?;
        b.models = self.read_records(start, n, MODEL_SIZE, SubModel::read)?;
        for (i, m) in b.models.iter_mut().enumerate() {
            self.sub_model(m, start + i * MODEL_SIZE)
                .context_with(|| format!("sub-model {i} ({})", m.name()))?;
        }
        Ok(())
    }

    fn sub_model(&mut self, m: &mut SubModel<'a>, rec: usize) -> Result<()> {
        let [nummesh, meshindex, numverts, vertinfo, vertindex, numnorms, norminfo, normindex, numgroups, _] =
            m.fields;
        let (start_meshes, n) =
            self.checked_section("meshes", rec + 72, nummesh, meshindex, MESH_SIZE)?;
        m.meshes = self.read_records(start_meshes, n, MESH_SIZE, Mesh::read)?;
        let (start, n) = self.checked_section("vertices", rec + 80, numverts, vertindex, 12)?;
        m.vertices = self.read_records(start, n, 12, |f| f.f32s())?;
        let (start, n) = self.checked_section("vertex bones", rec + 80, numverts, vertinfo, 1)?;
        m.vertex_bones = Cow::Borrowed(&self.data[start..start + n]);
        let (start, n) = self.checked_section("normals", rec + 92, numnorms, normindex, 12)?;
        m.normals = self.read_records(start, n, 12, |f| f.f32s())?;
        let (start, n) = self.checked_section("normal bones", rec + 92, numnorms, norminfo, 1)?;
        m.normal_bones = Cow::Borrowed(&self.data[start..start + n]);
        if numgroups != 0 {
            return Err(self.r.error_at(
                rec + 104,
                ErrorKind::Unsupported,
                format!("{numgroups} deformation groups (no tool writes them)"),
            ));
        }
        for (i, mesh) in m.meshes.iter_mut().enumerate() {
            mesh.commands = self
                .commands(mesh.tri_index, start_meshes + i * MESH_SIZE + 4)
                .context_with(|| format!("mesh {i}"))?;
        }
        Ok(())
    }

    /// A mesh's triangle commands, up to and including the final 0.
    fn commands(&mut self, ofs: i32, field_at: usize) -> Result<Vec<i16>> {
        if ofs < 0 || ofs as usize >= self.data.len() {
            return Err(self.r.error_at(
                field_at,
                ErrorKind::IndexOutOfRange,
                format!(
                    "triangle commands at offset {ofs} outside the file ({} bytes)",
                    self.data.len()
                ),
            ));
        }
        let start = ofs as usize;
        self.r.seek(start)?;
        let mut out = Vec::new();
        loop {
            let at = self.r.pos();
            let count = self.r.u16()? as i16;
            out.push(count);
            if count == 0 {
                break;
            }
            let n = count.unsigned_abs() as usize * 4;
            if out.len() + n > MAX_COMMAND_WORDS {
                return Err(self.r.error_at(
                    at,
                    ErrorKind::LimitExceeded,
                    format!("triangle commands longer than {MAX_COMMAND_WORDS} words"),
                ));
            }
            self.r.charge(&mut self.budget, n as u64 * 2, at)?;
            let words = self.r.bytes(n * 2)?;
            out.extend(
                words
                    .chunks_exact(2)
                    .map(|w| i16::from_le_bytes([w[0], w[1]])),
            );
        }
        self.covered.push((start, self.r.pos()));
        self.claim((self.r.pos() - start) as u64, field_at)?;
        Ok(out)
    }

    fn transitions(&mut self, h: &Header) -> Result<Cow<'a, [u8]>> {
        let n = h.num_transitions();
        let sq = (n.max(0) as i64) * (n.max(0) as i64);
        let at = Header::field_offset(24);
        if n < 0 || sq > i32::MAX as i64 {
            return Err(self.r.error_at(
                at,
                ErrorKind::BadCount,
                format!("bad numtransitions = {n}"),
            ));
        }
        let (start, len) =
            self.checked_section("transition bytes", at, sq as i32, h.transition_index(), 1)?;
        Ok(Cow::Borrowed(&self.data[start..start + len]))
    }
}

/// A sequence's animation records and channels, from `r`'s data (the model, or a sequence
/// group file), the ranges they cover added to `covered` and the bytes they read to `claims`.
fn read_anims(
    r: &mut Reader,
    budget: &mut Budget,
    claims: &mut Claims,
    s: &Sequence,
    bones: usize,
    covered: &mut Vec<(usize, usize)>,
) -> Result<Vec<BoneAnim>> {
    let blends = s.num_blends.max(0) as usize;
    let frames = s.num_frames.max(0) as usize;
    let n = blends.saturating_mul(bones);
    if n == 0 {
        return Ok(Vec::new());
    }
    let len = n as u64 * ANIM_SIZE as u64;
    let total = r.pos() + r.remaining();
    if s.anim_index < 0 || s.anim_index as u64 + len > total as u64 {
        return Err(r.error(
            ErrorKind::BadCount,
            format!(
                "animation of {blends} blends × {bones} bones at offset {} runs past the end of the data ({total} bytes)",
                s.anim_index
            ),
        ));
    }
    r.charge(budget, len, s.anim_index as usize)?;
    claims.claim(r, len, s.anim_index as usize)?;
    let start = s.anim_index as usize;
    covered.push((start, start + len as usize));
    let mut anims = Vec::with_capacity(n);
    for k in 0..n {
        let rec_at = start + k * ANIM_SIZE;
        r.seek(rec_at)?;
        let mut offsets = [0u16; 6];
        for o in &mut offsets {
            *o = r.u16()?;
        }
        let mut anim = BoneAnim {
            offsets,
            ..BoneAnim::default()
        };
        for (c, &o) in offsets.iter().enumerate() {
            if o != 0 {
                anim.channels[c] =
                    read_channel(r, budget, claims, rec_at + o as usize, frames, covered)?;
            }
        }
        anims.push(anim);
    }
    Ok(anims)
}

/// One channel's run-length-encoded words at `at`, as far as `frames` frames reach.
fn read_channel(
    r: &mut Reader,
    budget: &mut Budget,
    claims: &mut Claims,
    at: usize,
    frames: usize,
    covered: &mut Vec<(usize, usize)>,
) -> Result<Vec<u16>> {
    r.seek(at)?;
    let mut words = Vec::new();
    let mut reached = 0usize;
    while reached < frames.max(1) {
        let run_at = r.pos();
        let head = r.u16()?;
        let valid = (head & 0xff) as usize;
        let total = (head >> 8) as usize;
        r.charge(budget, 2 + valid as u64 * 2, run_at)?;
        claims.claim(r, 2 + valid as u64 * 2, run_at)?;
        words.push(head);
        for _ in 0..valid {
            words.push(r.u16()?);
        }
        reached += total;
    }
    covered.push((at, r.pos()));
    Ok(words)
}
