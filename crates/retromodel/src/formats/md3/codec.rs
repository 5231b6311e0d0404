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
    codec::replace_skin! {
        /// An MD3's skins are the pictures its surfaces' shaders name (skin `index`: the
        /// `index`-th distinct first shader, in surface order, as `info` lists them): the file
        /// stays as it is and the picture goes beside it as a PNG named after the shader
        /// (`models/x/skin` -> `skin.png`; ioquake3 looks for `.png` when the shader has no
        /// script and no `.tga`). A `.skin` file that names other pictures still wins in the game.
        |data, index, picture, _options| {
            let file = File::parse(data, &crate::limits::Limits::default())?;
            let mut shaders: Vec<String> = Vec::new();
            for s in &file.surfaces {
                if let Some(sh) = s.shader_names().next().filter(|n| !n.trim().is_empty()) {
                    if !shaders.iter().any(|k| k.eq_ignore_ascii_case(&sh)) {
                        shaders.push(sh);
                    }
                }
            }
            let Some(shader) = shaders.get(index) else {
                return Err(crate::error::Error::new(
                    FORMAT,
                    crate::error::ErrorKind::InvalidModel,
                    format!("skin {index}: the file's surfaces name {} shaders", shaders.len()),
                    crate::error::Location::None,
                ));
            };
            let base = shader.rsplit(['/', '\\']).next().unwrap_or(shader);
            let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
            let px = crate::image::resample::rgba_of(picture);
            let png = crate::image::png::encode_rgba8(picture.width, picture.height, &px).map_err(|e| {
                crate::error::Error::new(
                    FORMAT,
                    crate::error::ErrorKind::InvalidModel,
                    format!("the picture cannot be encoded as PNG: {e}"),
                    crate::error::Location::None,
                )
            })?;
            Ok(Output {
                bytes: data.to_vec(),
                side_files: vec![codec::SideFile {
                    name: format!("{stem}.png"),
                    kind: "skin",
                    bytes: png,
                }],
                notes: vec![format!(
                    "skin {index} is the picture of shader \"{shader}\": written as {stem}.png beside \
                     the model"
                )],
                ..Output::default()
            })
        }
    }
    fn sample(&self) -> Option<Vec<u8>> {
        Some(super::fixtures::build(&super::fixtures::Spec::everything()).write())
    }
}

binary_parsed_file!(File, |_| MD3, |file, _engine| validate(file));
