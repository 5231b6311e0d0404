//! OBJ import: polygons fanned, winding turned to clockwise fronts, Y-up back to Z-up, `v`
//! turned downwards, materials' `map_Kd` pictures as skins; errors with line and column.

use retromodel::image::png::encode_rgba8;
use retromodel::interchange::{obj, ImportOptions};
use retromodel::{MemoryFiles, NoFiles};

const CUBE: &str = "# a unit cube, two materials
mtllib cube.mtl
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 -1
vn 0 0 1
usemtl red
f 1/1/1 4/4/1 3/3/1 2/2/1
f 5/1/2 6/2/2 7/3/2 8/4/2
usemtl blue
f -8/1 -7/2 -3/3 -4/4
f 4 3 7 8
";

fn files() -> MemoryFiles {
    let mut f = MemoryFiles::default();
    f.0.insert(
        "cube.mtl".into(),
        b"newmtl red\nmap_Kd -s 1 1 1 red.png\nnewmtl blue\n".to_vec(),
    );
    let png = encode_rgba8(2, 2, &[255, 0, 0, 255].repeat(4)).unwrap();
    f.0.insert("red.png".into(), png);
    f
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[test]
fn cube_reads_with_materials_winding_and_axes() {
    let c = obj::read(CUBE.as_bytes(), &files(), &ImportOptions::default()).unwrap();
    let m = &c.model;
    assert_eq!(m.meshes.len(), 2, "one mesh per material");
    assert_eq!(m.meshes[0].name, "red");
    assert_eq!(m.meshes[0].triangles.len(), 4);
    assert_eq!(m.meshes[1].triangles.len(), 4);
    assert_eq!(m.frames.len(), 1);
    assert_eq!(m.skins.len(), 1);
    assert_eq!(m.meshes[0].skin, Some(0));
    assert_eq!(m.meshes[1].skin, None);
    assert_eq!(m.meshes[0].skin_size, Some([2, 2]));
    assert!(
        c.warnings.iter().any(|w| w.contains("2 meshes")),
        "{:?}",
        c.warnings
    );
    m.validate().unwrap();
    // Y-up (0, 1, 0) is Z-up (0, 0, 1); OBJ z = 1 is Z-up y = -1.
    let red = &m.meshes[0];
    assert!(red.positions.contains(&[0.0, 0.0, 1.0]));
    assert!(red.positions.contains(&[1.0, -1.0, 1.0]));
    // Clockwise fronts: the cross product of a triangle's edges points against its normal.
    for mesh in &m.meshes {
        for t in &mesh.triangles {
            let [a, b, c] = t.map(|i| mesh.positions[i as usize]);
            let n = cross(
                std::array::from_fn(|k| b[k] - a[k]),
                std::array::from_fn(|k| c[k] - a[k]),
            );
            let vn = mesh.normals[t[0] as usize];
            let d: f32 = (0..3).map(|k| n[k] * vn[k]).sum();
            assert!(
                d < 0.0,
                "triangle {t:?} of {} is not clockwise seen from its normal {vn:?}",
                mesh.name
            );
        }
    }
    // v turned downwards: vt 0 0 (bottom left in OBJ) is v = 1 here.
    let k = red
        .positions
        .iter()
        .position(|p| *p == [0.0, 0.0, 0.0])
        .unwrap();
    assert_eq!(red.uvs[k], [0.0, 1.0]);
}

#[test]
fn errors_name_line_and_column() {
    let e = |text: &str| {
        obj::read(text.as_bytes(), &NoFiles, &ImportOptions::default())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e("v 0 0 0\nv 1 0 0\nf 1 2 9\n"),
        "obj: '9': index 9 out of range (2 defined so far) at line 3:7"
    );
    assert_eq!(e("v 0 0 x\n"), "obj: 'x' is not a number at line 1:7");
    assert_eq!(
        e("v 0 0 0\nf 1 1\n"),
        "obj: a face needs 3 vertices, this one has 2 at line 2:1"
    );
    assert_eq!(e("v 0 0 0\n"), "obj: the file has no face");
    assert_eq!(e("v 0 0\n"), "obj: v needs x y z at line 1:6");
}

#[test]
fn missing_texture_is_an_error_unless_skipped() {
    let mut f = files();
    f.0.insert("red.png".into(), b"not a png".to_vec());
    let err = obj::read(CUBE.as_bytes(), &f, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("obj: texture \"red.png\": "), "{err}");
    let skip = ImportOptions {
        skip_textures: true,
        ..Default::default()
    };
    assert!(obj::read(CUBE.as_bytes(), &f, &skip).is_ok());
}

#[test]
fn truncated_and_flipped_obj_never_panic() {
    let bytes = CUBE.as_bytes();
    let f = files();
    let o = ImportOptions::default();
    for cut in 0..bytes.len() {
        if let Ok(c) = obj::read(&bytes[..cut], &f, &o) {
            c.model.validate().unwrap();
        }
    }
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut m = bytes.to_vec();
            m[i] ^= 1 << bit;
            if let Ok(c) = obj::read(&m, &f, &o) {
                c.model.validate().unwrap();
            }
        }
    }
}
