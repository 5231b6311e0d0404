//! Sweeps over every model format: truncation at every length, bit flips, extreme header
//! words, token replacements (text formats), tiny files with huge counts, and mutations of the
//! corpus files. Never a panic, only errors that name the format (and a line for text) or
//! files that write back exactly, convert to a valid model, summarise, validate and (where the
//! format has a writer from models) convert back; and little memory.
//!
//! The formats are one table, [`formats`]: a format in it goes through every sweep. Each test
//! below is one sweep over all formats; each ends with the peak memory of the whole process,
//! which bounds what any one sweep took.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use common::Rng;
use retromodel::formats::{gs_mdl, gs_mdl7, hmp, md2, md5, quake_mdl, wmp};
use retromodel::{ConvertOptions, Document, ErrorKind, Limits, Model, NoFiles, WriteOptions};

// ---------------------------------------------------------------------------------------------
// The table. Once the format registry lands, `formats()` becomes a loop over
// `registry::codecs()` (name, fixtures, parse), and the knobs move into each codec.

/// Reads bytes as one format (never detecting another: a cut or flipped file must still be
/// judged by the format it came from).
type Parse = for<'a> fn(&'a [u8], &Limits) -> retromodel::Result<Document<'a>>;

/// Writes a model as one format's bytes; `None` where the model does not fit the format.
type FromModel = fn(&Model) -> Option<Vec<u8>>;

/// One format the sweeps run over.
struct SweepFormat {
    /// The format's name; its errors name a format that starts with it (`gs-mdl` errors say
    /// `gs-mdl5`, `md5mesh` errors say `md5mesh`).
    name: &'static str,
    /// Its reader.
    parse: Parse,
    /// Generated fixture files, by name. Each must parse.
    fixtures: Vec<(String, Vec<u8>)>,
    /// Its files in the corpus folder.
    corpus: fn(&Path) -> Vec<PathBuf>,
    /// What differs between formats beyond that (see [`Knobs`]).
    knobs: Knobs,
}

/// The per-format data of the sweeps. Each is a property of the format that a codec could
/// state (a method or a fixture property); the defaults fit binary formats.
struct Knobs {
    /// The length from which a fixture is whole: every shorter prefix must fail and every
    /// longer one parse. Binary formats: the end of the parsed data (what follows is kept as
    /// trailing bytes); `None`: no promise (a text file may stop after any whole statement).
    complete_from: fn(&Document, &[u8]) -> Option<usize>,
    /// The header fields the extreme-value sweep overwrites: `(start, end, width)` byte
    /// ranges, one field every `width` bytes (4: little-endian i32 or f32; 2: u16).
    header_words: &'static [(usize, usize, usize)],
    /// A text format: written back value for value (not byte for byte: spacing and comments
    /// are not kept), errors at a line and column, and the token sweeps. `None`: binary, and
    /// every accepted input must write back byte for byte.
    text: Option<Text>,
    /// Converts a model back to this format's bytes, for formats with a writer from models
    /// (`None` from the function: the model does not fit the format, which is allowed).
    from_model: Option<FromModel>,
    /// Tiny files claiming huge counts: each must fail with `BadCount` before allocating.
    huge_counts: &'static [&'static str],
    /// The summary counts the model's vertices (formats with no seam splits or shared file
    /// vertices: HMP, WMP, MD5); the others count file vertices, which differ.
    counts_model_vertices: bool,
    /// Every position of the model is finite (WMP: text numbers, clipped and transformed;
    /// binary formats scale stored bytes by stored floats, which may be anything).
    finite_positions: bool,
    /// How many mutations of each corpus file (kept per format: the corpora differ in size).
    corpus: CorpusMutations,
}

/// Mutations of each corpus file: random cuts spread over the file, single-bit flips (half
/// of them in the first `head` bytes), and for text formats cuts at every `boundary_step`th
/// token boundary and random token replacements. `must_parse`: every file of the format in
/// the corpus parses as it is (not so where the corpus holds broken files on purpose).
#[derive(Clone, Copy)]
struct CorpusMutations {
    must_parse: bool,
    cuts: usize,
    flips: usize,
    head: usize,
    boundary_step: Option<usize>,
    replacements: usize,
}

