//! Half-Life QC: the [`Codec`](crate::codec::Codec) that the format registry lists.
//!
//! Read: the QC is compiled with its SMDs and BMPs (through the resolver, `$cd` and
//! `$cdtexture` relative to the QC) and the compiled GoldSrc file converted as any other
//! ([`crate::formats::goldsrc::convert`]); its bytes are kept ([`QcFile::compiled`]) so that a
//! `.mdl` target writes the compiled file itself. Written: a GoldSrc file decompiled, with its
//! SMDs and BMPs beside the QC; from a model that is not a GoldSrc file, the file the GoldSrc
//! writer lays out from it (`front::save` hands a GoldSrc source's own bytes to
//! [`decompile_bytes`] instead, so that hit boxes, attachments and controllers survive).

use std::sync::Mutex;

use super::{compile, decompile, Qc, FORMAT};
use crate::codec::{self, Codec, Format, Output, ParsedFile, SideFile, Writer};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::formats::goldsrc::convert::{to_model, with_side_files, Choice};
use crate::formats::goldsrc::side_files;
use crate::formats::goldsrc::File;
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{ConvertOptions, WriteOptions};
use crate::resolve::Resolver;
use crate::summary::{Summary, Value};

/// Half-Life QC (studiomdl's script).
pub const QC: Format = Format::new(FORMAT, "Half-Life QC (studiomdl script)", &["qc"]);

/// The QC codec.
pub struct QcCodec;

/// The registered QC codec.
pub static CODEC: QcCodec = QcCodec;

const ENGINES: &[codec::Engine] = &[crate::formats::goldsrc::STUDIOMDL];

const WRITERS: [Writer; 1] = [Writer {
    format: QC,
    variant: "",
    keyframes: false,
    single_mesh: false,
    fit: codec::Fit {
        units_per_metre: 40,
        max_skin: [crate::formats::goldsrc::from_model::MAX_TEXTURE_WIDTH, 4096],
        skin_align: 4,
        skeleton: true,
        max_joints: crate::formats::goldsrc::from_model::MAX_BONES,
        ..codec::Fit::NONE
    },
}];

/// A parsed QC, and the GoldSrc file its last conversion compiled.
#[derive(Debug)]
pub struct QcFile {
    /// The script.
    pub qc: Qc,
    compiled: Mutex<Option<(Vec<u8>, Vec<SideFile>)>>,
}

impl QcFile {
    /// The bytes of the GoldSrc file the last [`ParsedFile::try_to_model`] compiled.
    pub fn compiled(&self) -> Option<Vec<u8>> {
        self.compiled_with_side_files().map(|c| c.0)
    }

    /// The bytes of the GoldSrc file the last [`ParsedFile::try_to_model`] compiled, and the
    /// files beside it (`$externaltextures`, `$sequencegroupsize`), named after
    /// `$modelname` ([`super::Compiled::side_files`]).
    pub fn compiled_with_side_files(&self) -> Option<(Vec<u8>, Vec<SideFile>)> {
        self.compiled.lock().ok().and_then(|c| c.clone())
    }
}

/// The first statement, after a BOM, blanks and `//` comment lines, is a `$` command.
fn detect(data: &[u8]) -> bool {
    let mut text = crate::io::magic::skip_bom_and_space(data);
    while text.starts_with(b"//") {
        let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
        text = crate::io::magic::skip_bom_and_space(&text[end..]);
    }
    // a whole `$command` word and what ends it: four bytes alone (`$mod`) are not a QC, so
    // the magic table of the binary formats (`io::magic`) never meets one
    let word = text
        .iter()
        .skip(1)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    text.first() == Some(&b'$')
        && text.get(1).is_some_and(u8::is_ascii_alphabetic)
        && text
            .get(1 + word)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'"')
}

/// A GoldSrc file's bytes decompiled (its sequence groups and texture file read through
/// `resolver`): the QC named `options`' stem, its SMDs and BMPs as side files.
pub fn decompile_bytes(
    bytes: &[u8],
    resolver: &dyn Resolver,
    options: &WriteOptions,
) -> Result<Output> {
    let limits = Limits::default();
    let file = File::parse(bytes, &limits)?;
    let mut warnings = Vec::new();
    let merged = with_side_files(&file, resolver, &limits, &mut warnings);
    let mut d = decompile(&merged, options.side_file_stem());
    // The side files the model came with become the commands that write them again.
    d.qc.external_textures = file.textures.is_empty() && !merged.textures.is_empty();
    d.qc.sequence_group_size = side_files::group_size_kb(&file, &merged);
    warnings.extend(d.warnings);
    let mut side_files: Vec<SideFile> = d
        .smds
        .iter()
        .map(|(n, s)| SideFile {
            name: format!("{n}.smd"),
            kind: "SMD",
            bytes: s.write(),
        })
        .collect();
    side_files.extend(d.bmps.into_iter().map(|(name, bytes)| SideFile {
        name,
        kind: "texture",
        bytes,
    }));
    Ok(Output {
        bytes: d.qc.write(),
        side_files,
        warnings,
        ..Output::default()
    })
}

