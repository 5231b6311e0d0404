//! PNG encoding of pictures (feature `png`).

use super::Image;

/// Encodes RGBA8 pixels of `width` x `height` as a PNG file.
pub fn encode_rgba8(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, ::png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, width, height);
        enc.set_color(::png::ColorType::Rgba);
        enc.set_depth(::png::BitDepth::Eight);
        let mut w = enc.write_header()?;
        w.write_image_data(rgba)?;
    }
    Ok(out)
}

impl Image {
    /// The picture as a PNG file (RGBA, palette applied).
    pub fn to_png(&self) -> Result<Vec<u8>, ::png::EncodingError> {
        encode_rgba8(self.width, self.height, &self.to_rgba8())
    }
}