/// What makes a format a text format for the sweeps.
struct Text {
    /// Whether two documents hold the same values (the warnings of lenient reading aside).
    same_values: fn(&Document, &Document) -> bool,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            complete_from: |_, _| None,
            header_words: &[],
            text: None,
            from_model: None,
            huge_counts: &[],
            counts_model_vertices: false,
            finite_positions: false,
            corpus: CorpusMutations {
                must_parse: false,
                cuts: 32,
                flips: 32,
                head: 4096,
                boundary_step: None,
                replacements: 0,
            },
        }
    }
}

/// Every format the sweeps cover.
fn formats() -> Vec<SweepFormat> {
    vec![
        SweepFormat {
            name: "quake-mdl",
            parse: |b, l| quake_mdl::File::parse(b, l).map(Document::QuakeMdl),
            fixtures: named(quake_mdl::fixtures::all()),
            corpus: |dir| common::files_with_magic(dir, b"IDPO"),
            knobs: Knobs {
                complete_from: |d, b| match d {
                    Document::QuakeMdl(f) => Some(b.len() - f.trailing.len()),
                    _ => None,
                },
                header_words: &[(0, 84, 4)],
                corpus: CorpusMutations {
                    cuts: 64,
                    ..Knobs::default().corpus
                },
                ..Knobs::default()
            },
        },
        SweepFormat {
            name: "md2",
            parse: |b, l| md2::File::parse(b, l).map(Document::Md2),
            fixtures: named(md2::fixtures::all()),
            corpus: |dir| common::files_with_magic(dir, b"IDP2"),
            knobs: Knobs {
                // Sections sit at their header offsets; what follows `ofs_end` is kept.
                complete_from: |d, _| match d {
                    Document::Md2(f) => Some(f.header.ofs_end as usize),
                    _ => None,
                },
                header_words: &[(0, 68, 4)],
                from_model: Some(|m| {
                    let w = md2::from_model(m, &WriteOptions::default()).ok()?;
                    Some(w.file.write())
                }),
                ..Knobs::default()
            },
        },
        SweepFormat {
            name: "gs-mdl",
            parse: |b, l| gs_mdl::File::parse(b, l).map(Document::GameStudioMdl),
            fixtures: named(gs_mdl::fixtures::all()),
            corpus: |dir| {
                let magics = (2..=5).map(gs_mdl::magic);
                magics.flat_map(|m| common::files_with_magic(dir, &m)).collect()
            },
            knobs: Knobs {
                complete_from: |d, b| match d {
                    Document::GameStudioMdl(f) => Some(b.len() - f.trailing.len()),
                    _ => None,
                },
                // The header and the first skin's words.
                header_words: &[(4, 96, 4)],
                from_model: Some(|m| {
                    let w = gs_mdl::from_model(m, &WriteOptions::default(), 5).ok()?;
                    Some(w.file.write())
                }),
                corpus: CorpusMutations {
                    cuts: 24,
                    flips: 24,
                    ..Knobs::default().corpus
                },
                ..Knobs::default()
            },
        },
        SweepFormat {
            name: "gs-mdl7",
            parse: |b, l| gs_mdl7::File::parse(b, l).map(Document::GameStudioMdl7),
            fixtures: named(gs_mdl7::fixtures::all()),
            corpus: |dir| common::files_with_magic(dir, b"MDL7"),
            knobs: Knobs {
                complete_from: |d, b| match d {
                    Document::GameStudioMdl7(f) => Some(b.len() - f.trailing.len()),
                    _ => None,
                },
                // The header's counts, then its table of structure sizes.
                header_words: &[(4, 28, 4), (28, 48, 2)],
                ..Knobs::default()
            },
        },
        SweepFormat {
            name: "hmp",
            parse: |b, l| hmp::File::parse(b, l).map(Document::Hmp),
            fixtures: named(hmp::fixtures::all()),
            corpus: |dir| {
                let magics = [b"HMP4", b"HMP5", b"HMP7"];
                magics.iter().flat_map(|m| common::files_with_magic(dir, m)).collect()
            },
            knobs: Knobs {
                complete_from: |d, b| match d {
                    Document::Hmp(f) => Some(b.len() - f.trailing.len()),
                    _ => None,
                },
                header_words: &[(4, 84, 4)],
                counts_model_vertices: true,
                corpus: CorpusMutations {
                    cuts: 64,
                    flips: 64,
                    head: 512,
                    ..Knobs::default().corpus
                },
                ..Knobs::default()
            },
        },
        md5_format(
            "md5mesh",
            |b, l| md5::parse_mesh(b, l).map(Document::Md5Mesh),
            // A mesh may end after any whole mesh.
            |_, _| None,
            &[
                "numJoints 16000000 numMeshes 1 joints {",
                "numJoints 0 numMeshes 1 joints { } mesh { numverts 16000000",
            ],
        ),
        md5_format(
            "md5anim",
            |b, l| md5::parse_anim(b, l).map(Document::Md5Anim),
            |_, b| token_spans(b).last().map(|t| t.1),
            &[
                "numFrames 1 numJoints 1 frameRate 24 numAnimatedComponents 16000000 hierarchy { \"a\" -1 0 0 } bounds { (0 0 0)(0 0 0) } baseframe { (0 0 0)(0 0 0) } frame 0 {",
                "numFrames 16000000 numJoints 0 numAnimatedComponents 0 hierarchy { } bounds {",
            ],
        ),
        md5_format(
            "md5camera",
            |b, l| md5::parse_camera(b, l).map(Document::Md5Camera),
            |_, b| token_spans(b).last().map(|t| t.1),
            &["numFrames 16000000 frameRate 24 numCuts 16000000 cuts {"],
        ),
        SweepFormat {
            name: "wmp",
            parse: |b, l| wmp::parse(b, l).map(Document::Wmp),
            fixtures: named(wmp::fixtures::all()),
            corpus: |dir| common::files_with_magic(dir, b"// W"),
            knobs: Knobs {
                text: Some(Text {
                    same_values: |a, b| match (a, b) {
                        (Document::Wmp(a), Document::Wmp(b)) => a.file == b.file,
                        _ => false,
                    },
                }),
                counts_model_vertices: true,
                finite_positions: true,
                huge_counts: &[
                    "// WMP2\nblock 0 { vertices 16000000 faces 1",
                    "// WMP2\nblock 0 { vertices 0 faces 16000000",
                    "// WMP2\nblock 0 { vertices 3 faces 1 0 0 0 1 0 0 0 1 0 16000000 0 1 2",
                ],
                corpus: CorpusMutations {
                    must_parse: true,
                    cuts: 0,
                    flips: 0,
                    head: 0,
                    boundary_step: Some(7),
                    replacements: 200,
                },
                ..Knobs::default()
            },
        },
    ]
}

