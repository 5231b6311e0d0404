//! Fuzzes the registered codec `obj` (parse, write back, Model, validate, writers).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::codec("obj", data));
