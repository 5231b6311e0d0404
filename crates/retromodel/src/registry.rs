//! The format registry: every format the crate reads is one [`Codec`] in [`CODECS`], and
//! everything that dispatches on formats reads from here — [`crate::Document`], detection,
//! the command line's directory walk, `validate`'s engines, `convert`'s targets and batch
//! conversion.
//!
//! A format is one folder under `formats/` with a `codec.rs` implementing [`Codec`] (and a
//! [`ParsedFile`] for its parsed files), plus one line in [`CODECS`]. Its typed API
//! (`md2::File::parse`, ...) stays public beside it.
//!
//! ```
//! use retromodel::registry;
//! for codec in registry::codecs() {
//!     for format in codec.formats() {
//!         println!("{:<10} {} (.{})", format.name(), format.description(), format.extensions().join(", ."));
//!     }
//! }
//! let md2 = registry::codec_named("md2").expect("registered");
//! assert!(md2.writers().iter().any(|w| w.format.name() == "md2"));
//! ```

use std::fmt;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::{gs_mdl, gs_mdl7, hmp, md2, md3, md5, quake_mdl, wmp};
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{ConvertOptions, WriteOptions};
use crate::resolve::Resolver;
use crate::summary::Summary;

/// Every registered format, in detection order. Adding a format is one line here.
pub static CODECS: &[&dyn Codec] = &[
    &quake_mdl::CODEC,
    &md2::CODEC,
    &md3::CODEC,
    &gs_mdl::CODEC,
    &gs_mdl7::CODEC,
    &hmp::CODEC,
    &wmp::CODEC,
    &md5::CODEC,
];

/// A file format: a short name for messages and `--json`, a description in words, and the
/// file extensions it is found under. Two formats are equal when all three are.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Format {
    name: &'static str,
    description: &'static str,
    extensions: &'static [&'static str],
}

impl Format {
    /// A format with its short name (`md2`), description (`Quake 2 MD2`) and lower-case file
    /// extensions without the dot, the usual one first.
    pub const fn new(
        name: &'static str,
        description: &'static str,
        extensions: &'static [&'static str],
    ) -> Format {
        Format {
            name,
            description,
            extensions,
        }
    }

    /// The short name used in messages and by `retromodel info` (`quake-mdl`, `md2`, ...).
    pub fn name(self) -> &'static str {
        self.name
    }

    /// What the format is, in words (for "not supported" messages).
    pub fn description(self) -> &'static str {
        self.description
    }

    /// File extensions (lower case, no dot), the usual one first.
    pub fn extensions(self) -> &'static [&'static str] {
        self.extensions
    }

    /// Whether a registered codec reads the format.
    pub fn is_supported(self) -> bool {
        codec_for(self).is_some()
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description)
    }
}

/// An engine whose limits `validate` checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Engine {
    /// The name given to `--engine` (`quakespasm`).
    pub name: &'static str,
    /// What it is, for `--help`.
    pub description: &'static str,
}

/// A format a codec writes from any [`Model`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writer {
    /// The format written (its first extension names output files).
    pub format: Format,
    /// Which writer, when several write the same extension (`quake`, `gs3`, ... for `.mdl`);
    /// empty when the extension alone decides.
    pub variant: &'static str,
    /// The format stores keyframe poses only: skeletal animations are baked into frames
    /// before writing.
    pub keyframes: bool,
    /// The format holds one mesh: several are merged before writing (with a warning).
    pub single_mesh: bool,
}

/// A file written from a [`Model`]: the main file, the files that go beside it, and what
/// the writer noticed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Output {
    /// The main file's bytes.
    pub bytes: Vec<u8>,
    /// Files to write beside it (MD2 skins as PCX, md5anims beside an md5mesh), by file name.
    pub side_files: Vec<SideFile>,
    /// Lossy or risky steps (quantisation, engine limits, baking, merged meshes).
    pub warnings: Vec<String>,
    /// Steps that are not a loss but worth saying (animations baked into frames).
    pub notes: Vec<String>,
    /// Largest position error of each written frame after quantisation, in model units.
    pub frame_errors: Vec<f32>,
}

