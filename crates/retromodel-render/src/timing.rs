//! Playback timing: the core library's [`retromodel::model::Timeline`], which the glTF
//! exporter uses too, so the renderer plays clips exactly as the engines' rules (and the
//! exported animations) say.

pub use retromodel::model::{KeyPose, Timeline, DEFAULT_FPS};
