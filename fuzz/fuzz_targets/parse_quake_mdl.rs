//! Fuzzes the registered codec `quake-mdl`'s parser alone (parse, write back, Model, summary,
//! validate; no writers): the parser at the rate a 10-million-execution campaign needs.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::parse("quake-mdl", data));
