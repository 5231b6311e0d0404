//! What the fuzz targets run: the registry's oracle for one codec (parse, write back,
//! Model, summary, validate; then every writer on small models) or an importer, under a
//! counting allocator that makes any input whose peak heap, up to the Model, exceeds
//! 64 MiB + 16 x its size a finding.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use retromodel::interchange::{self as import, ImportOptions};
use retromodel::{registry, Limits, NoFiles};

#[path = "../../crates/retromodel/tests/oracle/mod.rs"]
mod oracle;

/// Heap in use and its peak since the last reset.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only counters move.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
            let now = CURRENT.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The limits the targets parse under: the allocation budget is half of what
/// [`bounded`] allows, so a parser whose real allocations stay within twice what it charges
/// never trips the check, and one that allocates without charging does.
fn limits(len: usize) -> Limits {
    Limits {
        max_alloc_bytes: ((32 << 20) + 8 * len) as u64,
        ..Limits::default()
    }
}

/// Runs `f` and panics if the heap it used at its peak exceeds 64 MiB + 16 x `len`.
fn bounded(len: usize, f: impl FnOnce()) {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    let used = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    let allowed = (64 << 20) + 16 * len;
    assert!(
        used <= allowed,
        "peak heap {used} bytes for a {len}-byte input (allowed {allowed})"
    );
}

/// The registry's checks for the codec named `name` on `data`.
pub fn codec(name: &str, data: &[u8]) {
    let codec = registry::codec_named(name).expect("a registered codec");
    let mut model = None;
    bounded(data.len(), || {
        model = oracle::check_parse(codec, data, &limits(data.len()));
    });
    // The writers' outputs may rightly be larger than a tiny input (a blank skin of the
    // size an MD2 header declares), so they run outside the bound, on small models only.
    if let Some(model) = model {
        oracle::check_writers(codec, &model);
    }
}

/// The parser's checks only, for the codec named `name` on `data`: parse, write back, Model,
/// summary and validate, within the memory bound; no writers. The `parse_*` targets run
/// this at many times the `codec_*` targets' rate (those run every writer on each small
/// model, the GoldSrc bone fitting included), so each parser reaches the campaign's
/// executions (issue 44); the writers keep their own counts under `codec_*`.
pub fn parse(name: &str, data: &[u8]) {
    let codec = registry::codec_named(name).expect("a registered codec");
    bounded(data.len(), || {
        oracle::check_parse(codec, data, &limits(data.len()));
    });
}

/// Imports `data` with `read` under the bounded limits; a Model that comes out must be valid.
fn import_with(
    data: &[u8],
    read: impl FnOnce(&[u8], &ImportOptions) -> retromodel::Result<retromodel::Converted>,
) {
    bounded(data.len(), || {
        let options = ImportOptions {
            limits: limits(data.len()),
            ..ImportOptions::default()
        };
        if let Ok(c) = read(data, &options) {
            c.model.validate().expect("imported model is valid");
        }
    });
}

/// Imports `data` as glTF (binary or JSON); a Model that comes out must be valid.
pub fn gltf(data: &[u8]) {
    import_with(data, |d, o| import::gltf::read(d, &NoFiles, o));
}

/// Imports `data` as OBJ; a Model that comes out must be valid.
pub fn obj(data: &[u8]) {
    import_with(data, |d, o| import::obj::read(d, &NoFiles, o));
}

/// Opens `data` as an archive (PAK or ZIP) and reads every entry; the whole stays within the
/// memory bound, so a zip bomb is a finding.
pub fn archive(data: &[u8]) {
    bounded(data.len(), || {
        let limits = limits(data.len());
        if let Ok(a) = retromodel::vfs::open_bytes(data.to_vec(), &limits) {
            for i in 0..a.entries().len() {
                if let Ok(bytes) = a.read(i, &limits) {
                    assert_eq!(
                        bytes.len() as u64,
                        a.entries()[i].size,
                        "declared size kept"
                    );
                }
            }
        }
    });
}

/// Decodes `data` as a picture under every name hint of `image::IMAGE_EXTENSIONS` (and none),
/// WAL with a fixed palette: each result must be an error or a picture with as many pixels as
/// its size says, within the memory bound.
pub fn image(data: &[u8]) {
    use retromodel::image::{self, Palette, Pixels};
    let palette = Palette::QUAKE;
    bounded(data.len(), || {
        let limits = limits(data.len());
        let names = image::IMAGE_EXTENSIONS
            .iter()
            .map(|ext| format!("fuzz.{ext}"))
            .chain(["fuzz".to_string()]);
        for name in names {
            let decoded = image::decode_with_palette(data, &name, Some(&palette), &limits);
            if let Ok(img) = decoded {
                let texels = img.width as usize * img.height as usize;
                assert!(texels > 0, "{name}: empty picture");
                match &img.pixels {
                    Pixels::Indexed { indices, .. } => assert_eq!(indices.len(), texels),
                    Pixels::Rgba8(px) => assert_eq!(px.len(), texels * 4),
                }
                // The file glTF would embed: its chunk or segment walk must not panic.
                if let Some(original) = img.original_file() {
                    let _ = original.without_metadata();
                }
            }
        }
        let _ = image::decode_wal(data, &palette, &limits);
    });
}

