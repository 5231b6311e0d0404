//! Accessor reading with every range checked: a hostile file gets an error naming the
//! accessor, never a panic or an allocation past [`Limits`](crate::limits::Limits).
//!
//! The `gltf` crate's own readers assume valid offsets and strides (debug assertions, an
//! underflowing `count - 1`), so the importer reads accessors here: dense data, sparse
//! substitution, accessors without a buffer view (all zeros), normalised integers.

use gltf::accessor::{DataType, Dimensions};
use gltf::Accessor;

use super::{fail, Buffers};
use crate::error::{ErrorKind, Result};

/// Bytes of one component.
fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

/// Component `c` at the start of `b`, as f32 (normalised when asked).
fn component(b: &[u8], t: DataType, normalized: bool) -> f32 {
    match t {
        DataType::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        DataType::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
        DataType::U8 if normalized => f32::from(b[0]) / 255.0,
        DataType::U8 => f32::from(b[0]),
        DataType::I8 if normalized => (f32::from(b[0] as i8) / 127.0).max(-1.0),
        DataType::I8 => f32::from(b[0] as i8),
        DataType::U16 if normalized => f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0,
        DataType::U16 => f32::from(u16::from_le_bytes([b[0], b[1]])),
        DataType::I16 if normalized => {
            (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0)
        }
        DataType::I16 => f32::from(i16::from_le_bytes([b[0], b[1]])),
    }
}

/// An integer component (indices, joints).
fn integer(b: &[u8], t: DataType) -> Option<u32> {
    match t {
        DataType::U8 => Some(u32::from(b[0])),
        DataType::U16 => Some(u32::from(u16::from_le_bytes([b[0], b[1]]))),
        DataType::U32 => Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        _ => None,
    }
}

/// The bytes of `count` elements of `element` bytes each, `stride` apart, starting `offset`
/// bytes into buffer view `view`.
fn elements<'b>(
    buffers: &'b Buffers,
    view: &gltf::buffer::View<'_>,
    offset: usize,
    count: usize,
    element: usize,
    what: &str,
) -> Result<(&'b [u8], usize)> {
    let data = buffers.get(view.buffer().index()).ok_or_else(|| {
        fail(
            ErrorKind::IndexOutOfRange,
            format!("{what}: buffer {} has no data", view.buffer().index()),
        )
    })?;
    let stride = view.stride().unwrap_or(element);
    if stride < element {
        return Err(fail(
            ErrorKind::InvalidValue,
            format!("{what}: byte stride {stride} is smaller than an element ({element} bytes)"),
        ));
    }
    let view_start = view.offset();
    let view_end = view_start
        .checked_add(view.length())
        .filter(|&e| e <= data.len());
    let Some(view_end) = view_end else {
        return Err(fail(
            ErrorKind::Truncated,
            format!(
                "{what}: buffer view {} (bytes {view_start}..+{}) runs past its buffer ({} bytes)",
                view.index(),
                view.length(),
                data.len()
            ),
        ));
    };
    let span = count
        .checked_sub(1)
        .and_then(|n| n.checked_mul(stride))
        .and_then(|n| n.checked_add(element))
        .and_then(|n| n.checked_add(offset))
        .unwrap_or(if count == 0 { offset } else { usize::MAX });
    if span > view_end - view_start {
        return Err(fail(
            ErrorKind::Truncated,
            format!(
                "{what}: {count} elements from byte {offset} run past buffer view {} ({} bytes)",
                view.index(),
                view.length()
            ),
        ));
    }
    Ok((
        &data[view_start + offset..view_start + span.max(offset)],
        stride,
    ))
}

