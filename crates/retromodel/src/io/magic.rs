//! A file's first bytes in error messages: shown as text or hex ([`show_magic`]) and named
//! ([`describe`]) from a table of the binary model formats' magic numbers.
//!
//! The table lives here, below every format, so that a parser meeting the wrong magic can say
//! what the file really is (`md2: header: bad magic "IDPO": this is Quake MDL`) without
//! reaching up to the registry. `registry`'s tests hold it against the codecs' own detection.

/// The binary formats retromodel reads, by their first four bytes: magic and the format in
/// words.
const MAGICS: &[(&[u8; 4], &str)] = &[
    (b"IDPO", "Quake MDL"),
    (b"RAPO", "Hexen II mission-pack MDL (RAPO)"),
    (b"MD16", "QuakeForge MD16"),
    (b"IDP2", "Quake 2 MD2"),
    (b"IDP3", "Quake 3 MD3"),
    (b"MDL2", "3D GameStudio MDL"),
    (b"MDL3", "3D GameStudio MDL"),
    (b"MDL4", "3D GameStudio MDL"),
    (b"MDL5", "3D GameStudio MDL"),
    (b"MDL7", "3D GameStudio MDL"),
    (b"HMP4", "3D GameStudio HMP terrain"),
    (b"HMP5", "3D GameStudio HMP terrain"),
    (b"HMP7", "3D GameStudio HMP terrain"),
    (b"glTF", "glTF 2.0 binary"),
    (b"INTE", "Inter-Quake Model (IQM)"),
    (b"IDST", "Half-Life MDL (GoldSrc)"),
    (b"IDSQ", "Half-Life MDL (GoldSrc)"),
];

/// A format known by its magic number but read by no codec: what the registry makes a
/// `Format::detected_only` of, so that such a file gets a clear "not supported" message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DetectedOnly {
    /// The short name (`gs-mdl6`).
    pub name: &'static str,
    /// The format in words (`3D GameStudio MDL`).
    pub description: &'static str,
    /// Its file extensions, lower case without the dot.
    pub extensions: &'static [&'static str],
}

/// 3D GameStudio MDL6 (`MDL6`).
pub const GS_MDL6: DetectedOnly = DetectedOnly {
    name: "gs-mdl6",
    description: "3D GameStudio MDL",
    extensions: &["mdl"],
};
/// 3D GameStudio binary level (`WMPB`), not read yet.
pub const WMP_BINARY: DetectedOnly = DetectedOnly {
    name: "wmp",
    description: "3D GameStudio binary WMP level",
    extensions: &["wmp"],
};

/// The formats only detected, by their first four bytes: the one list of them (the registry
/// detects them after its codecs).
pub const DETECTED_ONLY: &[(&[u8; 4], DetectedOnly)] = &[(b"MDL6", GS_MDL6), (b"WMPB", WMP_BINARY)];

/// The format only detected ([`DETECTED_ONLY`]) that a file's first four bytes belong to.
pub fn detected_only(magic: &[u8]) -> Option<DetectedOnly> {
    let magic = magic.get(..4)?;
    DETECTED_ONLY
        .iter()
        .find(|(m, _)| magic == &m[..])
        .map(|(_, f)| *f)
}

/// The format a file's first four bytes belong to, in words, and whether it is read; `None`
/// for no known binary magic.
pub fn known(magic: &[u8]) -> Option<(&'static str, bool)> {
    let magic = magic.get(..4)?;
    MAGICS
        .iter()
        .find(|(m, _)| magic == &m[..])
        .map(|(_, description)| (*description, true))
        .or_else(|| detected_only(magic).map(|f| (f.description, false)))
}

/// Names what four magic bytes belong to, for error messages: `this is Quake MDL`, `this is a
/// 3D GameStudio MDL file, which is not supported`, or `not a known model format`.
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