impl Codec for QcCodec {
    fn name(&self) -> &'static str {
        FORMAT
    }
    fn formats(&self) -> &'static [Format] {
        &[QC]
    }
    fn family(&self) -> &'static str {
        "Half-Life QC"
    }
    fn engines(&self) -> &'static [codec::Engine] {
        ENGINES
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        detect(data).then_some(QC)
    }
    fn byte_exact(&self) -> bool {
        false
    }
    fn parse<'a>(&self, data: &'a [u8], limits: &Limits) -> Result<Box<dyn ParsedFile + 'a>> {
        Ok(Box::new(QcFile {
            qc: Qc::parse(data, limits)?,
            compiled: Mutex::new(None),
        }))
    }
    fn writers(&self) -> &'static [Writer] {
        &WRITERS
    }
    /// The model laid out as a GoldSrc file, then decompiled.
    fn write_model(
        &self,
        model: &Model,
        _format: Format,
        options: &WriteOptions,
    ) -> Result<Output> {
        let mdl = crate::formats::goldsrc::from_model::from_model(model, options)?;
        let mut out = decompile_bytes(&mdl.bytes, &crate::resolve::NoFiles, options)?;
        let mut warnings = mdl.warnings;
        warnings.append(&mut out.warnings);
        out.warnings = warnings;
        out.notes = mdl.notes;
        Ok(out)
    }
    fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("minimal.qc", b"$modelname \"m.mdl\"\n$cd \".\"\n$body body \"ref\"\n$sequence idle \"idle\" fps 10 loop\n".to_vec()),
            (
                "full.qc",
                b"// decompiled\n$modelname \"m.mdl\"\n$cd \".\"\n$cdtexture \".\"\n$scale 1\n$eyeposition 0 0 60\n$flags 0\n\
                  $bodygroup body\n{\n\tstudio \"ref\"\n\tblank\n}\n$texturegroup skins\n{\n\t{ \"a.bmp\" }\n\t{ \"b.bmp\" }\n}\n\
                  $texrendermode \"a.bmp\" masked\n$attachment 0 \"root\" 1 2 3\n$controller 0 \"root\" XR -30 30\n\
                  $hbox 0 \"root\" -1 -1 -1 1 1 1\n$sequence walk {\n\t\"walk\"\n\tfps 24\n\tloop\n\tACT_WALK 1\n\tLX\n\t{ event 1004 2 \"step.wav\" }\n}\n"
                    .to_vec(),
            ),
        ]
    }
}

impl ParsedFile for QcFile {
    fn format(&self) -> Format {
        QC
    }
    fn write(&self) -> Vec<u8> {
        self.qc.write()
    }
    /// The compiled file's model; a QC whose files are missing or wrong is an error.
    fn try_to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Result<Converted> {
        let c = compile(&self.qc, resolver, &Limits::default())?;
        if let Ok(mut slot) = self.compiled.lock() {
            *slot = Some((c.bytes, c.side_files));
        }
        let choice = Choice {
            body: options.body,
            skin_family: options.skin_family,
        };
        Ok(to_model(&c.file, choice, c.warnings))
    }
    fn summary(&self, converted: &Converted) -> Summary {
        let q = &self.qc;
        Summary {
            header: vec![
                ("body_groups", Value::Int(q.body_groups.len() as i64)),
                ("sequences", Value::Int(q.sequences.len() as i64)),
                ("hitboxes", Value::Int(q.hitboxes.len() as i64)),
                ("attachments", Value::Int(q.attachments.len() as i64)),
                ("controllers", Value::Int(q.controllers.len() as i64)),
            ],
            ..Summary::of_model(FORMAT, converted)
        }
    }
    fn validate(&self, _engine: &str) -> Vec<Diagnostic> {
        Vec::new()
    }
    fn compiled(&self) -> Option<(Format, Vec<u8>, Vec<SideFile>)> {
        self.compiled_with_side_files()
            .map(|(b, side)| (crate::formats::goldsrc::HALF_LIFE_MDL, b, side))
    }
}
