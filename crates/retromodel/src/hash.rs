//! A fast hasher for the crate's internal tables keyed by small numbers (colours, vertex
//! positions), where the standard library's SipHash, made to resist chosen keys from a
//! network, costs more than the work around it. Keys here come from one model file and
//! tables are bounded by its size, so worst-case collisions cost time in proportion to that
//! file, not more.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash's mixing (rotate, xor, multiply by a Fibonacci constant), with the high bits
/// folded down at the end because the table picks buckets by the low bits.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl FastHasher {
    #[inline]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }

    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }

    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_small_keys_over_low_bits() {
        // Positions on a grid: the low 8 bits of the hashes of 4096 keys take many values.
        let mut low = std::collections::HashSet::new();
        for x in 0..16u32 {
            for y in 0..16u32 {
                for z in 0..16u32 {
                    let mut h = FastHasher::default();
                    std::hash::Hash::hash(&[x, y << 20, z.to_le()], &mut h);
                    low.insert(h.finish() & 0xff);
                }
            }
        }
        assert!(low.len() > 200, "{}", low.len());
        let mut map: FastMap<[u32; 3], u32> = FastMap::default();
        map.insert([1, 2, 3], 7);
        assert_eq!(map.get(&[1, 2, 3]), Some(&7));
        assert_eq!(map.get(&[3, 2, 1]), None);
    }
}
