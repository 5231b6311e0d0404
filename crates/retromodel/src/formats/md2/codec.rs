//! Quake 2 MD2: the [`Codec`](crate::codec::Codec) that the format registry lists.

use std::borrow::Cow;

use super::{fixtures, from_model, summary, to_model, validate, Engine, File, FORMAT};
use crate::codec::{
    self, binary_parsed_file, codec, detect_magic, parse_file, Codec, Format, Kernel, Output,
    Prepared, SideFile, Writer,
};
use crate::error::Result;
use crate::formats::shared::skins::at_skin_size;
use crate::image::{pcx, IndexOptions, Palette, Pixels};
use crate::limits::Limits;
use crate::model::Model;
use crate::options::WriteOptions;

/// Quake 2 MD2 (`IDP2`, version 8).
pub const MD2: Format = Format::new(FORMAT, "Quake 2 MD2", &["md2"]);

const ENGINES: &[codec::Engine] = &[
    codec::Engine {
        name: "quake2",
        description: "Quake 2's GL renderer (the default for MD2)",
    },
    codec::Engine {
        name: "quake2-soft",
        description: "Quake 2's software renderer",
    },
];

codec! {
    /// The MD2 codec.
    Md2Codec {
        name: FORMAT,
        family: "MD2",
        formats: &[MD2],
        engines: ENGINES,
    }
    parse_file!();
    detect_magic!(b"IDP2" => MD2);
    fn writers(&self) -> &'static [Writer] {
        &[Writer {
            format: MD2,
            variant: "",
            keyframes: true,
            single_mesh: true,
            fit: crate::codec::Fit { one_skin: true, max_skin: [u32::MAX, 480], ..crate::codec::Fit::KEYFRAMES },
        }]
    }
    /// Without [`WriteOptions::skin_paths`], each skin's first picture goes beside the
    /// file as `STEM_skinN.pcx` and that name is stored.
    fn write_model(&self, model: &Model, _: Format, options: &WriteOptions) -> Result<Output> {
        let mut out = Output::default();
        let mut options = options.clone();
        if options.skin_paths.is_empty() {
            let skins = skin_files(model, &options, &mut out.warnings);
            options.skin_paths = skins.iter().map(|(name, _)| name.clone()).collect();
            out.side_files
                .extend(skins.into_iter().filter_map(|(name, bytes)| {
                    Some(SideFile {
                        name,
                        kind: "skin",
                        bytes: bytes?,
                    })
                }));
        }
        let w = from_model(model, &options)?;
        out.bytes = w.file.write();
        out.warnings.extend(w.warnings);
        out.frame_errors = w.frame_errors;
        Ok(out)
    }
    codec::replace_skin! {
        /// An MD2's skin is the picture its skin path names: the file stays as it is, and the
        /// new picture goes beside it under that path's file name (`skin.pcx`: 8-bit, matched to
        /// `options.palette`, else the Quake palette with a warning; cut-outs as index 255), at
        /// the header's skin size.
        |data, index, picture, options| {
            let file = File::parse(data, &Limits::default())?;
            let names: Vec<String> = file.skin_names().collect();
            let Some(path) = names.get(index) else {
                return Err(crate::error::Error::new(
                    FORMAT,
                    crate::error::ErrorKind::InvalidModel,
                    format!("skin {index}: the file has {} skin paths", names.len()),
                    crate::error::Location::None,
                ));
            };
            let name = path.rsplit(['/', '\\']).next().unwrap_or(path).to_string();
            let mut out = Output {
                bytes: data.to_vec(),
                ..Output::default()
            };
            let size = [
                u32::try_from(file.header.skinwidth).unwrap_or(0),
                u32::try_from(file.header.skinheight).unwrap_or(0),
            ];
            let picture = if size[0] > 0 && size[1] > 0 {
                at_skin_size(picture, size, &mut out.warnings)
            } else {
                Cow::Borrowed(picture)
            };
            if !name.to_ascii_lowercase().ends_with(".pcx") {
                return Err(crate::error::Error::new(
                    FORMAT,
                    crate::error::ErrorKind::Unsupported,
                    format!("skin {index}: \"{path}\" is not a PCX path; only PCX skins are written"),
                    crate::error::Location::None,
                ));
            }
            let palette = options.palette.unwrap_or_else(|| {
                out.warnings.push(
                    "matched to the Quake palette; Quake 2 draws 8-bit skins with its own \
                     (pics/colormap.pcx): pass --target-palette with it"
                        .to_string(),
                );
                Palette::QUAKE
            });
            let holes = picture.has_transparency();
            out.side_files.push(SideFile {
                name,
                kind: "skin",
                bytes: indexed_pcx(&picture, &palette, holes, options),
            });
            Ok(out)
        }
    }
    fn sample(&self) -> Option<Vec<u8>> {
        Some(super::fixtures::build(&super::fixtures::Spec::everything()).write())
    }
    fn kernels(&self) -> &'static [Kernel] {
        &[Kernel {
            name: "gl-commands",
            description: "MD2 GL command generation (strips and fans for each model's \
                          triangle list; other formats are converted to MD2 first, untimed)",
            unit: "triangles",
            prepare: prepare_gl_commands,
        }]
    }
}

