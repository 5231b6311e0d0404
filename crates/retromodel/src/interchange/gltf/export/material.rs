//! Skins as PNG images, textures and materials; several skins as `KHR_materials_variants`.

use gltf_json as json;
use json::extensions::mesh::{KhrMaterialsVariants, Mapping};
use json::extensions::scene::khr_materials_variants::Variant;
use json::material::{AlphaMode, EmissiveFactor, PbrBaseColorFactor, StrengthFactor};
use json::texture::{MagFilter, MinFilter};
use json::validation::Checked::Valid;

use super::buffers::ImageFile;
use super::{Builder, Filter, FORMAT};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::image::{Image, Pixels};
use std::borrow::Cow;

/// The extension's name.
const VARIANTS: &str = "KHR_materials_variants";

/// The material made for each skin, and the variants.
pub(super) struct Materials {
    /// One entry per model skin: its material, if it was written.
    pub per_skin: Vec<Option<json::Index<json::Material>>>,
    /// With several skins: variant `i` is skin `i` (empty otherwise).
    pub variants: Vec<String>,
}

impl Materials {
    /// A textured primitive's variant mappings: variant `i` shows skin `i`'s material.
    pub fn primitive_extension(&self) -> json::extensions::mesh::Primitive {
        let mappings = self
            .per_skin
            .iter()
            .enumerate()
            .filter_map(|(s, m)| {
                m.map(|m| Mapping {
                    material: m.value() as u32,
                    variants: vec![s as u32],
                })
            })
            .collect();
        #[allow(clippy::needless_update)]
        json::extensions::mesh::Primitive {
            khr_materials_variants: Some(KhrMaterialsVariants { mappings }),
            ..Default::default()
        }
    }
}

/// Whether a picture needs alpha testing: an indexed picture with a transparent index
/// (`MF_HOLEY`), or an RGBA picture with both clearly transparent and opaque pixels (one that
/// is transparent all over has an unused alpha channel).
fn needs_mask(picture: &Image) -> bool {
    match &picture.pixels {
        Pixels::Indexed {
            transparent_index, ..
        } => transparent_index.is_some(),
        Pixels::Rgba8(rgba) => {
            let alpha = || rgba.chunks_exact(4).map(|p| p[3]);
            alpha().any(|a| a < 128) && alpha().any(|a| a >= 128)
        }
    }
}

fn png_error(what: String, e: impl std::fmt::Display) -> Error {
    Error::new(
        FORMAT,
        ErrorKind::InvalidValue,
        format!("{what}: PNG encoding failed: {e}"),
        Location::None,
    )
}

fn info(index: json::Index<json::Texture>) -> json::texture::Info {
    json::texture::Info {
        index,
        tex_coord: 0,
        extensions: None,
        extras: Default::default(),
    }
}

