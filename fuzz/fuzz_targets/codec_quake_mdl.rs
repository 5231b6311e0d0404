//! Fuzzes the registered codec `quake-mdl` (parse, write back, Model, validate, writers).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::codec("quake-mdl", data));
