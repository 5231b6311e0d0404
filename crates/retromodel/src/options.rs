//! Options shared by the converters (file to [`crate::model::Model`]).

use crate::image::Palette;

/// How a texture coordinate's `onseam` word is read; the engines disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SeamRule {
    /// Any non-zero value is on the seam (GLQuake, QuakeSpasm, FTEQW). The default.
    #[default]
    NonZero,
    /// Only bit `0x20` counts (software Quake).
    Bit0x20,
}

/// Options for converting a file to a [`crate::model::Model`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertOptions {
    /// Palette for 8-bit skins; `None` asks the resolver for the format's palette file
    /// (`gfx/palette.lmp` for Quake), then falls back to the built-in Quake palette.
    pub palette: Option<Palette>,
    /// Playback rate of clips made from frame names (Quake's game code steps at 10 Hz).
    pub fps: f32,
    /// How `onseam` is read.
    pub seam_rule: SeamRule,
    /// Which skin of a model with skin files to use (Quake 3 `.skin`: `default`, `red`,
    /// `blue`); `None` for the default one.
    pub skin_name: Option<String>,
    /// Prefer true-colour replacements of stored skin pictures (Quake 2: `skin.tga`,
    /// `.png` or `.jpg` beside a stored `skin.pcx`, as source ports load them) over the
    /// stored picture; without it a replacement is only used when the stored picture is
    /// missing.
    pub prefer_replacements: bool,
    /// Sampling rate, in frames per second, of animations imported from interchange files
    /// (glTF); `None` keeps whole-pose keys as they are and samples the rest at 10 (keyframe
    /// clips) or 24 (skeletal animations).
    pub sample_fps: Option<f32>,
    /// Skip decoding the textures of interchange files (glTF, OBJ): the caller brings its
    /// own skin.
    pub skip_textures: bool,
    /// Apply what a model configuration beside the file says, as its engine shows the
    /// model: a Cube 2 `md5.cfg` (or other `.cfg` that `md5load`s the mesh) scales, turns and
    /// moves an md5mesh (`mdlscale`, `mdlyaw`, `mdlpitch`, `mdlroll`, `mdltrans`) and sets
    /// its animations' speeds (`md5anim NAME FILE SPEED`). Off here (the file as stored); the
    /// front door ([`crate::front::OpenOptions`]) turns it on for every front end.
    pub model_config: bool,
    /// Show a classic model's re-release MD5 replacement in its place when the engine would
    /// use it (`--prefer md5`): an MD2's `md5/NAME.md5mesh` + `.md5anim` (+ `.md5scale`), a
    /// Quake MDL's `NAME.md5mesh` + `.md5anim` ([`crate::rerelease`]). Off by default.
    pub prefer_md5: bool,
    /// The body value of a model of body parts (Half-Life): part `p` shows its sub-model
    /// `(body / base) % count`; 0 shows the first sub-model of each part.
    pub body: u32,
    /// The skin family of a model with several (Half-Life); 0 is the first.
    pub skin_family: usize,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            palette: None,
            fps: 10.0,
            seam_rule: SeamRule::NonZero,
            skin_name: None,
            prefer_replacements: false,
            sample_fps: None,
            skip_textures: false,
            model_config: false,
            prefer_md5: false,
            body: 0,
            skin_family: 0,
        }
    }
}

/// Which animations a keyframe model gets in glTF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClipSplit {
    /// The model's clips (frame-name runs and frame groups), one animation each; a model
    /// without clips gets one clip `all`.
    #[default]
    Names,
    /// Only the clips with stored frame times (Quake frame groups), plus one clip `all` of
    /// the frames outside them (when there are any).
    Groups,
    /// One clip `all` over every frame.
    None,
}

/// Which poses are exported to glTF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Frames {
    /// Every pose: morph targets, and all animations (morph, skeletal, camera).
    #[default]
    All,
    /// The base mesh only: no morph targets and no animations.
    First,
}

/// Texture filtering of the skins in glTF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    /// Nearest-neighbour (`NEAREST` for magnification and minification), as software Quake
    /// draws skins.
    #[default]
    Nearest,
    /// Smooth (`LINEAR` magnification, `LINEAR_MIPMAP_LINEAR` minification).
    Linear,
}

