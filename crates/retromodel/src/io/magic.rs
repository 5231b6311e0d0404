//! A file's first bytes in error messages: shown as text or hex ([`show_magic`]) and named
//! ([`describe`]) from a table of the binary model formats' magic numbers.
//!
//! The table lives here, below every format, so that a parser meeting the wrong magic can say
//! what the file really is (`md2: header: bad magic "IDPO": this is Quake MDL`) without
//! reaching up to the registry. `registry`'s tests hold it against the codecs' own detection.

/// The binary formats by their first four bytes: magic, the format in words, and whether
/// retromodel reads it.
const MAGICS: &[(&[u8; 4], &str, bool)] = &[
    (b"IDPO", "Quake MDL", true),
    (b"RAPO", "Hexen II mission-pack MDL (RAPO)", true),
    (b"MD16", "QuakeForge MD16", true),
    (b"IDP2", "Quake 2 MD2", true),
    (b"IDP3", "Quake 3 MD3", true),
    (b"MDL2", "3D GameStudio MDL", true),
    (b"MDL3", "3D GameStudio MDL", true),
    (b"MDL4", "3D GameStudio MDL", true),
    (b"MDL5", "3D GameStudio MDL", true),
    (b"MDL7", "3D GameStudio MDL", true),
    (b"HMP4", "3D GameStudio HMP terrain", true),
    (b"HMP5", "3D GameStudio HMP terrain", true),
    (b"HMP7", "3D GameStudio HMP terrain", true),
    (b"glTF", "glTF 2.0 binary", true),
    (b"INTE", "Inter-Quake Model (IQM)", true),
    (b"IDST", "Half-Life MDL", false),
    (b"IDSQ", "Half-Life MDL", false),
    (b"MDL6", "3D GameStudio MDL", false),
    (b"WMPB", "3D GameStudio binary WMP level", false),
];

/// The format a file's first four bytes belong to, in words, and whether it is read; `None`
/// for no known binary magic.
pub fn known(magic: &[u8]) -> Option<(&'static str, bool)> {
    let magic = magic.get(..4)?;
    MAGICS
        .iter()
        .find(|(m, _, _)| magic == &m[..])
        .map(|(_, description, supported)| (*description, *supported))
}

/// Names what four magic bytes belong to, for error messages: `this is Quake MDL`, `this is a
/// Half-Life MDL file, which is not supported`, or `not a known model format`.
pub fn describe(magic: &[u8]) -> String {
    match known(magic) {
        Some((description, true)) => format!("this is {description}"),
        Some((description, false)) => {
            format!("this is a {description} file, which is not supported")
        }
        None => "not a known model format".to_string(),
    }
}

/// Shows magic bytes as quoted text when printable, else as hex.
pub fn show_magic(m: &[u8]) -> String {
    if !m.is_empty() && m.iter().all(|b| b.is_ascii_graphic()) {
        format!("\"{}\"", String::from_utf8_lossy(m))
    } else {
        let hex: Vec<String> = m.iter().map(|b| format!("{b:02x}")).collect();
        hex.join(" ")
    }
}

/// The bytes after a UTF-8 byte order mark and leading white space (text formats' detection).
pub fn skip_bom_and_space(data: &[u8]) -> &[u8] {
    let d = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let start = d
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(d.len());
    &d[start..]
}