/// One of MD5's three file kinds (mesh, anim, camera), each a format here: a cut md5anim
/// can no longer be told from an md5mesh by its content, so each kind keeps its own reader.
/// The fixtures and corpus files are those with the kind's extension.
fn md5_format(
    kind: &'static str,
    parse: Parse,
    complete_from: fn(&Document, &[u8]) -> Option<usize>,
    huge_counts: &'static [&'static str],
) -> SweepFormat {
    let fixtures = md5::fixtures::all()
        .into_iter()
        .filter(|(name, _)| name.ends_with(&format!(".{kind}")));
    let corpus: fn(&Path) -> Vec<PathBuf> = match kind {
        "md5mesh" => |dir: &Path| common::files_with_extension(dir, &["md5mesh"]),
        "md5anim" => |dir: &Path| common::files_with_extension(dir, &["md5anim"]),
        _ => |dir: &Path| common::files_with_extension(dir, &["md5camera"]),
    };
    SweepFormat {
        name: kind,
        parse,
        fixtures: named(fixtures.collect()),
        corpus,
        knobs: Knobs {
            complete_from,
            text: Some(Text {
                // Equal values, and equal as printed (which also tells -0 from 0).
                same_values: |a, b| {
                    let (a, b) = match (a, b) {
                        (Document::Md5Mesh(a), Document::Md5Mesh(b)) => (
                            a.file == b.file,
                            [format!("{:?}", a.file), format!("{:?}", b.file)],
                        ),
                        (Document::Md5Anim(a), Document::Md5Anim(b)) => (
                            a.file == b.file,
                            [format!("{:?}", a.file), format!("{:?}", b.file)],
                        ),
                        (Document::Md5Camera(a), Document::Md5Camera(b)) => (
                            a.file == b.file,
                            [format!("{:?}", a.file), format!("{:?}", b.file)],
                        ),
                        _ => return false,
                    };
                    a && b[0] == b[1]
                },
            }),
            huge_counts,
            counts_model_vertices: true,
            corpus: CorpusMutations {
                must_parse: false,
                cuts: 64,
                flips: 0,
                head: 0,
                boundary_step: None,
                replacements: 16,
            },
            ..Knobs::default()
        },
    }
}

