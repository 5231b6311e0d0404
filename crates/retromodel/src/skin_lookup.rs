//! Skin resolution by game convention: every rule in one place, each small.
//!
//! A model names its skins in the game's own way; this module turns those names into
//! pictures through the caller's [`Resolver`] and says which rule found each one, for `info`
//! (`skin 0: guard1_body.png (image path)`) and for [`Skin::source`](crate::model::Skin).
//!
//! | rule | used for | what is tried |
//! |---|---|---|
//! | [`Rule::Stored`] | Quake 2 MD2 paths, 3D GameStudio external skins | the name as stored (and `name.pcx` for a name without extension) |
//! | [`Rule::OtherExtension`] | the same, when the stored picture is missing (or first, with [`ConvertOptions::prefer_replacements`](crate::options::ConvertOptions::prefer_replacements)); Doom 3 shader names | the name with each picture extension of [`IMAGE_EXTENSIONS`] in place of its own |
//! | [`Rule::UfoAi`] | UFO:AI MD2 (`.garbagecan`, `.container.005`) | `name.*` in the model's folder, the name's own extension dropped |
//! | [`Rule::ImagePath`] | MD5 shaders that are picture paths (`guard1_body.png`, `C:\art\skin.tga`) | the path, then its file name beside the model (the resolver's last candidate) |
//! | [`Rule::Material`] | Doom 3 MD5 shaders that name materials (`models/monsters/imp/imp`), Quake 3 MD3 shaders declared in `scripts/*.shader` (their first stage's picture) | the `diffusemap` (or `blend diffusemap` stage, or first stage) of the declaration of that name in `materials/*.mtr` ([`crate::formats::shared::materials`]), as a picture path |
//! | [`Rule::Cube2`] | Sauerbraten / Red Eclipse MD5 | the model folder's `.cfg`: `md5skin MESH DIFFUSE [MASKS]` (`*` for every mesh), `<dds>` prefixes dropped |
//! | [`Rule::ModelStem`] | a model with no skin entry | a picture with the model's file stem beside it (`sydney.md2` -> `sydney.*`), else the one picture whose name starts with it (`faerie2.bmp`), with a warning |
//! | [`Rule::OnlyPicture`] | a model with no skin entry | the only picture in the model's folder, with a warning |
//!
//! Where several extensions are tried, the order is [`IMAGE_EXTENSIONS`]: true-colour formats
//! first. A Quake 2 `.wal` picture takes its palette from the game's `pics/colormap.pcx`
//! ([`COLORMAP`]), found through the resolver like any side file. Each picture is decoded once per model whatever the number of skins naming it, and
//! all are charged to one [`Budget`].

use std::collections::HashMap;

use crate::image::{self, Image, IMAGE_EXTENSIONS};
use crate::limits::{Budget, Limits};
use crate::resolve::Resolver;

/// Where Quake 2 keeps the palette its WAL pictures use.
pub const COLORMAP: &str = "pics/colormap.pcx";

/// Which convention found a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The path stored in the model.
    Stored,
    /// The stored name with another picture extension.
    OtherExtension,
    /// UFO:AI's `.name`: `name.*` in the model's folder.
    UfoAi,
    /// A shader name that is a picture path.
    ImagePath,
    /// A Cube 2 (Sauerbraten, Red Eclipse) model configuration.
    Cube2,
    /// A Doom 3 material (`materials/*.mtr`) or Quake 3 shader script (`scripts/*.shader`)
    /// of the shader's name.
    Material,
    /// No skin entry: the picture with the model's stem beside it.
    ModelStem,
    /// No skin entry: the only picture in the model's folder.
    OnlyPicture,
}

impl Rule {
    /// The rule in words, as `info` shows it.
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Stored => "path stored in the model",
            Rule::OtherExtension => "stored name, another picture format",
            Rule::UfoAi => "UFO:AI .name in the model's folder",
            Rule::ImagePath => "shader as a picture path",
            Rule::Cube2 => "Cube 2 md5skin in the folder's .cfg",
            Rule::Material => "material or shader script's picture",
            Rule::ModelStem => "named like the model, beside it",
            Rule::OnlyPicture => "the only picture in the model's folder",
        }
    }
}

