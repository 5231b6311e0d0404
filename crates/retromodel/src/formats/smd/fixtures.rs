//! Generated SMD files for tests and fuzzing seeds: a reference SMD (two bones, a box arm of
//! two materials) and an animation SMD of the same nodes bending the arm.

use super::{BonePose, File, Frame, Node, Triangle, Vertex};

/// The two nodes: `root` and its child `arm`.
fn nodes() -> Vec<Node> {
    vec![
        Node {
            name: "root".to_string(),
            parent: -1,
        },
        Node {
            name: "arm".to_string(),
            parent: 0,
        },
    ]
}

/// A frame with `root` at the origin turned by `yaw` and `arm` 8 units up it, bent by
/// `bend` about X.
fn frame(time: i32, yaw: f32, bend: f32) -> Frame {
    Frame {
        time,
        bones: vec![
            BonePose {
                bone: 0,
                position: [0.0, 0.0, 0.0],
                rotation: [0.0, 0.0, yaw],
            },
            BonePose {
                bone: 1,
                position: [0.0, 0.0, 8.0],
                rotation: [bend, 0.0, 0.0],
            },
        ],
    }
}

fn corner(bone: i32, position: [f32; 3], normal: [f32; 3], uv: [f32; 2]) -> Vertex {
    Vertex {
        bone,
        position,
        normal,
        uv,
        links: Vec::new(),
    }
}

/// The reference model: the side faces of a 4x4x16 column, lower half on `root`
/// (`body.bmp`), upper half on `arm` (`arm.bmp`); the last triangle's corners carry Source
/// links.
pub fn reference() -> File {
    let mut triangles = Vec::new();
    let sides: [([f32; 2], [f32; 2], [f32; 3]); 4] = [
        ([-2.0, -2.0], [2.0, -2.0], [0.0, -1.0, 0.0]),
        ([2.0, -2.0], [2.0, 2.0], [1.0, 0.0, 0.0]),
        ([2.0, 2.0], [-2.0, 2.0], [0.0, 1.0, 0.0]),
        ([-2.0, 2.0], [-2.0, -2.0], [-1.0, 0.0, 0.0]),
    ];
    for (bone, (z0, z1), material) in [(0, (0.0, 8.0), "body.bmp"), (1, (8.0, 16.0), "arm.bmp")] {
        for (s, (a, b, n)) in sides.iter().enumerate() {
            let u0 = s as f32 * 0.25;
            let u1 = u0 + 0.25;
            let p = |xy: [f32; 2], z: f32| [xy[0], xy[1], z];
            let c = |xy, z, uv| corner(bone, p(xy, z), *n, uv);
            triangles.push(Triangle {
                material: material.to_string(),
                corners: [
                    c(*a, z0, [u0, 0.0]),
                    c(*b, z0, [u1, 0.0]),
                    c(*b, z1, [u1, 1.0]),
                ],
            });
            triangles.push(Triangle {
                material: material.to_string(),
                corners: [
                    c(*a, z0, [u0, 0.0]),
                    c(*b, z1, [u1, 1.0]),
                    c(*a, z1, [u0, 1.0]),
                ],
            });
        }
    }
    if let Some(t) = triangles.last_mut() {
        for c in &mut t.corners {
            c.links = vec![(1, 0.75), (0, 0.25)];
        }
    }
    File {
        nodes: nodes(),
        frames: vec![frame(0, 0.0, 0.0)],
        triangles,
    }
}

/// The animation: five frames turning the root a quarter turn and bending the arm.
pub fn animation() -> File {
    File {
        nodes: nodes(),
        frames: (0..5)
            .map(|i| {
                let t = i as f32 / 4.0;
                frame(i, t * std::f32::consts::FRAC_PI_2, t * 0.8)
            })
            .collect(),
        triangles: Vec::new(),
    }
}

/// The fixtures: `reference.smd` and `reference_bend.smd`.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("reference.smd", reference().write()),
        ("reference_bend.smd", animation().write()),
    ]
}
