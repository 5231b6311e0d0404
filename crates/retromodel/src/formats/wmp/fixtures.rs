//! Generated WMP files for tests, examples and `retromodel sample`: no copied assets but
//! the A4 manual's own examples.
//!
//! - [`manual_example`]: the "typical WMP file" of the A4 manual's WMP chapter, as printed
//!   (one block, a level, a light, four objects), less one page footer line that the text
//!   extraction put inside its `view` section. Its header comments are on one line, so they
//!   read as one comment.
//! - [`manual_block`]: a `// WMP2` line and the block statement of the manual's "Blocks"
//!   section, verbatim: the 64-unit cube from (-32,-32,-32) to (32,32,32).
//! - [`tiny_710`]: a hand-written level in the version-710 layout of WED 6.7 (tabs, CRLF):
//!   a cube and a prism in polygon form, a level, a light, an entity, a sound, a path and an
//!   unknown statement, three objects with a rotation and a mirroring scale. The `entity`,
//!   `sound` and `path` bodies are invented (their layout is undocumented): they exercise
//!   the keeping of tokens, not WED's real layout.
//! - [`odd_planes`]: the manual's cube with a bottom of another texture and three faces
//!   that give nothing: a plane outside the cube, a plane given twice and three colinear
//!   points.
//! - [`nested`]: five boxes in the A4 layout with six textures, a light and an entity,
//!   placed by four nested objects (`Group` > `Tree` > `Rock`, `Group` > `object 12` >
//!   `Rock`: the `Rock` object is shared, so its block is placed twice) with turns about
//!   every axis, non-uniform scales and a mirroring; two blocks in no object.

/// The A4 manual's example level ([module docs](self)).
pub fn manual_example() -> Vec<u8> {
    MANUAL_EXAMPLE.as_bytes().to_vec()
}

/// The A4 manual's block statement with a `// WMP2` line in front.
pub fn manual_block() -> Vec<u8> {
    format!("// WMP2\n{MANUAL_BLOCK}\n").into_bytes()
}

/// A version-710 level with every statement kind, CRLF line endings.
pub fn tiny_710() -> Vec<u8> {
    TINY_710.replace('\n', "\r\n").into_bytes()
}

/// The manual's cube with three faces that give nothing.
pub fn odd_planes() -> Vec<u8> {
    ODD_PLANES.as_bytes().to_vec()
}

/// Every fixture with a file name.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("manual_example.wmp", manual_example()),
        ("manual_block.wmp", manual_block()),
        ("tiny_710.wmp", tiny_710()),
        ("odd_planes.wmp", odd_planes()),
        ("nested.wmp", nested()),
    ]
}

/// An A4-layout box block from `lo` to `hi` with textures for its faces in the order top,
/// +x, -y, -x, +y, bottom; plane points clockwise seen from outside, as in [`manual_block`].
fn plane_box(index: u32, lo: [i32; 3], hi: [i32; 3], textures: [&str; 6]) -> String {
    let [lx, ly, lz] = lo;
    let [hx, hy, hz] = hi;
    let planes = [
        [[0, 0, hz], [0, 1, hz], [1, 0, hz]],
        [[hx, 0, 0], [hx, 0, 1], [hx, 1, 0]],
        [[0, ly, 0], [0, ly, 1], [1, ly, 0]],
        [[lx, 0, 0], [lx, 1, 0], [lx, 0, 1]],
        [[0, hy, 0], [1, hy, 0], [0, hy, 1]],
        [[0, 0, lz], [1, 0, lz], [0, 1, lz]],
    ];
    let mut s = format!("block {index} {{");
    for (p, t) in planes.iter().zip(textures) {
        for q in p {
            s += &format!(" ( {}.0 {}.0 {}.0 )", q[0], q[1], q[2]);
        }
        s += &format!(" {t} 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000\n");
    }
    s + "{ 0000 ndef } }\n"
}

/// Nested objects, a shared object and loose blocks ([module docs](self)).
pub fn nested() -> Vec<u8> {
    let rock = "rock";
    let mut s = String::from(
        "// WMP2 retromodel fixture: nested objects, a shared object, loose blocks\n\
         blocks 5 entities 2 objects 4\n",
    );
    s += &plane_box(
        0,
        [-16, -16, -16],
        [16, 16, 16],
        ["grass", rock, rock, rock, rock, rock],
    );
    s += &plane_box(
        1,
        [-4, -4, 0],
        [4, 4, 48],
        ["leaves", "bark", "bark", "bark", "bark", "bark"],
    );
    s += &plane_box(2, [100, 100, 0], [140, 120, 8], ["floor"; 6]);
    s += &plane_box(
        3,
        [-200, -10, 0],
        [-180, 10, 30],
        [rock, rock, rock, rock, rock, "metal"],
    );
    s += &plane_box(4, [0, 0, 0], [10, 20, 5], ["metal"; 6]);
    s += NESTED_OBJECTS;
    s.into_bytes()
}