/// Reads `acc` as `count * dims` floats, checking that it has `dims` components.
pub(super) fn floats(
    buffers: &Buffers,
    acc: &Accessor<'_>,
    dims: &[Dimensions],
    budget: &mut crate::limits::Budget,
    what: &str,
) -> Result<(Vec<f32>, usize)> {
    let what = format!("{what} (accessor {})", acc.index());
    if !dims.contains(&acc.dimensions()) {
        return Err(fail(
            ErrorKind::InvalidValue,
            format!("{what}: type {:?}, expected {dims:?}", acc.dimensions()),
        ));
    }
    let n = acc.dimensions().multiplicity();
    let t = acc.data_type();
    let cs = component_size(t);
    let count = acc.count();
    let mut out = dense(buffers, acc, budget, &what, |b| {
        component(b, t, acc.normalized())
    })?;
    if let Some(sparse) = acc.sparse() {
        let k = sparse.count();
        let iv = sparse.indices();
        let it = match iv.index_type() {
            gltf::accessor::sparse::IndexType::U8 => DataType::U8,
            gltf::accessor::sparse::IndexType::U16 => DataType::U16,
            gltf::accessor::sparse::IndexType::U32 => DataType::U32,
        };
        let isz = component_size(it);
        let (ib, istride) = elements(buffers, &iv.view(), iv.offset(), k, isz, &what)?;
        let vv = sparse.values();
        let (vb, vstride) = elements(buffers, &vv.view(), vv.offset(), k, n * cs, &what)?;
        for s in 0..k {
            let index = integer(&ib[s * istride..], it).unwrap_or(u32::MAX) as usize;
            let Some(o) = out.get_mut(index * n..index * n + n) else {
                return Err(fail(
                    ErrorKind::IndexOutOfRange,
                    format!("{what}: sparse index {index} out of range (count = {count})"),
                ));
            };
            let e = &vb[s * vstride..];
            for (c, v) in o.iter_mut().enumerate() {
                *v = component(&e[c * cs..], t, acc.normalized());
            }
        }
    }
    Ok((out, n))
}

/// Reads a scalar or vector accessor of unsigned integers (indices, joint numbers).
pub(super) fn integers(
    buffers: &Buffers,
    acc: &Accessor<'_>,
    dims: Dimensions,
    budget: &mut crate::limits::Budget,
    what: &str,
) -> Result<Vec<u32>> {
    let what = format!("{what} (accessor {})", acc.index());
    let t = acc.data_type();
    if acc.dimensions() != dims || !matches!(t, DataType::U8 | DataType::U16 | DataType::U32) {
        return Err(fail(
            ErrorKind::InvalidValue,
            format!(
                "{what}: {:?} of {t:?}, expected {dims:?} of unsigned integers",
                acc.dimensions()
            ),
        ));
    }
    if acc.sparse().is_some() {
        // Integers through the float path are exact up to 2^24, more than any index here.
        let (f, _) = floats(buffers, acc, &[dims], budget, &what)?;
        return Ok(f.into_iter().map(|v| v as u32).collect());
    }
    dense(buffers, acc, budget, &what, |b| integer(b, t).unwrap_or(0))
}

/// The `count × n` components of `acc` (`n` per element, as its type says), charged to
/// `budget` at 4 bytes each and each decoded by `decode` from its bytes in the buffer view;
/// all `T::default()` when the accessor has no view. Sparse values are not applied.
fn dense<T: Copy + Default>(
    buffers: &Buffers,
    acc: &Accessor<'_>,
    budget: &mut crate::limits::Budget,
    what: &str,
    decode: impl Fn(&[u8]) -> T,
) -> Result<Vec<T>> {
    let n = acc.dimensions().multiplicity();
    let cs = component_size(acc.data_type());
    let count = acc.count();
    let total = count.saturating_mul(n);
    budget.charge(total as u64 * 4).map_err(|_| {
        fail(
            ErrorKind::LimitExceeded,
            format!("{what}: {count} elements exceed the allocation limit"),
        )
    })?;
    let mut out = vec![T::default(); total];
    if let Some(view) = acc.view() {
        let (bytes, stride) = elements(buffers, &view, acc.offset(), count, n * cs, what)?;
        for (i, o) in out.chunks_exact_mut(n).enumerate() {
            let e = &bytes[i * stride..];
            for (c, v) in o.iter_mut().enumerate() {
                *v = decode(&e[c * cs..]);
            }
        }
    }
    Ok(out)
}
