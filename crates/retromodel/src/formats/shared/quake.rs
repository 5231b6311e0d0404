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
