//! 3D GameStudio MDL7: the [`Codec`](crate::codec::Codec) that the format registry lists.

use super::{fixtures, summary, to_model, File, FORMAT};
use crate::codec::{binary_parsed_file, codec, detect_magic, parse_file, Format};
use crate::formats::shared::engines::ACKNEX;

/// 3D GameStudio MDL7 (`MDL7`).
pub const GS_MDL7: Format = Format::new(FORMAT, "3D GameStudio MDL", &["mdl"]);

codec! {
    /// The MDL7 codec (read and written back; not written from a Model).
    GsMdl7Codec {
        name: FORMAT,
        family: "3D GameStudio files",
        formats: &[GS_MDL7],
        engines: ACKNEX,
    }
    parse_file!();
    detect_magic!(b"MDL7" => GS_MDL7);
}

binary_parsed_file!(File, |_| GS_MDL7, |_, _| Vec::new());
