//! Bounds on what a parser may allocate, so hostile headers fail fast with little memory.
//!
//! Every count read from a file is checked twice before anything is allocated for it: against
//! the bytes actually left in the input (a count can never claim more elements than the data
//! holds) and against these limits.

/// Allocation limits for parsing and conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest number of bytes one decoded model may occupy (pictures and vertex arrays
    /// together, as estimated by the converters). Default 1 GiB.
    pub max_alloc_bytes: u64,
    /// Largest image width or height in pixels. Default 16384.
    pub max_image_dimension: u32,
    /// Largest element count of any single array in a file (vertices, frames, ...).
    /// Default 16 Mi.
    pub max_count: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_alloc_bytes: 1 << 30,
            max_image_dimension: 16384,
            max_count: 1 << 24,
        }
    }
}

impl Limits {
    /// Limits with no bounds beyond what the input data can hold.
    pub fn none() -> Self {
        Limits {
            max_alloc_bytes: u64::MAX,
            max_image_dimension: u32::MAX,
            max_count: u32::MAX,
        }
    }
}
