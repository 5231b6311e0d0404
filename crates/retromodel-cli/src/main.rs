//! `retromodel`: inspect, validate, convert and extract classic game models.

/// `println!` that ends the process quietly when stdout is closed (`retromodel info | head`)
/// instead of panicking, and with status 1 on any other write error (a full disk must not
/// look like success).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("retromodel: cannot write to standard output: {e}");
            std::process::exit(1);
        }
    }};
}

mod commands;
mod files;

/// mimalloc instead of the system allocator: a batch load or conversion allocates and frees
/// morph-target buffers of megabytes per model, which glibc hands back to the system on each
/// free and faults in again on the next (measured: 40% of `bench` on the Quake MDL corpus
/// went to page faults; 1.6x faster with the memory kept).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// `Parser` gives `Cli::command()` through `CommandFactory`.

/// Read, validate, convert, render and view classic game models (`retromodel formats` lists
/// every format, from the library's registry).
///
/// Paths may be files, directories or archives (.pak .pk3 .pk4 .zip); directories are
/// searched recursively for model files. A bad file is reported and the others
/// are still processed; the exit status is 1 if any file failed.
#[derive(Parser)]
#[command(name = "retromodel", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
// Parsed once per run: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
enum Command {
    Info(commands::info::Args),
    Formats(commands::formats::Args),
    Ls(commands::ls::Args),
    Validate(commands::validate::Args),
    Convert(commands::convert::Args),
    #[command(subcommand)]
    Skins(commands::skins::Command),
    Bench(commands::bench::Args),
    Sample(commands::sample::Args),
    #[cfg(feature = "render")]
    Render(commands::render::Args),
    #[cfg(feature = "viewer")]
    View(commands::view::Args),
    Web(commands::web::Args),
}

/// Where side files (palettes, MD2 skins) come from; every command that decodes skins
/// accepts these.
#[derive(clap::Args, Clone, Default)]
pub struct SideFileArgs {
    /// A 768-byte palette.lmp to use for 8-bit skins instead of the one found beside the
    /// model (gfx/palette.lmp in a parent folder) or the built-in Quake palette.
    #[arg(long, value_name = "FILE")]
    palette: Option<PathBuf>,
    /// A game's data folder (baseq2, baseoa, base) under which side-file paths such as
    /// models/monsters/tank/skin.pcx are looked for first, its archives included: pakN.pak
    /// in numeric order, then .pk3/.pk4/.zip files in name order (a later one wins), then the
    /// folder's loose files over them all. Repeat it for a mod over its game (the last one
    /// wins). Skins are also looked for under the model's parent folders and by file name
    /// beside the model.
    #[arg(long, value_name = "DIR")]
    game_dir: Vec<PathBuf>,
    /// Look up paths inside archives and --game-dir folders ignoring case (for mods made on
    /// Windows: Models/Tank/Skin.PCX for models/tank/skin.pcx).
    #[arg(long)]
    ignore_case: bool,
    /// Quake 3 models: the skin to use, by the name of its .skin files (default, red, blue:
    /// lower_red.skin for lower.md3); default: the default skin.
    #[arg(long, value_name = "NAME")]
    skin_name: Option<String>,
    /// Quake 2 skins: use a true-colour replacement (skin.tga, .png or .jpg beside the stored
    /// skin.pcx, as source ports do) when there is one; without it replacements are used
    /// only when the stored picture is missing.
    #[arg(long)]
    replacements: bool,
    /// Show a classic model's re-release replacement in its place, when the engine would use
    /// it: for DIR/NAME.md2 the Quake II re-release's DIR/md5/NAME.md5mesh + .md5anim (and
    /// .md5scale), for progs/NAME.mdl the Quake re-release's progs/NAME.md5mesh + .md5anim.
    /// The MD5's frames get the classic model's frame names and clips, so converting to
    /// .md2/.mdl/.md3 bakes the replacement for engines without MD5.
    #[arg(long, value_name = "KIND", value_parser = ["md5"])]
    prefer: Option<String>,
    /// Keep the model as its file stores it: do not apply what a model configuration
    /// beside it says about size, turn and animation speeds (Cube 2 / Red Eclipse
    /// `md5.cfg`, `iqm.cfg`: mdlscale, mdlyaw, mdlpitch, mdlroll, mdltrans, animation
    /// speeds), which every command applies by default, as the engine shows the model.
    #[arg(long)]
    no_model_config: bool,
    /// Half-Life models of body parts (heads, weapons, helmets): the body value the game
    /// sets (`pev->body`), which picks each part's sub-model as the engine does: part P
    /// shows sub-model (BODY / base of P) % sub-models of P. `info` lists the parts; 0 (the
    /// default) shows the first sub-model of each.
    #[arg(long, value_name = "N", default_value_t = 0)]
    body: u32,
    /// Half-Life models: the skin family the game sets (`pev->skin`); `info` lists them.
    /// 0 (the default) is the first; one the model lacks is reported and the first shown.
    #[arg(long, value_name = "N", default_value_t = 0)]
    skin_family: usize,
}

