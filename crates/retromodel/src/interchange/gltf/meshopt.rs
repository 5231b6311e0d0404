//! The meshopt codecs of `EXT_meshopt_compression` / `KHR_meshopt_compression`: the vertex
//! codec (mode ATTRIBUTES, version 0: header `0xA0`, blocks of byte groups of 16 in 0/2/4/8-bit
//! modes, a 32-byte tail), decoded and encoded; the triangle codec (mode TRIANGLES, header
//! `0xE1`, version 0 `0xE0` too: a code byte per triangle over an edge FIFO and a vertex FIFO,
//! LEB128 extra data, a 16-byte code table) and the index sequence codec (mode INDICES,
//! `0xD1`: LEB128 zigzag deltas from two baselines, a 4-byte tail), decoded and encoded
//! (the triangle encoder writes version 1); the filters OCTAHEDRAL, QUATERNION and
//! EXPONENTIAL, decoded ([`decode_view`] applies a view's mode and filter), and OCTAHEDRAL
//! encoded.
//!
//! Why a Rust implementation rather than the `meshopt` crate (C++ through `cc`): the web
//! viewer builds the core crate for `wasm32-unknown-unknown`, where a C++ toolchain and libc
//! are not there; every release platform would need a C++ compiler in its build; and the core
//! crate is `#![forbid(unsafe_code)]`, which an FFI binding breaks. The bitstream follows the
//! extension's README and meshoptimizer's `vertexcodec.cpp`/`indexcodec.cpp`/`vertexfilter.cpp`
//! (read, not copied). Every read is bounds-checked: corrupt or truncated input is an error
//! naming the problem and the byte offset, never a panic.

use crate::error::{Error, ErrorKind, Location};

/// The format name that errors carry.
const FORMAT: &str = "gltf-meshopt";
const VERTEX_HEADER: u8 = 0xA0;
const GROUP: usize = 16;
const BLOCK_MAX: usize = 256;
const BLOCK_BYTES: usize = 8192;
const TAIL_MIN: usize = 32;

fn err(kind: ErrorKind, message: impl Into<String>, offset: usize) -> Error {
    Error::new(FORMAT, kind, message, Location::Offset(offset as u64))
}

fn block_size(vertex_size: usize) -> usize {
    ((BLOCK_BYTES / vertex_size) & !(GROUP - 1)).min(BLOCK_MAX)
}

fn check_vertex_size(vertex_size: usize) -> Result<(), Error> {
    if vertex_size == 0 || vertex_size > 256 || !vertex_size.is_multiple_of(4) {
        return Err(err(
            ErrorKind::InvalidValue,
            format!("vertex codec: byte stride {vertex_size} is not a multiple of 4 in 4..=256"),
            0,
        ));
    }
    Ok(())
}

/// Decodes a vertex-codec (ATTRIBUTES) buffer of `count` elements of `vertex_size` bytes.
pub fn decode_vertex_buffer(
    count: usize,
    vertex_size: usize,
    data: &[u8],
) -> Result<Vec<u8>, Error> {
    check_vertex_size(vertex_size)?;
    let first = *data
        .first()
        .ok_or_else(|| err(ErrorKind::Truncated, "vertex codec: empty buffer", 0))?;
    if first & 0xF0 != VERTEX_HEADER {
        return Err(err(
            ErrorKind::BadMagic,
            format!("vertex codec: header byte {first:#04x}, expected 0xa0"),
            0,
        ));
    }
    if first & 0x0F != 0 {
        return Err(err(
            ErrorKind::UnsupportedVersion,
            format!(
                "vertex codec: version {} (only version 0 is read)",
                first & 0x0F
            ),
            0,
        ));
    }
    let tail = vertex_size.max(TAIL_MIN);
    if data.len() < 1 + tail {
        return Err(err(
            ErrorKind::Truncated,
            "vertex codec: buffer shorter than its tail",
            data.len(),
        ));
    }
    let end = data.len() - tail;
    let mut last = data[data.len() - vertex_size..].to_vec();
    let mut out = vec![0u8; count * vertex_size];
    let block = block_size(vertex_size);
    let mut pos = 1;
    let mut buffer = [0u8; BLOCK_MAX];
    let mut start = 0;
    while start < count {
        let n = block.min(count - start);
        let aligned = (n + GROUP - 1) & !(GROUP - 1);
        for k in 0..vertex_size {
            pos = decode_bytes(data, end, pos, &mut buffer[..aligned])?;
            let mut p = last[k];
            for (i, &b) in buffer[..n].iter().enumerate() {
                let v = (b >> 1) ^ (b & 1).wrapping_neg();
                p = p.wrapping_add(v);
                out[(start + i) * vertex_size + k] = p;
            }
            last[k] = p;
        }
        start += n;
    }
    if pos != end {
        return Err(err(
            ErrorKind::InvalidValue,
            format!(
                "vertex codec: {} bytes left between the data and the tail",
                end as isize - pos as isize
            ),
            pos,
        ));
    }
    Ok(out)
}

fn decode_bytes(
    data: &[u8],
    end: usize,
    mut pos: usize,
    buffer: &mut [u8],
) -> Result<usize, Error> {
    let groups = buffer.len() / GROUP;
    let header_size = groups.div_ceil(4);
    if end - pos.min(end) < header_size {
        return Err(err(
            ErrorKind::Truncated,
            "vertex codec: byte group header past the end",
            pos,
        ));
    }
    let header = pos;
    pos += header_size;
    for g in 0..groups {
        let mode = (data[header + g / 4] >> ((g % 4) * 2)) & 3;
        let out = &mut buffer[g * GROUP..(g + 1) * GROUP];
        let need = |p: usize, n: usize| -> Result<(), Error> {
            if p + n > end {
                Err(err(
                    ErrorKind::Truncated,
                    format!("vertex codec: byte group {g} past the end"),
                    p,
                ))
            } else {
                Ok(())
            }
        };
        match mode {
            0 => out.fill(0),
            3 => {
                need(pos, GROUP)?;
                out.copy_from_slice(&data[pos..pos + GROUP]);
                pos += GROUP;
            }
            _ => {
                let bits = if mode == 1 { 2 } else { 4 };
                let packed = GROUP * bits / 8;
                need(pos, packed)?;
                let sentinel = (1u8 << bits) - 1;
                let mut extra = pos + packed;
                for (i, o) in out.iter_mut().enumerate() {
                    let byte = data[pos + i * bits / 8];
                    let shift = 8 - bits - (i * bits) % 8;
                    let v = (byte >> shift) & sentinel;
                    if v == sentinel {
                        need(extra, 1)?;
                        *o = data[extra];
                        extra += 1;
                    } else {
                        *o = v;
                    }
                }
                pos = extra;
            }
        }
    }
    Ok(pos)
}

