//! A skin of a Quake MDL replaced in the file (`skins import`, same-format `convert
//! --skin`): the picture is resampled to the file's skin size when it differs (texture
//! coordinates are texels of that size), matched to the palette (the Quake palette or
//! `WriteOptions::palette`; fullbright indices 224..255 only with `fullbrights`), and its
//! transparent pixels (alpha below 128) become index 255 with `MF_HOLEY` set, as Quake draws
//! holes. Every other byte of the file stays as stored.

use std::borrow::Cow;

use super::raw::{File, Skin, MF_HOLEY};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::shared::skins::at_skin_size;
use crate::image::{Image, IndexOptions, Palette, QUAKE_FULLBRIGHT_START};
use crate::limits::Limits;
use crate::options::{WriteOptions, Written};

/// The palette index Quake draws as a hole in `MF_HOLEY` models.
const HOLE_INDEX: u8 = 255;

/// `data`, a Quake MDL, with skin `index` replaced by `picture` ([module docs](self)).
pub fn replace_skin(
    data: &[u8],
    index: usize,
    picture: &Image,
    options: &WriteOptions,
) -> Result<Written<File<'static>>> {
    let mut file = File::parse(data, &Limits::default())?.into_owned();
    let count = file.skins.len();
    if index >= count {
        return Err(Error::new(
            super::FORMAT,
            ErrorKind::InvalidModel,
            format!(
                "skin {index}: the file has {count} skin{}",
                if count == 1 { "" } else { "s" }
            ),
            Location::None,
        ));
    }
    let mut warnings = Vec::new();
    let (w, h) = (file.header.skinwidth, file.header.skinheight);
    let size = [u32::try_from(w).unwrap_or(0), u32::try_from(h).unwrap_or(0)];
    let picture = at_skin_size(picture, size, &mut warnings);
    let palette = options.palette.unwrap_or(Palette::QUAKE);
    let holes = picture.has_transparency();
    let indexed = picture.to_indexed_with(
        &palette,
        &IndexOptions {
            last: if options.fullbrights {
                255
            } else {
                QUAKE_FULLBRIGHT_START - 1
            },
            dither: options.dither,
            transparent: holes.then_some(HOLE_INDEX),
        },
    );
    if holes && file.header.flags & MF_HOLEY == 0 {
        file.header.flags |= MF_HOLEY;
        warnings.push(format!(
            "transparent pixels mapped to index {HOLE_INDEX}; MF_HOLEY set in the header"
        ));
    }
    if matches!(file.skins[index], Skin::Group { .. }) {
        warnings.push(format!(
            "skin {index} was a group of {} pictures; it is now one picture",
            file.skins[index].picture_count()
        ));
    }
    file.skins[index] = Skin::Single {
        skin_type: 0,
        pixels: Cow::Owned(indexed.indices),
    };
    Ok(Written {
        file,
        warnings,
        frame_errors: Vec::new(),
    })
}