/// A file written beside a main output.
#[derive(Debug, Clone, PartialEq)]
pub struct SideFile {
    /// File name, in the main output's folder.
    pub name: String,
    /// What it is (`skin`, `animation`), for messages.
    pub kind: &'static str,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// One format family's reader and writer: what it detects, parses, validates and writes.
pub trait Codec: Sync {
    /// The codec's name (the folder's: `quake-mdl`, `md5`).
    fn name(&self) -> &'static str;

    /// The formats it reads, each with its extensions.
    fn formats(&self) -> &'static [Format];

    /// The format family in words for messages (`Quake MDL`, `MD5`).
    fn family(&self) -> &'static str;

    /// Engines `validate` checks these formats against, the default first.
    fn engines(&self) -> &'static [Engine];

    /// Which of its formats the bytes are, by magic; `None` when not this codec's.
    fn detect(&self, data: &[u8]) -> Option<Format>;

    /// Whether a parsed file writes back byte for byte ([`ParsedFile::write`]); text formats
    /// write back value for value, and then writing what they wrote back is stable.
    fn byte_exact(&self) -> bool {
        true
    }

    /// Parses a file that [`Codec::detect`] accepted.
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>>;

    /// Parses `data` as `format`, one of [`Codec::formats`], without detecting which: for a
    /// damaged file that must still be judged as the format it came from. By default the
    /// same as [`Codec::parse`].
    fn parse_as<'a>(
        &self,
        format: Format,
        data: &'a [u8],
        limits: &Limits,
    ) -> Result<Box<dyn ParsedFile + 'a>> {
        let _ = format;
        self.parse(data, limits)
    }

    /// The formats this codec writes from any [`Model`].
    fn writers(&self) -> &'static [Writer] {
        &[]
    }

    /// Writes `model` as `format` (one of [`Codec::writers`]). Keyframe writers receive
    /// models with frames (see [`write_model`], which bakes skeletal animation first).
    fn write_model(&self, model: &Model, format: Format, options: &WriteOptions) -> Result<Output> {
        let _ = (model, options);
        Err(Error::new(
            format.name(),
            ErrorKind::Unsupported,
            format!(
                "writing {} from a model is not supported",
                format.description()
            ),
            Location::None,
        ))
    }

    /// Generated files (name, bytes) covering the format's features, each one parsing and writing back.
    fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)>;

    /// A generated file using every part of the format, for `retromodel sample` (the first
    /// codec with one for an extension is used).
    fn sample(&self) -> Option<Vec<u8>> {
        None
    }

    /// Format-specific speed tests (`retromodel bench --kernel NAME`).
    fn kernels(&self) -> &'static [Kernel] {
        &[]
    }
}

/// A format-specific speed test: set up untimed from a file's bytes, then run many times.
#[derive(Debug, Clone, Copy)]
pub struct Kernel {
    /// The name given to `bench --kernel` (`gl-commands`).
    pub name: &'static str,
    /// What it times, for `--help`.
    pub description: &'static str,
    /// What [`Prepared::items`] counts (`triangles`).
    pub unit: &'static str,
    /// Builds the work for one input file (side files through the resolver); untimed.
    /// `None`: the kernel does not apply to this file (it is left out).
    pub prepare: fn(&[u8], &dyn Resolver) -> Result<Option<Prepared>>,
}

/// One input's work for a [`Kernel`].
pub struct Prepared {
    /// How many items one run handles.
    pub items: u64,
    /// What was used beside the file, for the report (`with walk.md5anim`); may be empty.
    pub note: String,
    /// One run.
    pub run: Box<dyn Fn() + Send + Sync>,
}

impl fmt::Debug for Prepared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prepared")
            .field("items", &self.items)
            .finish()
    }
}

/// Every kernel of every codec.
pub fn kernels() -> impl Iterator<Item = &'static Kernel> {
    CODECS.iter().flat_map(|c| c.kernels())
}

/// A parsed file of some format, still in its own raw structures.
pub trait ParsedFile: fmt::Debug + Send + Sync {
    /// The file's format.
    fn format(&self) -> Format;