/// meshopt compression of a glTF's buffer views (the vertex and triangle codecs over the
/// quantised data, see `interchange::gltf`), under one of the extension's two names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compress {
    /// No compression.
    #[default]
    None,
    /// `EXT_meshopt_compression`, the vendor extension most readers know (three.js,
    /// Babylon.js, gltfpack `-cc`).
    Ext,
    /// `KHR_meshopt_compression`, its Khronos successor (the same bitstreams).
    Khr,
}

impl Compress {
    /// The words [`Compress`] is parsed from.
    pub const WORDS: [(&'static str, Compress); 3] = [
        ("none", Compress::None),
        ("ext", Compress::Ext),
        ("khr", Compress::Khr),
    ];

    /// The extension's name, `None` for [`Compress::None`].
    pub fn extension(self) -> Option<&'static str> {
        match self {
            Compress::None => None,
            Compress::Ext => Some("EXT_meshopt_compression"),
            Compress::Khr => Some("KHR_meshopt_compression"),
        }
    }
}

impl std::str::FromStr for Compress {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        parse_word(s, &Compress::WORDS)
    }
}

/// One word of a fixed set, parsed in one place for every front end (the command line's
/// `--clip-split`, Python's `clip_split=`, the web page): `FromStr` gives the error text
/// `"WORD" is not one of a, b, c`.
fn parse_word<T: Copy>(s: &str, table: &[(&str, T)]) -> Result<T, String> {
    table
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(s.trim()))
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let words: Vec<&str> = table.iter().map(|(w, _)| *w).collect();
            format!("{s:?} is not one of {}", words.join(", "))
        })
}

impl ClipSplit {
    /// The words [`ClipSplit`] is parsed from, in the order help texts list them.
    pub const WORDS: [(&'static str, ClipSplit); 3] = [
        ("names", ClipSplit::Names),
        ("groups", ClipSplit::Groups),
        ("none", ClipSplit::None),
    ];
}

impl std::str::FromStr for ClipSplit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        parse_word(s, &ClipSplit::WORDS)
    }
}

impl Frames {
    /// The words [`Frames`] is parsed from.
    pub const WORDS: [(&'static str, Frames); 2] = [("all", Frames::All), ("first", Frames::First)];
}

impl std::str::FromStr for Frames {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        parse_word(s, &Frames::WORDS)
    }
}

impl Filter {
    /// The words [`Filter`] is parsed from.
    pub const WORDS: [(&'static str, Filter); 2] =
        [("nearest", Filter::Nearest), ("linear", Filter::Linear)];
}

impl std::str::FromStr for Filter {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        parse_word(s, &Filter::WORDS)
    }
}

/// A turn of the model in degrees, `[yaw, pitch, roll]`, parsed from `YAW`, `YAW,PITCH` or
/// `YAW,PITCH,ROLL` (the command line's `--rotate`; Python passes the numbers).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rotation(pub [f32; 3]);

impl std::str::FromStr for Rotation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() > 3 {
            return Err(format!(
                "{s}: give YAW, YAW,PITCH or YAW,PITCH,ROLL in degrees"
            ));
        }
        let mut out = [0.0f32; 3];
        for (k, p) in parts.iter().enumerate() {
            out[k] = p
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{s}: \"{p}\" is not a number of degrees"))?;
        }
        Ok(Rotation(out))
    }
}

