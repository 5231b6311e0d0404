//! `retromodel render`: headless images (PNG) and animations (GIF) on the GPU.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use retromodel::Model;
use retromodel_render::timing::Timeline;
use retromodel_render::{encode_gif, Camera, Gpu, GpuModel, Pose, Renderer, Target, View};

use crate::files;
use crate::SideFileArgs;

/// Render a model to a PNG (one pose) or an animated GIF (a clip or a turntable) on the GPU,
/// with no window. Keyframes are interpolated and MD5 skeletons skinned in the vertex shader.
///
/// Needs a GPU adapter; without a GPU, Mesa's software Vulkan driver works
/// (`apt-get install mesa-vulkan-drivers`). The adapter used is printed.
///
/// Examples:
///   retromodel render player.mdl player.png --clip run --time 0.25
///   retromodel render player.mdl run.gif --clip run --size 256x256
///   retromodel render imp.md5mesh imp.png --out-gif imp.gif --camera 90,10
///   retromodel render tris.md2 spin.gif --turntable --wireframe
#[derive(clap::Args)]
#[command(
    verbatim_doc_comment,
    about = "Render a model to a PNG (one pose) or an animated GIF (a clip or a turntable) on the GPU, with no window"
)]
pub struct Args {
    /// The model (any format `info` reads; an .md5mesh gets the .md5anim files beside it
    /// whose joints fit, or --anim).
    input: PathBuf,
    /// The image to write: .png (one pose) or .gif (the clip, or a turntable).
    output: PathBuf,
    /// Model frame to show (keyframe models), or frame of the MD5 animation.
    #[arg(long, conflicts_with = "time")]
    frame: Option<usize>,
    /// Time in seconds into the clip (looping), interpolated as the engine's timing rules
    /// say (the clip's rate, frame group intervals, MD5 frame rate).
    #[arg(long)]
    time: Option<f32>,
    /// Clip (keyframe models: a name from `info`) or MD5 animation (the .md5anim's file
    /// stem); default: the first.
    #[arg(long)]
    clip: Option<String>,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "512x512", value_parser = parse_size)]
    size: (u32, u32),
    /// Camera: auto, or yaw,pitch[,distance] in degrees and model units (yaw 0 looks at
    /// the model's front, +X). Auto frames every pose of the clip, so the whole model stays
    /// in view over the whole clip (with --frame: that pose alone).
    #[arg(long, default_value = "auto", value_parser = Camera::parse)]
    camera: Camera,
    /// Skin index to use instead of each mesh's own.
    #[arg(long)]
    skin: Option<usize>,
    /// Draw triangle edges over the surfaces.
    #[arg(long)]
    wireframe: bool,
    /// Also write the clip (or the turntable) as an animated GIF to FILE.
    #[arg(long, value_name = "FILE")]
    out_gif: Option<PathBuf>,
    /// Animated output turns the camera once around the model instead of playing the clip.
    #[arg(long)]
    turntable: bool,
    /// Frames per second of animated output.
    #[arg(long, default_value_t = 20.0)]
    gif_fps: f32,
    /// Show poses without blending between keyframes (as software Quake).
    #[arg(long)]
    no_interpolation: bool,
    /// An .md5anim to attach to an .md5mesh (repeat); default: those beside it that fit.
    #[arg(long, value_name = "FILE")]
    anim: Vec<PathBuf>,
    /// Benchmark: draw N frames of the clip (1/60 s apart) after the image, waiting for the
    /// GPU after each, and print frames per second and the CPU time per frame spent outside
    /// the GPU (pose sampling, joint matrices, uniform writes, command recording, submit).
    #[arg(long, value_name = "N")]
    bench_frames: Option<usize>,
    /// Replace the output files if they exist.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    side: SideFileArgs,
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s:?} is not WIDTHxHEIGHT"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|&v| (1..=8192).contains(&v))
            .ok_or_else(|| format!("{v:?} is not a size from 1 to 8192"))
    };
    Ok((n(w)?, n(h)?))
}

/// What to play: the poses over time of the chosen clip or animation.
enum Playback {
    Keyframes(Timeline),
    Skeletal { index: usize, duration: f32 },
}

impl Playback {
    fn duration(&self) -> f32 {
        match self {
            Playback::Keyframes(t) => t.duration(),
            Playback::Skeletal { duration, .. } => *duration,
        }
    }

