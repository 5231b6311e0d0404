//! Format detection by magic bytes; the file extension is never consulted.
//!
//! `.mdl` alone can be Quake (`IDPO`), 3D GameStudio (`MDL2`..`MDL7`), Half-Life (`IDST`) or
//! even Quake 3 (`IDP3`) data, so only the first bytes decide.

/// Every format this crate knows by its magic, read or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Quake MDL (`IDPO`, version 6).
    QuakeMdl,
    /// Quake 2 MD2 (`IDP2`).
    Md2,
    /// Quake 3 MD3 (`IDP3`).
    Md3,
    /// Half-Life MDL (`IDST`, or `IDSQ` for sequence group files).
    HalfLifeMdl,
    /// 3D GameStudio MDL, version 2..=7 (`MDL2`..`MDL7`).
    GameStudioMdl(u8),
    /// 3D GameStudio terrain (`HMP4`, `HMP5`, `HMP7`).
    Hmp(u8),
    /// 3D GameStudio binary level (`WMPB`).
    WmpBinary,
    /// 3D GameStudio text level (starts with a `// WMP` comment line).
    WmpText,
    /// Doom 3 `.md5mesh` (text: skeleton and weighted meshes).
    Md5Mesh,
    /// Doom 3 `.md5anim` (text: skeletal animation).
    Md5Anim,
    /// Doom 3 `.md5camera` (text: camera path).
    Md5Camera,
}

impl Format {
    /// The short name used in messages and by `retromodel info --format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::QuakeMdl => "quake-mdl",
            Format::Md2 => "md2",
            Format::Md3 => "md3",
            Format::HalfLifeMdl => "half-life-mdl",
            Format::GameStudioMdl(2) => "gs-mdl2",
            Format::GameStudioMdl(3) => "gs-mdl3",
            Format::GameStudioMdl(4) => "gs-mdl4",
            Format::GameStudioMdl(5) => "gs-mdl5",
            Format::GameStudioMdl(6) => "gs-mdl6",
            Format::GameStudioMdl(_) => "gs-mdl7",
            Format::Hmp(_) => "hmp",
            Format::WmpBinary => "wmp",
            Format::WmpText => "wmp",
            Format::Md5Mesh => "md5mesh",
            Format::Md5Anim => "md5anim",
            Format::Md5Camera => "md5camera",
        }
    }

    /// What the format is, in words (for "not supported" messages).
    pub fn description(self) -> &'static str {
        match self {
            Format::QuakeMdl => "Quake MDL",
            Format::Md2 => "Quake 2 MD2",
            Format::Md3 => "Quake 3 MD3",
            Format::HalfLifeMdl => "Half-Life MDL",
            Format::GameStudioMdl(_) => "3D GameStudio MDL",
            Format::Hmp(_) => "3D GameStudio HMP terrain",
            Format::WmpBinary => "3D GameStudio binary WMP level",
            Format::WmpText => "3D GameStudio text WMP level",
            Format::Md5Mesh => "Doom 3 md5mesh",
            Format::Md5Anim => "Doom 3 md5anim",
            Format::Md5Camera => "Doom 3 md5camera",
        }
    }

    /// Whether this release reads the format.
    pub fn is_supported(self) -> bool {
        matches!(
            self,
            Format::QuakeMdl
                | Format::Md2
                | Format::GameStudioMdl(2..=5 | 7)
                | Format::Hmp(_)
                | Format::WmpText
                | Format::Md5Mesh
                | Format::Md5Anim
                | Format::Md5Camera
        )
    }
}

/// Detects a format from the first bytes of a file.
pub fn detect(data: &[u8]) -> Option<Format> {
    let magic = data.get(..4)?;
    let f = match magic {
        b"IDPO" => Format::QuakeMdl,
        b"IDP2" => Format::Md2,
        b"IDP3" => Format::Md3,
        b"IDST" | b"IDSQ" => Format::HalfLifeMdl,
        b"WMPB" => Format::WmpBinary,
        [b'M', b'D', b'L', d @ b'2'..=b'7'] => Format::GameStudioMdl(d - b'0'),
        [b'H', b'M', b'P', d @ (b'4' | b'5' | b'7')] => Format::Hmp(d - b'0'),
        _ => return detect_md5(data),
    };
    Some(f)
}

/// Doom 3 text files: they start (after a BOM, blanks and `//` comments) with `MD5Version`,
/// or with `commandline` or a count keyword when the version line is missing; which of the
/// three it is shows in the keywords of its first 64 KiB.
fn detect_md5(data: &[u8]) -> Option<Format> {
    let mut text = skip_bom_and_space(data);
    if text.starts_with(b"// WMP") {
        return Some(Format::WmpText);
    }
    while text.starts_with(b"//") {
        let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
        text = skip_bom_and_space(&text[end..]);
    }
    let starts = [
        &b"MD5Version"[..],
        b"commandline",
        b"numJoints",
        b"numFrames",
        b"numMeshes",
    ];
    if !starts.iter().any(|s| text.starts_with(s)) {
        return None;
    }
    let head = &text[..text.len().min(64 * 1024)];
    let has = |word: &[u8]| head.windows(word.len()).any(|w| w == word);
    if has(b"numAnimatedComponents") || has(b"hierarchy") {
        Some(Format::Md5Anim)
    } else if has(b"numCuts") || has(b"camera") {
        Some(Format::Md5Camera)
    } else {
        Some(Format::Md5Mesh)
    }
}

fn skip_bom_and_space(data: &[u8]) -> &[u8] {
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

    #[test]
    fn detects_by_magic() {
        assert_eq!(detect(b"IDPO\x06\0\0\0"), Some(Format::QuakeMdl));
        assert_eq!(detect(b"IDP3"), Some(Format::Md3));
        assert_eq!(detect(b"MDL5...."), Some(Format::GameStudioMdl(5)));
        assert_eq!(detect(b"MDL9"), None);
        assert_eq!(
            detect(b"\xEF\xBB\xBF\r\nMD5Version 10\nnumJoints 1\nnumMeshes 1"),
            Some(Format::Md5Mesh)
        );
        assert_eq!(
            detect(b"// exported\ncommandline \"\"\nnumFrames 2\nhierarchy {"),
            Some(Format::Md5Anim)
        );
        assert_eq!(
            detect(b"MD5Version 10\nnumFrames 1\nnumCuts 0"),
            Some(Format::Md5Camera)
        );
        assert_eq!(detect(b"ID"), None);
        assert_eq!(detect(b"// WMP2\r\n// WED"), Some(Format::WmpText));
    }
}
