//! Wavefront OBJ: the [`Codec`](crate::codec::Codec) that the format registry lists for
//! `.obj` files, and the OBJ-with-skins package every writer of OBJ uses.

use super::export::to_obj;
use super::import::read;
use crate::codec::{codec, Engine, Format, Output, ParsedFile, SideFile, Writer};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::interchange::{fixture_model, summary_of, ImportOptions};
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{ConvertOptions, WriteOptions};
use crate::resolve::{NoFiles, Resolver};
use crate::summary::Summary;

/// Wavefront OBJ text.
pub const OBJ: Format = Format::new("obj", "Wavefront OBJ", &["obj"]);

const ENGINES: &[Engine] = &[Engine {
    name: "obj",
    description: "OBJ readers: the file's faces import",
}];

/// The statements an OBJ file opens with (after comments and blank lines).
const KEYWORDS: &[&str] = &["v", "vt", "vn", "f", "o", "g", "mtllib", "usemtl"];

codec! {
    /// The OBJ codec: `.obj` read through the importer, written as one pose with a `.mtl`
    /// and PNG skins.
    ObjCodec {
        name: "obj",
        family: "OBJ",
        formats: &[OBJ],
        engines: ENGINES,
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        is_obj(data).then_some(OBJ)
    }
    fn interchange(&self) -> bool {
        true
    }
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        // The geometry is read now (errors at their line); materials and textures, which
        // come through the resolver, in `to_model`.
        let options = ImportOptions {
            fps: None,
            skip_textures: true,
            limits: *limits,
        };
        read(data, &NoFiles, &options)?;
        Ok(Box::new(File {
            bytes: data,
            limits: *limits,
        }))
    }
    fn writers(&self) -> &'static [Writer] {
        &[Writer {
            format: OBJ,
            variant: "",
            keyframes: false,
            single_mesh: false,
            fit: crate::codec::Fit::NONE,
        }]
    }
    /// Pose [`WriteOptions::frame`], its `STEM.mtl` and each skin's first picture as
    /// `STEM_skinN.png` beside it ([`package`]).
    fn write_model(&self, model: &Model, _: Format, options: &WriteOptions) -> Result<Output> {
        package(model, options.frame, options.side_file_stem())
    }
}

/// Whether `data` is OBJ text: text (no NUL byte in the first 4 KiB) whose first statement
/// (after comments and blank lines) is an OBJ keyword followed by a space or tab. Names
/// may hold any other byte.
fn is_obj(data: &[u8]) -> bool {
    let head = &data[..data.len().min(4096)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.contains(&0) {
        return false;
    }
    for line in head.split(|&b| b == b'\n' || b == b'\r') {
        let line = line.trim_ascii_start();
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        let word_end = line
            .iter()
            .position(|&b| b == b' ' || b == b'\t')
            .unwrap_or(line.len());
        return word_end < line.len() && KEYWORDS.iter().any(|k| k.as_bytes() == &line[..word_end]);
    }
    false
}

/// Pose `frame` of `model` as OBJ with its materials and skins: the `.obj` text, and beside
/// it each skin's first picture as `STEM_skinN.png` and the `STEM.mtl` that names them (the
/// main file last in the command line's listing: PNGs, then the MTL).
pub fn package(model: &Model, frame: usize, stem: &str) -> Result<Output> {
    // A model without triangles (a tag-only MD3) is written as its vertices, with a
    // warning: OBJ readers, this one included, find no model in a file without faces.
    let mut warnings = Vec::new();
    if model.triangle_count() == 0 {
        warnings.push(
            "the model has no triangles: the OBJ holds its vertices only, and readers find no \
             faces in it"
                .to_string(),
        );
    }
    // OBJ numbers are decimal text: NaN and infinities are not read back.
    let finite = model.meshes.iter().all(|m| {
        let (pos, nrm) = match m.morph_targets.get(frame) {
            Some(t) => (&t.positions, &t.normals),
            None => (&m.positions, &m.normals),
        };
        pos.iter().chain(nrm).flatten().all(|c| c.is_finite())
            && m.uvs.iter().flatten().all(|c| c.is_finite())
    });
    if !finite {
        return Err(Error::new(
            super::FORMAT,
            ErrorKind::InvalidModel,
            format!("pose {frame} has a coordinate that is not finite"),
            Location::None,
        ));
    }
    let mut side_files = Vec::new();
    let mut names = Vec::new();
    for (i, skin) in model.skins.iter().enumerate() {
        if let Some(p) = skin.pictures.first() {
            let name = format!("{stem}_skin{i}.png");
            let bytes = p.to_png().map_err(|e| {
                Error::new(
                    super::FORMAT,
                    ErrorKind::InvalidValue,
                    format!("PNG encoding failed: {e}"),
                    Location::None,
                )
            })?;
            side_files.push(SideFile {
                name: name.clone(),
                kind: "skin",
                bytes,
            });
            names.push(name);
        }
    }
    let mtl_name = format!("{stem}.mtl");
    let obj = to_obj(model, frame, &mtl_name, &names)?;
    side_files.push(SideFile {
        name: mtl_name,
        kind: "material library",
        bytes: obj.mtl.into_bytes(),
    });
    Ok(Output {
        bytes: obj.obj.into_bytes(),
        side_files,
        summary: Some(format!("frame {frame}, {} skins", names.len())),
        warnings,
        ..Output::default()
    })
}

/// A parsed OBJ file: its bytes, imported (with its materials) in `to_model`.
#[derive(Debug)]
pub struct File<'a> {
    bytes: &'a [u8],
    limits: Limits,
}

impl File<'_> {
    /// The import with `options`, material libraries and textures through `resolver`.
    fn import(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Result<Converted> {
        read(
            self.bytes,
            resolver,
            &ImportOptions::of(options, self.limits),
        )
    }
}

impl ParsedFile for File<'_> {
    fn format(&self) -> Format {
        OBJ
    }
    fn write(&self) -> Vec<u8> {
        self.bytes.to_vec()
    }
    fn try_to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Result<Converted> {
        self.import(options, resolver)
    }
    fn summary(&self, converted: &Converted) -> Summary {
        summary_of(OBJ.name(), 0, Vec::new(), converted)
    }
    /// Parsing read every face; nothing else is checked.
    fn validate(&self, _engine: &str) -> Vec<Diagnostic> {
        Vec::new()
    }
}

/// The fixtures: both poses of a small animated model, with a material library named.
mod fixtures {
    use super::*;

    pub fn all() -> Vec<(&'static str, Vec<u8>)> {
        let model = fixture_model();
        let pose = |frame| {
            package(&model, frame, "model")
                .expect("the fixture model writes")
                .bytes
        };
        vec![("frame0.obj", pose(0)), ("frame1.obj", pose(1))]
    }
}
