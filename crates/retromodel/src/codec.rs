//! The contract every format implements: a [`Codec`] (what it detects, parses, validates and
//! writes) and its [`ParsedFile`]s, with the values they exchange ([`Format`], [`Engine`],
//! [`Writer`], [`Output`], [`SideFile`], [`Kernel`]).
//!
//! Formats (`formats/`, `interchange/`) implement this module and import it and what lies
//! below it, never the registry (`registry.rs`), which lists them; the Python package binds to the
//! same contract.

use std::fmt;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{ConvertOptions, WriteOptions, Written};
use crate::resolve::Resolver;
use crate::summary::Summary;

/// A file format: a short name for messages and `--json`, a description in words, and the
/// file extensions it is found under, and whether a codec reads it. Two formats are equal
/// when all four are.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Format {
    name: &'static str,
    description: &'static str,
    extensions: &'static [&'static str],
    read: bool,
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
            read: true,
        }
    }

    /// A format known by its magic but read by no codec (MDL6, binary WMP):
    /// detected so that it gets a clear "not supported" message.
    pub const fn detected_only(
        name: &'static str,
        description: &'static str,
        extensions: &'static [&'static str],
    ) -> Format {
        Format {
            read: false,
            ..Format::new(name, description, extensions)
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

    /// Whether a codec reads the format (every format but those [`Format::detected_only`]).
    pub fn is_supported(self) -> bool {
        self.read
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
    /// What the target's engines need of a model (playback rate, frame names, one skin,
    /// skin sizes, size in units): `registry::write_model` fits the model to it first.
    pub fit: Fit,
}

/// What a target format and its engines need of a model beyond what its writer checks:
/// `registry::write_model` fits any model to it before the codec writes (clips resampled to
/// the rate, frame names made unique within the name length, textures packed into one skin,
/// skins resampled to the size limit, metres turned into units).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    /// The rate, in frames per second, at which the engines play the format's frames when
    /// the file stores none (Quake MDL, MD2, MD3 and 3D GameStudio MDL: the game code steps
    /// frames at 10 Hz); clips at other rates are resampled to it. `None` where the file
    /// stores rates or times (MD5 `frameRate`, glTF) or holds one pose (OBJ).
    pub fps: Option<u32>,
    /// The file stores per-frame times (Quake MDL frame groups): clips with frame times
    /// are written as they are rather than resampled.
    pub frame_times: bool,
    /// Longest frame name in bytes (15 in a 16-byte field with its NUL); 0: no limit.
    pub name_bytes: usize,
    /// The model shows one skin: several textures are packed into one atlas.
    pub one_skin: bool,
    /// Largest skin `[width, height]` the engines take (Quake's `MAX_LBM_HEIGHT` 480).
    pub max_skin: [u32; 2],
    /// Skin widths are a multiple of this (software Quake: 4).
    pub skin_align: u32,
    /// Most vertices and triangles an engine takes in one mesh (ioquake3: 999 and 1999 an
    /// MD3 surface): larger meshes are split into several.
    pub max_mesh: [usize; 2],
    /// Units per metre of the game (Quake's player is 56 units tall: 32), for models in
    /// metres (glTF, OBJ); 0 where units are metres.
    pub units_per_metre: u32,
    /// The format stores only skeletal animation (MD5): a keyframe model is written in
    /// skeletal form, one joint per vertex ([`crate::model::rig::vertex_rig`]).
    pub skeleton: bool,
    /// Most joints the format takes (GoldSrc's `MAXSTUDIOBONES`, 128); 0: no limit. A
    /// keyframe model with more vertices than this gets rigid bones fitted to its motion
    /// ([`crate::model::fit_bones`]) instead of a joint per vertex.
    pub max_joints: usize,
}

impl Fit {
    /// No needs: interchange formats and formats that store what they play.
    pub const NONE: Fit = Fit {
        fps: None,
        frame_times: false,
        name_bytes: 0,
        one_skin: false,
        max_skin: [u32::MAX, u32::MAX],
        skin_align: 1,
        max_mesh: [usize::MAX, usize::MAX],
        units_per_metre: 0,
        skeleton: false,
        max_joints: 0,
    };

    /// The Quake family's keyframe formats: 10 frames a second, 16-byte frame names, Quake's
    /// 32 units a metre, skins as they are (writers of one-skin formats set `one_skin` and
    /// the limits).
    pub const KEYFRAMES: Fit = Fit {
        fps: Some(10),
        frame_times: false,
        name_bytes: 15,
        one_skin: false,
        max_skin: [u32::MAX, u32::MAX],
        skin_align: 1,
        max_mesh: [usize::MAX, usize::MAX],
        units_per_metre: 32,
        skeleton: false,
        max_joints: 0,
    };
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
    /// The names of the frames of the model as written (fitted to the target: resampled,
    /// renamed), one per entry of `frame_errors`; filled in by `registry::write_model`.
    pub frame_names: Vec<String>,
    /// Details for a verbose report (`convert -v`: a quantised glTF's grid and largest error
    /// per mesh), said of the written file: a line that starts with a space continues the
    /// report, any other is a statement about the file (the command line puts the output's
    /// path before it).
    pub details: Vec<String>,
    /// What was written, in the writer's own words for a closing line (`1234 bytes,
    /// embedded`; `frame 0, 1 skins`), counting the side files; `None`: the size says it.
    pub summary: Option<String>,
}

impl Output {
    /// The output of a writer that builds one file from a model ([`Written`]): its bytes
    /// (`write`), warnings and frame errors, and nothing beside it.
    pub fn written<T>(w: Written<T>, write: impl FnOnce(&T) -> Vec<u8>) -> Output {
        Output {
            bytes: write(&w.file),
            warnings: w.warnings,
            frame_errors: w.frame_errors,
            ..Output::default()
        }
    }
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
    ///
    /// Text formats detect by content instead: a keyword only they open with (`MD5Version`,
    /// a glTF JSON object with an `"asset"`). A format with no magic and no keyword of its
    /// own (Wavefront OBJ: lines of `v`, `vt`, `f`, `mtllib` ... statements) is detected by
    /// what its first statement is, and its codec is registered last, so that every other
    /// codec has looked at the bytes first and it never claims another format's file.
    fn detect(&self, data: &[u8]) -> Option<Format>;

    /// An interchange format (glTF, OBJ): a parsed file keeps its bytes and is imported in
    /// [`ParsedFile::to_model`]; converting it to its own format builds the file anew from
    /// its Model rather than writing it back (its writers take options, and a file may
    /// refer to side files that are not part of its bytes); and a batch conversion takes
    /// such files only into keyframe formats. `false` for the classic formats.
    fn interchange(&self) -> bool {
        false
    }

    /// Whether a parsed file writes back byte for byte ([`ParsedFile::write`]); text formats
    /// write back value for value, and then writing what they wrote back is stable.
    fn byte_exact(&self) -> bool {
        true
    }

    /// Parses a file that [`Codec::detect`] accepted.
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>>;

    /// [`Codec::parse`] of bytes held by reference count: a format whose Model keeps parts
    /// of its input (IQM's frames, until first read) shares them instead of copying them.
    /// By default the same as [`Codec::parse`].
    fn parse_shared<'a>(
        &self,
        data: &'a crate::io::SharedBytes,
        limits: &Limits,
    ) -> Result<Box<dyn ParsedFile + 'a>> {
        self.parse(data, limits)
    }

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
    /// models with frames (see `registry::write_model`, which bakes skeletal animation first).
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

    /// The file `data` (one of this codec's formats) with skin `index` replaced by `picture`,
    /// everything else kept as stored: the new main file and any pictures written beside it
    /// (an MD2's PCX, an MD3 surface's picture), said in warnings where the picture was
    /// resampled or its colours matched to a palette (`options.palette`, `dither`,
    /// `fullbrights`). By default: not supported for the format.
    fn replace_skin(
        &self,
        data: &[u8],
        index: usize,
        picture: &crate::image::Image,
        options: &WriteOptions,
    ) -> Result<Output> {
        let _ = (index, picture, options);
        let name = self.detect(data).map_or(self.name(), |f| f.name());
        Err(Error::new(
            name,
            ErrorKind::Unsupported,
            format!(
                "replacing a skin of a {} file is not supported",
                self.family()
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
    /// `None`: the kernel does not apply to this file (it is left out). The third argument
    /// reads a file of any registered format into a Model (for kernels that take other
    /// formats converted); `registry::prepare_kernel` passes it.
    pub prepare: PrepareFn,
}

/// Reads a file of any registered format into a Model with default options (what
/// `retromodel::read` does), handed to [`Kernel::prepare`] by the registry.
pub type ReadAny = dyn Fn(&[u8], &Limits) -> Result<Model>;

/// [`Kernel::prepare`]: the input's bytes, its side files and a reader of any format.
pub type PrepareFn = fn(&[u8], &dyn Resolver, &ReadAny) -> Result<Option<Prepared>>;

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

/// A parsed file of some format, still in its own raw structures.
pub trait ParsedFile: fmt::Debug + Send + Sync {
    /// The file's format.
    fn format(&self) -> Format;

    /// The file's bytes. Binary formats come back byte for byte, text formats value for
    /// value (MD5) or token for token (WMP).
    fn write(&self) -> Vec<u8>;

    /// Converts to the format-neutral model; side files come through `resolver`. A file
    /// implements this or [`ParsedFile::try_to_model`] (each defaults to the other, so one
    /// that implements neither recurses forever): by default `try_to_model`'s model, or an
    /// empty model with the error as its warning.
    fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
        self.try_to_model(options, resolver)
            .unwrap_or_else(|e| Converted {
                model: Model::default(),
                warnings: vec![e.to_string()],
            })
    }

    /// [`ParsedFile::to_model`], failing where the file cannot give a model at all (an
    /// interchange file whose buffer is missing). By default `to_model`'s result: the classic
    /// formats check everything when parsing.
    fn try_to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Result<Converted> {
        Ok(self.to_model(options, resolver))
    }

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

    /// For a script compiled when converted (a Half-Life QC): the format and bytes of the
    /// file its last conversion compiled, which a target of that format writes as it is,
    /// and the files the script asked for beside it (named after the script's model; a
    /// save renames them after its output).
    fn compiled(&self) -> Option<(Format, Vec<u8>, Vec<SideFile>)> {
        None
    }
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
///
/// The names these macros call (`fixtures`, `to_model`, `summary`, `File`) are those in scope
/// where they are invoked: the format's `codec.rs` imports them from its folder.
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

        impl crate::codec::Codec for $codec {
            fn name(&self) -> &'static str {
                $name
            }
            fn formats(&self) -> &'static [crate::codec::Format] {
                $formats
            }
            fn family(&self) -> &'static str {
                $family
            }
            fn engines(&self) -> &'static [crate::codec::Engine] {
                $engines
            }
            fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
                fixtures::all()
            }
            $($methods)*
        }
    };
}
pub(crate) use codec;