impl SideFileArgs {
    /// Whether `--prefer md5` was given.
    pub fn prefers_md5(&self) -> bool {
        self.prefer.as_deref() == Some("md5")
    }

    /// The front door's options these flags ask for (the rest at their defaults).
    pub fn open_options(&self) -> retromodel::front::OpenOptions {
        retromodel::front::OpenOptions {
            game_dirs: self.game_dir.clone(),
            palette: self.palette.clone(),
            ignore_case: self.ignore_case,
            skin_name: self.skin_name.clone(),
            replacements: self.replacements,
            prefer_md5: self.prefers_md5(),
            model_config: !self.no_model_config,
            body: self.body,
            skin_family: self.skin_family,
            ..Default::default()
        }
    }

    /// The run's opener with `options` (from [`SideFileArgs::open_options`]): the game
    /// folders mounted (their warnings printed), the palette read and checked.
    pub fn opener(
        &self,
        options: retromodel::front::OpenOptions,
    ) -> anyhow::Result<retromodel::front::Opener<'static>> {
        files::set_ignore_case(options.ignore_case);
        let opener = retromodel::front::Opener::new(files::archives(), options)?;
        for w in opener.warnings() {
            eprintln!("warning: {w}");
        }
        Ok(opener)
    }
}

/// The command line with the registry's formats in its help: the formats read after the
/// main help, the formats written after `convert`'s.
fn command() -> clap::Command {
    use clap::CommandFactory as _;
    let mut written: Vec<String> = Vec::new();
    for f in retromodel::front::formats() {
        let w = format!("{} (.{})", f.description, f.extensions[0]);
        if !f.writers.is_empty() && !written.contains(&w) {
            written.push(w);
        }
    }
    // A build without the GPU commands (the macOS CLI of release/build.sh,
    // `--no-default-features`) says so.
    let left_out = if cfg!(not(feature = "render")) {
        "\n\nThis build leaves out `render` and `view` (the GPU commands): it was built without the `render` feature."
    } else if cfg!(not(feature = "viewer")) {
        "\n\nThis build leaves out `view` (the desktop viewer): it was built without the `viewer` feature."
    } else {
        ""
    };
    Cli::command()
        .after_help(format!(
            "Formats read: {}; archives: .pak .pk3 .pk4 .zip.\n\nA file inside an archive is ARCHIVE:PATH (pak0.pak:progs/x.mdl): the first colon after which the part before it is a file. A drive letter's colon is never that colon, on any platform: C:\\mods\\pak0.pak:progs/x.mdl is progs/x.mdl in C:\\mods\\pak0.pak.{left_out}",
            retromodel::front::formats_in_words()
        ))
        .mut_subcommand("convert", |c| {
            c.after_help(format!("Formats written: {}.", written.join(", ")))
        })
}

fn main() -> ExitCode {
    use clap::FromArgMatches as _;
    let cli = Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Info(a) => commands::info::run(a),
        Command::Formats(a) => commands::formats::run(a),
        Command::Ls(a) => commands::ls::run(a),
        Command::Validate(a) => commands::validate::run(a),
        Command::Convert(a) => commands::convert::run(a),
        Command::Skins(c) => commands::skins::run(c),
        Command::Bench(a) => commands::bench::run(a),
        Command::Sample(a) => commands::sample::run(a),
        #[cfg(feature = "render")]
        Command::Render(a) => commands::render::run(a),
        #[cfg(feature = "viewer")]
        Command::View(a) => commands::view::run(a),
        Command::Web(a) => commands::web::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("retromodel: {e:#}");
            ExitCode::FAILURE
        }
    }
}
