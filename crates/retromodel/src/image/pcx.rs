//! PCX pictures (ZSoft PC Paintbrush): 8-bit paletted and 24/32-bit RGB(A) read, 8-bit
//! paletted written.
//!
//! Spec: ZSoft "PCX Technical Reference Manual" (Revision 5), and the behaviour of Quake 2's
//! `LoadPCX` as kept in yquake2 (`src/client/refresh/files/pcx.c`), which is what the game
//! files using PCX skins were checked against.
//!
//! Layout: a 128-byte little-endian header (manufacturer `0x0A`, version, encoding,
//! bits per pixel, `xmin`, `ymin`, `xmax`, `ymax`, DPI, a 16-colour EGA palette, `nplanes` at
//! offset 65, `bytes_per_line` at 66, ...), the pixel data, then for 8-bit pictures the
//! 256-colour VGA palette: the marker byte `0x0C` and 768 bytes of RGB.
//!
//! The pixel data is one stream of `height * nplanes * bytes_per_line` bytes: per scanline
//! each plane in turn (R, G, B, then A for four planes), each `bytes_per_line` long. With
//! encoding 1 (RLE) a byte with the top two bits set (`>= 0xC0`) is a run of `b & 0x3F`
//! copies of the byte after it; any other byte stands for itself.
//!
//! Quirks, as read here:
//!
//! - Runs may cross scanline (and plane) boundaries. The manual says encoders should break
//!   runs at the end of each scanline, but decoders that follow Quake 2 read one continuous
//!   stream, and so does [`decode`]. A run that goes past the last scanline is cut off.
//! - `bytes_per_line` may exceed the width (the manual wants it even, so odd widths carry a
//!   padding byte); the padding bytes are dropped. An odd `bytes_per_line` is accepted.
//! - Width is `xmax - xmin + 1` and height `ymax - ymin + 1` (Quake 2 ignores `xmin` and
//!   `ymin`; files written by games have them at 0, where the two agree).
//! - The 8-bit palette is the last 768 bytes of the file. When the byte in front of them is
//!   the `0x0C` marker, the pixel stream ends before the marker; when it is not (some writers
//!   leave the marker out), the last 768 bytes are still taken as the palette, as Quake 2
//!   does, and the pixel stream ends right before them. So a marker-less file whose last pixel
//!   data byte happens to be `0x0C` is read as if that byte were the marker, and fails as
//!   truncated. The palette area is never read as pixel data.
//! - Encoding 0 (uncompressed, outside the manual but written by some tools) is read too.
//! - Data that ends before the picture is complete is an error ([`ErrorKind::Truncated`]),
//!   as Quake 2 rejects such files as malformed; bytes after the pixel stream are ignored.
//! - Versions 0, 2, 3, 4 and 5 are accepted (Quake 2 wants 5, and refuses pictures of 640 x
//!   480 or more; here the sizes are bounded by [`Limits`] instead); the header's DPI, EGA
//!   palette, palette type and screen size are not used.
//! - Only 8 bits per pixel with 1 plane (paletted), 3 planes (RGB) or 4 planes (RGBA) are
//!   read; 1, 2 and 4 bits per pixel (monochrome, CGA, EGA pictures) are
//!   [`ErrorKind::Unsupported`].
//!
//! The header's sizes are checked before anything is allocated: each side against
//! [`Limits::max_image_dimension`], the scanline bytes against what the data could hold (RLE
//! expands at most 63 bytes from 2), and the decoded picture against
//! [`Limits::max_alloc_bytes`], so a tiny file claiming a huge picture fails at once.

use std::sync::Arc;

use super::{Image, Palette, Pixels, Size};
use crate::error::{ErrorKind, Result};
use crate::io::{Reader, Writer};
use crate::limits::{Budget, Limits};

/// Short format name used in errors (`pcx: ... at offset 0x..`).
pub const FORMAT: &str = "pcx";

