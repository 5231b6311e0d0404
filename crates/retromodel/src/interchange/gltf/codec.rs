//! glTF 2.0: the [`Codec`](crate::codec::Codec) that the format registry lists for `.glb`
//! and `.gltf` files.

use super::export::{export, ClipSplit, Container, Filter, Frames, GltfOptions, QuantizedMesh};
use super::import::{parse, read_parsed, Parsed};
use crate::codec::{codec, Engine, Format, Output, ParsedFile, SideFile, Writer};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::interchange::{fixture_model, summary_of, ImportOptions};
use crate::io::magic::skip_bom_and_space;
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{Compress, ConvertOptions, WriteOptions};
use crate::resolve::{NoFiles, Resolver};
use crate::summary::{Summary, Value};

/// Binary glTF 2.0 (`glTF` magic).
pub const GLB: Format = Format::new("glb", "glTF 2.0 binary", &["glb"]);
/// glTF 2.0 JSON text (an object with an `"asset"`).
pub const GLTF: Format = Format::new("gltf", "glTF 2.0 JSON", &["gltf"]);

const ENGINES: &[Engine] = &[Engine {
    name: "gltf",
    description: "glTF 2.0 readers: the file imports (accessors, animations, embedded \
                  buffers and images)",
}];

codec! {
    /// The glTF codec: `.glb` and `.gltf`, read through the importer and written by the
    /// exporter.
    GltfCodec {
        name: "gltf",
        family: "glTF",
        formats: &[GLB, GLTF],
        engines: ENGINES,
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        if data.starts_with(b"glTF") {
            return Some(GLB);
        }
        let text = skip_bom_and_space(data);
        (text.starts_with(b"{") && text.windows(7).any(|w| w == b"\"asset\"")).then_some(GLTF)
    }
    fn interchange(&self) -> bool {
        true
    }
    /// `.glb` by its magic, else `.gltf` (also for [`Codec::parse_as`]: the bytes say which).
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        let format = if data.starts_with(b"glTF") { GLB } else { GLTF };
        Ok(Box::new(File {
            bytes: data,
            format,
            parsed: parse(data)?,
            limits: *limits,
        }))
    }
    fn writers(&self) -> &'static [Writer] {
        &[
            Writer {
                format: GLB,
                variant: "",
                keyframes: false,
                single_mesh: false,
                fit: crate::codec::Fit::NONE,
            },
            Writer {
                format: GLTF,
                variant: "",
                keyframes: false,
                single_mesh: false,
                fit: crate::codec::Fit::NONE,
            },
        ]
    }
    /// `.glb`: one file. `.gltf`: the buffer and images inside as `data:` URIs with
    /// [`WriteOptions::embed`], else beside it as `STEM.bin` and `STEM_skin0.png`, ...
    fn write_model(&self, model: &Model, format: Format, options: &WriteOptions) -> Result<Output> {
        write(model, format, options)
    }
}

/// The exporter's options from the writer's.
fn gltf_options(options: &WriteOptions) -> GltfOptions {
    GltfOptions {
        fps: options.fps,
        clip_split: options.clip_split,
        frames: options.frames,
        filter: options.filter,
        quantize: options.quantize,
        compress: options.compress,
        ..GltfOptions::default()
    }
}

/// Writes `model` as `format` (GLB or glTF JSON).
fn write(model: &Model, format: Format, options: &WriteOptions) -> Result<Output> {
    let stem = options.side_file_stem();
    let container = if format == GLB {
        Container::Glb
    } else if options.embed {
        Container::Embedded
    } else {
        Container::Separate {
            bin_name: format!("{stem}.bin"),
            image_prefix: stem.to_string(),
        }
    };
    let opts = gltf_options(options);
    let out = export(model, &opts, &container)?;
    let animations = out.animations;
    let n = out.file.len();
    let what = match container {
        Container::Glb => format!("{n} bytes"),
        Container::Embedded => format!("{n} bytes, embedded"),
        Container::Separate { .. } => format!("{} side files", out.side_files.len()),
    };
    let details = if opts.quantize || opts.compress != Compress::None {
        quantization_details(&out.quantized)
    } else {
        Vec::new()
    };
    let count = out.side_files.len();
    let side_files = out
        .side_files
        .into_iter()
        .enumerate()
        .map(|(i, (name, bytes))| SideFile {
            name,
            // The buffer comes last, after the images.
            kind: if i + 1 == count { "buffer" } else { "image" },
            bytes,
        })
        .collect();
    Ok(Output {
        bytes: out.file,
        side_files,
        warnings: out.warnings,
        details,
        summary: Some(format!(
            "{what}; {} poses, {} joints, {} animations",
            model.frames.len().max(1),
            model.joints.len(),
            animations
        )),
        ..Output::default()
    })
}

