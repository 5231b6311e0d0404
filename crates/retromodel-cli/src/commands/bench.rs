//! `retromodel bench`: load throughput.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use retromodel::{registry, ConvertOptions, Document, Limits, NoFiles};

use crate::files;

/// Load every file into a complete Model (every pose and every skin picture decoded)
/// ROUNDS times in one process and print one line:
/// `files=F bytes=B rounds=N seconds=S MBps=M files_per_s=R`.
///
/// Files are read into memory first; only parsing and conversion are timed. Files that do
/// not load are reported and left out.
///
/// With --kernel NAME, time a format's own kernel instead (`--kernel gl-commands`: MD2 GL
/// command generation, strips and fans for each model's triangle list, other formats
/// converted to MD2 first, untimed) and print
/// `files=F triangles=T rounds=N seconds=S triangles_per_s=X` (the kernel's unit).
///
/// Example: `retromodel bench ../shared/corpus/quake_mdl --rounds 20`
#[derive(clap::Args)]
pub struct Args {
    /// Model files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// How many times to load the whole set.
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// Time parsing alone (bytes to the raw structures), without building the Model.
    #[arg(long)]
    parse_only: bool,
    /// Time a format's kernel instead of loading (see the list below).
    #[arg(long, conflicts_with = "parse_only",
          value_parser = clap::builder::PossibleValuesParser::new(registry::kernels().map(|k| k.name)),
          long_help = kernel_help())]
    kernel: Option<String>,
    /// The same as `--kernel gl-commands`.
    #[arg(long, conflicts_with_all = ["parse_only", "kernel"], hide = true)]
    gl_commands: bool,
    /// Time MD5 skinning instead of loading: each md5mesh is posed with the longest
    /// .md5anim beside it that fits its skeleton, at 1000 evenly spaced times per round
    /// (positions and weight normals, one core).
    #[arg(long, conflicts_with_all = ["parse_only", "gl_commands", "kernel"])]
    skinning: bool,
    /// Time glTF import instead of loading: each model is exported to .glb first (untimed),
    /// then the .glb files are imported into Models, every frame posed
    /// (`files=F bytes=B rounds=N seconds=S MBps=M files_per_s=R`, bytes of .glb).
    #[arg(long, conflicts_with_all = ["parse_only", "gl_commands", "kernel", "skinning"])]
    import: bool,
    /// Time palette reduction instead of loading: every skin picture (as RGBA) matched to
    /// the Quake palette without fullbrights, plain and dithered
    /// (`pictures=P pixels=X rounds=N dither=D seconds=S megapixels_per_s=M`).
    #[arg(long, conflicts_with_all = ["parse_only", "gl_commands", "kernel", "skinning", "import"])]
    palette: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let limits = Limits::default();
    let options = ConvertOptions::default();
    let mut data = Vec::new();
    let mut skipped = 0;
    for path in files::collect_inputs(&args.paths) {
        let loaded = files::read(&path).and_then(|b| {
            Document::parse(&b, &limits)
                .map(|_| ())
                .map_err(Into::into)
                .map(|_| b)
        });
        match loaded {
            Ok(b) => data.push(b),
            Err(e) => {
                skipped += 1;
                eprintln!("{}: {e:#} (left out)", path.display());
            }
        }
    }
    if data.is_empty() {
        bail!("no loadable model files");
    }
    let kernel = args
        .kernel
        .as_deref()
        .or(args.gl_commands.then_some("gl-commands"));
    if let Some(name) = kernel {
        return bench_kernel(name, &data, args.rounds, skipped);
    }
    if args.skinning {
        return bench_skinning(&args.paths, args.rounds);
    }
    if args.import {
        return bench_import(&data, args.rounds);
    }
    if args.palette {
        return bench_palette(&data, args.rounds);
    }
    let bytes: usize = data.iter().map(Vec::len).sum();
    let start = Instant::now();
    for _ in 0..args.rounds {
        for b in &data {
            let doc = Document::parse(b, &limits)?;
            if !args.parse_only {
                black_box(doc.to_model(&options, &NoFiles));
            }
            black_box(doc);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total = args.rounds as f64;
    outln!(
        "files={} bytes={} rounds={} seconds={:.3} MBps={:.1} files_per_s={:.0}",
        data.len(),
        bytes,
        args.rounds,
        secs,
        bytes as f64 * total / secs / 1e6,
        data.len() as f64 * total / secs
    );
    if skipped > 0 {
        eprintln!("{skipped} files left out");
    }
    Ok(ExitCode::SUCCESS)
}

/// `--kernel`'s long help: every registered kernel.
fn kernel_help() -> String {
    let mut out = String::from("Time a format's kernel instead of loading:");
    for k in registry::kernels() {
        out.push_str(&format!("\n  {}: {}", k.name, k.description));
    }
    out
}

/// Times the kernel `name` over `data`.
fn bench_kernel(name: &str, data: &[Vec<u8>], rounds: u32, skipped: usize) -> Result<ExitCode> {
    let Some(kernel) = registry::kernels().find(|k| k.name == name) else {
        bail!("no kernel {name:?}");
    };
    let mut inputs = Vec::new();
    for b in data {
        inputs.push((kernel.prepare)(b)?);
    }
    let triangles: u64 = inputs.iter().map(|p| p.items).sum();
    let start = Instant::now();
    for _ in 0..rounds {
        for p in &inputs {
            (p.run)();
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let unit = kernel.unit;
    outln!(
        "files={} {unit}={} rounds={} seconds={:.3} {unit}_per_s={:.0}",
        inputs.len(),
        triangles,
        rounds,
        secs,
        triangles as f64 * rounds as f64 / secs
    );
    if skipped > 0 {
        eprintln!("{skipped} files left out");
    }
    Ok(ExitCode::SUCCESS)
}

/// Times MD5 skinning: positions and normals of every mesh at 1000 times per round.
fn bench_skinning(paths: &[PathBuf], rounds: u32) -> Result<ExitCode> {
    use retromodel::formats::md5::{self, anim};
    let limits = Limits::default();
    let mut vertices = 0u64;
    let mut elapsed = 0f64;
    let mut used = Vec::new();
    for path in files::collect_inputs(paths) {
        let bytes = files::read(&path)?;
        if retromodel::detect(&bytes) != Some(md5::MD5MESH) {
            continue;
        }
        let Ok(mesh) = md5::parse_mesh(&bytes, &limits) else {
            continue;
        };
        let mesh = mesh.file;
        let dir = path.parent().unwrap_or(std::path::Path::new("."));
        let mut best: Option<(String, md5::AnimFile)> = None;
        for p in files::collect_inputs(&[dir.to_path_buf()]) {
            if p.parent() != Some(dir) || p.extension().is_none_or(|e| e != "md5anim") {
                continue;
            }
            let Ok(b) = files::read(&p) else { continue };
            let Ok(a) = md5::parse_anim(&b, &limits) else {
                continue;
            };
            if anim::match_joints(&mesh.joints, &a.file).is_ok()
                && best
                    .as_ref()
                    .is_none_or(|(_, b)| a.file.frames.len() > b.frames.len())
            {
                best = Some((p.display().to_string(), a.file));
            }
        }
        let Some((anim_path, anim_file)) = best else {
            eprintln!("{}: no .md5anim beside it fits (left out)", path.display());
            continue;
        };
        let animation = anim::Animation::new(&anim_file).map_err(anyhow::Error::msg)?;
        let mapping = anim::match_joints(&mesh.joints, &anim_file).map_err(anyhow::Error::msg)?;
        let normals: Vec<anim::WeightNormals> = mesh
            .meshes
            .iter()
            .map(|m| anim::WeightNormals::new(m, &mesh.joints))
            .collect();
        let mut local = vec![anim::JointPose::IDENTITY; animation.joint_count()];
        let mut global = local.clone();
        let mut pose = vec![anim::JointPose::IDENTITY; mesh.joints.len()];
        let n: usize = mesh.meshes.iter().map(|m| m.verts.len()).max().unwrap_or(0);
        let (mut pos, mut nrm) = (vec![[0f32; 3]; n], vec![[0f32; 3]; n]);
        let duration = animation.duration().max(1e-3);
        let start = Instant::now();
        for _ in 0..rounds {
            for k in 0..1000 {
                let t = duration * k as f32 / 1000.0;
                animation.sample_local(t, anim::Playback::Loop, anim::RootMotion::Keep, &mut local);
                anim::to_global(&animation.skeleton().parents, &local, &mut global);
                anim::gather(&global, &mapping, &mut pose);
                for (m, wn) in mesh.meshes.iter().zip(&normals) {
                    let v = m.verts.len();
                    anim::skin_positions(m, &pose, &mut pos[..v]);
                    anim::skin_normals(m, wn, &pose, &mut nrm[..v]);
                    black_box((&pos, &nrm));
                }
            }
        }
        elapsed += start.elapsed().as_secs_f64();
        let per_round: u64 = mesh.meshes.iter().map(|m| m.verts.len() as u64).sum();
        vertices += per_round * 1000 * rounds as u64;
        used.push(format!("{} with {anim_path}", path.display()));
    }
    if used.is_empty() {
        bail!("no md5mesh with a fitting md5anim beside it");
    }
    for u in &used {
        eprintln!("skinned {u}");
    }
    outln!(
        "meshes={} rounds={} vertices={} seconds={:.3} vertices_per_s={:.0}",
        used.len(),
        rounds,
        vertices,
        elapsed,
        vertices as f64 / elapsed
    );
    Ok(ExitCode::SUCCESS)
}

/// Times [`retromodel::import::gltf::read`] over the models of `data` exported to .glb.
fn bench_import(data: &[Vec<u8>], rounds: u32) -> Result<ExitCode> {
    let limits = Limits::default();
    let mut glbs = Vec::new();
    for b in data {
        let model = Document::parse(b, &limits)?
            .to_model(&ConvertOptions::default(), &NoFiles)
            .model;
        let options = retromodel::export::gltf::GltfOptions::default();
        if let Ok((glb, _)) = retromodel::export::gltf::to_glb(&model, &options) {
            glbs.push(glb);
        }
    }
    let bytes: usize = glbs.iter().map(Vec::len).sum();
    let options = retromodel::import::ImportOptions::default();
    let start = Instant::now();
    for _ in 0..rounds {
        for g in &glbs {
            black_box(retromodel::import::gltf::read(g, &NoFiles, &options)?);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "files={} bytes={} rounds={} seconds={:.3} MBps={:.1} files_per_s={:.0}",
        glbs.len(),
        bytes,
        rounds,
        secs,
        bytes as f64 * f64::from(rounds) / secs / 1e6,
        glbs.len() as f64 * f64::from(rounds) / secs
    );
    Ok(ExitCode::SUCCESS)
}

/// Times [`retromodel::image::Image::to_indexed_with`] over every skin picture of `data`.
fn bench_palette(data: &[Vec<u8>], rounds: u32) -> Result<ExitCode> {
    use retromodel::image::{Image, IndexOptions, Palette, Pixels};
    let limits = Limits::default();
    let mut pictures = Vec::new();
    for b in data {
        let model = Document::parse(b, &limits)?
            .to_model(&ConvertOptions::default(), &NoFiles)
            .model;
        for p in model.skins.iter().flat_map(|s| &s.pictures) {
            pictures.push(Image {
                width: p.width,
                height: p.height,
                pixels: Pixels::Rgba8(p.to_rgba8()),
            });
        }
    }
    let pixels: u64 = pictures
        .iter()
        .map(|p| u64::from(p.width) * u64::from(p.height))
        .sum();
    for dither in [false, true] {
        let options = IndexOptions {
            last: 223,
            dither,
            transparent: None,
        };
        let start = Instant::now();
        for _ in 0..rounds {
            for p in &pictures {
                black_box(p.to_indexed_with(&Palette::QUAKE, &options));
            }
        }
        let secs = start.elapsed().as_secs_f64();
        outln!(
            "pictures={} pixels={pixels} rounds={rounds} dither={dither} seconds={secs:.3} megapixels_per_s={:.1}",
            pictures.len(),
            pixels as f64 * f64::from(rounds) / secs / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}
