//! Quake MDL and its variants: the [`Codec`](crate::codec::Codec) that the format registry lists.

use super::convert::to_model;
use super::engine::Engine;
use super::fixtures;
use super::from_model::from_model;
use super::raw::{
    File, Hexen2File, Layout, Md16File, MdlFile, QTestFile, Variant, HEXEN2_MDL, QTEST_MDL,
    QUAKEFORGE_MD16, QUAKE_MDL,
};
use super::summary::summary;
use super::validate::validate;
use super::FORMAT;
use crate::codec::{
    self, binary_parsed_file, codec, parse_by_format, Format, Output, ParsedFile, Writer,
};
use crate::error::Result;
use crate::limits::Limits;
use crate::model::Model;
use crate::options::WriteOptions;

const ENGINES: &[codec::Engine] = &[
    codec::Engine {
        name: "quakespasm",
        description: "QuakeSpasm (the default for Quake MDL)",
    },
    codec::Engine {
        name: "quake",
        description: "id Software's software-rendered Quake (WinQuake)",
    },
    codec::Engine {
        name: "glquake",
        description: "id Software's GLQuake",
    },
    codec::Engine {
        name: "hexen2",
        description: "Hexen II with its mission pack, uHexen2 (the default for RAPO files)",
    },
    codec::Engine {
        name: "fteqw",
        description: "FTEQW, which loads every variant (the default for QTest and MD16 files; \
                      quantity checks only)",
    },
];

/// Parses `data` as one variant, boxed for the registry.
fn parse_variant<'a>(
    variant: Variant,
    data: &'a [u8],
    limits: &Limits,
) -> Result<Box<dyn ParsedFile + 'a>> {
    Ok(match variant {
        Variant::Quake => Box::new(File::parse(data, limits)?),
        Variant::QTest => Box::new(QTestFile::parse(data, limits)?),
        Variant::Md16 => Box::new(Md16File::parse(data, limits)?),
        Variant::Hexen2 => Box::new(Hexen2File::parse(data, limits)?),
    })
}

codec! {
    /// The Quake MDL codec: Quake's `IDPO` version 6, and QTest's version 3, QuakeForge's
    /// `MD16` and Hexen II's `RAPO`.
    QuakeMdlCodec {
        name: FORMAT,
        family: "Quake MDL",
        formats: &[QUAKE_MDL, HEXEN2_MDL, QUAKEFORGE_MD16, QTEST_MDL],
        engines: ENGINES,
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        Variant::detect(data).map(Variant::format)
    }
    parse_by_format!(QUAKE_MDL, |format, data, limits| {
        parse_variant(Variant::of_format(format), data, limits)
    });
    fn writers(&self) -> &'static [Writer] {
        &[Writer {
            format: QUAKE_MDL,
            variant: "quake",
            keyframes: true,
            single_mesh: true,
            fit: crate::codec::Fit { frame_times: true, one_skin: true, max_skin: [u32::MAX, 480], skin_align: 4, ..crate::codec::Fit::KEYFRAMES },
        }]
    }
    /// With [`WriteOptions::qc`], the QuakeC `$frame` list goes beside the file as
    /// `STEM.qc`.
    fn write_model(&self, model: &Model, _: Format, options: &WriteOptions) -> Result<Output> {
        let mut out = Output::written(from_model(model, options)?, File::write);
        if options.qc {
            out.side_files.push(crate::codec::SideFile {
                name: format!("{}.qc", options.side_file_stem()),
                kind: "QuakeC frame list",
                bytes: quakec_frames(model, options.side_file_stem()).into_bytes(),
            });
        }
        Ok(out)
    }
    codec::replace_skin! {
        /// A Quake (`IDPO` 6) file's skin, replaced in the file ([`super::skins`]).
        |data, index, picture, options| {
            if Variant::detect(data) != Some(Variant::Quake) {
                return Err(crate::error::Error::new(
                    FORMAT,
                    crate::error::ErrorKind::Unsupported,
                    "replacing a skin is supported for Quake (IDPO version 6) files only",
                    crate::error::Location::None,
                ));
            }
            Ok(Output::written(
                super::skins::replace_skin(data, index, picture, options)?,
                File::write,
            ))
        }
    }
    fn sample(&self) -> Option<Vec<u8>> {
        let spec = fixtures::Spec {
            skin_width: 64,
            skin_height: 32,
            ..fixtures::Spec::everything()
        };
        Some(fixtures::build(&spec).write())
    }
}

/// The engine named on the command line (a registered one; anything else is QuakeSpasm).
fn engine(name: &str) -> Engine {
    Engine::named(name).unwrap_or_default()
}

binary_parsed_file!(
    impl<L: Layout> MdlFile<'_, L>,
    |_| L::VARIANT.format(),
    |file, name| validate(file, engine(name)),
    |_| Engine::default_for(L::VARIANT).name()
);

/// The QuakeC frame macros of a model as written: `$frame` with each clip's frame names on
/// one line (in frame order, frames outside every clip on lines of their own), after a
/// `$modelname` line, so that `$run1` and so on name the frames in QuakeC.
pub fn quakec_frames(model: &Model, stem: &str) -> String {
    let mut out =
        format!("// Frame macros of {stem}.mdl, written by retromodel.\n$modelname {stem}.mdl\n\n");
    let mut clips: Vec<&crate::model::Clip> = model.clips.iter().collect();
    clips.sort_by_key(|c| c.first);
    let mut next = 0;
    let names = |range: std::ops::Range<usize>| -> Vec<&str> {
        model.frames[range]
            .iter()
            .map(|f| f.name.as_str())
            .collect()
    };
    let n = model.frames.len();
    for c in clips {
        let (first, end) = (c.first.min(n), (c.first + c.count).min(n));
        if first > next {
            out.push_str(&format!("$frame {}\n", names(next..first).join(" ")));
        }
        if end > first.max(next) {
            out.push_str(&format!(
                "$frame {}\n",
                names(first.max(next)..end).join(" ")
            ));
        }
        next = next.max(end);
    }
    if next < n {
        out.push_str(&format!("$frame {}\n", names(next..n).join(" ")));
    }
    out
}
