//! Archives on disk as a run sees them: `ARCHIVE:PATH` names (a file inside an archive, such
//! as `pak0.pak:progs/player.mdl`), each archive opened once however many files are taken
//! from it ([`Archives`]), and reading a file named either way.

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::{open_file, Archive, GameFs};
use crate::limits::Limits;

/// A file that could not be read: its message names the file (`pak0.pak: no
/// "progs/x.mdl" in the archive`, `cannot read x.mdl: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError(pub String);

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FileError {}

/// `ARCHIVE:PATH` (a path inside an archive, such as `pak0.pak:progs/player.mdl`) split into
/// the archive file and the path inside it (empty for `ARCHIVE:`). `None` when `path` is a
/// file or folder on disk, or no prefix of it ending before a `:` is a file.
///
/// **The colon rule**, the same on every platform: the first `:` after which the part before
/// it is a file separates the archive from the path inside it, except a drive letter's colon
/// ([`archive_colons`]): `C:\mods\pak0.pak:progs/x.mdl` is the archive
/// `C:\mods\pak0.pak` and `progs/x.mdl` in it, even beside a file named `C`.
pub fn split_archive_path(path: &Path) -> Option<(PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let s = path.to_str()?;
    archive_colons(s).find_map(|i| {
        let archive = Path::new(&s[..i]);
        archive
            .is_file()
            .then(|| (archive.to_path_buf(), s[i + 1..].to_string()))
    })
}

/// The byte offsets of the colons of `s` that may separate an archive from a path inside it:
/// every `:` but a drive letter's, one ASCII letter at the start (`C:`) or after a Windows
/// device prefix (`\\?\C:`, `\\.\C:`, or the same with `/`).
pub fn archive_colons(s: &str) -> impl Iterator<Item = usize> + '_ {
    let b = s.as_bytes();
    let letter = move |j: usize| b.get(j).is_some_and(u8::is_ascii_alphabetic);
    let device = |p: &[u8]| matches!(p, b"\\\\?\\" | b"\\\\.\\" | b"//?/" | b"//./");
    s.match_indices(':').map(|(i, _)| i).filter(move |&i| {
        let drive = (i == 1 && letter(0)) || (i == 5 && letter(4) && device(&b[..4]));
        !drive
    })
}

/// The `ARCHIVE:PATH` name of the file `inner` of the archive at `archive`.
pub fn archive_path(archive: &Path, inner: &str) -> PathBuf {
    PathBuf::from(format!("{}:{inner}", archive.display()))
}

/// The archives a run opened, by path: each is read once, whatever the number of files taken
/// from it, each as a tree of its own with the run's case rule.
pub struct Archives {
    limits: Limits,
    case_insensitive: bool,
    cache: Mutex<HashMap<PathBuf, Opened>>,
}

/// An archive of the cache: the archive, and the tree of it alone.
#[derive(Clone)]
struct Opened {
    archive: Arc<dyn Archive>,
    tree: Arc<GameFs>,
}