    fn pose(&self, t: f32, interpolate: bool) -> Pose {
        match self {
            Playback::Keyframes(tl) => Pose::Keyframe(tl.sample(t, true, interpolate)),
            Playback::Skeletal { index, .. } => Pose::Skeletal {
                animation: *index,
                time: t,
                looping: true,
            },
        }
    }
}

fn playback(args: &Args, model: &Model, scene: &GpuModel) -> Result<Playback> {
    if !scene.animation_names().is_empty() {
        let names = scene.animation_names();
        let index = match &args.clip {
            Some(c) => names
                .iter()
                .position(|n| n == c)
                .ok_or_else(|| anyhow!("no animation \"{c}\"; there are: {}", names.join(", ")))?,
            None => 0,
        };
        let (frames, fps) = scene
            .animation_info(index)
            .ok_or_else(|| anyhow!("animation {:?} cannot be played", names[index]))?;
        return Ok(Playback::Skeletal {
            index,
            duration: frames.saturating_sub(1).max(1) as f32 / fps,
        });
    }
    let clip = match &args.clip {
        Some(c) => Some(model.clips.iter().find(|k| &k.name == c).ok_or_else(|| {
            let names: Vec<&str> = model.clips.iter().map(|k| k.name.as_str()).collect();
            anyhow!("no clip \"{c}\"; there are: {}", names.join(", "))
        })?),
        // An idle clip first (a Quake 3 player opens on LEGS_IDLE, not BOTH_DEATH1).
        None => model.clips.get(retromodel::model::opening_clip(
            model.clips.iter().map(|c| c.name.as_str()),
        )),
    };
    Ok(Playback::Keyframes(match clip {
        Some(c) => Timeline::of_clip(c),
        None => Timeline::all_frames(model),
    }))
}

fn still_pose(args: &Args, play: &Playback, scene: &GpuModel) -> Result<Pose> {
    let interpolate = !args.no_interpolation;
    Ok(match (play, args.frame, args.time) {
        (Playback::Skeletal { index, .. }, Some(f), _) => {
            let (frames, fps) = scene.animation_info(*index).unwrap_or((1, 24.0));
            if f >= frames {
                bail!("--frame {f}: the animation has {frames} frames");
            }
            Pose::Skeletal {
                animation: *index,
                time: f as f32 / fps,
                looping: false,
            }
        }
        (Playback::Keyframes(_), Some(f), _) => {
            if f >= scene.frame_count() {
                bail!("--frame {f}: the model has {} frames", scene.frame_count());
            }
            Pose::frame(f)
        }
        (_, None, Some(t)) => play.pose(t, interpolate),
        (_, None, None) => play.pose(0.0, interpolate),
    })
}

/// Share of pixels the model covers (alpha > 0).
fn coverage(rgba: &[u8]) -> f64 {
    let n = (rgba.len() / 4).max(1);
    rgba.chunks_exact(4).filter(|p| p[3] > 0).count() as f64 / n as f64
}

