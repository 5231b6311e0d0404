//! # retromodel
//!
//! Reads, writes and converts the classic game model formats: Quake MDL, Quake 2 MD2 and
//! 3D GameStudio MDL2..MDL5 byte for byte (and from any [`Model`]), Doom 3 MD5 mesh, anim and
//! camera (values exact), 3D GameStudio MDL7 and HMP (read), ASCII WMP levels (token for
//! token); glTF 2.0 and Wavefront OBJ read and written in [`interchange`].
//!
//! ## Layers
//!
//! `bytes -> raw::File (one format, 1:1 with the disk) -> Model (format-neutral) -> raw::File`
//!
//! - **raw** ([`formats::quake_mdl::File`]): every field as stored; `parse` validates every
//!   count, offset and index once, `write` reproduces an unmodified file byte for byte.
//! - **Model** ([`Model`]): meshes with one morph target per pose, clips, skins as images.
//! - **convert** (`formats::<f>::to_model`): raw to Model, with warnings for anything odd.
//! - **write** (`formats::<f>::from_model`): any Model to raw, with warnings for anything
//!   lossy (quantisation error per frame, engine limits).
//!
//! Side files (palettes) arrive through a [`Resolver`]; parsers take bytes, never paths.
//! Allocation is bounded by [`Limits`]: a header claiming 2^31 frames fails at once.
//!
//! ```
//! # let bytes = retromodel::formats::quake_mdl::fixtures::minimal();
//! let doc = retromodel::Document::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(doc.format(), retromodel::formats::quake_mdl::QUAKE_MDL);
//! assert_eq!(doc.write(), bytes);
//! let model = doc.to_model(&Default::default(), &retromodel::NoFiles).model;
//! println!("{} vertices, {} frames", model.vertex_count(), model.frames.len());
//! # Ok::<(), retromodel::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod codec;
pub mod conform;
pub mod diagnostic;
mod document;
pub mod error;
pub mod formats;
pub mod front;
mod hash;
pub mod image;
pub mod inputs;
pub mod interchange;
pub mod io;
pub mod limits;
pub mod math;
pub mod model;
pub mod options;
pub mod registry;
pub mod rerelease;
pub mod resolve;
pub mod skin_lookup;
pub mod summary;
pub mod vfs;

pub use codec::Format;
pub use codec::{Codec, ParsedFile};
pub use diagnostic::{Diagnostic, Severity};
pub use document::Document;
pub use error::{Error, ErrorKind, Location, Result};
pub use limits::Limits;
pub use model::{Converted, Model};
pub use options::{Compress, ConvertOptions, Placement, SeamRule, WriteOptions, Written};
pub use registry::detect;
pub use resolve::{MemoryFiles, NoFiles, Resolver};
pub use summary::Summary;

/// Parses any supported file and converts it to a [`Model`] with default options.
pub fn read(data: &[u8], limits: &Limits, resolver: &dyn Resolver) -> Result<Model> {
    Ok(Document::parse(data, limits)?
        .to_model(&ConvertOptions::default(), resolver)
        .model)
}

/// The bytes of every file under `$RETROMODEL_CORPUS` whose extension is one of `extensions`:
/// corpus input for the library's unit tests. When the variable is not set, none (said on
/// stderr); when it is set, a folder without `MANIFEST.tsv`, a file or folder that cannot be
/// read, or no file of these extensions fails the test (issue 45: a corpus check that
/// finds nothing must not pass on the fixtures alone).
#[cfg(test)]
pub(crate) fn corpus_files(extensions: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let Some(dir) = std::env::var_os("RETROMODEL_CORPUS") else {
        eprintln!("RETROMODEL_CORPUS is not set: the corpus part ({extensions:?}) skipped");
        return out;
    };
    let root = std::path::PathBuf::from(dir);
    assert!(
        root.join("MANIFEST.tsv").is_file(),
        "RETROMODEL_CORPUS={} has no MANIFEST.tsv",
        root.display()
    );
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries {
            let path = e.unwrap_or_else(|e| panic!("{}: {e}", d.display())).path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|x| extensions.iter().any(|e| x == *e))
            {
                out.push(
                    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
                );
            }
        }
    }
    assert!(
        !out.is_empty(),
        "RETROMODEL_CORPUS={}: no {extensions:?} files",
        root.display()
    );
    out
}