/// Options for writing a [`crate::model::Model`] in a file format.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WriteOptions {
    /// Exceeding an engine limit is an error instead of a warning.
    pub strict: bool,
    /// Skin paths to store (MD2); when not empty, exactly these instead of the model's skin
    /// names.
    pub skin_paths: Vec<String>,
    /// Palette that 8-bit skins are converted to (MDL); `None` is the built-in Quake palette.
    pub palette: Option<Palette>,
    /// Let converted skins use the fullbright indices 224..=255 (MDL). Off by default: a
    /// colour that only a fullbright index matches would glow in the dark.
    pub fullbrights: bool,
    /// Floyd–Steinberg dithering when skins are matched to the palette (MDL; see
    /// [`crate::image::IndexOptions::dither`]). Off by default: nearest colours.
    pub dither: bool,
    /// Frames per second at which skeletal animation is sampled into frames for keyframe
    /// formats (`registry::write_model`); `None`: whole-pose keys as they are, else
    /// each animation's own rate.
    pub fps: Option<f32>,
    /// The stem of files written beside the output (`STEM_skin0.pcx` beside an MD2);
    /// empty means `model`.
    pub stem: String,
    /// glTF: which animations a keyframe model gets.
    pub clip_split: ClipSplit,
    /// glTF: every pose, or the base mesh only.
    pub frames: Frames,
    /// glTF: texture filtering of the skins.
    pub filter: Filter,
    /// glTF: quantised vertex data (`KHR_mesh_quantization`; see `interchange::gltf`).
    pub quantize: bool,
    /// glTF: meshopt-compressed buffer views (implies [`WriteOptions::quantize`]).
    pub compress: Compress,
    /// `.gltf`: the buffer and images inside the JSON as `data:` URIs instead of files
    /// beside it (`STEM.bin`, `STEM_skin0.png`, ...).
    pub embed: bool,
    /// OBJ: the pose written (a frame index; the bind pose of a skeletal model).
    pub frame: usize,
    /// Where and how large the model lands in the target: scale, rotation, height.
    pub placement: Placement,
    /// Keep skins larger than the target's engines take (with a warning) instead of
    /// resampling them to fit.
    pub keep_skin_size: bool,
    /// Quake MDL: write the QuakeC `$frame` list beside the model (`STEM.qc`).
    pub qc: bool,
    /// Most joints the written model has (`--bones N`): a skeletal model with more has its
    /// least important joints merged into their parents ([`crate::model::merge_joints`]);
    /// a keyframe model written to a skeletal format (GoldSrc, MD5, IQM, glTF) gets N rigid
    /// bones fitted to its vertex motion ([`crate::model::fit_bones`]) instead of one joint
    /// per vertex. `None`: the target's own limit (GoldSrc's 128), which a skeletal model
    /// exceeding is an error.
    pub bones: Option<usize>,
    /// GoldSrc: the textures and skin families in `STEMT.mdl` beside the model
    /// (studiomdl's `$externaltextures`), the model without textures.
    pub external_textures: bool,
    /// GoldSrc: the most bytes of animation values in one sequence group (studiomdl's
    /// `$sequencegroupsize`, there in KB); sequences past the first group's go into
    /// `STEM01.mdl`, `STEM02.mdl` ... `None`: every sequence in the model.
    pub sequence_group_size: Option<usize>,
}

/// How a conversion moves and sizes the model (`convert --scale`, `--rotate`,
/// `--fit-height`), applied before anything else: rotation, then scale (or the scale that
/// makes the height `fit_height`). A model in metres (`metres`) is scaled to the target's
/// units when neither a scale nor a height is given.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Placement {
    /// Uniform scale.
    pub scale: Option<f32>,
    /// Yaw, pitch and roll in degrees (see `model::transform::Similarity::rotation_degrees`).
    pub rotate: [f32; 3],
    /// Scale the model so that its height (Z extent over every frame) is this many units.
    pub fit_height: Option<f32>,
    /// The model is in metres (a glTF or OBJ file made outside the Quake family): scaled by
    /// the target's units per metre unless `scale` or `fit_height` is given.
    pub metres: bool,
}

impl WriteOptions {
    /// [`WriteOptions::stem`], or `model` when empty.
    pub fn side_file_stem(&self) -> &str {
        if self.stem.is_empty() {
            "model"
        } else {
            &self.stem
        }
    }
}

/// A file built from a [`crate::model::Model`], and what the writer noticed.
#[derive(Debug, Clone, PartialEq)]
pub struct Written<T> {
    /// The file, ready for `write()`.
    pub file: T,
    /// Lossy or risky steps (quantisation error, engine limits, skins left out).
    pub warnings: Vec<String>,
    /// Largest position error of each written frame after quantisation, in model units.
    pub frame_errors: Vec<f32>,
}
