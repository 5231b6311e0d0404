//! Format detection by magic bytes; the file extension is never consulted.
//!
//! `.mdl` alone can be Quake (`IDPO`), 3D GameStudio (`MDL2`..`MDL7`), Half-Life (`IDST`) or
//! even Quake 3 (`IDP3`) data, so only the first bytes decide. Each registered codec
//! ([`crate::registry`]) detects its own formats; the formats known by their magic but not
//! read yet are listed here so that they get a clear "not supported" message.

pub use crate::registry::Format;

/// Quake 3 MD3 (`IDP3`), read by [`crate::formats::md3`].
pub use crate::formats::md3::MD3;
/// Half-Life MDL (`IDST`, or `IDSQ` for sequence group files): detected, not read.
pub const HALF_LIFE_MDL: Format = Format::new("half-life-mdl", "Half-Life MDL", &["mdl"]);
/// 3D GameStudio MDL6 (`MDL6`): detected, not read.
pub const GS_MDL6: Format = Format::new("gs-mdl6", "3D GameStudio MDL", &["mdl"]);
/// 3D GameStudio binary level (`WMPB`): detected, not read yet.
pub const WMP_BINARY: Format = Format::new("wmp", "3D GameStudio binary WMP level", &["wmp"]);

/// Magic numbers of formats no registered codec reads, checked after the codecs.
const KNOWN_MAGIC: &[(&[u8; 4], Format)] = &[
    (b"IDST", HALF_LIFE_MDL),
    (b"IDSQ", HALF_LIFE_MDL),
    (b"MDL6", GS_MDL6),
    (b"WMPB", WMP_BINARY),
];

/// Detects a format from the first bytes of a file: a registered codec's, or one of the
/// formats known by their magic but not read.
pub fn detect(data: &[u8]) -> Option<Format> {
    if let Some((f, _)) = crate::registry::detect(data) {
        return Some(f);
    }
    let magic = data.get(..4)?;
    KNOWN_MAGIC
        .iter()
        .find(|(m, _)| magic == &m[..])
        .map(|(_, f)| *f)
}

/// The bytes after a UTF-8 byte order mark and leading white space (text formats' detection).
pub(crate) fn skip_bom_and_space(data: &[u8]) -> &[u8] {
    let d = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let start = d
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(d.len());
    &d[start..]
}

/// Names what four magic bytes belong to, for error messages.
pub fn describe(magic: &[u8]) -> String {
    match detect(magic) {
        Some(f) if f.is_supported() => format!("this is {}", f.description()),
        Some(f) => format!("this is a {} file, which is not supported", f.description()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{gs_mdl, quake_mdl, wmp};
    use crate::registry::format_named;

    #[test]
    fn detects_by_magic() {
        assert_eq!(detect(b"IDPO\x06\0\0\0"), Some(quake_mdl::QUAKE_MDL));
        assert_eq!(detect(b"IDP3"), Some(MD3));
        assert_eq!(detect(b"MDL5...."), gs_mdl::format(5));
        assert_eq!(detect(b"MDL9"), None);
        assert_eq!(
            detect(b"\xEF\xBB\xBF\r\nMD5Version 10\nnumJoints 1\nnumMeshes 1"),
            format_named("md5mesh")
        );
        assert_eq!(
            detect(b"// exported\ncommandline \"\"\nnumFrames 2\nhierarchy {"),
            format_named("md5anim")
        );
        assert_eq!(
            detect(b"MD5Version 10\nnumFrames 1\nnumCuts 0"),
            format_named("md5camera")
        );
        // A keyword inside a quoted name or after another keyword does not count.
        assert_eq!(
            detect(b"MD5Version 10\nnumJoints 1\nnumMeshes 0\njoints {\n\t\"camera\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"),
            format_named("md5mesh")
        );
        // Old Mac line endings: the keywords still start lines.
        assert_eq!(
            detect(b"MD5Version 10\rnumFrames 2\rnumJoints 1\rhierarchy {\r"),
            format_named("md5anim")
        );
        assert_eq!(detect(b"ID"), None);
        assert_eq!(detect(b"// WMP2\r\n// WED"), Some(wmp::WMP));
        assert!(MD3.is_supported());
        assert!(wmp::WMP.is_supported());
    }
}