const NESTED_OBJECTS: &str = r#"light 5 { 80 80 60 250 }
entity 6 { <ball.mdl> "the ball" (0 0 0) (0 0 0) (1 1 1) 0 0 0 0 0 0 0 0 }
object 10 {  // Tree
(50 -20 0) (0.5 0 0) (1 1 2)
block 1
object 11
light 5
}
object 11 {  // Rock
(10 0 48) (0.3 0.2 0.1) (0.5 0.75 0.5)
block 0
entity 6
}
object 12 {
(-60 40 10) (3.141593 0 0) (-1 1 1)
block 4
object 11
}
object 13 {  // Group
(0 0 5) (0 0 0.25) (1 1 1)
object 10, 12
}
"#;

const MANUAL_EXAMPLE: &str = r#"// WMP2 // ACKWED V 4.39 // Created 11.09.2000
blocks 1 entities 2 objects 4
wed { palette { 00 00 00 0f 0f 0f 1f 1f 1f 2f 2f 2f 3f 3f 3f 4b 4b 4b 5b 5b 5b 6b 6b 6b 7b 7b 7b 8b 8b 8b 9b 9b 9b ab ab ab bb bb bb cb cb cb db db db eb eb eb 0f 0b 07 17 0f 0b 1f 17 0b 27 1b 0f 2f 23 13 37 2b 17 3f 2f 17 4b 37 1b 53 3b 1b 5b 43 1f 63 4b 1f 6b 53 1f 73 57 1f 7b 5f 23 83 67 23 8f 6f 23 0b 0b 0f 13 13 1b 1b 1b 27 27 27 33 2f 2f 3f 37 37 4b 3f 3f 57 47 47 67 4f 4f 73 5b 5b 7f 63 63 8b 6b 6b 97 73 73 a3 7b 7b af 83 83 bb 8b 8b cb 00 00 00 07 07 00 0b 0b 00 13 13 00 1b 1b 00 23 23 00 2b 2b 07 2f 2f 07 37 37 07 3f 3f 07 47 47 07 4b 4b 0b 53 53 0b 5b 5b 0b 63 63 0b 6b 6b 0f 07 00 00 0f 00 00 17 00 00 1f 00 00 27 00 00 2f 00 00 37 00 00 3f 00 00 47 00 00 4f 00 00 57 00 00 5f 00 00 67 00 00 6f 00 00 77 00 00 7f 00 00 13 13 00 1b 1b 00 23 23 00 2f 2b 00 37 2f 00 43 37 00 4b 3b 07 57 43 07 5f 47 07 6b 4b 0b 77 53 0f 83 57 13 8b 5b 13 97 5f 1b a3 63 1f af 67 23 23 13 07 2f 17 0b 3b 1f 0f 4b 23 13 57 2b 17 63 2f 1f 73 37 23 7f 3b 2b 8f 43 33 9f 4f 33 af 63 2f bf 77 2f cf 8f 2b df ab 27 ef cb 1f ff f3 1b 0b 07 00 1b 13 00 2b 23 0f 37 2b 13 47 33 1b 53 37 23 63 3f 2b 6f 47 33 7f 53 3f 8b 5f 47 9b 6b 53 a7 7b 5f b7 87 6b c3 93 7b d3 a3 8b e3 b3 97 ab 8b a3 9f 7f 97 93 73 87 8b 67 7b 7f 5b 6f 77 53 63 6b 4b 57 5f 3f 4b 57 37 43 4b 2f 37 43 27 2f 37 1f 23 2b 17 1b 23 13 13 17 0b 0b 0f 07 07 bb 73 9f af 6b 8f a3 5f 83 97 57 77 8b 4f 6b 7f 4b 5f 73 43 53 6b 3b 4b 5f 33 3f 53 2b 37 47 23 2b 3b 1f 23 2f 17 1b 23 13 13 17 0b 0b 0f 07 07 db c3 bb cb b3 a7 bf a3 9b af 97 8b a3 87 7b 97 7b 6f 87 6f 5f 7b 63 53 6b 57 47 5f 4b 3b 53 3f 33 43 33 27 37 2b 1f 27 1f 17 1b 13 0f 0f 0b 07 6f 83 7b 67 7b 6f 5f 73 67 57 6b 5f 4f 63 57 47 5b 4f 3f 53 47 37 4b 3f 2f 43 37 2b 3b 2f 23 33 27 1f 2b 1f 17 23 17 0f 1b 13 0b 13 0b 07 0b 07 ff f3 1b ef df 17 db cb 13 cb b7 0f bb a7 0f ab 97 0b 9b 83 07 8b 73 07 7b 63 07 6b 53 00 5b 47 00 4b 37 00 3b 2b 00 2b 1f 00 1b 0f 00 0b 07 00 00 00 ff 0b 0b ef 13 13 df 1b 1b cf 23 23 bf 2b 2b af 2f 2f 9f 2f 2f 8f 2f 2f 7f 2f 2f 6f 2f 2f 5f 2b 2b 4f 23 23 3f 1b 1b 2f 13 13 1f 0b 0b 0f 2b 00 00 3b 00 00 4b 07 00 5f 07 00 6f 0f 00 7f 17 07 93 1f 07 a3 27 0b b7 33 0f c3 4b 1b cf 63 2b db 7f 3b e3 97 4f e7 ab 5f ef bf 77 f7 d3 8b a7 7b 3b b7 9b 37 c7 c3 37 e7 e3 57 7f bf ff ab e7 ff d7 ff ff 67 00 00 8b 00 00 b3 00 00 d7 00 00 ff 00 00 ff f3 93 ff f7 c7 ff ff ff 9f 5b 53 }
wad { 0 0 0 0 0 <standard.wad> 1 }
bookmark { *waterblue earthtile ; ; ; ; ; }
view { xy.1 -1 52 379 327 0.0 0.0 0.0 1536.0 0.745 3d.1 379 52 763 327 250.0 -250.0 250.0 1536.0 -0.785398 -0.61548 0.0 xz.1 -1 327 379 603 0.0 0.0 0.0 1536.0 0.745 yz.1 379 327 763 603 0.0 0.0 0.0 1536.0 0.745 textures 763 166 863 603 0 0
object 763 52 863 166 }
}
block 0 { ( 0.0 0.0 32.0 ) ( 0.0 500.0 32.0 ) ( 500.0 0.0 32.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 32.0 0.0 0.0 ) ( 32.0 0.0 500.0 ) ( 32.0 500.0 0.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 0.0 -32.0 0.0 ) ( 0.0 -32.0 500.0 ) ( 500.0 -32.0 0.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( -32.0 0.0 0.0 ) ( -32.0 500.0 0.0 ) ( -32.0 0.0 500.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 0.0 32.0 0.0 ) ( 500.0 32.0 0.0 ) ( 0.0 32.0 500.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 0.0 0.0 -32.0 ) ( 500.0 0.0 -32.0 ) ( 0.0 500.0 -32.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 { 0000 ndef } }
level 0 { <block.$$w> <Palette.raw> 30
0.000
60.000 <test.wdl> 100 100 100 0 0 100 100 0 0 0 0 0
19.60784340 19.60784340 19.60784340
3.92156863 3.92156863 3.92156863 }
light 1 {
49.84313583 49.84313583 49.84313583 300.0 }
object 0 { (0.0 0.0 0.0) (0.0 0.0 0.0) (1.0 1.0 1.0) object 1 level 0 }
object 1 { (0.0 0.0 0.0) (0.0 0.0 0.0) (1.0 1.0 1.0) object 2, 3 }
object 2 { (-44.0 4.0 0.0) (0.0 0.0 0.0) (1.0 1.0 1.0) block 0 }
object 3 { (80.0 0.0 48.0) (1.570796 0.0 0.0) (1.0 1.0 1.0) light 1 }
"#;

const MANUAL_BLOCK: &str = r#"block 0 { ( 0.0 0.0 32.0 ) ( 0.0 500.0 32.0 ) ( 500.0 0.0 32.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 32.0 0.0 0.0 ) ( 32.0 0.0 500.0 ) ( 32.0 500.0 0.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 0.0 -32.0 0.0 ) ( 0.0 -32.0 500.0 ) ( 500.0 -32.0 0.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( -32.0 0.0 0.0 ) ( -32.0 500.0 0.0 ) ( -32.0 0.0 500.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 0.0 32.0 0.0 ) ( 500.0 32.0 0.0 ) ( 0.0 32.0 500.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 ( 0.0 0.0 -32.0 ) ( 500.0 0.0 -32.0 ) ( 0.0 500.0 -32.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000 { 0000 ndef } }"#;

const TINY_710: &str = r#"// WMP2
// retromodel fixture in the layout of WED 6.7
// Created 01.01.2024

version 710

blocks 2
entities 5
objects 3

wed {
	palette {
		00 00 00  ff ff ff  80 40 20  
	}

	wad {
		0 0 0 0 0
		<C:\Program Files\GStudio6\wads\standard.wad> 1
	}

	bookmark {
		stone wood ; ; *water3
	}

	view {
		xy.1 -1 52 379 327 0.0 0.0 0.0 1536.0 0.745
		3d.1 379 52 763 327 250.0 -250.0 250.0 1536.0 -0.785398 -0.61548 0.0
	}
}

block 0 {
	vertices 8
	faces 6
	16 -16 16   16 16 16   -16 -16 16
	-16 16 16   16 -16 -16   16 16 -16
	-16 -16 -16   -16 16 -16
	4  1 0 2 3 : stone ( 1 0 0 0 ) ( 0 -1 0 0 ) 0 0 90 1 1 : 0000 0 50 ndef
	4  0 1 5 4 : stone ( 0 1 0 0 ) ( 0 0 -1 0 ) -16 0 90 1 1 : 0000 0 50 ndef
	4  2 0 4 6 : stone ( 1 0 0 0 ) ( 0 0 -1 0 ) -16 0 90 1 1 : 0000 0 50 ndef
	4  3 2 6 7 : stone ( 0 1 0 0 ) ( 0 0 -1 0 ) -16 0 90 1 1 : 0000 0 50 ndef
	4  1 3 7 5 : stone ( 1 0 0 0 ) ( 0 0 -1 0 ) -16 0 90 1 1 : 0000 0 50 ndef
	4  4 5 7 6 : *water3 ( 1 0 0 0 ) ( 0 -1 0 0 ) 0 0 90 0.5 0.5 : 1001 0 50 ndef
	{
		00000000000000010000000000000000
		ndef
		0
	}
}

block 1 {
	vertices 6
	faces 5
	32 0 16   32 -16 0   32 16 0
	-32 0 16   -32 -16 0   -32 16 0
	3  1 0 2 : wood ( 0 1 0 0 ) ( 0 0 -1 0 ) 0 -194 0 1 1 : 0000 0 50 ndef
	3  3 4 5 : wood ( 0 1 0 0 ) ( 0 0 -1 0 ) 0 -194 0 1 1 : 0000 0 50 ndef
	4  0 1 4 3 : wood ( 1 0 0 0 ) ( 0 -1 0 0 ) -640 0 0 1 1 : 0000 0 50 ndef
	4  2 0 3 5 : wood ( 1 0 0 0 ) ( 0 -1 0 0 ) -640 0 0 1 1 : 0000 0 50 ndef
	4  1 2 5 4 : wood ( 1 0 0 0 ) ( 0 -1 0 0 ) -640 0 0 1 1 : 0000 0 50 ndef
	{
		0000
		ndef
		1
	}
}

level 0 {
	<tiny.$$w>
	<palette.pcx>
	30
	0
	60
	<tiny.wdl>
	-0.000000 -0.000000 -0.000000
	-0.000000 -0.000000 -0.000000
	-0.000000 -0.000000 -0.000000
	-0.000000 -0.000000 -0.000000
	19.607843 19.607843 19.607843
	3.921569 3.921569 3.921569
}

light 1 {
	80 80 60 250
}

entity 2 {
	<ball.mdl> "the ball"
	(0 0 0) (0 0 0) (1 1 1)
	0 0 0 0 0 0 0 0
}

sound 3 {
	<wind.wav> 100 500
}

path 4 {
	2 0
	{ (0 0 0) 0 }
	{ (64 0 0) 0 }
}

future 1 { 1 2 { 3 } 4 }

object 0 {  // Root
	(0 0 0) (0 0 0) (1 1 1)
	object 1, 2
	level 0
}

object 1 {  // Cube
	(64 0 16) (1.570796 0 0) (1 1 1)
	block 0
	light 1
}

object 2 {
	(0 0 0) (0 0 0) (-1 2 1)
	block 1
	entity 2
	sound 3
	path 4
}
"#;

const ODD_PLANES: &str = r#"// WMP2
block 0 { ( 0.0 0.0 32.0 ) ( 0.0 500.0 32.0 ) ( 500.0 0.0 32.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( 32.0 0.0 0.0 ) ( 32.0 0.0 500.0 ) ( 32.0 500.0 0.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( 0.0 -32.0 0.0 ) ( 0.0 -32.0 500.0 ) ( 500.0 -32.0 0.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( -32.0 0.0 0.0 ) ( -32.0 500.0 0.0 ) ( -32.0 0.0 500.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( 0.0 32.0 0.0 ) ( 500.0 32.0 0.0 ) ( 0.0 32.0 500.0 ) wood 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( 0.0 0.0 -32.0 ) ( 500.0 0.0 -32.0 ) ( 0.0 500.0 -32.0 ) stone 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( 100.0 0.0 0.0 ) ( 100.0 0.0 500.0 ) ( 100.0 500.0 0.0 ) far 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( 0.0 0.0 32.0 ) ( 0.0 100.0 32.0 ) ( 100.0 0.0 32.0 ) twice 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
( 0.0 0.0 0.0 ) ( 1.0 1.0 1.0 ) ( 2.0 2.0 2.0 ) line 0 0 0 1.00 1.00 : 0000 0.0 50.0 ndef ndef 0.0 0000
{ 0000 ndef } }
"#;