impl Builder<'_> {
    /// Materials for the skins that exported meshes use (all skins when there are several:
    /// they become variants). A model with scene nodes (a level) uses its skins side by side,
    /// one per texture name: they are plain materials, never variants.
    pub(super) fn materials(&mut self, exported: &[usize]) -> Result<Materials> {
        let model = self.model;
        let mut used: Vec<usize> = exported
            .iter()
            .filter_map(|&mi| model.meshes[mi].skin)
            .collect();
        used.sort_unstable();
        used.dedup();
        let mut per_skin = vec![None; model.skins.len()];
        if used.is_empty() {
            if !model.skins.is_empty() {
                self.warnings.push(format!(
                    "{} skins left out: no exported mesh uses them",
                    model.skins.len()
                ));
            }
            return Ok(Materials {
                per_skin,
                variants: Vec::new(),
            });
        }
        let several = model.skins.len() > 1 && model.nodes.is_empty();
        let mut variants = Vec::new();
        for (s, slot) in per_skin.iter_mut().enumerate() {
            if several || used.contains(&s) {
                *slot = Some(self.material(s)?);
            }
            if several {
                let name = &model.skins[s].name;
                variants.push(if name.is_empty() {
                    format!("skin{s}")
                } else {
                    name.clone()
                });
            }
        }
        if several {
            for name in &variants {
                self.root.push(Variant { name: name.clone() });
            }
            self.root.extensions_used.push(VARIANTS.to_string());
        }
        Ok(Materials { per_skin, variants })
    }

    /// The material of skin `s`: its first picture as base colour, the fullbright mask as
    /// emissive, alpha mask for holes; every picture as an image.
    fn material(&mut self, s: usize) -> Result<json::Index<json::Material>> {
        let skin = &self.model.skins[s];
        let (mut base, mut emissive, mut mask) = (None, None, false);
        for (pi, picture) in skin.pictures.iter().enumerate() {
            if picture.width == 0 || picture.height == 0 {
                self.warnings.push(format!(
                    "skin {s}: picture {pi} is {}x{}; left out",
                    picture.width, picture.height
                ));
                continue;
            }
            // The PNG or JPEG file the picture came from, as it is (smaller than a PNG of
            // a JPEG's pixels, and no encoding); else the pixels as PNG.
            let plain = picture
                .original_file()
                .and_then(|original| Some((original.without_metadata()?, original.mime)));
            let file = match plain {
                Some((bytes, mime)) => ImageFile {
                    bytes: Cow::Owned(bytes),
                    mime,
                },
                None => ImageFile {
                    bytes: Cow::Owned(
                        picture
                            .to_png()
                            .map_err(|e| png_error(format!("skin {s}: picture {pi}"), e))?,
                    ),
                    mime: "image/png",
                },
            };
            let name = if pi == 0 {
                format!("skin{s}")
            } else {
                format!("skin{s}_{pi}")
            };
            let image = self.image(name, file);
            if pi != 0 {
                continue;
            }
            base = Some(self.texture(image));
            mask = needs_mask(picture);
            if let Some(rgba) = picture.fullbright_mask() {
                let png = crate::image::png::encode_compact(picture.width, picture.height, &rgba)
                    .map_err(|e| png_error(format!("skin {s}: fullbright mask"), e))?;
                let file = ImageFile {
                    bytes: Cow::Owned(png),
                    mime: "image/png",
                };
                let image = self.image(format!("skin{s}_fullbright"), file);
                emissive = Some(self.texture(image));
            }
        }
        if skin.pictures.len() > 1 {
            self.warnings.push(format!(
                "skin {s} is an animated group of {} pictures; glTF has no texture animation: the material shows the first, the others are stored as unused images",
                skin.pictures.len()
            ));
        }
        let name = if skin.name.is_empty() {
            format!("skin{s}")
        } else {
            skin.name.clone()
        };
        Ok(self.root.push(json::Material {
            alpha_mode: Valid(if mask {
                AlphaMode::Mask
            } else {
                AlphaMode::Opaque
            }),
            name: Some(name),
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: PbrBaseColorFactor([1.0; 4]),
                base_color_texture: base.map(info),
                metallic_factor: StrengthFactor(0.0),
                roughness_factor: StrengthFactor(1.0),
                ..Default::default()
            },
            emissive_factor: EmissiveFactor(if emissive.is_some() {
                [1.0; 3]
            } else {
                [0.0; 3]
            }),
            emissive_texture: emissive.map(info),
            extras: effects_extras(self.model.skin_effects.get(s).copied()),
            ..Default::default()
        }))
    }

    /// A texture of `image` with the one sampler (made on first use).
    fn texture(&mut self, image: json::Index<json::Image>) -> json::Index<json::Texture> {
        let sampler = match self.sampler {
            Some(s) => s,
            None => {
                let (mag, min) = match self.options.filter {
                    Filter::Nearest => (MagFilter::Nearest, MinFilter::Nearest),
                    Filter::Linear => (MagFilter::Linear, MinFilter::LinearMipmapLinear),
                };
                let s = self.root.push(json::texture::Sampler {
                    mag_filter: Some(Valid(mag)),
                    min_filter: Some(Valid(min)),
                    ..Default::default()
                });
                self.sampler = Some(s);
                s
            }
        };
        self.root.push(json::Texture {
            name: None,
            sampler: Some(sampler),
            source: image,
            extensions: None,
            extras: Default::default(),
        })
    }
}

/// A material's `extras` naming the skin's effects (`{"effects": ["additive", "chrome"]}`),
/// or none for a plain skin.
fn effects_extras(effects: Option<crate::model::SkinEffects>) -> json::Extras {
    let names = effects.map(|e| e.names()).unwrap_or_default();
    if names.is_empty() {
        return Default::default();
    }
    serde_json::value::to_raw_value(&serde_json::json!({ "effects": names })).ok()
}