fn named(fixtures: Vec<(&str, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    fixtures
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// What every input must satisfy.

/// Every engine name `Document::validate` knows; the others are refused, which is fine.
const ENGINES: &[Option<&str>] = &[
    None,
    Some("quake"),
    Some("glquake"),
    Some("quakespasm"),
    Some("quake2"),
    Some("quake2-soft"),
    Some("doom3"),
    Some("acknex"),
];

/// Reads `bytes` as `f`. An error must name the format (and, for text, a line and column);
/// `Some(kind)` is returned. An accepted file must write back (byte for byte, or value for
/// value for text), convert to a model that passes `Model::validate`, summarise consistently,
/// validate for every engine without a panic, and convert back where the format can; `None`
/// is returned.
fn check(f: &SweepFormat, bytes: &[u8], what: &str) -> Option<ErrorKind> {
    let limits = Limits::default();
    let doc = match (f.parse)(bytes, &limits) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                e.format.starts_with(f.name) && text.starts_with(&format!("{}: ", e.format)),
                "{what}: {text}"
            );
            if f.knobs.text.is_some() {
                assert!(text.contains(" at line "), "{what}: {text}");
            }
            return Some(e.kind);
        }
        Ok(doc) => doc,
    };
    let written = doc.write();
    match &f.knobs.text {
        None => assert!(
            written == bytes,
            "{what}: parsed file must write back unchanged"
        ),
        Some(text) => {
            let back = (f.parse)(&written, &limits)
                .unwrap_or_else(|e| panic!("{what}: written file does not parse: {e}"));
            assert!(
                (text.same_values)(&back, &doc),
                "{what}: values differ after writing"
            );
        }
    }
    let c = doc.to_model(&ConvertOptions::default(), &NoFiles);
    c.model
        .validate()
        .unwrap_or_else(|e| panic!("{what}: invalid model: {e}"));
    let positions = c
        .model
        .meshes
        .iter()
        .flat_map(|m| m.positions.iter().flatten());
    if f.knobs.finite_positions && !positions.clone().all(|c| c.is_finite()) {
        // See KNOWN_NON_FINITE.
        assert!(
            KNOWN_NON_FINITE.contains(&what),
            "{what}: a position is not finite"
        );
        KNOWN_NON_FINITE_SEEN.fetch_add(1, Ordering::Relaxed);
    }
    let s = doc.summary(&c);
    let m = &c.model;
    // Poses: keyframes, else the camera's or the skeletal animations' frames.
    let poses = if !m.frames.is_empty() {
        m.frames.len()
    } else if let Some(camera) = &m.camera {
        camera.keys.len()
    } else {
        m.animations.iter().map(|a| a.frames.len()).sum()
    };
    assert_eq!(s.poses, poses, "{what}: poses");
    assert_eq!(s.triangles, m.triangle_count(), "{what}: triangles");
    if f.knobs.counts_model_vertices {
        assert_eq!(s.vertices, m.vertex_count(), "{what}: vertices");
    }
    for engine in ENGINES {
        let _ = doc.validate(*engine);
    }
    if let Some(again) = f.knobs.from_model.and_then(|w| w(&c.model)) {
        (f.parse)(&again, &limits)
            .unwrap_or_else(|e| panic!("{what}: rewritten file does not parse: {e}"));
    }
    None
}

/// At a token boundary a text is short, not wrong: an error there must say so.
fn check_token_boundary(f: &SweepFormat, bytes: &[u8], what: &str) {
    if let Some(kind) = check(f, bytes, what) {
        assert!(
            matches!(kind, ErrorKind::Truncated | ErrorKind::BadCount),
            "{what}: {kind:?}"
        );
    }
}

/// The sweeps run one at a time, each measuring its own peak memory (as when each format's
/// sweep was a test binary of its own); the corpus sweep spreads its files over two threads.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    common::reset_peak_rss();
    guard
}

