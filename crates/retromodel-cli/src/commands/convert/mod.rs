//! `retromodel convert`: write a model in another (or the same) format, one file or a whole
//! folder tree.
//!
//! Every conversion is planned first (all output files in memory, notes collected), then
//! committed: nothing is written if any output is in the way, and each file goes through a
//! temporary file renamed into place. Batches run the same plan per file in parallel.

mod batch;
mod native;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use retromodel::front::{OpenOptions, Opener};
use retromodel::options::{ClipSplit, Compress, Filter, Frames, Rotation};
use retromodel::registry;

use crate::files;
use crate::SideFileArgs;

/// Convert models between every format retromodel writes (listed below, from the registry:
/// Quake MDL, MD2, MD3, 3D GameStudio MDL, MD5, IQM, glTF 2.0, OBJ). The output's extension
/// picks the format; a folder converts its whole tree.
///
/// With the same format the output is the input byte for byte (MD5: value for value);
/// --skin replaces skin 0 and keeps the rest (as `skins import`), --scale, --rotate and
/// --fit-height rebuild the file from its Model.
/// Otherwise the model goes through the format-neutral Model, fitted to the target first:
/// each clip plays as long as in the source (skeletal animations baked and clips resampled
/// at 10 frames a second for MDL, MD2, MD3 and GameStudio MDL, or --fps; Quake MDL keeps
/// frame groups), frame names unique per clip within 16 bytes (-v maps them), several
/// textures packed into one skin for MDL and MD2, skins over 480 texels high resampled
/// (--keep-skin-size keeps them), meshes over ioquake3's 999 vertices split for MD3, a
/// Cube 2 md5.cfg's size and speeds applied (--no-model-config), glTF/OBJ in metres scaled
/// to game units. Then:
/// - MD2/MDL: every frame is requantised (the largest position error per frame is
///   reported), MD2 gets generated GL commands and its skins as PCX files beside it
///   (OUTPUT_STEM_skinN.pcx) unless --skin-path gives the paths to store; MDL gets on-seam
///   vertices and skins converted to the palette.
/// - glTF: the first pose as the mesh, every other pose as a morph target, one animation per
///   clip; MD5 skeletons as joints and a skin, one animation per .md5anim beside the mesh
///   that fits (or each --anim), the md5camera path as a camera; skins as PNG textures.
///   .gltf writes OUTPUT_STEM.bin and PNG files beside it unless --embed. --quantize
///   writes 8- and 16-bit vertex data (KHR_mesh_quantization) within the source's
///   precision; --compress adds meshopt compression (EXT_meshopt_compression).
/// - MD3: one surface per mesh, every frame requantised to 1/64 unit (the error reported),
///   tags from nodes named tag_*, shader names from the skins' paths.
/// - OBJ: one pose (--frame N), a .mtl and PNG skins beside it.
///
/// glTF (.glb, .gltf) and OBJ inputs are imported: meshes merged for MDL/MD2, each glTF
/// animation a clip (poses this tool exported come back exactly; other animations are
/// sampled at --fps, default 10), the base-colour PNG (or --skin) as the skin; for .md5mesh
/// the glTF skin is the skeleton and each animation an .md5anim beside the output. MD5
/// models written as MDL/MD2 get their animations (beside the mesh, or --anim) baked into
/// frames.
///
/// Outputs go to a temporary file renamed into place; an existing file (the input included)
/// is only replaced with --force, and nothing is written if any output is in the way.
///
/// A Quake 3 player folder as INPUT (lower.md3, upper.md3 and head.md3, with
/// animation.cfg) is assembled into one model: upper on lower's tag_torso, head on upper's
/// tag_head (--weapon FILE on tag_weapon), one clip per animation.cfg entry (the part an
/// entry does not drive holds LEGS_IDLE's or TORSO_STAND's first frame), the skin
/// --skin-name picks (default, red, blue).
///
/// A folder as INPUT converts every model under it into OUTPUT (a folder) in parallel,
/// keeping the tree: --to picks the format (with --to mdl or md2 the tree's .glb, .gltf and
/// .obj files are imported too). Files that fail are reported and the others go
/// on; outputs that exist are kept unless --force; the exit status is 1 if any file failed.
///
/// Examples:
///   retromodel convert progs/player.mdl player.md2
///   retromodel convert progs/player.mdl player.glb --clip-split names
///   retromodel convert tris.md2 tris.glb --quantize -v
///   retromodel convert tris.md2 tris.glb --compress
///   retromodel convert models/monsters/imp.md5mesh imp.glb --anim walk1.md5anim
///   retromodel convert progs/player.mdl player.obj --frame 12
///   retromodel convert tank.md2 tank.mdl --game-dir baseq2
///   retromodel convert progs/ogre.mdl ogre_a6.mdl --mdl gs5
///   retromodel convert knight.glb knight.mdl --fps 20 --skin skin.png --dither
///   retromodel convert rig.glb rig.md5mesh
///   retromodel convert imp.md5mesh imp.md2
///   retromodel convert hud_hands.md5mesh hands.mdl --qc -v
///   retromodel convert progs/ogre.mdl ogre_hl.mdl --mdl goldsrc --bones 20 -v
///   retromodel convert knight.glb knight.mdl --fit-height 56 --rotate 90
///   retromodel convert progs/ogre.mdl ogre.mdl --skin red_ogre.png
///   retromodel convert id1/progs/ out/ --to glb
///   retromodel convert models/players/sarge/ sarge.glb --skin-name red
#[derive(clap::Args, Clone)]
#[command(
    verbatim_doc_comment,
    about = "Convert a model to another format (the output's extension picks it), one file or a whole tree"
)]
pub struct Args {
    /// The model to read (any format `info` knows, or .glb .gltf .obj), or a folder to
    /// convert as a whole.
    input: PathBuf,
    /// The file to write (its extension picks the format: .glb .gltf .obj or a model
    /// format's, see `--to`), or the output folder of a batch.
    output: PathBuf,
    /// Batch output format (required when INPUT is a folder).
    #[arg(long, value_name = "EXT", long_help = to_help())]
    to: Option<String>,
    /// Replace outputs (and files written beside them) that exist, even the input.
    #[arg(long)]
    force: bool,
    /// Fail instead of warning when the result exceeds the target engine's limits
    /// (MD2: 2048 vertices, 4096 triangles, 512 frames, 32 skins; MDL: QuakeSpasm's; MD3:
    /// ioquake3's 999 vertices and 1999 triangles a surface, 1024 frames, 32 surfaces).
    #[arg(long)]
    strict: bool,
    /// Skin path to store in an MD2 (repeat for several skins); no PCX files are written.
    #[arg(long, value_name = "PATH")]
    skin_path: Vec<String>,
    /// Let skins converted to the Quake palette (MDL output) use the fullbright indices
    /// 224..255.
    #[arg(long)]
    fullbrights: bool,
    /// A 768-byte palette (palette.lmp layout) that written 8-bit skins use: the MDL's skins,
    /// or the PCX skins written beside an MD2 (Quake 2's palette, for Quake 2). Default: the
    /// built-in Quake palette for MDL; the model's own palette for PCX.
    #[arg(long, value_name = "FILE")]
    target_palette: Option<PathBuf>,
    /// .mdl output: which MDL to write (quake: Quake IDPO; gs3, gs4, gs5: 3D GameStudio).
    /// Default: the input's own MDL kind, Quake MDL for other inputs.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(variants("mdl")))]
    mdl: Option<String>,
    /// OBJ output: the frame to write (default 0; the bind pose for skeletal models).
    #[arg(long, default_value_t = 0)]
    frame: usize,
    /// Frames per second: of glTF clips made from frame names (default: the model's, 10 for
    /// Quake's frame names); of the keyframes sampled from glTF animations; the rate clips
    /// are resampled to and skeletal animations baked at for MDL, MD2, MD3 and GameStudio
    /// MDL (default 10, the rate their games step frames at).
    #[arg(long)]
    fps: Option<f32>,
    /// glTF: one animation per named clip (names), per frame group (groups), or one for all
    /// frames (none).
    #[arg(long, value_parser = word_parser(&ClipSplit::WORDS), default_value = "names")]
    clip_split: ClipSplit,
    /// glTF: every pose as a morph target (all) or the first pose only (first).
    #[arg(long, value_parser = word_parser(&Frames::WORDS), default_value = "all")]
    frames: Frames,
    /// glTF: texture filtering, nearest (the look of the engines) or linear.
    #[arg(long, value_parser = word_parser(&Filter::WORDS), default_value = "nearest")]
    filter: Filter,
    /// glTF from an md5mesh: an .md5anim to include (repeat); default: every .md5anim beside
    /// the mesh whose joints fit it.
    #[arg(long, value_name = "FILE")]
    anim: Vec<PathBuf>,
    /// .gltf output: embed the buffer and images as data URIs instead of side-car files.
    #[arg(long)]
    embed: bool,
    /// glTF: quantised vertex data (KHR_mesh_quantization, required by the file): positions
    /// on the source's own grid (the node transform dequantises; -v prints the largest
    /// error), normals and texture coordinates as 16-bit integers, morph targets as
    /// bytes or shorts, sparse where few vertices move. Several times smaller; Blender and
    /// three.js read it, Assimp 5.2 and Godot 4 do not (see the README).
    #[arg(long, overrides_with = "no_quantize")]
    quantize: bool,
    /// glTF: float vertex data, read everywhere (the default).
    #[arg(long, overrides_with = "quantize")]
    no_quantize: bool,
    /// glTF: meshopt-compressed buffer views on top of --quantize (which it implies):
    /// vertex and animation data through meshopt's vertex codec, triangles through its
    /// triangle codec, base normals octahedral-filtered (the fewest bits within 0.01 radian),
    /// vertices welded and reordered for the codecs. --compress
    /// (or --compress=ext) writes EXT_meshopt_compression, which three.js, Babylon.js
    /// and gltfpack read; --compress=khr writes KHR_meshopt_compression. The
    /// file requires the extension (no uncompressed fallback data).
    #[arg(
        long,
        value_name = "ext|khr",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "ext",
        default_value = "none",
        value_parser = word_parser(&Compress::WORDS)
    )]
    compress: Compress,
    /// A picture (PNG or PCX) to use as the only skin, instead of the input's skins or
    /// textures (glTF and OBJ textures are then not decoded). With the same format as the
    /// input: replaces skin 0 and keeps everything else (as `skins import`).
    #[arg(long, value_name = "IMAGE")]
    skin: Option<PathBuf>,
    /// MDL/MD2 skins: Floyd-Steinberg dithering when matching colours to the palette.
    #[arg(long)]
    dither: bool,
    /// Print the position error of every frame (glTF with --quantize: of every mesh, and
    /// the file's largest).
    #[arg(short, long)]
    verbose: bool,
    /// Scale the model by this factor (before writing; every target). A glTF or OBJ model
    /// in metres (under 4 units tall) is otherwise scaled to the target's units: 32 a metre
    /// for Quake MDL, MD2, MD3 and 3D GameStudio MDL, 40 for MD5; `--scale 1` keeps it.
    #[arg(
        long,
        value_name = "FACTOR",
        conflicts_with = "fit_height",
        allow_hyphen_values = true
    )]
    scale: Option<f32>,
    /// Turn the model: yaw in degrees about the up axis (counter-clockwise seen from
    /// above), optionally pitch (nose up) and roll, as YAW[,PITCH[,ROLL]]. Applied before
    /// --scale and --fit-height.
    #[arg(long, value_name = "YAW[,PITCH[,ROLL]]", allow_hyphen_values = true)]
    rotate: Option<Rotation>,
    /// Scale the model so that it is UNITS tall (its height over every frame).
    #[arg(long, value_name = "UNITS", allow_hyphen_values = true)]
    fit_height: Option<f32>,
    /// Keep skins larger than the target's engines take (Quake MDL and MD2: 480 texels
    /// high) as they are, with a warning, instead of resampling them to fit.
    #[arg(long)]
    keep_skin_size: bool,
    /// Quake MDL output: write the QuakeC `$frame` list (one line per clip) beside the
    /// model as OUTPUT_STEM.qc.
    #[arg(long)]
    qc: bool,
    /// Write the re-release layout: the .md2 (Quake II) or .mdl (Quake) OUTPUT, and beside it
    /// the MD5 replacement the re-release's engine pairs with it (for Quake II
    /// md5/OUTPUT_STEM.md5mesh, .md5anim and .md5scale where joints scale; for Quake
    /// OUTPUT_STEM.md5mesh and .md5anim), one .md5anim frame per classic frame. The input
    /// must be skeletal (glTF with a skin, MD5, IQM).
    #[arg(long)]
    rerelease: bool,
    /// At most N joints in the written model. A skeletal model with more has its least
    /// important joints (fewest, lightest-weighted vertices; leaves first) merged into their
    /// parents, the vertices following the surviving ancestor; a keyframe model written to a
    /// skeletal format (Half-Life MDL, MD5, IQM, glTF) gets N rigid bones fitted to its
    /// vertex motion instead of one joint per vertex. The shape error of each frame is
    /// reported as quantisation error is (-v lists it). Half-Life MDL takes at most 128
    /// (MAXSTUDIOBONES): without --bones a skeletal model with more is an error.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    bones: Option<u32>,
    /// Half-Life MDL output: the textures and skin families in OUTPUT_STEMT.mdl beside the
    /// model, which then has none (studiomdl's $externaltextures; the game loads the pair).
    #[arg(long)]
    external_textures: bool,
    /// Half-Life MDL output: at most KB kilobytes of animation values in one sequence group
    /// (studiomdl's $sequencegroupsize): the sequences past the model's own group go into
    /// OUTPUT_STEM01.mdl, OUTPUT_STEM02.mdl ... (IDSQ files the game loads on demand).
    #[arg(long, value_name = "KB", value_parser = clap::value_parser!(u32).range(1..))]
    sequence_group_size: Option<u32>,
    /// Quake 3 player folder as INPUT: a weapon model (.md3) to attach on tag_weapon.
    #[arg(long, value_name = "FILE")]
    weapon: Option<PathBuf>,
    #[command(flatten)]
    side: SideFileArgs,
}

