//! 3D GameStudio text WMP levels: the [`Codec`](crate::codec::Codec) that the format registry lists.

use super::{parse, summary, to_model, write, Parsed, FORMAT};
use crate::codec::{self, Codec, Format, ParsedFile};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::formats::shared::engines::ACKNEX;
use crate::limits::Limits;
use crate::model::Converted;
use crate::options::ConvertOptions;
use crate::resolve::Resolver;
use crate::summary::Summary;

/// 3D GameStudio text WMP level (starts with a `// WMP` comment line).
pub const WMP: Format = Format::new(FORMAT, "3D GameStudio text WMP level", &["wmp"]);

/// The text WMP codec (read and written back token for token).
pub struct WmpCodec;

/// The registered text WMP codec.
pub static CODEC: WmpCodec = WmpCodec;

impl Codec for WmpCodec {
    fn name(&self) -> &'static str {
        FORMAT
    }
    fn formats(&self) -> &'static [Format] {
        &[WMP]
    }
    fn family(&self) -> &'static str {
        "3D GameStudio files"
    }
    fn engines(&self) -> &'static [codec::Engine] {
        ACKNEX
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        crate::io::magic::skip_bom_and_space(data)
            .starts_with(b"// WMP")
            .then_some(WMP)
    }
    fn byte_exact(&self) -> bool {
        false
    }
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        Ok(Box::new(parse(data, limits)?))
    }
    fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
        super::fixtures::all()
    }
}

impl ParsedFile for Parsed {
    fn format(&self) -> Format {
        WMP
    }
    fn write(&self) -> Vec<u8> {
        write(&self.file).into_bytes()
    }
    fn to_model(&self, _options: &ConvertOptions, _resolver: &dyn Resolver) -> Converted {
        to_model(&self.file, &self.warnings)
    }
    fn summary(&self, converted: &Converted) -> Summary {
        summary(&self.file, converted)
    }
    fn validate(&self, _engine: &str) -> Vec<Diagnostic> {
        Vec::new()
    }
    fn parse_warnings(&self) -> &[String] {
        &self.warnings
    }
}
