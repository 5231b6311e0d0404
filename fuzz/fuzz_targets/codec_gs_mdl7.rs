//! Fuzzes the registered codec `gs-mdl7` (parse, write back, Model, validate, writers).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::codec("gs-mdl7", data));
