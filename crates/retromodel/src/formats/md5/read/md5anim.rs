//! Reading an `.md5anim`: hierarchy, bounds, base frame and frames, each checked against the
//! counts of the header.

use std::mem::size_of;

use super::syntax::{
    joint_context, plural, Parser, LPAREN, MIN_FRAME, MIN_HIERARCHY, MIN_VEC_PAIR, RBRACE, STR,
};
use super::Parsed;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::formats::md5::raw::*;
use crate::formats::md5::ANIM_FORMAT;
use crate::io::text::{Kind, Token};

/// Doom 3's frame rate when an md5anim has no `frameRate` line.
const DEFAULT_FRAME_RATE: f32 = 24.0;

/// Parses an `.md5anim` file.
///
/// Warns about a missing `MD5Version`, `commandline` or `frameRate` line and strings that
/// are not UTF-8; fails with line and column on anything else that is off, including flags
/// outside `0..=63`, a joint whose animated components run past `numAnimatedComponents`,
/// `frame N` out of order and a frame with the wrong number of values.
pub fn parse_anim(text: &[u8], limits: &crate::limits::Limits) -> Result<Parsed<AnimFile>> {
    let mut p = Parser::new(text, ANIM_FORMAT, limits);
    let version = p.version()?;
    let commandline = p.commandline()?;
    let (num_frames, nf_tok) = p.keyword_int("numFrames")?;
    let (num_joints, nj_tok) = p.keyword_int("numJoints")?;
    let frame_rate = if p.at_word("frameRate")? {
        p.frame_rate()?
    } else {
        p.warn(format!("no frameRate line (read as {DEFAULT_FRAME_RATE})"));
        DEFAULT_FRAME_RATE
    };
    let (nac, nac_tok) = p.keyword_int("numAnimatedComponents")?;
    let nac = p.plain_count("numAnimatedComponents", &nac_tok, nac)?;

    let hierarchy = read_hierarchy(&mut p, &nj_tok, num_joints, nac)?;
    let nj = hierarchy.len();
    let (bounds, nf) = read_bounds(&mut p, &nf_tok, num_frames)?;
    let baseframe = read_baseframe(&mut p, nj)?;
    let frames = read_frames(&mut p, &nf_tok, nf, nac)?;
    let extra = p.at_word("frame")?;
    p.too_many(extra, || {
        format!("the file has more frame blocks than numFrames = {nf}")
    })?;
    p.expect_end()?;

    Ok(p.finish(AnimFile {
        version,
        commandline,
        frame_rate,
        num_animated_components: nac,
        hierarchy,
        bounds,
        baseframe,
        frames,
    }))
}

/// The `hierarchy` block: `numJoints` joints (`nj_tok` holds the count, `num_joints`), each
/// one's animated components within `nac`.
fn read_hierarchy(
    p: &mut Parser<'_>,
    nj_tok: &Token,
    num_joints: i64,
    nac: u32,
) -> Result<Vec<HierarchyJoint>> {
    p.keyword("hierarchy")?;
    p.punct(b'{')?;
    let nj = p.count(
        "numJoints",
        nj_tok,
        num_joints,
        MIN_HIERARCHY,
        size_of::<HierarchyJoint>() as u64,
    )?;
    let mut hierarchy = Vec::with_capacity(nj);
    for i in 0..nj {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numJoints = {nj} but the hierarchy block has {}",
                plural(i, "joint")
            )
        })?;
        let name = p
            .string("joint name")
            .context_with(|| format!("joint {i}"))?;
        let joint = (|| -> Result<HierarchyJoint> {
            let parent = p.parent(i)?;
            let (flags, tok) = p.int("flags")?;
            if !(0..=63).contains(&flags) {
                return Err(p.error(
                    &tok,
                    ErrorKind::InvalidValue,
                    format!("flags {flags} outside 0..63"),
                ));
            }
            let flags = flags as u32;
            let (start_index, tok) = p.index("startIndex")?;
            let animated = flags.count_ones();
            if u64::from(start_index) + u64::from(animated) > u64::from(nac) {
                return Err(p.error(
                    &tok,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "startIndex {start_index} + {animated} animated components is past \
                         numAnimatedComponents = {nac}"
                    ),
                ));
            }
            Ok(HierarchyJoint {
                name: String::new(),
                parent,
                flags,
                start_index,
            })
        })()
        .context_with(|| joint_context(i, &name))?;
        hierarchy.push(HierarchyJoint { name, ..joint });
    }
    let extra = p.peek_kind()? == STR;
    p.too_many(extra, || {
        format!("the hierarchy block has more joints than numJoints = {nj}")
    })?;
    p.punct(b'}')?;
    Ok(hierarchy)
}

