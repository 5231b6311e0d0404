//! numpy arrays from the library's vectors, each made with one copy.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

/// An `(n, K)` array from `n` rows of `K` values.
pub fn rows<'py, T: numpy::Element + Copy, const K: usize>(
    py: Python<'py>,
    data: &[[T; K]],
) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<T> = data.as_flattened().to_vec();
    Ok(PyArray1::from_vec(py, flat)
        .reshape([data.len(), K])?
        .into_any())
}

/// An array of any shape from flat data.
pub fn shaped<'py, T: numpy::Element>(
    py: Python<'py>,
    flat: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, flat).reshape(shape)?.into_any())
}

/// A column-major 4x4 matrix (the library's `Mat4`) as 16 row-major values, so that
/// `m @ [x, y, z, 1]` transforms a point in numpy.
pub fn row_major(m: &[f32; 16]) -> [f32; 16] {
    let mut out = [0.0; 16];
    for r in 0..4 {
        for c in 0..4 {
            out[4 * r + c] = m[4 * c + r];
        }
    }
    out
}
