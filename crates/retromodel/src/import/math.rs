//! The small amount of linear algebra the importers need: column-major 4×4 matrices (glTF's
//! layout, `m[4 * column + row]`), quaternions `[x, y, z, w]`, and the axis change back from
//! Y-up.

/// A column-major 4×4 matrix.
pub type Mat4 = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

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

/// `a · b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[4 * c + r] = (0..4).map(|k| a[4 * k + r] * b[4 * c + k]).sum();
        }
    }
    out
}

/// The matrix of a translation, rotation (unit quaternion `[x, y, z, w]`) and scale.
pub fn from_trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat4 {
    let [x, y, z, w] = normalize4(q);
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + z * w),
            2.0 * (x * z - y * w),
        ],
        [
            2.0 * (x * y - z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + x * w),
        ],
        [
            2.0 * (x * z + y * w),
            2.0 * (y * z - x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let mut m = IDENTITY;
    for (c, col) in r.iter().enumerate() {
        for (row, v) in col.iter().enumerate() {
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
pub fn det3(m: &Mat4) -> f32 {
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

/// Splits an affine matrix into translation, rotation and per-axis scale (a mirroring
/// matrix gets a negative x scale).
pub fn decompose(m: &Mat4) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let col = |c: usize| [m[4 * c], m[4 * c + 1], m[4 * c + 2]];
    let len = |v: [f32; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let mut s = [len(col(0)), len(col(1)), len(col(2))];
    if det3(m) < 0.0 {
        s[0] = -s[0];
    }
    let mut r = [[0.0f32; 3]; 3];
    for (c, rc) in r.iter_mut().enumerate() {
        let v = col(c);
        let k = if s[c] != 0.0 { 1.0 / s[c] } else { 0.0 };
        *rc = v.map(|x| x * k);
    }
    ([m[12], m[13], m[14]], quat_from_rotation(&r), s)
}

/// The unit quaternion of a rotation matrix given as columns.
fn quat_from_rotation(c: &[[f32; 3]; 3]) -> [f32; 4] {
    // m[row][col] = c[col][row]
    let m = |r: usize, k: usize| c[k][r];
    let trace = m(0, 0) + m(1, 1) + m(2, 2);
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [
            (m(2, 1) - m(1, 2)) / s,
            (m(0, 2) - m(2, 0)) / s,
            (m(1, 0) - m(0, 1)) / s,
            0.25 * s,
        ]
    } else if m(0, 0) > m(1, 1) && m(0, 0) > m(2, 2) {
        let s = (1.0 + m(0, 0) - m(1, 1) - m(2, 2)).sqrt() * 2.0;
        [
            0.25 * s,
            (m(0, 1) + m(1, 0)) / s,
            (m(0, 2) + m(2, 0)) / s,
            (m(2, 1) - m(1, 2)) / s,
        ]
    } else if m(1, 1) > m(2, 2) {
        let s = (1.0 + m(1, 1) - m(0, 0) - m(2, 2)).sqrt() * 2.0;
        [
            (m(0, 1) + m(1, 0)) / s,
            0.25 * s,
            (m(1, 2) + m(2, 1)) / s,
            (m(0, 2) - m(2, 0)) / s,
        ]
    } else {
        let s = (1.0 + m(2, 2) - m(0, 0) - m(1, 1)).sqrt() * 2.0;
        [
            (m(0, 2) + m(2, 0)) / s,
            (m(1, 2) + m(2, 1)) / s,
            0.25 * s,
            (m(1, 0) - m(0, 1)) / s,
        ]
    };
    normalize4(q)
}

/// `q` scaled to unit length (the identity for a zero or non-finite `q`).
pub fn normalize4(q: [f32; 4]) -> [f32; 4] {
    let l = (q.iter().map(|c| c * c).sum::<f32>()).sqrt();
    if l.is_finite() && l > 0.0 {
        q.map(|c| c / l)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// `v` scaled to unit length, or `fallback` when it has none.
pub fn normalize3(v: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    let l = (v.iter().map(|c| c * c).sum::<f32>()).sqrt();
    if l.is_finite() && l > 1e-20 {
        v.map(|c| c / l)
    } else {
        fallback
    }
}

/// Spherical interpolation between unit quaternions along the shorter arc.
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
    let theta = d.clamp(-1.0, 1.0).acos();
    let s = theta.sin();
    let (wa, wb) = (((1.0 - t) * theta).sin() / s, (t * theta).sin() / s);
    normalize4(std::array::from_fn(|i| a[i] * wa + b[i] * wb))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn trs_round_trips_through_decompose_and_inverse() {
        let q = normalize4([0.3, -0.5, 0.2, 0.8]);
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
