//! `retromodel bench`: load throughput.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use retromodel::io::SharedBytes;
use retromodel::{registry, ConvertOptions, Document, Limits, NoFiles};

use crate::files;

/// Load every file into a complete Model (every keyframe pose and every skin picture
/// decoded; skeletal animations as the loader keeps them: IQM's frames stay in the file's
/// 16-bit channels, decoded on first read, which the timed loop does not do) ROUNDS times in
/// one process and print one line:
/// `files=F bytes=B rounds=N seconds=S MBps=M files_per_s=R decoded_MB=D decoded_GBps=G`
/// (D: megabytes of positions and normals in the Models, every pose; G: those decoded per
/// second; left out with --parse-only).
///
/// Files are read into memory first, held as the other commands hold a file they load
/// (shared, `Document::parse_shared`); only parsing and conversion are timed. Files that do
/// not load are reported and left out.
///
/// With --files-from LIST the files are also taken from LIST, one path per line (the same
/// lists bench/compare.sh gives Assimp's harness); --list prints `loaded<TAB>PATH` or
/// `failed<TAB>PATH<TAB>ERROR` for each file before the totals, as that harness does.
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
    #[arg(required_unless_present_any = ["files_from", "memory"])]
    paths: Vec<PathBuf>,
    /// Also take the files listed in this file, one path per line (empty lines ignored;
    /// `-` reads the list from standard input).
    #[arg(long, value_name = "LIST")]
    files_from: Option<PathBuf>,
    /// Print `loaded<TAB>PATH` or `failed<TAB>PATH<TAB>ERROR` for each file (standard
    /// output) before the totals line.
    #[arg(long)]
    list: bool,
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
    /// The same as `--kernel skinning`.
    #[arg(long, conflicts_with_all = ["parse_only", "gl_commands", "kernel"], hide = true)]
    skinning: bool,
    /// Time glTF import instead of loading: each model is exported to .glb first (untimed),
    /// then the .glb files are imported into Models, every frame posed
    /// (`files=F bytes=B rounds=N seconds=S MBps=M files_per_s=R`, bytes of .glb).
    #[arg(long, conflicts_with_all = ["parse_only", "gl_commands", "kernel", "skinning"])]
    import: bool,
    /// Measure this machine's memory copy bandwidth instead (a 256 MiB buffer copied ROUNDS
    /// times: `bytes=B rounds=N seconds=S copy_GBps=G`), to compare with the
    /// `decoded_GBps` of a full load (bytes of positions and normals decoded per second).
    #[arg(long, conflicts_with_all = ["parse_only", "gl_commands", "kernel", "skinning", "import"])]
    memory: bool,
    /// Time palette reduction instead of loading: every skin picture (as RGBA) matched to
    /// the Quake palette without fullbrights, plain and dithered
    /// (`pictures=P pixels=X rounds=N dither=D seconds=S megapixels_per_s=M`).
    #[arg(long, conflicts_with_all = ["parse_only", "gl_commands", "kernel", "skinning", "import"])]
    palette: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    if args.memory {
        return bench_memory(args.rounds);
    }
    let limits = Limits::default();
    let options = ConvertOptions::default();
    let mut data = Vec::new();
    let mut paths = Vec::new();
    let mut skipped = 0;
    let mut inputs = files::collect_inputs(&args.paths);
    if let Some(list) = &args.files_from {
        inputs.extend(files::collect_inputs(&read_list(list)?));
    }
    for input in inputs {
        let path = input.path.clone();
        let loaded = input.read().map_err(anyhow::Error::from).and_then(|b| {
            Document::parse(&b, &limits)
                .map(|_| ())
                .map_err(Into::into)
                .map(|_| b)
        });
        match loaded {
            Ok(b) => {
                if args.list {
                    outln!("loaded\t{}", path.display());
                }
                data.push(b);
                paths.push(path);
            }
            Err(e) => {
                skipped += 1;
                if args.list {
                    let why = format!("{e:#}").replace(['\t', '\n'], " ");
                    outln!("failed\t{}\t{why}", path.display());
                } else {
                    eprintln!("{}: {e:#} (left out)", path.display());
                }
            }
        }
    }
    if data.is_empty() {
        bail!("no loadable model files");
    }
    let kernel = args
        .kernel
        .as_deref()
        .or(args.gl_commands.then_some("gl-commands"))
        .or(args.skinning.then_some("skinning"));
    if let Some(name) = kernel {
        return bench_kernel(name, &paths, &data, args.rounds, skipped);
    }

    if args.import {
        return bench_import(&data, args.rounds);
    }
    if args.palette {
        return bench_palette(&data, args.rounds);
    }
    let bytes: usize = data.iter().map(Vec::len).sum();
    // The pose data a full load decodes (positions and normals of every mesh in every
    // pose), counted once, untimed.
    // Held as the commands hold a file they load (shared: a Model may keep parts of it).
    let shared: Vec<SharedBytes> = data.iter().map(|b| SharedBytes::from(b.clone())).collect();
    let decoded: usize = if args.parse_only {
        0
    } else {
        shared
            .iter()
            .filter_map(|b| Document::parse_shared(b, &limits).ok())
            .map(|doc| decoded_bytes(&doc.to_model(&options, &NoFiles).model))
            .sum()
    };
    let start = Instant::now();
    for _ in 0..args.rounds {
        for b in &shared {
            let doc = Document::parse_shared(b, &limits)?;
            if !args.parse_only {
                black_box(doc.to_model(&options, &NoFiles));
            }
            black_box(doc);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total = args.rounds as f64;
    let decoded = if args.parse_only {
        String::new()
    } else {
        format!(
            " decoded_MB={:.1} decoded_GBps={:.2}",
            decoded as f64 / 1e6,
            decoded as f64 * total / secs / 1e9
        )
    };
    outln!(
        "files={} bytes={} rounds={} seconds={:.3} MBps={:.1} files_per_s={:.0}{decoded}",
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

/// Bytes of pose data in `model`: each mesh's positions and normals, in the base pose and
/// in every morph target (12 bytes a vector).
fn decoded_bytes(model: &retromodel::Model) -> usize {
    model
        .meshes
        .iter()
        .map(|m| {
            let targets: usize = m
                .morph_targets
                .iter()
                .map(|t| t.positions.len() + t.normals.len())
                .sum();
            12 * (m.positions.len() + m.normals.len() + targets)
        })
        .sum()
}

/// `--memory`: this machine's copy bandwidth, the yardstick for `decoded_GBps`. A 256 MiB
/// buffer copied into another ROUNDS times (each byte read once and written once); prints
/// `bytes=B rounds=N seconds=S copy_GBps=G` (bytes copied per second).
fn bench_memory(rounds: u32) -> Result<ExitCode> {
    const SIZE: usize = 256 << 20;
    let src: Vec<u8> = (0..SIZE).map(|i| i as u8).collect();
    let mut dst = vec![0u8; SIZE];
    dst.copy_from_slice(&src); // fault the pages in, untimed
    let start = Instant::now();
    for _ in 0..rounds {
        dst.copy_from_slice(black_box(&src));
        black_box(&mut dst);
    }
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "bytes={SIZE} rounds={rounds} seconds={secs:.3} copy_GBps={:.2}",
        SIZE as f64 * f64::from(rounds) / secs / 1e9
    );
    Ok(ExitCode::SUCCESS)
}

/// The paths listed in `list` (`-`: standard input), one per line, empty lines skipped.
fn read_list(list: &std::path::Path) -> Result<Vec<PathBuf>> {
    use anyhow::Context as _;
    let text = if list.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read the list from stdin")?
    } else {
        std::fs::read_to_string(list)
            .with_context(|| format!("cannot read the list {}", list.display()))?
    };
    Ok(text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .collect())
}

/// `--kernel`'s long help: every registered kernel.
fn kernel_help() -> String {
    let mut out = String::from("Time a format's kernel instead of loading:");
    for k in registry::kernels() {
        out.push_str(&format!("\n  {}: {}", k.name, k.description));
    }
    out
}

/// Times the kernel `name` over `data` (read from `paths`, whose side files it may use).
fn bench_kernel(
    name: &str,
    paths: &[PathBuf],
    data: &[Vec<u8>],
    rounds: u32,
    skipped: usize,
) -> Result<ExitCode> {
    let Some(kernel) = registry::kernels().find(|k| k.name == name) else {
        bail!("no kernel {name:?}");
    };
    let opener = crate::SideFileArgs::default().opener(Default::default())?;
    let mut inputs = Vec::new();
    for (path, b) in paths.iter().zip(data) {
        match registry::prepare_kernel(kernel, b, &opener.resolver(path))? {
            Some(p) if p.note.is_empty() => inputs.push(p),
            Some(p) => {
                eprintln!("{}: {}", path.display(), p.note);
                inputs.push(p);
            }
            None => eprintln!("{}: not for the {name} kernel (left out)", path.display()),
        }
    }
    if inputs.is_empty() {
        bail!("no file the {name} kernel applies to");
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

/// Times [`retromodel::interchange::gltf::read`] over the models of `data` exported to .glb.
fn bench_import(data: &[Vec<u8>], rounds: u32) -> Result<ExitCode> {
    let limits = Limits::default();
    let mut glbs = Vec::new();
    for b in data {
        let model = Document::parse(b, &limits)?
            .to_model(&ConvertOptions::default(), &NoFiles)
            .model;
        let options = retromodel::interchange::gltf::GltfOptions::default();
        if let Ok((glb, _)) = retromodel::interchange::gltf::to_glb(&model, &options) {
            glbs.push(glb);
        }
    }
    let bytes: usize = glbs.iter().map(Vec::len).sum();
    let options = retromodel::interchange::ImportOptions::default();
    let start = Instant::now();
    for _ in 0..rounds {
        for g in &glbs {
            black_box(retromodel::interchange::gltf::read(g, &NoFiles, &options)?);
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
                encoded: None,
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
