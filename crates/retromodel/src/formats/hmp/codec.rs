//! 3D GameStudio HMP terrains: the [`Codec`](crate::codec::Codec) that the format registry lists.

use super::{fixtures, summary, to_model, File, FORMAT};
use crate::codec::{binary_parsed_file, codec, parse_file, Format};
use crate::formats::shared::engines::ACKNEX;

/// 3D GameStudio HMP terrain (`HMP4`, `HMP5`, `HMP7`).
pub const HMP: Format = Format::new(FORMAT, "3D GameStudio HMP terrain", &["hmp"]);

codec! {
    /// The HMP codec (read and written back; not written from a Model).
    HmpCodec {
        name: FORMAT,
        family: "3D GameStudio files",
        formats: &[HMP],
        engines: ACKNEX,
    }
    parse_file!();
    fn detect(&self, data: &[u8]) -> Option<Format> {
        matches!(data.get(..4)?, [b'H', b'M', b'P', b'4' | b'5' | b'7']).then_some(HMP)
    }
}

binary_parsed_file!(File, |_| HMP, |_, _| Vec::new());
