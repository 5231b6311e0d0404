//! Fuzzes the Quake II re-release pairing: an md5mesh, md5anim and md5scale paired with an
//! MD2 (`retromodel::rerelease`), and the md5scale reader.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::rerelease(data));
