//! Quake and Quake 2 PAK archives.
//!
//! Sources: id Software's Quake (`common.c`, `COM_LoadPackFile`) and Quake 2
//! (`qcommon/files.c`, `FS_LoadPackFile`, `dpackheader_t` / `dpackfile_t` in `qfiles.h`), as
//! kept in yquake2: both games use the same layout.
//!
//! Layout, little-endian:
//!
//! - header, 12 bytes: the magic `PACK`, `dirofs` (i32: where the directory starts), `dirlen`
//!   (i32: its size in bytes);
//! - the directory: `dirlen / 64` entries of 64 bytes: `name` (56 bytes, NUL-padded, `/`
//!   separated, such as `progs/player.mdl`), `filepos` (i32) and `filelen` (i32);
//! - the files' bytes, anywhere in the archive (usually between the header and the directory).
//!
//! Quirks, as read here:
//!
//! - Quake refuses more than 2048 entries and Quake 2 more than 4096; here the count is
//!   bounded by [`Limits::max_count`] and by the archive's size instead, so the mods that
//!   raised the engines' limits open.
//! - A `dirlen` that is not a multiple of 64 is an error (the engines round it down, which
//!   only happens in broken files).
//! - Every entry's `filepos + filelen` must lie inside the archive: checked when the
//!   directory is read, so a bad entry is reported once with its offset.
//! - When two entries share a name the first one wins, as the engines search the directory
//!   in order. Names are compared as stored (the engines compare case-insensitively; the
//!   [`crate::vfs::GameFs`] does too when asked).
//! - A name that would leave the archive's tree (`..`, a leading `/`, a drive letter) is left
//!   out with a warning: extracting or mirroring it would write outside the target folder.

use std::io::{Read, Seek, SeekFrom};

use super::{Directory, Entry, EntrySource, Opened};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};

/// Short format name used in errors (`pak: ...`).
pub const FORMAT: &str = "pak";
/// The four bytes a PAK archive starts with.
pub const MAGIC: &[u8; 4] = b"PACK";
/// Size of one directory entry.
pub const ENTRY_SIZE: u64 = 64;
/// Bytes of an entry's name field.
pub const NAME_SIZE: usize = 56;

/// The reader a PAK archive's entries are read from (a file, or bytes in a `Cursor`).
pub struct PakReader<R>(R);

/// A PAK archive open over a reader.
pub type Pak<R> = Opened<PakReader<R>>;

impl<R: Read + Seek> Pak<R> {
    /// Reads and checks the header and the directory. The files' bytes are read on demand
    /// by [`Archive::read`].
    pub fn open(mut reader: R, limits: &Limits) -> Result<Self> {
        let size = reader.seek(SeekFrom::End(0)).map_err(|e| io_error(e, 0))?;
        if size < 12 {
            return Err(Error::new(
                FORMAT,
                ErrorKind::Truncated,
                format!("header needs 12 bytes, {size} present"),
                Location::Offset(0),
            ));
        }
        let mut header = [0u8; 12];
        read_at(&mut reader, 0, &mut header)?;
        if &header[..4] != MAGIC {
            return Err(Error::new(
                FORMAT,
                ErrorKind::BadMagic,
                format!(
                    "bad magic {} (expected \"PACK\")",
                    crate::io::magic::show_magic(&header[..4])
                ),
                Location::Offset(0),
            ));
        }
        let dirofs = i32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        let dirlen = i32::from_le_bytes([header[8], header[9], header[10], header[11]]);
        if dirofs < 0 || dirlen < 0 {
            return Err(Error::new(
                FORMAT,
                ErrorKind::BadCount,
                format!("negative directory offset or size (dirofs = {dirofs}, dirlen = {dirlen})"),
                Location::Offset(4),
            ));
        }
        let (dirofs, dirlen) = (dirofs as u64, dirlen as u64);
        if dirlen % ENTRY_SIZE != 0 {
            return Err(Error::new(
                FORMAT,
                ErrorKind::InvalidValue,
                format!("directory size {dirlen} is not a multiple of {ENTRY_SIZE}"),
                Location::Offset(8),
            ));
        }
        if dirofs + dirlen > size {
            return Err(Error::new(
                FORMAT,
                ErrorKind::Truncated,
                format!(
                    "directory ({dirlen} bytes at {dirofs:#x}) runs past the end of the archive ({size} bytes)"
                ),
                Location::Offset(4),
            ));
        }
        let count = dirlen / ENTRY_SIZE;
        if count > u64::from(limits.max_count) {
            return Err(Error::new(
                FORMAT,
                ErrorKind::LimitExceeded,
                format!("{count} entries exceed the limit of {}", limits.max_count),
                Location::Offset(8),
            ));
        }
        // The directory and the entries' names are what opening allocates.
        let mut budget = Budget::new(limits);
        budget.charge(dirlen * 3).map_err(|limit| {
            Error::new(
                FORMAT,
                ErrorKind::LimitExceeded,
                format!("directory would exceed the allocation limit of {limit} bytes"),
                Location::Offset(8),
            )
        })?;
        let mut dir = vec![0u8; dirlen as usize];
        read_at(&mut reader, dirofs, &mut dir)?;
        let mut directory = Directory::new(FORMAT, count as usize);
        for (i, raw) in dir.chunks_exact(ENTRY_SIZE as usize).enumerate() {
            let at = dirofs + i as u64 * ENTRY_SIZE;
            let name_len = raw[..NAME_SIZE]
                .iter()
                .position(|&b| b == 0)
                .unwrap_or(NAME_SIZE);
            let name = String::from_utf8_lossy(&raw[..name_len]).into_owned();
            let filepos = i32::from_le_bytes([raw[56], raw[57], raw[58], raw[59]]);
            let filelen = i32::from_le_bytes([raw[60], raw[61], raw[62], raw[63]]);
            if filepos < 0 || filelen < 0 || filepos as u64 + filelen as u64 > size {
                return Err(Error::new(
                    FORMAT,
                    ErrorKind::Truncated,
                    format!(
                        "entry {i} ({name:?}): {filelen} bytes at {filepos} lie outside the archive ({size} bytes)"
                    ),
                    Location::Offset(at + 56),
                ));
            }
            directory.push(i, &name, filelen as u64, filepos as u64);
        }
        Ok(Opened::new(PakReader(reader), directory))
    }
}

