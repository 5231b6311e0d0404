//! The MD5 lines that make up the bulk of the files (`vert`, `tri`, `weight`, md5anim
//! frames, bounds and baseframe, md5camera lines), read in place with a [`text::Cursor`]; each
//! reader returns `None`, nothing taken, on anything unusual, and the ordinary path reads the
//! line again (or reports what is wrong).

use super::syntax::Parser;
use crate::formats::md5::raw::{CameraFrame, Vert, Weight};
use crate::io::text::{self, Kind, Token};

impl Parser<'_> {
    /// `vert N ( u v ) startWeight countWeight`, entry `index`, read in place
    /// ([`text::Cursor`]) with the token of its `startWeight`; `None`, nothing taken, when the
    /// line is anything else (the ordinary path then reads it, or reports what is wrong).
    pub(super) fn fast_vert(&mut self, index: usize) -> Option<(Vert, Token)> {
        let mut c = self.cursor()?;
        if !(c.name(b"vert") && c.int()? == index as i64 && c.punct(b'(')) {
            return None;
        }
        let uv = [c.f32()?, c.f32()?];
        if !c.punct(b')') {
            return None;
        }
        let start_weight = u32::try_from(c.int()?).ok()?;
        let token = c.last_token(Kind::Int);
        let count_weight = u32::try_from(c.int()?).ok()?;
        let end = c.offset();
        self.advance(end);
        Some((
            Vert {
                uv,
                start_weight,
                count_weight,
            },
            token,
        ))
    }

    /// `( x y z ) ( x y z )` and the like: `M` parenthesised groups of `N` numbers, read in
    /// place (see [`Parser::fast_vert`]); the bounds and baseframe lines of an md5anim.
    #[inline]
    pub(super) fn fast_vectors<const N: usize, const M: usize>(&mut self) -> Option<[[f32; N]; M]> {
        let mut c = self.cursor()?;
        let out = vectors_in_place::<N, M>(&mut c)?;
        let end = c.offset();
        self.advance(end);
        Some(out)
    }

    /// `( x y z ) ( qx qy qz ) fov`: one md5camera line, read in place (see
    /// [`Parser::fast_vert`]).
    pub(super) fn fast_camera_frame(&mut self) -> Option<CameraFrame> {
        let mut c = self.cursor()?;
        let [pos, orient] = vectors_in_place::<3, 2>(&mut c)?;
        let fov = c.f32()?;
        let end = c.offset();
        self.advance(end);
        Some(CameraFrame { pos, orient, fov })
    }

    /// `frame N { v0 v1 ... }` with exactly `nac` values, frame `index`, read in place (see
    /// [`Parser::fast_vert`]): almost all of an md5anim's bytes.
    pub(super) fn fast_frame(&mut self, index: usize, nac: usize) -> Option<Vec<f32>> {
        let mut c = self.cursor()?;
        if !(c.name(b"frame") && c.int()? == index as i64 && c.punct(b'{')) {
            return None;
        }
        let mut values = Vec::with_capacity(nac);
        for _ in 0..nac {
            values.push(c.f32()?);
        }
        if !c.punct(b'}') {
            return None;
        }
        let end = c.offset();
        self.advance(end);
        Some(values)
    }

    /// `tri N a b c`, entry `index` with vertex indices below `num_verts`, read in place
    /// (see [`Parser::fast_vert`]).
    pub(super) fn fast_tri(&mut self, index: usize, num_verts: usize) -> Option<[u32; 3]> {
        let mut c = self.cursor()?;
        if !(c.name(b"tri") && c.int()? == index as i64) {
            return None;
        }
        let mut tri = [0u32; 3];
        for v in &mut tri {
            let i = c.int()?;
            if !(0..num_verts as i64).contains(&i) {
                return None;
            }
            *v = i as u32;
        }
        let end = c.offset();
        self.advance(end);
        Some(tri)
    }

    /// `weight N joint bias ( x y z )`, entry `index` with a joint below `num_joints`, read
    /// in place (see [`Parser::fast_vert`]).
    pub(super) fn fast_weight(&mut self, index: usize, num_joints: usize) -> Option<Weight> {
        let mut c = self.cursor()?;
        if !(c.name(b"weight") && c.int()? == index as i64) {
            return None;
        }
        let joint = c.int()?;
        if !(0..num_joints as i64).contains(&joint) {
            return None;
        }
        let bias = c.f32()?;
        if !c.punct(b'(') {
            return None;
        }
        let pos = [c.f32()?, c.f32()?, c.f32()?];
        if !c.punct(b')') {
            return None;
        }
        let end = c.offset();
        self.advance(end);
        Some(Weight {
            joint: joint as u32,
            bias,
            pos,
        })
    }
}

/// `M` parenthesised groups of `N` numbers at the cursor, or `None` at anything else.
#[inline]
fn vectors_in_place<const N: usize, const M: usize>(
    c: &mut text::Cursor<'_>,
) -> Option<[[f32; N]; M]> {
    let mut out = [[0.0; N]; M];
    for v in &mut out {
        if !c.punct(b'(') {
            return None;
        }
        for x in v.iter_mut() {
            *x = c.f32()?;
        }
        if !c.punct(b')') {
            return None;
        }
    }
    Some(out)
}