/// The verbose lines of a quantised export: each mesh's grid and largest errors, then the
/// file's largest position error.
fn quantization_details(meshes: &[QuantizedMesh]) -> Vec<String> {
    let mut lines: Vec<String> = meshes
        .iter()
        .map(|m| {
            let grid = match m.step {
                Some([x, y, z]) if x == y && y == z => format!("grid step {x}"),
                Some(s) => format!("grid steps {s:?} (x, y, z of glTF)"),
                None => "float positions".to_string(),
            };
            format!(
                "  mesh {:?}: {grid}, largest position error {:.6}, normal error {:.3} degrees",
                m.name,
                m.position_error,
                m.normal_error.to_degrees()
            )
        })
        .collect();
    let largest = meshes.iter().map(|m| m.position_error).fold(0.0, f64::max);
    lines.push(format!("quantised, largest position error {largest:.6}"));
    lines
}

/// A parsed glTF file: its bytes and its validated document, imported in `to_model`.
#[derive(Debug)]
pub struct File<'a> {
    bytes: &'a [u8],
    format: Format,
    parsed: Parsed,
    limits: Limits,
}

impl File<'_> {
    /// The import with `options`, side files through `resolver`.
    fn import(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Result<Converted> {
        read_parsed(
            &self.parsed,
            resolver,
            &ImportOptions::of(options, self.limits),
        )
    }

    /// Whether a buffer or an image is a file beside this one (not checked without it).
    fn refers_to_files(&self) -> bool {
        let outside = |uri: &str| !uri.starts_with("data:");
        self.parsed
            .gltf
            .document
            .buffers()
            .any(|b| match b.source() {
                gltf::buffer::Source::Uri(u) => outside(u),
                gltf::buffer::Source::Bin => false,
            })
            || self
                .parsed
                .gltf
                .document
                .images()
                .any(|i| match i.source() {
                    gltf::image::Source::Uri { uri, .. } => outside(uri),
                    gltf::image::Source::View { .. } => false,
                })
    }
}

impl ParsedFile for File<'_> {
    fn format(&self) -> Format {
        self.format
    }
    fn write(&self) -> Vec<u8> {
        self.bytes.to_vec()
    }
    fn try_to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Result<Converted> {
        self.import(options, resolver)
    }
    fn summary(&self, converted: &Converted) -> Summary {
        let asset = &self.parsed.gltf.document.as_json().asset;
        let mut header = vec![("asset.version", Value::Text(asset.version.clone()))];
        if let Some(g) = &asset.generator {
            header.push(("asset.generator", Value::Text(g.clone())));
        }
        summary_of(self.format.name(), 2, header, converted)
    }
    /// The file imports (a file whose buffers or images lie beside it is checked by
    /// `Document::validate_with`, which has its side files).
    fn validate(&self, _engine: &str) -> Vec<Diagnostic> {
        if self.refers_to_files() {
            return Vec::new();
        }
        match self.import(&ConvertOptions::default(), &NoFiles) {
            Ok(c) => c.warnings.into_iter().map(Diagnostic::warning).collect(),
            Err(e) => vec![Diagnostic::error(e.to_string())],
        }
    }
}

/// The fixtures: a small animated, skinned model as GLB, as embedded `.gltf`, and quantised.
mod fixtures {
    use super::*;

    pub fn all() -> Vec<(&'static str, Vec<u8>)> {
        let model = fixture_model();
        let glb = |options: &WriteOptions| {
            write(&model, GLB, options)
                .expect("the fixture model exports")
                .bytes
        };
        let embedded = WriteOptions {
            embed: true,
            ..WriteOptions::default()
        };
        let quantized = WriteOptions {
            quantize: true,
            clip_split: ClipSplit::None,
            filter: Filter::Linear,
            ..WriteOptions::default()
        };
        let first = WriteOptions {
            frames: Frames::First,
            ..WriteOptions::default()
        };
        vec![
            ("animated.glb", glb(&WriteOptions::default())),
            ("quantized.glb", glb(&quantized)),
            ("first.glb", glb(&first)),
            (
                "embedded.gltf",
                write(&model, GLTF, &embedded)
                    .expect("the fixture model exports")
                    .bytes,
            ),
        ]
    }
}
