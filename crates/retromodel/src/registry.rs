//! The format registry: every format the crate reads is one [`Codec`] in [`CODECS`], and
//! everything that dispatches on formats reads from here — [`crate::document::Document`], detection,
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

pub use crate::codec::{
    Codec, Engine, Format, Kernel, Output, ParsedFile, Prepared, SideFile, Writer,
};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::{goldsrc, gs_mdl, gs_mdl7, hmp, iqm, md2, md3, md5, quake_mdl, smd, wmp};
#[cfg(feature = "gltf")]
use crate::interchange::gltf;
#[cfg(feature = "png")]
use crate::interchange::obj;
use crate::model::Model;
use crate::options::WriteOptions;

/// Every registered format, in detection order. Adding a format is one line here. The
/// interchange formats (glTF, OBJ) come after the classic ones, OBJ last of all: it has no
/// magic and is detected by its first statement.
pub static CODECS: &[&dyn Codec] = &[
    &quake_mdl::CODEC,
    &md2::CODEC,
    &md3::CODEC,
    &gs_mdl::CODEC,
    &gs_mdl7::CODEC,
    &hmp::CODEC,
    &wmp::CODEC,
    &md5::CODEC,
    &iqm::CODEC,
    &goldsrc::CODEC,
    &smd::CODEC,
    &goldsrc::qc::CODEC,
    #[cfg(feature = "gltf")]
    &gltf::CODEC,
    #[cfg(feature = "png")]
    &obj::CODEC,
];

/// Every kernel of every codec.
pub fn kernels() -> impl Iterator<Item = &'static Kernel> {
    CODECS.iter().flat_map(|c| c.kernels())
}