fn is_gif(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("gif"))
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let path = &args.input;
    let model = super::open(&args.side, path, &args.anim)?.model;
    if args.turntable && !is_gif(&args.output) && args.out_gif.is_none() {
        bail!("--turntable needs a .gif OUTPUT or --out-gif FILE");
    }
    let gpu = Gpu::headless().map_err(|e| anyhow!("{e}"))?;
    println!("adapter: {}", gpu.adapter_name());
    let renderer = Renderer::new(&gpu, Target::FORMAT);
    let mut scene =
        GpuModel::new(&gpu, &renderer, &model).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    for w in scene.warnings() {
        eprintln!("{}: warning: {w}", path.display());
    }
    if let Some(s) = args.skin {
        if s >= scene.skin_count() {
            bail!("--skin {s}: the model has {} skins", scene.skin_count());
        }
    }
    let play = playback(&args, &model, &scene)?;
    let (w, h) = args.size;
    let mut target = Target::new(&gpu, w, h);
    let view = View {
        camera: args.camera,
        wireframe: args.wireframe,
        skin: args.skin,
        ..View::default()
    };
    let gif_path = if is_gif(&args.output) {
        Some(args.output.clone())
    } else {
        args.out_gif.clone()
    };
    let still = still_pose(&args, &play, &scene)?;
    // Framing: every pose of the clip, so the whole model stays in view however it moves
    // (and stills of one clip share a camera); `--frame N` alone frames that pose.
    let clip_view = View {
        framing: Some(match &play {
            Playback::Keyframes(t) => scene.framing_of(&t.frames),
            Playback::Skeletal { index, .. } => scene.framing_of_animation(*index),
        }),
        ..view
    };
    let still_view = match (still, args.frame) {
        (Pose::Keyframe(k), Some(_)) => View {
            framing: Some(scene.framing_of(&[k.a, k.b])),
            ..view
        },
        (
            Pose::Skeletal {
                animation, time, ..
            },
            Some(_),
        ) => View {
            framing: Some(scene.framing_of_pose(animation, time)),
            ..view
        },
        _ => clip_view,
    };
    if !is_gif(&args.output) {
        let pose = still;
        let rgba = renderer
            .render_image(&gpu, &mut scene, &mut target, &pose, &still_view)
            .map_err(|e| anyhow!("{e}"))?;
        let png = retromodel::image::png::encode_rgba8(w, h, &rgba)
            .map_err(|e| anyhow!("PNG encoding: {e}"))?;
        files::write_atomic(&args.output, &png, args.force)?;
        println!(
            "{}: {w}x{h}, coverage {:.1}%",
            args.output.display(),
            coverage(&rgba) * 100.0
        );
    }
    if let Some(gif_path) = gif_path {
        if w > u32::from(u16::MAX) || h > u32::from(u16::MAX) {
            bail!("GIF frames are at most 65535 pixels wide");
        }
        let fps = if args.gif_fps.is_finite() && args.gif_fps > 0.0 {
            args.gif_fps
        } else {
            20.0
        };
        let (count, step) = if args.turntable {
            let n = (fps * 3.0).round().max(8.0) as usize;
            (n, 1.0 / fps)
        } else {
            let d = play.duration();
            (((d * fps).round() as usize).clamp(1, 600), 1.0 / fps)
        };
        let mut frames = Vec::with_capacity(count);
        let mut total_cov = 0.0;
        for i in 0..count {
            let mut v = if args.turntable {
                still_view
            } else {
                clip_view
            };
            let pose = if args.turntable {
                v.camera.yaw += 360.0 * i as f32 / count as f32;
                still
            } else {
                play.pose(
                    args.time.unwrap_or(0.0) + i as f32 * step,
                    !args.no_interpolation,
                )
            };
            let rgba = renderer
                .render_image(&gpu, &mut scene, &mut target, &pose, &v)
                .map_err(|e| anyhow!("{e}"))?;
            total_cov += coverage(&rgba);
            frames.push(rgba);
        }
        let delay = (100.0 / fps).round().clamp(2.0, 6000.0) as u16;
        let gif = encode_gif(w as u16, h as u16, &mut frames, delay)
            .map_err(|e| anyhow!("GIF encoding: {e}"))?;
        files::write_atomic(&gif_path, &gif, args.force)?;
        println!(
            "{}: {w}x{h}, {count} frames at {fps} fps, mean coverage {:.1}%",
            gif_path.display(),
            total_cov / count.max(1) as f64 * 100.0
        );
    }
    if let Some(n) = args.bench_frames {
        bench(
            &gpu, &renderer, &mut scene, &target, &play, &clip_view, n, &args,
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)]
fn bench(
    gpu: &Gpu,
    renderer: &Renderer,
    scene: &mut GpuModel,
    target: &Target,
    play: &Playback,
    view: &View,
    n: usize,
    args: &Args,
) -> Result<()> {
    let n = n.max(1);
    // One frame first so pipelines and buffers are warm.
    renderer.render_to_target(gpu, scene, target, &play.pose(0.0, true), view);
    Target::wait(gpu).map_err(|e| anyhow!("{e}"))?;
    let mut cpu = Duration::ZERO;
    let start = Instant::now();
    for i in 0..n {
        let pose = play.pose(i as f32 / 60.0, !args.no_interpolation);
        cpu += renderer.render_to_target(gpu, scene, target, &pose, view);
        Target::wait(gpu).map_err(|e| anyhow!("{e}"))?;
    }
    let wall = start.elapsed();
    let kind = match play {
        Playback::Keyframes(_) => "keyframe",
        Playback::Skeletal { .. } => "skeletal",
    };
    println!(
        "bench: {} {kind}, {}x{}, {n} frames in {:.3} s: {:.1} fps, CPU outside the GPU {:.3} ms/frame",
        args.input.display(),
        target.width,
        target.height,
        wall.as_secs_f64(),
        n as f64 / wall.as_secs_f64(),
        cpu.as_secs_f64() * 1000.0 / n as f64
    );
    Ok(())
}
