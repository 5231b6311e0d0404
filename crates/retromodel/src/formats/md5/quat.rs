//! Quaternion maths for MD5 joints, with the MD5 sign convention.
//!
//! Quaternions here are Hamilton quaternions used with **column vectors**, as in glam,
//! nalgebra and glTF: a unit quaternion `q` rotates a vector `v` to `q v q*`, and `a * b`
//! applies `b` first, then `a`. The multiplication is the seed document's
//! (`specs/doom3-md5.txt`, "Others quaternion operations"). How the `w` that the files leave
//! out is recovered is documented once, on [`w_from_xyz`].
//!
//! Angles about an axis follow the right-hand rule: `from_axis_angle([0, 0, 1], 90°)` turns
//! `+X` into `+Y`.

use std::ops::{Mul, Neg};

/// A quaternion `x i + y j + z k + w`; orientations are unit quaternions.
///
/// `q` and `-q` are the same rotation. Quaternions read from MD5 files have `w <= 0`
/// ([`w_from_xyz`]); [`Quat::to_md5_xyz`] picks that sign again before storing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quat {
    /// `i` component.
    pub x: f32,
    /// `j` component.
    pub y: f32,
    /// `k` component.
    pub z: f32,
    /// Real component.
    pub w: f32,
}

impl Default for Quat {
    /// The identity rotation.
    fn default() -> Self {
        Quat::IDENTITY
    }
}

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
    /// The identity rotation `(0, 0, 0, 1)` (the same rotation as `(0, 0, 0, -1)`).
    pub const IDENTITY: Quat = Quat {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };

    /// A quaternion from its four components.
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Quat {
        Quat { x, y, z, w }
    }

    /// The rotation by `radians` about `axis` (right-hand rule; the axis need not be unit
    /// length). A zero axis gives the identity.
    pub fn from_axis_angle(axis: [f32; 3], radians: f32) -> Quat {
        let [ax, ay, az] = axis.map(f64::from);
        let len = (ax * ax + ay * ay + az * az).sqrt();
        if len == 0.0 || !len.is_finite() {
            return Quat::IDENTITY;
        }
        let half = f64::from(radians) * 0.5;
        let s = half.sin() / len;
        Quat::new(
            (ax * s) as f32,
            (ay * s) as f32,
            (az * s) as f32,
            half.cos() as f32,
        )
    }

    /// The components as `[x, y, z, w]` (glTF's order).
    pub const fn to_array(self) -> [f32; 4] {
        [self.x, self.y, self.z, self.w]
    }

    /// A quaternion from `[x, y, z, w]` (glTF's order).
    pub const fn from_array(a: [f32; 4]) -> Quat {
        Quat::new(a[0], a[1], a[2], a[3])
    }

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

    /// The four-component dot product.
    pub fn dot(self, other: Quat) -> f32 {
        self.dot64(other) as f32
    }

    fn dot64(self, other: Quat) -> f64 {
        f64::from(self.x) * f64::from(other.x)
            + f64::from(self.y) * f64::from(other.y)
            + f64::from(self.z) * f64::from(other.z)
            + f64::from(self.w) * f64::from(other.w)
    }

    /// The length (norm).
    pub fn length(self) -> f32 {
        self.dot64(self).sqrt() as f32
    }

    /// This quaternion scaled to length 1; a zero (or non-finite) quaternion gives the identity.
    pub fn normalize(self) -> Quat {
        let len = self.dot64(self).sqrt();
        if len == 0.0 || !len.is_finite() {
            return Quat::IDENTITY;
        }
        Quat::new(
            (f64::from(self.x) / len) as f32,
            (f64::from(self.y) / len) as f32,
            (f64::from(self.z) / len) as f32,
            (f64::from(self.w) / len) as f32,
        )
    }

    /// The conjugate `(-x, -y, -z, w)`: the inverse rotation of a unit quaternion.
    pub fn conjugate(self) -> Quat {
        Quat::new(-self.x, -self.y, -self.z, self.w)
    }

    /// The inverse `q* / |q|²` (the conjugate for unit quaternions); the identity for zero.
    pub fn inverse(self) -> Quat {
        let n = self.dot64(self);
        if n == 0.0 || !n.is_finite() {
            return Quat::IDENTITY;
        }
        let c = self.conjugate();
        Quat::new(
            (f64::from(c.x) / n) as f32,
            (f64::from(c.y) / n) as f32,
            (f64::from(c.z) / n) as f32,
            (f64::from(c.w) / n) as f32,
        )
    }

    /// Rotates `v` by this unit quaternion: the `x, y, z` of `q (v, 0) q*`, the seed's
    /// `R = Q.P.Q*`, computed as `v + 2w (u × v) + 2 u × (u × v)` with `u = (x, y, z)`.
    pub fn rotate(self, v: [f32; 3]) -> [f32; 3] {
        let u = [self.x, self.y, self.z];
        let t = cross(u, v);
        let t = [2.0 * t[0], 2.0 * t[1], 2.0 * t[2]];
        let c = cross(u, t);
        [
            v[0] + self.w * t[0] + c[0],
            v[1] + self.w * t[1] + c[1],
            v[2] + self.w * t[2] + c[2],
        ]
    }

    /// The angle in radians of the rotation taking `self` to `other`, in `[0, π]`; `q` and
    /// `-q` count as the same rotation (angle 0). Both must be unit quaternions.
    ///
    /// Computed as `2 atan2(|v|, |w|)` of `self* · other` in `f64`, accurate for small angles too.
    pub fn angle_to(self, other: Quat) -> f32 {
        let [ax, ay, az, aw] = self.to_array().map(f64::from);
        let [bx, by, bz, bw] = other.to_array().map(f64::from);
        // self* · other
        let x = aw * bx - ax * bw - ay * bz + az * by;
        let y = aw * by - ay * bw - az * bx + ax * bz;
        let z = aw * bz - az * bw - ax * by + ay * bx;
        let w = aw * bw + ax * bx + ay * by + az * bz;
        (2.0 * (x * x + y * y + z * z).sqrt().atan2(w.abs())) as f32
    }

    /// Normalised linear interpolation along the shorter arc: fast, exact at `t = 0` and
    /// `t = 1`, but not at constant angular speed.
    pub fn nlerp(self, other: Quat, t: f32) -> Quat {
        let other = if self.dot64(other) < 0.0 {
            -other
        } else {
            other
        };
        let t = f64::from(t);
        lerp64(self, other, 1.0 - t, t).normalize()
    }

    /// Spherical linear interpolation along the shorter arc (`other` is negated first when
    /// the two are more than 180° apart as 4-vectors, so `q` and `-q` blend the same), at
    /// constant angular speed. Computed in `f64`; falls back to [`Quat::nlerp`] when the two
    /// are within about 10⁻⁴ radians, where the two agree. `t = 0` gives `self`, `t = 1`
    /// gives `other` (or `-other`).
    pub fn slerp(self, other: Quat, t: f32) -> Quat {
        let mut d = self.dot64(other);
        let other = if d < 0.0 {
            d = -d;
            -other
        } else {
            other
        };
        let t = f64::from(t);
        if d > 1.0 - 1e-9 {
            return lerp64(self, other, 1.0 - t, t).normalize();
        }
        let theta = d.min(1.0).acos();
        let s = theta.sin();
        let a = ((1.0 - t) * theta).sin() / s;
        let b = (t * theta).sin() / s;
        lerp64(self, other, a, b).normalize()
    }

    /// The 3×3 rotation matrix of this unit quaternion, **column-major**: `m[c][r]` is row
    /// `r` of column `c`, and column `c` is the image of axis `c` (glTF's layout).
    pub fn to_mat3(self) -> [[f32; 3]; 3] {
        let [x, y, z, w] = self.to_array().map(f64::from);
        let (xx, yy, zz) = (x * x, y * y, z * z);
        let (xy, xz, yz) = (x * y, x * z, y * z);
        let (wx, wy, wz) = (w * x, w * y, w * z);
        [
            [1.0 - 2.0 * (yy + zz), 2.0 * (xy + wz), 2.0 * (xz - wy)],
            [2.0 * (xy - wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz + wx)],
            [2.0 * (xz + wy), 2.0 * (yz - wx), 1.0 - 2.0 * (xx + yy)],
        ]
        .map(|c| c.map(|v| v as f32))
    }

    /// The 4×4 rotation matrix, column-major (`m[4 * c + r]`), no translation.
    pub fn to_mat4(self) -> [f32; 16] {
        let m = self.to_mat3();
        [
            m[0][0], m[0][1], m[0][2], 0.0, //
            m[1][0], m[1][1], m[1][2], 0.0, //
            m[2][0], m[2][1], m[2][2], 0.0, //
            0.0, 0.0, 0.0, 1.0,
        ]
    }

    /// The unit quaternion of a column-major rotation matrix (`m[c][r]`, as
    /// [`Quat::to_mat3`] gives), by Shepperd's method (stable for every rotation). A matrix
    /// that is not a rotation gives the normalised nearest fit of this method.
    pub fn from_mat3(m: [[f32; 3]; 3]) -> Quat {
        // e(r, c): row r, column c.
        let e = |r: usize, c: usize| f64::from(m[c][r]);
        let (m00, m11, m22) = (e(0, 0), e(1, 1), e(2, 2));
        let trace = m00 + m11 + m22;
        let (x, y, z, w);
        if trace > 0.0 {
            let s = (trace + 1.0).sqrt() * 2.0;
            w = 0.25 * s;
            x = (e(2, 1) - e(1, 2)) / s;
            y = (e(0, 2) - e(2, 0)) / s;
            z = (e(1, 0) - e(0, 1)) / s;
        } else if m00 > m11 && m00 > m22 {
            let s = (1.0 + m00 - m11 - m22).sqrt() * 2.0;
            w = (e(2, 1) - e(1, 2)) / s;
            x = 0.25 * s;
            y = (e(0, 1) + e(1, 0)) / s;
            z = (e(0, 2) + e(2, 0)) / s;
        } else if m11 > m22 {
            let s = (1.0 + m11 - m00 - m22).sqrt() * 2.0;
            w = (e(0, 2) - e(2, 0)) / s;
            x = (e(0, 1) + e(1, 0)) / s;
            y = 0.25 * s;
            z = (e(1, 2) + e(2, 1)) / s;
        } else {
            let s = (1.0 + m22 - m00 - m11).sqrt() * 2.0;
            w = (e(1, 0) - e(0, 1)) / s;
            x = (e(0, 2) + e(2, 0)) / s;
            y = (e(1, 2) + e(2, 1)) / s;
            z = 0.25 * s;
        }
        Quat::new(x as f32, y as f32, z as f32, w as f32).normalize()
    }
}

