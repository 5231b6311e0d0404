//! Quake MDL in the [format registry](crate::registry).

use super::{from_model, validate, Engine, File, FORMAT};
use crate::registry::{
    self, binary_parsed_file, codec, detect_magic, parse_file, Format, Output, Writer,
};
use crate::{Model, Result, WriteOptions};

/// Quake MDL (`IDPO`, version 6).
pub const QUAKE_MDL: Format = Format::new(FORMAT, "Quake MDL", &["mdl"]);

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

codec! {
    /// The Quake MDL codec.
    QuakeMdlCodec {
        name: FORMAT,
        family: "Quake MDL",
        formats: &[QUAKE_MDL],
        engines: ENGINES,
    }
    parse_file!();
    detect_magic!(b"IDPO" => QUAKE_MDL);
    fn writers(&self) -> &'static [Writer] {
        &[Writer {
            format: QUAKE_MDL,
            variant: "quake",
            keyframes: true,
            single_mesh: true,
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
    fn sample(&self) -> Option<Vec<u8>> {
        let spec = super::fixtures::Spec {
            skin_width: 64,
            skin_height: 32,
            ..super::fixtures::Spec::everything()
        };
        Some(super::fixtures::build(&spec).write())
    }
}

binary_parsed_file!(File, |_| QUAKE_MDL, |file, engine| {
    let e = match engine {
        "quake" => Engine::Quake,
        "glquake" => Engine::GlQuake,
        _ => Engine::QuakeSpasm,
    };
    validate(file, e)
});
