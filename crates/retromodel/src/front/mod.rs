//! The front door: one way in and one way out, for every front end.
//!
//! The command line, the Python package, the web module and (through Python) the Blender
//! extension are thin adapters over this module, so that the same file with the same options
//! gives the same model and writes the same bytes wherever it is converted:
//!
//! - **In** ([`Opener`], [`open_bytes`]): a path on disk, an `ARCHIVE:PATH` entry, a Quake 3
//!   player folder, or bytes with a [`Resolver`](crate::Resolver) of their own; side files
//!   (skins, palettes, `.md5anim`s, IQM animation files, `.framegroups`) found by the game's
//!   rules, game folders mounted, a Cube 2 model configuration applied (on by default,
//!   [`OpenOptions::model_config`]), a classic model's re-release replacement shown in its
//!   place on request. The result, [`Opened`], is the model with everything `info` says of it:
//!   the summary, every animation ([`AnimationEntry`]), where skins came from, the re-release
//!   pair.
//! - **Out** ([`plan`], [`commit`], [`save`]): the target picked by the output's extension and
//!   the writer variant, the input written back byte for byte when nothing asks for a change,
//!   else the model fitted to the target (placement, metres to game units, fps, skins) and
//!   written, or the re-release layout; files written through a temporary file renamed into
//!   place, existing files kept unless asked.
//!
//! Options are typed ([`OpenOptions`], [`SaveOptions`]; their words parse through `FromStr`
//! in [`crate::options`]) and checked here, once. Errors are [`Fail`]: the front ends turn it
//! into an exit status, a Python exception or a JavaScript error with the same text.

mod open;
mod save;

pub use crate::summary::AnimationEntry;
pub use open::{is_player_dir, open_bytes, pair_engines, OpenOptions, Opened, Opener};
pub use save::{commit, plan, save, Planned, Report, SaveOptions, Source};

use std::fmt;

/// Why opening or saving failed.
#[derive(Debug)]
pub enum Fail {
    /// A format error from the library (where it is, in the text).
    Format(crate::error::Error),
    /// A format error known only as text (a Quake 3 player folder's part).
    FormatText(String),
    /// A file that could not be read or written (the message names it).
    File(String),
    /// A path that does not exist.
    Missing(String),
    /// A bad option or a conversion the library refuses, in words.
    Value(String),
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fail::Format(e) => write!(f, "{e}"),
            Fail::FormatText(m) | Fail::File(m) | Fail::Missing(m) | Fail::Value(m) => {
                f.write_str(m)
            }
        }
    }
}

/// The text already holds a format error's own (no `source`, so that `{:#}` chains do not
/// repeat it).
impl std::error::Error for Fail {}

impl From<crate::error::Error> for Fail {
    fn from(e: crate::error::Error) -> Self {
        Fail::Format(e)
    }
}

impl From<crate::vfs::FileError> for Fail {
    fn from(e: crate::vfs::FileError) -> Self {
        Fail::File(e.0)
    }
}

impl Fail {
    /// Whether this is a format the library knows but does not read yet (a batch counts
    /// these apart from failures).
    pub fn is_unsupported(&self) -> bool {
        matches!(self, Fail::Format(e) if e.kind == crate::error::ErrorKind::Unsupported)
    }
}

/// A format as every front end lists it (the CLI's `formats` and help, Python's `formats()`,
/// the web page, the Blender extension's filters): all from the registry, so a new codec
/// appears everywhere with no other edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatEntry {
    /// Short name (`md2`).
    pub name: &'static str,
    /// In words (`Quake 2 MD2`).
    pub description: &'static str,
    /// File extensions, the usual one first.
    pub extensions: &'static [&'static str],
    /// A codec reads it.
    pub read: bool,
    /// The writer variants that write it from a model (`""` for a format's only writer;
    /// `quake`, `gs3`, ... for `.mdl`); empty when none does.
    pub writers: Vec<&'static str>,
}

/// Every format of the registry, readable ones first in registration order, then those only
/// detected (named in "not supported yet" messages).
pub fn formats() -> Vec<FormatEntry> {
    let mut out: Vec<FormatEntry> = Vec::new();
    let all = crate::registry::codecs()
        .iter()
        .flat_map(|c| c.formats().iter().copied());
    for f in all {
        if out.iter().any(|e| e.name == f.name()) {
            continue;
        }
        out.push(FormatEntry {
            name: f.name(),
            description: f.description(),
            extensions: f.extensions(),
            read: f.is_supported(),
            writers: crate::registry::writers()
                .filter(|w| w.format == f)
                .map(|w| w.variant)
                .collect(),
        });
    }
    out.sort_by_key(|e| !e.read);
    out
}

/// The readable formats in words for help texts: `Quake MDL (.mdl), Quake 2 MD2 (.md2), ...`.
/// Each description once (the 3D GameStudio MDL versions share one).
pub fn formats_in_words() -> String {
    let mut words: Vec<String> = Vec::new();
    for f in formats().iter().filter(|f| f.read) {
        let exts: Vec<String> = f.extensions.iter().map(|e| format!(".{e}")).collect();
        let w = format!("{} ({})", f.description, exts.join(" "));
        if !words.contains(&w) {
            words.push(w);
        }
    }
    words.join(", ")
}
