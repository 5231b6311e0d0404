//! Fuzzes the meshopt decoders of `EXT_meshopt_compression`: the vertex, triangle and index
//! sequence codecs and the filters (`retromodel_fuzz::meshopt` says how the input is split).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::meshopt(data));
