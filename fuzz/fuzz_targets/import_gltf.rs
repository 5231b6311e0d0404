//! Fuzzes the gltf importer.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::gltf(data));
