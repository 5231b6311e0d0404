//! What the codecs that replace a skin inside a file share (`skins import`, same-format
//! `convert --skin`): the new picture fitted to the skin size the file stores.

use std::borrow::Cow;

use crate::image::Image;

/// `picture` at the file's skin `size` (`[width, height]`): resampled where its size
/// differs (the file's texture coordinates are texels of that size), with a warning pushed
/// to `warnings` that says so; otherwise `picture` as it is.
pub(crate) fn at_skin_size<'a>(
    picture: &'a Image,
    size: [u32; 2],
    warnings: &mut Vec<String>,
) -> Cow<'a, Image> {
    if [picture.width, picture.height] == size {
        return Cow::Borrowed(picture);
    }
    warnings.push(format!(
        "the {}x{} picture resampled to the file's skin size {}x{}",
        picture.width, picture.height, size[0], size[1]
    ));
    Cow::Owned(crate::image::resample::resize(picture, size[0], size[1]))
}
