//! IQM engine rules by value (issue 45): for every rule of `validate --engine
//! ioq3|darkplaces|fteqw|tesseract`, a fixture that breaks it, and the exact finding it
//! adds to those of the intact fixture. Dropping or rewording a rule fails here.

use retromodel::formats::iqm::{
    self, fixtures, ArrayType, ComponentFormat, File, Joint, Pose, IOQ3_MAX_JOINTS, MAX_BONES,
    MAX_FILE,
};
use retromodel::Limits;

fn skinned() -> File<'static> {
    File::parse(&fixtures::skinned(), &Limits::default())
        .unwrap()
        .into_owned()
}

fn findings(file: &File<'_>, engine: &str) -> Vec<String> {
    iqm::validate(file, engine)
        .iter()
        .map(|d| d.to_string())
        .collect()
}

fn array_index(file: &File<'_>, t: ArrayType) -> usize {
    file.vertex_arrays
        .iter()
        .position(|a| a.array_type() == t)
        .unwrap_or_else(|| panic!("the fixture has no {} array", t.name()))
}

/// Sets an array's component format and size (the data is not read by `validate`).
fn set_format(file: &mut File<'_>, t: ArrayType, f: ComponentFormat, size: u32) {
    let i = array_index(file, t);
    file.vertex_arrays[i].format = f.value();
    file.vertex_arrays[i].size = size;
}

fn remove_array(file: &mut File<'_>, t: ArrayType) {
    let i = array_index(file, t);
    file.vertex_arrays.remove(i);
}

/// `n` joints and, when `poses`, `n` poses (copies of the last ones).
fn grow_skeleton(file: &mut File<'_>, n: usize, poses: bool) {
    let j: Joint = *file.joints.last().unwrap();
    file.joints.resize(n, j);
    if poses {
        let p: Pose = *file.poses.last().unwrap();
        file.poses.resize(n, p);
    }
}

