//! [`Document`]: a parsed file of any registered format, dispatched by magic through the
//! [format registry](crate::registry).

use std::fmt;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::model::Converted;
use crate::options::{ConvertOptions, WriteOptions};
use crate::registry::{self, Codec, Format, ParsedFile};
use crate::registry::{detect, show_magic};
use crate::resolve::Resolver;
use crate::summary::Summary;

/// A parsed file, still in its own format's raw structures, with the codec that read it.
/// Use the format's typed API (`md2::File::parse`, ...) to reach the raw structures.
pub struct Document<'a> {
    codec: &'static dyn Codec,
    file: Box<dyn ParsedFile + 'a>,
}

/// The error for bytes of no registered format: an unsupported known one, empty, or unknown.
fn undetected(data: &[u8]) -> Error {
    match detect(data) {
        Some(f) => Error::new(
            f.name(),
            ErrorKind::Unsupported,
            format!("{} files are not supported yet", f.description()),
            Location::None,
        ),
        None if data.is_empty() => Error::new(
            "unknown",
            ErrorKind::Truncated,
            "empty file",
            Location::Offset(0),
        ),
        None => {
            let n = data.len().min(4);
            Error::new(
                "unknown",
                ErrorKind::BadMagic,
                format!(
                    "not a known model format (magic {})",
                    show_magic(&data[..n])
                ),
                Location::Offset(0),
            )
        }
    }
}

impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("codec", &self.codec.name())
            .field("file", &self.file)
            .finish()
    }
}

