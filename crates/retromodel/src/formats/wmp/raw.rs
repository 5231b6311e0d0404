//! A WMP level as parsed, statement for statement and token for token.
//!
//! Every number keeps the text it was written with ([`Num`]), so that an unmodified file
//! writes back with the same tokens (`-0.000000` stays `-0.000000`, `1.00` stays `1.00`);
//! flag strings (`0000`, `1001`, 32-digit block flags) and `ndef` placeholders are kept as
//! words. Statements this crate has no layout for are kept as [`Generic`] token trees, line
//! structure included. Comments before a top-level statement and right after its opening
//! brace are kept; see the module documentation for the rest.

use std::fmt;

/// A number as written in the file: its text and the value that text reads as.
///
/// The two never disagree: a parsed number keeps its text, [`Num::new`] makes the text from
/// the value (Rust's shortest round-trip form, never with an exponent).
#[derive(Clone, PartialEq)]
pub struct Num {
    value: f64,
    text: String,
}

impl Num {
    /// A number from a value, written in its shortest decimal form that reads back to the
    /// same `f64` (`0.5`, `-0`, `1536`); a non-finite value becomes `0`.
    pub fn new(value: f64) -> Num {
        let value = if value.is_finite() { value } else { 0.0 };
        Num {
            value,
            text: format!("{value}"),
        }
    }

    /// Reads a decimal number as WED writes them (`-0.000000`, `30`, `1.570796`, `1e-05`):
    /// `None` for anything else (`0f`, `ndef`, `inf`) or a value outside the finite `f64`
    /// range.
    pub fn parse(text: &str) -> Option<Num> {
        if !crate::io::text::is_number(text.as_bytes()) {
            return None;
        }
        let value: f64 = text.parse().ok()?;
        value.is_finite().then(|| Num {
            value,
            text: text.to_string(),
        })
    }

    /// The value.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The text as written.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Debug for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Default for Num {
    /// Zero, written `0`.
    fn default() -> Num {
        Num::new(0.0)
    }
}

impl From<f64> for Num {
    fn from(value: f64) -> Num {
        Num::new(value)
    }
}

/// Three numbers: a point, a vector, angles or scale factors.
pub type Vec3 = [Num; 3];

/// One token of a statement this crate keeps without interpreting it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Atom {
    /// A word: a number, a name, a keyword, a flag string.
    Word(String),
    /// A file name written in angle brackets (`<standard.wad>`), without the brackets.
    Path(String),
    /// A quoted string, without the quotes.
    Quoted(String),
    /// One of `(` `)` `,` `:` `;`.
    Symbol(char),
}

/// A token or a braced group in a kept statement body.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A token.
    Atom(Atom),
    /// `{ ... }`: the lines inside the braces.
    Group(Lines),
}

/// Tokens grouped by the source line they started on (a group's tokens after its closing
/// brace continue the line of that brace). The writer writes one line per entry, so an
/// unknown statement keeps its line layout as well as its tokens.
pub type Lines = Vec<Vec<Node>>;

/// A top-level statement this crate keeps as tokens: a setting (`version 710`,
/// `blocks 34`) or an unknown statement with a body (`name args { ... }`).
#[derive(Debug, Clone, PartialEq)]
pub struct Generic {
    /// The first word (`version`, `blocks`, ...).
    pub keyword: String,
    /// The tokens up to the body or the next statement.
    pub args: Vec<Atom>,
    /// The braced body, if there is one.
    pub body: Option<Lines>,
}

/// A statement with an index whose body layout is not documented (`entity`, `sound`,
/// `path`): the index and the body's tokens.
#[derive(Debug, Clone, PartialEq)]
pub struct Indexed {
    /// The index objects refer to it by (entities, lights, sounds and the level share one
    /// numbering).
    pub index: u32,
    /// The body's tokens.
    pub body: Lines,
}

