//! The MD5 text parsers and writers on the generated fixtures: decoded values, exact
//! parse -> write -> parse round trips (bit for bit, `-0.0` included), the warnings of the
//! lenient cases, the exact error text (with line and column) of every strict case, and the
//! five deliberately broken Assimp files.

mod common;

use std::fmt::Debug;

use retromodel::formats::md5::{
    self, fixtures, parse_anim, parse_camera, parse_mesh, write_anim, write_camera, write_mesh,
    AnimFile, CameraFile, MeshFile, Parsed,
};
use retromodel::{ErrorKind, Limits, Result};

/// Values compared bit for bit: `Debug` prints `-0.0` and `0.0` apart, and every distinct
/// finite `f32` differently.
fn same<T: Debug + PartialEq>(a: &T, b: &T, what: &str) {
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "{what}");
    assert!(a == b, "{what}");
}

fn mesh(text: &[u8]) -> Parsed<MeshFile> {
    parse_mesh(text, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn anim(text: &[u8]) -> Parsed<AnimFile> {
    parse_anim(text, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn camera(text: &[u8]) -> Parsed<CameraFile> {
    parse_camera(text, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// `text` with `from` (which must occur exactly once) replaced by `to`.
fn edit(text: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(text.to_vec()).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from:?} must occur once");
    text.replacen(from, to, 1).into_bytes()
}

fn check_err<T: Debug>(result: Result<T>, kind: ErrorKind, text: &str) {
    let e = result.expect_err(text);
    assert_eq!(e.to_string(), text);
    assert_eq!(e.kind, kind, "{text}");
}

fn mesh_err(text: &[u8], kind: ErrorKind, message: &str) {
    check_err(parse_mesh(text, &Limits::default()), kind, message);
}

fn anim_err(text: &[u8], kind: ErrorKind, message: &str) {
    check_err(parse_anim(text, &Limits::default()), kind, message);
}

fn camera_err(text: &[u8], kind: ErrorKind, message: &str) {
    check_err(parse_camera(text, &Limits::default()), kind, message);
}

#[test]
fn fixtures_parse_to_their_values() {
    let p = mesh(&fixtures::skeleton());
    same(&p.file, &fixtures::skeleton_file(), "skeleton");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // -0.000000 is negative zero.
    assert_eq!(p.file.joints[0].orient[0].to_bits(), (-0.0f32).to_bits());

    for (name, bytes) in [
        ("crlf", fixtures::skeleton_crlf()),
        ("commented", fixtures::skeleton_commented()),
    ] {
        let p = mesh(&bytes);
        same(&p.file, &fixtures::skeleton_file(), name);
        assert!(p.warnings.is_empty(), "{name}: {:?}", p.warnings);
    }

    let p = mesh(&fixtures::two_meshes());
    same(&p.file, &fixtures::two_meshes_file(), "two meshes");
    assert_eq!(p.file.meshes[1].shader, r"models\characters\fixture\head");
    assert!(p.warnings.is_empty());

    let p = anim(&fixtures::anim());
    same(&p.file, &fixtures::anim_file(), "anim");
    assert!(p.warnings.is_empty());
    same(&anim(&fixtures::anim_crlf()).file, &p.file, "anim crlf");

    let p = camera(&fixtures::camera());
    same(&p.file, &fixtures::camera_file(), "camera");
    assert!(p.warnings.is_empty());
}

#[test]
fn every_fixture_round_trips_exactly() {
    for (name, bytes) in fixtures::all() {
        if name.ends_with(".md5mesh") {
            let p = mesh(&bytes);
            let text = write_mesh(&p.file);
            same(&mesh(text.as_bytes()).file, &p.file, name);
        } else if name.ends_with(".md5anim") {
            let p = anim(&bytes);
            let text = write_anim(&p.file);
            same(&anim(text.as_bytes()).file, &p.file, name);
        } else {
            let p = camera(&bytes);
            let text = write_camera(&p.file);
            same(&camera(text.as_bytes()).file, &p.file, name);
        }
    }
}

#[test]
fn writers_use_the_id_layout() {
    assert_eq!(
        write_camera(&fixtures::camera_file()),
        "MD5Version 10\n\
         commandline \"camera models/fixture/pan.ma -dest models/fixture/pan.md5camera\"\n\
         \n\
         numFrames 4\n\
         frameRate 30\n\
         numCuts 1\n\
         \n\
         cuts {\n\
         \t2\n\
         }\n\
         \n\
         camera {\n\
         \t( 0 -64 48 ) ( 0 0 0.707107 ) 90\n\
         \t( 8 -64 48 ) ( 0 0 0.707107 ) 90\n\
         \t( 128 0 16 ) ( 0 -0.130526 0 ) 75.5\n\
         \t( 128 8 16 ) ( 0 -0.130526 0 ) 75.5\n\
         }\n"
    );
    let text = write_mesh(&fixtures::skeleton_file());
    assert!(text.starts_with(
        "MD5Version 10\n\
         commandline \"mesh models/fixture/skeleton.ma -dest models/fixture/skeleton.md5mesh\"\n\
         \n\
         numJoints 3\n\
         numMeshes 1\n\
         \n\
         joints {\n\
         \t\"origin\"\t-1 ( 0 0 0 ) ( -0 0 -0 )\t\t// \n\
         \t\"body\"\t0 ( 0 0 32 ) ( -0.707107 0 0 )\t\t// origin\n\
         \t\"arm\"\t1 ( 8.5 -2.25 40 ) ( 0 0.382683 0 )\t\t// body\n\
         }\n\
         \n\
         mesh {\n\
         \tshader \"models/fixture/body\"\n\
         \n\
         \tnumverts 4\n\
         \tvert 0 ( 0 0 ) 0 1\n"
    ));
    assert!(
        text.contains("\tweight 6 1 0.75 ( -4 8 0.000001 )\n"),
        "{text}"
    );
    let text = write_anim(&fixtures::anim_file());
    assert!(text.contains(
        "hierarchy {\n\
         \t\"origin\"\t-1 0 0\t// \n\
         \t\"body\"\t0 3 0\t// origin\n\
         \t\"arm\"\t1 44 2\t// body\n\
         }\n"
    ));
    assert!(
        text.ends_with("frame 2 {\n\t1 0.5 8.5 0.258819 -0.00001\n}\n"),
        "{text}"
    );
    // A missing version line stays missing; what a string cannot hold is replaced.
    let mut file = fixtures::skeleton_no_version_file();
    file.commandline = "say \"hi\"\nthere".into();
    let text = write_mesh(&file);
    assert!(
        text.starts_with("commandline \"say 'hi' there\"\n"),
        "{text}"
    );
    let back = mesh(text.as_bytes());
    assert_eq!(back.file.version, None);
    assert_eq!(back.file.commandline, "say 'hi' there");
}

#[test]
fn lenient_cases_warn() {
    let p = mesh(&fixtures::skeleton_no_version());
    same(&p.file, &fixtures::skeleton_no_version_file(), "no version");
    assert_eq!(p.warnings, ["no MD5Version line (read as version 10)"]);

    let p = anim(&fixtures::anim_no_version());
    same(
        &p.file,
        &fixtures::anim_no_version_file(),
        "anim no version",
    );
    assert_eq!(
        p.warnings,
        [
            "no MD5Version line (read as version 10)",
            "no commandline line"
        ]
    );

    // numMeshes larger and smaller than the meshes present: kept for writing.
    for (stated, bytes) in [
        (3, edit(&fixtures::skeleton(), "numMeshes 1", "numMeshes 3")),
        (0, edit(&fixtures::skeleton(), "numMeshes 1", "numMeshes 0")),
        (
            1,
            edit(&fixtures::two_meshes(), "numMeshes 2", "numMeshes 1"),
        ),
    ] {
        let p = mesh(&bytes);
        assert_eq!(p.file.stated_meshes, Some(stated));
        let found = p.file.meshes.len();
        assert_eq!(
            p.warnings,
            [format!(
                "numMeshes = {stated} but the file has {found} meshes"
            )]
        );
        let text = write_mesh(&p.file);
        assert!(text.contains(&format!("\nnumMeshes {stated}\n")));
        same(&mesh(text.as_bytes()).file, &p.file, "stated meshes");
    }

    let p = mesh(&edit(
        &fixtures::skeleton(),
        "commandline \"mesh models/fixture/skeleton.ma -dest models/fixture/skeleton.md5mesh\"\n",
        "",
    ));
    assert_eq!(p.file.commandline, "");
    assert_eq!(p.warnings, ["no commandline line"]);

    let p = mesh(&edit(
        &fixtures::skeleton(),
        "\tshader \"models/fixture/body\"\n",
        "",
    ));
    assert_eq!(p.file.meshes[0].shader, "");
    assert_eq!(p.warnings, ["mesh 0: no shader line (read as \"\")"]);

    let p = anim(&edit(&fixtures::anim(), "frameRate 24\n", ""));
    assert_eq!(p.file.frame_rate, 24.0);
    assert_eq!(p.warnings, ["no frameRate line (read as 24)"]);

    // Latin-1 shader names (a French 3ds Max's "Par défaut").
    let mut bytes = edit(
        &fixtures::skeleton(),
        "models/fixture/body",
        "01 - Par d@faut",
    );
    let at = bytes.iter().position(|&b| b == b'@').unwrap();
    bytes[at] = 0xe9;
    let p = mesh(&bytes);
    assert_eq!(p.file.meshes[0].shader, "01 - Par d\u{e9}faut");
    assert_eq!(
        p.warnings,
        ["string at line 15:9 is not UTF-8 (read as Latin-1)"]
    );
    let text = write_mesh(&p.file);
    same(&mesh(text.as_bytes()).file, &p.file, "latin-1");

    // More bounds lines than frames (Red Eclipse's banner.md5anim): all kept.
    let extra = "\t( -11.500000 -4.000000 0.000000 ) ( 13.500000 5.000000 73.000000 )\n";
    let p = anim(&edit(&fixtures::anim(), extra, &extra.repeat(2)));
    assert_eq!(p.file.bounds.len(), 4);
    assert_eq!(p.file.bounds[3], p.file.bounds[2]);
    assert_eq!(
        p.warnings,
        ["numFrames = 3 but the bounds block has 4 lines (all kept)"]
    );
    same(
        &anim(write_anim(&p.file).as_bytes()).file,
        &p.file,
        "extra bounds",
    );

    // A frame rate need not be an integer; an integral one is written without decimals.
    let p = anim(&edit(&fixtures::anim(), "frameRate 24", "frameRate 29.97"));
    assert_eq!(p.file.frame_rate, 29.97);
    assert!(write_anim(&p.file).contains("\nframeRate 29.97\n"));
}

#[test]
fn mesh_errors_have_exact_texts() {
    use ErrorKind::*;
    let s = fixtures::skeleton();
    mesh_err(
        &edit(&s, "MD5Version 10", "MD5Version 11"),
        UnsupportedVersion,
        "md5mesh: unsupported version 11 (expected 10) at line 1:12",
    );
    mesh_err(
        &edit(&s, "numJoints 3", "numjoints 3"),
        InvalidValue,
        "md5mesh: unknown keyword numjoints (expected numJoints) at line 4:1",
    );
    mesh_err(
        &edit(&s, "numJoints 3\nnumMeshes 1", "numMeshes 1\nnumJoints 3"),
        InvalidValue,
        "md5mesh: expected numJoints, found numMeshes at line 4:1",
    );
    mesh_err(
        &edit(&s, "numJoints 3", "numJoints three"),
        InvalidValue,
        "md5mesh: expected an integer (numJoints), found three at line 4:11",
    );
    mesh_err(
        &edit(&s, "numJoints 3", "numJoints 3.0"),
        InvalidValue,
        "md5mesh: expected an integer (numJoints), found 3.0 at line 4:11",
    );
    mesh_err(
        &edit(&s, "\"arm\"\t1", "\"arm\"\t5"),
        IndexOutOfRange,
        "md5mesh: joint 2 \"arm\": parent index 5 is not lower than its own index at line 10:8",
    );
    mesh_err(
        &edit(&s, "\"body\"\t0", "\"body\"\t1"),
        IndexOutOfRange,
        "md5mesh: joint 1 \"body\": parent index 1 is not lower than its own index at line 9:9",
    );
    mesh_err(
        &edit(&s, "\"origin\"\t-1", "\"origin\"\t-2"),
        IndexOutOfRange,
        "md5mesh: joint 0 \"origin\": parent index -2 is neither -1 (a root) nor a joint index \
         at line 8:11",
    );
    mesh_err(
        &edit(&s, "\"arm\"\t1 ( 8.500000", "\"arm\"\t1 [ 8.500000"),
        InvalidValue,
        "md5mesh: joint 2 \"arm\": unexpected character '[' at line 10:10",
    );
    mesh_err(
        &edit(&s, "\"body\"\t0 (", "body\t0 ("),
        InvalidValue,
        "md5mesh: joint 1: expected a quoted string (joint name), found body at line 9:2",
    );
    mesh_err(
        &edit(&s, "( 8.500000 -2.250000", "( 8.500000 )"),
        InvalidValue,
        "md5mesh: joint 2 \"arm\": expected a number (joint position), found ')' at line 10:21",
    );
    mesh_err(
        &edit(&s, "numJoints 3", "numJoints 4"),
        BadCount,
        "md5mesh: numJoints = 4 but the joints block has 3 joints at line 11:1",
    );
    mesh_err(
        &edit(&s, "numJoints 3", "numJoints 2"),
        BadCount,
        "md5mesh: the joints block has more joints than numJoints = 2 at line 10:2",
    );
    mesh_err(
        &edit(&s, "weight 5 2 0.5", "weight 5 3 0.5"),
        IndexOutOfRange,
        "md5mesh: mesh 0: weight 5: joint index 3 out of range (numJoints = 3) at line 33:11",
    );
    mesh_err(
        &edit(&s, "tri 1 0 2 3", "tri 1 0 2 4"),
        IndexOutOfRange,
        "md5mesh: mesh 0: tri 1: vertex index 4 out of range (numverts = 4) at line 25:12",
    );
    mesh_err(
        &edit(&s, "tri 1 0 2 3", "tri 1 0 -1 3"),
        IndexOutOfRange,
        "md5mesh: mesh 0: tri 1: vertex index -1 out of range (numverts = 4) at line 25:10",
    );
    mesh_err(
        &edit(&s, ") 6 2", ") 6 3"),
        IndexOutOfRange,
        "md5mesh: mesh 0: vert 3: startWeight 6 + countWeight 3 is past numweights = 8 \
         at line 21:31",
    );
    mesh_err(
        &edit(&s, ") 6 2", ") -6 2"),
        IndexOutOfRange,
        "md5mesh: mesh 0: vert 3: startWeight -6 out of range at line 21:31",
    );
    mesh_err(
        &edit(&s, "vert 2 (", "vert 3 ("),
        InvalidValue,
        "md5mesh: mesh 0: vert 3 is out of order (expected vert 2) at line 20:7",
    );
    mesh_err(
        &edit(&s, "tri 1 0", "tri 0 0"),
        InvalidValue,
        "md5mesh: mesh 0: tri 0 is out of order (expected tri 1) at line 25:6",
    );
    mesh_err(
        &edit(&s, "weight 7 2", "weight 8 2"),
        InvalidValue,
        "md5mesh: mesh 0: weight 8 is out of order (expected weight 7) at line 35:9",
    );
    mesh_err(
        &edit(&s, "numverts 4", "numverts 5"),
        BadCount,
        "md5mesh: mesh 0: numverts = 5 but the mesh has 4 vert lines at line 23:2",
    );
    mesh_err(
        &edit(&s, "numverts 4", "numverts 3"),
        BadCount,
        "md5mesh: mesh 0: the mesh has more vert lines than numverts = 3 at line 21:2",
    );
    mesh_err(
        &edit(&s, "numtris 2", "numtris 3"),
        BadCount,
        "md5mesh: mesh 0: numtris = 3 but the mesh has 2 tri lines at line 27:2",
    );
    mesh_err(
        &edit(&s, "numtris 2", "numtris 1"),
        BadCount,
        "md5mesh: mesh 0: the mesh has more tri lines than numtris = 1 at line 25:2",
    );
    mesh_err(
        &edit(&s, "numweights 8", "numweights 9"),
        BadCount,
        "md5mesh: mesh 0: numweights = 9 but the mesh has 8 weight lines at line 36:1",
    );
    mesh_err(
        &edit(&s, "numweights 8", "numweights 7"),
        BadCount,
        "md5mesh: mesh 0: the mesh has more weight lines than numweights = 7 at line 35:2",
    );
    mesh_err(
        &edit(&s, "numverts 4", "numverts 4000"),
        BadCount,
        "md5mesh: mesh 0: numverts = 4000 needs at least 48000 bytes but only 620 are left \
         at line 17:11",
    );
    mesh_err(
        &edit(&s, "numJoints 3", "numJoints -3"),
        BadCount,
        "md5mesh: negative count numJoints = -3 at line 4:11",
    );
    mesh_err(
        &edit(&s, "numverts 4", "numverts 99999999999999999999"),
        InvalidValue,
        "md5mesh: mesh 0: integer 99999999999999999999 is out of range at line 17:11",
    );
    mesh_err(
        &edit(&s, "1.000000 ( -4.000000", "1e39 ( -4.000000"),
        InvalidValue,
        "md5mesh: mesh 0: weight 0: number 1e39 is out of range for a 32-bit float at line 28:13",
    );
    mesh_err(
        &edit(&s, "1.000000 ( -4.000000", "1.#INF00 ( -4.000000"),
        InvalidValue,
        "md5mesh: mesh 0: weight 0: malformed number 1.#INF00 at line 28:13",
    );
    mesh_err(
        &edit(&s, "\"models/fixture/body\"", "\"models/fixture/body"),
        InvalidValue,
        "md5mesh: mesh 0: string has no closing '\"' before the end of its line at line 15:9",
    );
    mesh_err(
        &s[..s.len() - 40],
        Truncated,
        "md5mesh: mesh 0: weight 7: expected '(', found end of file at line 35:19",
    );
    mesh_err(
        &s[..s.iter().position(|&b| b == b'"').unwrap() + 5],
        Truncated,
        "md5mesh: string has no closing '\"' before the end of the file at line 2:13",
    );
    mesh_err(
        &[&s[..], b"mesh {\n/* never closed\n"].concat(),
        Truncated,
        "md5mesh: mesh 1: comment '/*' has no closing '*/' at line 38:1",
    );
    mesh_err(
        &[&s[..], b"joints {\n"].concat(),
        InvalidValue,
        "md5mesh: expected mesh, found joints at line 37:1",
    );
    mesh_err(
        b"",
        Truncated,
        "md5mesh: expected numJoints, found end of file at line 1:1",
    );
    mesh_err(
        &fixtures::anim(),
        InvalidValue,
        "md5mesh: expected numJoints, found numFrames at line 4:1",
    );
    mesh_err(
        b"\0\0\0\0",
        InvalidValue,
        "md5mesh: unexpected byte 0x00 at line 1:1",
    );
}

#[test]
fn limits_are_checked_before_allocating() {
    let s = fixtures::skeleton();
    let small = Limits {
        max_count: 3,
        ..Limits::default()
    };
    check_err(
        parse_mesh(&s, &small),
        ErrorKind::LimitExceeded,
        "md5mesh: mesh 0: numverts = 4 exceeds the limit of 3 at line 17:11",
    );
    let tiny = Limits {
        max_alloc_bytes: 200,
        ..Limits::default()
    };
    check_err(
        parse_mesh(&s, &tiny),
        ErrorKind::LimitExceeded,
        "md5mesh: decoded data would exceed the allocation limit of 200 bytes at line 4:11",
    );
    // A tiny file claiming huge counts fails at once.
    mesh_err(
        b"numJoints 4000000000 numMeshes 1 joints { }",
        ErrorKind::LimitExceeded,
        "md5mesh: numJoints = 4000000000 exceeds the limit of 16777216 at line 1:11",
    );
}

#[test]
fn anim_errors_have_exact_texts() {
    use ErrorKind::*;
    let a = fixtures::anim();
    anim_err(
        &edit(&a, "\"arm\"\t1 44 2", "\"arm\"\t1 64 2"),
        InvalidValue,
        "md5anim: joint 2 \"arm\": flags 64 outside 0..63 at line 12:10",
    );
    anim_err(
        &edit(&a, "\"arm\"\t1 44 2", "\"arm\"\t1 44 3"),
        IndexOutOfRange,
        "md5anim: joint 2 \"arm\": startIndex 3 + 3 animated components is past \
         numAnimatedComponents = 5 at line 12:13",
    );
    anim_err(
        &edit(&a, "\"arm\"\t1 44", "\"arm\"\t2 44"),
        IndexOutOfRange,
        "md5anim: joint 2 \"arm\": parent index 2 is not lower than its own index at line 12:8",
    );
    anim_err(
        &edit(&a, "frame 1 {", "frame 2 {"),
        InvalidValue,
        "md5anim: frame 2 is out of order (expected frame 1) at line 32:7",
    );
    anim_err(
        &edit(&a, "8.250000 0.130526 0.000010", "8.250000 0.130526"),
        BadCount,
        "md5anim: frame 1: numAnimatedComponents = 5 but the frame has 4 values at line 35:1",
    );
    anim_err(
        &edit(
            &a,
            "8.250000 0.130526 0.000010",
            "8.250000 0.130526 0.000010 1",
        ),
        BadCount,
        "md5anim: frame 1: the frame has more values than numAnimatedComponents = 5 at line 34:29",
    );
    anim_err(
        &edit(
            &a,
            "\t( -11.500000 -4.000000 0.000000 ) ( 13.500000 5.000000 73.000000 )\n",
            "",
        ),
        BadCount,
        "md5anim: numFrames = 3 but the bounds block has 2 lines at line 18:1",
    );
    anim_err(
        &edit(
            &a,
            "\t( 8.500000 -2.250000 8.000000 ) ( 0.000000 0.382683 0.000000 )\n",
            "",
        ),
        BadCount,
        "md5anim: numJoints = 3 but the baseframe block has 2 lines at line 24:1",
    );
    anim_err(
        &edit(&a, "numFrames 3", "numFrames 2"),
        BadCount,
        "md5anim: the file has more frame blocks than numFrames = 2 at line 37:1",
    );
    anim_err(
        &edit(&a, "bounds {", "bound {"),
        InvalidValue,
        "md5anim: unknown keyword bound (expected bounds) at line 15:1",
    );
    let no_bounds = {
        let t = String::from_utf8(a.clone()).unwrap();
        let (head, rest) = t.split_at(t.find("bounds {").unwrap());
        let rest = &rest[rest.find("baseframe").unwrap()..];
        format!("{head}{rest}").into_bytes()
    };
    anim_err(
        &no_bounds,
        InvalidValue,
        "md5anim: expected bounds, found baseframe at line 15:1",
    );
    anim_err(
        &edit(&a, "numJoints 3", "numJoints 4"),
        BadCount,
        "md5anim: numJoints = 4 but the hierarchy block has 3 joints at line 13:1",
    );
    anim_err(
        &edit(&a, "frameRate 24", "frameRate 0"),
        InvalidValue,
        "md5anim: frameRate 0 is not positive at line 6:11",
    );
    let t = String::from_utf8(a.clone()).unwrap();
    let cut = t.find("\nframe 2").unwrap() + 1;
    anim_err(
        &a[..cut],
        Truncated,
        "md5anim: numFrames = 3 but the file ends after 2 frames at line 37:1",
    );
    anim_err(
        &[&a[..], b"\nframe 3 {\n}\n"].concat(),
        BadCount,
        "md5anim: the file has more frame blocks than numFrames = 3 at line 42:1",
    );
    anim_err(
        &[&a[..], b"}"].concat(),
        InvalidValue,
        "md5anim: expected end of file, found '}' at line 41:1",
    );
}

#[test]
fn camera_errors_have_exact_texts() {
    use ErrorKind::*;
    let c = fixtures::camera();
    camera_err(
        &edit(&c, "\t2\n", "\t4\n"),
        IndexOutOfRange,
        "md5camera: cut 0: frame 4 out of range (must be at least 1 and less than numFrames = 4) \
         at line 9:2",
    );
    camera_err(
        &edit(&c, "\t2\n", "\t0\n"),
        IndexOutOfRange,
        "md5camera: cut 0: frame 0 out of range (must be at least 1 and less than numFrames = 4) \
         at line 9:2",
    );
    camera_err(
        &edit(&c, "numCuts 1", "numCuts 2"),
        BadCount,
        "md5camera: numCuts = 2 but the cuts block has 1 cut at line 10:1",
    );
    camera_err(
        &edit(&c, "\t2\n", "\t2 3\n"),
        BadCount,
        "md5camera: the cuts block has more cuts than numCuts = 1 at line 9:4",
    );
    camera_err(
        &edit(&c, "numFrames 4", "numFrames 5"),
        BadCount,
        "md5camera: numFrames = 5 but the camera block has 4 lines at line 17:1",
    );
    camera_err(
        &edit(&c, "numFrames 4", "numFrames 3"),
        BadCount,
        "md5camera: the camera block has more lines than numFrames = 3 at line 16:2",
    );
    camera_err(
        &edit(&c, ") 75.500000\n}", ")\n}"),
        InvalidValue,
        "md5camera: camera frame 3: expected a number (fov), found '}' at line 17:1",
    );
}

#[test]
fn assimp_invalid_files_give_specific_errors() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let dir = dir.join("assimp/test/models/MD5/invalid");
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    use ErrorKind::*;
    mesh_err(
        &read("InvalidBoneIndex.md5mesh"),
        IndexOutOfRange,
        "md5mesh: mesh 0: weight 0: joint index 999 out of range (numJoints = 1) at line 23:10",
    );
    mesh_err(
        &read("OverflowingTriangleIndex.md5mesh"),
        InvalidValue,
        "md5mesh: mesh 0: tri 4294967295 is out of order (expected tri 0) at line 18:5",
    );
    mesh_err(
        &read("OverflowingVertexIndex.md5mesh"),
        InvalidValue,
        "md5mesh: mesh 0: vert 4294967295 is out of order (expected vert 0) at line 15:6",
    );
    mesh_err(
        &read("OverflowingWeightIndex.md5mesh"),
        InvalidValue,
        "md5mesh: mesh 0: weight 4294967295 is out of order (expected weight 0) at line 21:8",
    );
    camera_err(
        &read("InvalidCameraCut.md5camera"),
        IndexOutOfRange,
        "md5camera: cut 0: frame 8 out of range (must be at least 1 and less than numFrames = 1) \
         at line 9:1",
    );
    let _ = md5::MESH_FORMAT;
}
