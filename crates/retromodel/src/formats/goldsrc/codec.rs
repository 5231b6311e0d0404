//! Half-Life MDL: the [`Codec`](crate::codec::Codec) that the format registry lists. Studio
//! models and texture files (`IDST`) and sequence group files (`IDSQ`) are one format; a
//! sequence group alone writes back byte for byte but shows nothing (its model reads it).

use super::convert::{to_model, with_side_files, Choice};
use super::{fixtures, summary, validate, AnyFile, File, FORMAT, MAGIC, SEQ_MAGIC};
use crate::codec::{self, codec, Format};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::limits::Limits;
use crate::model::Converted;
use crate::options::ConvertOptions;
use crate::resolve::Resolver;

/// Half-Life MDL.
pub const HALF_LIFE_MDL: Format = Format::new(FORMAT, "Half-Life MDL (GoldSrc)", &["mdl"]);

const ENGINES: &[codec::Engine] = &[
    codec::Engine {
        name: "goldsrc",
        description: "GoldSrc (Half-Life, Counter-Strike 1.6, Sven Co-op)",
    },
    codec::Engine {
        name: "xash3d",
        description: "Xash3D FWGS",
    },
];

codec! {
    /// The Half-Life MDL codec.
    GoldSrcCodec {
        name: FORMAT,
        family: "Half-Life MDL",
        formats: &[HALF_LIFE_MDL],
        engines: ENGINES,
    }
    fn parse<'a>(
        &self,
        data: &'a [u8],
        limits: &Limits,
    ) -> Result<Box<dyn crate::codec::ParsedFile + 'a>> {
        Ok(Box::new(AnyFile::parse(data, limits)?))
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        (data.starts_with(MAGIC) || data.starts_with(SEQ_MAGIC)).then_some(HALF_LIFE_MDL)
    }
    fn sample(&self) -> Option<Vec<u8>> {
        Some(fixtures::model(true))
    }
    fn writers(&self) -> &'static [codec::Writer] {
        &[codec::Writer {
            format: HALF_LIFE_MDL,
            variant: "goldsrc",
            keyframes: false,
            single_mesh: false,
            fit: codec::Fit {
                // Half-Life's player is 72 units tall: 1.8 m at 40 units a metre.
                units_per_metre: 40,
                max_skin: [super::from_model::MAX_TEXTURE_WIDTH, 4096],
                skin_align: 4,
                max_mesh: [super::from_model::MAX_VERTS, super::from_model::MAX_TRIANGLES],
                skeleton: true,
                max_joints: super::from_model::MAX_BONES,
                ..codec::Fit::NONE
            },
        }]
    }
    /// A studio model laid out anew ([`super::from_model`]).
    fn write_model(
        &self,
        model: &crate::model::Model,
        _: Format,
        options: &crate::options::WriteOptions,
    ) -> Result<codec::Output> {
        super::from_model::from_model(model, options)
    }
}

impl crate::codec::ParsedFile for AnyFile<'_> {
    fn format(&self) -> Format {
        HALF_LIFE_MDL
    }
    fn write(&self) -> Vec<u8> {
        AnyFile::write(self)
    }
    /// The model with its sequence groups and texture file read through `resolver`; a
    /// sequence group file alone is refused as not a model (batch conversion skips it).
    fn try_to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Result<Converted> {
        Ok(match self {
            AnyFile::Studio(file) => {
                let mut warnings = Vec::new();
                let file = with_side_files(file, resolver, &Limits::default(), &mut warnings);
                let choice = Choice {
                    body: options.body,
                    skin_family: options.skin_family,
                };
                to_model(&file, choice, warnings)
            }
            AnyFile::SeqGroup(_) => {
                return Err(crate::error::Error::new(
                    FORMAT,
                    crate::error::ErrorKind::Unsupported,
                    "a sequence group file (IDSQ) holds only animation data: open the model it belongs to",
                    crate::error::Location::None,
                ))
            }
        })
    }
    fn summary(&self, converted: &Converted) -> crate::summary::Summary {
        match self {
            AnyFile::Studio(file) => summary::summary(file, converted),
            AnyFile::SeqGroup(g) => {
                let mut s = crate::summary::Summary::of_model(FORMAT, converted);
                s.version = g.header.version as i64;
                s.header = vec![
                    ("ident", crate::summary::Value::Text("IDSQ".into())),
                    (
                        "name",
                        crate::summary::Value::Text(crate::io::names::name_str(&g.header.name)),
                    ),
                    ("length", crate::summary::Value::Int(g.header.length as i64)),
                ];
                s
            }
        }
    }
    fn validate(&self, engine: &str) -> Vec<Diagnostic> {
        match self {
            AnyFile::Studio(file) => validate::validate(file, engine),
            AnyFile::SeqGroup(_) => Vec::new(),
        }
    }
}

impl File<'_> {
    /// Parses and converts in one step with no side files (tests, benchmarks).
    pub fn to_model_alone(&self) -> Converted {
        let mut warnings = Vec::new();
        let file = with_side_files(
            self,
            &crate::resolve::NoFiles,
            &Limits::default(),
            &mut warnings,
        );
        to_model(&file, Choice::default(), warnings)
    }
}
