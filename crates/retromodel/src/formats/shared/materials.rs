//! Doom 3 material files (`materials/*.mtr`): the pictures a shader name stands for.
//!
//! Sources: id Software's Doom 3 as kept in dhewm3 (`renderer/Material.cpp`,
//! `idMaterial::ParseMaterial` and `ParseStage`) and the modding documentation of the
//! material keywords. Only what gives a model its pictures is read:
//!
//! - a declaration is `NAME { ... }` (`table NAME { ... }` declarations are skipped);
//! - `diffusemap PATH`, `bumpmap PATH` and `specularmap PATH` at the top of the block;
//! - stages `{ blend diffusemap|bumpmap|specularmap ... map PATH }` fill what the shorthands
//!   did not; the `map` of the first stage with any other blend (`blend add`, `blend
//!   gl_one, gl_zero`) is the base colour of a material with no diffuse map at all;
//! - a picture given by an image program (`addnormals(...)`, `heightmap(...)`,
//!   `makeintensity(...)`) is not evaluated: the program's name is kept in
//!   [`Material::programs`] so that the caller can say what was left out.
//!
//! Quake 3 shader scripts (`scripts/*.shader`) are the same language with other keywords, and
//! are read by the same parser: a stage's `map`, `clampMap` or `animMap FREQ PICTURES...` (its
//! first picture) gives the picture of the first stage, and the engine's own images
//! (`$lightmap`, `$whiteimage`) are not pictures.
//!
//! The syntax is idLexer's: `//` and `/* */` comments, `"strings"`, and the punctuation
//! `{ } ( ) ,`. A declaration with unbalanced braces ends the file's reading with a
//! `line:column` error; the declarations before it are kept.

use crate::error::{Error, ErrorKind};
use crate::io::text::{self, Kind, Syntax, Token, Words};
use crate::limits::Limits;
use crate::resolve::Resolver;
use crate::skin_lookup::{Found, Rule, SkinLookup};

/// Short format name used in errors (`mtr: ...`).
pub const FORMAT: &str = "mtr";

static SYNTAX: Syntax = Syntax {
    line_comments: true,
    block_comments: true,
    keep_comments: false,
    quotes: &[text::STRING],
    punct: b"{}(),",
    words: Words::Free,
};

/// The pictures of one material declaration.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Material {
    /// The declaration's name (the shader name a model gives).
    pub name: String,
    /// The base colour picture (`diffusemap`, a `blend diffusemap` stage, or the first
    /// other stage's `map`).
    pub diffuse: Option<String>,
    /// The normal map (`bumpmap`, a `blend bumpmap` stage).
    pub bump: Option<String>,
    /// The specular map (`specularmap`, a `blend specularmap` stage).
    pub specular: Option<String>,
    /// Image programs met where a picture path was expected, not evaluated.
    pub programs: Vec<String>,
}

/// The material declarations of a `.mtr` file, and the error that stopped reading it, if
/// one did (the declarations before it are kept).
pub fn parse(src: &[u8]) -> (Vec<Material>, Option<Error>) {
    let mut p = MtrParser(text::Parser::new(src, &SYNTAX, FORMAT, &Limits::default()));
    let mut out = Vec::new();
    loop {
        match p.declaration() {
            Ok(Some(Some(m))) => out.push(m),
            Ok(Some(None)) => {}
            Ok(None) => return (out, None),
            Err(e) => return (out, Some(e)),
        }
    }
}

struct MtrParser<'a>(text::Parser<'a>);

/// Where a picture goes.
#[derive(Clone, Copy)]
enum Slot {
    Diffuse,
    Bump,
    Specular,
}