/// The first header byte of every PCX file.
const MANUFACTURER: u8 = 0x0A;
/// Size of the header; the pixel data starts here.
const HEADER_LEN: usize = 128;
/// The byte in front of the 256-colour palette.
const PALETTE_MARKER: u8 = 0x0C;
/// Size of the 256-colour palette.
const PALETTE_LEN: usize = 768;
/// Longest run one RLE byte pair can hold.
const MAX_RUN: usize = 63;
/// Widest picture [`encode_indexed`] can store: `bytes_per_line` (a `u16`) must be even and
/// at least the width.
const MAX_ENCODE_WIDTH: u32 = 65534;
/// Tallest picture [`encode_indexed`] can store (`ymax` is a `u16`).
const MAX_ENCODE_HEIGHT: u32 = 65536;

/// The pixel layouts [`decode`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// 8 bits, 1 plane, 256-colour palette at the end.
    Indexed,
    /// 8 bits, 3 planes: R, G, B.
    Rgb,
    /// 8 bits, 4 planes: R, G, B, A.
    Rgba,
}

/// Decodes a PCX file.
///
/// 8-bit paletted pictures become [`Pixels::Indexed`] (the file's palette, no fullbright
/// range, no transparent index); 24-bit (3 planes) and 32-bit (4 planes) pictures become
/// [`Pixels::Rgba8`], alpha 255 for 3 planes. See the [module documentation](self) for the
/// quirks accepted.
///
/// Fails on a wrong manufacturer byte ([`ErrorKind::BadMagic`]), an unknown version
/// ([`ErrorKind::UnsupportedVersion`]), an encoding other than 0 or 1 or a pixel layout other
/// than those above ([`ErrorKind::Unsupported`]), `xmax < xmin`, `ymax < ymin` or
/// `bytes_per_line` below the width ([`ErrorKind::InvalidValue`]), a side above
/// [`Limits::max_image_dimension`] or a picture above [`Limits::max_alloc_bytes`]
/// ([`ErrorKind::LimitExceeded`]), and data that ends before the picture or palette is
/// complete ([`ErrorKind::Truncated`]). Every error names the byte offset.
pub fn decode(data: &[u8], limits: &Limits) -> Result<Image> {
    let mut r = Reader::new(data, FORMAT);
    let header = Header::read(&mut r, limits)?;
    let (stream, palette) = split_palette(&r, header.kind)?;
    let needed = header.check_capacity(&r, stream)?;

    let size = header.size;
    let texel_size: u64 = if header.kind == Kind::Indexed { 1 } else { 4 };
    let out_len = size.pixels() * texel_size;
    size.charge(
        &mut Budget::new(limits),
        out_len + header.line_len() as u64 + PALETTE_LEN as u64,
    )?;
    let out_len = size.len(out_len)?;

    let fill = if header.kind == Kind::Rgb { 255 } else { 0 };
    let mut out = vec![fill; out_len];
    header.unpack(&r, stream, needed, &mut out)?;

    let pixels = match palette {
        Some(palette) => Pixels::Indexed {
            indices: out,
            palette: Arc::new(palette),
            fullbright_start: None,
            transparent_index: None,
        },
        None => Pixels::Rgba8(out),
    };
    Ok(Image {
        width: header.width,
        height: header.height,
        pixels,
        encoded: None,
    })
}

/// What [`decode`] takes from the 128-byte header, checked.
struct Header {
    /// Encoding 1 (RLE), else 0 (uncompressed).
    rle: bool,
    kind: Kind,
    nplanes: u8,
    /// Bytes of one plane of one scanline, at least the width.
    bytes_per_line: u16,
    width: u32,
    height: u32,
    /// The picture's size, checked against the limits.
    size: Size,
}

