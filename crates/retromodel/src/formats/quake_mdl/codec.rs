//! Quake MDL in the [format registry](crate::registry).

use super::{from_model, summary, to_model, validate, Engine, File, FORMAT};
use crate::registry::{self, Codec, Format, Output, ParsedFile, Writer};
use crate::{
    ConvertOptions, Converted, Diagnostic, Limits, Model, Resolver, Result, Summary, WriteOptions,
};

/// Quake MDL (`IDPO`, version 6).
pub const QUAKE_MDL: Format = Format::new(FORMAT, "Quake MDL", &["mdl"]);

/// The Quake MDL codec.
pub struct QuakeMdlCodec;

/// The registered Quake MDL codec.
pub static CODEC: QuakeMdlCodec = QuakeMdlCodec;

const ENGINES: &[registry::Engine] = &[
    registry::Engine {
        name: "quakespasm",
        description: "QuakeSpasm (the default for Quake MDL)",
    },
    registry::Engine {
        name: "quake",
        description: "id Software's software-rendered Quake (WinQuake)",
    },
    registry::Engine {
        name: "glquake",
        description: "id Software's GLQuake",
    },
];

impl Codec for QuakeMdlCodec {
    fn name(&self) -> &'static str {
        FORMAT
    }
    fn formats(&self) -> &'static [Format] {
        &[QUAKE_MDL]
    }
    fn family(&self) -> &'static str {
        "Quake MDL"
    }
    fn engines(&self) -> &'static [registry::Engine] {
        ENGINES
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        data.starts_with(b"IDPO").then_some(QUAKE_MDL)
    }
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        Ok(Box::new(File::parse(data, limits)?))
    }
    fn writers(&self) -> &'static [Writer] {
        &[Writer {
            format: QUAKE_MDL,
            variant: "quake",
            keyframes: true,
        }]
    }
    fn write_model(&self, model: &Model, _: Format, options: &WriteOptions) -> Result<Output> {
        let w = from_model(model, options)?;
        Ok(Output {
            bytes: w.file.write(),
            warnings: w.warnings,
            frame_errors: w.frame_errors,
            ..Output::default()
        })
    }
    fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
        super::fixtures::all()
    }
    fn sample(&self) -> Option<Vec<u8>> {
        let spec = super::fixtures::Spec {
            skin_width: 64,
            skin_height: 32,
            ..super::fixtures::Spec::everything()
        };
        Some(super::fixtures::build(&spec).write())
    }
}

impl ParsedFile for File<'_> {
    fn format(&self) -> Format {
        QUAKE_MDL
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
    fn validate(&self, engine: &str) -> Vec<Diagnostic> {
        let e = match engine {
            "quake" => Engine::Quake,
            "glquake" => Engine::GlQuake,
            _ => Engine::QuakeSpasm,
        };
        validate(self, e)
    }
}