/// Runs `kernel`'s untimed set-up on one input file: [`Kernel::prepare`] with a reader of
/// any registered format (the GL command kernel takes other formats converted to MD2).
pub fn prepare_kernel(
    kernel: &Kernel,
    data: &[u8],
    resolver: &dyn crate::resolve::Resolver,
) -> Result<Option<Prepared>> {
    (kernel.prepare)(data, resolver, &|bytes, limits| {
        let (_, codec) = detect_codec(bytes).ok_or_else(|| {
            Error::new(
                "unknown",
                ErrorKind::BadMagic,
                "not a known model format".to_string(),
                Location::None,
            )
        })?;
        Ok(codec
            .parse(bytes, limits)?
            .to_model(&Default::default(), &crate::resolve::NoFiles)
            .model)
    })
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

/// Whether `format`'s codec is an interchange one ([`Codec::interchange`]).
pub fn is_interchange(format: Format) -> bool {
    codec_for(format).is_some_and(|c| c.interchange())
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
/// an input written to one of its own format's extensions is written back (unless it is an
/// interchange format, [`Codec::interchange`], which is written anew); otherwise the
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
        return Some(if Some(w.format) == input && !is_interchange(w.format) {
            Target::WriteBack(w.format)
        } else {
            Target::Convert(w)
        });
    }
    if let Some(f) = input.filter(|f| f.extensions().contains(&ext.as_str()) && !is_interchange(*f))
    {
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
/// writing back), each once: for help and error texts. The classic formats' first, then the
/// interchange formats'.
pub fn target_extensions() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let classic = |c: &&&dyn Codec| !c.interchange();
    let all = CODECS
        .iter()
        .filter(classic)
        .flat_map(|c| c.writers())
        .flat_map(|w| w.format.extensions().first())
        .chain(
            CODECS
                .iter()
                .filter(classic)
                .flat_map(|c| c.formats())
                .flat_map(|f| f.extensions()),
        )
        .chain(
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

/// Writes any [`Model`] as `writer`'s format: the model is first fitted to the target
/// ([`crate::conform`]: placed and sized, skeletal animation baked and clips resampled to
/// the target's rate for keyframe formats, frame names fitted, skins sized), several
/// meshes are merged (with a warning), then the codec writes the file and its side files.
pub fn write_model(model: &Model, writer: &Writer, options: &WriteOptions) -> Result<Output> {
    let codec = codec_for(writer.format).ok_or_else(|| {
        Error::new(
            writer.format.name(),
            ErrorKind::Unsupported,
            format!("{} is not registered", writer.format.description()),
            Location::None,
        )
    })?;
    let fitted = crate::conform::conform(model, writer, options)?;
    let model = fitted.model.as_ref();
    let mut pre_warnings = fitted.warnings;
    if writer.single_mesh && model.meshes.len() > 1 {
        pre_warnings.push(format!("{} meshes merged into one", model.meshes.len()));
    }
    let mut out = codec.write_model(model, writer.format, options)?;
    out.frame_names = model.frames.iter().map(|f| f.name.clone()).collect();
    if out.frame_errors.is_empty() && !fitted.frame_errors.is_empty() {
        // Bones fitted or joints merged: the frames' shape error, as quantisation's.
        out.frame_errors = fitted.frame_errors;
        out.frame_names = fitted.frame_names;
    }
    pre_warnings.append(&mut out.warnings);
    out.warnings = pre_warnings;
    let mut notes = fitted.notes;
    notes.append(&mut out.notes);
    out.notes = notes;
    let mut details = fitted.details;
    details.append(&mut out.details);
    out.details = details;
    Ok(out)
}

/// `data` (any registered format) with skin `index` replaced by `picture`
/// ([`Codec::replace_skin`]: Quake MDL in the file, MD2 as the PCX its skin path names, MD3
/// as the picture its surfaces' shader names).
pub fn replace_skin(
    data: &[u8],
    index: usize,
    picture: &crate::image::Image,
    options: &WriteOptions,
) -> Result<Output> {
    let Some((_, codec)) = detect_codec(data) else {
        return Err(Error::new(
            "skins",
            ErrorKind::Unsupported,
            "not a model file of a known format".to_string(),
            Location::Offset(0),
        ));
    };
    codec.replace_skin(data, index, picture, options)
}

/// The codec that owns the engine called `name` (the first that lists it).
pub fn codec_of_engine(name: &str) -> Option<&'static dyn Codec> {
    CODECS
        .iter()
        .copied()
        .find(|c| c.engines().iter().any(|e| e.name == name))
}

/// The registered codec that detects `data` (by magic, or by content for text formats),
/// with the format it detected.
pub fn detect_codec(data: &[u8]) -> Option<(Format, &'static dyn Codec)> {
    CODECS.iter().find_map(|c| c.detect(data).map(|f| (f, *c)))
}

// Detection by magic bytes (and, for text formats, content): `.mdl` alone can be Quake
// (`IDPO`), 3D GameStudio (`MDL2`..`MDL7`), Half-Life (`IDST`) or even Quake 3 (`IDP3`)
// data, so the first bytes decide. Each codec detects its own formats; the formats known by
// their magic but not read are listed once, in `io::magic` (below the formats, whose parsers
// name a wrong file's format from it), so that they get a clear "not supported" message.

pub use crate::io::magic::{describe, show_magic};

/// The [`Format`] of a format only detected (`io::magic`'s table).
const fn detected_format(f: crate::io::magic::DetectedOnly) -> Format {
    Format::detected_only(f.name, f.description, f.extensions)
}

/// 3D GameStudio MDL6 (`MDL6`): detected, not read.
pub const GS_MDL6: Format = detected_format(crate::io::magic::GS_MDL6);
/// 3D GameStudio binary level (`WMPB`): detected, not read yet.
pub const WMP_BINARY: Format = detected_format(crate::io::magic::WMP_BINARY);

/// Detects a format from the first bytes of a file: a registered codec's, or one of the
/// formats known by their magic but not read ([`crate::io::magic::DETECTED_ONLY`], checked
/// after the codecs).
pub fn detect(data: &[u8]) -> Option<Format> {
    if let Some((f, _)) = detect_codec(data) {
        return Some(f);
    }
    crate::io::magic::detected_only(data).map(detected_format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::md3::MD3;
    use crate::formats::{gs_mdl, quake_mdl, wmp};

    #[test]
    fn detects_by_magic() {
        assert_eq!(detect(b"IDPO\x06\0\0\0"), Some(quake_mdl::QUAKE_MDL));
        assert_eq!(detect(b"IDP3"), Some(MD3));
        assert_eq!(detect(b"MDL5...."), gs_mdl::format(5));
        assert_eq!(detect(b"MDL9"), None);
        assert_eq!(
            detect(b"\xEF\xBB\xBF\r\nMD5Version 10\nnumJoints 1\nnumMeshes 1"),
            format_named("md5mesh")
        );
        assert_eq!(
            detect(b"// exported\ncommandline \"\"\nnumFrames 2\nhierarchy {"),
            format_named("md5anim")
        );
        assert_eq!(
            detect(b"MD5Version 10\nnumFrames 1\nnumCuts 0"),
            format_named("md5camera")
        );
        // A keyword inside a quoted name or after another keyword does not count.
        assert_eq!(
            detect(b"MD5Version 10\nnumJoints 1\nnumMeshes 0\njoints {\n\t\"camera\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"),
            format_named("md5mesh")
        );
        // Old Mac line endings: the keywords still start lines.
        assert_eq!(
            detect(b"MD5Version 10\rnumFrames 2\rnumJoints 1\rhierarchy {\r"),
            format_named("md5anim")
        );
        assert_eq!(detect(b"ID"), None);
        assert_eq!(detect(b"// WMP2\r\n// WED"), Some(wmp::WMP));
        assert!(MD3.is_supported());
        assert!(wmp::WMP.is_supported());
    }

    /// The magic table that parsers name a wrong file's format from (`io::magic`, below the
    /// formats) says what the codecs' own detection says of every fixture.
    #[test]
    fn magic_table_matches_detection() {
        let mut binary = 0;
        for codec in codecs() {
            for (name, bytes) in codec.fixtures() {
                let Some(magic) = bytes.get(..4) else {
                    continue;
                };
                if let Some((format, _)) = detect_codec(magic) {
                    binary += 1;
                    assert_eq!(
                        crate::io::magic::describe(magic),
                        format!("this is {}", format.description()),
                        "{name}"
                    );
                }
            }
        }
        assert!(binary > 20, "{binary} binary fixtures");
        assert!(codecs()
            .iter()
            .flat_map(|c| c.formats())
            .all(|f| f.is_supported()));
        // Every format only detected: no codec reads its magic, detection gives it, unread.
        for (magic, only) in crate::io::magic::DETECTED_ONLY {
            let format = detect(&magic[..]).expect("detected");
            assert!(detect_codec(&magic[..]).is_none(), "{}", only.name);
            assert!(!format.is_supported());
            assert_eq!(format.name(), only.name);
            assert_eq!(
                crate::io::magic::describe(&magic[..]),
                format!(
                    "this is a {} file, which is not supported",
                    format.description()
                )
            );
        }
    }

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
