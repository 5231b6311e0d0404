//! Reading an `.md5camera`: cuts and one camera line per frame.

use std::mem::size_of;

use super::syntax::{plural, Parser, LPAREN, MIN_VEC_PAIR, RBRACE};
use super::Parsed;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::formats::md5::raw::*;
use crate::formats::md5::CAMERA_FORMAT;
use crate::io::text::Kind;

/// Parses an `.md5camera` file.
///
/// Warns about a missing `MD5Version` or `commandline` line and strings that are not UTF-8;
/// fails with line and column on anything else that is off, including a cut outside
/// `1..numFrames` and a `camera` block whose lines disagree with `numFrames`.
pub fn parse_camera(text: &[u8], limits: &crate::limits::Limits) -> Result<Parsed<CameraFile>> {
    let mut p = Parser::new(text, CAMERA_FORMAT, limits);
    let version = p.version()?;
    let commandline = p.commandline()?;
    let (num_frames, nf_tok) = p.keyword_int("numFrames")?;
    let frame_rate = p.frame_rate()?;
    let (num_cuts, nc_tok) = p.keyword_int("numCuts")?;
    let nf = p.count(
        "numFrames",
        &nf_tok,
        num_frames,
        MIN_VEC_PAIR,
        size_of::<CameraFrame>() as u64,
    )?;

    p.keyword("cuts")?;
    p.punct(b'{')?;
    let nc = p.count("numCuts", &nc_tok, num_cuts, 1, 4)?;
    let mut cuts = Vec::with_capacity(nc);
    for i in 0..nc {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!("numCuts = {nc} but the cuts block has {}", plural(i, "cut"))
        })?;
        let (c, tok) = p.int("cut frame")?;
        if c < 1 || c >= nf as i64 {
            return Err(p
                .error(
                    &tok,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "frame {c} out of range (must be at least 1 and less than numFrames = {nf})"
                    ),
                )
                .in_context(format!("cut {i}")));
        }
        cuts.push(c as u32);
    }
    let extra = p.peek_kind()? == Kind::Int;
    p.too_many(extra, || {
        format!("the cuts block has more cuts than numCuts = {nc}")
    })?;
    p.punct(b'}')?;

    p.keyword("camera")?;
    p.punct(b'{')?;
    let mut frames = Vec::with_capacity(nf);
    // The lines read in place while they can be, then the ordinary way (which reports what
    // is wrong, or reads the rest).
    while frames.len() < nf {
        let Some(frame) = p.fast_camera_frame() else {
            break;
        };
        frames.push(frame);
    }
    for i in frames.len()..nf {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numFrames = {nf} but the camera block has {}",
                plural(i, "line")
            )
        })?;
        frames.push(
            (|| -> Result<CameraFrame> {
                Ok(CameraFrame {
                    pos: p.vector("camera position")?,
                    orient: p.vector("camera orientation")?,
                    fov: p.float("fov")?,
                })
            })()
            .context_with(|| format!("camera frame {i}"))?,
        );
    }
    let extra = p.peek_kind()? == LPAREN;
    p.too_many(extra, || {
        format!("the camera block has more lines than numFrames = {nf}")
    })?;
    p.punct(b'}')?;
    p.expect_end()?;

    Ok(p.finish(CameraFile {
        version,
        commandline,
        frame_rate,
        cuts,
        frames,
    }))
}
