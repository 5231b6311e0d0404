//! IQM, the Inter-Quake Model (`INTERQUAKEMODEL\0`, version 2; version 1 read): the skeletal
//! format of the open Quake-family engines (DarkPlaces, FTEQW, ioquake3, QuakeForge, Cube 2,
//! Red Eclipse, Tesseract).
//!
//! **Sources.** lsalzman/iqm `iqm.txt` and `iqm.h` (the specification and structures),
//! `iqm.cpp` (the reference writer: section order and alignment), `upgrade.cpp` (version 1),
//! `demo/gpu-demo.cpp` (the reference reader and animator); ioquake3
//! `code/renderergl1/tr_model_iqm.c`, DarkPlaces `model_alias.c` (`Mod_INTERQUAKEMODEL_Load`)
//! and `model_shared.c` (`.framegroups`), FTEQW `engine/common/com_mesh.c`, Red Eclipse
//! `src/engine/iqm.h` and `rendermodel.cpp` (`iqm.cfg`); read, not copied; the files of the
//! shared corpus (Red Eclipse, Cube 2, raylib, FTE/Nuclide, a Ludum Dare game, Assimp's test).
//!
//! **Quirks handled here.**
//! - Sections are placed by offsets; real files have offsets that are not 4-byte aligned
//!   (Red Eclipse's animation files, FTE's `.vvm`), holes, a comment that runs on past
//!   `num_comment` (the `.exm` of the corpus), or data past `filesize`: every byte no section
//!   claims is kept with its offset, so a file writes back byte for byte.
//! - Animation-only files (poses and frames, no joints, no meshes; Cube 2's `iqmanim`
//!   files) convert to a skeleton made from the poses, `pose0`, `pose1`, ...; given with a
//!   mesh (`--anim`, or beside it), their animations are attached to the mesh's joints when
//!   the poses match the joints (count and parents), as the engines pair them by order.
//! - A file may count vertices (`num_vertexes`) without arrays or meshes (Red Eclipse's
//!   `reload_pistol.iqm`): read and kept.
//! - Frame rate 0 (the engine's configuration gives the speed) plays at 10 frames a second,
//!   said in a warning; Cube 2's `iqmanim` speed replaces it when the configuration is
//!   applied.
//! - Version 1 stores rotations as `x, y, z` (w = -sqrt(1 - x² - y² - z²)) and 9 pose
//!   channels; it is read and written back as version 1.
//! - Triangles are stored clockwise seen from the front, as Quake's (the corpus's normals
//!   agree in 14496 of 14545 triangles), which is the Model's winding: kept as they are.
//! - Extensions (FTE's `FTE_MESH`, `FTE_EVENT`, `FTE_SKINS`) are kept as bytes in their
//!   chain and named by `info`.
//!
//! ```
//! use retromodel::formats::iqm;
//! # let bytes = retromodel::formats::iqm::fixtures::skinned();
//! let file = iqm::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = iqm::file_to_model(&file).model;
//! assert_eq!(model.joints.len(), file.joints.len());
//! assert_eq!(model.animations.len(), file.anims.len());
//! let (back, _notes) = iqm::from_model(&model, &Default::default())?;
//! assert_eq!(back.file.joints.len(), file.joints.len());
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
pub mod fixtures;
pub mod framegroups;
mod from_model;
mod raw;
mod read;
mod summary;
mod validate;
mod write;

pub use codec::{IqmCodec, CODEC, IQM};
pub use convert::{
    add_animations, add_animations_from, add_ranges, add_ranges_from, anim_ranges, decode_frames,
    file_to_model, file_to_model_from, joint_rotation, FrameDecoder, FrameRange, DEFAULT_FPS,
};
pub use from_model::{from_model, weight_bytes, INFLUENCES, MAX_BYTE_JOINTS};
pub use raw::*;
pub use summary::summary;
pub use validate::{
    file_len, validate, IOQ3_MAX_JOINTS, IOQ3_MAX_TRIANGLES, IOQ3_MAX_VERTS, MAX_BONES, MAX_FILE,
};

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "iqm";
