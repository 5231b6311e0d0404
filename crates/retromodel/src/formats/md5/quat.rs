//! The MD5 side of quaternions: files store only `x, y, z` of each orientation, and the sign
//! of the `w` they leave out is decided here, once ([`w_from_xyz`], [`Quat::to_md5_xyz`]).
//!
//! The quaternion type and its maths are the crate's ([`crate::math::Quat`]: Hamilton
//! quaternions with column vectors, as glTF); it is re-exported here for MD5 callers.

pub use crate::math::Quat;

/// Rebuilds a unit quaternion from the `x, y, z` an MD5 file stores.
///
/// **The MD5 `w` convention (the one place it is decided).** The files store only `x, y, z`
/// of each orientation. Doom 3 computes `w = +sqrt(|1 - x² - y² - z²|)` but multiplies *row*
/// vectors, which rotates the other way; in column-vector maths (glam, nalgebra, glTF, and
/// everything in this crate) the same rotation has
///
/// ```text
/// w = -sqrt(max(0, 1 - x² - y² - z²))
/// ```
///
/// which is also the seed document's formula (`specs/doom3-md5.txt`, "Computing the
/// w-component"; `specs/ENGINE-NOTES.md`, "Doom 3 MD5"). Example: a joint turned +90° about
/// `+Z` is `(0, 0, sin 45°, cos 45°)`; its negation `(0, 0, -0.7071, -0.7071)` is the same
/// rotation with `w <= 0`, so the file stores `z = -0.7071`.
///
/// The sum is taken in `f64` so that `w` keeps its precision when it is small. When
/// `x² + y² + z²` exceeds 1 (rounding, or a damaged file), `w` is 0 as in the seed and `x, y, z`
/// are scaled to length 1, so the result is always a unit quaternion (the rotation is the
/// one the file means; only the stray length is dropped). All zeros give `(0, 0, 0, -1)`,
/// the identity.
pub fn w_from_xyz(xyz: [f32; 3]) -> Quat {
    let [x, y, z] = xyz.map(f64::from);
    let t = 1.0 - x * x - y * y - z * z;
    if t >= 0.0 {
        Quat::new(xyz[0], xyz[1], xyz[2], -(t.sqrt() as f32))
    } else {
        let len = (x * x + y * y + z * z).sqrt();
        Quat::new((x / len) as f32, (y / len) as f32, (z / len) as f32, -0.0)
    }
}

impl Quat {
    /// The `x, y, z` to store in an MD5 file: normalised, and negated first when `w > 0`, so
    /// that [`w_from_xyz`] gives this rotation back.
    ///
    /// Near a half turn (`w` close to 0) the `w` derived from rounded `f32` components is
    /// `sqrt` of a rounding error (about 2e-4 for `w = 0`), so the stored `x, y, z` are
    /// nudged by single ULPs while that brings the derived `w` closer to this one.
    pub fn to_md5_xyz(self) -> [f32; 3] {
        // A quaternion that is already unit (as every one decoded from a file is) keeps its
        // components: renormalising in f32 moves them by an ULP, and `w` with them.
        let q = if (self.dot64(self) - 1.0).abs() < 1e-6 {
            self
        } else {
            self.normalize()
        };
        let q = if q.w > 0.0 { -q } else { q };
        let mut best = [q.x, q.y, q.z];
        let err = |xyz: [f32; 3]| (w_from_xyz(xyz).w - q.w).abs();
        if err(best) > 1e-6 {
            for _ in 0..16 {
                let grow = best.map(|c| {
                    if c == 0.0 {
                        c
                    } else {
                        c * (1.0 + f32::EPSILON)
                    }
                });
                let shrink = best.map(|c| c * (1.0 - f32::EPSILON / 2.0));
                let next = if err(grow) < err(shrink) {
                    grow
                } else {
                    shrink
                };
                if err(next) >= err(best) {
                    break;
                }
                best = next;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::tests::{close3, seed_rotate};
    use std::f32::consts::FRAC_PI_2;

    #[test]
    fn w_convention() {
        let q = w_from_xyz([0.0, 0.0, -std::f32::consts::FRAC_1_SQRT_2]);
        assert!((q.w + std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6);
        // +90 degrees about +Z: X goes to Y.
        assert!(close3(q.rotate([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0], 1e-6));
        assert!(close3(
            seed_rotate(q, [1.0, 0.0, 0.0]),
            [0.0, 1.0, 0.0],
            1e-6
        ));
        assert!(q.angle_to(Quat::from_axis_angle([0.0, 0.0, 1.0], FRAC_PI_2)) < 1e-5);
        // Identity and over-long input.
        assert_eq!(w_from_xyz([0.0; 3]), Quat::new(0.0, 0.0, 0.0, -1.0));
        let q = w_from_xyz([1.0, 1.0, 0.0]);
        assert!(q.w == 0.0 && (q.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn md5_xyz_round_trip() {
        for (axis, angle) in [
            ([1.0, 2.0, 3.0], 0.3),
            ([0.0, 1.0, 0.0], -2.5),
            ([1.0, -1.0, 0.5], 3.0),
            ([0.0, 0.0, 1.0], 0.0),
        ] {
            let q = Quat::from_axis_angle(axis, angle);
            for q in [q, -q] {
                let back = w_from_xyz(q.to_md5_xyz());
                assert!(back.w <= 0.0);
                assert!(back.angle_to(q) < 1e-5, "{q:?} {back:?}");
                let v = [0.3, -0.7, 1.1];
                assert!(close3(back.rotate(v), q.rotate(v), 1e-5));
            }
        }
    }
}
