//! Quake MDL and its variants: the [`Codec`](crate::codec::Codec) that the format registry lists.

use super::{
    fixtures, from_model, summary, to_model, validate, Engine, File, Hexen2File, Md16File,
    QTestFile, Variant, FORMAT, HEXEN2_FORMAT, MD16_FORMAT, QTEST_FORMAT,
};
use crate::codec::{self, binary_parsed_file, codec, Format, Output, ParsedFile, Writer};
use crate::error::Result;
use crate::limits::Limits;
use crate::model::Model;
use crate::options::WriteOptions;

/// Quake MDL (`IDPO`, version 6).
pub const QUAKE_MDL: Format = Format::new(FORMAT, "Quake MDL", &["mdl"]);
/// Hexen II's mission-pack MDL (`RAPO`, version 50): read and written back, not written from
/// a Model.
pub const HEXEN2_MDL: Format =
    Format::new(HEXEN2_FORMAT, "Hexen II mission-pack MDL (RAPO)", &["mdl"]);
/// QuakeForge's 16-bit MDL (`MD16`, version 6): read and written back, not written from a
/// Model.
pub const QUAKEFORGE_MD16: Format = Format::new(MD16_FORMAT, "QuakeForge MD16", &["mdl"]);
/// QTest's MDL (`IDPO`, version 3): read and written back, not written from a Model.
pub const QTEST_MDL: Format = Format::new(QTEST_FORMAT, "QTest MDL (version 3)", &["mdl"]);

/// The registered format of a variant.
pub fn format_of(variant: Variant) -> Format {
    match variant {
        Variant::Quake => QUAKE_MDL,
        Variant::QTest => QTEST_MDL,
        Variant::Md16 => QUAKEFORGE_MD16,
        Variant::Hexen2 => HEXEN2_MDL,
    }
}

impl Variant {
    /// The variant's registered format ([`QUAKE_MDL`], [`QTEST_MDL`], [`QUAKEFORGE_MD16`],
    /// [`HEXEN2_MDL`]).
    pub fn format(self) -> Format {
        format_of(self)
    }
}

const ENGINES: &[codec::Engine] = &[
    codec::Engine {
        name: "quakespasm",
        description: "QuakeSpasm (the default for Quake MDL)",
    },
    codec::Engine {
        name: "quake",
        description: "id Software's software-rendered Quake (WinQuake)",
    },
    codec::Engine {
        name: "glquake",
        description: "id Software's GLQuake",
    },
    codec::Engine {
        name: "hexen2",
        description: "Hexen II with its mission pack, uHexen2 (the default for RAPO files)",
    },
    codec::Engine {
        name: "fteqw",
        description: "FTEQW, which loads every variant (the default for QTest and MD16 files; \
                      quantity checks only)",
    },
];

/// Parses `data` as one variant, boxed for the registry.
fn parse_variant<'a>(
    variant: Variant,
    data: &'a [u8],
    limits: &Limits,
) -> Result<Box<dyn ParsedFile + 'a>> {
    Ok(match variant {
        Variant::Quake => Box::new(File::parse(data, limits)?),
        Variant::QTest => Box::new(QTestFile::parse(data, limits)?),
        Variant::Md16 => Box::new(Md16File::parse(data, limits)?),
        Variant::Hexen2 => Box::new(Hexen2File::parse(data, limits)?),
    })
}

codec! {
    /// The Quake MDL codec: Quake's `IDPO` version 6, and QTest's version 3, QuakeForge's
    /// `MD16` and Hexen II's `RAPO`.
    QuakeMdlCodec {
        name: FORMAT,
        family: "Quake MDL",
        formats: &[QUAKE_MDL, HEXEN2_MDL, QUAKEFORGE_MD16, QTEST_MDL],
        engines: ENGINES,
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        Variant::detect(data).map(format_of)
    }
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        parse_variant(Variant::detect(data).unwrap_or(Variant::Quake), data, limits)
    }
    fn parse_as<'a>(
        &self,
        format: Format,
        data: &'a [u8],
        limits: &Limits,
    ) -> Result<Box<dyn ParsedFile + 'a>> {
        let variant = [Variant::Quake, Variant::QTest, Variant::Md16, Variant::Hexen2]
            .into_iter()
            .find(|v| format_of(*v) == format)
            .unwrap_or(Variant::Quake);
        parse_variant(variant, data, limits)
    }
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

/// The engine named on the command line (a registered one; anything else is QuakeSpasm).
fn engine(name: &str) -> Engine {
    Engine::named(name).unwrap_or_default()
}

binary_parsed_file!(
    File,
    |_| QUAKE_MDL,
    |file, name| validate(file, engine(name)),
    |_| Engine::default_for(Variant::Quake).name()
);
binary_parsed_file!(
    QTestFile,
    |_| QTEST_MDL,
    |file, name| validate(file, engine(name)),
    |_| Engine::default_for(Variant::QTest).name()
);
binary_parsed_file!(
    Md16File,
    |_| QUAKEFORGE_MD16,
    |file, name| validate(file, engine(name)),
    |_| Engine::default_for(Variant::Md16).name()
);
binary_parsed_file!(
    Hexen2File,
    |_| HEXEN2_MDL,
    |file, name| validate(file, engine(name)),
    |_| Engine::default_for(Variant::Hexen2).name()
);