impl Header {
    /// Reads the header and checks its manufacturer, version, encoding, pixel layout and
    /// sizes, in that order.
    fn read(r: &mut Reader, limits: &Limits) -> Result<Header> {
        let manufacturer = r.u8()?;
        if manufacturer != MANUFACTURER {
            return Err(r.error_at(
                0,
                ErrorKind::BadMagic,
                format!("not a PCX file (manufacturer byte {manufacturer:#04x}, expected 0x0a)"),
            ));
        }
        let version = r.u8()?;
        let encoding = r.u8()?;
        let bits_per_pixel = r.u8()?;
        let xmin = r.u16()?;
        let ymin = r.u16()?;
        let xmax = r.u16()?;
        let ymax = r.u16()?;
        // hdpi, vdpi, the 16-colour EGA palette, reserved.
        r.bytes(2 + 2 + 48 + 1)?;
        let nplanes = r.u8()?;
        let bytes_per_line = r.u16()?;
        // palette type, screen size, filler up to 128 bytes.
        r.bytes(HEADER_LEN - 68)?;

        if !matches!(version, 0 | 2 | 3 | 4 | 5) {
            return Err(r.error_at(
                1,
                ErrorKind::UnsupportedVersion,
                format!("unsupported version {version} (expected 0, 2, 3, 4 or 5)"),
            ));
        }
        let rle = match encoding {
            1 => true,
            0 => false,
            _ => {
                return Err(r.error_at(
                    2,
                    ErrorKind::Unsupported,
                    format!(
                        "unsupported encoding {encoding} (only 1 = RLE and 0 = uncompressed are \
                         read)"
                    ),
                ))
            }
        };
        let kind = match (bits_per_pixel, nplanes) {
            (8, 1) => Kind::Indexed,
            (8, 3) => Kind::Rgb,
            (8, 4) => Kind::Rgba,
            _ => {
                return Err(r.error_at(
                    3,
                    ErrorKind::Unsupported,
                    format!(
                        "unsupported PCX kind: {bits_per_pixel} {}, {nplanes} {} (only 8-bit \
                         paletted and 24/32-bit RGB(A) are read)",
                        if bits_per_pixel == 1 {
                            "bit per pixel"
                        } else {
                            "bits per pixel"
                        },
                        if nplanes == 1 { "plane" } else { "planes" },
                    ),
                ))
            }
        };
        if xmax < xmin {
            return Err(r.error_at(
                8,
                ErrorKind::InvalidValue,
                format!("xmax {xmax} is less than xmin {xmin}"),
            ));
        }
        if ymax < ymin {
            return Err(r.error_at(
                10,
                ErrorKind::InvalidValue,
                format!("ymax {ymax} is less than ymin {ymin}"),
            ));
        }
        let width = u32::from(xmax - xmin) + 1;
        let height = u32::from(ymax - ymin) + 1;
        let size = Size::new(FORMAT, width, height, Some(8)).within(limits)?;
        if u32::from(bytes_per_line) < width {
            return Err(r.error_at(
                66,
                ErrorKind::InvalidValue,
                format!("bytes_per_line {bytes_per_line} is less than the width {width}"),
            ));
        }
        Ok(Header {
            rle,
            kind,
            nplanes,
            bytes_per_line,
            width,
            height,
            size,
        })
    }

    /// Bytes of one scanline, all planes.
    fn line_len(&self) -> usize {
        usize::from(self.nplanes) * usize::from(self.bytes_per_line)
    }

    /// Can the stream hold the picture at all? Checked before anything is allocated; gives
    /// the bytes the picture's scanlines need.
    fn check_capacity(&self, r: &Reader, stream: &[u8]) -> Result<u64> {
        let (rle, height, nplanes, bytes_per_line) =
            (self.rle, self.height, self.nplanes, self.bytes_per_line);
        let needed = u64::from(height) * self.line_len() as u64;
        let n = stream.len() as u64;
        let capacity = if rle {
            n / 2 * MAX_RUN as u64 + n % 2
        } else {
            n
        };
        if needed > capacity {
            return Err(r.error_at(
                HEADER_LEN,
                ErrorKind::Truncated,
                format!(
                    "{n} bytes of {} data cannot hold {height} lines of {nplanes} x \
                     {bytes_per_line} bytes",
                    encoding_name(rle)
                ),
            ));
        }
        Ok(needed)
    }

