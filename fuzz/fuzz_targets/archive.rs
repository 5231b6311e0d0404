//! Fuzzes the archive readers (PAK and ZIP): the directory, then every entry.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::archive(data));
