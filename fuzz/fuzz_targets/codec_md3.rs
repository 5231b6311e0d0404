//! Fuzzes the registered codec `md3` (parse, write back, Model, validate, writers).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::codec("md3", data));