    /// Decodes the pixel stream into `out` one scanline at a time: the padding dropped, and
    /// for RGB(A) the planes interleaved into RGBA8 texels. `needed` is the stream's decoded
    /// length, for the error when it runs out.
    fn unpack(&self, r: &Reader, stream: &[u8], needed: u64, out: &mut [u8]) -> Result<()> {
        let (rle, kind) = (self.rle, self.kind);
        let line_len = self.line_len();
        let texel_size = if kind == Kind::Indexed { 1 } else { 4 };
        let width = self.width as usize;
        let mut rows = Rows {
            stream,
            rle,
            pos: 0,
            run_value: 0,
            run_left: 0,
        };
        let mut line = vec![0u8; line_len];
        for (y, row) in out.chunks_exact_mut(width * texel_size).enumerate() {
            rows.fill(&mut line).map_err(|(missing_at, filled)| {
                r.error_at(
                    HEADER_LEN + missing_at,
                    ErrorKind::Truncated,
                    format!(
                        "{} data runs out after {} of {needed} bytes",
                        encoding_name(rle),
                        y * line_len + filled
                    ),
                )
            })?;
            match kind {
                Kind::Indexed => row.copy_from_slice(&line[..width]),
                Kind::Rgb | Kind::Rgba => {
                    for (p, plane) in line
                        .chunks_exact(usize::from(self.bytes_per_line))
                        .enumerate()
                    {
                        for (texel, &v) in row.chunks_exact_mut(4).zip(plane) {
                            texel[p] = v;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The pixel stream after the header, and for the paletted kind the palette behind it (the
/// last 768 bytes; the pixel stream ends before the `0x0C` marker when there is one).
fn split_palette<'a>(r: &Reader<'a>, kind: Kind) -> Result<(&'a [u8], Option<Palette>)> {
    let rest = r.rest();
    if kind != Kind::Indexed {
        return Ok((rest, None));
    }
    if rest.len() < PALETTE_LEN {
        let len = r.pos() + rest.len();
        return Err(r.error_at(
            len,
            ErrorKind::Truncated,
            format!(
                "file of {len} bytes is too short for the header and the {PALETTE_LEN}-byte \
                 palette"
            ),
        ));
    }
    let (pixels, pal) = rest.split_at(rest.len() - PALETTE_LEN);
    let pixels = match pixels.split_last() {
        Some((&PALETTE_MARKER, before)) => before,
        _ => pixels,
    };
    let mut colours = [[0u8; 3]; 256];
    for (c, rgb) in colours.iter_mut().zip(pal.chunks_exact(3)) {
        c.copy_from_slice(rgb);
    }
    Ok((pixels, Some(Palette(colours))))
}

/// The encoding's name in errors.
fn encoding_name(rle: bool) -> &'static str {
    if rle {
        "RLE"
    } else {
        "uncompressed"
    }
}

/// The pixel stream, decoded one scanline (all planes) at a time; a run may carry over into
/// the next scanline.
struct Rows<'a> {
    stream: &'a [u8],
    rle: bool,
    /// Next unread byte of `stream`.
    pos: usize,
    /// The value of the current run.
    run_value: u8,
    /// Copies of `run_value` still to be written.
    run_left: usize,
}

impl Rows<'_> {
    /// Fills `line` from the stream. On running out of data, returns the stream offset of the
    /// missing byte and how many bytes of `line` were filled.
    fn fill(&mut self, line: &mut [u8]) -> std::result::Result<(), (usize, usize)> {
        let mut filled = 0;
        while filled < line.len() {
            if self.run_left == 0 {
                let Some(&b) = self.stream.get(self.pos) else {
                    return Err((self.pos, filled));
                };
                if self.rle && b >= 0xC0 {
                    let Some(&v) = self.stream.get(self.pos + 1) else {
                        return Err((self.pos + 1, filled));
                    };
                    self.run_value = v;
                    self.run_left = usize::from(b & 0x3F);
                    self.pos += 2;
                } else {
                    self.run_value = b;
                    self.run_left = 1;
                    self.pos += 1;
                }
                continue;
            }
            let n = self.run_left.min(line.len() - filled);
            line[filled..filled + n].fill(self.run_value);
            filled += n;
            self.run_left -= n;
        }
        Ok(())
    }
}

/// Encodes an 8-bit paletted picture as a PCX file: version 5, RLE, 1 plane, 72 DPI,
/// `bytes_per_line` the width rounded up to even (padding bytes 0), runs broken at the end of
/// each scanline as the manual asks, then the `0x0C` marker and the 768-byte palette.
///
/// `indices` holds the picture row by row, `width` per row. It should hold exactly
/// `width * height` indices; this function does not fail or panic when it does not: indices
/// missing at the end are written as 0 and extra ones are ignored. A side PCX cannot store
/// (0, a width above 65534 or a height above 65536) is clamped into that range, cropping the
/// picture at its right and bottom edge or padding it with index 0. Use [`encode`] for a
/// checked conversion of an [`Image`].
pub fn encode_indexed(width: u32, height: u32, indices: &[u8], palette: &Palette) -> Vec<u8> {
    let stride = width as usize;
    let w = width.clamp(1, MAX_ENCODE_WIDTH);
    let h = height.clamp(1, MAX_ENCODE_HEIGHT);
    let bytes_per_line = w + (w & 1);

    let mut out = Writer::with_capacity(HEADER_LEN + indices.len() + 1 + PALETTE_LEN);
    out.u8(MANUFACTURER);
    out.u8(5); // version: PC Paintbrush 3.0 and later, with the 256-colour palette
    out.u8(1); // encoding: RLE
    out.u8(8); // bits per pixel
    out.u16(0); // xmin
    out.u16(0); // ymin
    out.u16((w - 1) as u16); // xmax
    out.u16((h - 1) as u16); // ymax
    out.u16(72); // hdpi
    out.u16(72); // vdpi
    out.bytes(&[0; 48]); // EGA palette, unused with 8 bits per pixel
    out.u8(0); // reserved
    out.u8(1); // nplanes
    out.u16(bytes_per_line as u16);
    out.u16(1); // palette type: colour
    out.u16(0); // horizontal screen size
    out.u16(0); // vertical screen size
    out.bytes(&[0; HEADER_LEN - 74]);

    let mut bytes = out.into_bytes();
    let mut line = vec![0u8; bytes_per_line as usize];
    for y in 0..h as usize {
        line.fill(0);
        let src = y
            .checked_mul(stride)
            .and_then(|start| indices.get(start..))
            .unwrap_or(&[]);
        let n = src.len().min(stride).min(w as usize);
        line[..n].copy_from_slice(&src[..n]);
        rle_line(&line, &mut bytes);
    }
    bytes.push(PALETTE_MARKER);
    for rgb in &palette.0 {
        bytes.extend_from_slice(rgb);
    }
    bytes
}

/// Encodes an indexed [`Image`] as a PCX file with [`encode_indexed`].
///
/// `None` for an RGBA picture (quantise it to a palette first), for a picture PCX cannot
/// store (a side of 0, a width above 65534 or a height above 65536) and for one whose index
/// count is not `width * height`. The fullbright range and transparent index are not stored:
/// PCX has no place for them.
pub fn encode(image: &Image) -> Option<Vec<u8>> {
    let Pixels::Indexed {
        indices, palette, ..
    } = &image.pixels
    else {
        return None;
    };
    let (w, h) = (image.width, image.height);
    let fits = (1..=MAX_ENCODE_WIDTH).contains(&w) && (1..=MAX_ENCODE_HEIGHT).contains(&h);
    if !fits || indices.len() as u64 != u64::from(w) * u64::from(h) {
        return None;
    }
    Some(encode_indexed(w, h, indices, palette))
}

/// Appends one scanline, run-length encoded: runs of up to 63 equal bytes as a count byte
/// (`0xC0 | n`) and the value; a single byte below `0xC0` as itself, a single byte of `0xC0`
/// or more as a run of 1.
fn rle_line(line: &[u8], out: &mut Vec<u8>) {
    let mut rest = line;
    while let Some(&v) = rest.first() {
        let n = rest.iter().take(MAX_RUN).take_while(|&&b| b == v).count();
        if n > 1 || v >= 0xC0 {
            out.push(0xC0 | n as u8);
        }
        out.push(v);
        rest = &rest[n..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rle(line: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        rle_line(line, &mut out);
        out
    }

    /// A header for `width` x `height`, `bits` per pixel, `planes`, `bpl` bytes per line.
    fn header(width: u16, height: u16, bits: u8, planes: u8, bpl: u16, encoding: u8) -> Vec<u8> {
        let mut h = vec![0u8; HEADER_LEN];
        h[0] = MANUFACTURER;
        h[1] = 5;
        h[2] = encoding;
        h[3] = bits;
        h[8..10].copy_from_slice(&(width - 1).to_le_bytes());
        h[10..12].copy_from_slice(&(height - 1).to_le_bytes());
        h[65] = planes;
        h[66..68].copy_from_slice(&bpl.to_le_bytes());
        h
    }

    fn test_palette() -> Vec<u8> {
        (0..PALETTE_LEN).map(|i| (i * 7 % 251) as u8).collect()
    }

    fn indexed_file(header: Vec<u8>, stream: &[u8], marker: bool) -> Vec<u8> {
        let mut f = header;
        f.extend_from_slice(stream);
        if marker {
            f.push(PALETTE_MARKER);
        }
        f.extend_from_slice(&test_palette());
        f
    }

    fn indices(image: &Image) -> &[u8] {
        match &image.pixels {
            Pixels::Indexed { indices, .. } => indices,
            Pixels::Rgba8(_) => panic!("expected an indexed picture"),
        }
    }

    #[test]
    fn rle_runs_are_split_at_63_and_high_bytes_are_escaped() {
        assert_eq!(rle(&[5]), [5]);
        assert_eq!(rle(&[5, 6, 6]), [5, 0xC2, 6]);
        assert_eq!(rle(&[7; 63]), [0xFF, 7]);
        assert_eq!(rle(&[7; 64]), [0xFF, 7, 7]);
        assert_eq!(rle(&[7; 65]), [0xFF, 7, 0xC2, 7]);
        assert_eq!(rle(&[7; 126]), [0xFF, 7, 0xFF, 7]);
        assert_eq!(rle(&[0xC0]), [0xC1, 0xC0]);
        assert_eq!(rle(&[0xBF, 0xFF]), [0xBF, 0xC1, 0xFF]);
        assert_eq!(rle(&[0xC5; 64]), [0xFF, 0xC5, 0xC1, 0xC5]);
        assert_eq!(rle(&[]), [] as [u8; 0]);
    }

    #[test]
    fn runs_cross_scanlines_and_zero_runs_are_skipped() {
        // 3x2, bytes_per_line 4: one run of 8 fills both lines, padding included.
        let f = indexed_file(header(3, 2, 8, 1, 4, 1), &[0xC0, 99, 0xC8, 9], true);
        let img = decode(&f, &Limits::default()).unwrap();
        assert_eq!((img.width, img.height), (3, 2));
        assert_eq!(indices(&img), [9; 6]);
        // A run of 5 ends in the second line; the padding byte of each line is dropped.
        let f = indexed_file(header(3, 2, 8, 1, 4, 1), &[1, 2, 3, 0xC5, 4], true);
        assert_eq!(
            indices(&decode(&f, &Limits::default()).unwrap()),
            [1, 2, 3, 4, 4, 4]
        );
        // A run past the last line is cut off.
        let f = indexed_file(header(2, 1, 8, 1, 2, 1), &[0xFF, 4], true);
        assert_eq!(indices(&decode(&f, &Limits::default()).unwrap()), [4, 4]);
    }

    #[test]
    fn palette_with_and_without_marker() {
        let pal = test_palette();
        for marker in [true, false] {
            let f = indexed_file(header(2, 1, 8, 1, 2, 1), &[0xC2, 0xD0], marker);
            let img = decode(&f, &Limits::default()).unwrap();
            let Pixels::Indexed {
                indices,
                palette,
                fullbright_start,
                transparent_index,
            } = &img.pixels
            else {
                panic!("expected indexed");
            };
            assert_eq!(indices, &[0xD0, 0xD0]);
            assert_eq!(palette.rgb(0), [pal[0], pal[1], pal[2]]);
            assert_eq!(palette.rgb(255), [pal[765], pal[766], pal[767]]);
            assert_eq!((*fullbright_start, *transparent_index), (None, None));
        }
    }

    #[test]
    fn the_palette_marker_is_never_pixel_data() {
        // One literal short: the decoder must stop at the marker, not read it as a pixel.
        let f = indexed_file(header(3, 1, 8, 1, 4, 1), &[1, 2, 3], true);
        let e = decode(&f, &Limits::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
        assert_eq!(
            e.to_string(),
            "pcx: RLE data runs out after 3 of 4 bytes at offset 0x83"
        );
        // A run code as the last byte: the missing value is reported where it should be.
        let f = indexed_file(header(3, 1, 8, 1, 4, 1), &[1, 0xC3], true);
        assert_eq!(
            decode(&f, &Limits::default()).unwrap_err().to_string(),
            "pcx: RLE data runs out after 1 of 4 bytes at offset 0x82"
        );
    }

    #[test]
    fn uncompressed_and_rgba_planes() {
        // Encoding 0: bytes >= 0xC0 are plain pixels.
        let f = indexed_file(header(2, 1, 8, 1, 2, 0), &[0xC3, 0xFF], true);
        assert_eq!(
            indices(&decode(&f, &Limits::default()).unwrap()),
            [0xC3, 0xFF]
        );
        // 1x2, 4 planes, bytes_per_line 2 (one padding byte per plane line).
        let mut f = header(1, 2, 8, 4, 2, 0);
        f.extend_from_slice(&[1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0]);
        let img = decode(&f, &Limits::default()).unwrap();
        assert_eq!(img.pixels, Pixels::Rgba8(vec![1, 2, 3, 4, 5, 6, 7, 8]));
    }

    #[test]
    fn encode_round_trips_and_tolerates_wrong_lengths() {
        let pal = Palette::QUAKE;
        let idx: Vec<u8> = (0..15u8).map(|i| i.wrapping_mul(37)).collect();
        let f = encode_indexed(5, 3, &idx, &pal);
        assert_eq!(&f[66..68], &6u16.to_le_bytes());
        let img = decode(&f, &Limits::default()).unwrap();
        assert_eq!(indices(&img), idx.as_slice());
        // Too few indices: the rest are 0. Too many: ignored.
        let img = decode(&encode_indexed(2, 2, &[1, 2, 3], &pal), &Limits::default()).unwrap();
        assert_eq!(indices(&img), [1, 2, 3, 0]);
        let img = decode(&encode_indexed(1, 1, &[4, 5], &pal), &Limits::default()).unwrap();
        assert_eq!(indices(&img), [4]);
        // A zero side is stored as 1.
        let img = decode(&encode_indexed(0, 0, &[], &pal), &Limits::default()).unwrap();
        assert_eq!((img.width, img.height, indices(&img)), (1, 1, &[0u8][..]));
        // `encode` refuses what does not fit.
        let bad = Image {
            width: 2,
            height: 2,
            pixels: Pixels::Indexed {
                indices: vec![0; 3],
                palette: Arc::new(pal),
                fullbright_start: None,
                transparent_index: None,
            },
            encoded: None,
        };
        assert_eq!(encode(&bad), None);
        let rgba = Image {
            width: 1,
            height: 1,
            pixels: Pixels::Rgba8(vec![0; 4]),
            encoded: None,
        };
        assert_eq!(encode(&rgba), None);
    }
}