impl MtrParser<'_> {
    fn next(&mut self) -> Result<Token, Error> {
        self.0.next_token()
    }

    fn word(&self, t: &Token) -> String {
        String::from_utf8_lossy(self.0.text(t)).into_owned()
    }

    fn unbalanced(&self, t: &Token) -> Error {
        self.0.error(
            t,
            ErrorKind::Truncated,
            "the file ends inside a declaration (unbalanced braces)",
        )
    }

    /// One declaration: `Some(Some(material))`, `Some(None)` for a skipped one, `None` at the
    /// end of the file.
    fn declaration(&mut self) -> Result<Option<Option<Material>>, Error> {
        let t = self.next()?;
        match t.kind {
            Kind::Eof => return Ok(None),
            Kind::Punct(b'{') => {
                self.skip_block(&t)?;
                return Ok(Some(None));
            }
            Kind::Punct(_) => return Ok(Some(None)),
            _ => {}
        }
        let mut name = self.word(&t);
        let mut skip = false;
        if name.eq_ignore_ascii_case("table") || name.eq_ignore_ascii_case("material") {
            skip = name.eq_ignore_ascii_case("table");
            let n = self.next()?;
            name = self.word(&n);
        }
        let open = self.next()?;
        if open.kind != Kind::Punct(b'{') {
            // Not a declaration (stray word): go on with what follows.
            return Ok(Some(None));
        }
        if skip {
            self.skip_block(&open)?;
            return Ok(Some(None));
        }
        let mut m = Material {
            name: name.replace('\\', "/"),
            ..Material::default()
        };
        let mut first_stage_map: Option<String> = None;
        loop {
            let t = self.next()?;
            match t.kind {
                Kind::Eof => return Err(self.unbalanced(&t)),
                Kind::Punct(b'}') => break,
                Kind::Punct(b'{') => {
                    let (blend, map) = self.stage(&t, &mut m.programs)?;
                    let slot = match blend.as_deref().map(str::to_ascii_lowercase).as_deref() {
                        Some("diffusemap") => Some(Slot::Diffuse),
                        Some("bumpmap") => Some(Slot::Bump),
                        Some("specularmap") => Some(Slot::Specular),
                        _ => None,
                    };
                    match (slot, map) {
                        (Some(slot), Some(map)) => set(&mut m, slot, map),
                        (None, Some(map)) if first_stage_map.is_none() => {
                            first_stage_map = Some(map)
                        }
                        _ => {}
                    }
                }
                Kind::Punct(b'(') => self.skip_parens(&t)?,
                _ => {
                    let slot = match self.word(&t).to_ascii_lowercase().as_str() {
                        "diffusemap" => Slot::Diffuse,
                        "bumpmap" => Slot::Bump,
                        "specularmap" => Slot::Specular,
                        _ => continue,
                    };
                    if let Some(path) = self.picture(&mut m.programs)? {
                        set(&mut m, slot, path);
                    }
                }
            }
        }
        if m.diffuse.is_none() {
            m.diffuse = first_stage_map;
        }
        Ok(Some(Some(m)))
    }

    /// A picture argument: a path, or an image program (skipped, its name kept).
    fn picture(&mut self, programs: &mut Vec<String>) -> Result<Option<String>, Error> {
        let t = self.next()?;
        if t.kind == Kind::Eof {
            return Err(self.unbalanced(&t));
        }
        let word = self.word(&t);
        // An image program is a name followed by `(`.
        if self.0.peek_kind()? == Kind::Punct(b'(') {
            let n = self.next()?;
            self.skip_parens(&n)?;
            programs.push(word);
            return Ok(None);
        }
        Ok(Some(word.replace('\\', "/")))
    }

    /// A stage block after its `{`: its `blend` and `map` values.
    fn stage(
        &mut self,
        open: &Token,
        programs: &mut Vec<String>,
    ) -> Result<(Option<String>, Option<String>), Error> {
        let (mut blend, mut map) = (None, None);
        loop {
            let t = self.next()?;
            match t.kind {
                Kind::Eof => return Err(self.unbalanced(open)),
                Kind::Punct(b'}') => return Ok((blend, map)),
                Kind::Punct(b'{') => self.skip_block(&t)?,
                Kind::Punct(b'(') => self.skip_parens(&t)?,
                _ => match self.word(&t).to_ascii_lowercase().as_str() {
                    "blend" => {
                        let b = self.next()?;
                        blend = Some(self.word(&b));
                    }
                    "map" | "clampmap" => {
                        map = map.or(self.picture(programs)?.filter(|p| !p.starts_with('$')))
                    }
                    // Quake 3's `blendFunc blend` (a shorthand) is not Doom 3's `blend`.
                    "blendfunc" => {
                        self.next()?;
                    }
                    "animmap" => {
                        self.next()?;
                        map = map.or(self.picture(programs)?.filter(|p| !p.starts_with('$')))
                    }
                    _ => {}
                },
            }
        }
    }

    /// Skips to the `}` that closes the `{` token `open`.
    fn skip_block(&mut self, open: &Token) -> Result<(), Error> {
        self.skip_nested(open, b'{', b'}')
    }

    /// Skips to the `)` that closes the `(` token `open`.
    fn skip_parens(&mut self, open: &Token) -> Result<(), Error> {
        self.skip_nested(open, b'(', b')')
    }

    fn skip_nested(&mut self, open: &Token, opening: u8, closing: u8) -> Result<(), Error> {
        let mut depth = 1usize;
        while depth > 0 {
            let t = self.next()?;
            match t.kind {
                Kind::Eof => return Err(self.unbalanced(open)),
                Kind::Punct(b) if b == opening => depth += 1,
                Kind::Punct(b) if b == closing => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }
}

/// Every declaration of the game data's `DIR/*.EXT` files (`materials`, `mtr` for Doom 3;
/// `scripts`, `shader` for Quake 3), in the resolver's order. A file that does not read to its
/// end gives a warning; its declarations before the problem count.
pub fn load_all(
    resolver: &dyn Resolver,
    dir: &str,
    extension: &str,
    warnings: &mut Vec<String>,
) -> Vec<Material> {
    let mut out = Vec::new();
    for name in resolver.list_in(dir, extension) {
        let Some(bytes) = resolver.load(&name) else {
            continue;
        };
        let (mut materials, error) = parse(&bytes);
        if let Some(e) = error {
            warnings.push(format!("{name}: {e}"));
        }
        out.append(&mut materials);
    }
    out
}

/// The base-colour picture of the declaration named `shader` (case-insensitive, `\` as `/`;
/// the first declaration wins, as in both engines), if one is declared and its picture found;
/// image programs it uses are named in a warning that starts with `what`.
pub fn picture(
    lookup: &mut SkinLookup<'_>,
    materials: &[Material],
    shader: &str,
    what: &str,
    warnings: &mut Vec<String>,
) -> Option<Found> {
    let wanted = shader.replace('\\', "/");
    let m = materials
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(&wanted))?;
    if !m.programs.is_empty() {
        warnings.push(format!(
            "{what}: material {:?} uses image programs that are not evaluated: {}",
            m.name,
            m.programs.join(", ")
        ));
    }
    let diffuse = m.diffuse.as_deref()?;
    let Some(mut found) = lookup.image_path(diffuse) else {
        // The shader was found; what is missing is its picture.
        warnings.push(format!(
            "{what}: the picture \"{diffuse}\" of shader \"{}\" is not found (--game-dir \
             GAME_FOLDER or archive finds the game's pictures)",
            m.name
        ));
        return None;
    };
    found.rule = Rule::Material;
    Some(found)
}