/// Known bug, kept visible: a WMP object scale of `1e39` overflows f32 to infinity, and the
/// level converts to infinite positions (`Model::validate` does not check positions). These
/// token-replacement cases hit it; the sweep fails once they no longer do.
const KNOWN_NON_FINITE: &[&str] = &[
    "tiny_710.wmp replacement 380",
    "tiny_710.wmp double replacement 380",
    "tiny_710.wmp replacement 630",
    "nested.wmp replacement 340",
    "nested.wmp double replacement 340",
];

/// How often a case of `KNOWN_NON_FINITE` was met (a case may be checked twice: after
/// writing, the written text is not checked again, but the double replacement is).
static KNOWN_NON_FINITE_SEEN: AtomicUsize = AtomicUsize::new(0);

/// A generator for one sweep of one format, so that each sweep's cases stay the same when
/// formats are added or sweeps run in another order.
fn rng(sweep: &str, format: &SweepFormat) -> Rng {
    Rng::for_name(&format!("{sweep} {}", format.name))
}

// ---------------------------------------------------------------------------------------------
// The sweeps.

/// Every fixture parses, and so does every prefix from the length where the format says
/// the file is whole, and no shorter one. Text formats: cut at every token boundary too.
#[test]
fn every_truncation() {
    let _serial = serial();
    let mut cases = 0usize;
    for f in formats() {
        for (name, bytes) in &f.fixtures {
            assert_eq!(check(&f, bytes, name), None, "{name} must parse");
            let doc = (f.parse)(bytes, &Limits::default()).unwrap();
            let end = (f.knobs.complete_from)(&doc, bytes);
            for cut in 0..bytes.len() {
                let ok = check(&f, &bytes[..cut], &format!("{name} cut at {cut}")).is_none();
                if let Some(end) = end {
                    assert_eq!(ok, cut >= end, "{name} cut at {cut}");
                }
                cases += 1;
            }
            if f.knobs.text.is_some() {
                for (start, stop) in token_spans(bytes) {
                    for cut in [start, stop] {
                        let what = format!("{name} cut at token boundary {cut}");
                        check_token_boundary(&f, &bytes[..cut], &what);
                        cases += 1;
                    }
                }
            }
        }
    }
    common::assert_bounded_memory(cases);
}

/// One flipped bit at every byte of every fixture, the bit chosen by the generator.
#[test]
fn bit_flips() {
    let _serial = serial();
    let mut cases = 0usize;
    for f in formats() {
        let mut rng = rng("flips", &f);
        for (name, bytes) in &f.fixtures {
            for at in 0..bytes.len() {
                let mut b = bytes.clone();
                b[at] ^= 1 << rng.below(8);
                check(&f, &b, &format!("{name} flip at {at}"));
                cases += 1;
            }
        }
    }
    common::assert_bounded_memory(cases);
}

/// Values that break counts, offsets and sizes, for a 4-byte header word: integers, then
/// floats (HMP's header has scales and origins).
fn extreme_words() -> Vec<[u8; 4]> {
    let ints = [
        0i32,
        1,
        -1,
        i32::MIN,
        i32::MAX,
        0x4000_0000,
        3,
        7,
        8,
        14,
        48,
        68,
        597,
        812,
        65535,
    ];
    let floats = [0.0f32, -1.0, 0.5, 1e30, f32::NAN, f32::INFINITY, 16777216.0];
    let ints = ints.iter().map(|v| v.to_le_bytes());
    ints.chain(floats.iter().map(|v| v.to_le_bytes())).collect()
}

/// Values for a 2-byte header word (MDL7's structure sizes): the real sizes and their
/// neighbours.
const EXTREME_SHORTS: [u16; 13] = [0, 1, 6, 12, 14, 15, 16, 22, 24, 26, 66, 68, 0xFFFF];

/// Every header word of every fixture set to every extreme value.
#[test]
fn extreme_header_words() {
    let _serial = serial();
    let words = extreme_words();
    let shorts: Vec<Vec<u8>> = EXTREME_SHORTS
        .iter()
        .map(|v| v.to_le_bytes().to_vec())
        .collect();
    let mut cases = 0usize;
    for f in formats() {
        for (name, bytes) in &f.fixtures {
            for &(start, end, width) in f.knobs.header_words {
                let values: Vec<&[u8]> = match width {
                    4 => words.iter().map(|v| &v[..]).collect(),
                    _ => shorts.iter().map(|v| &v[..]).collect(),
                };
                for at in (start..end).step_by(width) {
                    for v in &values {
                        let mut b = bytes.clone();
                        if let Some(word) = b.get_mut(at..at + width) {
                            word.copy_from_slice(v);
                        }
                        check(&f, &b, &format!("{name} header word {at} = {v:?}"));
                        cases += 1;
                    }
                }
            }
        }
    }
    common::assert_bounded_memory(cases);
}