/// The writer variants for an extension (`quake`, `gs3`, ... for `mdl`).
fn variants(ext: &str) -> Vec<&'static str> {
    registry::writers()
        .filter(|w| w.format.extensions().first() == Some(&ext) && !w.variant.is_empty())
        .map(|w| w.variant)
        .collect()
}

/// `--to`'s help: the batch output formats.
fn to_help() -> String {
    format!(
        "Batch output format: {} (required when INPUT is a folder). Formats written from a \
         Model take the input's own format when it is one of them.",
        batch::formats().join(", ")
    )
}

/// A conversion ready to be written: every output file with its bytes (the main output last)
/// and what the conversion noticed.
#[derive(Debug, Default)]
struct Plan {
    files: Vec<(PathBuf, Vec<u8>)>,
    notes: Vec<String>,
    /// The closing line (`IN -> OUT (...)`).
    summary: String,
}

impl Plan {
    /// Writes every file ([`retromodel::front::commit`]); fails before writing anything if
    /// one of them exists (unless `force`).
    fn commit(&self, force: bool) -> Result<()> {
        Ok(retromodel::front::commit(&self.files, force)?)
    }

    /// Bytes of all outputs.
    fn bytes(&self) -> usize {
        self.files.iter().map(|(_, b)| b.len()).sum()
    }
}

