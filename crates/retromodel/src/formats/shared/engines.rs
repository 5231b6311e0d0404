//! Engines that several formats are checked against.

use crate::codec::Engine;

/// The A6..A8 engines' structure checks (no engine limits yet), shared by the 3D
/// GameStudio formats (MDL2..MDL7, HMP, WMP).
pub const ACKNEX: &[Engine] = &[Engine {
    name: "acknex",
    description: "3D GameStudio's engine (structure checks only; no engine limits yet)",
}];
