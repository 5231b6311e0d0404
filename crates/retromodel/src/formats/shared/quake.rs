//! Quake geometry shared by the Quake MDL family and MD2: the byte-packed vertex that both
//! store in every frame (`trivertx_t` in Quake's `modelgen.h` and Quake 2's `qfiles.h`).

/// A byte-packed vertex (`trivertx_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Vertex {
    /// Packed coordinates; real = `scale * v + translate`.
    pub v: [u8; 3],
    /// Index into the 162-entry normal table.
    pub normal_index: u8,
}

/// The diamond the generated Quake MDL and 3D GameStudio MDL fixtures are made of: its vertex
/// directions, four around the equator, top, bottom.
pub const DIAMOND: [[f32; 3]; 6] = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, -1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, -1.0],
];

/// The position of the fixtures' diamond vertex `i` in frame `k`: its direction scaled by
/// `8 * (1 + k / 4)`.
pub fn diamond_position(i: usize, k: usize) -> [f32; 3] {
    let r = 8.0 * (1.0 + k as f32 / 4.0);
    DIAMOND[i].map(|c| c * r)
}