/// A clap parser for one word of `table` (the library's `FromStr` words).
fn word_parser<T: Copy + Send + Sync + 'static>(
    table: &'static [(&'static str, T)],
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(table.iter().map(|(w, _)| *w)).map(move |w| {
        table
            .iter()
            .find(|(x, _)| *x == w)
            .map(|(_, v)| *v)
            .unwrap_or(table[0].1)
    })
}

/// The front door's options for opening the input of `args`.
fn open_options(args: &Args) -> OpenOptions {
    OpenOptions {
        anims: args.anim.clone(),
        // Interchange inputs: animations sampled at --fps; textures left undecoded when
        // --skin replaces them.
        fps: args.fps,
        skip_textures: args.skin.is_some(),
        weapon: args.weapon.clone(),
        ..args.side.open_options()
    }
}

/// Plans the conversion of `input` (a model file or a Quake 3 player folder) to `output`.
fn plan(args: &Args, opener: &Opener<'_>, input: &Path, output: &Path) -> Result<Plan> {
    let opened = opener
        .open(input)
        .with_context(|| input.display().to_string())?;
    native::plan(args, &opened, output)
}

/// The one classic model of folder `dir` that has a re-release replacement beside it (an MD2
/// with `md5/STEM.md5mesh`, an MDL with `STEM.md5mesh`), if there is exactly one.
fn rerelease_classic_in(dir: &Path) -> Option<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let p = entry.path();
        let (Some(stem), Some(ext)) = (p.file_stem(), p.extension()) else {
            continue;
        };
        let stem = stem.to_string_lossy();
        let mesh = match ext.to_ascii_lowercase().to_str() {
            Some("md2") => dir.join("md5").join(format!("{stem}.md5mesh")),
            Some("mdl") => dir.join(format!("{stem}.md5mesh")),
            _ => continue,
        };
        if p.is_file() && mesh.is_file() {
            found.push(p);
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// Runs the command.
pub fn run(mut args: Args) -> Result<ExitCode> {
    files::set_ignore_case(args.side.ignore_case);
    let player =
        args.to.is_none() && retromodel::front::is_player_dir(files::archives(), &args.input);
    // A folder holding one classic model with its re-release MD5 (models/monsters/infantry/
    // with tris.md2 and md5/tris.md5mesh) converted to one file: that model, --prefer md5.
    if !player && args.to.is_none() && args.input.is_dir() {
        if let Some(classic) = rerelease_classic_in(&args.input) {
            eprintln!(
                "{}: the re-release pair of {} (as --prefer md5)",
                args.input.display(),
                classic.display()
            );
            args.input = classic;
            args.side.prefer = Some("md5".into());
        }
    }
    let opener = args.side.opener(open_options(&args))?;
    if files::is_tree(&args.input) && !player {
        return batch::run(&args, &opener);
    }
    if let Some(to) = &args.to {
        bail!(
            "--to {to} is for converting a folder; for one file the output's extension picks \
             the format"
        );
    }
    let plan = plan(&args, &opener, &args.input, &args.output)?;
    for n in &plan.notes {
        eprintln!("{n}");
    }
    plan.commit(args.force)?;
    eprintln!("{}", plan.summary);
    Ok(ExitCode::SUCCESS)
}
