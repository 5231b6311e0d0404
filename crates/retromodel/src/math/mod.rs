//! The crate's one set of 3D maths: vectors, quaternions, 4×4 matrices (translation, rotation,
//! scale: composed, decomposed, inverted), rotation matrices to quaternions, slerp and nlerp.
//! Skeletal posing and skinning on the model's joints build on it in [`crate::model::pose`].
//!
//! **Convention (everything here and every caller).**
//! - Right-handed coordinates; rotations follow the right-hand rule
//!   (`Quat::from_axis_angle([0, 0, 1], 90°)` turns `+X` into `+Y`).
//! - **Column vectors**, as glTF, glam and nalgebra: a matrix maps `p` to `M · p`, and
//!   `A · B` applies `B` first. A transform is `T · R · S` (scale first, then rotation, then
//!   translation).
//! - Matrices are 16 numbers **column-major**, as glTF stores them: `m[4 * column + row]`,
//!   the translation in elements 12, 13, 14 ([`Mat4`] in `f32`, [`Mat4d`] in `f64`; the
//!   generic functions take either).
//! - Quaternions are Hamilton quaternions stored `[x, y, z, w]` (glTF's order; [`Quat`] or a
//!   plain array): a unit quaternion `q` rotates `v` to `q v q*`, and `a * b` rotates by `b`
//!   first, then by `a`.
//!
//! A file format with another convention converts at its border: MD5 stores only `x, y, z`
//! of each quaternion and derives `w` (`formats/md5/quat.rs`); MDL7 stores row-vector matrices
//! row by row, which are the same 16 numbers as their column-vector form column by column.
//!
//! Functions that existed in several places before keep their arithmetic (operation order,
//! `f32` or `f64`), so results are bit-for-bit what they were.

pub mod det;

use std::iter::Sum;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// `f32` or `f64`, for the functions written once for both precisions.
pub trait Real:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Sum
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// 2.
    const TWO: Self;
    /// 0.25.
    const QUARTER: Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// Whether the value is neither infinite nor NaN.
    fn is_finite(self) -> bool;
}

macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const TWO: $t = 2.0;
            const QUARTER: $t = 0.25;
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
        }
    };
}
real!(f32);
real!(f64);

/// A column-major 4×4 matrix in `f32` (`m[4 * column + row]`).
pub type Mat4 = [f32; 16];