/// Text formats: one random token of a fixture replaced, then a second one.
#[test]
fn token_replacements() {
    let _serial = serial();
    let mut cases = 0usize;
    for f in formats().into_iter().filter(|f| f.knobs.text.is_some()) {
        let mut rng = rng("tokens", &f);
        for (name, bytes) in &f.fixtures {
            let spans = token_spans(bytes);
            for i in 0..1000 {
                let b = replace_token(bytes, &spans, &mut rng);
                check(&f, &b, &format!("{name} replacement {i}"));
                // Two replacements at once reach further.
                let b = replace_token(&b, &token_spans(&b), &mut rng);
                check(&f, &b, &format!("{name} double replacement {i}"));
                cases += 2;
            }
        }
    }
    assert_eq!(
        KNOWN_NON_FINITE_SEEN.load(Ordering::Relaxed),
        KNOWN_NON_FINITE.len(),
        "a known bug is fixed: empty KNOWN_NON_FINITE"
    );
    common::assert_bounded_memory(cases);
}

/// Huge counts in tiny files fail before allocating.
#[test]
fn huge_counts_fail_early() {
    let _serial = serial();
    let mut cases = 0usize;
    for f in formats() {
        for text in f.knobs.huge_counts {
            let kind = check(&f, text.as_bytes(), text);
            assert_eq!(kind, Some(ErrorKind::BadCount), "{}: {text}", f.name);
            cases += 1;
        }
    }
    common::assert_bounded_memory(cases);
}

/// Mutations of every corpus file of every format (see [`CorpusMutations`]). The files are
/// shared out to two threads, largest first: a few large MD2 files take most of the time.
/// Two at a time keep the peak memory (that of the two largest cases at once) well bounded.
#[test]
fn corpus_mutations() {
    let _serial = serial();
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let formats = formats();
    let mut jobs: Vec<(&SweepFormat, PathBuf, u64)> = Vec::new();
    for f in &formats {
        for path in (f.corpus)(&dir) {
            let len = std::fs::metadata(&path).unwrap().len();
            jobs.push((f, path, len));
        }
    }
    jobs.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.1.cmp(&b.1)));
    let next = AtomicUsize::new(0);
    let cases = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while let Some((f, path, _)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let name = path.strip_prefix(&dir).unwrap_or(path);
                    let n = mutate_corpus_file(f, path, &name.display().to_string());
                    cases.fetch_add(n, Ordering::Relaxed);
                }
            });
        }
    });
    common::assert_bounded_memory(cases.into_inner());
}

/// The mutations of one corpus file; returns the case count.
fn mutate_corpus_file(f: &SweepFormat, path: &Path, name: &str) -> usize {
    let bytes = std::fs::read(path).unwrap();
    if bytes.is_empty() {
        return 0;
    }
    let m = f.knobs.corpus;
    let mut rng = Rng::for_name(&format!("corpus {} {name}", f.name));
    let what = path.display().to_string();
    if m.must_parse {
        assert_eq!(check(f, &bytes, &what), None, "{what}");
    }
    let mut cases = common::mutate_file(
        &bytes,
        &what,
        &mut rng,
        (m.cuts, m.flips, m.head),
        &mut |b: &[u8], w: &str| {
            check(f, b, w);
        },
    );
    if f.knobs.text.is_none() {
        return cases;
    }
    let spans = token_spans(&bytes);
    if let Some(step) = m.boundary_step {
        for &(start, stop) in spans.iter().step_by(step) {
            for cut in [start, stop] {
                let what = format!("{what} cut at token boundary {cut}");
                check_token_boundary(f, &bytes[..cut], &what);
                cases += 1;
            }
        }
    }
    for i in 0..m.replacements {
        let b = replace_token(&bytes, &spans, &mut rng);
        check(f, &b, &format!("{what} replacement {i}"));
        cases += 1;
    }
    cases
}

