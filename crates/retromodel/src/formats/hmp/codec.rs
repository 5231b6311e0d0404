//! 3D GameStudio HMP terrains in the [format registry](crate::registry).

use super::{summary, to_model, File, FORMAT};
use crate::formats::gs_mdl::ACKNEX;
use crate::registry::{self, Codec, Format, ParsedFile};
use crate::{ConvertOptions, Converted, Diagnostic, Limits, Resolver, Result, Summary};

/// 3D GameStudio HMP terrain (`HMP4`, `HMP5`, `HMP7`).
pub const HMP: Format = Format::new(FORMAT, "3D GameStudio HMP terrain", &["hmp"]);

/// The HMP codec (read and written back; not written from a Model).
pub struct HmpCodec;

/// The registered HMP codec.
pub static CODEC: HmpCodec = HmpCodec;

impl Codec for HmpCodec {
    fn name(&self) -> &'static str {
        FORMAT
    }
    fn formats(&self) -> &'static [Format] {
        &[HMP]
    }
    fn family(&self) -> &'static str {
        "3D GameStudio files"
    }
    fn engines(&self) -> &'static [registry::Engine] {
        ACKNEX
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        matches!(data.get(..4)?, [b'H', b'M', b'P', b'4' | b'5' | b'7']).then_some(HMP)
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
        HMP
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