/// A compression mode of `EXT_meshopt_compression`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Vertex attributes (the vertex codec).
    Attributes,
    /// Triangle list indices (the triangle codec).
    Triangles,
    /// Other indices (the index sequence codec).
    Indices,
}

/// A filter applied after the vertex codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// The data as decoded.
    None,
    /// Unit vectors, octahedral (stride 4: 8-bit, stride 8: 16-bit components).
    Octahedral,
    /// Unit quaternions, the largest component left out (stride 8).
    Quaternion,
    /// Floats as 8-bit exponent and 24-bit mantissa (stride a multiple of 4).
    Exponential,
}

/// Decodes one compressed buffer view: `count` elements of `stride` bytes from `data` in
/// `mode`, then `filter`. Checks the combinations the extension allows.
pub fn decode_view(
    mode: Mode,
    filter: Filter,
    count: usize,
    stride: usize,
    data: &[u8],
) -> Result<Vec<u8>, Error> {
    if mode != Mode::Attributes && filter != Filter::None {
        return Err(err(
            ErrorKind::InvalidValue,
            format!("filter {filter:?} with mode {mode:?} (filters apply to ATTRIBUTES only)"),
            0,
        ));
    }
    let mut out = match mode {
        Mode::Attributes => decode_vertex_buffer(count, stride, data)?,
        Mode::Triangles => decode_index_buffer(count, stride, data)?,
        Mode::Indices => decode_index_sequence(count, stride, data)?,
    };
    match filter {
        Filter::None => {}
        Filter::Octahedral => filter_octahedral(&mut out, stride)?,
        Filter::Quaternion => filter_quaternion(&mut out, stride)?,
        Filter::Exponential => filter_exponential(&mut out, stride)?,
    }
    Ok(out)
}

fn check_index_size(index_size: usize, codec: &str) -> Result<(), Error> {
    if index_size != 2 && index_size != 4 {
        return Err(err(
            ErrorKind::InvalidValue,
            format!("{codec}: byte stride {index_size}, expected 2 or 4"),
            0,
        ));
    }
    Ok(())
}

/// Reads LEB128 (varint-7) values from `data[..end]`.
struct Varints<'a> {
    data: &'a [u8],
    pos: usize,
    end: usize,
    codec: &'static str,
}

impl Varints<'_> {
    fn byte(&mut self) -> Result<u8, Error> {
        if self.pos >= self.end {
            return Err(err(
                ErrorKind::Truncated,
                format!("{}: extra data past the end", self.codec),
                self.pos,
            ));
        }
        self.pos += 1;
        Ok(self.data[self.pos - 1])
    }

    fn varint(&mut self) -> Result<u32, Error> {
        let at = self.pos;
        let mut v = 0u32;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            v |= u32::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(err(
            ErrorKind::InvalidValue,
            format!("{}: a varint of more than 5 bytes", self.codec),
            at,
        ))
    }

    /// Fails unless every byte was read.
    fn done(&self) -> Result<(), Error> {
        if self.pos != self.end {
            return Err(err(
                ErrorKind::InvalidValue,
                format!(
                    "{}: {} bytes left between the data and the tail",
                    self.codec,
                    self.end - self.pos
                ),
                self.pos,
            ));
        }
        Ok(())
    }
}

/// The index codecs' header byte `head`: `magic` in the high nibble, the version (one of
/// `versions`) in the low one; the version, or an error naming the byte.
fn header_version(
    head: u8,
    codec: &str,
    magic: u8,
    versions: &[u8],
    read: &str,
) -> Result<u8, Error> {
    let version = head & 0x0F;
    if head & 0xF0 != magic {
        let expected = magic | versions[versions.len() - 1];
        return Err(err(
            ErrorKind::BadMagic,
            format!("{codec}: header byte {head:#04x}, expected {expected:#04x}"),
            0,
        ));
    }
    if !versions.contains(&version) {
        return Err(err(
            ErrorKind::UnsupportedVersion,
            format!("{codec}: version {version} ({read})"),
            0,
        ));
    }
    Ok(version)
}

/// A zigzag-encoded 32-bit delta (`0, -1, 1, -2, ...` as `0, 1, 2, 3, ...`), as a wrapping
/// `u32` to add.
fn unzigzag(v: u32) -> u32 {
    ((v >> 1) as i32 ^ -((v & 1) as i32)) as u32
}

/// A 16-entry FIFO: `get(0)` is the most recently pushed entry.
struct Fifo<T>([T; 16], usize);

impl<T: Copy> Fifo<T> {
    fn push(&mut self, v: T) {
        self.0[self.1] = v;
        self.1 = (self.1 + 1) & 15;
    }

    fn get(&self, x: usize) -> T {
        self.0[(self.1 + 15 - x) & 15]
    }
}

