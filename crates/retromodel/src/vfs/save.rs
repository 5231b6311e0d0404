//! Writing files without losing any: through a temporary file in the same folder moved into
//! place, never replacing an existing file unless asked. Every writer of the command line and
//! the Python package goes through [`write_atomic`].

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::FileError;

/// Writes `bytes` to `path` through a temporary file in the same folder moved into place,
/// so a crash never leaves a half-written file. Refuses to replace an existing file (an
/// input included) unless `force`: without it the file is published with a hard link, which
/// fails if the name was taken meanwhile. A replaced file keeps its permissions.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), FileError> {
    let exists = || {
        FileError(format!(
            "{} exists; pass --force to replace it",
            path.display()
        ))
    };
    if path.exists() && !force {
        return Err(exists());
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| FileError(format!("{} is not a file path", path.display())))?;
    let (tmp, file) = create_temp(dir, &name.to_string_lossy()).map_err(|e| {
        FileError(format!(
            "cannot create a temporary file in {}: {e}",
            dir.display()
        ))
    })?;
    let tmp_path = &tmp;
    let published = (move || -> std::io::Result<bool> {
        let tmp = tmp_path;
        {
            // Closed at the end of this block, before the rename.
            let mut file = file;
            file.write_all(bytes)?;
            file.sync_all()?;
        }
        if force {
            if let Ok(meta) = fs::metadata(path) {
                fs::set_permissions(tmp, meta.permissions())?;
            }
            fs::rename(tmp, path)?;
            return Ok(true);
        }
        match fs::hard_link(tmp, path) {
            Ok(()) => {
                fs::remove_file(tmp)?;
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            // A file system without hard links: check, then rename.
            Err(_) if !path.exists() => fs::rename(tmp, path).map(|()| true),
            Err(_) => Ok(false),
        }
    })();
    let _ = fs::remove_file(&tmp);
    match published {
        Ok(true) => Ok(()),
        Ok(false) => Err(exists()),
        Err(e) => Err(FileError(format!("cannot write {}: {e}", path.display()))),
    }
}

/// Creates a new temporary file beside the target, never reusing or following an existing
/// name.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, fs::File)> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let mut last = None;
    for attempt in 0..16u32 {
        let tmp = dir.join(format!(
            ".{name}.{}-{nanos:x}-{attempt}.tmp",
            std::process::id()
        ));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}
