//! The meshopt vertex codec of `EXT_meshopt_compression` / `KHR_meshopt_compression`: the vertex
//! codec (mode ATTRIBUTES, version 0: header `0xA0`, blocks of byte groups of 16 in 0/2/4/8-bit
//! modes, a 32-byte tail), decoded and encoded. (Index codecs and filters: not yet.)
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
