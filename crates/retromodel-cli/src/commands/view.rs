//! `retromodel view`: the interactive viewer (feature `viewer`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use retromodel_render::viewer::{self, Loaded, Options};

use crate::SideFileArgs;

/// Open a window showing the model, animated on the GPU: clip list, play/pause, speed, time
/// scrubber, interpolation on/off, skin, wireframe, orbit camera (drag, wheel), the `info`
/// summary; drop another file on the window to open it.
///
/// Example: `retromodel view player.mdl --clip run --play`
#[derive(clap::Args)]
#[command(
    verbatim_doc_comment,
    about = "Open a window showing the model, animated on the GPU: clips, speed, skins, wireframe, orbit camera"
)]
pub struct Args {
    /// The model to open.
    input: PathBuf,
    /// Clip or MD5 animation to select first.
    #[arg(long)]
    clip: Option<String>,
    /// Start playing at once.
    #[arg(long)]
    play: bool,
    /// Close the window after SECONDS (for scripted checks such as .ci/viewer_xvfb.sh).
    #[arg(long, value_name = "SECONDS")]
    quit_after: Option<f32>,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1024x700")]
    size: String,
    #[command(flatten)]
    side: SideFileArgs,
}

/// The info panel text: the file and [`Summary::plain_words`], one `Label: text` line each
/// (the web viewer shows the same rows).
fn info_text(path: &Path, opened: &retromodel::front::Opened) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "File: {}", path.display());
    for (label, text) in opened
        .summary
        .plain_words(Some(&opened.model), &opened.animations)
    {
        let _ = writeln!(t, "{label}: {text}");
    }
    t
}

fn load_for_viewer(path: &Path, side: &SideFileArgs) -> Result<Loaded> {
    let opened = super::open(side, path, &[])?;
    Ok(Loaded {
        info: info_text(path, &opened),
        model: opened.model,
    })
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let side = args.side.clone();
    let (w, h) = args
        .size
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .ok_or_else(|| anyhow!("--size {:?} is not WIDTHxHEIGHT", args.size))?;
    // Fail early, in the terminal, when the first file does not load.
    load_for_viewer(&args.input, &side)?;
    let options = Options {
        path: args.input.clone(),
        clip: args.clip,
        play: args.play,
        quit_after: args.quit_after,
        size: (w, h),
    };
    viewer::run(
        options,
        Box::new(move |p: &Path| load_for_viewer(p, &side).map_err(|e| format!("{e:#}"))),
    )
    .map_err(|e| anyhow!("{e}"))?;
    Ok(ExitCode::SUCCESS)
}
