//! Valve SMD: the [`Codec`](crate::codec::Codec) that the format registry lists.
//!
//! Read: a reference SMD is a Model with its meshes, skeleton and the animation SMDs the
//! resolver lists (`--anim`, else the `.smd` files beside it); an animation SMD alone is a
//! skeleton with its one animation ([`super::convert::to_model`]). Written: the reference
//! SMD, with an animation SMD per skeletal animation (`STEM_ANIMATION.smd`, roots turned
//! back by studiomdl's 90°, see [`super`]) and the textures as 8-bit BMP files beside it
//! ([`super::from_model::from_model`]).

use super::{convert, fixtures, File, FORMAT};
use crate::codec::{self, Codec, Format, Output, ParsedFile, Writer};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{ConvertOptions, WriteOptions};
use crate::resolve::Resolver;
use crate::summary::{Summary, Value};

/// Valve SMD (studiomdl data): a reference or animation SMD.
pub const SMD: Format = Format::new(FORMAT, "Valve SMD (studiomdl data)", &["smd"]);

/// The SMD codec.
pub struct SmdCodec;

/// The registered SMD codec.
pub static CODEC: SmdCodec = SmdCodec;

const ENGINES: &[codec::Engine] = &[crate::formats::goldsrc::STUDIOMDL];

/// What studiomdl needs: a skeleton of at most GoldSrc's 128 bones (keyframe models get
/// fitted bones), Half-Life's 40 units a metre.
const WRITERS: [Writer; 1] = [Writer {
    format: SMD,
    variant: "",
    keyframes: false,
    single_mesh: false,
    fit: codec::Fit {
        units_per_metre: 40,
        skeleton: true,
        max_joints: crate::formats::goldsrc::from_model::MAX_BONES,
        ..codec::Fit::NONE
    },
}];

impl Codec for SmdCodec {
    fn name(&self) -> &'static str {
        FORMAT
    }
    fn formats(&self) -> &'static [Format] {
        &[SMD]
    }
    fn family(&self) -> &'static str {
        "Valve SMD"
    }
    fn engines(&self) -> &'static [codec::Engine] {
        ENGINES
    }
    /// The first statement, after a BOM, blanks and `//` comment lines, is `version` and a
    /// number.
    fn detect(&self, data: &[u8]) -> Option<Format> {
        let mut text = crate::io::magic::skip_bom_and_space(data);
        while text.starts_with(b"//") {
            let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
            text = crate::io::magic::skip_bom_and_space(&text[end..]);
        }
        let rest = text.strip_prefix(b"version")?;
        let rest = rest
            .strip_prefix(b" ")
            .or_else(|| rest.strip_prefix(b"\t"))?;
        rest.trim_ascii_start()
            .first()
            .is_some_and(u8::is_ascii_digit)
            .then_some(SMD)
    }
    fn byte_exact(&self) -> bool {
        false
    }
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        Ok(Box::new(File::parse(data, limits)?))
    }
    fn writers(&self) -> &'static [Writer] {
        &WRITERS
    }
    fn write_model(
        &self,
        model: &Model,
        _format: Format,
        options: &WriteOptions,
    ) -> Result<Output> {
        let (file, mut out) = super::from_model::from_model(model, options)?;
        out.bytes = file.write();
        Ok(out)
    }
    fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
        fixtures::all()
    }
}

impl ParsedFile for File {
    fn format(&self) -> Format {
        SMD
    }
    fn write(&self) -> Vec<u8> {
        File::write(self)
    }
    fn to_model(&self, _options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
        convert::to_model(self, resolver)
    }
    fn summary(&self, converted: &Converted) -> Summary {
        let kind = if self.triangles.is_empty() {
            "animation"
        } else {
            "reference"
        };
        Summary {
            header: vec![
                ("kind", Value::Text(kind.to_string())),
                ("nodes", Value::Int(self.nodes.len() as i64)),
                ("skeleton_frames", Value::Int(self.frames.len() as i64)),
                ("triangles", Value::Int(self.triangles.len() as i64)),
            ],
            version: 1,
            ..Summary::of_model(FORMAT, converted)
        }
    }
    fn validate(&self, _engine: &str) -> Vec<Diagnostic> {
        Vec::new()
    }
}