/// Whether `materials` declare `shader` (case-insensitive, `\\` as `/`).
pub fn declares(materials: &[Material], shader: &str) -> bool {
    let wanted = shader.replace('\\', "/");
    materials
        .iter()
        .any(|m| m.name.eq_ignore_ascii_case(&wanted))
}

fn set(m: &mut Material, slot: Slot, path: String) {
    let field = match slot {
        Slot::Diffuse => &mut m.diffuse,
        Slot::Bump => &mut m.bump,
        Slot::Specular => &mut m.specular,
    };
    field.get_or_insert(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorthands_stages_programs_and_tables() {
        let src = br#"
// a comment
table sinTable { { 0, 1, 0, -1 } }
models/monsters/imp/imp
{
    noselfShadow
    renderbump -size 256 256 models/monsters/imp/imp_local.tga
    diffusemap models/monsters/imp/imp_d.tga
    bumpmap addnormals(models/monsters/imp/imp_local.tga, heightmap(models/monsters/imp/imp_h.tga, 4))
    { blend specularmap map models/monsters/imp/imp_s.tga }
}
textures/glow /* block */ {
    { blend add map "textures/glow/glow.tga" rgb 0.5 }
    { blend diffusemap map textures/glow/never.tga }
}
"#;
        let (mats, err) = parse(src);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(mats.len(), 2);
        assert_eq!(mats[0].name, "models/monsters/imp/imp");
        assert_eq!(
            mats[0].diffuse.as_deref(),
            Some("models/monsters/imp/imp_d.tga")
        );
        assert_eq!(mats[0].bump, None);
        assert_eq!(
            mats[0].specular.as_deref(),
            Some("models/monsters/imp/imp_s.tga")
        );
        assert_eq!(mats[0].programs, ["addnormals"]);
        // A `blend diffusemap` stage wins over the first other stage.
        assert_eq!(mats[1].diffuse.as_deref(), Some("textures/glow/never.tga"));
        let (mats, _) = parse(b"x { { blend add map a.tga } }");
        assert_eq!(mats[0].diffuse.as_deref(), Some("a.tga"));
    }

    #[test]
    fn quake3_shader_scripts() {
        let src = br#"
models/players/neko/hair
{
	cull disable
	{
		map $lightmap
	}
	{
		clampMap models/players/neko/hair.tga
		blendfunc gl_src_alpha gl_one
	}
	{
		map models/players/neko/hair_spec.tga
	}
}
models/flag { { animMap 10 models/flag1.tga models/flag2.tga } }
menu/frame { { map menu/red.tga
    blendfunc blend } }
"#;
        let (mats, err) = parse(src);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(
            mats[0].diffuse.as_deref(),
            Some("models/players/neko/hair.tga")
        );
        assert_eq!(mats[1].diffuse.as_deref(), Some("models/flag1.tga"));
        assert_eq!(mats[2].diffuse.as_deref(), Some("menu/red.tga"));
    }

    #[test]
    fn a_found_shader_whose_picture_is_missing_names_the_picture() {
        let (materials, _) = parse(b"models/gun/skin\n{\n  { map models/gun/gun.tga }\n}\n");
        let files = crate::resolve::MemoryFiles(Default::default());
        let mut lookup = SkinLookup::new(&files, &crate::limits::Limits::default());
        let mut warnings = Vec::new();
        assert!(picture(
            &mut lookup,
            &materials,
            "models/gun/skin",
            "surface 0",
            &mut warnings
        )
        .is_none());
        assert_eq!(
            warnings,
            ["surface 0: the picture \"models/gun/gun.tga\" of shader \"models/gun/skin\" is not \
              found (--game-dir GAME_FOLDER or archive finds the game's pictures)"]
        );
        assert!(declares(&materials, "MODELS\\gun\\skin"));
        assert!(!declares(&materials, "models/gun/other"));
    }

    #[test]
    fn unbalanced_braces_keep_what_came_before() {
        let (mats, err) = parse(b"a { diffusemap a.tga }\nb {\n diffusemap b.tga\n");
        assert_eq!(mats.len(), 1);
        assert_eq!(
            err.unwrap().to_string(),
            "mtr: the file ends inside a declaration (unbalanced braces) at line 4:1"
        );
    }
}
