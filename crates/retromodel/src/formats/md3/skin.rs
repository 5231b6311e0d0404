//! Quake 3 skins: `.skin` files, and shader names to pictures.
//!
//! A `.skin` file (ioquake3 `RE_RegisterSkin`) is lines of `surface,shader`; lines naming a
//! tag (`tag_head,` or a bare `tag_head`) carry nothing to draw and are skipped. The game picks
//! `MODEL_SKIN.skin` beside the model (`lower_default.skin`, `upper_red.skin`); Nexuiz and
//! DarkPlaces also use `MODEL.md3_N.skin`. Surface names are compared as the engine does:
//! without case, the model's surface names with a trailing `_1` or `_2` dropped (a q3data
//! habit; the file's names are taken as written).
//!
//! A shader name becomes a picture the way `R_FindShader` does it: a declaration of that name
//! (extension dropped) in the game's `scripts/*.shader` gives its first stage's picture
//! ([`crate::formats::shared::materials`] reads both Doom 3 materials and Quake 3 shaders); otherwise
//! the name is a picture path, tried as given and then with each picture extension (`.tga`,
//! then `.jpg`, ...).

use std::collections::HashMap;

use super::raw::File;
use crate::formats::shared::materials as mtr;
use crate::limits::Limits;
use crate::model::{Mesh, Skin};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;
use crate::skin_lookup::{Found, SkinLookup};

/// A `.skin` file: surface name (lower case) to shader name, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SkinFile {
    /// `(surface, shader)` pairs; surface names in lower case.
    pub surfaces: Vec<(String, String)>,
    /// Tag names the file lists (kept for writers; they draw nothing).
    pub tags: Vec<String>,
}

impl SkinFile {
    /// Reads a `.skin` file (lossy for non-UTF-8 bytes; blank lines and `//` comments skipped).
    pub fn parse(bytes: &[u8]) -> SkinFile {
        let text = String::from_utf8_lossy(bytes);
        let mut out = SkinFile::default();
        for line in text.lines() {
            let line = line.split("//").next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (surface, shader) = line.split_once(',').unwrap_or((line, ""));
            let surface = surface.trim().trim_matches('"').to_ascii_lowercase();
            let shader = shader.trim().trim_matches('"').to_string();
            // `tag_` anywhere in the name marks a tag line, as `RE_RegisterSkin` tests it.
            if surface.contains("tag_") {
                out.tags.push(surface);
            } else if !surface.is_empty() {
                out.surfaces.push((surface, shader));
            }
        }
        out
    }

    /// The shader for a model's surface, matched as the engine does: the surface name as
    /// [`engine_surface_name`] makes it against the file's names in lower case.
    pub fn shader_for(&self, surface: &str) -> Option<&str> {
        let want = engine_surface_name(surface);
        self.surfaces
            .iter()
            .find(|(s, _)| *s == want)
            .map(|(_, shader)| shader.as_str())
    }

    /// The file's text: `surface,shader` lines, then the tags as `tag_name,` lines.
    pub fn write(&self) -> Vec<u8> {
        let mut out = String::new();
        for (s, shader) in &self.surfaces {
            out.push_str(&format!("{s},{shader}\n"));
        }
        for t in &self.tags {
            out.push_str(&format!("{t},\n"));
        }
        out.into_bytes()
    }
}

/// A surface name as Quake 3 compares it: lower case, a trailing `_1` or `_2` (any `_X`) cut.
pub fn engine_surface_name(name: &str) -> String {
    let mut n = name.to_ascii_lowercase();
    let b = n.as_bytes();
    if b.len() > 2 && b[b.len() - 2] == b'_' {
        n.truncate(b.len() - 2);
    }
    n
}

/// The `.skin` file names tried for a model named `model` (a game path or file name) and the
/// skin name `skin`: `STEM_SKIN.skin`; for a lower-detail part (`lower_1.md3`) the
/// full-detail part's (`lower_SKIN.skin`, which the game uses for every level of detail);
/// then, for the default skin, `MODEL_0.skin`.
pub fn skin_file_candidates(model: &str, skin: &str) -> Vec<String> {
    let stem = model.rsplit_once('.').map_or(model, |(s, _)| s);
    let mut out = vec![format!("{stem}_{skin}.skin")];
    if let Some((base, lod)) = stem.rsplit_once('_') {
        if !lod.is_empty() && lod.bytes().all(|b| b.is_ascii_digit()) {
            out.push(format!("{base}_{skin}.skin"));
        }
    }
    if skin == "default" {
        out.push(format!("{model}_0.skin"));
    } else if let Ok(n) = skin.parse::<u32>() {
        out.push(format!("{model}_{n}.skin"));
    }
    out
}

/// The `.skin` file the resolver has for the model (the skin [`ConvertOptions::skin_name`]
/// names, `default` without one), with its name; a warning when a named skin is missing.
///
/// When no file is named after the model, a `PART_SKIN.skin` beside it that names every one
/// of `surfaces` is taken (Team Arena heads: `kyonshi.md3` with `head_default.skin`, as the
/// game loads a head's skin by the part's name).
pub fn find_skin_file(
    resolver: &dyn Resolver,
    surfaces: &[String],
    options: &ConvertOptions,
    warnings: &mut Vec<String>,
) -> Option<(String, SkinFile)> {
    let model = resolver.model_name()?;
    let wanted = options.skin_name.as_deref().unwrap_or("default");
    for name in skin_file_candidates(&model, wanted) {
        if let Some(bytes) = resolver.load(&name) {
            return Some((name, SkinFile::parse(&bytes)));
        }
    }
    let suffix = format!("_{wanted}.skin").to_ascii_lowercase();
    if !surfaces.is_empty() {
        for name in resolver.list("skin") {
            if !name.to_ascii_lowercase().ends_with(&suffix) {
                continue;
            }
            let Some(bytes) = resolver.load(&name) else {
                continue;
            };
            let f = SkinFile::parse(&bytes);
            if surfaces.iter().all(|s| f.shader_for(s).is_some()) {
                return Some((name, f));
            }
        }
    }
    if options.skin_name.is_some() {
        warnings.push(format!(
            "skin {wanted:?}: no {} beside the model; the surfaces' own shaders used",
            skin_file_candidates(&model, wanted).join(" or ")
        ));
    }
    None
}

