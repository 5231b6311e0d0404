//! Fuzzes the texture decoders: `image::decode` under every name hint, and `decode_wal`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| retromodel_fuzz::image(data));
