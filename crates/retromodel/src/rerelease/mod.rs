//! The 2021 Quake and 2023 Quake II re-releases: MD5 replacements shipped beside the classic
//! MDL and MD2 models, paired as the engines pair them.
//!
//! **Sources** (read, not copied).
//! - Quake II: q2pro `src/refresh/models.c` (`MOD_LoadMD5`, `MD5_ParseAnim`,
//!   `MD5_LoadScales`, `MD5_LoadSkins`) and `src/refresh/mesh.c` (the skinning). For
//!   `DIR/NAME.md2` the replacement is `DIR/md5/NAME.md5mesh` with `DIR/md5/NAME.md5anim`
//!   (both, or neither is used) and `DIR/md5/NAME.md5scale`; MD5 frame N plays when the MD2
//!   shows frame N (`frame % numFrames`; fewer MD5 frames is a warning); joints pair by index
//!   (names unread); the MD5 bounds are
//!   ignored for the MD2's; the skins are the MD2's skin paths with `md5/` put before the file
//!   name. Limits: 256 joints, 32 meshes, 8192 weights a mesh, 1024 frames.
//! - Quake: the re-release's loader as vkQuake (`Quake/gl_model.c`) and the issue tracker
//!   describe it: `progs/NAME.mdl` pairs with `progs/NAME.md5mesh` and `progs/NAME.md5anim`;
//!   the MD5's frame count must equal the MDL's (2 against 1 is accepted), one mesh only; the
//!   MDL's flags and synctype stay; the skin of skin `S` and frame group `G` is the shader name
//!   with `_SS_GG` after it (`progs/soldier_00_00`, as a picture, then under `progs/` and
//!   `textures/`); the MD5 is used only when it comes from the same or a higher search path
//!   than the MDL (checked where the resolver reads a tree of layers,
//!   [`Resolver::search_layer`](crate::resolve::Resolver::search_layer): `web`'s served tree, a game tree; a model on disk has none).
//!   The MDL's flags, synctype and eye position stay (`Model::mdl_extras`).
//!
//! A classic model's [`Replacement`] is found and checked by [`find`]; [`apply`] gives the
//! model to use in its place (`--prefer md5`): the MD5's meshes and joints, its animation cut
//! into the classic model's clips, and its poses baked into frames named as the classic
//! model's, so that keyframe writers (MD2, MDL, MD3) down-convert it. [`author`] goes the
//! other way and writes the re-release layout for a model.
//!
//! The folder follows those steps: `game.rs` (the two games, the engines checked, q2pro's
//! limits), `pair.rs` (finding and checking a pair: [`find`], [`validate_pair`]), `apply.rs`
//! ([`apply`]), `layout.rs` (where the files are, [`names`]; writing them, [`write_layout`]).

mod apply;
mod game;
mod layout;
mod pair;

/// Moved to [`crate::model::join_animations`]; the old path still works.
pub use crate::model::join_animations;
pub use apply::{apply, apply_with, replace_if_preferred};
pub use game::{Game, ENGINES};
pub use layout::{author, md5_skin_path, names, write_layout, Names};
pub use pair::{find, find_with, validate_pair, Check, Replacement};