/// A picture found for a skin name.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The name the resolver gave the bytes for.
    pub path: String,
    /// The rule that found it.
    pub rule: Rule,
    /// The decoded picture.
    pub image: Image,
}

impl Found {
    /// `path (rule)`, as [`Skin::source`](crate::model::Skin::source) keeps it.
    pub fn source(&self) -> String {
        format!("{} ({})", self.path, self.rule.describe())
    }

    /// The index in `skins` of the skin showing this picture: the one `by_path` already
    /// made for its path, else a new skin named by the path, so that meshes showing the
    /// same picture share one skin (MD5 and IQM meshes).
    pub fn shared_skin(
        self,
        skins: &mut Vec<crate::model::Skin>,
        by_path: &mut HashMap<String, usize>,
    ) -> usize {
        if let Some(&index) = by_path.get(&self.path) {
            return index;
        }
        by_path.insert(self.path.clone(), skins.len());
        skins.push(crate::model::Skin {
            source: Some(self.source()),
            name: self.path,
            pictures: vec![self.image],
            picture_times: None,
        });
        skins.len() - 1
    }
}

/// Finds and decodes skin pictures for one model.
pub struct SkinLookup<'r> {
    resolver: &'r dyn Resolver,
    limits: Limits,
    budget: Budget,
    decoded: HashMap<String, Result<Image, String>>,
    /// Quake 2's palette from `pics/colormap.pcx`, once looked for.
    colormap: Option<Option<image::Palette>>,
    /// Pictures that were found but could not be decoded, or did not fit the budget.
    pub warnings: Vec<String>,
}

/// The file-name part of a path (after the last `/` or `\`).
fn file_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// `name` without its extension, when its file name has one (a leading `.` is not one).
fn strip_extension(name: &str) -> &str {
    let file = file_name(name);
    match file.trim_start_matches('.').rfind('.') {
        Some(i) => {
            let dot =
                name.len() - file.len() + (file.len() - file.trim_start_matches('.').len()) + i;
            &name[..dot]
        }
        None => name,
    }
}

/// `name` with each picture extension in place of its own (or added).
pub fn with_picture_extensions(name: &str) -> Vec<String> {
    let stem = strip_extension(name);
    IMAGE_EXTENSIONS
        .iter()
        .filter(|e| **e != "wal")
        .map(|e| format!("{stem}.{e}"))
        .collect()
}

impl<'r> SkinLookup<'r> {
    /// A lookup through `resolver`, pictures decoded within `limits`.
    pub fn new(resolver: &'r dyn Resolver, limits: &Limits) -> Self {
        SkinLookup {
            resolver,
            limits: *limits,
            budget: Budget::new(limits),
            decoded: HashMap::new(),
            colormap: None,
            warnings: Vec::new(),
        }
    }

    /// The first candidate the resolver has that decodes, found by `rule`. Each picture is
    /// decoded once, but every copy handed out is charged to the budget (a model naming one
    /// big picture a thousand times must not copy it a thousand times).
    fn first(&mut self, candidates: &[String], rule: Rule) -> Option<Found> {
        for name in candidates {
            if !self.decoded.contains_key(name) {
                let Some(bytes) = self.resolver.load(name) else {
                    continue;
                };
                let wal = name.to_ascii_lowercase().ends_with(".wal");
                let palette = if wal { self.quake2_palette() } else { None };
                let result =
                    image::decode_with_palette(&bytes, name, palette.as_ref(), &self.limits)
                        .map_err(|e| format!("{name}: {e}"));
                if let Err(e) = &result {
                    self.warnings.push(e.clone());
                }
                self.decoded.insert(name.clone(), result);
            }
            let Some(Ok(image)) = self.decoded.get(name) else {
                continue;
            };
            let size = 64 + 4 * u64::from(image.width) * u64::from(image.height);
            if let Err(limit) = self.budget.charge(size) {
                self.warnings.push(format!(
                    "{name}: left out, skin pictures would exceed the allocation limit of \
                     {limit} bytes"
                ));
                return None;
            }
            return Some(Found {
                path: name.clone(),
                rule,
                image: image.clone(),
            });
        }
        None
    }

