//! [`Document`]: a parsed file of any registered format, dispatched by magic through the
//! [format registry](crate::registry).

use std::fmt;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::model::Converted;
use crate::options::ConvertOptions;
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
        match detect(data) {
            Some(f) => Err(Error::new(
                f.name(),
                ErrorKind::Unsupported,
                format!("{} files are not supported yet", f.description()),
                Location::None,
            )),
            None if data.is_empty() => Err(Error::new(
                "unknown",
                ErrorKind::Truncated,
                "empty file",
                Location::Offset(0),
            )),
            None => {
                let n = data.len().min(4);
                Err(Error::new(
                    "unknown",
                    ErrorKind::BadMagic,
                    format!(
                        "not a known model format (magic {})",
                        show_magic(&data[..n])
                    ),
                    Location::Offset(0),
                ))
            }
        }
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
    pub fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
        self.file.to_model(options, resolver)
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
    pub fn validate(&self, engine: Option<&str>) -> Result<Vec<Diagnostic>, String> {
        let engine = engine.unwrap_or(self.default_engine());
        if !self.codec.engines().iter().any(|e| e.name == engine) {
            return Err(crate::codec::unknown_engine(self.codec, engine));
        }
        Ok(self.file.validate(engine))
    }
}