impl Mul for Quat {
    type Output = Quat;

    /// The Hamilton product `self · rhs` (the seed's formula): rotating by the result is
    /// rotating by `rhs`, then by `self`.
    fn mul(self, b: Quat) -> Quat {
        let a = self;
        Quat::new(
            a.x * b.w + a.w * b.x + a.y * b.z - a.z * b.y,
            a.y * b.w + a.w * b.y + a.z * b.x - a.x * b.z,
            a.z * b.w + a.w * b.z + a.x * b.y - a.y * b.x,
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        )
    }
}

impl Neg for Quat {
    type Output = Quat;

    /// All four components negated: the same rotation.
    fn neg(self) -> Quat {
        Quat::new(-self.x, -self.y, -self.z, -self.w)
    }
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn lerp64(a: Quat, b: Quat, wa: f64, wb: f64) -> Quat {
    let f = |p: f32, q: f32| (f64::from(p) * wa + f64::from(q) * wb) as f32;
    Quat::new(f(a.x, b.x), f(a.y, b.y), f(a.z, b.z), f(a.w, b.w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    fn close3(a: [f32; 3], b: [f32; 3], eps: f32) -> bool {
        a.iter().zip(b).all(|(p, q)| (p - q).abs() <= eps)
    }

    /// The seed's `R = Q.P.Q*` with the product written out.
    fn seed_rotate(q: Quat, v: [f32; 3]) -> [f32; 3] {
        let p = Quat::new(v[0], v[1], v[2], 0.0);
        let r = q * p * q.conjugate();
        [r.x, r.y, r.z]
    }

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

    #[test]
    fn rotate_matches_seed_and_matrix() {
        let q = Quat::from_axis_angle([0.2, -0.5, 0.8], 1.3);
        let v = [1.5, -2.0, 0.25];
        let r = q.rotate(v);
        assert!(close3(r, seed_rotate(q, v), 1e-5));
        let m = q.to_mat3();
        let mv = [0, 1, 2].map(|row| m[0][row] * v[0] + m[1][row] * v[1] + m[2][row] * v[2]);
        assert!(close3(r, mv, 1e-5));
        let m4 = q.to_mat4();
        assert_eq!(m4[15], 1.0);
        assert_eq!([m4[4], m4[5], m4[6]], m[1]);
        // The product applies the right operand first.
        let a = Quat::from_axis_angle([0.0, 0.0, 1.0], FRAC_PI_2);
        let b = Quat::from_axis_angle([1.0, 0.0, 0.0], FRAC_PI_2);
        assert!(close3((a * b).rotate(v), a.rotate(b.rotate(v)), 1e-5));
        assert!(close3(
            (q * q.conjugate()).to_array()[..3].try_into().unwrap(),
            [0.0; 3],
            1e-6
        ));
        assert!(q.inverse().angle_to(q.conjugate()) < 1e-5);
    }

    #[test]
    fn matrix_round_trip() {
        for (axis, angle) in [
            ([1.0, 0.0, 0.0], PI),
            ([0.0, 1.0, 0.0], PI),
            ([0.0, 0.0, 1.0], PI),
            ([1.0, 2.0, -3.0], 0.7),
            ([1.0, 1.0, 1.0], 2.9),
            ([0.0, 0.0, 1.0], 0.0),
        ] {
            let q = Quat::from_axis_angle(axis, angle);
            let back = Quat::from_mat3(q.to_mat3());
            assert!(back.angle_to(q) < 1e-5, "{q:?} {back:?}");
            let v = [0.3, -0.7, 1.1];
            assert!(close3(back.rotate(v), q.rotate(v), 1e-5));
        }
    }

    #[test]
    fn interpolation_takes_the_short_way() {
        let a = Quat::from_axis_angle([0.0, 0.0, 1.0], 0.0);
        let b = Quat::from_axis_angle([0.0, 0.0, 1.0], FRAC_PI_2);
        let half = Quat::from_axis_angle([0.0, 0.0, 1.0], FRAC_PI_2 / 2.0);
        for b in [b, -b] {
            assert!(a.slerp(b, 0.5).angle_to(half) < 1e-5);
            assert!(a.nlerp(b, 0.5).angle_to(half) < 1e-5);
            // Constant speed: a quarter of the way is 22.5 degrees.
            let quarter = Quat::from_axis_angle([0.0, 0.0, 1.0], FRAC_PI_2 / 4.0);
            let v = [1.0, 0.0, 0.0];
            assert!(close3(a.slerp(b, 0.25).rotate(v), quarter.rotate(v), 1e-6));
        }
        assert_eq!(a.slerp(b, 0.0), a);
        assert!(a.slerp(b, 1.0).angle_to(b) < 1e-5);
        // Nearly equal rotations.
        let c = Quat::from_axis_angle([0.0, 0.0, 1.0], 1e-6);
        assert!((a.slerp(c, 0.5).length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn normalize_and_degenerate() {
        let q = Quat::new(0.0, 0.0, 3.0, 4.0).normalize();
        assert!((q.z - 0.6).abs() < 1e-7 && (q.w - 0.8).abs() < 1e-7);
        assert_eq!(Quat::new(0.0, 0.0, 0.0, 0.0).normalize(), Quat::IDENTITY);
        assert_eq!(Quat::from_axis_angle([0.0; 3], 1.0), Quat::IDENTITY);
        assert_eq!(Quat::default(), Quat::IDENTITY);
    }
}