    /// Quake 2's palette for WAL pictures: the one in the game's `pics/colormap.pcx` (a file
    /// the user has; WAL files store indices only), read once.
    fn quake2_palette(&mut self) -> Option<image::Palette> {
        if let Some(p) = &self.colormap {
            return *p;
        }
        let palette = self
            .resolver
            .load(COLORMAP)
            .and_then(|b| image::pcx::decode(&b, &self.limits).ok())
            .and_then(|img| match img.pixels {
                image::Pixels::Indexed { palette, .. } => Some(*palette),
                _ => None,
            });
        if palette.is_none() {
            self.warnings.push(format!(
                "WAL pictures need Quake 2's palette: {COLORMAP} was not found (give the game \
                 folder with --game-dir)"
            ));
        }
        self.colormap = Some(palette);
        palette
    }

    /// A stored path (Quake 2, 3D GameStudio external skins): as stored (`name.pcx` too when
    /// it has no extension), then, when `replacements`, with every other picture extension.
    pub fn stored(&mut self, name: &str, replacements: bool) -> Option<Found> {
        let mut tries = vec![name.to_string()];
        if strip_extension(name) == name {
            tries.push(format!("{name}.pcx"));
        }
        if let Some(f) = self.first(&tries, Rule::Stored) {
            return Some(f);
        }
        if replacements {
            return self.first(&with_picture_extensions(name), Rule::OtherExtension);
        }
        None
    }

    /// A stored path with its true-colour replacements first (Quake 2 source ports): the name
    /// with each other picture extension, then as stored.
    pub fn replacement_first(&mut self, name: &str) -> Option<Found> {
        let own = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        let tries: Vec<String> = with_picture_extensions(name)
            .into_iter()
            .filter(|t| t.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()) != own)
            .collect();
        self.first(&tries, Rule::OtherExtension)
            .or_else(|| self.stored(name, false))
    }

    /// UFO:AI's `.name` (a name starting with a dot and no folder): `name.*` in the model's
    /// folder, its own extension dropped (`.container.005` is `container.jpg`). `None` for
    /// other names.
    pub fn ufoai(&mut self, name: &str) -> Option<Found> {
        let rest = name.strip_prefix('.')?;
        if rest.is_empty() || rest.contains(['/', '\\']) {
            return None;
        }
        let mut tries = with_picture_extensions(rest);
        tries.extend(with_picture_extensions(&format!("{rest}.x")));
        tries.dedup();
        self.first(&tries, Rule::UfoAi)
    }

    /// A shader or material name used as a picture path: as given, then with every picture
    /// extension (Doom 3 names drop it: `models/monsters/imp/imp` for `imp.tga`).
    pub fn image_path(&mut self, name: &str) -> Option<Found> {
        if name.trim().is_empty() {
            return None;
        }
        if let Some(f) = self.first(&[name.to_string()], Rule::ImagePath) {
            return Some(f);
        }
        self.first(&with_picture_extensions(name), Rule::OtherExtension)
    }

    /// For a model with no skin entry: a picture named like the model beside it, then the
    /// only picture in its folder; `None` when the resolver does not know the model's name or
    /// finds neither.
    pub fn beside_model(&mut self) -> Option<Found> {
        // By file name: the pictures are beside the model, and a model on disk and the same
        // model in a game tree (an archive, the web page's dropped folder) then name its skin
        // alike (every resolver loads a bare name from the model's folder).
        let mut pictures: Vec<String> = IMAGE_EXTENSIONS
            .iter()
            .filter(|e| **e != "wal")
            .flat_map(|e| self.resolver.list(e))
            .map(|p| file_name(&p).to_string())
            .collect();
        pictures.sort();
        pictures.dedup();
        if let Some(model) = self.resolver.model_name() {
            let stem = strip_extension(file_name(&model)).to_string();
            if let Some(f) = self.first(&with_picture_extensions(&stem), Rule::ModelStem) {
                return Some(f);
            }
            // One picture whose name starts with the model's (faerie.md2, faerie2.bmp).
            let lower = stem.to_ascii_lowercase();
            let named: Vec<String> = pictures
                .iter()
                .filter(|p| file_name(p).to_ascii_lowercase().starts_with(&lower))
                .cloned()
                .collect();
            if let [one] = named.as_slice() {
                if let Some(f) = self.first(std::slice::from_ref(one), Rule::ModelStem) {
                    return Some(f);
                }
            }
        }
        match pictures.as_slice() {
            [only] => {
                let only = only.clone();
                self.first(&[only], Rule::OnlyPicture)
            }
            _ => None,
        }
    }

    /// The Cube 2 diffuse skins of the model folder's `.cfg` files, by mesh name (`*` for
    /// every mesh), `<dds>` prefixes dropped, paths relative to the configuration's folder.
    /// Red Eclipse keeps a weapon's configurations in `hwep/`, `item/`, `vwep/` and `proj/`
    /// below the mesh, each loading it with `md5load ../mesh.md5mesh`: those that load this
    /// model count too.
    pub fn cube2_skins(&mut self) -> Vec<(String, String)> {
        let model = self.resolver.model_name();
        let mut configs: Vec<(String, String)> = self
            .resolver
            .list("cfg")
            .into_iter()
            .map(|c| (c, String::new()))
            .collect();
        for sub in CUBE2_SUBFOLDERS {
            configs.push((format!("{sub}/md5.cfg"), format!("{sub}/")));
        }
        let mut out = Vec::new();
        for (cfg, dir) in configs {
            let Some(bytes) = self.resolver.load(&cfg) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let lines: Vec<Vec<String>> = text.lines().map(cube2_words).collect();
            if !dir.is_empty() {
                // A subfolder's configuration counts only when it loads this model.
                let loads_model = lines.iter().any(|w| {
                    w.len() >= 2
                        && w[0].ends_with("load")
                        && model.as_deref().is_some_and(|m| file_name(&w[1]) == m)
                });
                if !loads_model {
                    continue;
                }
            }
            for words in &lines {
                if let [cmd, mesh, diffuse, ..] = words.as_slice() {
                    if matches!(cmd.as_str(), "md5skin" | "md3skin" | "md2skin" | "iqmskin") {
                        let path = format!("{dir}{}", diffuse.trim_start_matches("<dds>"));
                        out.push((mesh.clone(), path));
                    }
                }
            }
        }
        out
    }

    /// The Cube 2 skin of the mesh named `mesh` (or the `*` one) among `skins`.
    pub fn cube2(&mut self, skins: &[(String, String)], mesh: &str) -> Option<Found> {
        let diffuse = skins
            .iter()
            .find(|(m, _)| m == mesh)
            .or_else(|| skins.iter().find(|(m, _)| m == "*"))?
            .1
            .clone();
        let mut tries = vec![diffuse.clone()];
        tries.extend(with_picture_extensions(&diffuse));
        self.first(&tries, Rule::Cube2)
    }
}

