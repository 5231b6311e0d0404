//! Offset-addressed binary files (MD2, MD3): sections placed where their header says, and the
//! bytes no section claims kept as [`Gap`]s so that an unmodified file writes back byte for
//! byte whatever its layout (sections in any order, holes between them, trailing data).

use std::borrow::Cow;

/// Bytes of a file that no section claims, kept with their offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap<'a> {
    /// Where they start.
    pub offset: usize,
    /// The bytes.
    pub bytes: Cow<'a, [u8]>,
}

impl Gap<'_> {
    /// The same gap, detached from its input.
    pub fn into_owned(self) -> Gap<'static> {
        Gap {
            offset: self.offset,
            bytes: Cow::Owned(self.bytes.into_owned()),
        }
    }
}

/// The byte ranges of `data` outside every `covered` range (`start..end`, in any order, may
/// overlap), with their bytes.
pub fn find_gaps<'a>(
    data: &'a [u8],
    covered: impl IntoIterator<Item = (usize, usize)>,
) -> Vec<Gap<'a>> {
    let mut covered: Vec<(usize, usize)> = covered
        .into_iter()
        .filter(|(s, e)| e > s)
        .map(|(s, e)| (s.min(data.len()), e.min(data.len())))
        .collect();
    covered.sort_unstable();
    let mut gaps = Vec::new();
    let mut at = 0;
    for (start, end) in covered {
        if start > at {
            gaps.push(Gap {
                offset: at,
                bytes: Cow::Borrowed(&data[at..start]),
            });
        }
        at = at.max(end);
    }
    if at < data.len() {
        gaps.push(Gap {
            offset: at,
            bytes: Cow::Borrowed(&data[at..]),
        });
    }
    gaps
}

/// A file of at least `min_len` bytes with the gaps restored and every `(offset, bytes)`
/// section written at its offset (later sections over earlier ones; an empty section is
/// skipped, whatever its offset).
pub fn assemble(sections: &[(usize, &[u8])], gaps: &[Gap<'_>], min_len: usize) -> Vec<u8> {
    let end = sections
        .iter()
        .filter(|(_, b)| !b.is_empty())
        .map(|(ofs, b)| ofs + b.len())
        .chain(gaps.iter().map(|g| g.offset + g.bytes.len()))
        .chain([min_len])
        .max()
        .unwrap_or(0);
    let mut out = vec![0u8; end];
    for g in gaps {
        out[g.offset..g.offset + g.bytes.len()].copy_from_slice(&g.bytes);
    }
    for (ofs, b) in sections.iter().filter(|(_, b)| !b.is_empty()) {
        out[*ofs..ofs + b.len()].copy_from_slice(b);
    }
    out
}