impl Indexed {
    /// The file names (`<...>`) in the body, in order (for an entity, its model or sprite).
    pub fn file_names(&self) -> Vec<&str> {
        fn walk<'a>(lines: &'a Lines, out: &mut Vec<&'a str>) {
            for node in lines.iter().flatten() {
                match node {
                    Node::Atom(Atom::Path(p)) => out.push(p),
                    Node::Group(g) => walk(g, out),
                    Node::Atom(_) => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.body, &mut out);
        out
    }
}

/// A `wad` entry of the WED settings: a WAD file and the number after it.
#[derive(Debug, Clone, PartialEq)]
pub struct WadFile {
    /// The WAD's path as written (without `<>`).
    pub path: String,
    /// The number after the path (`1` in every file seen).
    pub value: Num,
}

/// A window of WED's `view` settings: its name (`xy.1`, `3d.1`, `textures`) and numbers
/// (screen rectangle, camera position, zoom, angles).
#[derive(Debug, Clone, PartialEq)]
pub struct ViewWindow {
    /// The window name (a word that is not a number).
    pub name: String,
    /// The numbers after it.
    pub values: Vec<Num>,
}

/// One section of the `wed { ... }` statement.
#[derive(Debug, Clone, PartialEq)]
pub enum WedSection {
    /// `palette { 00 00 00 0f 0f 0f ... }`: WED's 8-bit display palette, R G B bytes.
    Palette(Vec<u8>),
    /// `wad { 0 0 0 0 0 <standard.wad> 1 }`: leading numbers, then WAD files.
    Wad {
        /// The numbers before the first file (five zeros in every file seen).
        values: Vec<Num>,
        /// The WAD files.
        files: Vec<WadFile>,
    },
    /// `bookmark { *waterblue earthtile ; ; ; ; ; }`: texture bookmark lists separated by
    /// `;` (`n` semicolons make `n + 1` lists, empty ones included).
    Bookmark(Vec<Vec<String>>),
    /// `view { xy.1 -1 52 379 327 ... }`: WED's window layout.
    View(Vec<ViewWindow>),
    /// Anything else, kept as tokens.
    Other(Generic),
}

/// `wed { ... }`: WED's palette and editor settings; no influence on the level.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Wed {
    /// The sections in file order.
    pub sections: Vec<WedSection>,
}

/// Texture and surface settings of a block face.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    /// Texture name (`wood`, `*water3`).
    pub texture: String,
    /// Version 710 only: the texture's U and V axes, each `( x y z offset )`.
    pub axes: Option<[[Num; 4]; 2]>,
    /// Texture x and y offset in pixels.
    pub offset: [Num; 2],
    /// Texture rotation in degrees.
    pub angle: Num,
    /// Size of a pixel in x and y (pixels per quant).
    pub scale: [Num; 2],
    /// Render mode flags as written (`0000`, `1001`).
    pub flags: String,
    /// Brightness in percent.
    pub ambient: Num,
    /// Albedo/fog value in percent.
    pub albedo: Num,
    /// The words after the albedo (A4: `ndef ndef 0.0 0000`, "future expansion"; version
    /// 710: `ndef`).
    pub extra: Vec<String>,
}

/// A face of an A4 block: a plane through three points.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaneFace {
    /// The three points. Seen from outside they run clockwise: the outward normal is
    /// `(p1 - p2) × (p3 - p2)`.
    pub points: [Vec3; 3],
    /// Texture and surface settings.
    pub surface: Surface,
}

/// A face of a version-710 block: a polygon of the block's vertices.
#[derive(Debug, Clone, PartialEq)]
pub struct PolygonFace {
    /// Indices into the block's vertices, clockwise seen from outside.
    pub vertices: Vec<u32>,
    /// Texture and surface settings.
    pub surface: Surface,
}

/// How a block stores its shape.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A4 layout: one plane per face, each through three points; the block is the
    /// intersection of the half-spaces behind them.
    Planes(Vec<PlaneFace>),
    /// Version-710 layout: `vertices N`, `faces M`, the vertices, then polygon faces.
    Polyhedron {
        /// The vertices.
        vertices: Vec<Vec3>,
        /// The faces.
        faces: Vec<PolygonFace>,
    },
}

impl Shape {
    /// Number of faces.
    pub fn face_count(&self) -> usize {
        match self {
            Shape::Planes(f) => f.len(),
            Shape::Polyhedron { faces, .. } => faces.len(),
        }
    }

    /// The surface of face `i`.
    pub fn surface(&self, i: usize) -> Option<&Surface> {
        match self {
            Shape::Planes(f) => f.get(i).map(|f| &f.surface),
            Shape::Polyhedron { faces, .. } => faces.get(i).map(|f| &f.surface),
        }
    }
}

/// `block N { ... }`: a convex solid.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The index objects refer to it by.
    pub index: u32,
    /// The faces.
    pub shape: Shape,
    /// The closing `{ ... }` group's words (a flags string, `ndef`, and in version 710 a
    /// number), `None` when the block has none.
    pub properties: Option<Vec<String>>,
}