/// Finds the picture of a Quake 3 shader name: a shader script declaration of that name
/// (extension dropped), else the name as a picture path with each picture extension.
pub fn find_picture(
    lookup: &mut SkinLookup<'_>,
    shaders: &[mtr::Material],
    shader: &str,
    what: &str,
    warnings: &mut Vec<String>,
) -> Option<Found> {
    let bare = shader
        .rsplit_once('.')
        .map_or(shader, |(s, e)| if e.contains('/') { shader } else { s });
    mtr::picture(lookup, shaders, bare, what, warnings).or_else(|| lookup.image_path(shader))
}

/// The skins of a converted MD3: one per distinct shader drawn (the `.skin` file's choice, else
/// the surface's first shader), each mesh pointing at its own. Shader scripts are read from
/// the game's `scripts/*.shader` when a shader name is needed.
pub fn load_skins(
    file: &File<'_>,
    meshes: &mut [Mesh],
    options: &ConvertOptions,
    resolver: &dyn Resolver,
    warnings: &mut Vec<String>,
) -> Vec<Skin> {
    let names: Vec<String> = file.surfaces.iter().map(|s| s.name()).collect();
    let skin_file = find_skin_file(resolver, &names, options, warnings);
    let mut lookup = SkinLookup::new(resolver, &Limits::default());
    let mut scripts: Option<Vec<mtr::Material>> = None;
    let mut skins: Vec<Skin> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for (i, (surface, mesh)) in file.surfaces.iter().zip(meshes.iter_mut()).enumerate() {
        let name = surface.name();
        let from_file = skin_file.as_ref().and_then(|(_, f)| f.shader_for(&name));
        let shader = match from_file {
            Some(s) => s.to_string(),
            None => match surface.shader_names().next() {
                Some(s) => s,
                None => continue,
            },
        };
        if shader.trim().is_empty() {
            continue;
        }
        if let Some(&k) = by_name.get(&shader.to_ascii_lowercase()) {
            mesh.skin = Some(k);
            continue;
        }
        let what = format!("surface {i} (\"{name}\")");
        let scripts =
            scripts.get_or_insert_with(|| mtr::load_all(resolver, "scripts", "shader", warnings));
        let found = find_picture(&mut lookup, scripts, &shader, &what, warnings);
        let bare = shader.rsplit_once('.').map_or(shader.as_str(), |(s, e)| {
            if e.contains('/') {
                &shader
            } else {
                s
            }
        });
        if found.is_none() && !mtr::declares(scripts, bare) {
            warnings.push(format!(
                "{what}: shader \"{shader}\" not found: no shader script declares it and no \
                 picture has its name (--game-dir GAME_FOLDER or archive finds the game's \
                 scripts and pictures)"
            ));
        }
        by_name.insert(shader.to_ascii_lowercase(), skins.len());
        mesh.skin = Some(skins.len());
        skins.push(Skin {
            name: shader,
            source: found.as_ref().map(|f| f.source()),
            pictures: found.map(|f| f.image).into_iter().collect(),
            picture_times: None,
        });
    }
    if let Some((name, f)) = &skin_file {
        let ours: std::collections::HashSet<String> =
            names.iter().map(|n| engine_surface_name(n)).collect();
        for (s, _) in &f.surfaces {
            if !ours.contains(s) {
                warnings.push(format!("{name}: surface {s:?} is not in the model"));
            }
        }
    }
    warnings.append(&mut lookup.warnings);
    skins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skin_files_as_the_engine_reads_them() {
        let f = SkinFile::parse(b"u_Torso,models/players/sarge/band.tga\r\ntag_head\ntag_weapon,\n\nh_head,\"x.tga\"\nl_legs_1,y.tga\n");
        assert_eq!(
            f.surfaces,
            [
                (
                    "u_torso".to_string(),
                    "models/players/sarge/band.tga".to_string()
                ),
                ("h_head".to_string(), "x.tga".to_string()),
                ("l_legs_1".to_string(), "y.tga".to_string())
            ]
        );
        assert_eq!(f.tags, ["tag_head", "tag_weapon"]);
        assert_eq!(
            f.shader_for("U_TORSO"),
            Some("models/players/sarge/band.tga")
        );
        assert_eq!(f.shader_for("h_head_1"), Some("x.tga"));
        // The file's own names are not shortened: the model's `l_legs_1` is `l_legs`.
        assert_eq!(f.shader_for("l_legs_1"), None);
        assert_eq!(f.shader_for("legs"), None);
        assert_eq!(SkinFile::parse(&f.write()), f);
        assert_eq!(
            skin_file_candidates("models/players/sarge/lower.md3", "red"),
            ["models/players/sarge/lower_red.skin"]
        );
        assert_eq!(
            skin_file_candidates("marker.md3", "default"),
            ["marker_default.skin", "marker.md3_0.skin"]
        );
        assert_eq!(
            skin_file_candidates("lower_1.md3", "red"),
            ["lower_1_red.skin", "lower_red.skin"]
        );
    }
}