    /// The file's bytes. Binary formats come back byte for byte, text formats value for
    /// value (MD5) or token for token (WMP).
    fn write(&self) -> Vec<u8>;

    /// Converts to the format-neutral model; side files come through `resolver`.
    fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted;

    /// The `info` summary, given the converted model.
    fn summary(&self, converted: &Converted) -> Summary;

    /// Checks the file against `engine`, one of its codec's [`Codec::engines`].
    fn validate(&self, engine: &str) -> Vec<Diagnostic>;

    /// The engine `validate` uses for this file when none is named, when it is not its
    /// codec's first (a Hexen II `RAPO` file is checked against `hexen2`, not QuakeSpasm).
    fn default_engine(&self) -> Option<&'static str> {
        None
    }

    /// What was read leniently, for formats that read some oddities with a warning at parse
    /// time (the others report in [`ParsedFile::to_model`]).
    fn parse_warnings(&self) -> &[String] {
        &[]
    }
}

/// The registered codecs, in detection order.
pub fn codecs() -> &'static [&'static dyn Codec] {
    CODECS
}

/// The codec that reads `format`.
pub fn codec_for(format: Format) -> Option<&'static dyn Codec> {
    CODECS
        .iter()
        .copied()
        .find(|c| c.formats().contains(&format))
}

/// The codec called `name` (see [`Codec::name`]).
pub fn codec_named(name: &str) -> Option<&'static dyn Codec> {
    CODECS.iter().copied().find(|c| c.name() == name)
}

/// The registered format called `name` (`md2`, `gs-mdl5`).
pub fn format_named(name: &str) -> Option<Format> {
    CODECS
        .iter()
        .flat_map(|c| c.formats())
        .copied()
        .find(|f| f.name() == name)
}

/// The extensions of the files a viewer opens on their own: [`extensions`] less the MD5
/// animations and camera paths, which play on a mesh (the viewers' model lists).
pub fn viewable_extensions() -> Vec<&'static str> {
    let mut out = extensions();
    out.retain(|e| !matches!(*e, "md5anim" | "md5camera"));
    out
}

/// The extensions of every registered format (lower case, no dot, each once): what a
/// directory walk picks up.
pub fn extensions() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for e in CODECS
        .iter()
        .flat_map(|c| c.formats())
        .flat_map(|f| f.extensions())
    {
        if !out.contains(e) {
            out.push(e);
        }
    }
    out
}

/// Every engine name `validate` knows, each once, in registration order.
pub fn engine_names() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for e in CODECS.iter().flat_map(|c| c.engines()) {
        if !out.contains(&e.name) {
            out.push(e.name);
        }
    }
    out
}

/// Every writer of every codec, in registration order.
pub fn writers() -> impl Iterator<Item = &'static Writer> {
    CODECS.iter().flat_map(|c| c.writers())
}

/// What writing to a file extension means for an input of format `input`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The input's own format: its file is written back as read.
    WriteBack(Format),
    /// A writer builds the file from the input's Model.
    Convert(&'static Writer),
    /// A registered format that is only written back, never built from a Model.
    ReadOnly(Format),
}

impl Target {
    /// The format written.
    pub fn format(self) -> Format {
        match self {
            Target::WriteBack(f) | Target::ReadOnly(f) => f,
            Target::Convert(w) => w.format,
        }
    }
}

/// The target for an output extension (any case, no dot), given the input's format (when it
/// is a registered one) and the writer variant asked for (`--mdl gs5`; ignored for an
/// extension whose writers have no variants). Without a variant,
/// an input written to one of its own format's extensions is written back; otherwise the
/// first writer for the extension is used (registration order), or
/// [`Target::ReadOnly`] when the extension's format is never written from a Model. `None`:
/// no registered format has the extension.
pub fn target_for(extension: &str, input: Option<Format>, variant: Option<&str>) -> Option<Target> {
    let ext = extension.to_ascii_lowercase();
    let for_ext = |w: &&Writer| w.format.extensions().first() == Some(&ext.as_str());
    // A variant only chooses among the writers of an extension that has several (`--mdl`
    // is ignored for `.md2`).
    let has_variants = writers().filter(for_ext).any(|w| !w.variant.is_empty());
    if let Some(v) = variant.filter(|_| has_variants) {
        let w = writers().filter(for_ext).find(|w| w.variant == v)?;
        return Some(if Some(w.format) == input {
            Target::WriteBack(w.format)
        } else {
            Target::Convert(w)
        });
    }
    if let Some(f) = input.filter(|f| f.extensions().contains(&ext.as_str())) {
        return Some(Target::WriteBack(f));
    }
    if let Some(w) = writers().find(for_ext) {
        return Some(Target::Convert(w));
    }
    CODECS
        .iter()
        .flat_map(|c| c.formats())
        .find(|f| f.extensions().contains(&ext.as_str()))
        .map(|f| Target::ReadOnly(*f))
}