/// Implements [`ParsedFile`] for a binary format's `File<'_>` (or, written
/// `impl<L: Bound> Type<'_, L>`, for a file type generic over its layout) through its folder's
/// free functions `to_model(file, options, resolver)` and `summary(file, converted)`, with the
/// format (`|file| expr`), the engine check (`|file, engine| expr`) and optionally the file's
/// default engine (`|file| expr`, a name) given.
macro_rules! binary_parsed_file {
    (impl<$($g:ident: $b:path),*> $ty:ty, |$this:pat_param| $format:expr, |$vthis:pat_param, $engine:pat_param| $validate:expr, |$dthis:pat_param| $default:expr) => {
        crate::codec::binary_parsed_file!(@impl [$($g: $b),*] $ty, |$this| $format, |$vthis, $engine| $validate,
            fn default_engine(&self) -> Option<&'static str> {
                let $dthis = self;
                Some($default)
            }
        );
    };
    (impl<$($g:ident: $b:path),*> $ty:ty, |$this:pat_param| $format:expr, |$vthis:pat_param, $engine:pat_param| $validate:expr) => {
        crate::codec::binary_parsed_file!(@impl [$($g: $b),*] $ty, |$this| $format, |$vthis, $engine| $validate,);
    };
    ($file:ident, $($rest:tt)*) => {
        crate::codec::binary_parsed_file!(impl<> $file<'_>, $($rest)*);
    };
    (@impl [$($g:ident: $b:path),*] $ty:ty, |$this:pat_param| $format:expr, |$vthis:pat_param, $engine:pat_param| $validate:expr, $($extra:item)*) => {
        impl<$($g: $b),*> crate::codec::ParsedFile for $ty {
            fn format(&self) -> crate::codec::Format {
                let $this = self;
                $format
            }
            fn write(&self) -> Vec<u8> {
                <$ty>::write(self)
            }
            fn to_model(
                &self,
                options: &crate::options::ConvertOptions,
                resolver: &dyn crate::resolve::Resolver,
            ) -> crate::model::Converted {
                to_model(self, options, resolver)
            }
            fn summary(&self, converted: &crate::model::Converted) -> crate::summary::Summary {
                summary(self, converted)
            }
            fn validate(&self, engine: &str) -> Vec<crate::diagnostic::Diagnostic> {
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
        fn detect(&self, data: &[u8]) -> Option<crate::codec::Format> {
            data.starts_with($magic).then_some($format)
        }
    };
}
pub(crate) use detect_magic;

/// The `replace_skin` method of a codec that replaces skins, stated once:
/// `|data, index, picture, options| { body }` is [`Codec::replace_skin`]'s body (doc
/// comments before it go on the method).
macro_rules! replace_skin {
    ($(#[$doc:meta])* |$data:pat_param, $index:pat_param, $picture:pat_param, $options:pat_param| $body:block) => {
        $(#[$doc])*
        fn replace_skin(
            &self,
            $data: &[u8],
            $index: usize,
            $picture: &crate::image::Image,
            $options: &crate::options::WriteOptions,
        ) -> crate::error::Result<crate::codec::Output> $body
    };
}
pub(crate) use replace_skin;

/// The `parse` method of a binary codec: the folder's `File::parse`.
macro_rules! parse_file {
    () => {
        fn parse<'a>(
            &self,
            data: &'a [u8],
            limits: &crate::limits::Limits,
        ) -> crate::error::Result<Box<dyn crate::codec::ParsedFile + 'a>> {
            Ok(Box::new(File::parse(data, limits)?))
        }
    };
}
pub(crate) use parse_file;

/// The `parse` and `parse_as` methods of a codec of several formats: `parse_as` is
/// `|format, data, limits| expr` (a boxed [`ParsedFile`] of `format`), and `parse` parses
/// as the format [`Codec::detect`] names, `$default` when it names none.
macro_rules! parse_by_format {
    ($default:expr, |$format:pat_param, $data:ident, $limits:ident| $parse:expr) => {
        fn parse<'a>(
            &self,
            data: &'a [u8],
            limits: &crate::limits::Limits,
        ) -> crate::error::Result<Box<dyn crate::codec::ParsedFile + 'a>> {
            let format = crate::codec::Codec::detect(self, data).unwrap_or($default);
            crate::codec::Codec::parse_as(self, format, data, limits)
        }
        fn parse_as<'a>(
            &self,
            $format: crate::codec::Format,
            $data: &'a [u8],
            $limits: &crate::limits::Limits,
        ) -> crate::error::Result<Box<dyn crate::codec::ParsedFile + 'a>> {
            $parse
        }
    };
}
pub(crate) use parse_by_format;