/// A column-major 4×4 matrix in `f64` (`m[4 * column + row]`).
pub type Mat4d = [f64; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// `a + b`.
#[inline]
pub fn add<F: Real>(a: [F; 3], b: [F; 3]) -> [F; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`.
#[inline]
pub fn sub<F: Real>(a: [F; 3], b: [F; 3]) -> [F; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `-a`.
#[inline]
pub fn neg<F: Real>(a: [F; 3]) -> [F; 3] {
    [-a[0], -a[1], -a[2]]
}

/// `a · s`.
#[inline]
pub fn scale<F: Real>(a: [F; 3], s: F) -> [F; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// The dot product.
#[inline]
pub fn dot<F: Real>(a: [F; 3], b: [F; 3]) -> F {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The length, `sqrt(a · a)`.
#[inline]
pub fn length<F: Real>(a: [F; 3]) -> F {
    dot(a, a).sqrt()
}

/// The cross product `a × b`.
pub fn cross<F: Real>(a: [F; 3], b: [F; 3]) -> [F; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a` scaled to length 1 (computed in `f64`), or `fallback` when `a` has no direction
/// (length at most 1e-30, or not finite).
pub fn normalize_or(a: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = a.map(f64::from);
    let len = (x * x + y * y + z * z).sqrt();
    if len > 1e-30 && len.is_finite() {
        [(x / len) as f32, (y / len) as f32, (z / len) as f32]
    } else {
        fallback
    }
}

/// [`normalize_or`] for vectors that are mostly unit already (stored normals), cheaper: kept
/// as they are where the squared length is within 1e-6 of 1 (the length within 5e-7 of 1,
/// a few `f32` steps), divided by their length in `f32` where the squared length lies in
/// 1e-6..=1e6, else [`normalize_or`] (in `f64`). Applied twice it gives the same vector.
#[inline]
pub fn unit_or(a: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = a;
    let len2 = x * x + y * y + z * z;
    if (len2 - 1.0).abs() <= 1e-6 {
        a
    } else if (1e-6..=1e6).contains(&len2) {
        let len = len2.sqrt();
        [x / len, y / len, z / len]
    } else {
        normalize_or(a, fallback)
    }
}

/// `v` scaled to unit length in `f32`, or `fallback` when its length is at most 1e-20 or
/// not finite.
pub fn normalize3(v: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    normalize_above(v, 1e-20, fallback)
}

/// `v` scaled to unit length in its own precision, or `fallback` when its length is at most
/// `min_length` or not finite.
#[inline]
pub fn normalize_above<F: Real>(v: [F; 3], min_length: F, fallback: [F; 3]) -> [F; 3] {
    let l = length(v);
    if l.is_finite() && l > min_length {
        v.map(|c| c / l)
    } else {
        fallback
    }
}

/// The inverse of [`crate::model::to_y_up`]: `(x, y, z) -> (x, -z, y)`, glTF's and OBJ's
/// Y-up space back to the model's Z-up space.
pub fn from_y_up(p: [f32; 3]) -> [f32; 3] {
    [p[0], -p[2] + 0.0, p[1]]
}

/// [`from_y_up`] for a rotation quaternion: the vector part turns with the axes.
pub fn quat_from_y_up(q: [f32; 4]) -> [f32; 4] {
    let [x, y, z] = from_y_up([q[0], q[1], q[2]]);
    [x, y, z, q[3]]
}

/// A quaternion `x i + y j + z k + w`; orientations are unit quaternions.
///
/// `q` and `-q` are the same rotation. (MD5 stores only `x, y, z` and derives `w <= 0`:
/// the MD5 format keeps that convention in `formats/md5/quat.rs`.)
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
        let s = det::sin(half) / len;
        Quat::new(
            (ax * s) as f32,
            (ay * s) as f32,
            (az * s) as f32,
            det::cos(half) as f32,
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

    /// The four-component dot product.
    pub fn dot(self, other: Quat) -> f32 {
        self.dot64(other) as f32
    }

    /// The four-component dot product in `f64`.
    pub(crate) fn dot64(self, other: Quat) -> f64 {
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
        (2.0 * det::atan2((x * x + y * y + z * z).sqrt(), w.abs())) as f32
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
        let theta = det::acos(d.min(1.0));
        let s = det::sin(theta);
        let a = det::sin((1.0 - t) * theta) / s;
        let b = det::sin(t * theta) / s;
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
    /// [`Quat::to_mat3`] gives): [`quat_from_rotation`] in `f64`.
    pub fn from_mat3(m: [[f32; 3]; 3]) -> Quat {
        let q = quat_from_rotation(&m.map(|c| c.map(f64::from)));
        Quat::from_array(q.map(|v| v as f32))
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

fn lerp64(a: Quat, b: Quat, wa: f64, wb: f64) -> Quat {
    let f = |p: f32, q: f32| (f64::from(p) * wa + f64::from(q) * wb) as f32;
    Quat::new(f(a.x, b.x), f(a.y, b.y), f(a.z, b.z), f(a.w, b.w))
}

/// `a · b` (apply `b`, then `a`).
pub fn mul<F: Real>(a: &[F; 16], b: &[F; 16]) -> [F; 16] {
    let mut out = [F::ZERO; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[4 * c + r] = (0..4).map(|k| a[4 * k + r] * b[4 * c + k]).sum();
        }
    }
    out
}

/// `q` scaled to unit length (the identity `[0, 0, 0, 1]` for a zero or non-finite `q`).
pub fn normalize4<F: Real>(q: [F; 4]) -> [F; 4] {
    let l = (q.iter().map(|&c| c * c).sum::<F>()).sqrt();
    if l.is_finite() && l > F::ZERO {
        q.map(|c| c / l)
    } else {
        [F::ZERO, F::ZERO, F::ZERO, F::ONE]
    }
}

/// The matrix `T · R · S` of a translation, a rotation (quaternion `[x, y, z, w]`, normalised
/// first) and a per-axis scale, in the precision of its arguments.
pub fn from_trs<F: Real>(t: [F; 3], q: [F; 4], s: [F; 3]) -> [F; 16] {
    let [x, y, z, w] = normalize4(q);
    let (one, two) = (F::ONE, F::TWO);
    let r = [
        [
            one - two * (y * y + z * z),
            two * (x * y + z * w),
            two * (x * z - y * w),
        ],
        [
            two * (x * y - z * w),
            one - two * (x * x + z * z),
            two * (y * z + x * w),
        ],
        [
            two * (x * z + y * w),
            two * (y * z - x * w),
            one - two * (x * x + y * y),
        ],
    ];
    let mut m = [F::ZERO; 16];
    m[15] = one;
    for (c, col) in r.iter().enumerate() {
        for (row, &v) in col.iter().enumerate() {
            m[4 * c + row] = v * s[c];
        }
    }
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// Maps a point: `m · (p, 1)`.
pub fn transform_point(m: &Mat4, p: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
}

/// Maps a direction by the upper 3×3 block.
pub fn transform_vector(m: &Mat4, v: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|r| m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2])
}

/// The determinant of the upper 3×3 block (negative for a mirroring transform).
pub fn det3<F: Real>(m: &[F; 16]) -> F {
    m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
        + m[8] * (m[1] * m[6] - m[5] * m[2])
}

/// The inverse of an affine matrix (last row `0 0 0 1`), or `None` when it is singular.
pub fn inverse_affine(m: &Mat4) -> Option<Mat4> {
    let d = det3(m);
    if !(d.is_finite() && d.abs() > 1e-12) {
        return None;
    }
    let a = |r: usize, c: usize| m[4 * c + r];
    // Inverse of the 3x3 block by cofactors.
    let mut inv = IDENTITY;
    for r in 0..3 {
        for c in 0..3 {
            let (r1, r2) = ((c + 1) % 3, (c + 2) % 3);
            let (c1, c2) = ((r + 1) % 3, (r + 2) % 3);
            inv[4 * c + r] = (a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1)) / d;
        }
    }
    let t = [m[12], m[13], m[14]];
    let it = transform_vector(&inv, t);
    inv[12] = -it[0];
    inv[13] = -it[1];
    inv[14] = -it[2];
    Some(inv)
}

/// The normal matrix of `m`: the inverse transpose of its upper 3×3 block (as a 4×4 with no
/// translation), or `m` itself when singular.
pub fn normal_matrix(m: &Mat4) -> Mat4 {
    let Some(inv) = inverse_affine(m) else {
        return *m;
    };
    let mut out = IDENTITY;
    for r in 0..3 {
        for c in 0..3 {
            out[4 * c + r] = inv[4 * r + c];
        }
    }
    out
}

/// The first three columns' first three rows: the linear part as columns.
pub fn columns<F: Real>(m: &[F; 16]) -> [[F; 3]; 3] {
    std::array::from_fn(|c| [m[4 * c], m[4 * c + 1], m[4 * c + 2]])
}

/// Splits the linear part of an affine matrix into per-axis scale and the rotation's
/// columns: each column's length is its scale, negated for x when the matrix mirrors
/// (`det3 < 0`), and the columns divided by it (a zero column stays zero).
pub fn split_scale<F: Real>(m: &[F; 16]) -> ([F; 3], [[F; 3]; 3]) {
    let cols = columns(m);
    let len = |v: [F; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let mut s = [len(cols[0]), len(cols[1]), len(cols[2])];
    if det3(m) < F::ZERO {
        s[0] = -s[0];
    }
    let mut r = [[F::ZERO; 3]; 3];
    for (c, rc) in r.iter_mut().enumerate() {
        let k = if s[c] != F::ZERO {
            F::ONE / s[c]
        } else {
            F::ZERO
        };
        *rc = cols[c].map(|x| x * k);
    }
    (s, r)
}

/// Splits an affine matrix into translation, rotation `[x, y, z, w]` and per-axis scale
/// ([`split_scale`], then [`quat_from_rotation`]; a mirroring matrix gets a negative x
/// scale).
pub fn decompose<F: Real>(m: &[F; 16]) -> ([F; 3], [F; 4], [F; 3]) {
    let (s, r) = split_scale(m);
    ([m[12], m[13], m[14]], quat_from_rotation(&r), s)
}

/// The unit quaternion `[x, y, z, w]` of a rotation matrix given as its columns, by
/// Shepperd's method (stable for every rotation), in the precision of its argument. A matrix
/// that is not quite a rotation gives the normalised nearest fit of this method.
pub fn quat_from_rotation<F: Real>(c: &[[F; 3]; 3]) -> [F; 4] {
    // m(row, col) = c[col][row]
    let m = |r: usize, k: usize| c[k][r];
    let (one, two, quarter) = (F::ONE, F::TWO, F::QUARTER);
    let trace = m(0, 0) + m(1, 1) + m(2, 2);
    let q = if trace > F::ZERO {
        let s = (trace + one).sqrt() * two;
        [
            (m(2, 1) - m(1, 2)) / s,
            (m(0, 2) - m(2, 0)) / s,
            (m(1, 0) - m(0, 1)) / s,
            quarter * s,
        ]
    } else if m(0, 0) > m(1, 1) && m(0, 0) > m(2, 2) {
        let s = (one + m(0, 0) - m(1, 1) - m(2, 2)).sqrt() * two;
        [
            quarter * s,
            (m(0, 1) + m(1, 0)) / s,
            (m(0, 2) + m(2, 0)) / s,
            (m(2, 1) - m(1, 2)) / s,
        ]
    } else if m(1, 1) > m(2, 2) {
        let s = (one + m(1, 1) - m(0, 0) - m(2, 2)).sqrt() * two;
        [
            (m(0, 1) + m(1, 0)) / s,
            quarter * s,
            (m(1, 2) + m(2, 1)) / s,
            (m(0, 2) - m(2, 0)) / s,
        ]
    } else {
        let s = (one + m(2, 2) - m(0, 0) - m(1, 1)).sqrt() * two;
        [
            (m(0, 2) + m(2, 0)) / s,
            (m(1, 2) + m(2, 1)) / s,
            quarter * s,
            (m(1, 0) - m(0, 1)) / s,
        ]
    };
    normalize4(q)
}

/// Spherical interpolation between unit quaternions `[x, y, z, w]` along the shorter arc,
/// in `f32` (glTF's reference formula: linear and normalised when the two are within
/// `acos(0.9995)`). [`Quat::slerp`] is the `f64` one.
pub fn slerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    let mut d: f32 = (0..4).map(|i| a[i] * b[i]).sum();
    let b = if d < 0.0 {
        d = -d;
        b.map(|c| -c)
    } else {
        b
    };
    if d > 0.9995 {
        return normalize4(std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t));
    }
    let theta = det::acos(d.clamp(-1.0, 1.0));
    let s = det::sin(theta);
    let (wa, wb) = (det::sin((1.0 - t) * theta) / s, det::sin(t * theta) / s);
    normalize4(std::array::from_fn(|i| a[i] * wa + b[i] * wb))
}

/// Area-weighted vertex normals of counter-clockwise triangles (the unit normal of the
/// summed face normals; straight up in Y for a vertex no triangle uses).
pub fn smooth_normals(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> Vec<[f32; 3]> {
    let mut acc = vec![[0.0f32; 3]; positions.len()];
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let u: [f32; 3] = std::array::from_fn(|k| b[k] - a[k]);
        let v: [f32; 3] = std::array::from_fn(|k| c[k] - a[k]);
        let n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        for &i in t {
            for k in 0..3 {
                acc[i as usize][k] += n[k];
            }
        }
    }
    acc.into_iter()
        .map(|n| normalize3(n, [0.0, 1.0, 0.0]))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    /// Whether every component of `a` is within `eps` of `b`'s.
    pub(crate) fn close3(a: [f32; 3], b: [f32; 3], eps: f32) -> bool {
        a.iter().zip(b).all(|(p, q)| (p - q).abs() <= eps)
    }

    /// The seed's `R = Q.P.Q*` with the product written out.
    pub(crate) fn seed_rotate(q: Quat, v: [f32; 3]) -> [f32; 3] {
        let p = Quat::new(v[0], v[1], v[2], 0.0);
        let r = q * p * q.conjugate();
        [r.x, r.y, r.z]
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

    #[test]
    fn unit_or_keeps_unit_normalises_the_rest_and_is_stable() {
        let unit = [0.6f32, 0.0, 0.8];
        assert_eq!(unit_or(unit, [0.0, 0.0, 1.0]), unit);
        let long = unit_or([0.0, 3.0, 4.0], [0.0, 0.0, 1.0]);
        assert!(close(&long, &[0.0, 0.6, 0.8]));
        assert_eq!(unit_or(long, [0.0, 0.0, 1.0]), long);
        // Outside f32's comfortable range: the f64 path.
        let huge = unit_or([3e30, 0.0, 4e30], [0.0, 0.0, 1.0]);
        assert!(close(&huge, &[0.6, 0.0, 0.8]));
        let tiny = unit_or([3e-30, 0.0, 4e-30], [0.0, 0.0, 1.0]);
        assert!(close(&tiny, &[0.6, 0.0, 0.8]));
        for bad in [[0.0; 3], [f32::NAN, 0.0, 1.0], [f32::INFINITY, 0.0, 0.0]] {
            assert_eq!(unit_or(bad, [0.0, 0.0, 1.0]), [0.0, 0.0, 1.0]);
        }
        // Within an f32 rounding of the f64 result.
        for v in [[0.3f32, -0.2, 0.9], [1.5, 2.5, -0.5], [0.01, 0.02, 0.03]] {
            let (a, b) = (unit_or(v, [0.0; 3]), normalize_or(v, [0.0; 3]));
            assert!(a
                .iter()
                .zip(&b)
                .all(|(x, y)| (x - y).abs() <= 2.0 * f32::EPSILON));
        }
    }

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn trs_round_trips_through_decompose_and_inverse() {
        let q = normalize4([0.3f32, -0.5, 0.2, 0.8]);
        let m = from_trs([1.0, 2.0, 3.0], q, [2.0, 0.5, 1.5]);
        let (t, r, s) = decompose(&m);
        assert!(close(&t, &[1.0, 2.0, 3.0]));
        assert!(close(&s, &[2.0, 0.5, 1.5]));
        let same = (0..4).map(|i| r[i] * q[i]).sum::<f32>().abs();
        assert!((same - 1.0).abs() < 1e-5, "{r:?} vs {q:?}");
        let inv = inverse_affine(&m).unwrap();
        assert!(close(&mul(&m, &inv), &IDENTITY));
        let p = [0.5, -1.0, 4.0];
        assert!(close(&transform_point(&inv, transform_point(&m, p)), &p));
        // The f64 path gives the same matrix to f32 precision.
        let md = from_trs([1.0f64, 2.0, 3.0], q.map(f64::from), [2.0, 0.5, 1.5]);
        assert!(close(&md.map(|v| v as f32), &m));
    }

    #[test]
    fn axis_change_undoes_to_y_up() {
        let p = [1.0, 2.0, 3.0];
        assert_eq!(from_y_up(crate::model::to_y_up(p)), p);
        let q = [0.1, 0.2, 0.3, 0.9];
        assert_eq!(quat_from_y_up(crate::model::quat_to_y_up(q)), q);
    }

    #[test]
    fn slerp_ends_and_middle() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let b = [0.0, 0.0, 1.0, 0.0]; // 180° about z
        assert!(close(&slerp(a, b, 0.0), &a));
        assert!(close(&slerp(a, b, 1.0), &b));
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!(close(&slerp(a, b, 0.5), &[0.0, 0.0, h, h]));
    }
}