/// The separator of the parts of a [`rerelease`] input.
pub const PART_SEPARATOR: &[u8] = b"\n\0\n";

/// The Quake II re-release pairing: `data` holds an md5mesh, an md5anim and an md5scale
/// separated by [`PART_SEPARATOR`], paired with a generated MD2 as q2pro pairs them
/// (`rerelease::find`); a usable pair is shown in the MD2's place (`rerelease::apply`), and
/// the model that comes out must be valid. The md5scale is also read on its own against the
/// mesh's joints.
pub fn rerelease(data: &[u8]) {
    use retromodel::formats::md5::scale;
    use retromodel::rerelease::{self, Game};
    use std::collections::HashMap;
    struct Folder(HashMap<String, Vec<u8>>);
    impl retromodel::Resolver for Folder {
        fn load(&self, name: &str) -> Option<Vec<u8>> {
            self.0.get(name).cloned()
        }
        fn model_name(&self) -> Option<String> {
            Some("tris.md2".into())
        }
    }
    let mut parts = Vec::new();
    let mut rest = data;
    while parts.len() < 2 {
        match rest
            .windows(PART_SEPARATOR.len())
            .position(|w| w == PART_SEPARATOR)
        {
            Some(i) => {
                parts.push(&rest[..i]);
                rest = &rest[i + PART_SEPARATOR.len()..];
            }
            None => break,
        }
    }
    parts.push(rest);
    let names = ["md5/tris.md5mesh", "md5/tris.md5anim", "md5/tris.md5scale"];
    let folder = Folder(
        names
            .iter()
            .zip(&parts)
            .map(|(n, p)| (n.to_string(), p.to_vec()))
            .collect(),
    );
    let classic_bytes = retromodel::formats::md2::fixtures::minimal();
    let doc = retromodel::Document::parse(&classic_bytes, &Limits::default()).expect("fixture");
    let classic = doc.to_model(&Default::default(), &NoFiles);
    bounded(data.len(), || {
        let limits = limits(data.len());
        if let Some(last) = parts.last() {
            let joints = ["origin", "body", "arm"];
            let frames = usize::from(data.first().copied().unwrap_or(0) % 8);
            if let Ok(r) = scale::parse_scales(last, &joints, frames) {
                assert_eq!(r.scales.frames.len(), frames);
            }
        }
        let Some(rep) = rerelease::find_with(Game::Quake2, &classic.model, &folder, &limits) else {
            return;
        };
        rep.model
            .validate()
            .expect("the replacement's model is valid");
        // Small models only: baking is frames x vertices.
        let work: usize = rep.model.vertex_count() * rep.anim_frames.max(1);
        if rep.usable() && work < 200_000 {
            if let Ok(c) = rerelease::apply_with(&classic, &rep, &limits) {
                c.model.validate().expect("the model shown is valid");
            }
        }
    });
}

/// The meshopt decoders (`EXT_meshopt_compression`): `data[0]` picks the mode and filter,
/// `data[1..3]` the element count (little-endian u16), `data[3]` the stride in 4-byte steps
/// (2 bytes for the index codecs when odd), the rest is the compressed view. A decode must
/// not panic, and what it returns is exactly `count * stride` bytes.
pub fn meshopt(data: &[u8]) {
    use retromodel::interchange::gltf::meshopt::{decode_view, Filter, Mode};
    let Some((head, body)) = data.split_at_checked(4) else {
        return;
    };
    let mode = [Mode::Attributes, Mode::Triangles, Mode::Indices][usize::from(head[0] % 3)];
    let filter = [Filter::None, Filter::Octahedral, Filter::Quaternion, Filter::Exponential]
        [usize::from((head[0] / 3) % 4)];
    let count = usize::from(u16::from_le_bytes([head[1], head[2]]));
    let stride = match mode {
        Mode::Attributes => 4 * (usize::from(head[3] % 64) + 1),
        _ if head[3] % 2 == 1 => 2,
        _ => 4,
    };
    bounded(data.len() + count * stride, || {
        if let Ok(out) = decode_view(mode, filter, count, stride, body) {
            assert_eq!(out.len(), count * stride);
        }
    });
}
