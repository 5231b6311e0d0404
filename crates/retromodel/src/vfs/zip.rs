//! ZIP archives: Quake 3 `.pk3`, Doom 3 `.pk4` and plain `.zip`, read with the `zip` crate.
//!
//! Sources: PKWARE's APPNOTE.TXT (the container), ioquake3 `code/qcommon/files.c`
//! (`FS_LoadZipFile`) and dhewm3 `framework/FileSystem.cpp` for how the games use it. The
//! games read stored and deflated entries only; so does this reader (the `zip` crate is built
//! with deflate alone): another method is an [`ErrorKind::Unsupported`] error naming the
//! entry when the entry is read, not when the archive is opened.
//!
//! Bounds: an entry's declared uncompressed size is checked against
//! [`Limits::max_alloc_bytes`] before anything is inflated, and inflating stops one byte past
//! the declared size, so a zip bomb fails at once whatever its headers claim. Directory entries
//! are left out of the listing; a name that would leave the archive's tree (`..`, a leading `/`,
//! a drive letter) is left out with a warning. When two entries share a name, the first wins.

use std::io::{Read, Seek};

use ::zip::result::ZipError;
use ::zip::ZipArchive;

use super::{Directory, Entry, EntrySource, Opened};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;

/// Short format name used in errors (`zip: ...`).
pub const FORMAT: &str = "zip";

/// A ZIP archive open over a reader.
pub type Zip<R> = Opened<ZipArchive<R>>;

impl<R: Read + Seek> Zip<R> {
    /// Reads the central directory. Entry data is read on demand by [`Archive::read`].
    pub fn open(reader: R, limits: &Limits) -> Result<Self> {
        let mut archive = ZipArchive::new(reader).map_err(|e| zip_error(e, None))?;
        if archive.len() as u64 > u64::from(limits.max_count) {
            return Err(Error::new(
                FORMAT,
                ErrorKind::LimitExceeded,
                format!(
                    "{} entries exceed the limit of {}",
                    archive.len(),
                    limits.max_count
                ),
                Location::None,
            ));
        }
        let mut directory = Directory::new(FORMAT, archive.len());
        for i in 0..archive.len() {
            let file = archive
                .by_index_raw(i)
                .map_err(|e| zip_error(e, Some(&format!("entry {i}"))))?;
            if file.is_dir() {
                continue;
            }
            let name = match file.name() {
                Ok(n) => n.into_owned(),
                Err(_) => String::from_utf8_lossy(file.name_raw()).into_owned(),
            };
            directory.push(i, &name, file.size(), i as u64);
        }
        Ok(Opened::new(archive, directory))
    }
}

impl<R: Read + Seek + Send> EntrySource for ZipArchive<R> {
    fn read_entry(&mut self, entry: &Entry) -> Result<Vec<u8>> {
        let context = || format!("{:?}", entry.path);
        let file = self
            .by_index(entry.offset as usize)
            .map_err(|e| zip_error(e, Some(&context())))?;
        let mut out = Vec::with_capacity(entry.size as usize);
        file.take(entry.size + 1)
            .read_to_end(&mut out)
            .map_err(|e| {
                Error::new(
                    FORMAT,
                    ErrorKind::InvalidValue,
                    format!("cannot inflate: {e}"),
                    Location::None,
                )
                .in_context(context())
            })?;
        if out.len() as u64 != entry.size {
            return Err(Error::new(
                FORMAT,
                ErrorKind::InvalidValue,
                format!(
                    "inflates to {} bytes, not the {} its header declares",
                    out.len(),
                    entry.size
                ),
                Location::None,
            )
            .in_context(context()));
        }
        Ok(out)
    }
}

fn zip_error(e: ZipError, context: Option<&str>) -> Error {
    let (kind, message) = match e {
        ZipError::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            (ErrorKind::Truncated, format!("archive ends early: {e}"))
        }
        ZipError::UnsupportedArchive(m) => (ErrorKind::Unsupported, m.to_string()),
        ZipError::InvalidArchive(m) => {
            (ErrorKind::InvalidValue, format!("not a valid archive: {m}"))
        }
        other => (ErrorKind::InvalidValue, other.to_string()),
    };
    let e = Error::new(FORMAT, kind, message, Location::None);
    match context {
        Some(c) => e.in_context(c),
        None => e,
    }
}

/// Writes a ZIP archive holding `files` (path, bytes, deflated or stored) in order. For
/// tests, fixtures and the `pack` tooling.
pub fn write(files: &[(&str, &[u8], bool)]) -> std::io::Result<Vec<u8>> {
    let mut w = ::zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, bytes, deflate) in files {
        let method = if *deflate {
            ::zip::CompressionMethod::Deflated
        } else {
            ::zip::CompressionMethod::Stored
        };
        let options = ::zip::write::SimpleFileOptions::default().compression_method(method);
        w.start_file(*path, options)
            .map_err(std::io::Error::other)?;
        std::io::Write::write_all(&mut w, bytes)?;
    }
    Ok(w.finish().map_err(std::io::Error::other)?.into_inner())
}
