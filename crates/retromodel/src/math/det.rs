//! The crate's one door to transcendental functions (sine, cosine, tangent, their inverses),
//! so that a conversion gives the same bytes on every platform.
//!
//! `f32::sin`, `f64::atan2` and the rest of the standard library call the platform's maths
//! library (glibc on Linux, the C runtime on Windows, libSystem on macOS), and those differ in
//! the last bit for some inputs: an MD3 → glTF conversion wrote different normals under Windows
//! than under Linux (issue 40). Everything here is the [`libm`] crate instead, a port of musl's
//! maths library in plain Rust, the same code and so the same results on every target.
//!
//! `sqrt`, `floor`, `round`, `abs`, `rem_euclid`, `mul_add`, `powi` and `to_radians` need no
//! door: IEEE 754 rounds `sqrt` correctly everywhere, and the others are exact or plain
//! arithmetic. The workspace's `clippy.toml` forbids the standard library's transcendental
//! methods everywhere else (`disallowed-methods`), so a new raw call fails
//! `cargo clippy -- -D warnings`.
//!
//! Generic over `f32` and `f64` ([`Det`]): `det::sin(x)` is `libm::sinf` for an `f32` and
//! `libm::sin` for an `f64`, so a call site keeps its precision.

/// `f32` or `f64`, with the [`libm`] function of each precision.
pub trait Det: Copy {
    /// The sine (radians).
    fn det_sin(self) -> Self;
    /// The cosine (radians).
    fn det_cos(self) -> Self;
    /// The tangent (radians).
    fn det_tan(self) -> Self;
    /// The arc sine, in `[-π/2, π/2]`; NaN outside `[-1, 1]`.
    fn det_asin(self) -> Self;
    /// The arc cosine, in `[0, π]`; NaN outside `[-1, 1]`.
    fn det_acos(self) -> Self;
    /// The arc tangent, in `[-π/2, π/2]`.
    fn det_atan(self) -> Self;
    /// The angle of the point `(x, y)` = `(other, self)`, in `[-π, π]`, as `f64::atan2`.
    fn det_atan2(self, other: Self) -> Self;
}

impl Det for f32 {
    fn det_sin(self) -> f32 {
        libm::sinf(self)
    }
    fn det_cos(self) -> f32 {
        libm::cosf(self)
    }
    fn det_tan(self) -> f32 {
        libm::tanf(self)
    }
    fn det_asin(self) -> f32 {
        libm::asinf(self)
    }
    fn det_acos(self) -> f32 {
        libm::acosf(self)
    }
    fn det_atan(self) -> f32 {
        libm::atanf(self)
    }
    fn det_atan2(self, other: f32) -> f32 {
        libm::atan2f(self, other)
    }
}

impl Det for f64 {
    fn det_sin(self) -> f64 {
        libm::sin(self)
    }
    fn det_cos(self) -> f64 {
        libm::cos(self)
    }
    fn det_tan(self) -> f64 {
        libm::tan(self)
    }
    fn det_asin(self) -> f64 {
        libm::asin(self)
    }
    fn det_acos(self) -> f64 {
        libm::acos(self)
    }
    fn det_atan(self) -> f64 {
        libm::atan(self)
    }
    fn det_atan2(self, other: f64) -> f64 {
        libm::atan2(self, other)
    }
}

/// The sine of `x` (radians), the same bits on every platform.
pub fn sin<T: Det>(x: T) -> T {
    x.det_sin()
}

/// The cosine of `x` (radians), the same bits on every platform.
pub fn cos<T: Det>(x: T) -> T {
    x.det_cos()
}

/// `(sin x, cos x)`, as `f64::sin_cos`, the same bits on every platform.
pub fn sin_cos<T: Det>(x: T) -> (T, T) {
    (x.det_sin(), x.det_cos())
}

/// The tangent of `x` (radians), the same bits on every platform.
pub fn tan<T: Det>(x: T) -> T {
    x.det_tan()
}

/// The arc sine of `x`, the same bits on every platform.
pub fn asin<T: Det>(x: T) -> T {
    x.det_asin()
}

/// The arc cosine of `x`, the same bits on every platform.
pub fn acos<T: Det>(x: T) -> T {
    x.det_acos()
}

/// The arc tangent of `x`, the same bits on every platform.
pub fn atan<T: Det>(x: T) -> T {
    x.det_atan()
}

/// `atan2(y, x)`: the angle of the point `(x, y)`, as `y.atan2(x)`, the same bits on every
/// platform.
pub fn atan2<T: Det>(y: T, x: T) -> T {
    y.det_atan2(x)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::disallowed_methods)] // compares with the standard library on purpose
    use super::*;

    /// libm and the platform's library agree to within an ulp or two (they differ only in
    /// rounding the last bit), and the f32 and f64 paths each keep their own precision.
    #[test]
    fn agrees_with_std_within_ulps() {
        for i in -400..=400 {
            let x = f64::from(i) * 0.0173;
            let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(1.0);
            assert!(close(sin(x), x.sin()), "sin {x}");
            assert!(close(cos(x), x.cos()), "cos {x}");
            assert!(close(atan(x), x.atan()), "atan {x}");
            assert!(close(atan2(x, 0.5), x.atan2(0.5)), "atan2 {x}");
            let y = (x / 7.0).clamp(-1.0, 1.0);
            assert!(close(acos(y), y.acos()), "acos {y}");
            assert!(close(asin(y), y.asin()), "asin {y}");
            let xf = x as f32;
            let closef = |a: f32, b: f32| (a - b).abs() <= 4.0 * f32::EPSILON * a.abs().max(1.0);
            assert!(closef(sin(xf), xf.sin()), "sinf {xf}");
            assert!(closef(cos(xf), xf.cos()), "cosf {xf}");
            assert!(closef(atan2(xf, 0.5), xf.atan2(0.5)), "atan2f {xf}");
            assert_eq!(sin_cos(xf), (sin(xf), cos(xf)));
        }
        assert!((tan(0.5f64) - 0.5f64.tan()).abs() < 1e-15);
    }

    /// The values a conversion depends on, pinned: the same on every platform by design.
    #[test]
    fn pinned_bits() {
        assert_eq!(sin(1.0f64).to_bits(), 0x3FEA_ED54_8F09_0CEE);
        assert_eq!(cos(1.0f32).to_bits(), 0x3F0A_5140);
        assert_eq!(acos(-1.0f64), std::f64::consts::PI);
        assert_eq!(atan2(0.0f32, -1.0), std::f32::consts::PI);
    }
}
