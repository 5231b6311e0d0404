//! [`SharedBytes`]: a file's bytes held by reference count, so that what is made from them
//! (a Model's stored frames) can keep a part of them instead of a copy.

use std::ops::{Deref, Range};
use std::sync::Arc;

/// File bytes shared by reference count ([`crate::Document::parse_shared`]). Made from a
/// `Vec<u8>` without copying; cloning shares them.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SharedBytes(Arc<Vec<u8>>);

impl SharedBytes {
    /// Where `part`, a slice borrowed from these bytes, lies in them; `None` for a slice
    /// from elsewhere (compared by address, so an equal copy is not found).
    pub fn range_of(&self, part: &[u8]) -> Option<Range<usize>> {
        let base = self.0.as_ptr() as usize;
        let start = (part.as_ptr() as usize).checked_sub(base)?;
        let end = start.checked_add(part.len())?;
        (end <= self.0.len()).then_some(start..end)
    }
}

impl From<Vec<u8>> for SharedBytes {
    fn from(bytes: Vec<u8>) -> Self {
        SharedBytes(Arc::new(bytes))
    }
}

impl Deref for SharedBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedBytes({} bytes)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_its_own_parts_only() {
        let bytes = SharedBytes::from((0u8..100).collect::<Vec<u8>>());
        assert_eq!(bytes.range_of(&bytes[10..30]), Some(10..30));
        assert_eq!(bytes.range_of(&bytes[100..]), Some(100..100));
        let copy = bytes[10..30].to_vec();
        assert_eq!(bytes.range_of(&copy), None);
        assert_eq!(bytes.clone(), bytes);
        assert_eq!(format!("{bytes:?}"), "SharedBytes(100 bytes)");
    }
}
