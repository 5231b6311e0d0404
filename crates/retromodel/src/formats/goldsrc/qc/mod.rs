//! Half-Life QC scripts (`studiomdl`'s input): decompiling a GoldSrc [`File`] to a QC with
//! its SMDs and 8-bit BMPs, reading and writing QC text, and compiling a QC back to a
//! GoldSrc file (MDL version 10).
//!
//! **Sources.** The Half-Life SDK (`ValveSoftware/halflife`): `utils/studiomdl/studiomdl.c`
//! (`ParseScript` and every `Cmd_*` / `Option_*`: the syntax, which tokens must share a line,
//! `$eyeposition`'s axes, the 90° turn of animation roots (`Grab_Animation`, `$origin`'s
//! rotation), `ExtractMotion`, texture coordinates (`TextureCoordRanges`,
//! `ResetTextureCoordRanges`)), `dlls/activity.h` and `dlls/activitymap.h` (activity names);
//! Crowbar's decompiled QCs as seen in the wild (layout: one command a line, a `$sequence`
//! block with its options one a line); read, not copied.
//!
//! **What a QC here is.**
//! - **Files**: `$cd` is the SMDs' folder and `$cdtexture` the BMPs', both relative to the
//!   QC; SMD names are written without `.smd`, as studiomdl appends it.
//! - **Axes**: studiomdl turns each animation's root bones by `$origin`'s angle + 90° about
//!   Z and subtracts `$origin`'s offset, and reads `$eyeposition x y z` as `(-y, x, z)`: the
//!   decompiler writes the animation SMDs' root bones turned back by 90° (the reference
//!   SMD's bind pose is written as stored, as studiomdl does not turn it) and the compiler
//!   turns them again. The SMD codec on its own (`convert x.mdl x.smd`) turns the same way,
//!   both writing and reading ([`crate::formats::smd`]).
//! - **Motion**: a sequence with `LX`/`LY`/`LZ` has its linear movement added back to the
//!   roots of its animation SMD (decompiling) and taken out again (`ExtractMotion`).
//! - **Commands** read: `$modelname $cd $cdtexture $scale $origin $eyeposition $flags $bbox
//!   $cbox $body $bodygroup $texturegroup $texrendermode $sequence $sequencegroupsize
//!   $externaltextures $hbox $attachment $controller`; any other `$` command (`$renamebone`,
//!   `$mirrorbone`, `$pivot`, ...) is an error naming its line and column.
//! - **Compiling** lays the file out in studiomdl's order. `$externaltextures` puts the
//!   textures and skin families in `STEMT.mdl` beside the model, `$sequencegroupsize N` (KB)
//!   the later sequences' animations in `STEM01.mdl`, `STEM02.mdl` ..., through the GoldSrc
//!   writer's own functions (the `side_files` module, as `--external-textures` and
//!   `--sequence-group-size` do); [`Compiled::side_files`] names them after `$modelname`, and
//!   `convert x.qc y.mdl` after its output. Texture indices and palettes come from the BMPs
//!   unchanged.
//! - **Decompiling** a model that came with a texture file writes `$externaltextures`, and
//!   one that came with sequence groups `$sequencegroupsize` as large as its largest group
//!   (whole kilobytes), so the QC compiles to side files again (groups laid out by the split
//!   above, not necessarily the original's).

mod codec;
mod compile;
mod decompile;
mod text;

pub use codec::{decompile_bytes, QcCodec, QcFile, CODEC, QC};

pub use compile::{compile, compile_decompiled, Compiled};
pub use decompile::{decompile, Decompiled};

/// Format name used in errors (`qc: ... at line L:C`).
pub const FORMAT: &str = "qc";

/// A file named in the QC, with where (line, column) for errors about it; two are equal when
/// their names are.
#[derive(Debug, Clone, Default)]
pub struct FileRef {
    /// The name as written (an SMD without `.smd`, a BMP with its extension).
    pub name: String,
    /// Line and column of the name in the QC it was read from.
    pub at: Option<(u32, u32)>,
}

impl PartialEq for FileRef {
    fn eq(&self, other: &FileRef) -> bool {
        self.name == other.name
    }
}

impl FileRef {
    /// A name with no place.
    pub fn new(name: impl Into<String>) -> FileRef {
        FileRef {
            name: name.into(),
            at: None,
        }
    }
}

/// `$bodygroup name { studio "smd" ... blank }` (`$body name smd` reads as one with one
/// sub-model): a body part and its sub-models, `None` a `blank` one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BodyGroup {
    /// The body part's name.
    pub name: String,
    /// The sub-models: a reference SMD, or `None` for `blank`.
    pub models: Vec<Option<FileRef>>,
}

/// `$texturegroup name { { "a.bmp" ... } { "b.bmp" ... } }`: skin families, the first row
/// the textures the meshes use, each later row what replaces them in that family.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextureGroup {
    /// The group's name.
    pub name: String,
    /// Rows of texture names.
    pub skins: Vec<Vec<String>>,
}

