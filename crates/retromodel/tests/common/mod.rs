//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

mod corpus;
pub use corpus::corpus;

/// The corpus folder named by `RETROMODEL_CORPUS` ([`corpus`]): `None` (with a printed
/// notice) when the variable is unset; a panic when it is set but the folder is missing.
pub fn corpus_dir() -> Option<PathBuf> {
    corpus("corpus test")
}

/// Every file under `dir` (recursively, sorted) for which `keep` holds.
pub fn files_where(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if keep(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every file under `dir` (recursively, sorted) whose first four bytes are `magic`.
pub fn files_with_magic(dir: &Path, magic: &[u8; 4]) -> Vec<PathBuf> {
    files_where(dir, &|p| {
        let mut head = [0u8; 4];
        use std::io::Read;
        let ok = std::fs::File::open(p)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok();
        ok && &head == magic
    })
}

/// Every file under `dir` (recursively, sorted) whose extension is one of `exts` (any case).
pub fn files_with_extension(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    files_where(dir, &|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
    })
}

/// The file at `path`, named for messages by its path, and its bytes.
pub fn read_named(path: &Path) -> (String, Vec<u8>) {
    (path.display().to_string(), std::fs::read(path).unwrap())
}

/// The `.md5anim` files in the folder of `mesh` (sorted): the animations beside it.
pub fn md5_anims_beside(mesh: &Path) -> Vec<PathBuf> {
    let mut anims: Vec<PathBuf> = std::fs::read_dir(mesh.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md5anim"))
        .collect();
    anims.sort();
    anims
}

/// The strings of the JSON array `v` (a `HEADERS.jsonl` list).
pub fn str_array(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// What a corpus test of one format needs: the corpus folder, the rows of its
/// `HEADERS.jsonl` and its files whose first four bytes are `magic`; `None` (with a printed
/// notice) when `RETROMODEL_CORPUS` is unset.
pub fn corpus_with_magic(
    magic: &[u8; 4],
) -> Option<(
    PathBuf,
    std::collections::HashMap<String, serde_json::Value>,
    Vec<PathBuf>,
)> {
    let dir = corpus_dir()?;
    let headers = headers(&dir);
    let files = files_with_magic(&dir, magic);
    Some((dir, headers, files))
}

/// `bytes` parsed as whatever format they are and converted with the default options;
/// panics, naming `what`, unless the model is valid.
pub fn convert_valid<'a>(
    bytes: &'a [u8],
    what: &str,
) -> (retromodel::Document<'a>, retromodel::Converted) {
    let doc = retromodel::Document::parse(bytes, &retromodel::Limits::default()).unwrap();
    let converted = doc.to_model(&Default::default(), &retromodel::NoFiles);
    converted
        .model
        .validate()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    (doc, converted)
}

/// Per frame and axis, the quantisation step of a parsed MDL or MD2.
pub fn steps(bytes: &[u8]) -> Vec<[f32; 3]> {
    use retromodel::formats::{md2, quake_mdl};
    let limits = retromodel::Limits::default();
    match md2::File::parse(bytes, &limits) {
        Ok(f) => f.frames.iter().map(|fr| fr.scale).collect(),
        Err(_) => {
            let f = quake_mdl::File::parse(bytes, &limits).expect("MDL or MD2");
            vec![f.header.scale; f.pose_count()]
        }
    }
}

/// `path` relative to the corpus folder `dir`, with `/` separators: the key of
/// [`headers`].
pub fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// The rows of the corpus's `HEADERS.jsonl` by relative path.
pub fn headers(dir: &Path) -> std::collections::HashMap<String, serde_json::Value> {
    std::fs::read_to_string(dir.join("HEADERS.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| (v["path"].as_str().unwrap().to_string(), v))
        .collect()
}

/// A GLB container around `json` and `bin` (each chunk padded to 4 bytes).
pub fn glb(json: &serde_json::Value, bin: &[u8]) -> Vec<u8> {
    let mut j = serde_json::to_vec(json).unwrap();
    while !j.len().is_multiple_of(4) {
        j.push(b' ');
    }
    let mut b = bin.to_vec();
    while !b.len().is_multiple_of(4) {
        b.push(0);
    }
    let total = 12 + 8 + j.len() + 8 + b.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&b);
    out
}

/// Writes `v` little-endian at `at` (a field of a fixture, broken on purpose).
pub fn set_i32(bytes: &mut [u8], at: usize, v: i32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Writes `v` little-endian at `at`.
pub fn set_u16(bytes: &mut [u8], at: usize, v: u16) {
    bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

/// Writes `v` little-endian at `at`.
pub fn set_f32(bytes: &mut [u8], at: usize, v: f32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// An invalid-file case: name, how to break the bytes, the error's kind and text.
pub type Case = (
    &'static str,
    Box<dyn Fn(&mut Vec<u8>)>,
    retromodel::ErrorKind,
    &'static str,
);

/// Asserts an error's kind and its whole text.
pub fn assert_error(e: &retromodel::Error, kind: retromodel::ErrorKind, text: &str) {
    assert_eq!(e.kind, kind, "{e}");
    assert_eq!(e.to_string(), text);
}

/// Breaks a copy of `bytes` as each case says and checks the error `err` gives for it: its
/// text and its kind.
pub fn assert_cases(bytes: &[u8], cases: Vec<Case>, err: impl Fn(&[u8]) -> retromodel::Error) {
    for (what, edit, kind, text) in cases {
        let mut b = bytes.to_vec();
        edit(&mut b);
        let e = err(&b);
        assert_eq!(e.to_string(), text, "{what}");
        assert_eq!(e.kind, kind, "{what}");
    }
}

/// A small deterministic xorshift generator for the sweeps.
pub struct Rng(pub u64);

impl Rng {
    /// A generator seeded from a name (FNV-1a), so that each sweep of each format draws its
    /// own sequence, whatever runs before it.
    pub fn for_name(name: &str) -> Rng {
        let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Rng(hash | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Peak resident memory of this process in KiB (Linux `VmHWM`), if known.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Resets the peak resident memory that [`peak_rss_kib`] reads (Linux: `5` to
/// `/proc/self/clear_refs`), so that a test measures its own; where that is refused the peak
/// stays that of the whole process so far.
pub fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Feeds `check` the cut and bit-flipped versions of a real file the sweeps use: `cuts`
/// truncation points spread over the file, and `flips` single-bit flips, half of them in the
/// first `head` bytes (header and geometry, where they matter most). Returns the case count.
pub fn mutate_file(
    bytes: &[u8],
    what: &str,
    rng: &mut Rng,
    (cuts, flips, head): (usize, usize, usize),
    check: &mut dyn FnMut(&[u8], &str),
) -> usize {
    for k in 0..cuts {
        let cut = bytes.len() * k / cuts + rng.below(bytes.len() / cuts + 1);
        check(
            &bytes[..cut.min(bytes.len())],
            &format!("{what} cut at {cut}"),
        );
    }
    for _ in 0..flips {
        let mut b = bytes.to_vec();
        let span = if rng.below(2) == 0 {
            bytes.len().min(head)
        } else {
            bytes.len()
        };
        let at = rng.below(span.max(1));
        if let Some(byte) = b.get_mut(at) {
            *byte ^= 1 << rng.below(8);
        }
        check(&b, &format!("{what} flip at {at}"));
    }
    cuts + flips
}

/// Prints the sweep's case count and peak memory, and fails above 256 MiB.
pub fn assert_bounded_memory(cases: usize) {
    let peak = peak_rss_kib();
    eprintln!("{cases} sweep cases, peak memory {peak:?} KiB");
    if let Some(kib) = peak {
        assert!(kib < 256 * 1024, "peak memory {kib} KiB exceeds 256 MiB");
    }
}

/// Small column-major 4x4 maths for reference skinning in the glTF tests, written apart from
/// the library's so that the tests check it.
pub mod mat {
    /// Column-major 4x4.
    pub type Mat = [f32; 16];

    pub fn mat_mul(a: &Mat, b: &Mat) -> Mat {
        let mut m = [0.0; 16];
        for c in 0..4 {
            for r in 0..4 {
                m[4 * c + r] = (0..4).map(|k| a[4 * k + r] * b[4 * c + k]).sum();
            }
        }
        m
    }

    pub fn mat_point(m: &Mat, p: [f32; 3]) -> [f32; 3] {
        [0, 1, 2].map(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
    }

    /// A node's rest transform: translation, rotation `[x, y, z, w]`, scale.
    pub type Rest = ([f32; 3], [f32; 4], [f32; 3]);

    /// Each node's parent (by node index) and rest transform.
    pub fn node_tree(doc: &gltf::Document) -> (Vec<Option<usize>>, Vec<Rest>) {
        let n = doc.nodes().count();
        let mut parent = vec![None; n];
        let mut rest = Vec::with_capacity(n);
        for node in doc.nodes() {
            for c in node.children() {
                parent[c.index()] = Some(node.index());
            }
            rest.push(node.transform().decomposed());
        }
        (parent, rest)
    }

    /// The joint matrices of a glTF skin (`global × inverse bind` per joint), from the
    /// global matrices of the nodes (by node index) and the skin's accessors in `blob`.
    pub fn skin_matrices(skin: &gltf::Skin<'_>, blob: &[u8], global: &[Mat]) -> Vec<Mat> {
        let get = |b: gltf::Buffer<'_>| (b.index() == 0).then_some(blob);
        let ibm: Vec<Mat> = skin
            .reader(get)
            .read_inverse_bind_matrices()
            .unwrap()
            .map(|m| std::array::from_fn(|i| m[i / 4][i % 4]))
            .collect();
        skin.joints()
            .zip(&ibm)
            .map(|(j, ibm)| mat_mul(&global[j.index()], ibm))
            .collect()
    }

    pub fn trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat {
        let [x, y, z, w] = q;
        let r = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + w * z),
                2.0 * (x * z - w * y),
            ],
            [
                2.0 * (x * y - w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + w * x),
            ],
            [
                2.0 * (x * z + w * y),
                2.0 * (y * z - w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        [
            r[0][0] * s[0],
            r[0][1] * s[0],
            r[0][2] * s[0],
            0.0,
            r[1][0] * s[1],
            r[1][1] * s[1],
            r[1][2] * s[1],
            0.0,
            r[2][0] * s[2],
            r[2][1] * s[2],
            r[2][2] * s[2],
            0.0,
            t[0],
            t[1],
            t[2],
            1.0,
        ]
    }
}
