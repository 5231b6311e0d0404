//! 3D GameStudio MDL2..MDL5: the [`Codec`](crate::codec::Codec) that the format registry lists.

use super::{fixtures, from_model, summary, to_model, File, FORMATS};
use crate::codec::{binary_parsed_file, codec, parse_file, Format, Output, Writer};
use crate::error::Result;
use crate::model::Model;
use crate::options::WriteOptions;

/// 3D GameStudio MDL2..MDL5, by version (index 0 is MDL2).
pub const GS_MDL: [Format; 4] = [
    Format::new(FORMATS[0], "3D GameStudio MDL", &["mdl"]),
    Format::new(FORMATS[1], "3D GameStudio MDL", &["mdl"]),
    Format::new(FORMATS[2], "3D GameStudio MDL", &["mdl"]),
    Format::new(FORMATS[3], "3D GameStudio MDL", &["mdl"]),
];

/// The format of a 3D GameStudio MDL of `version` 2..=5.
pub fn format(version: u8) -> Option<Format> {
    GS_MDL.get(usize::from(version).checked_sub(2)?).copied()
}

pub use crate::formats::shared::engines::ACKNEX;

codec! {
    /// The 3D GameStudio MDL2..MDL5 codec.
    GsMdlCodec {
        name: super::FORMAT,
        family: "3D GameStudio files",
        formats: &GS_MDL,
        engines: ACKNEX,
    }
    parse_file!();
    fn detect(&self, data: &[u8]) -> Option<Format> {
        match data.get(..4)? {
            [b'M', b'D', b'L', d @ b'2'..=b'5'] => format(d - b'0'),
            _ => None,
        }
    }
    fn writers(&self) -> &'static [Writer] {
        &[
            Writer {
                format: GS_MDL[1],
                variant: "gs3",
                keyframes: true,
                single_mesh: true,
                fit: crate::codec::Fit { one_skin: true, skin_align: 4, ..crate::codec::Fit::KEYFRAMES },
            },
            Writer {
                format: GS_MDL[2],
                variant: "gs4",
                keyframes: true,
                single_mesh: true,
                fit: crate::codec::Fit { one_skin: true, skin_align: 4, ..crate::codec::Fit::KEYFRAMES },
            },
            Writer {
                format: GS_MDL[3],
                variant: "gs5",
                keyframes: true,
                single_mesh: true,
                fit: crate::codec::Fit { one_skin: true, skin_align: 4, ..crate::codec::Fit::KEYFRAMES },
            },
        ]
    }
    fn write_model(&self, model: &Model, format: Format, options: &WriteOptions) -> Result<Output> {
        let version = (2u8..=5)
            .find(|&v| self::format(v) == Some(format))
            .unwrap_or(5);
        Ok(Output::written(from_model(model, options, version)?, File::write))
    }
}

binary_parsed_file!(
    File,
    |file| format(file.header.version).unwrap_or(GS_MDL[3]),
    |_, _| Vec::new()
);
