//! `retromodel view`: the interactive viewer (feature `viewer`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use retromodel::Summary;
use retromodel_render::viewer::{self, Loaded, Options};

use super::load;
use crate::{SideFileArgs, SideFiles};

/// Open a window showing the model, animated on the GPU: clip list, play/pause, speed, time
/// scrubber, interpolation on/off, skin, wireframe, orbit camera (drag, wheel), the `info`
/// summary; drop another file on the window to open it.
///
/// Example: `retromodel view player.mdl --clip run --play`
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
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

/// The info panel text: what `info` prints.
fn info_text(path: &Path, s: &Summary, anims: &[String]) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "{}", path.display());
    let _ = writeln!(t, "{} version {}", s.format, s.version);
    let _ = writeln!(
        t,
        "{} meshes, {} vertices, {} triangles\n{} poses ({} frame groups), {} joints",
        s.meshes, s.vertices, s.triangles, s.poses, s.frame_groups, s.joints
    );
    let _ = writeln!(t, "{} skins ({} pictures)", s.skins, s.skin_pictures);
    for n in &s.skin_names {
        let _ = writeln!(t, "  skin {n}");
    }
    if let Some([lo, hi]) = s.bounds {
        let _ = writeln!(t, "bounds {lo:?} .. {hi:?}");
    }
    for c in &s.clips {
        let _ = writeln!(
            t,
            "clip {} [{}+{} @ {} fps]",
            c.name, c.first, c.count, c.fps
        );
    }
    for a in anims {
        let _ = writeln!(t, "animation {a}");
    }
    for (k, v) in &s.header {
        let _ = writeln!(t, "  {k} = {v:?}");
    }
    for w in &s.warnings {
        let _ = writeln!(t, "warning: {w}");
    }
    t
}

fn load_for_viewer(path: &Path, side: &SideFiles) -> Result<Loaded> {
    let (model, summary) = if super::is_player_dir(path) {
        let c = super::load_player(path, side, None)?;
        let summary = retromodel::Summary::of_converted("md3 player", 15, &c);
        (c.model, summary)
    } else {
        load(path, side, &[], |doc, c| {
            let summary = doc.summary(&c);
            (c.model, summary)
        })?
    };
    let anims: Vec<String> = model.animations.iter().map(|a| a.name.clone()).collect();
    Ok(Loaded {
        info: info_text(path, &summary, &anims),
        model,
    })
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let side = args.side.load()?;
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
