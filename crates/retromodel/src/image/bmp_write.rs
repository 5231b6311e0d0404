//! 8-bit BMP files written from palette indices: the textures studiomdl reads beside an SMD
//! (`Grab_BMP` takes 8-bit uncompressed Windows bitmaps only).

/// An uncompressed 8-bit Windows BMP (`BITMAPINFOHEADER`, 256-colour palette, rows bottom-up,
/// each padded to 4 bytes) of `indices` (`width · height`, rows from the top) and `palette`
/// (RGB triples, up to 256; missing entries black).
///
/// # Panics
/// When `indices` is shorter than `width · height`.
pub fn encode_indexed(width: u32, height: u32, indices: &[u8], palette: &[u8]) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let row = (w + 3) & !3;
    let offset = 14 + 40 + 1024;
    let size = offset + row * h;
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(offset as u32).to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&8u16.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&((row * h) as u32).to_le_bytes());
    out.extend_from_slice(&2835u32.to_le_bytes());
    out.extend_from_slice(&2835u32.to_le_bytes());
    out.extend_from_slice(&256u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    for i in 0..256 {
        let c = palette.get(i * 3..i * 3 + 3).unwrap_or(&[0, 0, 0]);
        out.extend_from_slice(&[c[2], c[1], c[0], 0]);
    }
    for y in (0..h).rev() {
        out.extend_from_slice(&indices[y * w..(y + 1) * w]);
        out.resize(out.len() + row - w, 0);
    }
    out
}

#[cfg(all(test, feature = "textures"))]
mod tests {
    use super::*;

    #[test]
    fn decodes_to_the_same_pixels() {
        // 3x2: a width that needs row padding, rows that must come back top first.
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
        let indices = [1u8, 2, 3, 200, 100, 0];
        let bmp = encode_indexed(3, 2, &indices, &palette);
        let img = crate::image::bmp::decode(&bmp, &crate::limits::Limits::default()).unwrap();
        assert_eq!((img.width, img.height), (3, 2));
        let rgba = img.to_rgba8();
        for (k, &i) in indices.iter().enumerate() {
            let p = &palette[i as usize * 3..i as usize * 3 + 3];
            assert_eq!(&rgba[k * 4..k * 4 + 3], p, "pixel {k}");
        }
    }
}