/// `$hbox group "bone" minx miny minz maxx maxy maxz`: a hit box in its bone's space.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HitBox {
    /// Hit group.
    pub group: i32,
    /// Bone name.
    pub bone: String,
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
}

/// `$attachment index "bone" x y z`: a point in its bone's space.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Attachment {
    /// The attachment's number.
    pub index: i32,
    /// Bone name.
    pub bone: String,
    /// The point.
    pub org: [f32; 3],
}

/// `$controller index "bone" TYPE start end` (`index` may be `mouth`, 4).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Controller {
    /// Controller index (4 is the mouth).
    pub index: i32,
    /// Bone name.
    pub bone: String,
    /// Motion type bits (`STUDIO_XR` ...; `STUDIO_RLOOP` is added by the compiler).
    pub kind: i32,
    /// Start value.
    pub start: f32,
    /// End value.
    pub end: f32,
}

/// `{ event N frame "options" }` in a `$sequence`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Event {
    /// Event number.
    pub event: i32,
    /// Frame.
    pub frame: i32,
    /// Options text, if any.
    pub options: Option<String>,
}

/// `$sequence name { ... }`: one sequence.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sequence {
    /// The sequence's name.
    pub name: String,
    /// The animation SMDs, one per blend.
    pub files: Vec<FileRef>,
    /// Frames per second (`fps`; studiomdl's default 30).
    pub fps: Option<f32>,
    /// `loop`.
    pub looping: bool,
    /// `frame start end`: the SMD frames used.
    pub frames: Option<(i32, i32)>,
    /// Activity number and weight (`ACT_IDLE 1`).
    pub activity: Option<(i32, i32)>,
    /// Motion type bits (`X`, `LX`, ...).
    pub motion: i32,
    /// `blend TYPE start end`.
    pub blend: Option<(i32, f32, f32)>,
    /// Entry node, exit node and whether reversed (`node`, `transition`, `rtransition`).
    pub nodes: Option<(i32, i32, bool)>,
    /// Events.
    pub events: Vec<Event>,
}

/// A QC script: the commands this module reads, each with its arguments.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Qc {
    /// `$modelname`.
    pub model_name: Option<String>,
    /// `$cd`: the SMDs' folder, relative to the QC.
    pub cd: Option<String>,
    /// `$cdtexture`: the BMPs' folder, relative to the QC.
    pub cd_texture: Option<String>,
    /// `$scale`.
    pub scale: Option<f32>,
    /// `$origin x y z [angle]`.
    pub origin: Option<([f32; 3], Option<f32>)>,
    /// `$eyeposition` as written (studiomdl stores `(-y, x, z)`).
    pub eye_position: Option<[f32; 3]>,
    /// `$flags`.
    pub flags: Option<i32>,
    /// `$bbox`: the header's `min`/`max` (studiomdl's `WriteFile`).
    pub bbox: Option<[[f32; 3]; 2]>,
    /// `$cbox`: the header's `bbmin`/`bbmax`.
    pub cbox: Option<[[f32; 3]; 2]>,
    /// `$externaltextures`.
    pub external_textures: bool,
    /// `$sequencegroupsize` in kilobytes.
    pub sequence_group_size: Option<i32>,
    /// `$body` and `$bodygroup`, in order.
    pub body_groups: Vec<BodyGroup>,
    /// `$texturegroup`.
    pub texture_groups: Vec<TextureGroup>,
    /// `$texrendermode texture mode`: mode names of [`RENDER_MODES`].
    pub render_modes: Vec<(String, String)>,
    /// `$hbox`.
    pub hitboxes: Vec<HitBox>,
    /// `$attachment`.
    pub attachments: Vec<Attachment>,
    /// `$controller`.
    pub controllers: Vec<Controller>,
    /// `$sequence`.
    pub sequences: Vec<Sequence>,
}

/// `$texrendermode` names and the texture flags they set.
pub const RENDER_MODES: &[(&str, i32)] = &[
    ("flatshade", super::NF_FLATSHADE),
    ("chrome", super::NF_CHROME),
    ("fullbright", super::NF_FULLBRIGHT),
    ("nomips", super::NF_NOMIPS),
    ("alpha", super::NF_ALPHA),
    ("additive", super::NF_ADDITIVE),
    ("masked", super::NF_MASKED),
];

/// The flags studiomdl gives a texture by its name alone (`lookup_texture`: a name holding
/// `chrome` is `FLATSHADE | CHROME`); the SDK's `$texrendermode` takes only `masked` and
/// `additive`, so a decompiled QC leaves these to the name.
pub fn flags_of_name(name: &str) -> i32 {
    if name.to_ascii_lowercase().contains("chrome") {
        super::NF_FLATSHADE | super::NF_CHROME
    } else {
        0
    }
}

