//! Fuzzes the registered codec `qc` (parse, write back, Model with side files, validate,
//! writers).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::codec("qc", data));
