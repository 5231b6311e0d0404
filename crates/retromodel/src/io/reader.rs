//! The checked little-endian cursor.

use crate::error::{Error, ErrorKind, Location, Result, ResultExt};
use crate::limits::{Budget, Limits};

/// A bounds-checked little-endian cursor over a byte slice.
///
/// Every error it makes names the format it was created for and the byte offset of the failed
/// read.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    format: &'static str,
}

impl<'a> Reader<'a> {
    /// A cursor at the start of `data`; errors are labelled with `format`.
    pub fn new(data: &'a [u8], format: &'static str) -> Self {
        Reader {
            data,
            pos: 0,
            format,
        }
    }

    /// A cursor at the start of `data` (errors labelled with `format`) and the header that
    /// `read_header` reads there, its errors in the context `header`: how a binary parser
    /// begins.
    pub fn with_header<H>(
        data: &'a [u8],
        format: &'static str,
        read_header: impl FnOnce(&mut Reader<'a>) -> Result<H>,
    ) -> Result<(Self, H)> {
        let mut r = Reader::new(data, format);
        let header = read_header(&mut r).context_with(|| "header")?;
        Ok((r, header))
    }

    /// The current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the cursor to `pos`, which may be the end of the data but not past it.
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(self.error_at(
                pos,
                ErrorKind::Truncated,
                format!(
                    "offset past the end of the data ({} bytes)",
                    self.data.len()
                ),
            ));
        }
        self.pos = pos;
        Ok(())
    }

    /// Bytes left after the current position.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The bytes from the current position to the end, without consuming them.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// An error of this reader's format at the current offset.
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> Error {
        self.error_at(self.pos, kind, message)
    }

    /// An error of this reader's format at `offset`.
    pub fn error_at(&self, offset: usize, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(self.format, kind, message, Location::Offset(offset as u64))
    }

    /// Consumes `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.pos.checked_add(n) {
            Some(end) if end <= self.data.len() => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            _ => Err(self.error(
                ErrorKind::Truncated,
                format!(
                    "unexpected end of data (needed {n} bytes, {} left)",
                    self.remaining()
                ),
            )),
        }
    }

    /// Consumes `count` records of `size` bytes each, one bounds check for all of them:
    /// each record's bytes, for [`Fields`] to read. `size` is not 0 (records of 0 bytes
    /// would come back as none).
    pub fn records(
        &mut self,
        count: usize,
        size: usize,
    ) -> Result<std::slice::ChunksExact<'a, u8>> {
        debug_assert!(size > 0, "records of 0 bytes");
        let n = count.checked_mul(size).ok_or_else(|| {
            self.error(
                ErrorKind::LimitExceeded,
                format!("{count} records of {size} bytes are too many"),
            )
        })?;
        Ok(self.bytes(n)?.chunks_exact(size.max(1)))
    }

    /// Consumes a fixed-size byte array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.bytes(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// Reads one byte.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    /// Reads a little-endian `u16`.
    pub fn u16(&mut self) -> Result<u16> {
        self.array().map(u16::from_le_bytes)
    }

    /// Reads a little-endian `i32`.
    pub fn i32(&mut self) -> Result<i32> {
        self.array().map(i32::from_le_bytes)
    }

    /// Reads a little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32> {
        self.array().map(u32::from_le_bytes)
    }

    /// Reads a little-endian IEEE `f32`, bit for bit (NaN payloads kept).
    pub fn f32(&mut self) -> Result<f32> {
        self.array().map(f32::from_le_bytes)
    }

    /// Reads three little-endian `f32`.
    pub fn vec3(&mut self) -> Result<[f32; 3]> {
        Ok([self.f32()?, self.f32()?, self.f32()?])
    }

    /// The error for a file whose first four bytes, `magic`, are not the format's: it names
    /// what the magic really is.
    pub fn bad_magic(&self, magic: &[u8; 4]) -> Error {
        self.error_at(
            0,
            ErrorKind::BadMagic,
            format!(
                "bad magic {}: {}",
                super::magic::show_magic(magic),
                super::magic::describe(magic)
            ),
        )
    }

    /// Reads the 4-byte magic and the `i32` version after it, failing unless they are
    /// `ident` and `version` (the error names what the magic really is).
    pub fn magic_and_version(&mut self, ident: [u8; 4], version: i32) -> Result<i32> {
        let magic = self.array::<4>()?;
        if magic != ident {
            return Err(self.bad_magic(&magic));
        }
        let found = self.i32()?;
        if found != version {
            return Err(self.error_at(
                4,
                ErrorKind::UnsupportedVersion,
                format!("unsupported version {found} (expected {version})"),
            ));
        }
        Ok(found)
    }

    /// Charges `bytes` to an allocation budget; the error names the limit and `offset`.
    pub fn charge(&self, budget: &mut Budget, bytes: u64, offset: usize) -> Result<()> {
        budget.charge(bytes).map_err(|limit| {
            self.error_at(
                offset,
                ErrorKind::LimitExceeded,
                format!("decoded data would exceed the allocation limit of {limit} bytes"),
            )
        })
    }

    /// Checks a count read from the file (stored at `offset`, field `name`) against its
    /// sign and `limits.max_count` only: fails if it is negative or above the limit.
    pub fn count_in_limit(
        &self,
        value: i32,
        name: &str,
        offset: usize,
        limits: &Limits,
    ) -> Result<usize> {
        if value < 0 {
            return Err(self.error_at(
                offset,
                ErrorKind::BadCount,
                format!("negative count {name} = {value}"),
            ));
        }
        if value as u32 > limits.max_count {
            return Err(self.error_at(
                offset,
                ErrorKind::LimitExceeded,
                format!("{name} = {value} exceeds the limit of {}", limits.max_count),
            ));
        }
        Ok(value as usize)
    }

    /// Checks a skin size read from the file (the width stored at `offset`): fails if a side
    /// is negative or above `limits.max_image_dimension`.
    pub fn skin_size(&self, width: i32, height: i32, offset: usize, limits: &Limits) -> Result<()> {
        if width < 0 || height < 0 {
            return Err(self.error_at(
                offset,
                ErrorKind::InvalidValue,
                format!("negative skin size {width}x{height}"),
            ));
        }
        let max = limits.max_image_dimension;
        if width as u32 > max || height as u32 > max {
            return Err(self.error_at(
                offset,
                ErrorKind::LimitExceeded,
                format!("skin size {width}x{height} exceeds the limit of {max} pixels a side"),
            ));
        }
        Ok(())
    }

    /// Checks a count read from the file before anything is allocated for it.
    ///
    /// `offset` is where the count was stored (for the error), `name` its field name,
    /// `elem_size` the minimum number of bytes each element occupies in the data that follows.
    /// Fails if the count is negative, above `limits.max_count`, or claims more bytes than
    /// are left after the current position.
    pub fn count(
        &self,
        value: i32,
        name: &str,
        elem_size: usize,
        offset: usize,
        limits: &Limits,
    ) -> Result<usize> {
        let n = self.count_in_limit(value, name, offset, limits)?;
        let need = (n as u64).saturating_mul(elem_size as u64);
        if need > self.remaining() as u64 {
            return Err(self.error_at(
                offset,
                ErrorKind::BadCount,
                format!(
                    "{name} = {value} needs at least {need} bytes but only {} are left",
                    self.remaining()
                ),
            ));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_reports_truncation_offset() {
        let data = [1, 0, 0, 0, 0, 0, 0x80, 0x3f, 7];
        let mut r = Reader::new(&data, "test");
        assert_eq!(r.i32().unwrap(), 1);
        assert_eq!(r.f32().unwrap(), 1.0);
        let e = r.i32().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
        assert_eq!(
            e.to_string(),
            "test: unexpected end of data (needed 4 bytes, 1 left) at offset 0x8"
        );
        assert_eq!(r.u8().unwrap(), 7);
    }

    #[test]
    fn records_check_once_and_fields_read_in_order() {
        let mut data = Vec::new();
        for (a, b, c) in [(1u32, -2i32, 0.5f32), (3, 4, -1.0)] {
            data.extend(a.to_le_bytes());
            data.extend(b.to_le_bytes());
            data.extend(c.to_le_bytes());
        }
        data.push(9);
        let mut r = Reader::new(&data, "test");
        let rows: Vec<(u32, i32, f32)> = r
            .records(2, 12)
            .unwrap()
            .map(|rec| {
                let mut f = Fields::new(rec);
                (f.u32(), f.i32(), f.f32())
            })
            .collect();
        assert_eq!(rows, [(1, -2, 0.5), (3, 4, -1.0)]);
        assert_eq!(r.pos(), 24);
        let e = r.records(1, 12).unwrap_err();
        assert_eq!(
            e.to_string(),
            "test: unexpected end of data (needed 12 bytes, 1 left) at offset 0x18"
        );
        let e = r.records(usize::MAX, 2).unwrap_err();
        assert_eq!(e.kind, ErrorKind::LimitExceeded);
        let mut f = Fields::new(&data[..12]);
        assert_eq!(
            f.f32s::<3>().map(f32::to_bits),
            [1, (-2i32) as u32, 0.5f32.to_bits()]
        );
    }

    #[test]
    #[should_panic(expected = "a field inside its record")]
    fn a_field_past_its_record_is_a_bug() {
        Fields::new(&[0, 0]).u32();
    }

    #[test]
    fn count_rejects_negative_huge_and_overlong() {
        let data = [0u8; 16];
        let r = Reader::new(&data, "test");
        let l = Limits::default();
        assert_eq!(r.count(4, "n", 4, 0, &l).unwrap(), 4);
        assert_eq!(
            r.count(-1, "n", 4, 0, &l).unwrap_err().kind,
            ErrorKind::BadCount
        );
        assert_eq!(
            r.count(5, "n", 4, 0, &l).unwrap_err().kind,
            ErrorKind::BadCount
        );
        assert_eq!(
            r.count(i32::MAX, "n", 1, 0, &l).unwrap_err().kind,
            ErrorKind::LimitExceeded
        );
    }
}

/// The fields of one record from [`Reader::records`], read in order (little-endian). The
/// record's size was checked when it was read, so a read cannot fail: reading past the
/// record is a bug of the caller's layout, and panics.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    rest: &'a [u8],
}

impl<'a> Fields<'a> {
    /// The fields of `record`, from its first byte.
    #[inline]
    pub fn new(record: &'a [u8]) -> Self {
        Fields { rest: record }
    }

    #[inline]
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self
            .rest
            .split_first_chunk::<N>()
            .expect("a field inside its record");
        self.rest = rest;
        *head
    }

    /// A little-endian `u32`.
    #[inline]
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    /// `N` bytes as they are (names, padding).
    #[inline]
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        self.take()
    }

    /// A little-endian `i16`.
    #[inline]
    pub fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }

    /// A little-endian `u16`.
    #[inline]
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }

    /// A little-endian `i32`.
    #[inline]
    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }

    /// A little-endian IEEE `f32`, bit for bit.
    #[inline]
    pub fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take())
    }

    /// `N` little-endian `f32`s.
    #[inline]
    pub fn f32s<const N: usize>(&mut self) -> [f32; N] {
        std::array::from_fn(|_| self.f32())
    }
}
