//! A decimal number taken apart ([`Number`]: sign, digits, power of ten) and the exact fast
//! ways to its value: Clinger's path to the nearest `f32`, and eight ASCII digits at once.

use super::syntax::Kind;

/// A decimal number read by [`Parser::take_number`]: `(-1)^negative × mantissa × 10^exp10`.
///
/// [`Parser::take_number`]: super::Parser::take_number
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Number {
    /// A leading `-`.
    pub negative: bool,
    /// The digits (at most 19, leading zeros included) as an integer.
    pub mantissa: u64,
    /// The power of ten the digits are scaled by (the exponent less the fraction digits).
    pub exp10: i32,
    /// Whether it is a [`Kind::Float`] (it has a fraction or an exponent).
    pub float: bool,
}

/// Powers of ten that are exact in an `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `1 / 10^n`, rounded to the nearest `f64`.
pub(super) const RECIP10: [f64; 23] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14,
    1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22,
];

impl Number {
    /// [`Kind::Float`] or [`Kind::Int`].
    pub fn kind(&self) -> Kind {
        if self.float {
            Kind::Float
        } else {
            Kind::Int
        }
    }

    /// The integer, for a [`Kind::Int`] within `i64` (`None` otherwise).
    pub fn to_i64(&self) -> Option<i64> {
        if self.float || self.exp10 != 0 {
            return None;
        }
        let v = i64::try_from(self.mantissa).ok()?;
        Some(if self.negative { -v } else { v })
    }

    /// The nearest `f32` (ties to even, the value `str::parse::<f32>` gives), when it can be
    /// computed exactly in a few operations; `None` when the text must be parsed instead.
    ///
    /// Clinger's fast path in `f64`: digits below 2^53 and a power of ten up to 10^22 are
    /// exact, so one multiplication or division rounds correctly to `f64`. Rounding that on
    /// to `f32` is the correct `f32` too, except when the `f64` falls exactly halfway between
    /// two `f32` values (then the first rounding may have made the tie), which is declined,
    /// as are results outside the normal `f32` range.
    #[inline]
    pub fn to_f32(&self) -> Option<f32> {
        let m = self.mantissa;
        let value = if m == 0 {
            0.0
        } else {
            if m > 1 << 53 {
                return None;
            }
            let e = usize::try_from(self.exp10.unsigned_abs()).ok()?;
            let pow = *POW10.get(e)?;
            // Below 2^53, so exact as an i64's conversion (one instruction; a u64's is several).
            let m = m as i64 as f64;
            // The 29 bits an f64's fraction has beyond an f32's, against exactly half of the
            // last kept one: how far the f64 lies from a point where f32 rounding turns.
            let from_tie = |r: f64| (r.to_bits() & 0x1fff_ffff).abs_diff(0x1000_0000);
            let r = if self.exp10 < 0 {
                // A multiplication by the rounded reciprocal is within a few f64 units of
                // the quotient; unless the f32 rounding turns that close, it rounds the same
                // way (a division costs a third of the parse). Else divide, exactly.
                let r = m * RECIP10[e];
                if from_tie(r) > 16 {
                    r
                } else {
                    m / pow
                }
            } else {
                m * pow
            };
            if !(f64::from(f32::MIN_POSITIVE)..=f64::from(f32::MAX)).contains(&r) {
                return None;
            }
            if from_tie(r) == 0 {
                return None;
            }
            r as f32
        };
        Some(if self.negative { -value } else { value })
    }
}

/// The value of eight ASCII digits in a little-endian word (the first digit in the low
/// byte), or `None` if any byte is not a digit: checked and combined at once (SWAR, as in
/// simdjson's `parse_eight_digits_unrolled`).
#[inline(always)]
pub(super) fn eight_digits(w: u64) -> Option<u64> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    if (w & HIGH) != ZEROS || (w.wrapping_add(0x0606_0606_0606_0606) & HIGH) != ZEROS {
        return None;
    }
    // Pairs of digits in bytes 0, 2, 4, 6, then the four pairs weighed at once.
    let mut v = w - ZEROS;
    v = v.wrapping_mul(10).wrapping_add(v >> 8);
    const PAIRS: u64 = 0x0000_00ff_0000_00ff;
    Some(
        ((v & PAIRS)
            .wrapping_mul(100 + (1_000_000 << 32))
            .wrapping_add(((v >> 16) & PAIRS).wrapping_mul(1 + (10_000 << 32))))
            >> 32,
    )
}
