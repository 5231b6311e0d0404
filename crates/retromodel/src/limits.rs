//! Bounds on what a parser may allocate, so hostile headers fail fast with little memory.
//!
//! Every count read from a file is checked twice before anything is allocated for it: against
//! the bytes actually left in the input (a count can never claim more elements than the data
//! holds) and against these limits.

/// Allocation limits for parsing and conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest number of bytes one decoded model may occupy (pictures, vertex arrays and
    /// their bookkeeping together, as charged by the parsers to a [`Budget`] before they
    /// allocate). Default 1 GiB.
    pub max_alloc_bytes: u64,
    /// Largest image width or height in pixels. Default 16384.
    pub max_image_dimension: u32,
    /// Largest element count of any single array in a file (vertices, frames, ...).
    /// Default 16 Mi.
    pub max_count: u32,
    /// Largest number of frames an import samples from animations, all its animations
    /// together (glTF: each sampled animation gives its key-time span x the frame rate + 1
    /// frames, at 10 fps for keyframe poses and 24 for skeletal animations unless
    /// [`ImportOptions::fps`](crate::interchange::ImportOptions::fps) says otherwise; baking a
    /// skeletal animation at a given rate likewise). Key times cost a few bytes of input
    /// but may span hours, and every sampled frame stores every vertex, so this bounds the
    /// work a small file can ask for; a lower frame rate samples fewer frames. Frames a file
    /// stores one by one (keys that are whole poses or evenly spaced skeletal keys) are
    /// bounded by the input's size instead and do not count. Default 10000.
    pub max_sampled_frames: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_alloc_bytes: 1 << 30,
            max_image_dimension: 16384,
            max_count: 1 << 24,
            max_sampled_frames: 10_000,
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
            max_sampled_frames: u32::MAX,
        }
    }
}

/// A running total of what a parse and its conversion will allocate, charged before each
/// allocation and checked against [`Limits::max_alloc_bytes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    used: u64,
    limit: u64,
}

impl Budget {
    /// An empty budget for `limits`.
    pub fn new(limits: &Limits) -> Self {
        Budget {
            used: 0,
            limit: limits.max_alloc_bytes,
        }
    }

    /// Adds `bytes`; fails with the limit when the total would exceed it.
    pub fn charge(&mut self, bytes: u64) -> Result<(), u64> {
        match self.used.checked_add(bytes) {
            Some(total) if total <= self.limit => {
                self.used = total;
                Ok(())
            }
            _ => Err(self.limit),
        }
    }

    /// Bytes charged so far.
    pub fn used(&self) -> u64 {
        self.used
    }
}
