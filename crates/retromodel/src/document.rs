//! [`Document`]: a parsed file of any supported format, dispatched by magic.

use crate::detect::{detect, Format};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::{gs_mdl, gs_mdl7, hmp, md2, md5, quake_mdl, wmp};
use crate::limits::Limits;
use crate::options::ConvertOptions;
use crate::resolve::Resolver;
use crate::summary::Summary;

use crate::model::Converted;

/// A parsed file, still in its own format's raw structures.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Document<'a> {
    /// A Quake MDL file.
    QuakeMdl(quake_mdl::File<'a>),
    /// A Quake 2 MD2 file.
    Md2(md2::File<'a>),
    /// A 3D GameStudio MDL2..MDL5 file.
    GameStudioMdl(gs_mdl::File<'a>),
    /// A 3D GameStudio MDL7 file.
    GameStudioMdl7(gs_mdl7::File<'a>),
    /// A 3D GameStudio HMP terrain.
    Hmp(hmp::File<'a>),
    /// A 3D GameStudio text WMP level, with the warnings of its lenient reading.
    Wmp(wmp::Parsed),
    /// A Doom 3 md5mesh, with the warnings of its lenient reading.
    Md5Mesh(md5::Parsed<md5::MeshFile>),
    /// A Doom 3 md5anim.
    Md5Anim(md5::Parsed<md5::AnimFile>),
    /// A Doom 3 md5camera.
    Md5Camera(md5::Parsed<md5::CameraFile>),
}

impl<'a> Document<'a> {
    /// Detects the format by magic and parses the file.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<Document<'a>> {
        match detect(data) {
            Some(Format::QuakeMdl) => quake_mdl::File::parse(data, limits).map(Document::QuakeMdl),
            Some(Format::Md2) => md2::File::parse(data, limits).map(Document::Md2),
            Some(Format::GameStudioMdl(2..=5)) => {
                gs_mdl::File::parse(data, limits).map(Document::GameStudioMdl)
            }
            Some(Format::GameStudioMdl(7)) => {
                gs_mdl7::File::parse(data, limits).map(Document::GameStudioMdl7)
            }
            Some(Format::Hmp(_)) => hmp::File::parse(data, limits).map(Document::Hmp),
            Some(Format::WmpText) => wmp::parse(data, limits).map(Document::Wmp),
            Some(Format::Md5Mesh) => md5::parse_mesh(data, limits).map(Document::Md5Mesh),
            Some(Format::Md5Anim) => md5::parse_anim(data, limits).map(Document::Md5Anim),
            Some(Format::Md5Camera) => md5::parse_camera(data, limits).map(Document::Md5Camera),
            Some(f) => Err(Error::new(
                f.name(),
                ErrorKind::Unsupported,
                format!("{} files are not supported yet", f.description()),
                Location::None,
            )),
            None if data.is_empty() => Err(Error::new(
                "unknown",
                ErrorKind::Truncated,
                "empty file",
                Location::Offset(0),
            )),
            None => {
                let n = data.len().min(4);
                Err(Error::new(
                    "unknown",
                    ErrorKind::BadMagic,
                    format!(
                        "not a known model format (magic {})",
                        crate::detect::show_magic(&data[..n])
                    ),
                    Location::Offset(0),
                ))
            }
        }
    }

    /// The format.
    pub fn format(&self) -> Format {
        match self {
            Document::QuakeMdl(_) => Format::QuakeMdl,
            Document::Md2(_) => Format::Md2,
            Document::GameStudioMdl(f) => Format::GameStudioMdl(f.header.version),
            Document::GameStudioMdl7(_) => Format::GameStudioMdl(7),
            Document::Hmp(f) => Format::Hmp(f.header.ident.ident()[3] - b'0'),
            Document::Wmp(_) => Format::WmpText,
            Document::Md5Mesh(_) => Format::Md5Mesh,
            Document::Md5Anim(_) => Format::Md5Anim,
            Document::Md5Camera(_) => Format::Md5Camera,
        }
    }

    /// The file's bytes. Binary formats come back byte for byte; MD5 text comes back value for
    /// value in id's layout (comments and spacing are not kept).
    pub fn write(&self) -> Vec<u8> {
        match self {
            Document::QuakeMdl(f) => f.write(),
            Document::Md2(f) => f.write(),
            Document::GameStudioMdl(f) => f.write(),
            Document::GameStudioMdl7(f) => f.write(),
            Document::Hmp(f) => f.write(),
            Document::Wmp(p) => wmp::write(&p.file).into_bytes(),
            Document::Md5Mesh(p) => md5::write_mesh(&p.file).into_bytes(),
            Document::Md5Anim(p) => md5::write_anim(&p.file).into_bytes(),
            Document::Md5Camera(p) => md5::write_camera(&p.file).into_bytes(),
        }
    }

    /// Converts to the format-neutral model.
    pub fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
        match self {
            Document::QuakeMdl(f) => quake_mdl::to_model(f, options, resolver),
            Document::Md2(f) => md2::to_model(f, options, resolver),
            Document::GameStudioMdl(f) => gs_mdl::to_model(f, options, resolver),
            Document::GameStudioMdl7(f) => gs_mdl7::to_model(f, options, resolver),
            Document::Hmp(f) => hmp::to_model(f, options, resolver),
            Document::Wmp(p) => wmp::to_model(&p.file, &p.warnings),
            Document::Md5Mesh(p) => md5::mesh_to_model(&p.file, &p.warnings),
            Document::Md5Anim(p) => md5::anim_to_model(&p.file, "anim", &p.warnings),
            Document::Md5Camera(p) => md5::camera_to_model(&p.file, &p.warnings),
        }
    }

    /// The `info` summary, given the converted model.
    pub fn summary(&self, converted: &Converted) -> Summary {
        match self {
            Document::QuakeMdl(f) => quake_mdl::summary(f, converted),
            Document::Md2(f) => md2::summary(f, converted),
            Document::GameStudioMdl(f) => gs_mdl::summary(f, converted),
            Document::GameStudioMdl7(f) => gs_mdl7::summary(f, converted),
            Document::Hmp(f) => hmp::summary(f, converted),
            Document::Wmp(p) => wmp::summary(&p.file, converted),
            Document::Md5Mesh(p) => md5::mesh_summary(&p.file, converted),
            Document::Md5Anim(p) => md5::anim_summary(&p.file, "anim", converted),
            Document::Md5Camera(p) => md5::camera_summary(&p.file, "camera", converted),
        }
    }

    /// Checks the file against an engine's limits. `engine` is the engine's name
    /// (`quake`, `glquake`, `quakespasm` for MDL; `quake2`, `quake2-soft` for MD2; `doom3`
    /// for MD5); `None`
    /// picks the format's default engine.
    pub fn validate(&self, engine: Option<&str>) -> Result<Vec<Diagnostic>, String> {
        match self {
            Document::QuakeMdl(f) => {
                let e = match engine {
                    None | Some("quakespasm") => quake_mdl::Engine::QuakeSpasm,
                    Some("quake") => quake_mdl::Engine::Quake,
                    Some("glquake") => quake_mdl::Engine::GlQuake,
                    Some(other) => {
                        return Err(format!(
                            "unknown engine {other:?} for Quake MDL (quake, glquake, quakespasm)"
                        ))
                    }
                };
                Ok(quake_mdl::validate(f, e))
            }
            Document::Md2(f) => {
                let e = match engine {
                    None | Some("quake2") => md2::Engine::Quake2,
                    Some("quake2-soft") => md2::Engine::Quake2Software,
                    Some(other) => {
                        return Err(format!(
                            "unknown engine {other:?} for MD2 (quake2, quake2-soft)"
                        ))
                    }
                };
                Ok(md2::validate(f, e))
            }
            Document::GameStudioMdl(_)
            | Document::GameStudioMdl7(_)
            | Document::Hmp(_)
            | Document::Wmp(_) => match engine {
                None | Some("acknex") => Ok(Vec::new()),
                Some(other) => Err(format!(
                    "unknown engine {other:?} for 3D GameStudio files (acknex)"
                )),
            },
            Document::Md5Mesh(_) | Document::Md5Anim(_) | Document::Md5Camera(_) => {
                if !matches!(engine, None | Some("doom3")) {
                    return Err(format!(
                        "unknown engine {:?} for MD5 (doom3)",
                        engine.unwrap_or_default()
                    ));
                }
                Ok(match self {
                    Document::Md5Mesh(p) => md5::validate_mesh(&p.file),
                    Document::Md5Anim(p) => md5::validate_anim(&p.file),
                    Document::Md5Camera(p) => md5::validate_camera(&p.file),
                    _ => Vec::new(),
                })
            }
        }
    }
}
