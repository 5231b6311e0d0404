//! The MD5 tokenizer (being written).