/// The GL command kernel's work: the file's own triangles, or those of the file converted
/// to MD2.
fn prepare_gl_commands(
    data: &[u8],
    _: &dyn crate::resolve::Resolver,
    read: &crate::codec::ReadAny,
) -> Result<Option<Prepared>> {
    let limits = Limits::default();
    let file = if self::CODEC.detect(data).is_some() {
        File::parse(data, &limits)?.into_owned()
    } else {
        let model = read(data, &limits)?;
        from_model(&model, &WriteOptions::default())?.file
    };
    Ok(Some(Prepared {
        items: file.triangles.len() as u64,
        note: String::new(),
        run: Box::new(move || {
            let h = &file.header;
            std::hint::black_box(super::glcmds::generate(
                &file.triangles,
                &file.texcoords,
                h.skinwidth,
                h.skinheight,
            ));
        }),
    }))
}

/// `picture` as an 8-bit PCX matched to `palette` (dithered as `options` say), its
/// transparent pixels as index 255 where it has `holes`: the one way MD2 skins are indexed.
fn indexed_pcx(
    picture: &crate::image::Image,
    palette: &Palette,
    holes: bool,
    options: &WriteOptions,
) -> Vec<u8> {
    let indexed = picture.to_indexed_with(
        palette,
        &IndexOptions {
            last: 255,
            dither: options.dither,
            transparent: holes.then_some(255),
        },
    );
    pcx::encode_indexed(picture.width, picture.height, &indexed.indices, palette)
}

/// The skin paths to store in an MD2 and the PCX file of each (none for a skin without
/// picture, which keeps the model's name): each skin's first picture as
/// `STEM_skinN.pcx`. Quake 2 draws 8-bit skins with its own palette
/// (`pics/colormap.pcx`), not the one in the PCX: with [`WriteOptions::palette`] the pictures
/// are matched to that palette, otherwise they keep theirs and a warning says so.
fn skin_files(
    model: &Model,
    options: &WriteOptions,
    warnings: &mut Vec<String>,
) -> Vec<(String, Option<Vec<u8>>)> {
    let stem = options.side_file_stem();
    let mut out = Vec::new();
    let mut kept_palette = false;
    for (i, skin) in model.skins.iter().enumerate() {
        let Some(picture) = skin.pictures.first() else {
            out.push((skin.name.clone(), None));
            continue;
        };
        if skin.pictures.len() > 1 {
            warnings.push(format!(
                "skin {i} is a group of {} pictures; MD2 keeps the first",
                skin.pictures.len()
            ));
        }
        let bytes = match (&picture.pixels, options.palette) {
            (Pixels::Indexed { .. }, None) => {
                kept_palette = true;
                pcx::encode(picture)
            }
            _ => None,
        }
        .unwrap_or_else(|| {
            let palette = options.palette.unwrap_or(Palette::QUAKE);
            // Quake 2's GL renderer draws index 255 transparent: cut-outs keep their holes.
            let holes = picture.has_transparency();
            if holes {
                warnings.push(format!(
                    "skin {i}: transparent pixels mapped to index 255, which Quake 2's GL \
                     renderer draws transparent (its software renderer does not)"
                ));
            }
            indexed_pcx(picture, &palette, holes, options)
        });
        out.push((format!("{stem}_skin{i}.pcx"), Some(bytes)));
    }
    if kept_palette {
        warnings.push(
            "skins keep the model's palette; Quake 2 draws 8-bit skins with its own \
             (pics/colormap.pcx): pass --target-palette with it to match the pictures to it"
                .to_string(),
        );
    }
    out
}

binary_parsed_file!(File, |_| MD2, |file, engine| {
    let e = match engine {
        "quake2-soft" => Engine::Quake2Software,
        _ => Engine::Quake2,
    };
    validate(file, e)
});