/// Output extensions `convert` can write from some input (a writer's, or a format's own for
/// writing back), each once: for help and error texts.
pub fn target_extensions() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let all = writers().flat_map(|w| w.format.extensions().first()).chain(
        CODECS
            .iter()
            .flat_map(|c| c.formats())
            .flat_map(|f| f.extensions()),
    );
    for e in all {
        if !out.contains(e) {
            out.push(e);
        }
    }
    out
}

/// Writes any [`Model`] as `writer`'s format: skeletal animation is baked into frames for
/// keyframe formats (at `options.fps`, default each animation's own rate) and several meshes
/// are merged (with a warning), then the codec writes the file and its side files.
pub fn write_model(model: &Model, writer: &Writer, options: &WriteOptions) -> Result<Output> {
    let codec = codec_for(writer.format).ok_or_else(|| {
        Error::new(
            writer.format.name(),
            ErrorKind::Unsupported,
            format!("{} is not registered", writer.format.description()),
            Location::None,
        )
    })?;
    let mut baked = None;
    let mut pre_warnings = Vec::new();
    let mut notes = Vec::new();
    if writer.keyframes && model.frames.is_empty() && !model.joints.is_empty() {
        let b = crate::import::bake::bake_skeletal(model, options.fps)?;
        pre_warnings.extend(b.warnings.iter().cloned());
        notes.push(format!(
            "{} skeletal animations baked into {} frames",
            model.animations.len(),
            b.model.frames.len()
        ));
        baked = Some(b.model);
    }
    let model = baked.as_ref().unwrap_or(model);
    if writer.single_mesh && model.meshes.len() > 1 {
        pre_warnings.push(format!("{} meshes merged into one", model.meshes.len()));
    }
    let mut out = codec.write_model(model, writer.format, options)?;
    pre_warnings.append(&mut out.warnings);
    out.warnings = pre_warnings;
    notes.append(&mut out.notes);
    out.notes = notes;
    Ok(out)
}

/// Detects a registered format by magic.
pub fn detect(data: &[u8]) -> Option<(Format, &'static dyn Codec)> {
    CODECS.iter().find_map(|c| c.detect(data).map(|f| (f, *c)))
}

/// The error for an engine name the codec does not know.
pub(crate) fn unknown_engine(codec: &dyn Codec, engine: &str) -> String {
    let names: Vec<&str> = codec.engines().iter().map(|e| e.name).collect();
    format!(
        "unknown engine {engine:?} for {} ({})",
        codec.family(),
        names.join(", ")
    )
}

/// Declares a format folder's codec: the unit struct, its registered `CODEC` static, and the
/// `Codec` methods every format states the same way (name, formats, family, engines, the
/// folder's `fixtures::all()`), followed by the codec's own methods (`detect`, `parse`, ...).
macro_rules! codec {
    (
        $(#[$doc:meta])* $codec:ident {
            name: $name:expr,
            family: $family:expr,
            formats: $formats:expr,
            engines: $engines:expr,
        }
        $($methods:tt)*
    ) => {
        $(#[$doc])*
        pub struct $codec;

        /// The registered codec.
        pub static CODEC: $codec = $codec;

        impl $crate::registry::Codec for $codec {
            fn name(&self) -> &'static str {
                $name
            }
            fn formats(&self) -> &'static [$crate::registry::Format] {
                $formats
            }
            fn family(&self) -> &'static str {
                $family
            }
            fn engines(&self) -> &'static [$crate::registry::Engine] {
                $engines
            }
            fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
                super::fixtures::all()
            }
            $($methods)*
        }
    };
}
pub(crate) use codec;