/// Where Red Eclipse keeps the configurations of a weapon's views, below its mesh.
const CUBE2_SUBFOLDERS: &[&str] = &["hwep", "item", "vwep", "proj"];

/// The words of a Cube 2 script line: quoted strings as one word, `//` comments dropped.
pub(crate) fn cube2_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.trim().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '/' && line.contains("//") && {
            let mut ahead = chars.clone();
            ahead.next();
            ahead.peek() == Some(&'/')
        } {
            break;
        } else if c == '"' {
            chars.next();
            let word: String = chars.by_ref().take_while(|&c| c != '"').collect();
            out.push(word);
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
            out.push(word);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_replaced_or_added() {
        assert_eq!(strip_extension("a/b.c/skin.pcx"), "a/b.c/skin");
        assert_eq!(strip_extension("a/b.c/skin"), "a/b.c/skin");
        assert_eq!(strip_extension(".garbagecan"), ".garbagecan");
        assert_eq!(strip_extension(".container.005"), ".container");
        assert_eq!(with_picture_extensions("skin.pcx")[0], "skin.png");
    }

    #[test]
    fn cube2_lines_split_into_words() {
        assert_eq!(
            cube2_words(r#"md5skin * "<dds>diffuse.png" "<dds>mask.png" 0.0625 // x"#),
            [
                "md5skin",
                "*",
                "<dds>diffuse.png",
                "<dds>mask.png",
                "0.0625"
            ]
        );
        assert_eq!(cube2_words("// md5skin a b"), Vec::<String>::new());
    }
}
