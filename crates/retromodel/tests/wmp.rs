//! 3D GameStudio WMP text levels: the A4 manual's examples and the generated fixtures
//! decoded value for value, the manual's block as a closed 64-unit cube, token-for-token
//! round trips (corpus included), solids that are planar, convex, closed and outward-facing,
//! the exact warnings of every lenient case and the exact error text (with line and column)
//! of every strict one.

mod common;

use std::collections::HashMap;

use retromodel::formats::wmp::{
    self, fixtures, Atom, Item, Node, Num, Shape, Solid, WedSection, WmpFile,
};
use retromodel::summary::Value;
use retromodel::{ErrorKind, Limits, Model};

fn parse(text: &[u8]) -> wmp::Parsed {
    wmp::parse(text, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn parse_str(text: &str) -> wmp::Parsed {
    parse(text.as_bytes())
}

/// The tokens of a WMP text, found independently of the crate's lexer: comments (`//` to
/// the end of the line, trailing whitespace left out) included, `<...>` and `"..."` whole,
/// each of `{ } ( ) , : ;` alone, everything else split at whitespace.
fn tokens(text: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b.is_ascii_whitespace() || b == 0x0b {
            i += 1;
        } else if text[i..].starts_with(b"//") {
            let end = text[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(text.len(), |n| i + n);
            out.push(
                String::from_utf8_lossy(&text[i..end])
                    .trim_end()
                    .to_string(),
            );
            i = end;
        } else if b"{}(),:;".contains(&b) {
            out.push((b as char).to_string());
            i += 1;
        } else if b == b'<' || b == b'"' {
            let close = if b == b'<' { b'>' } else { b'"' };
            let n = text[i + 1..].iter().position(|&c| c == close).unwrap();
            out.push(String::from_utf8_lossy(&text[i..i + n + 2]).into_owned());
            i += n + 2;
        } else {
            let n = text[i..]
                .iter()
                .position(|&c| c.is_ascii_whitespace() || b"{}(),:;".contains(&c))
                .unwrap_or(text.len() - i);
            out.push(String::from_utf8_lossy(&text[i..i + n]).into_owned());
            i += n;
        }
    }
    out
}

/// Writes, checks the tokens against the original's and the values after reading back.
fn round_trip(text: &[u8], what: &str) -> wmp::Parsed {
    let p = parse(text);
    let written = wmp::write(&p.file);
    assert_eq!(tokens(written.as_bytes()), tokens(text), "{what}: tokens");
    let back = parse(written.as_bytes());
    assert!(back.file == p.file, "{what}: values differ after writing");
    assert_eq!(
        wmp::write(&back.file),
        written,
        "{what}: writing is not stable"
    );
    p
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

type V3 = [f64; 3];

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Every face planar, convex, clockwise seen from outside along its outward normal; every
/// corner of the solid behind every face; every edge shared by exactly two faces, once in
/// each direction.
fn check_solid(s: &Solid, what: &str) {
    assert!(s.faces.len() >= 4, "{what}: {} faces", s.faces.len());
    let size = s
        .vertices
        .iter()
        .flatten()
        .fold(1.0f64, |m, c| m.max(c.abs()));
    let tol = size * 1e-6;
    let center = s
        .vertices
        .iter()
        .fold([0.0; 3], |a, v| [a[0] + v[0], a[1] + v[1], a[2] + v[2]]);
    let center = center.map(|c| c / s.vertices.len() as f64);
    let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
    for (k, f) in s.faces.iter().enumerate() {
        let w = format!("{what}: face {k} (block face {})", f.face);
        let n = f.normal;
        assert!(close(dot(n, n), 1.0), "{w}: normal not unit");
        let pts: Vec<V3> = f.corners.iter().map(|&c| s.vertices[c as usize]).collect();
        assert!(pts.len() >= 3, "{w}: {} corners", pts.len());
        let d = dot(n, pts[0]);
        for p in &pts {
            assert!((dot(n, *p) - d).abs() < tol, "{w}: not planar");
        }
        for i in 0..pts.len() {
            let (a, b, c) = (pts[i], pts[(i + 1) % pts.len()], pts[(i + 2) % pts.len()]);
            let turn = dot(cross(sub(b, a), sub(c, b)), n);
            assert!(
                turn < tol * size,
                "{w}: not convex or not clockwise ({turn})"
            );
        }
        for v in &s.vertices {
            assert!(
                dot(n, *v) <= d + tol,
                "{w}: a corner lies in front of the face"
            );
        }
        let mid = pts
            .iter()
            .fold([0.0; 3], |a, p| [a[0] + p[0], a[1] + p[1], a[2] + p[2]]);
        let mid = mid.map(|c| c / pts.len() as f64);
        assert!(dot(n, sub(mid, center)) > 0.0, "{w}: faces inwards");
        for i in 0..f.corners.len() {
            let e = (f.corners[i], f.corners[(i + 1) % f.corners.len()]);
            *edges.entry(e).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        assert_eq!(n, 1, "{what}: edge {a}-{b} used {n} times");
        assert_eq!(edges.get(&(b, a)), Some(&1), "{what}: edge {a}-{b} is open");
    }
}

/// The model passes `Model::validate`; every triangle is clockwise seen along its vertex
/// normal (the crate's front-face rule); the triangles of every placed block form a closed
/// surface (each directed edge between welded corners once, and its reverse once) that
/// encloses a positive volume (faces outward).
fn check_model(model: &Model, what: &str) {
    model.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
    let mut volume: HashMap<u32, f64> = HashMap::new();
    // Union-find over welded corner numbers: one component per placed block.
    let mut parent: HashMap<u32, u32> = HashMap::new();
    fn find(parent: &mut HashMap<u32, u32>, x: u32) -> u32 {
        let p = *parent.entry(x).or_insert(x);
        if p == x {
            x
        } else {
            let r = find(parent, p);
            parent.insert(x, r);
            r
        }
    }
    let mut tris = Vec::new();
    for (mi, m) in model.meshes.iter().enumerate() {
        assert!(
            m.skin.is_some_and(|s| model.skins[s].name == m.name),
            "{what}"
        );
        for t in &m.triangles {
            let p = t.map(|i| m.positions[i as usize].map(f64::from));
            let n = cross(sub(p[2], p[0]), sub(p[1], p[0]));
            let len = dot(n, n).sqrt();
            if len > 1e-6 {
                let vn = m.normals[t[0] as usize].map(f64::from);
                assert!(
                    dot(n, vn) / len > 0.999,
                    "{what}: mesh {mi}: triangle {t:?} winds against its normal"
                );
            }
            let s = t.map(|i| m.source_vertices[i as usize]);
            for k in 0..3 {
                *edges.entry((s[k], s[(k + 1) % 3])).or_default() += 1;
                let (a, b) = (find(&mut parent, s[k]), find(&mut parent, s[(k + 1) % 3]));
                parent.insert(a, b);
            }
            tris.push((s[0], p));
        }
    }
    for (&(a, b), &n) in &edges {
        assert_eq!(n, 1, "{what}: edge {a}-{b} used {n} times");
        assert_eq!(edges.get(&(b, a)), Some(&1), "{what}: edge {a}-{b} is open");
    }
    for (s, p) in tris {
        let root = find(&mut parent, s);
        *volume.entry(root).or_default() += dot(p[0], cross(p[2], p[1])) / 6.0;
    }
    for (root, v) in volume {
        assert!(v > 0.0, "{what}: the block of corner {root} encloses {v}");
    }
}

fn num3(v: &[Num; 3]) -> [f64; 3] {
    [v[0].value(), v[1].value(), v[2].value()]
}

#[test]
fn manual_block_is_the_closed_cube() {
    let p = round_trip(&fixtures::manual_block(), "manual block");
    assert_eq!(p.warnings, Vec::<String>::new());
    let block = p.file.blocks().next().unwrap();
    assert_eq!(block.index, 0);
    let Shape::Planes(faces) = &block.shape else {
        panic!("plane form expected")
    };
    assert_eq!(faces.len(), 6);
    let f = &faces[0];
    assert_eq!(num3(&f.points[1]), [0.0, 500.0, 32.0]);
    assert_eq!(f.points[1][0].text(), "0.0");
    let s = &f.surface;
    assert_eq!(s.texture, "wood");
    assert_eq!(s.axes, None);
    assert_eq!(
        [
            &s.offset[0],
            &s.offset[1],
            &s.angle,
            &s.scale[0],
            &s.scale[1]
        ]
        .map(|n| n.text()),
        ["0", "0", "0", "1.00", "1.00"]
    );
    assert_eq!(
        (s.flags.as_str(), s.ambient.text(), s.albedo.text()),
        ("0000", "0.0", "50.0")
    );
    assert_eq!(s.extra, ["ndef", "ndef", "0.0", "0000"]);
    assert_eq!(
        block.properties.as_deref(),
        Some(&["0000".into(), "ndef".into()][..])
    );

    // Six quads, eight corners at (±32, ±32, ±32), closed and facing out.
    let solid = wmp::solid(block);
    assert_eq!(solid.warnings, Vec::<String>::new());
    assert_eq!(solid.vertices.len(), 8);
    let mut corners: Vec<[i64; 3]> = solid
        .vertices
        .iter()
        .map(|v| v.map(|c| c.round() as i64))
        .collect();
    corners.sort();
    let mut expect = Vec::new();
    for x in [-32, 32] {
        for y in [-32, 32] {
            for z in [-32, 32] {
                expect.push([x, y, z]);
            }
        }
    }
    assert_eq!(corners, expect);
    for v in &solid.vertices {
        assert!(v.iter().all(|c| close(c.abs(), 32.0)), "{v:?}");
    }
    assert_eq!(solid.faces.len(), 6);
    let normals: Vec<[i64; 3]> = solid
        .faces
        .iter()
        .map(|f| f.normal.map(|c| c.round() as i64))
        .collect();
    assert_eq!(
        normals,
        [
            [0, 0, 1],
            [1, 0, 0],
            [0, -1, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, 0, -1]
        ]
    );
    for f in &solid.faces {
        assert_eq!(f.corners.len(), 4);
    }
    check_solid(&solid, "manual block");

    // The model: one mesh of 6 quads (24 corners, 12 triangles), 8 welded corners.
    let c = wmp::to_model(&p.file, &p.warnings);
    assert_eq!(c.warnings, Vec::<String>::new());
    let m = &c.model;
    assert_eq!(m.meshes.len(), 1);
    assert_eq!(m.meshes[0].name, "wood");
    assert_eq!(m.skins.len(), 1);
    assert_eq!(m.skins[0].name, "wood");
    assert!(m.skins[0].pictures.is_empty());
    assert_eq!(m.vertex_count(), 24);
    assert_eq!(m.triangle_count(), 12);
    let mut ids = m.meshes[0].source_vertices.clone();
    ids.sort();
    ids.dedup();
    assert_eq!(ids, (0..8).collect::<Vec<u32>>());
    assert_eq!(m.bounds(), Some([[-32.0; 3], [32.0; 3]]));
    check_model(m, "manual block");
}

#[test]
fn manual_example_values_and_placement() {
    let p = round_trip(&fixtures::manual_example(), "manual example");
    assert_eq!(p.warnings, Vec::<String>::new());
    let file = &p.file;
    assert_eq!(
        file.statements[0].comments,
        [" WMP2 // ACKWED V 4.39 // Created 11.09.2000"]
    );
    assert_eq!(file.version(), Some(2));
    assert_eq!(
        file.setting("entities"),
        Some(&[Atom::Word("2".into())][..])
    );
    let Item::Wed(wed) = &file.statements[3].item else {
        panic!("wed expected")
    };
    let WedSection::Palette(pal) = &wed.sections[0] else {
        panic!("palette expected")
    };
    assert_eq!(pal.len(), 768);
    assert_eq!(&pal[3..6], &[0x0f, 0x0f, 0x0f]);
    assert_eq!(&pal[765..], &[0x9f, 0x5b, 0x53]);
    let WedSection::Wad { values, files } = &wed.sections[1] else {
        panic!("wad expected")
    };
    assert_eq!(values.len(), 5);
    assert_eq!(files[0].path, "standard.wad");
    assert_eq!(files[0].value.text(), "1");
    let WedSection::Bookmark(lists) = &wed.sections[2] else {
        panic!("bookmark expected")
    };
    assert_eq!(lists.len(), 6);
    assert_eq!(lists[0], ["*waterblue", "earthtile"]);
    assert!(lists[1..].iter().all(|l| l.is_empty()));
    let WedSection::View(windows) = &wed.sections[3] else {
        panic!("view expected")
    };
    let names: Vec<&str> = windows.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(
        names,
        ["xy.1", "3d.1", "xz.1", "yz.1", "textures", "object"]
    );
    assert_eq!(windows[1].values.len(), 11);
    assert_eq!(windows[1].values[8].text(), "-0.785398");

    let level = file
        .items()
        .find_map(|i| match i {
            Item::Level(l) => Some(l),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        (
            level.wad.as_str(),
            level.palette.as_str(),
            level.script.as_str()
        ),
        ("block.$$w", "Palette.raw", "test.wdl")
    );
    assert_eq!(
        [&level.nexus, &level.azimuth, &level.elevation].map(|n| n.text()),
        ["30", "0.000", "60.000"]
    );
    assert_eq!(num3(&level.fog[0]), [100.0, 100.0, 100.0]);
    assert_eq!(num3(&level.fog[1]), [0.0, 0.0, 100.0]);
    assert_eq!(num3(&level.fog[2]), [100.0, 0.0, 0.0]);
    assert_eq!(level.sun[0].text(), "19.60784340");
    assert_eq!(level.ambient[2].text(), "3.92156863");
    assert!(level.rest.is_empty());
    let light = file
        .items()
        .find_map(|i| match i {
            Item::Light(l) => Some(l),
            _ => None,
        })
        .unwrap();
    assert_eq!((light.index, light.range.text()), (1, "300.0"));
    assert_eq!(light.color[0].text(), "49.84313583");
    let objects: Vec<_> = file.objects().collect();
    assert_eq!(objects.len(), 4);
    assert_eq!(objects[1].members[0].kind, "object");
    assert_eq!(objects[1].members[0].indices, [2, 3]);
    assert_eq!(objects[0].members.len(), 2);
    assert_eq!(num3(&objects[2].position), [-44.0, 4.0, 0.0]);
    assert_eq!(objects[3].angles[0].text(), "1.570796");

    // Object 2 (inside 1, inside 0) moves the cube by (-44, 4, 0).
    let c = wmp::to_model(file, &p.warnings);
    assert_eq!(c.warnings, Vec::<String>::new());
    assert_eq!(
        c.model.bounds(),
        Some([[-76.0, -28.0, -32.0], [-12.0, 36.0, 32.0]])
    );
    check_model(&c.model, "manual example");

    let s = wmp::summary(file, &c);
    assert_eq!((s.format, s.version), ("wmp", 2));
    assert_eq!((s.vertices, s.triangles, s.meshes, s.skins), (24, 12, 1, 1));
    assert_eq!(s.skin_names, ["wood"]);
    assert_eq!(
        s.header,
        vec![
            ("version", Value::Int(2)),
            ("blocks", Value::Int(1)),
            ("objects", Value::Int(4)),
            ("lights", Value::Int(1)),
            ("entities", Value::Int(0)),
            ("paths", Value::Int(0)),
            ("sounds", Value::Int(0)),
            ("levels", Value::Int(1)),
            ("faces", Value::Int(6)),
            ("textures", Value::Int(1)),
            ("palette_colors", Value::Int(256)),
            ("script", Value::Text("test.wdl".into())),
        ]
    );
}

#[test]
fn tiny_710_values_placement_and_round_trip() {
    let text = fixtures::tiny_710();
    assert!(text.windows(2).any(|w| w == b"\r\n"));
    let p = round_trip(&text, "tiny_710");
    assert_eq!(
        p.warnings,
        ["unknown statement 'future' at line 102:1 kept as it is"]
    );
    let file = &p.file;
    assert_eq!(file.version(), Some(710));
    assert_eq!(
        file.statements[0].comments,
        [
            " WMP2",
            " retromodel fixture in the layout of WED 6.7",
            " Created 01.01.2024"
        ]
    );
    let blocks: Vec<_> = file.blocks().collect();
    let Shape::Polyhedron { vertices, faces } = &blocks[0].shape else {
        panic!("polygon form expected")
    };
    assert_eq!(vertices.len(), 8);
    assert_eq!(faces[0].vertices, [1, 0, 2, 3]);
    let s = &faces[5].surface;
    assert_eq!(s.texture, "*water3");
    let axes = s.axes.as_ref().unwrap();
    assert_eq!(axes[1].clone().map(|n| n.value()), [0.0, -1.0, 0.0, 0.0]);
    assert_eq!((s.flags.as_str(), s.scale[0].text()), ("1001", "0.5"));
    assert_eq!(s.extra, ["ndef"]);
    assert_eq!(
        blocks[0].properties.as_deref(),
        Some(
            &[
                "00000000000000010000000000000000".into(),
                "ndef".into(),
                "0".into()
            ][..]
        )
    );
    // Kept statements keep their tokens and lines.
    let entity = file
        .items()
        .find_map(|i| match i {
            Item::Entity(e) => Some(e),
            _ => None,
        })
        .unwrap();
    assert_eq!(entity.index, 2);
    assert_eq!(entity.file_names(), ["ball.mdl"]);
    assert_eq!(entity.body.len(), 3);
    assert_eq!(
        entity.body[0][1],
        Node::Atom(Atom::Quoted("the ball".into()))
    );
    let path = file
        .items()
        .find_map(|i| match i {
            Item::Path(p) => Some(p),
            _ => None,
        })
        .unwrap();
    assert_eq!(path.body.len(), 3);
    assert!(matches!(&path.body[1][0], Node::Group(g) if g.len() == 1 && g[0].len() == 6));
    let future = file
        .items()
        .find_map(|i| match i {
            Item::Other(g) if g.keyword == "future" => Some(g),
            _ => None,
        })
        .unwrap();
    assert_eq!(future.args, [Atom::Word("1".into())]);
    let body = future.body.as_ref().unwrap();
    assert_eq!(body.len(), 1);
    assert_eq!(body[0].len(), 4);
    let objects: Vec<_> = file.objects().collect();
    let roots: Vec<_> = file
        .statements
        .iter()
        .filter(|s| matches!(s.item, Item::Object(_)))
        .map(|s| s.inner_comments.clone())
        .collect();
    assert_eq!(
        roots,
        [vec![" Root".to_string()], vec![" Cube".into()], vec![]]
    );
    assert_eq!(num3(&objects[2].scale), [-1.0, 2.0, 1.0]);

    let c = wmp::to_model(file, &p.warnings);
    assert_eq!(c.warnings, p.warnings);
    let m = &c.model;
    let names: Vec<&str> = m.meshes.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["stone", "*water3", "wood"]);
    let counts: Vec<(usize, usize)> = m
        .meshes
        .iter()
        .map(|m| (m.positions.len(), m.triangles.len()))
        .collect();
    assert_eq!(counts, [(20, 10), (4, 2), (18, 8)]);
    // The cube turned a quarter about Z at (64, 0, 16); the prism mirrored in x and
    // stretched twice in y.
    let [lo, hi] = m.bounds().unwrap();
    let expect = [[-32.0, -32.0, 0.0], [80.0, 32.0, 32.0]];
    for (a, b) in lo.iter().chain(&hi).zip(expect.iter().flatten()) {
        assert!((a - b).abs() < 1e-4, "{lo:?} {hi:?}");
    }
    // The water face (the cube's bottom) still faces down after the turn.
    let water = &m.meshes[1];
    for n in &water.normals {
        assert!((n[2] + 1.0).abs() < 1e-6, "{n:?}");
    }
    check_model(m, "tiny_710");
    for b in &blocks {
        check_solid(&wmp::solid(b), "tiny_710");
    }

    let s = wmp::summary(file, &c);
    assert_eq!(s.version, 710);
    assert_eq!((s.vertices, s.triangles, s.meshes), (42, 20, 3));
    let header: HashMap<&str, Value> = s.header.into_iter().collect();
    for (k, v) in [
        ("blocks", 2),
        ("objects", 3),
        ("lights", 1),
        ("entities", 1),
        ("paths", 1),
        ("sounds", 1),
        ("faces", 11),
        ("textures", 3),
        ("palette_colors", 3),
    ] {
        assert_eq!(header[k], Value::Int(v), "{k}");
    }
}

#[test]
fn odd_planes_are_left_out_with_warnings() {
    let p = round_trip(&fixtures::odd_planes(), "odd planes");
    assert_eq!(p.warnings, Vec::<String>::new());
    let c = wmp::to_model(&p.file, &p.warnings);
    assert_eq!(
        c.warnings,
        [
            "block 0: face 6: its plane contributes no face to the solid; left out",
            "block 0: face 7: same plane as face 0; left out",
            "block 0: face 8: its three points are colinear; left out",
        ]
    );
    let names: Vec<&str> = c.model.meshes.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["wood", "stone"]);
    assert_eq!(c.model.bounds(), Some([[-32.0; 3], [32.0; 3]]));
    check_model(&c.model, "odd planes");
    let solid = wmp::solid(p.file.blocks().next().unwrap());
    assert_eq!(solid.faces.len(), 6);
    check_solid(&solid, "odd planes");
}

/// A one-block file with the manual's face trailer after each face.
fn plane_block(planes: &[[[f64; 3]; 3]]) -> String {
    let mut s = String::from("// WMP2\nblock 0 {\n");
    for p in planes {
        for q in p {
            s += &format!("( {} {} {} ) ", q[0], q[1], q[2]);
        }
        s += "t 0 0 0 1 1 : 0000 0 50 ndef ndef 0.0 0000\n";
    }
    s + "}\n"
}

/// The manual cube's planes, each `(p1, p2, p3)` clockwise seen from outside.
const CUBE: [[[f64; 3]; 3]; 6] = [
    [[0.0, 0.0, 32.0], [0.0, 500.0, 32.0], [500.0, 0.0, 32.0]],
    [[32.0, 0.0, 0.0], [32.0, 0.0, 500.0], [32.0, 500.0, 0.0]],
    [[0.0, -32.0, 0.0], [0.0, -32.0, 500.0], [500.0, -32.0, 0.0]],
    [[-32.0, 0.0, 0.0], [-32.0, 500.0, 0.0], [-32.0, 0.0, 500.0]],
    [[0.0, 32.0, 0.0], [500.0, 32.0, 0.0], [0.0, 32.0, 500.0]],
    [[0.0, 0.0, -32.0], [500.0, 0.0, -32.0], [0.0, 500.0, -32.0]],
];

fn convert_warnings(text: &str) -> (Vec<String>, Model) {
    let p = parse_str(text);
    let c = wmp::to_model(&p.file, &p.warnings);
    (c.warnings, c.model)
}

#[test]
fn conversion_warnings() {
    // Points anticlockwise: the planes all face in; read reversed.
    let reversed: Vec<_> = CUBE.iter().map(|p| [p[0], p[2], p[1]]).collect();
    let (w, m) = convert_warnings(&plane_block(&reversed));
    assert_eq!(
        w,
        ["block 0: its plane normals point inwards (the points run anticlockwise); read reversed"]
    );
    assert_eq!(m.bounds(), Some([[-32.0; 3], [32.0; 3]]));
    check_model(&m, "reversed");

    // Five planes: open at the bottom.
    let (w, m) = convert_warnings(&plane_block(&CUBE[..5]));
    assert_eq!(
        w,
        ["block 0: its planes do not enclose a finite solid; left out"]
    );
    assert_eq!(m.vertex_count(), 0);

    // Top and bottom swapped: nothing is behind both.
    let mut empty = CUBE;
    empty[0] = [[0.0, 0.0, -32.0], [0.0, 500.0, -32.0], [500.0, 0.0, -32.0]];
    empty[5] = [[0.0, 0.0, 32.0], [500.0, 0.0, 32.0], [0.0, 500.0, 32.0]];
    let (w, _) = convert_warnings(&plane_block(&empty));
    assert_eq!(w, ["block 0: its planes enclose no solid; left out"]);

    // Placement problems.
    let cube = plane_block(&CUBE);
    let cube = cube.trim_end();
    let text = format!(
        "{cube}\nblock 1 {{ }}\nblock 2 {{ }}\n\
         object 0 {{ (0 0 0) (0 0 0) (1 1 1) object 1, 9 block 7 light 3 gizmo 1 }}\n\
         object 1 {{ (0 0 0) (90 0 0) (1 1 1) object 2 }}\n\
         object 2 {{ (0 0 0) (0 0 0) (1 1 1) object 1 block 0 }}\n\
         object 3 {{ (0 0 0) (0 0 0) (1 0 1) block 0 }}\n\
         object 4 {{ (0 0 0) (0 0 0) (1 1 1) block 2 }}\n\
         object 4 {{ (5 0 0) (0 0 0) (1 1 1) block 2 }}\n"
    );
    let (w, m) = convert_warnings(&text);
    assert_eq!(
        w,
        [
            "block 1: its planes enclose no solid; left out",
            "block 2: its planes enclose no solid; left out",
            "object 4 is defined more than once; the last is used",
            "object 0: object 9 is not defined",
            "object 0: block 7 is not defined",
            "object 0: light 3 is not defined",
            "object 0: unknown member kind 'gizmo'",
            "object 1: angle 90 is larger than 2π; angles are read as radians, as in the A4 \
             manual (degrees?)",
            "object 2 contains object 1, which contains it; that member is left out",
            "object 3: its scale is zero; its members are left out",
            "block 1 is in no object; placed as it is",
        ]
    );
    // Placed once through objects 0, 1, 2 (object 3 flattens it, object 4 refers to an
    // empty block).
    assert_eq!(m.vertex_count(), 24);
    check_model(&m, "placement");

    // A mirroring object keeps faces outward; a block placed twice is two closed cubes.
    let text = format!(
        "{cube}\nobject 0 {{ (0 0 0) (0 0 0) (1 1 1) object 1, 2 }}\n\
         object 1 {{ (100 0 0) (0.3 0.2 0.1) (-1 1 1) block 0 }}\n\
         object 2 {{ (0 0 0) (0 0 0) (1 1 -2) block 0 }}\n"
    );
    let (w, m) = convert_warnings(&text);
    assert_eq!(w, Vec::<String>::new());
    assert_eq!(m.vertex_count(), 48);
    check_model(&m, "mirrored");
}

#[test]
fn lenient_reading_warns() {
    let text = "// written by hand\r\nblocks 2 objects 1 entities 0\r\n\
                wed { palette { 0A f 00 } }\r\n\
                block 007 { // the first\r\n// a second\r\n\
                ( 0 0 32 ) ( 0 500 32 ) ( 500 0 32 ) t\u{e9}x 0 0 0 1 1 : 0000 0 50 // inside\r\n} \
                // after\r\nobject 0 { (0 0 0) (0 0 0) (1 1 1) }\r\n// at the end\r\n";
    let mut bytes = text.as_bytes().to_vec();
    // The texture name in Latin-1.
    let at = bytes
        .windows(2)
        .position(|w| w == "\u{e9}".as_bytes())
        .unwrap();
    bytes.splice(at..at + 2, [0xe9]);
    let p = parse(&bytes);
    assert_eq!(
        p.warnings,
        [
            "block index 007 at line 4:7 has leading zeros (written back as 7)",
            "no '// WMP' line at the start of the file",
            "'blocks 2' but 1 are present (kept as written)",
            "1 comment(s) inside statements dropped (the first at line 6:64)",
            "1 word(s) not UTF-8, read as Latin-1 (the first at line 6:38)",
            "2 palette byte(s) not written as two lowercase hex digits (the first at line 3:17); \
             written back as two",
        ]
    );
    let file = &p.file;
    assert_eq!(file.statements[0].comments, [" written by hand"]);
    let block = &file.statements[4];
    assert_eq!(block.inner_comments, [" the first", " a second"]);
    assert_eq!(file.statements[5].comments, [" after"]);
    assert_eq!(file.trailing_comments, [" at the end"]);
    let b = file.blocks().next().unwrap();
    assert_eq!(b.index, 7);
    assert_eq!(b.shape.surface(0).unwrap().texture, "t\u{e9}x");
    // Read back after writing: the same values, the canonical forms.
    let written = wmp::write(file);
    assert!(written.contains("block 7 {  // the first\r\n\t// a second\r\n"));
    assert!(written.contains("\t\t0a 0f 00\r\n"));
    assert!(written.contains(" t\u{e9}x "));
    let back = parse_str(&written);
    assert!(back.file == p.file);
}

#[test]
fn unknown_statements_are_kept() {
    let text = "// WMP2\nfog 3\nregion 4 <x.wmb> ( 1 , 2.5 ) { k { l ; m } n\n o }\nobject 0 { (0 0 0) (0 0 0) (1 1 1) region 4 }\n";
    let p = round_trip(text.as_bytes(), "unknown");
    assert_eq!(
        p.warnings,
        [
            "unknown statement 'fog' at line 2:1 kept as it is",
            "unknown statement 'region' at line 3:1 kept as it is",
        ]
    );
    let Item::Other(g) = &p.file.statements[1].item else {
        panic!()
    };
    assert_eq!(g.keyword, "region");
    assert_eq!(g.args.len(), 7);
    assert_eq!(g.args[1], Atom::Path("x.wmb".into()));
    assert_eq!(g.args[2], Atom::Symbol('('));
    let body = g.body.as_ref().unwrap();
    assert_eq!(body.len(), 2);
    assert_eq!(body[0].len(), 3);
    assert_eq!(body[1], [Node::Atom(Atom::Word("o".into()))]);
    let c = wmp::to_model(&p.file, &p.warnings);
    assert_eq!(
        c.warnings[2..],
        ["object 0: unknown member kind 'region'".to_string()]
    );
}

fn err(text: &[u8], kind: ErrorKind, message: &str) {
    let e = wmp::parse(text, &Limits::default()).expect_err(message);
    assert_eq!(e.to_string(), message);
    assert_eq!(e.kind, kind, "{message}");
}

#[test]
fn exact_error_texts() {
    use ErrorKind::*;
    err(
        b"WMPB\x01\0\0\0",
        Unsupported,
        "wmp: 3D GameStudio binary WMP level files are not supported yet",
    );
    let cases: &[(&str, ErrorKind, &str)] = &[
        (
            "block 0 { ( 0 0 32 ) ( 0 500 32 ) ( 500 0 ) wood",
            InvalidValue,
            "wmp: block 0: face 0: expected a number (plane point), found ')' at line 2:43",
        ),
        (
            "block 0 {",
            Truncated,
            "wmp: block 0: expected '(' (a face), '{' or '}', found end of file at line 2:10",
        ),
        (
            "block 0 { ( 0 0 32 ) ( 0 500 32 ) ( 500 0 1 ) wood 0 0 0 1 1 0000 0 50 }",
            InvalidValue,
            "wmp: block 0: face 0: expected ':', found 0000 at line 2:62",
        ),
        (
            "level 0 { <a> <b> 30 0 60 <c> 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 }",
            InvalidValue,
            "wmp: level 0: expected a number (ambient colour), found '}' at line 2:73",
        ),
        (
            "level 0 { <a> <b> 30 0 60 c }",
            InvalidValue,
            "wmp: level 0: expected a file name in <> (script), found c at line 2:27",
        ),
        (
            "block 3 {\n\tvertices 3\n\tfaces 1\n\t0 0 0  1 0 0  0 1 0\n\
             \t3  0 1 3 : t ( 1 0 0 0 ) ( 0 1 0 0 ) 0 0 0 1 1 : 0000 0 50 ndef\n}",
            IndexOutOfRange,
            "wmp: block 3: face 0: vertex index 3 out of range (vertices = 3) at line 6:9",
        ),
        (
            "block 3 {\n\tvertices 3\n\tfaces 1\n\t0 0 0  1 0 0  0 1 0\n\
             \t2  0 1 : t 0 0 0 1 1 : 0000 0 50 ndef\n}",
            InvalidValue,
            "wmp: block 3: face 0: a face needs at least 3 vertices, found 2 at line 6:2",
        ),
        (
            "block 3 {\n\tvertices 16000000\n\tfaces 1\n}",
            BadCount,
            "wmp: block 3: vertex count 16000000 needs at least 80000000 bytes but only 11 \
             are left at line 3:11",
        ),
        (
            "block 3 {\n\tvertices 4294967296\n}",
            InvalidValue,
            "wmp: block 3: vertex count 4294967296 is out of range at line 3:11",
        ),
        (
            "block 3 {\n\tvertices 3\n\tfaces 1\n\t0 0 0  1 0 0  0 1 0\n\
             \t3  0 1 2 : t 0 0 0 1 1 : 0000 0 50 ndef\n\t3 0 1 2\n}",
            InvalidValue,
            "wmp: block 3: expected '{' or '}' after the faces, found 3 at line 7:2",
        ),
        (
            "block 3 {\n\tvertices 3\n\tfaces 2\n\t0 0 0  1 0 0  0 1 0\n\
             \t3  0 1 2 : t 0 0 0 1 1 : 0000 0 50 ndef 3 0 1 2 : t 0 0 0 1 1 : 0000 0 50 x\n}",
            InvalidValue,
            "wmp: block 3: face 1: expected a face vertex count, found ':' at line 6:50",
        ),
        (
            "block 3 {\n\tvertices 3\n\tface 1\n\t0 0 0  1 0 0  0 1 0\n}",
            InvalidValue,
            "wmp: block 3: expected 'faces', found face at line 4:2",
        ),
        (
            "block 3 { ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) t 0 0 0 1 1 : 0000 0 50 { 0000 ( } }",
            InvalidValue,
            "wmp: block 3: expected a block property or '}', found '(' at line 2:72",
        ),
        (
            "wed {\n\tpalette {\n\t\t00 0g 00\n\t}\n}",
            InvalidValue,
            "wmp: wed: palette: expected a palette byte (two hex digits) or '}', found 0g at \
             line 4:6",
        ),
        (
            "wed {\n\tpalette {\n\t\t00 100 00\n\t}\n}",
            InvalidValue,
            "wmp: wed: palette: expected a palette byte (two hex digits) or '}', found 100 at \
             line 4:6",
        ),
        (
            "wed {\n\tview {\n\t\t1 2 3\n\t}\n}",
            InvalidValue,
            "wmp: wed: view: expected a view window name, found 1 at line 4:3",
        ),
        (
            "wed {\n\twad {\n\t\t0 <a.wad> <b.wad>\n\t}\n}",
            InvalidValue,
            "wmp: wed: wad: expected a number (after the WAD file), found <b.wad> at line 4:13",
        ),
        (
            "wed {\n\tbookmark {\n\t\ta ( b\n\t}\n}",
            InvalidValue,
            "wmp: wed: bookmark: expected a texture name, ';' or '}', found '(' at line 4:5",
        ),
        (
            "wed {\n\t7 {\n\t}\n}",
            InvalidValue,
            "wmp: wed: expected a wed section name or '}', found 7 at line 3:2",
        ),
        (
            "object 0 { (0 0 0) (0 0 0) (1 1 1) block x }",
            InvalidValue,
            "wmp: object 0: expected a block index, found x at line 2:42",
        ),
        (
            "object 0 { (0 0 0) (0 0 0) (1 1 1) object 1, }",
            InvalidValue,
            "wmp: object 0: expected an object index, found '}' at line 2:46",
        ),
        (
            "object 0 { (0 0 0) (0 0 0) (1 1 1) 5 }",
            InvalidValue,
            "wmp: object 0: expected a member kind (object, block, ...) or '}', found 5 at \
             line 2:36",
        ),
        (
            "object 0 { (0 0 0) (0 0 0 1) (1 1 1) }",
            InvalidValue,
            "wmp: object 0: expected ')', found 1 at line 2:27",
        ),
        (
            "object 0 { (0 0 0) (0 0 0) (1 1 1)",
            Truncated,
            "wmp: object 0: expected a member kind (object, block, ...) or '}', found end of \
             file at line 2:35",
        ),
        (
            "}",
            InvalidValue,
            "wmp: expected a statement keyword, found '}' at line 2:1",
        ),
        (
            "7 blocks",
            InvalidValue,
            "wmp: expected a statement keyword, found 7 at line 2:1",
        ),
        (
            "wad { <abc\n}",
            InvalidValue,
            "wmp: file name has no closing '>' before the end of its line at line 2:7",
        ),
        (
            "entity 1 { \"abc }",
            Truncated,
            "wmp: string has no closing '\"' before the end of the file at line 2:12",
        ),
        (
            "entity 1 { \"abc\n\" }",
            InvalidValue,
            "wmp: string has no closing '\"' before the end of its line at line 2:12",
        ),
        (
            "entity 1 { <abc",
            Truncated,
            "wmp: file name has no closing '>' before the end of the file at line 2:12",
        ),
        (
            "entity 1 { a\u{1}b }",
            InvalidValue,
            "wmp: unexpected byte 0x01 at line 2:13",
        ),
        (
            "entity 1 { {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{ }",
            InvalidValue,
            "wmp: entity 1: braces nested deeper than 32 at line 2:43",
        ),
        (
            "entity 1 { a b",
            Truncated,
            "wmp: entity 1: expected '}', found end of file at line 2:15",
        ),
        (
            "light 1 { 1e999 0 0 1 }",
            InvalidValue,
            "wmp: light 1: number 1e999 is out of range at line 2:11",
        ),
        (
            "light 1 { 1 1 1 }",
            InvalidValue,
            "wmp: light 1: expected a number (light range), found '}' at line 2:17",
        ),
        (
            "block 99999999999 { }",
            InvalidValue,
            "wmp: block index 99999999999 is out of range at line 2:7",
        ),
        (
            "block -1 { }",
            InvalidValue,
            "wmp: expected a block index, found -1 at line 2:7",
        ),
        (
            "sound 2 ( }",
            InvalidValue,
            "wmp: expected '{', found '(' at line 2:9",
        ),
    ];
    for (body, kind, message) in cases {
        err(format!("// WMP2\n{body}").as_bytes(), *kind, message);
    }
}

#[test]
fn limits_are_kept() {
    let small = Limits {
        max_alloc_bytes: 1000,
        ..Limits::default()
    };
    let e = wmp::parse(&fixtures::manual_example(), &small).unwrap_err();
    assert_eq!(
        e.to_string(),
        "wmp: wed: wad: decoded data would exceed the allocation limit of 1000 bytes at line \
         4:9"
    );
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    let few = Limits {
        max_count: 5,
        ..Limits::default()
    };
    let e = wmp::parse(&fixtures::tiny_710(), &few).unwrap_err();
    assert_eq!(
        e.to_string(),
        "wmp: block 0: vertex count 8 exceeds the limit of 5 at line 32:11"
    );
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
}

#[test]
fn writer_changes_what_a_token_cannot_hold() {
    let mut file = parse(&fixtures::tiny_710()).file;
    for s in &mut file.statements {
        match &mut s.item {
            Item::Block(b) => {
                if let Shape::Polyhedron { faces, vertices } = &mut b.shape {
                    faces[0].surface.texture = "a b{c}".into();
                    faces[1].surface.texture = String::new();
                    faces[2].surface.texture = "//x".into();
                    faces[3].surface.extra = vec!["<y".into()];
                    vertices[0][0] = Num::new(f64::NAN);
                    vertices[0][1] = Num::new(-0.0);
                    vertices[0][2] = Num::new(0.1 + 0.2);
                }
            }
            Item::Object(o) => o.members[0].kind = "2nd".into(),
            Item::Level(l) => l.script = "a>b\nc".into(),
            Item::Entity(e) => e.body[0][1] = Node::Atom(Atom::Quoted("say \"hi\"\n".into())),
            Item::Wed(w) => {
                if let WedSection::View(v) = &mut w.sections[3] {
                    v[0].name = "12".into();
                }
            }
            _ => {}
        }
    }
    file.statements[0].comments.push("two\nlines".into());
    let written = wmp::write(&file);
    let back = parse_str(&written).file;
    let b = back.blocks().next().unwrap();
    let Shape::Polyhedron { faces, vertices } = &b.shape else {
        panic!()
    };
    let textures: Vec<&str> = faces[..3]
        .iter()
        .map(|f| f.surface.texture.as_str())
        .collect();
    assert_eq!(textures, ["a_b_c_", "_", "_/x"]);
    assert_eq!(faces[3].surface.extra, ["_y"]);
    assert_eq!(
        vertices[0].clone().map(|n| n.text().to_string()),
        ["0", "-0", "0.30000000000000004"]
    );
    assert_eq!(back.objects().next().unwrap().members[0].kind, "_2nd");
    assert!(written.contains("\t<a_b_c>\r\n"));
    assert!(written.contains("\"say 'hi' \""));
    assert!(written.contains("\t\t_12 -1 52"));
    assert!(written.contains("//two lines\r\n"));
    // Everything else is unchanged.
    assert_eq!(wmp::write(&back), written);
}

#[test]
fn num_keeps_its_text() {
    assert_eq!(Num::new(0.5).text(), "0.5");
    assert_eq!(Num::new(1536.0).text(), "1536");
    assert_eq!(Num::new(f64::INFINITY).text(), "0");
    assert_eq!(Num::default().text(), "0");
    let n = Num::parse("-0.000000").unwrap();
    assert_eq!(
        (n.text(), n.value().to_bits()),
        ("-0.000000", (-0.0f64).to_bits())
    );
    assert_eq!(Num::parse("1.00").unwrap(), Num::parse("1.00").unwrap());
    assert_ne!(Num::parse("1.00").unwrap(), Num::new(1.0));
    for bad in ["1e999", "0f", "ndef", "inf", "nan", "", "1..2"] {
        assert_eq!(Num::parse(bad), None, "{bad}");
    }
    assert_eq!(format!("{:?}", Num::parse("30").unwrap()), "30");
}

#[test]
fn empty_and_comment_only_files() {
    let p = parse(b"");
    assert_eq!(p.file, WmpFile::default());
    assert_eq!(p.warnings, ["no '// WMP' line at the start of the file"]);
    assert_eq!(wmp::write(&p.file), "");
    let p = round_trip(b"// WMP2\r\n// nothing else\r\n", "comments only");
    assert_eq!(p.file.trailing_comments, [" WMP2", " nothing else"]);
    let c = wmp::to_model(&p.file, &[]);
    assert_eq!(c.model, Model::default());
}

#[test]
fn corpus_ascii_levels() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let ascii = common::files_with_magic(&dir, b"// W");
    let binary = common::files_with_magic(&dir, b"WMPB");
    assert!(ascii.len() >= 4, "{} ASCII WMP files", ascii.len());
    assert!(binary.len() >= 12, "{} WMPB files", binary.len());
    for path in &binary {
        let bytes = std::fs::read(path).unwrap();
        let e = wmp::parse(&bytes, &Limits::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "wmp: 3D GameStudio binary WMP level files are not supported yet"
        );
        assert_eq!(e.kind, ErrorKind::Unsupported);
    }
    let mut faces = 0;
    for path in &ascii {
        let (what, bytes) = common::read_named(path);
        assert!(bytes.starts_with(b"// WMP"), "{what}");
        let p = round_trip(&bytes, &what);
        assert_eq!(p.warnings, Vec::<String>::new(), "{what}");
        for b in p.file.blocks() {
            let s = wmp::solid(b);
            assert_eq!(
                s.warnings,
                Vec::<String>::new(),
                "{what}: block {}",
                b.index
            );
            assert_eq!(
                s.faces.len(),
                b.shape.face_count(),
                "{what}: block {}",
                b.index
            );
            check_solid(&s, &format!("{what}: block {}", b.index));
            faces += s.faces.len();
        }
        let c = wmp::to_model(&p.file, &p.warnings);
        assert_eq!(c.warnings, Vec::<String>::new(), "{what}");
        check_model(&c.model, &what);
        let s = wmp::summary(&p.file, &c);
        assert_eq!(s.format, "wmp");
        assert_eq!(s.version, 710, "{what}");
        eprintln!(
            "{what}: {} blocks, {} meshes, {} vertices, {} triangles",
            p.file.blocks().count(),
            s.meshes,
            s.vertices,
            s.triangles
        );
    }
    assert!(faces >= 248, "{faces} faces");
}