/// studiomdl's motion and controller types (`lookupControl`) and their bits.
pub const CONTROLS: &[(&str, i32)] = &[
    ("X", 0x1),
    ("Y", 0x2),
    ("Z", 0x4),
    ("XR", 0x8),
    ("YR", 0x10),
    ("ZR", 0x20),
    ("LX", 0x40),
    ("LY", 0x80),
    ("LZ", 0x100),
    ("AX", 0x200),
    ("AY", 0x400),
    ("AZ", 0x800),
    ("AXR", 0x1000),
    ("AYR", 0x2000),
    ("AZR", 0x4000),
];

/// `STUDIO_RLOOP`: a rotation controller that wraps.
pub const RLOOP: i32 = 0x8000;

/// The activities of `dlls/activity.h`: name `i` is number `i + 1`.
pub const ACTIVITIES: &[&str] = &[
    "ACT_IDLE",
    "ACT_GUARD",
    "ACT_WALK",
    "ACT_RUN",
    "ACT_FLY",
    "ACT_SWIM",
    "ACT_HOP",
    "ACT_LEAP",
    "ACT_FALL",
    "ACT_LAND",
    "ACT_STRAFE_LEFT",
    "ACT_STRAFE_RIGHT",
    "ACT_ROLL_LEFT",
    "ACT_ROLL_RIGHT",
    "ACT_TURN_LEFT",
    "ACT_TURN_RIGHT",
    "ACT_CROUCH",
    "ACT_CROUCHIDLE",
    "ACT_STAND",
    "ACT_USE",
    "ACT_SIGNAL1",
    "ACT_SIGNAL2",
    "ACT_SIGNAL3",
    "ACT_TWITCH",
    "ACT_COWER",
    "ACT_SMALL_FLINCH",
    "ACT_BIG_FLINCH",
    "ACT_RANGE_ATTACK1",
    "ACT_RANGE_ATTACK2",
    "ACT_MELEE_ATTACK1",
    "ACT_MELEE_ATTACK2",
    "ACT_RELOAD",
    "ACT_ARM",
    "ACT_DISARM",
    "ACT_EAT",
    "ACT_DIESIMPLE",
    "ACT_DIEBACKWARD",
    "ACT_DIEFORWARD",
    "ACT_DIEVIOLENT",
    "ACT_BARNACLE_HIT",
    "ACT_BARNACLE_PULL",
    "ACT_BARNACLE_CHOMP",
    "ACT_BARNACLE_CHEW",
    "ACT_SLEEP",
    "ACT_INSPECT_FLOOR",
    "ACT_INSPECT_WALL",
    "ACT_IDLE_ANGRY",
    "ACT_WALK_HURT",
    "ACT_RUN_HURT",
    "ACT_HOVER",
    "ACT_GLIDE",
    "ACT_FLY_LEFT",
    "ACT_FLY_RIGHT",
    "ACT_DETECT_SCENT",
    "ACT_SNIFF",
    "ACT_BITE",
    "ACT_THREAT_DISPLAY",
    "ACT_FEAR_DISPLAY",
    "ACT_EXCITED",
    "ACT_SPECIAL_ATTACK1",
    "ACT_SPECIAL_ATTACK2",
    "ACT_COMBAT_IDLE",
    "ACT_WALK_SCARED",
    "ACT_RUN_SCARED",
    "ACT_VICTORY_DANCE",
    "ACT_DIE_HEADSHOT",
    "ACT_DIE_CHESTSHOT",
    "ACT_DIE_GUTSHOT",
    "ACT_DIE_BACKSHOT",
    "ACT_FLINCH_HEAD",
    "ACT_FLINCH_CHEST",
    "ACT_FLINCH_STOMACH",
    "ACT_FLINCH_LEFTARM",
    "ACT_FLINCH_RIGHTARM",
    "ACT_FLINCH_LEFTLEG",
    "ACT_FLINCH_RIGHTLEG",
];

/// The number of activity `name` (`ACT_IDLE`, or `ACT_12` for a number), as
/// `lookupActivity`; `None` when it is none.
pub fn activity_number(name: &str) -> Option<i32> {
    if let Some(i) = ACTIVITIES.iter().position(|a| a.eq_ignore_ascii_case(name)) {
        return Some(i as i32 + 1);
    }
    let rest = name
        .get(..4)?
        .eq_ignore_ascii_case("ACT_")
        .then(|| &name[4..])?;
    rest.parse().ok()
}

/// The name of activity `n` (`ACT_n` when unnamed).
pub fn activity_name(n: i32) -> String {
    match n
        .checked_sub(1)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| ACTIVITIES.get(i))
    {
        Some(a) => a.to_string(),
        None => format!("ACT_{n}"),
    }
}

/// The bits of control name `name` (`X` .. `AZR`), case-insensitive.
pub fn control_bits(name: &str) -> Option<i32> {
    CONTROLS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, b)| b)
}

/// The control names of `bits`, in table order.
pub fn control_names(bits: i32) -> Vec<&'static str> {
    CONTROLS
        .iter()
        .filter(|(_, b)| bits & b != 0)
        .map(|&(n, _)| n)
        .collect()
}

use super::File;
