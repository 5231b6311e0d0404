//! Half-Life (GoldSrc) studio models (`IDST`, version 10), their texture files
//! (`NAMET.mdl`) and sequence group files (`IDSQ`, `NAME01.mdl`): the models of Half-Life,
//! Counter-Strike 1.6, Team Fortress Classic, Sven Co-op and Xash3D.
//!
//! **Sources.** The Half-Life SDK (`ValveSoftware/halflife`): `engine/studio.h` (structures
//! and limits), `cl_dll/StudioModelRenderer.cpp` and `cl_dll/studio_util.cpp` (how a bone's
//! stored channels become its pose), `utils/studiomdl/studiomdl.c` (what the compiler
//! writes: texture rules, `$externaltextures`, `$sequencegroup`); Xash3D FWGS
//! `engine/common/mod_studio.c` (how `T.mdl` and `NN.mdl` files are found, raised limits);
//! Assimp's `code/AssetLib/MDL/HalfLife/`; read, not copied; the files of the shared corpus
//! (Assimp's HL1 test set, Sledge's and gchimp's test models).
//!
//! **Quirks handled here.**
//! - Every structure is placed by an offset, in any order, and may be shared (two
//!   sub-models pointing at the same vertices): each is read where its offset says and the
//!   bytes no structure claims are kept, so a file writes back byte for byte.
//! - Names are fixed-size fields kept as stored (bytes after the terminating zero included).
//! - Animation values are run-length encoded per bone and channel (`mstudioanimvalue_t`): a
//!   run header (`valid` values, `total` frames), then the values; the last value holds for
//!   the rest of the run. A channel is read as far as the sequence's frames reach; offset 0
//!   is a channel that stays at the bone's default.
//! - The animation of a sequence of group N > 0 lies in `NAME0N.mdl`, its offsets counted
//!   from that file's first byte; such a file alone holds only a header and data, read with
//!   the model ([`read_group_anims`]).
//! - A model compiled with `$externaltextures` has no textures; they (and the skin
//!   families) are in `NAMET.mdl`, an `IDST` file without bones.
//! - Each texture has its own 256-colour palette after its pixels; with `STUDIO_NF_MASKED`
//!   palette index 255 is transparent.

mod codec;
pub mod convert;
pub mod fixtures;
pub mod from_model;
pub mod qc;
mod raw;
mod read;
pub(crate) mod side_files;
mod summary;
pub mod validate;
mod write;

pub use codec::{GoldSrcCodec, CODEC, HALF_LIFE_MDL};
pub use convert::Choice;
pub use raw::*;
pub use read::read_group_anims;
pub use summary::summary;

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "half-life-mdl";

/// Half-Life SDK studiomdl: the engine entry of the SMD and the QC codecs, whose files it
/// compiles.
pub const STUDIOMDL: crate::codec::Engine = crate::codec::Engine {
    name: "studiomdl",
    description: "Half-Life SDK studiomdl",
};
/// Magic of a studio model or texture file.
pub const MAGIC: &[u8; 4] = b"IDST";
/// Magic of a sequence group file.
pub const SEQ_MAGIC: &[u8; 4] = b"IDSQ";
/// The version GoldSrc reads.
pub const VERSION: i32 = 10;