impl Archives {
    /// No archive opened yet; trees read within `limits`, ignoring ASCII case when
    /// `case_insensitive`.
    pub fn new(limits: &Limits, case_insensitive: bool) -> Self {
        Archives {
            limits: *limits,
            case_insensitive,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// A new, empty tree with the run's limits and case rule.
    pub fn new_tree(&self) -> GameFs {
        GameFs::new(&self.limits).case_insensitive(self.case_insensitive)
    }

    /// Whether look-ups ignore ASCII case.
    pub fn is_case_insensitive(&self) -> bool {
        self.case_insensitive
    }

    /// The archive at `path` as a tree of its own (opened once). The error names the
    /// archive: `pak0.pak: pak: directory ... runs past the end of the archive`.
    pub fn open(&self, path: &Path) -> Result<Arc<GameFs>, FileError> {
        self.opened(path).map(|o| o.tree)
    }

    /// The archive at `path` (opened once), to mount in a tree of several layers.
    pub fn open_archive(&self, path: &Path) -> Result<Box<dyn Archive>, FileError> {
        self.opened(path)
            .map(|o| Box::new(o.archive) as Box<dyn Archive>)
    }

    fn opened(&self, path: &Path) -> Result<Opened, FileError> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(o) = cache.get(path) {
            return Ok(o.clone());
        }
        let archive: Arc<dyn Archive> = open_file(path, &self.limits)
            .map_err(|e| FileError(format!("{}: {e}", path.display())))?
            .into();
        let mut fs = self.new_tree();
        // Entries left out (names outside the archive's tree) are shown by listings.
        fs.add_archive(&path.display().to_string(), Box::new(archive.clone()));
        let opened = Opened {
            archive,
            tree: Arc::new(fs),
        };
        cache.insert(path.to_path_buf(), opened.clone());
        Ok(opened)
    }

    /// A game folder mounted as [`GameFs::mount_game_dir`] does, its archives opened through
    /// this cache. Fails only when `root` is not a folder.
    pub fn mount_game_dir(&self, root: &Path) -> crate::error::Result<GameFs> {
        let mut fs = self.new_tree();
        fs.mount_game_dir_with(root, |p| self.open_archive(p).map_err(|e| e.0))?;
        Ok(fs)
    }

    /// Reads a file on disk or `ARCHIVE:PATH`, naming it in the error.
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, FileError> {
        if let Some((archive, inner)) = split_archive_path(path) {
            return read_entry(&*self.open(&archive)?, &archive, &inner);
        }
        fs::read(path).map_err(|e| FileError(format!("cannot read {}: {e}", path.display())))
    }

    /// The size of a file on disk or `ARCHIVE:PATH` (0 when unknown).
    pub fn size(&self, path: &Path) -> u64 {
        if let Ok(m) = fs::metadata(path) {
            return m.len();
        }
        split_archive_path(path)
            .and_then(|(archive, inner)| self.open(&archive).ok()?.size_of(&inner))
            .unwrap_or(0)
    }
}

/// The file `inner` of `tree`, the archive at `archive`, naming it in the error.
pub fn read_entry(tree: &GameFs, archive: &Path, inner: &str) -> Result<Vec<u8>, FileError> {
    match tree.read(inner) {
        Some(r) => r.map_err(|e| FileError(format!("{}:{inner}: {e}", archive.display()))),
        None => Err(FileError(format!(
            "{}: no {inner:?} in the archive",
            archive.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colons(s: &str) -> Vec<usize> {
        archive_colons(s).collect()
    }

    /// A drive letter's colon never separates an archive, on every platform (issue 40).
    #[test]
    fn drive_letters_are_not_archive_separators() {
        assert_eq!(colons(r"C:\mods\pak0.pak:progs/x.mdl"), [16]);
        assert_eq!(colons("z:/tmp/pak0.pak:progs/x.mdl"), [15]);
        assert_eq!(colons(r"\\?\C:\mods\pak0.pak:a.mdl"), [20]);
        assert_eq!(colons(r"\\.\D:\pak0.pak:a.mdl"), [15]);
        assert_eq!(colons("C:"), Vec::<usize>::new());
        // Not drive letters: a longer name, a digit, a colon elsewhere.
        assert_eq!(colons("pak0.pak:progs/x.mdl"), [8]);
        assert_eq!(colons("ab:x"), [2]);
        assert_eq!(colons("1:x"), [1]);
        assert_eq!(colons("ü:x"), [2]);
        assert_eq!(colons(":x"), [0]);
        assert_eq!(colons("a/b:c:d"), [3, 5]);
    }

    /// The archive is found after a drive-letter-like prefix, and a file named as the letter
    /// does not capture the path.
    #[test]
    fn split_after_a_drive_letter() {
        let dir = std::env::temp_dir().join(format!("retromodel-colon-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let pak = dir.join("pak0.pak");
        fs::write(&pak, b"PACK").unwrap();
        let named = format!("{}:progs/x.mdl", pak.display());
        assert_eq!(
            split_archive_path(Path::new(&named)),
            Some((pak.clone(), "progs/x.mdl".to_string()))
        );
        // "C" as a file beside a relative name: `C:rest` is a drive path, not an archive.
        let c = dir.join("C");
        fs::write(&c, b"PACK").unwrap();
        let s = c.display().to_string();
        let rel = &s[s.len() - 1..];
        assert_eq!(colons(&format!("{rel}:progs/x.mdl")), Vec::<usize>::new());
        assert_eq!(split_archive_path(Path::new("")), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}