/// The `bounds` block: `numFrames` lines (`nf_tok` holds the count, `num_frames`), any more
/// kept with a warning; the lines and the checked frame count.
fn read_bounds(
    p: &mut Parser<'_>,
    nf_tok: &Token,
    num_frames: i64,
) -> Result<(Vec<Bounds>, usize)> {
    p.keyword("bounds")?;
    p.punct(b'{')?;
    let nf = p.count(
        "numFrames",
        nf_tok,
        num_frames,
        MIN_VEC_PAIR,
        size_of::<Bounds>() as u64,
    )?;
    let mut bounds = Vec::with_capacity(nf);
    // The lines read in place while they can be, then the ordinary way (which reports what
    // is wrong, or reads the rest: extra lines, comments).
    while bounds.len() < nf {
        let Some([min, max]) = p.fast_vectors::<3, 2>() else {
            break;
        };
        bounds.push(Bounds { min, max });
    }
    for i in bounds.len().. {
        let t = p.peek()?;
        if i >= nf && t.kind != LPAREN {
            break;
        }
        p.too_few(t.kind == RBRACE, || {
            format!(
                "numFrames = {nf} but the bounds block has {}",
                plural(i, "line")
            )
        })?;
        if i >= nf {
            // Lines past numFrames (some exporters write one more): kept, with a warning.
            p.charge(&t, size_of::<Bounds>() as u64)?;
        }
        bounds.push(
            (|| -> Result<Bounds> {
                Ok(Bounds {
                    min: p.vector("bounds minimum")?,
                    max: p.vector("bounds maximum")?,
                })
            })()
            .context_with(|| format!("bounds {i}"))?,
        );
    }
    if bounds.len() > nf {
        p.warn(format!(
            "numFrames = {nf} but the bounds block has {} (all kept)",
            plural(bounds.len(), "line")
        ));
    }
    p.punct(b'}')?;
    Ok((bounds, nf))
}

/// The `baseframe` block: one line for each of the `nj` joints.
fn read_baseframe(p: &mut Parser<'_>, nj: usize) -> Result<Vec<BaseJoint>> {
    let t = p.keyword("baseframe")?;
    p.punct(b'{')?;
    p.charge(&t, nj as u64 * size_of::<BaseJoint>() as u64)?;
    let mut baseframe = Vec::with_capacity(nj);
    while baseframe.len() < nj {
        let Some([pos, orient]) = p.fast_vectors::<3, 2>() else {
            break;
        };
        baseframe.push(BaseJoint { pos, orient });
    }
    for i in baseframe.len()..nj {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numJoints = {nj} but the baseframe block has {}",
                plural(i, "line")
            )
        })?;
        baseframe.push(
            (|| -> Result<BaseJoint> {
                Ok(BaseJoint {
                    pos: p.vector("position")?,
                    orient: p.vector("orientation")?,
                })
            })()
            .context_with(|| format!("baseframe {i}"))?,
        );
    }
    let extra = p.peek_kind()? == LPAREN;
    p.too_many(extra, || {
        format!("the baseframe block has more lines than numJoints = {nj}")
    })?;
    p.punct(b'}')?;
    Ok(baseframe)
}

/// The `nf` `frame` blocks of `nac` values each (`nf_tok` holds `numFrames`).
fn read_frames(p: &mut Parser<'_>, nf_tok: &Token, nf: usize, nac: u32) -> Result<Vec<Vec<f32>>> {
    let n = u64::from(nac);
    p.count(
        "numFrames",
        nf_tok,
        nf as i64,
        MIN_FRAME + n,
        size_of::<Vec<f32>>() as u64 + 4 * n,
    )?;
    let nac = nac as usize;
    let mut frames = Vec::with_capacity(nf);
    for f in 0..nf {
        if let Some(values) = p.fast_frame(f, nac) {
            frames.push(values);
            continue;
        }
        let t = p.peek()?;
        if t.kind == Kind::Eof {
            return Err(p.error(
                &t,
                ErrorKind::Truncated,
                format!(
                    "numFrames = {nf} but the file ends after {}",
                    plural(f, "frame")
                ),
            ));
        }
        p.numbered("frame", f)?;
        let values = read_frame_values(p, nac).context_with(|| format!("frame {f}"))?;
        frames.push(values);
    }
    Ok(frames)
}

/// One frame's `{ v0 v1 ... }`: exactly `nac` values.
fn read_frame_values(p: &mut Parser<'_>, nac: usize) -> Result<Vec<f32>> {
    p.punct(b'{')?;
    let mut values = Vec::with_capacity(nac);
    // The values read in place, as long as they can be.
    if let Some(mut c) = p.cursor() {
        while values.len() < nac {
            let Some(v) = c.f32() else {
                break;
            };
            values.push(v);
        }
        let end = c.offset();
        p.advance(end);
    }
    for k in values.len()..nac {
        if let Some((t, n)) = p.take_number() {
            values.push(match n.to_f32() {
                Some(v) => v,
                None => p.float_value(&t)?,
            });
            continue;
        }
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numAnimatedComponents = {nac} but the frame has {}",
                plural(k, "value")
            )
        })?;
        values.push(p.float("frame value")?);
    }
    let extra = matches!(p.peek_kind()?, Kind::Int | Kind::Float);
    p.too_many(extra, || {
        format!("the frame has more values than numAnimatedComponents = {nac}")
    })?;
    p.punct(b'}')?;
    Ok(values)
}