impl<'a> Document<'a> {
    /// Detects the format by magic and parses the file.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<Document<'a>> {
        if let Some((_, codec)) = registry::detect_codec(data) {
            let file = codec.parse(data, limits)?;
            return Ok(Document { codec, file });
        }
        Err(undetected(data))
    }

    /// [`Document::parse`] of bytes held by reference count: the Model may keep parts of
    /// them rather than copies (IQM's frames stay in the file's bytes until first read).
    /// The same document and model as [`Document::parse`] otherwise.
    ///
    /// ```
    /// use retromodel::{io::SharedBytes, Document, Limits, NoFiles};
    /// let bytes = SharedBytes::from(retromodel::formats::iqm::fixtures::skinned());
    /// let doc = Document::parse_shared(&bytes, &Limits::default())?;
    /// let model = doc.to_model(&Default::default(), &NoFiles).model;
    /// // The IQM fixture's animations: still the file's 16-bit channels, in `bytes`.
    /// assert!(model.animations.iter().all(|a| a.frames.is_stored()));
    /// assert_eq!(model.animations[0].frames.count(), 3);
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn parse_shared(data: &'a crate::io::SharedBytes, limits: &Limits) -> Result<Document<'a>> {
        if let Some((_, codec)) = registry::detect_codec(data) {
            let file = codec.parse_shared(data, limits)?;
            return Ok(Document { codec, file });
        }
        Err(undetected(data))
    }

    /// Parses `data` as `format` (a registered one) without detection: a damaged file is
    /// still judged as the format it came from.
    pub fn parse_as(format: Format, data: &'a [u8], limits: &Limits) -> Result<Document<'a>> {
        let codec = registry::codec_for(format).ok_or_else(|| {
            Error::new(
                format.name(),
                ErrorKind::Unsupported,
                format!("{} files are not supported yet", format.description()),
                Location::None,
            )
        })?;
        let file = codec.parse_as(format, data, limits)?;
        Ok(Document { codec, file })
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.file.format()
    }

    /// The codec that read the file.
    pub fn codec(&self) -> &'static dyn Codec {
        self.codec
    }

    /// The file's bytes. Binary formats come back byte for byte; MD5 text comes back value for
    /// value in id's layout (comments and spacing are not kept), WMP token for token.
    pub fn write(&self) -> Vec<u8> {
        self.file.write()
    }

    /// Converts to the format-neutral model. Side files (palettes, skins, an md5mesh's
    /// animations) come through `resolver`.
    ///
    /// With [`ConvertOptions::prefer_md5`], a Quake II MD2 or Quake MDL whose re-release MD5
    /// replacement the engine would use gives that ([`crate::rerelease::apply`]); one the
    /// engine would refuse is named in a warning with why, and the classic model is kept.
    pub fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
        let converted = self.file.to_model(options, resolver);
        crate::rerelease::replace_if_preferred(converted, self.format(), options, resolver)
    }

    /// [`Document::to_model`], failing where the file gives no model at all: an interchange
    /// file (glTF, OBJ) whose buffers, accessors or faces do not import (`to_model` then
    /// gives an empty model with the error as a warning). The classic formats never fail
    /// here: they check everything when parsing.
    pub fn try_to_model(
        &self,
        options: &ConvertOptions,
        resolver: &dyn Resolver,
    ) -> Result<Converted> {
        let converted = self.file.try_to_model(options, resolver)?;
        Ok(crate::rerelease::replace_if_preferred(
            converted,
            self.format(),
            options,
            resolver,
        ))
    }

    /// The format and bytes of the file a script's last conversion compiled, and the files
    /// beside it ([`ParsedFile::compiled`]).
    pub fn compiled(&self) -> Option<(Format, Vec<u8>, Vec<crate::codec::SideFile>)> {
        self.file.compiled()
    }

    /// The `info` summary, given the converted model.
    pub fn summary(&self, converted: &Converted) -> Summary {
        Summary {
            description: self.format().description(),
            ..self.file.summary(converted)
        }
    }

    /// What the parser read leniently (text formats).
    pub fn parse_warnings(&self) -> &[String] {
        self.file.parse_warnings()
    }

    /// The engine `validate` uses for this file when none is named: the file's own default
    /// where its format has one (`hexen2` for a Hexen II `RAPO` file), else its codec's first.
    pub fn default_engine(&self) -> &'static str {
        self.file
            .default_engine()
            .unwrap_or_else(|| self.codec.engines().first().map_or("", |e| e.name))
    }

    /// Checks the file against an engine's limits. `engine` is one of the codec's engines
    /// ([`Codec::engines`]: `quake`, `glquake`, `quakespasm` for MDL; `quake2`,
    /// `quake2-soft` for MD2; `doom3` for MD5; `acknex` for 3D GameStudio); `None` picks the
    /// format's default engine.
    ///
    /// An interchange file (glTF, OBJ) is also checked against the engines of the classic
    /// formats, as converted ([`Document::validate_with`], here without side files).
    pub fn validate(&self, engine: Option<&str>) -> Result<Vec<Diagnostic>, String> {
        self.validate_with(engine, &ConvertOptions::default(), &crate::resolve::NoFiles)
    }

    /// The format an interchange file is converted to when checked against `engine`, an
    /// engine of a classic format's codec ("will this load in QuakeSpasm?"): the first
    /// format that codec writes. `None` for the file's own engines, and for the classic
    /// formats, which are only checked against their own.
    pub fn checked_as(&self, engine: &str) -> Option<Format> {
        if !self.codec.interchange() || self.codec.engines().iter().any(|e| e.name == engine) {
            return None;
        }
        registry::codec_of_engine(engine)?
            .writers()
            .first()
            .map(|w| w.format)
    }

    /// [`Document::validate`] with the options and side files (a `.gltf`'s buffers, an OBJ's
    /// materials) an interchange file is imported with. Checked against an engine of
    /// another codec ([`Document::checked_as`]), an interchange file's model is written by
    /// that codec's first writer ([`registry::write_model`]), the result parsed and
    /// checked; each finding then starts with `as FORMAT: `.
    pub fn validate_with(
        &self,
        engine: Option<&str>,
        options: &ConvertOptions,
        resolver: &dyn Resolver,
    ) -> Result<Vec<Diagnostic>, String> {
        let engine = engine.unwrap_or(self.default_engine());
        let own = self.codec.engines().iter().any(|e| e.name == engine);
        if own && self.codec.interchange() {
            // The whole import, side files included.
            return Ok(match self.try_to_model(options, resolver) {
                Ok(c) => c.warnings.into_iter().map(Diagnostic::warning).collect(),
                Err(e) => vec![Diagnostic::error(e.to_string())],
            });
        }
        if own {
            return Ok(self.file.validate(engine));
        }
        let Some(format) = self.checked_as(engine) else {
            return Err(crate::codec::unknown_engine(self.codec, engine));
        };
        let writer = registry::writers()
            .find(|w| w.format == format)
            .ok_or_else(|| crate::codec::unknown_engine(self.codec, engine))?;
        let converted = self
            .try_to_model(options, resolver)
            .map_err(|e| e.to_string())?;
        let written = registry::write_model(&converted.model, writer, &WriteOptions::default())
            .map_err(|e| format!("as {}: {e}", format.description()))?;
        let doc = Document::parse_as(format, &written.bytes, &Limits::default())
            .map_err(|e| format!("as {}: {e}", format.description()))?;
        let mut diags = doc.validate(Some(engine))?;
        for d in &mut diags {
            d.message = format!("as {}: {}", format.description(), d.message);
        }
        Ok(diags)
    }
}