type Break = fn(&mut File<'static>);

/// (engine, what is broken, how, the findings it adds).
fn cases() -> Vec<(&'static str, &'static str, Break, Vec<String>)> {
    use ArrayType::*;
    use ComponentFormat as F;
    vec![
        // ioquake3.
        ("ioq3", "version 1", |f| f.header.version = 1, vec![
            "error: version 1: ioquake3 reads version 2 only".into(),
        ]),
        ("ioq3", "129 joints and poses", |f| grow_skeleton(f, IOQ3_MAX_JOINTS + 1, true), vec![
            "error: 129 joints: ioquake3 takes at most 128".into(),
        ]),
        ("ioq3", "a pose less than joints", |f| { f.poses.pop(); }, vec![
            "error: 2 poses and 3 joints: ioquake3 needs as many poses as joints, or none".into(),
        ]),
        ("ioq3", "filesize past 16 MiB", |f| f.header.filesize = MAX_FILE as u32 + 1, vec![
            format!("error: filesize = {}: ioquake3 loads at most {MAX_FILE} bytes", MAX_FILE + 1),
        ]),
        ("ioq3", "material outside the text", |f| f.meshes[1].material = f.header.num_text, vec![
            "error: a mesh's name or material lies outside the text table: ioquake3 refuses the file".into(),
        ]),
        ("ioq3", "half positions", |f| set_format(f, Position, F::Half, 3), vec![
            "error: position array of halfx3: ioquake3 refuses the file (byte, ubyte, int, uint or float, 1..4 components)".into(),
        ]),
        ("ioq3", "five-component texcoords", |f| set_format(f, Texcoord, F::Float, 5), vec![
            "error: texcoord array of floatx5: ioquake3 refuses the file (byte, ubyte, int, uint or float, 1..4 components)".into(),
        ]),
        ("ioq3", "ubyte normals", |f| set_format(f, Normal, F::UByte, 3), vec![
            "error: normal array of ubytex3: ioquake3 needs floatx3".into(),
        ]),
        ("ioq3", "float weights (allowed)", |f| set_format(f, BlendWeights, F::Float, 4), vec![]),
        ("ioq3", "int blend indexes", |f| set_format(f, BlendIndexes, F::Int, 4), vec![
            "warning: blendindexes array of intx4: ioquake3 takes it but reads its bytes as indexes (wrong joints)".into(),
        ]),
        ("ioq3", "no normals", |f| remove_array(f, Normal), vec![
            "error: ioquake3 needs position, normal and texcoord arrays".into(),
        ]),
        ("ioq3", "no tangents", |f| remove_array(f, Tangent), vec![
            "error: no tangent array: ioquake3's second renderer (OpenArena's default) refuses the file".into(),
        ]),
        ("ioq3", "no blend weights", |f| remove_array(f, BlendWeights), vec![
            "error: joints without blend arrays: ioquake3 refuses the file".into(),
        ]),
        ("ioq3", "1000 vertices in a mesh", |f| f.meshes[0].num_vertexes = 1000, vec![
            "error: mesh 0 (\"body\"): 1000 vertices, 2 triangles: ioquake3 takes at most 999 and 1999".into(),
        ]),
        ("ioq3", "2000 triangles in a mesh", |f| f.meshes[1].num_triangles = 2000, vec![
            "error: mesh 1 (\"head\"): 4 vertices, 2000 triangles: ioquake3 takes at most 999 and 1999".into(),
        ]),
        // DarkPlaces.
        ("darkplaces", "float colours (allowed)", |f| set_format(f, Color, F::Float, 4), vec![]),
        ("darkplaces", "short tangents", |f| set_format(f, Tangent, F::Short, 4), vec![
            "warning: tangent array of shortx4: DarkPlaces skips it (floatx4 read)".into(),
        ]),
        ("darkplaces", "half texcoords", |f| set_format(f, Texcoord, F::Half, 2), vec![
            "warning: texcoord array of halfx2: DarkPlaces skips it (floatx2 read)".into(),
            "error: DarkPlaces needs float position and texcoord arrays (\"is missing vertex array data\")".into(),
        ]),
        ("darkplaces", "no positions", |f| remove_array(f, Position), vec![
            "error: DarkPlaces needs float position and texcoord arrays (\"is missing vertex array data\")".into(),
        ]),
        ("darkplaces", "float weights", |f| set_format(f, BlendWeights, F::Float, 4), vec![
            "warning: blendweights array of floatx4: DarkPlaces skips it (ubytex4 read)".into(),
            "error: animated without ubyte blend arrays: DarkPlaces refuses the file (\"is missing vertex array data\")".into(),
        ]),
        ("darkplaces", "257 joints", |f| grow_skeleton(f, MAX_BONES + 1, false), vec![
            "warning: 257 joints: DarkPlaces has no limit, but its byte blend indexes name at most 256".into(),
        ]),
        ("darkplaces", "bend at frame rate 0", |f| f.anims[0].framerate = 0.0, vec![
            "warning: animation \"bend\" has frame rate 0: DarkPlaces never advances it (a .framegroups file can give the rate)".into(),
        ]),
        ("darkplaces", "bend at frame rate NaN", |f| f.anims[0].framerate = f32::NAN, vec![
            "warning: animation \"bend\" has frame rate 0: DarkPlaces never advances it (a .framegroups file can give the rate)".into(),
        ]),
        // FTEQW.
        ("fteqw", "data past filesize", |f| {
            let end = f.header.filesize as usize;
            f.gaps.push(retromodel::io::Gap { offset: end, bytes: vec![0; 4].into() });
        }, vec![
            format!("error: filesize = {} but the file has {} bytes: FTEQW refuses it", fixtures::skinned().len(), fixtures::skinned().len() + 4),
        ]),
        ("fteqw", "257 joints and poses", |f| grow_skeleton(f, MAX_BONES + 1, true), vec![
            "error: 257 joints, 257 poses: FTEQW takes at most 256".into(),
        ]),
        ("fteqw", "a pose less than joints", |f| { f.poses.pop(); }, vec![
            "error: 3 joints and 2 poses: FTEQW refuses mismatched joints".into(),
        ]),
        ("fteqw", "no joints", |f| f.joints.clear(), vec![
            "error: an animated mesh without joints: FTEQW refuses it (\"mesh IQM has no joints\")".into(),
        ]),
        ("fteqw", "bend at frame rate 0", |f| f.anims[0].framerate = 0.0, vec![
            "warning: animation \"bend\" has frame rate 0: FTEQW plays it at 10 frames a second".into(),
        ]),
        // Tesseract / Cube 2 / Red Eclipse.
        ("tesseract", "version 1", |f| f.header.version = 1, vec![
            "error: version 1: Tesseract and Cube 2 read version 2 only".into(),
        ]),
        ("tesseract", "filesize past 16 MiB", |f| f.header.filesize = MAX_FILE as u32 + 1, vec![
            format!("error: filesize = {}: Tesseract and Cube 2 load at most {MAX_FILE}", MAX_FILE + 1),
        ]),
        ("tesseract", "ushort blend indexes", |f| set_format(f, BlendIndexes, F::UShort, 4), vec![
            "error: blendindexes array of ushortx4: Tesseract needs ubytex4 (colours: Red Eclipse)".into(),
        ]),
        ("tesseract", "float colours", |f| set_format(f, Color, F::Float, 4), vec![
            "warning: color array of floatx4: Tesseract needs ubytex4 (colours: Red Eclipse)".into(),
        ]),
        ("tesseract", "no positions", |f| remove_array(f, Position), vec![
            "error: no position array: Tesseract refuses the file".into(),
        ]),
    ]
}

/// What the intact fixture gets: only the notes about its animations.
#[test]
fn intact_fixture_findings() {
    let file = skinned();
    let expect = |engine: &str, want: &[&str]| {
        assert_eq!(findings(&file, engine), want, "{engine}");
    };
    expect(
        "ioq3",
        &["warning: ioquake3 ignores the animations: the game picks frames by number"],
    );
    expect(
        "darkplaces",
        &["warning: animation \"grow\" has frame rate 0: DarkPlaces never advances it (a .framegroups file can give the rate)"],
    );
    expect(
        "fteqw",
        &["warning: animation \"grow\" has frame rate 0: FTEQW plays it at 10 frames a second"],
    );
    expect(
        "tesseract",
        &["warning: Tesseract ignores the animations' frame rates: the iqmanim speed of the model's iqm.cfg plays them (10 frames a second without one)"],
    );
    expect("quake", &["error: unknown engine \"quake\" for IQM"]);
}

#[test]
fn each_engine_rule_adds_its_exact_finding() {
    let good = skinned();
    let mut failures = Vec::new();
    for (engine, what, breaks, want) in cases() {
        let base = findings(&good, engine);
        let mut file = good.clone();
        breaks(&mut file);
        let got = findings(&file, engine);
        let added: Vec<String> = got.iter().filter(|g| !base.contains(g)).cloned().collect();
        let removed: Vec<&String> = base.iter().filter(|b| !got.contains(b)).collect();
        if added != want || !removed.is_empty() {
            failures.push(format!(
                "{engine}, {what}:\n  added   {added:?}\n  wanted  {want:?}\n  removed {removed:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A file with neither meshes nor animations: every engine says so.
#[test]
fn nothing_to_show() {
    let file = File::empty(iqm::Header {
        version: 2,
        ..Default::default()
    });
    for engine in ["ioq3", "darkplaces", "fteqw", "tesseract"] {
        let got = findings(&file, engine);
        assert!(
            got.contains(&"warning: no meshes and no animations: nothing to show".to_string()),
            "{engine}: {got:?}"
        );
    }
}