impl<R: Read + Seek + Send> EntrySource for PakReader<R> {
    fn read_entry(&mut self, entry: &Entry) -> Result<Vec<u8>> {
        let mut out = vec![0u8; entry.size as usize];
        read_at(&mut self.0, entry.offset, &mut out)?;
        Ok(out)
    }
}

fn read_at<R: Read + Seek>(reader: &mut R, offset: u64, buf: &mut [u8]) -> Result<()> {
    reader
        .seek(SeekFrom::Start(offset))
        .and_then(|_| reader.read_exact(buf))
        .map_err(|e| io_error(e, offset))
}

fn io_error(e: std::io::Error, offset: u64) -> Error {
    let kind = if e.kind() == std::io::ErrorKind::UnexpectedEof {
        ErrorKind::Truncated
    } else {
        ErrorKind::InvalidValue
    };
    Error::new(
        FORMAT,
        kind,
        format!("cannot read: {e}"),
        Location::Offset(offset),
    )
}

/// Writes a PAK archive holding `files` (path, bytes) in order: the header, the files, then
/// the directory, as id's `qfiles` tool lays them out. Fails on a path longer than 55 bytes
/// or an archive past 2 GiB.
pub fn write(files: &[(&str, &[u8])]) -> Result<Vec<u8>> {
    let too_big = || {
        Error::new(
            FORMAT,
            ErrorKind::InvalidModel,
            "archive would exceed 2 GiB",
            Location::None,
        )
    };
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[0; 8]);
    let mut dir = Vec::with_capacity(files.len() * ENTRY_SIZE as usize);
    for (path, bytes) in files {
        if path.len() >= NAME_SIZE {
            return Err(Error::new(
                FORMAT,
                ErrorKind::InvalidModel,
                format!("path {path:?} is longer than {} bytes", NAME_SIZE - 1),
                Location::None,
            ));
        }
        let mut name = [0u8; NAME_SIZE];
        name[..path.len()].copy_from_slice(path.as_bytes());
        dir.extend_from_slice(&name);
        let pos = i32::try_from(out.len()).map_err(|_| too_big())?;
        let len = i32::try_from(bytes.len()).map_err(|_| too_big())?;
        dir.extend_from_slice(&pos.to_le_bytes());
        dir.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(bytes);
    }
    let dirofs = i32::try_from(out.len()).map_err(|_| too_big())?;
    let dirlen = i32::try_from(dir.len()).map_err(|_| too_big())?;
    out[4..8].copy_from_slice(&dirofs.to_le_bytes());
    out[8..12].copy_from_slice(&dirlen.to_le_bytes());
    out.extend_from_slice(&dir);
    i32::try_from(out.len()).map_err(|_| too_big())?;
    Ok(out)
}