/// Implements [`ParsedFile`] for a binary format's `File<'_>` through its folder's free
/// functions `to_model(file, options, resolver)` and `summary(file, converted)`, with the
/// format (`|file| expr`), the engine check (`|file, engine| expr`) and optionally the
/// file's default engine (`|file| expr`, a name) given.
macro_rules! binary_parsed_file {
    ($file:ident, |$this:pat_param| $format:expr, |$vthis:pat_param, $engine:pat_param| $validate:expr, |$dthis:pat_param| $default:expr) => {
        $crate::registry::binary_parsed_file!(@impl $file, |$this| $format, |$vthis, $engine| $validate,
            fn default_engine(&self) -> Option<&'static str> {
                let $dthis = self;
                Some($default)
            }
        );
    };
    ($file:ident, |$this:pat_param| $format:expr, |$vthis:pat_param, $engine:pat_param| $validate:expr) => {
        $crate::registry::binary_parsed_file!(@impl $file, |$this| $format, |$vthis, $engine| $validate,);
    };
    (@impl $file:ident, |$this:pat_param| $format:expr, |$vthis:pat_param, $engine:pat_param| $validate:expr, $($extra:item)*) => {
        impl $crate::registry::ParsedFile for $file<'_> {
            fn format(&self) -> $crate::registry::Format {
                let $this = self;
                $format
            }
            fn write(&self) -> Vec<u8> {
                $file::write(self)
            }
            fn to_model(
                &self,
                options: &$crate::ConvertOptions,
                resolver: &dyn $crate::Resolver,
            ) -> $crate::Converted {
                super::to_model(self, options, resolver)
            }
            fn summary(&self, converted: &$crate::Converted) -> $crate::Summary {
                super::summary(self, converted)
            }
            fn validate(&self, engine: &str) -> Vec<$crate::Diagnostic> {
                let ($vthis, $engine) = (self, engine);
                $validate
            }
            $($extra)*
        }
    };
}
pub(crate) use binary_parsed_file;

/// The `detect` method of a binary codec whose files start with a fixed magic.
macro_rules! detect_magic {
    ($magic:expr => $format:expr) => {
        fn detect(&self, data: &[u8]) -> Option<$crate::registry::Format> {
            data.starts_with($magic).then_some($format)
        }
    };
}
pub(crate) use detect_magic;

/// The `parse` method of a binary codec: the folder's `File::parse`.
macro_rules! parse_file {
    () => {
        fn parse<'a>(
            &self,
            data: &'a [u8],
            limits: &$crate::Limits,
        ) -> $crate::Result<Box<dyn $crate::registry::ParsedFile + 'a>> {
            Ok(Box::new(super::File::parse(data, limits)?))
        }
    };
}
pub(crate) use parse_file;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        let md2 = format_named("md2");
        let gs5 = format_named("gs-mdl5");
        let quake = format_named("quake-mdl");
        let is_writer = |t: Option<Target>, f: Option<Format>| matches!(t, Some(Target::Convert(w)) if Some(w.format) == f);
        // `--mdl` picks among the .mdl writers and is ignored for other extensions.
        assert!(is_writer(target_for("mdl", md2, Some("gs5")), gs5));
        assert!(is_writer(target_for("MD2", quake, Some("gs5")), md2));
        assert!(is_writer(target_for("mdl", md2, None), quake));
        // The input's own format is written back.
        assert_eq!(target_for("mdl", gs5, None), gs5.map(Target::WriteBack));
        assert_eq!(
            target_for("mdl", gs5, Some("gs5")),
            gs5.map(Target::WriteBack)
        );
        assert_eq!(
            target_for("hmp", md2, None),
            format_named("hmp").map(Target::ReadOnly)
        );
        assert_eq!(target_for("xyz", md2, None), None);
        assert_eq!(target_for("mdl", md2, Some("gs9")), None);
    }
}