/// `level N { ... }`: the level properties.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// The index objects refer to it by.
    pub index: u32,
    /// The interim WAD holding the level's textures (`block.$$w`).
    pub wad: String,
    /// The palette file (`palette.pcx`, `Palette.raw`).
    pub palette: String,
    /// The nexus value.
    pub nexus: Num,
    /// Sun azimuth in degrees, counter-clockwise from east.
    pub azimuth: Num,
    /// Sun elevation in degrees.
    pub elevation: Num,
    /// The WDL script (`ndef` for none).
    pub script: String,
    /// The four fog colours, RGB percent.
    pub fog: [Vec3; 4],
    /// Sun colour and strength, RGB percent.
    pub sun: Vec3,
    /// Ambient colour and strength, RGB percent.
    pub ambient: Vec3,
    /// Tokens after the ambient colour, kept as they are.
    pub rest: Lines,
}

/// `light N { r g b range }`: a light source, placed by the object that refers to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Light {
    /// The index objects refer to it by.
    pub index: u32,
    /// Colour, RGB percent.
    pub color: Vec3,
    /// Range in quants.
    pub range: Num,
    /// Tokens after the range, kept as they are.
    pub rest: Lines,
}

/// One member line of an object: a kind and indices (`object 2, 3`, `block 0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// `object`, `block`, `level`, `light`, `sound`, `entity`, `path`, ...
    pub kind: String,
    /// The indices, in order (written comma-separated).
    pub indices: Vec<u32>,
}

/// `object N { (position) (angles) (scale) members }`: a group placing its members.
#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    /// The index other objects refer to it by.
    pub index: u32,
    /// Position in the parent's space, in quants.
    pub position: Vec3,
    /// Pan, tilt and roll in radians (the A4 manual's example stores a quarter turn as
    /// `1.570796`).
    pub angles: Vec3,
    /// Scale factors along x, y, z.
    pub scale: Vec3,
    /// The members, one entry per member line.
    pub members: Vec<Member>,
}

/// What a statement is.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `wed { ... }`.
    Wed(Wed),
    /// `block N { ... }`.
    Block(Block),
    /// `level N { ... }` (boxed: it is by far the largest statement).
    Level(Box<Level>),
    /// `light N { ... }`.
    Light(Light),
    /// `object N { ... }`.
    Object(Object),
    /// `entity N { ... }`, kept as tokens.
    Entity(Indexed),
    /// `sound N { ... }`, kept as tokens.
    Sound(Indexed),
    /// `path N { ... }`, kept as tokens.
    Path(Indexed),
    /// A setting (`version 710`, `blocks 1`) or an unknown statement.
    Other(Generic),
}

/// A top-level statement and the comments kept with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// Comments before the statement, each the text after `//` (`" WMP2"`).
    pub comments: Vec<String>,
    /// Comments right after the opening brace (WED writes an object's group name there:
    /// `object 1 {  // BRIDGE06`).
    pub inner_comments: Vec<String>,
    /// The statement.
    pub item: Item,
}

impl Statement {
    /// A statement without comments.
    pub fn new(item: Item) -> Statement {
        Statement {
            comments: Vec::new(),
            inner_comments: Vec::new(),
            item,
        }
    }
}

/// A WMP file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WmpFile {
    /// The statements in file order. The first statement's comments hold the header
    /// (`// WMP2`, editor version, date); a file needs the `// WMP` line first to be
    /// detected as WMP.
    pub statements: Vec<Statement>,
    /// Comments after the last statement.
    pub trailing_comments: Vec<String>,
}

impl WmpFile {
    /// The items of the statements, in order.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.statements.iter().map(|s| &s.item)
    }

    /// The blocks, in file order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.items().filter_map(|i| match i {
            Item::Block(b) => Some(b),
            _ => None,
        })
    }

    /// The objects, in file order.
    pub fn objects(&self) -> impl Iterator<Item = &Object> {
        self.items().filter_map(|i| match i {
            Item::Object(o) => Some(o),
            _ => None,
        })
    }

    /// The values of the first setting called `name` (`version`, `blocks`), if any.
    pub fn setting(&self, name: &str) -> Option<&[Atom]> {
        self.items().find_map(|i| match i {
            Item::Other(g) if g.keyword == name && g.body.is_none() => Some(&g.args[..]),
            _ => None,
        })
    }

    /// The file's version: the `version` setting (`710`) when there is one, else the number
    /// after `WMP` in the first comment (`// WMP2` gives 2).
    pub fn version(&self) -> Option<i64> {
        if let Some([Atom::Word(v)]) = self.setting("version") {
            return v.parse().ok();
        }
        let first = self.statements.first()?.comments.first()?;
        let rest = first.trim_start().strip_prefix("WMP")?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    }
}

/// The single-byte symbols of WMP text.
pub(crate) const PUNCT: &[u8] = b"{}(),:;";

/// Bytes that are tokens of their own.
pub(crate) fn is_symbol(b: u8) -> bool {
    PUNCT.contains(&b)
}
