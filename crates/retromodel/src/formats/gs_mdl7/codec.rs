//! 3D GameStudio MDL7 in the [format registry](crate::registry).

use super::{summary, to_model, File, FORMAT};
use crate::formats::gs_mdl::ACKNEX;
use crate::registry::{self, Codec, Format, ParsedFile};
use crate::{ConvertOptions, Converted, Diagnostic, Limits, Resolver, Result, Summary};

/// 3D GameStudio MDL7 (`MDL7`).
pub const GS_MDL7: Format = Format::new(FORMAT, "3D GameStudio MDL", &["mdl"]);

/// The MDL7 codec (read and written back; not written from a Model).
pub struct GsMdl7Codec;

/// The registered MDL7 codec.
pub static CODEC: GsMdl7Codec = GsMdl7Codec;

impl Codec for GsMdl7Codec {
    fn name(&self) -> &'static str {
        FORMAT
    }
    fn formats(&self) -> &'static [Format] {
        &[GS_MDL7]
    }
    fn family(&self) -> &'static str {
        "3D GameStudio files"
    }
    fn engines(&self) -> &'static [registry::Engine] {
        ACKNEX
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        data.starts_with(b"MDL7").then_some(GS_MDL7)
    }
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        Ok(Box::new(File::parse(data, limits)?))
    }
    fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
        super::fixtures::all()
    }
}

impl ParsedFile for File<'_> {
    fn format(&self) -> Format {
        GS_MDL7
    }
    fn write(&self) -> Vec<u8> {
        File::write(self)
    }
    fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
        to_model(self, options, resolver)
    }
    fn summary(&self, converted: &Converted) -> Summary {
        summary(self, converted)
    }
    fn validate(&self, _engine: &str) -> Vec<Diagnostic> {
        Vec::new()
    }
}
