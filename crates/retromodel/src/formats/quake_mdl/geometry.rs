//! The two triangle layouts' steps ([`TriangleLayout`]): Quake's one texture coordinate per
//! vertex ([`Triangle`], also QTest's and `MD16`'s) and Hexen II's separately indexed texture
//! coordinates ([`Hexen2Triangle`]), each read, written and made into a mesh by the steps in
//! `read.rs`, `write.rs` and `convert.rs`.

use super::convert::{hexen2_mesh, quake_mesh};
use super::raw::{
    Geometry, Header, Hexen2Triangle, Layout, MdlFile, TexCoord, Triangle, TriangleLayout,
};
use super::read::{read_hexen2_geometry, read_quake_geometry};
use super::write::{write_geometry, write_hexen2_geometry};
use crate::error::Result;
use crate::io::{Reader, Writer};
use crate::limits::{Budget, Limits};
use crate::model::Mesh;
use crate::options::SeamRule;

impl TriangleLayout for Triangle {
    fn read_geometry(
        r: &mut Reader<'_>,
        h: &Header,
        _: Option<i32>,
        limits: &Limits,
        budget: &mut Budget,
    ) -> Result<Geometry<Triangle>> {
        read_quake_geometry(r, h, limits, budget)
    }
    fn write_geometry(w: &mut Writer, texcoords: &[TexCoord], triangles: &[Triangle]) {
        write_geometry(w, texcoords, triangles)
    }
    fn mesh<L: Layout<Triangle = Self>>(
        f: &MdlFile<'_, L>,
        h: &Header,
        seam_rule: SeamRule,
    ) -> (Mesh, Option<usize>) {
        quake_mesh(h, &f.texcoords, &f.triangles, &f.frames, seam_rule)
    }
}

impl TriangleLayout for Hexen2Triangle {
    fn read_geometry(
        r: &mut Reader<'_>,
        h: &Header,
        num_st_verts: Option<i32>,
        limits: &Limits,
        budget: &mut Budget,
    ) -> Result<Geometry<Hexen2Triangle>> {
        read_hexen2_geometry(r, h, num_st_verts.unwrap_or(0), limits, budget)
    }
    fn write_geometry(w: &mut Writer, texcoords: &[TexCoord], triangles: &[Hexen2Triangle]) {
        write_hexen2_geometry(w, texcoords, triangles)
    }
    fn mesh<L: Layout<Triangle = Self>>(
        f: &MdlFile<'_, L>,
        h: &Header,
        seam_rule: SeamRule,
    ) -> (Mesh, Option<usize>) {
        hexen2_mesh(h, &f.texcoords, &f.triangles, &f.frames, seam_rule)
    }
}
