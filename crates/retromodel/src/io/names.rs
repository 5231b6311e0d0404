//! Fixed-size, NUL-padded name fields, as the binary formats store frame, skin, tag and
//! surface names (Quake MDL, MD2, MD3, 3D GameStudio).

/// Decodes a fixed-size name up to its first NUL (lossy for non-UTF-8 bytes).
pub fn name_str(name: &[u8]) -> String {
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    String::from_utf8_lossy(&name[..end]).into_owned()
}

/// A fixed-size, NUL-padded name field from `name` (cut to at most `N - 1` bytes, at a
/// character boundary, so a NUL always ends it). Returns the field and whether the name was
/// cut.
pub fn name_field<const N: usize>(name: &str) -> ([u8; N], bool) {
    let mut out = [0u8; N];
    let b = name.as_bytes();
    let mut n = b.len().min(N - 1);
    while !name.is_char_boundary(n) {
        n -= 1;
    }
    out[..n].copy_from_slice(&b[..n]);
    (out, n < b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(name_str(b"frame1\0junk"), "frame1");
        assert_eq!(name_str(b"full"), "full");
        let (f, cut) = name_field::<4>("abcdef");
        assert_eq!((&f, cut), (b"abc\0", true));
        // Never cut inside a character: "é" is two bytes.
        let (f, cut) = name_field::<3>("aé");
        assert_eq!((&f, cut), (b"a\0\0", true));
        assert_eq!(name_field::<8>("abc"), (*b"abc\0\0\0\0\0", false));
    }
}
