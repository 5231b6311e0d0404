//! Quake 3 MD3: the [`Codec`](crate::codec::Codec) that the format registry lists.

use super::{fixtures, from_model, summary, to_model, validate, File, FORMAT};
use crate::codec::{
    self, binary_parsed_file, codec, detect_magic, parse_file, Format, Output, Writer,
};
use crate::error::Result;
use crate::model::Model;
use crate::options::WriteOptions;

/// Quake 3 MD3 (`IDP3`, version 15).
pub const MD3: Format = Format::new(FORMAT, "Quake 3 MD3", &["md3"]);

const ENGINES: &[codec::Engine] = &[codec::Engine {
    name: "ioq3",
    description: "ioquake3 and the Quake 3 engines built on it (OpenArena; the default for MD3)",
}];

codec! {
    /// The MD3 codec.
    Md3Codec {
        name: FORMAT,
        family: "MD3",
        formats: &[MD3],
        engines: ENGINES,
    }
    parse_file!();
    detect_magic!(b"IDP3" => MD3);
    fn writers(&self) -> &'static [Writer] {
        &[Writer {
            format: MD3,
            variant: "",
            keyframes: true,
            single_mesh: false,
            fit: crate::codec::Fit {
                max_mesh: [super::MAX_VERTS, super::MAX_TRIANGLES],
                ..crate::codec::Fit::KEYFRAMES
            },
        }]
    }
    fn write_model(&self, model: &Model, _: Format, options: &WriteOptions) -> Result<Output> {
        Ok(Output::written(from_model(model, options)?, File::write))
    }
    fn sample(&self) -> Option<Vec<u8>> {
        Some(super::fixtures::build(&super::fixtures::Spec::everything()).write())
    }
}

binary_parsed_file!(File, |_| MD3, |file, _engine| validate(file));