/// Writes index `v` as element `i` of `out` (2 or 4 bytes each).
fn put_index(out: &mut [u8], size: usize, i: usize, v: u32) {
    if size == 2 {
        out[i * 2..i * 2 + 2].copy_from_slice(&(v as u16).to_le_bytes());
    } else {
        out[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// Decodes a triangle-codec (TRIANGLES) buffer of `count` indices (a multiple of 3) of
/// `index_size` bytes (2 or 4).
pub fn decode_index_buffer(count: usize, index_size: usize, data: &[u8]) -> Result<Vec<u8>, Error> {
    const CODEC: &str = "triangle codec";
    check_index_size(index_size, CODEC)?;
    if !count.is_multiple_of(3) {
        return Err(err(
            ErrorKind::InvalidValue,
            format!("{CODEC}: {count} indices are not whole triangles"),
            0,
        ));
    }
    let triangles = count / 3;
    if data.len() < 1 + triangles + 16 {
        return Err(err(
            ErrorKind::Truncated,
            format!(
                "{CODEC}: {} bytes, fewer than the header, {triangles} codes and the 16-byte table",
                data.len()
            ),
            data.len(),
        ));
    }
    let version = header_version(data[0], CODEC, 0xE0, &[0, 1], "versions 0 and 1 are read")?;
    let fecmax = if version >= 1 { 13 } else { 15 };
    let codes = &data[1..1 + triangles];
    let table = &data[data.len() - 16..];
    let mut extra = Varints {
        data,
        pos: 1 + triangles,
        end: data.len() - 16,
        codec: CODEC,
    };
    let mut out = vec![0u8; count * index_size];
    let mut edges = Fifo([[0u32; 2]; 16], 0);
    let mut verts = Fifo([0u32; 16], 0);
    let (mut next, mut last) = (0u32, 0u32);
    // The zigzag delta from `last` that the next varint holds, added to it.
    let index = |extra: &mut Varints, last: &mut u32| -> Result<u32, Error> {
        let d = extra.varint()?;
        *last = last.wrapping_add(unzigzag(d));
        Ok(*last)
    };
    let take_next = |next: &mut u32| {
        *next = next.wrapping_add(1);
        next.wrapping_sub(1)
    };
    for (t, &code) in codes.iter().enumerate() {
        let tri = if code < 0xF0 {
            let [a, b] = edges.get(usize::from(code >> 4));
            let fec = usize::from(code & 15);
            let c = if fec == 0 {
                let c = take_next(&mut next);
                verts.push(c);
                c
            } else if fec < fecmax {
                verts.get(fec)
            } else {
                let c = match fec {
                    13 => last.wrapping_sub(1),
                    14 => last.wrapping_add(1),
                    _ => index(&mut extra, &mut last)?,
                };
                last = c;
                verts.push(c);
                c
            };
            edges.push([c, b]);
            edges.push([a, c]);
            [a, b, c]
        } else {
            let explicit = code >= 0xFE;
            let zw = if explicit {
                extra.byte()?
            } else {
                table[usize::from(code & 15)]
            };
            if explicit && zw == 0 {
                next = 0;
            }
            let a = if code == 0xFF {
                index(&mut extra, &mut last)?
            } else {
                take_next(&mut next)
            };
            let (z, w) = (zw >> 4, zw & 15);
            let mut other = |n: u8| -> Result<u32, Error> {
                Ok(match n {
                    0 => take_next(&mut next),
                    15 if explicit => index(&mut extra, &mut last)?,
                    _ => verts.get(usize::from(n) - 1),
                })
            };
            let b = other(z)?;
            let c = other(w)?;
            verts.push(a);
            if z == 0 || (explicit && z == 15) {
                verts.push(b);
            }
            if w == 0 || (explicit && w == 15) {
                verts.push(c);
            }
            edges.push([b, a]);
            edges.push([c, b]);
            edges.push([a, c]);
            [a, b, c]
        };
        for (k, v) in tri.into_iter().enumerate() {
            put_index(&mut out, index_size, t * 3 + k, v);
        }
    }
    extra.done()?;
    Ok(out)
}

/// Decodes an index-sequence-codec (INDICES) buffer of `count` indices of `index_size`
/// bytes (2 or 4).
pub fn decode_index_sequence(
    count: usize,
    index_size: usize,
    data: &[u8],
) -> Result<Vec<u8>, Error> {
    const CODEC: &str = "index sequence codec";
    check_index_size(index_size, CODEC)?;
    if data.len() < 1 + 4 {
        return Err(err(
            ErrorKind::Truncated,
            format!(
                "{CODEC}: {} bytes, fewer than the header and the 4-byte tail",
                data.len()
            ),
            data.len(),
        ));
    }
    header_version(data[0], CODEC, 0xD0, &[1], "only version 1 is read")?;
    // Every index takes at least one byte: a count past the data is refused before the
    // output is allocated.
    if count > data.len() - 5 {
        return Err(err(
            ErrorKind::Truncated,
            format!(
                "{CODEC}: {count} indices in {} bytes of data",
                data.len() - 5
            ),
            data.len(),
        ));
    }
    let mut r = Varints {
        data,
        pos: 1,
        end: data.len() - 4,
        codec: CODEC,
    };
    let mut out = vec![0u8; count * index_size];
    let mut last = [0u32; 2];
    for i in 0..count {
        let v = r.varint()?;
        let d = v >> 1;
        let delta = unzigzag(d);
        let base = &mut last[(v & 1) as usize];
        *base = base.wrapping_add(delta);
        put_index(&mut out, index_size, i, *base);
    }
    r.done()?;
    Ok(out)
}

fn check_filter_stride(ok: bool, filter: &str, stride: usize, want: &str) -> Result<(), Error> {
    if !ok {
        return Err(err(
            ErrorKind::InvalidValue,
            format!("{filter} filter: byte stride {stride}, expected {want}"),
            0,
        ));
    }
    Ok(())
}

/// `x * scale` rounded to the nearest integer (halves away from zero); 0 when not finite
/// (a zero-length vector).
fn snorm(x: f32, scale: f32) -> i32 {
    let v = x * scale;
    if v.is_finite() {
        v.round() as i32
    } else {
        0
    }
}

/// The OCTAHEDRAL filter, in place: per element four 8-bit (stride 4) or 16-bit (stride 8)
/// components, X and Y octahedral over the third (1.0 at the element's precision), the
/// fourth kept.
pub fn filter_octahedral(data: &mut [u8], stride: usize) -> Result<(), Error> {
    check_filter_stride(stride == 4 || stride == 8, "octahedral", stride, "4 or 8")?;
    let wide = stride == 8;
    let max = if wide { 32767.0 } else { 127.0 };
    for e in data.chunks_exact_mut(stride) {
        let get = |e: &[u8], k: usize| -> f32 {
            if wide {
                f32::from(i16::from_le_bytes([e[2 * k], e[2 * k + 1]]))
            } else {
                f32::from(e[k] as i8)
            }
        };
        let one = get(e, 2);
        let (mut x, mut y) = (get(e, 0) / one, get(e, 1) / one);
        let z = 1.0 - x.abs() - y.abs();
        let t = z.min(0.0);
        x -= t.copysign(x);
        y -= t.copysign(y);
        // As meshoptimizer's decoder: the scale to the output range first, then each
        // component times it, rounded half away from zero.
        let scale = max / (x * x + y * y + z * z).sqrt();
        let v = [x, y, z].map(|c| snorm(c, scale));
        for (k, c) in v.into_iter().enumerate() {
            if wide {
                e[2 * k..2 * k + 2].copy_from_slice(&(c as i16).to_le_bytes());
            } else {
                e[k] = c as i8 as u8;
            }
        }
    }
    Ok(())
}

/// The QUATERNION filter, in place: per element three 16-bit components (scaled by
/// sqrt 2) and the fourth holding 1.0 with the left-out component's index in its low bits.
pub fn filter_quaternion(data: &mut [u8], stride: usize) -> Result<(), Error> {
    check_filter_stride(stride == 8, "quaternion", stride, "8")?;
    let range = std::f32::consts::FRAC_1_SQRT_2;
    for e in data.chunks_exact_mut(8) {
        let c = |k: usize| i16::from_le_bytes([e[2 * k], e[2 * k + 1]]);
        // As meshoptimizer's decoder: the scale of the element first, then each component.
        let scale = range / f32::from(c(3) | 3);
        let [x, y, z] = [0, 1, 2].map(|k| f32::from(c(k)) * scale);
        let w = (1.0 - x * x - y * y - z * z).max(0.0).sqrt();
        let max = (c(3) & 3) as usize;
        let mut q = [0i16; 4];
        q[(max + 1) % 4] = snorm(x, 32767.0) as i16;
        q[(max + 2) % 4] = snorm(y, 32767.0) as i16;
        q[(max + 3) % 4] = snorm(z, 32767.0) as i16;
        q[max] = snorm(w, 32767.0) as i16;
        for (k, v) in q.into_iter().enumerate() {
            e[2 * k..2 * k + 2].copy_from_slice(&v.to_le_bytes());
        }
    }
    Ok(())
}

/// The EXPONENTIAL filter, in place: each 32-bit value `e << 24 | m` (signed) becomes the
/// float `m * 2^e`.
pub fn filter_exponential(data: &mut [u8], stride: usize) -> Result<(), Error> {
    check_filter_stride(
        stride > 0 && stride.is_multiple_of(4),
        "exponential",
        stride,
        "a multiple of 4",
    )?;
    for v in data.chunks_exact_mut(4) {
        let i = i32::from_le_bytes([v[0], v[1], v[2], v[3]]);
        // e is valid in -100..=100; clamped so that 2^e is a normal float.
        let e = (i >> 24).clamp(-126, 127);
        let m = (i << 8) >> 8;
        let scale = f32::from_bits(((e + 127) as u32) << 23);
        v.copy_from_slice(&(m as f32 * scale).to_le_bytes());
    }
    Ok(())
}

/// Encodes `data` (`count` elements of `vertex_size` bytes) with the vertex codec, version 0.
pub fn encode_vertex_buffer(data: &[u8], vertex_size: usize) -> Result<Vec<u8>, Error> {
    check_vertex_size(vertex_size)?;
    let count = data.len() / vertex_size;
    let mut out = vec![VERTEX_HEADER];
    let mut last: Vec<u8> = data
        .get(..vertex_size)
        .map_or(vec![0; vertex_size], <[u8]>::to_vec);
    let first = last.clone();
    let block = block_size(vertex_size);
    let mut start = 0;
    while start < count {
        let n = block.min(count - start);
        let aligned = (n + GROUP - 1) & !(GROUP - 1);
        for k in 0..vertex_size {
            let mut buffer = [0u8; BLOCK_MAX];
            let mut p = last[k];
            for (i, slot) in buffer[..n].iter_mut().enumerate() {
                let v = data[(start + i) * vertex_size + k];
                let d = v.wrapping_sub(p);
                *slot = (d << 1) ^ ((d as i8) >> 7) as u8;
                p = v;
            }
            encode_bytes(&mut out, &buffer[..aligned]);
        }
        last.copy_from_slice(&data[(start + n - 1) * vertex_size..(start + n) * vertex_size]);
        start += n;
    }
    out.resize(out.len() + TAIL_MIN.saturating_sub(vertex_size), 0);
    out.extend_from_slice(&first);
    Ok(out)
}

fn group_size(group: &[u8], bits: usize) -> usize {
    match bits {
        0 if group.iter().all(|&b| b == 0) => 0,
        0 => usize::MAX,
        8 => GROUP,
        _ => {
            let sentinel = (1u8 << bits) - 1;
            GROUP * bits / 8 + group.iter().filter(|&&b| b >= sentinel).count()
        }
    }
}

fn encode_bytes(out: &mut Vec<u8>, buffer: &[u8]) {
    let groups = buffer.len() / GROUP;
    let header = out.len();
    out.resize(header + groups.div_ceil(4), 0);
    for (g, group) in buffer.chunks(GROUP).enumerate() {
        let (mut best, mut best_size) = (3u8, GROUP);
        for (mode, bits) in [(0u8, 0usize), (1, 2), (2, 4)] {
            let size = group_size(group, bits);
            if size < best_size {
                best = mode;
                best_size = size;
            }
        }
        out[header + g / 4] |= best << ((g % 4) * 2);
        match best {
            0 => {}
            3 => out.extend_from_slice(group),
            _ => {
                let bits = if best == 1 { 2 } else { 4 };
                let sentinel = (1u8 << bits) - 1;
                for chunk in group.chunks(8 / bits) {
                    let mut byte = 0u8;
                    for &b in chunk {
                        byte = (byte << bits) | b.min(sentinel);
                    }
                    out.push(byte);
                }
                out.extend(group.iter().filter(|&&b| b >= sentinel));
            }
        }
    }
}

/// Appends `v` as LEB128 (varint-7).
fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v & 0x7f) as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// `d` zigzag-encoded (`0, -1, 1, -2, ...` as `0, 1, 2, 3, ...`).
fn zigzag(d: i32) -> u32 {
    ((d << 1) ^ (d >> 31)) as u32
}

/// The triangle codec's code table (`codeaux`) as this encoder writes it: per entry the
/// sources of the second and third index of a triangle whose first is `next` (0: `next`,
/// `k`: vertex FIFO entry `k - 1`); the last two bytes 0 and no nibble `0xf`, as the
/// bitstream requires.
const CODE_TABLE: [u8; 16] = [
    0x00, 0x01, 0x02, 0x10, 0x20, 0x11, 0x12, 0x21, 0x03, 0x30, 0x13, 0x31, 0x22, 0x23, 0, 0,
];

/// A 16-entry FIFO for the encoder: like the decoder's, plus how many entries were pushed
/// (the decoder's initial contents are unspecified, so only pushed entries may be named).
struct Recent<T> {
    fifo: Fifo<T>,
    pushed: usize,
}

impl<T: Copy + PartialEq> Recent<T> {
    fn new(zero: T) -> Self {
        Recent {
            fifo: Fifo([zero; 16], 0),
            pushed: 0,
        }
    }

    fn push(&mut self, v: T) {
        self.fifo.push(v);
        self.pushed += 1;
    }

    /// The index (0: the most recent) of `v` among entries `from..limit`.
    fn find(&self, v: T, from: usize, limit: usize) -> Option<usize> {
        (from..limit.min(self.pushed)).find(|&x| self.fifo.get(x) == v)
    }
}

/// Encodes a triangle list (`indices.len()` a multiple of 3) with the triangle codec,
/// version 1 (header `0xE1`). Each triangle may come back rotated (`b, c, a` or `c, a, b`:
/// the same triangle, the same winding); the decoder gives back exactly what this encoder
/// emitted, which [`decode_index_buffer`] checks in the tests.
pub fn encode_index_buffer(indices: &[u32]) -> Result<Vec<u8>, Error> {
    if !indices.len().is_multiple_of(3) {
        return Err(err(
            ErrorKind::InvalidValue,
            format!(
                "triangle codec: {} indices are not whole triangles",
                indices.len()
            ),
            0,
        ));
    }
    let triangles = indices.len() / 3;
    let mut codes = Vec::with_capacity(triangles);
    let mut extra = Vec::new();
    let mut edges = Recent::new([0u32; 2]);
    let mut verts = Recent::new(0u32);
    let (mut next, mut last) = (0u32, 0u32);
    for t in indices.chunks_exact(3) {
        let rotations = [[t[0], t[1], t[2]], [t[1], t[2], t[0]], [t[2], t[0], t[1]]];
        // A recent edge: one code byte, the third vertex new, recent, next to `last` or
        // explicit.
        let edge = rotations
            .iter()
            .find_map(|&[a, b, c]| edges.find([a, b], 0, 15).map(|fe| (fe, [a, b, c])));
        if let Some((fe, [a, b, c])) = edge {
            let fe = (fe as u8) << 4;
            if c == next {
                codes.push(fe);
                next = next.wrapping_add(1);
                verts.push(c);
            } else if let Some(fv) = verts.find(c, 1, 13) {
                codes.push(fe | fv as u8);
            } else {
                if c == last.wrapping_sub(1) {
                    codes.push(fe | 13);
                } else if c == last.wrapping_add(1) {
                    codes.push(fe | 14);
                } else {
                    codes.push(fe | 15);
                    put_varint(&mut extra, zigzag(c.wrapping_sub(last) as i32));
                }
                last = c;
                verts.push(c);
            }
            edges.push([c, b]);
            edges.push([a, c]);
            continue;
        }
        // No recent edge: the first index `next` where a rotation allows it.
        let [a, b, c] = rotations
            .iter()
            .copied()
            .find(|r| r[0] == next)
            .unwrap_or(rotations[0]);
        let a_next = a == next;
        let mut after = if a_next { next.wrapping_add(1) } else { next };
        // The source of b and c: 0 `next`, 1..=14 a recent vertex, 15 explicit.
        let mut source = |v: u32| -> u8 {
            if v == after {
                after = after.wrapping_add(1);
                0
            } else if let Some(k) = verts.find(v, 0, 14) {
                k as u8 + 1
            } else {
                15
            }
        };
        let z = source(b);
        let mut w = source(c);
        let table = CODE_TABLE[..14]
            .iter()
            .position(|&e| e == (z << 4) | w)
            .filter(|_| a_next);
        if let Some(y) = table {
            codes.push(0xF0 | y as u8);
        } else {
            // An explicit byte of 0x00 restarts `next`: c is then written explicitly.
            if z == 0 && w == 0 {
                w = 15;
            }
            codes.push(if a_next { 0xFE } else { 0xFF });
            extra.push((z << 4) | w);
            if !a_next {
                put_varint(&mut extra, zigzag(a.wrapping_sub(last) as i32));
                last = a;
            }
            for (v, s) in [(b, z), (c, w)] {
                if s == 15 {
                    put_varint(&mut extra, zigzag(v.wrapping_sub(last) as i32));
                    last = v;
                }
            }
        }
        let explicit = table.is_none();
        if a_next {
            next = next.wrapping_add(1);
        }
        for s in [z, w] {
            if s == 0 {
                next = next.wrapping_add(1);
            }
        }
        verts.push(a);
        for (v, s) in [(b, z), (c, w)] {
            if s == 0 || (explicit && s == 15) {
                verts.push(v);
            }
        }
        edges.push([b, a]);
        edges.push([c, b]);
        edges.push([a, c]);
    }
    let mut out = Vec::with_capacity(1 + codes.len() + extra.len() + 16);
    out.push(0xE1);
    out.extend_from_slice(&codes);
    out.extend_from_slice(&extra);
    out.extend_from_slice(&CODE_TABLE);
    Ok(out)
}

/// Encodes any index sequence with the index sequence codec (`0xD1`): each index as a
/// zigzag delta from the nearer of two baselines. Fails for a delta outside
/// `-2^30..2^30` from both (indices that far apart).
pub fn encode_index_sequence(indices: &[u32]) -> Result<Vec<u8>, Error> {
    let mut out = vec![0xD1];
    let mut base = [0u32; 2];
    for (i, &v) in indices.iter().enumerate() {
        let deltas = base.map(|b| v.wrapping_sub(b) as i32);
        let k = usize::from(deltas[1].unsigned_abs() < deltas[0].unsigned_abs());
        let d = deltas[k];
        if !(-(1 << 30)..(1 << 30)).contains(&d) {
            return Err(err(
                ErrorKind::LimitExceeded,
                format!("index sequence codec: index {i} ({v}) is too far from the previous ones"),
                0,
            ));
        }
        put_varint(&mut out, (zigzag(d) << 1) | k as u32);
        base[k] = v;
    }
    out.extend_from_slice(&[0; 4]);
    Ok(out)
}

/// Encodes unit vectors for the OCTAHEDRAL filter: per element `[x, y, z, w]` (x, y, z a
/// unit vector, w in `[-1, 1]` passed through) as four 8-bit (stride 4) or 16-bit
/// (stride 8) components, the octahedral coordinates with `bits` of precision (4..=8 or
/// 4..=16) and w as a normalised integer. Of the four roundings of the coordinates, the
/// one whose decoding is nearest the vector is kept. The output goes to
/// [`encode_vertex_buffer`]; [`filter_octahedral`] decodes it.
pub fn encode_filter_octahedral(
    vectors: &[[f32; 4]],
    stride: usize,
    bits: u32,
) -> Result<Vec<u8>, Error> {
    check_filter_stride(stride == 4 || stride == 8, "octahedral", stride, "4 or 8")?;
    let wide = stride == 8;
    let most = if wide { 16 } else { 8 };
    if !(4..=most).contains(&bits) {
        return Err(err(
            ErrorKind::InvalidValue,
            format!("octahedral filter: {bits} bits for {stride}-byte elements"),
            0,
        ));
    }
    let one = (1i32 << (bits - 1)) - 1;
    let full = if wide { 32767.0 } else { 127.0 };
    let mut out = Vec::with_capacity(vectors.len() * stride);
    let put = |out: &mut Vec<u8>, c: i32| {
        if wide {
            out.extend_from_slice(&(c as i16).to_le_bytes());
        } else {
            out.push(c as i8 as u8);
        }
    };
    for &[x, y, z, w] in vectors {
        let l1 = x.abs() + y.abs() + z.abs();
        let (mut u, mut v) = if l1 > 0.0 && l1.is_finite() {
            (x / l1, y / l1)
        } else {
            (0.0, 0.0)
        };
        if z < 0.0 {
            let (pu, pv) = (u, v);
            u = (1.0 - pv.abs()).copysign(pu);
            v = (1.0 - pu.abs()).copysign(pv);
        }
        let (fu, fv) = (u * one as f32, v * one as f32);
        let mut best = (fu.round() as i32, fv.round() as i32);
        let mut best_dot = f32::NEG_INFINITY;
        for cu in [fu.floor() as i32, fu.ceil() as i32] {
            for cv in [fv.floor() as i32, fv.ceil() as i32] {
                let (du, dv) = (cu as f32 / one as f32, cv as f32 / one as f32);
                let dz = 1.0 - du.abs() - dv.abs();
                let t = dz.min(0.0);
                let (dx, dy) = (du - t.copysign(du), dv - t.copysign(dv));
                let len = (dx * dx + dy * dy + dz * dz).sqrt();
                let dot = (dx * x + dy * y + dz * z) / len;
                if dot > best_dot {
                    best_dot = dot;
                    best = (cu, cv);
                }
            }
        }
        put(&mut out, best.0.clamp(-one, one));
        put(&mut out, best.1.clamp(-one, one));
        put(&mut out, one);
        put(&mut out, snorm(w.clamp(-1.0, 1.0), full));
    }
    Ok(out)
}

/// Little-endian index words of `size` bytes (2 or 4) as `u32`s: a decoded index buffer, or
/// one to encode.
pub fn index_words(bytes: &[u8], size: usize) -> Vec<u32> {
    bytes
        .chunks_exact(size)
        .map(|c| {
            if size == 2 {
                u32::from(u16::from_le_bytes([c[0], c[1]]))
            } else {
                u32::from_le_bytes([c[0], c[1], c[2], c[3]])
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(count: usize, stride: usize) -> Vec<u8> {
        (0..count * stride)
            .map(|i| {
                ((i / stride) as u32 * 7 + (i % stride) as u32 * 31 + (i as u32 % 97) / 13) as u8
            })
            .collect()
    }

    /// Hand-encoded per the extension's Appendix A: triangle (0, 1, 2) from the code table
    /// (`0xf0`, entry 0x00: three new vertices; edges (1, 0), (2, 1), (0, 2) pushed), then
    /// (0, 2, 3) from the most recent edge and a new vertex (`0x00`; pushes (3, 2), (0, 3)),
    /// then (0, 2, 1) from edge FIFO entry 2 and vertex FIFO entry 2 (`0x22`; the vertices
    /// were 0, 1, 2, 3), then an explicit triangle (`0xfe`, byte 0xff: a = next, 4; b and c
    /// as zigzag deltas from `last`: +7 and -2 give 7 and 5).
    #[test]
    fn triangle_codec_hand_encoded() {
        let mut data = vec![0xE1, 0xF0, 0x00, 0x22, 0xFE];
        data.extend([0xFF, 14, 3]);
        data.extend([0u8; 16]);
        let out = decode_index_buffer(12, 4, &data).unwrap();
        let idx: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(idx, [0, 1, 2, 0, 2, 3, 0, 2, 1, 4, 7, 5]);
        // 16-bit output holds the same values.
        let short = decode_index_buffer(12, 2, &data).unwrap();
        assert!(short
            .chunks_exact(2)
            .zip(&idx)
            .all(|(c, &v)| u32::from(u16::from_le_bytes([c[0], c[1]])) == v));
    }

    #[test]
    fn index_sequence_hand_encoded() {
        // Baseline 0: +5, +1; baseline 1: +100; baseline 0: -3. v = zigzag(delta) << 1 | base.
        let zz = |d: i32| ((d << 1) ^ (d >> 31)) as u32;
        let mut data = vec![0xD1];
        for (d, base) in [(5, 0), (1, 0), (100, 1), (-3, 0)] {
            let mut v = (zz(d) << 1) | base;
            loop {
                let b = (v & 0x7f) as u8;
                v >>= 7;
                if v == 0 {
                    data.push(b);
                    break;
                }
                data.push(b | 0x80);
            }
        }
        data.extend([0u8; 4]);
        let out = decode_index_sequence(4, 4, &data).unwrap();
        let idx: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(idx, [5, 6, 100, 3]);
        assert!(
            decode_index_sequence(5, 4, &data).is_err(),
            "a count past the data"
        );
    }

    #[test]
    fn index_codecs_truncated_and_corrupt_never_panic() {
        let mut tri = vec![0xE1, 0xF0, 0x00, 0x22, 0xFE, 0xFF, 14, 3];
        tri.extend([0u8; 16]);
        for cut in 0..tri.len() {
            assert!(
                decode_index_buffer(12, 4, &tri[..cut]).is_err(),
                "cut {cut}"
            );
        }
        for i in 0..tri.len() {
            for bit in 0..8 {
                let mut b = tri.clone();
                b[i] ^= 1 << bit;
                let _ = decode_index_buffer(12, 4, &b);
                let _ = decode_index_sequence(12, 2, &b);
            }
        }
        let mut short = tri.clone();
        short.remove(7);
        assert_eq!(
            decode_index_buffer(12, 4, &short).unwrap_err().to_string(),
            "gltf-meshopt: triangle codec: extra data past the end at offset 0x7"
        );
        assert_eq!(
            decode_index_buffer(12, 3, &tri).unwrap_err().to_string(),
            "gltf-meshopt: triangle codec: byte stride 3, expected 2 or 4 at offset 0x0"
        );
        let mut extra = tri.clone();
        extra.insert(8, 0);
        assert_eq!(
            decode_index_buffer(12, 4, &extra).unwrap_err().to_string(),
            "gltf-meshopt: triangle codec: 1 bytes left between the data and the tail at offset 0x8"
        );
    }

    /// The filters on values whose decoding is known: an octahedral +Z and -X, a
    /// quaternion with w left out (identity), exponentials 3 * 2^2 and -5 * 2^-1.
    #[test]
    fn filters_decode_known_values() {
        let mut oct = vec![0, 0, 127, 9, (-127i8) as u8, 0, 127, 0];
        filter_octahedral(&mut oct, 4).unwrap();
        assert_eq!(oct, [0, 0, 127, 9, (-127i8) as u8, 0, 0, 0]);
        // Quaternion: x, y, z = 0, 1.0 = 32767 with index 3 (w) in the low bits.
        let mut q = Vec::new();
        for v in [0i16, 0, 0, (32767 & !3) | 3] {
            q.extend(v.to_le_bytes());
        }
        filter_quaternion(&mut q, 8).unwrap();
        let q: Vec<i16> = q
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(q, [0, 0, 0, 32767]);
        let mut e = Vec::new();
        for (exp, m) in [(2i32, 3i32), (-1, -5)] {
            e.extend(((exp << 24) | (m & 0xFF_FFFF)).to_le_bytes());
        }
        filter_exponential(&mut e, 8).unwrap();
        let f: Vec<f32> = e
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(f, [12.0, -2.5]);
        assert!(filter_quaternion(&mut [0; 4], 4).is_err());
        assert!(decode_view(Mode::Triangles, Filter::Octahedral, 3, 2, &[]).is_err());
    }

    /// A xorshift generator: the tests' random data, the same on every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 32) as u32
        }

        fn below(&mut self, n: u32) -> u32 {
            self.next() % n.max(1)
        }
    }

    const SIZES: [usize; 8] = [0, 1, 15, 16, 17, 255, 256, 257];

    /// `got` holds the triangles of `want`, each maybe rotated (same winding).
    fn same_triangles(got: &[u32], want: &[u32]) -> bool {
        got.len() == want.len()
            && got
                .chunks(3)
                .zip(want.chunks(3))
                .all(|(g, w)| (0..3).any(|r| (0..3).all(|k| g[k] == w[(k + r) % 3])))
    }

    /// A strip of quads over `n` vertices (two rows), as a mesh exporter writes them, and
    /// the same triangles shuffled with indices spread over 2^20.
    fn meshes(n: usize, rng: &mut Rng) -> Vec<Vec<u32>> {
        let half = (n / 2).max(1) as u32;
        let mut grid = Vec::new();
        for i in 0..half.saturating_sub(1) {
            grid.extend([i, i + half, i + 1, i + 1, i + half, i + half + 1]);
        }
        let mut random = Vec::new();
        for _ in 0..n {
            random.extend([rng.below(1 << 20), rng.below(1 << 20), rng.below(1 << 20)]);
        }
        let mut near = Vec::new();
        for t in 0..n as u32 {
            near.extend([t, t + 1 + rng.below(3), t + rng.below(20)]);
        }
        vec![grid, random, near]
    }

    #[test]
    fn triangle_codec_round_trip() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for n in SIZES.into_iter().chain([1000, 5000]) {
            for (m, tris) in meshes(n, &mut rng).into_iter().enumerate() {
                let enc = encode_index_buffer(&tris).unwrap();
                let wide = index_words(&decode_index_buffer(tris.len(), 4, &enc).unwrap(), 4);
                assert!(same_triangles(&wide, &tris), "n {n} mesh {m}");
                if tris.iter().all(|&i| i < 65536) {
                    let short = index_words(&decode_index_buffer(tris.len(), 2, &enc).unwrap(), 2);
                    assert_eq!(short, wide, "n {n} mesh {m}: 16-bit");
                }
                if m == 0 && n >= 16 {
                    // A strip costs about a byte a triangle.
                    assert!(enc.len() < 17 + tris.len() / 3 * 2, "{} bytes", enc.len());
                }
            }
        }
        assert!(encode_index_buffer(&[0, 1]).is_err());
        // `next` restarts: a second mesh numbered from 0 again.
        let tris = [0, 1, 2, 0, 1, 2, 3, 4, 5, 0, 0, 0, 7, 7, 7];
        let enc = encode_index_buffer(&tris).unwrap();
        let got = index_words(&decode_index_buffer(tris.len(), 4, &enc).unwrap(), 4);
        assert!(same_triangles(&got, &tris), "{got:?}");
    }

    #[test]
    fn index_sequence_round_trip() {
        let mut rng = Rng(77);
        for n in SIZES {
            let seqs = [
                (0..n as u32).collect::<Vec<_>>(),
                (0..n).map(|_| rng.below(1 << 24)).collect(),
                (0..n as u32)
                    .map(|i| if i % 2 == 0 { i } else { 5000 - i })
                    .collect(),
            ];
            for (k, seq) in seqs.iter().enumerate() {
                let enc = encode_index_sequence(seq).unwrap();
                let got = index_words(&decode_index_sequence(n, 4, &enc).unwrap(), 4);
                assert_eq!(&got, seq, "n {n} sequence {k}");
            }
        }
        assert!(encode_index_sequence(&[0, 0x8000_0000]).is_err());
    }

    #[test]
    fn vertex_codec_round_trip_sizes() {
        let mut rng = Rng(5);
        for count in SIZES.into_iter().chain([1000]) {
            for stride in [4, 8, 12, 16, 64, 256] {
                let random: Vec<u8> = (0..count * stride).map(|_| rng.next() as u8).collect();
                let smooth: Vec<u8> = (0..count * stride)
                    .map(|i| ((i / stride) as u32 * (i % stride) as u32 / 3) as u8)
                    .collect();
                for data in [random, smooth, vec![0; count * stride]] {
                    let enc = encode_vertex_buffer(&data, stride).unwrap();
                    let dec = decode_view(Mode::Attributes, Filter::None, count, stride, &enc);
                    assert_eq!(dec.unwrap(), data, "{count} x {stride}");
                }
            }
        }
    }

    #[test]
    fn octahedral_round_trip() {
        let mut rng = Rng(11);
        let unit = |rng: &mut Rng| loop {
            let v = [0, 1, 2].map(|_| rng.below(2001) as f32 / 1000.0 - 1.0);
            let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            if l > 0.1 && l <= 1.0 {
                break v.map(|c| c / l);
            }
        };
        for count in SIZES {
            let mut vectors: Vec<[f32; 4]> = (0..count)
                .map(|i| {
                    let [x, y, z] = unit(&mut rng);
                    [x, y, z, if i % 2 == 0 { 1.0 } else { -1.0 }]
                })
                .collect();
            if count > 6 {
                // The axes, where the octahedron folds.
                for (k, v) in [[1., 0., 0.], [-1., 0., 0.], [0., 1., 0.], [0., -1., 0.]]
                    .into_iter()
                    .chain([[0., 0., 1.], [0., 0., -1.]])
                    .enumerate()
                {
                    vectors[k] = [v[0], v[1], v[2], 1.0];
                }
            }
            for (stride, bits, tolerance) in [(8, 16, 2e-4), (8, 12, 4e-3), (4, 8, 3e-2)] {
                let filtered = encode_filter_octahedral(&vectors, stride, bits).unwrap();
                let enc = encode_vertex_buffer(&filtered, stride).unwrap();
                let dec =
                    decode_view(Mode::Attributes, Filter::Octahedral, count, stride, &enc).unwrap();
                let max = if stride == 8 { 32767.0 } else { 127.0 };
                for (e, v) in dec.chunks_exact(stride).zip(&vectors) {
                    let c: Vec<f32> = (0..4)
                        .map(|k| {
                            if stride == 8 {
                                f32::from(i16::from_le_bytes([e[2 * k], e[2 * k + 1]])) / max
                            } else {
                                f32::from(e[k] as i8) / max
                            }
                        })
                        .collect();
                    // The angle from the cross product (acos loses precision near 0).
                    let (a, b) = ([0, 1, 2].map(|k| f64::from(c[k])), v.map(f64::from));
                    let cross = [
                        a[1] * b[2] - a[2] * b[1],
                        a[2] * b[0] - a[0] * b[2],
                        a[0] * b[1] - a[1] * b[0],
                    ];
                    let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
                    let norm = |x: [f64; 3]| (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
                    let angle = crate::math::det::atan2(norm(cross), dot);
                    let len = norm(a) as f32;
                    assert!(angle < tolerance, "{v:?} -> {c:?}: {angle} ({bits} bits)");
                    assert!((len - 1.0).abs() < 2.0 / max, "{c:?}");
                    assert_eq!(c[3], v[3], "w passes through");
                }
            }
        }
        assert!(encode_filter_octahedral(&[[0.0; 4]], 8, 17).is_err());
        assert!(encode_filter_octahedral(&[[0.0; 4]], 12, 8).is_err());
    }

    #[test]
    fn vertex_round_trip() {
        for (count, stride) in [(0, 4), (1, 4), (17, 8), (300, 12), (1000, 16), (70, 256)] {
            let data = sample(count, stride);
            let enc = encode_vertex_buffer(&data, stride).unwrap();
            assert_eq!(
                decode_vertex_buffer(count, stride, &enc).unwrap(),
                data,
                "{count}x{stride}"
            );
        }
    }

    #[test]
    fn vertex_truncated_and_corrupt() {
        let data = sample(100, 8);
        let enc = encode_vertex_buffer(&data, 8).unwrap();
        for cut in [0, 1, 10, enc.len() - 1] {
            assert!(
                decode_vertex_buffer(100, 8, &enc[..cut]).is_err(),
                "cut {cut}"
            );
        }
        let mut bad = enc.clone();
        bad[0] = 0xA1;
        let e = decode_vertex_buffer(100, 8, &bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnsupportedVersion);
        assert!(decode_vertex_buffer(100, 6, &enc).is_err());
    }
}

/// Cross-check against meshoptimizer's own JS encoder/decoder: run
/// `node .ci/meshopt_xcheck.js encode DIR`, then this test with `MESHOPT_XCHECK=DIR
/// cargo test -p retromodel --lib meshopt -- --ignored`, then `node .ci/meshopt_xcheck.js decode DIR`.
#[cfg(test)]
mod xcheck {
    #[test]
    #[ignore]
    fn against_meshoptimizer_js() {
        let dir = std::path::PathBuf::from(std::env::var("MESHOPT_XCHECK").unwrap());
        for stride in [4usize, 8, 12, 16, 32] {
            let raw = std::fs::read(dir.join(format!("raw{stride}.bin"))).unwrap();
            let theirs = std::fs::read(dir.join(format!("js{stride}.bin"))).unwrap();
            let count = raw.len() / stride;
            assert_eq!(
                super::decode_vertex_buffer(count, stride, &theirs).unwrap(),
                raw,
                "stride {stride}"
            );
            let ours = super::encode_vertex_buffer(&raw, stride).unwrap();
            std::fs::write(dir.join(format!("rs{stride}.bin")), ours).unwrap();
        }
    }
}