/// WMP only: deep or wide object hierarchies stay bounded.
#[test]
fn wmp_deep_object_hierarchy_stays_bounded() {
    let _serial = serial();
    let mut text = String::from("// WMP2\nblock 0 { ( 0 0 1 ) ( 0 1 1 ) ( 1 0 1 ) t 0 0 0 1 1 : 0 0 0 ( 1 0 0 ) ( 1 0 1 ) ( 1 1 0 ) t 0 0 0 1 1 : 0 0 0 ( 0 -1 0 ) ( 0 -1 1 ) ( 1 -1 0 ) t 0 0 0 1 1 : 0 0 0 ( -1 0 0 ) ( -1 1 0 ) ( -1 0 1 ) t 0 0 0 1 1 : 0 0 0 ( 0 1 0 ) ( 1 1 0 ) ( 0 1 1 ) t 0 0 0 1 1 : 0 0 0 ( 0 0 -1 ) ( 1 0 -1 ) ( 0 1 -1 ) t 0 0 0 1 1 : 0 0 0 }\n");
    for o in 0..40 {
        text += &format!(
            "object {o} {{ (1 0 0) (0 0 0) (1 1 1) object {n}, {n}, {n}, {n} block 0 }}\n",
            n = o + 1
        );
    }
    text += "object 40 { (0 0 0) (0 0 0) (1 1 1) object 1 }\n";
    let p = wmp::parse(text.as_bytes(), &Limits::default()).unwrap();
    let c = wmp::to_model(&p.file, &p.warnings);
    assert!(c.model.vertex_count() <= 1 << 20);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("the rest is left out")),
        "{:?}",
        c.warnings
    );
    assert!(c.warnings.len() < 10, "{:?}", c.warnings);
    common::assert_bounded_memory(1);
}

// ---------------------------------------------------------------------------------------------
// Tokens of the text formats (MD5 and WMP).

fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
}

fn is_symbol(b: u8) -> bool {
    b"{}(),:;".contains(&b)
}

/// The spans of a text's tokens, roughly: runs of non-space bytes, each symbol alone,
/// `//` comments and `<...>` file names whole.
fn token_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_space(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            i += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        } else if rest[0] == b'<' {
            i += rest
                .iter()
                .position(|&b| b == b'>')
                .map_or(rest.len(), |n| n + 1);
        } else {
            i += 1;
            if !is_symbol(bytes[start]) {
                while i < bytes.len() && !is_space(bytes[i]) && !is_symbol(bytes[i]) {
                    i += 1;
                }
            }
        }
        spans.push((start, i));
    }
    spans
}

/// What a replaced token becomes: numbers at and past the limits of the number types,
/// symbols, unterminated strings and comments, and the keywords of both formats.
const REPLACEMENTS: &[&[u8]] = &[
    b"",
    b"0",
    b"1",
    b"2",
    b"3",
    b"-1",
    b"-2",
    b"-0",
    b"007",
    b"63",
    b"64",
    b"4294967295",
    b"4294967296",
    b"16777217",
    b"99999999999999999999",
    b"1e39",
    b"1e308",
    b"1e999",
    b"-1e-45",
    b".5",
    b"0f",
    b"ZZ",
    b"1.#IND00",
    b"nan",
    b"{",
    b"}",
    b"(",
    b")",
    b",",
    b":",
    b";",
    b"<x.wad>",
    b"<",
    b"\"x\"",
    b"\"x y\"",
    b"\"a\rb\\\"",
    b"\"",
    b"//",
    b"/*",
    b"numJoints",
    b"mesh",
    b"frame",
    b"vert",
    b"MD5Version",
    b"ndef",
    b"block",
    b"object",
    b"level",
    b"light",
    b"entity",
    b"vertices",
    b"faces",
    b"wed",
    b"palette",
    b"view",
    b"\xe9",
    b"\0",
    b"\n",
];

/// `bytes` with one random token replaced by a random replacement.
fn replace_token(bytes: &[u8], spans: &[(usize, usize)], rng: &mut Rng) -> Vec<u8> {
    let (start, end) = spans[rng.below(spans.len())];
    let with = REPLACEMENTS[rng.below(REPLACEMENTS.len())];
    [&bytes[..start], with, &bytes[end..]].concat()
}
