//! Quake MDL (`IDPO`, version 6): id Software's alias models, and three variants of the
//! layout read by the same codec: QTest's `IDPO` version 3, QuakeForge's 16-bit `MD16` and
//! Hexen II's mission-pack `RAPO`.
//!
//! **Sources.** David Henry's "MDL file format" (`specs/quake1-mdl.txt`), id Software's
//! `modelgen.h` and `model.c`, and the engine behaviour collected in `specs/ENGINE-NOTES.md`.
//! The variants, read from the engines' sources (no files of them were at hand; the fixtures
//! are generated from these layouts):
//! - **QTest** ([`QTestFile`]): FTEQW `engine/common/com_mesh.c` (`Mod_LoadQ1Model`:
//!   `QTESTALIAS_VERSION`, a header of `offsetof(dmdl_t, flags)` bytes; `Q1MDL_LoadFrameGroup`:
//!   poses 16 bytes shorter) and QuakeForge `tools/io_mesh_qfmdl/mdl.py` (reads `flags`,
//!   `size` and frame names only for version 6).
//! - **MD16** ([`Md16File`]): QuakeForge `libs/models/alias/model_alias.c` (`HEADER_MDL16`,
//!   the second block skipped after each pose's vertices), `libs/models/alias/gl_mesh.c`
//!   ("the first chunk of vertices is fully compatible with IDPO alias models (even the
//!   scale). The second chunk is the fractional bits of the vertex, giving 8.8"),
//!   `tools/io_mesh_qfmdl/mdl.py`, and FTEQW `com_mesh.c` (`Q1MDL_LoadPoseQF16`).
//! - **Hexen II** ([`Hexen2File`]): uHexen2 `common/genmodel.h` (`newmdl_t`, `stvert_t`,
//!   `dnewtriangle_t`, `RAPOLYHEADER`, `ALIAS_NEWVERSION`) and `engine/h2shared/gl_model.c`
//!   (`Mod_LoadAliasModelNew`), Raven's `H2MP/code/genmodel.h` and `MODEL.C`, and FTEQW
//!   `com_mesh.c` (its `rapo` branch).
//!
//! **Quirks handled here.**
//! - Frame groups carry a count `nb` the seed document omits, and their members have no type
//!   word. Any non-zero frame type word means a group; the word is kept for writing.
//! - Group intervals are cumulative end times. Software Quake refuses an interval `<= 0`;
//!   GL engines use only the first. Such files still read (with a warning) and fail
//!   [`validate()`].
//! - `onseam` is `0x20` in files from id's tools; GL engines treat any non-zero value as on
//!   the seam, software Quake tests bit `0x20` ([`crate::options::SeamRule`] picks).
//! - Some 3D GameStudio tools wrote IDPO files whose skin type is 2 (16-bit 5-6-5 pixels);
//!   types 2..=5 are read as GameStudio true-colour pictures.
//! - Data after the last frame (qME's `QMEX` chunk) is kept and written back.
//! - Unknown flag bits (`MF_HOLEY` = `1 << 14` and others) are kept.
//!
//! **QTest** (`IDPO` version 3, told from Quake by the version):
//! - The header is 76 bytes: Quake's without `flags` and `size` ([`QTestHeader`]). Engines
//!   give QTest models no flags; conversion does the same.
//! - Poses are a bounding box and vertices, without the 16-byte name ([`QTestPose`]), in
//!   simple frames and in groups alike (FTEQW today; its older loader and QuakeForge's
//!   `mdl.py` read groups the same way). Frames convert with empty names.
//! - Skins, texture coordinates and triangles are Quake's.
//!
//! **MD16** (QuakeForge, magic `MD16`, version 6 as Quake's):
//! - Quake's layout with, after each pose's `num_verts` vertices, a second block of
//!   `num_verts` 4-byte vertices holding the low byte of each coordinate ([`PoseOf::low`]).
//!   Position = `scale * (v + low / 256) + translate`: the header's scale is Quake's, applied
//!   to the high bytes, and the low bytes add 8 fractional bits (QuakeForge multiplies
//!   everything by 256 and divides the scale; FTEQW adds `low * scale / 256`; the value is
//!   the same up to rounding).
//! - Normals are the high block's index (FTEQW, QuakeForge's GL renderer); the low block's
//!   normal byte is kept (QuakeForge's exporter repeats the high one; its software renderer
//!   reads it). Bounding boxes are high bytes only.
//! - QuakeForge's loader since its 2024 rewrite (commit `01e544799`) steps over only the
//!   first block of each pose, so it misreads an `MD16` of more than one pose; its loader
//!   before (2023), FTEQW and `mdl.py` skip both blocks, as here.
//!
//! **Hexen II** (magic `RAPO`, version 50):
//! - The header is 88 bytes: Quake's and `num_st_verts` ([`Hexen2Header`]). Then Quake's
//!   skins, `num_st_verts` texture coordinates (`stvert_t` as Quake's, `onseam` included),
//!   `num_tris` triangles of 16 bytes: `facesfront`, three `u16` vertex indices, three `u16`
//!   texture-coordinate indices ([`Hexen2Triangle`]), and Quake's frames of `num_verts`
//!   vertices.
//! - The indices are `unsigned short` in Raven's and uHexen2's `genmodel.h` (FTEQW reads
//!   them with `LittleShort`, signed). The engines do not check them (a bad one reads past
//!   their arrays); here both are checked at parse time. uHexen2's GL loader copies the texture coordinates into a static
//!   array of `MAXALIASVERTS` (2000) entries without a check; `validate` reports more.
//! - The seam fix-up applies to the texture coordinate a back-facing triangle's corner uses
//!   (uHexen2 `gl_mesh.c`, FTEQW): the mesh has one vertex per distinct (vertex, texture
//!   coordinate, back side) corner.
//!
//! ```
//! use retromodel::formats::quake_mdl;
//! # let bytes = retromodel::formats::quake_mdl::fixtures::minimal();
//! let file = quake_mdl::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = quake_mdl::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! assert_eq!(model.frames.len(), file.pose_count());
//! # Ok::<(), retromodel::Error>(())
//! ```
//!
//! The variants have their own file types, read and written the same way:
//!
//! ```
//! use retromodel::formats::quake_mdl::{self, fixtures, Hexen2File, Variant};
//! let bytes = fixtures::all().into_iter().find(|(n, _)| *n == "hexen2_everything").unwrap().1;
//! assert_eq!(Variant::detect(&bytes), Some(Variant::Hexen2));
//! let file = Hexen2File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes);
//! let model = quake_mdl::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! assert_eq!(model.frames.len(), file.pose_count());
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
mod engine;
pub mod fixtures;
mod from_model;
mod geometry;
mod raw;
pub(crate) mod read;
pub mod skins;
mod summary;
mod validate;
pub(crate) mod write;

pub use codec::{QuakeMdlCodec, CODEC};
pub use convert::{decode_position, decode_position16, to_model, PALETTE_PATH};
pub use engine::{Engine, EngineLimits};
pub use from_model::from_model;
pub use raw::*;
pub use summary::summary;
pub use validate::{interval_problem, validate};

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "quake-mdl";
/// Format name of QTest files ([`QTestFile`]).
pub const QTEST_FORMAT: &str = "qtest-mdl";
/// Format name of QuakeForge's `MD16` files ([`Md16File`]).
pub const MD16_FORMAT: &str = "quakeforge-md16";
/// Format name of Hexen II's `RAPO` files ([`Hexen2File`]).
pub const HEXEN2_FORMAT: &str = "hexen2-mdl";
