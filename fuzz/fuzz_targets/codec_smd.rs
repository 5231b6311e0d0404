//! Fuzzes the registered codec `smd` (parse, write back, Model, validate, writers).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::codec("smd", data));
