//! Finding the test corpus: shared by the integration tests of `retromodel` (as
//! `common::corpus`) and of `retromodel-cli` (included by path), so both skip and fail alike.

use std::path::PathBuf;

/// The corpus folder named by `RETROMODEL_CORPUS`: `None`, with a notice that `what` is
/// skipped, when the variable is unset; a panic when the folder has no `MANIFEST.tsv`.
pub fn corpus(what: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("RETROMODEL_CORPUS") else {
        eprintln!("RETROMODEL_CORPUS is not set: {what} skipped");
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("MANIFEST.tsv").is_file(),
        "RETROMODEL_CORPUS={} has no MANIFEST.tsv",
        dir.display()
    );
    Some(dir)
}
