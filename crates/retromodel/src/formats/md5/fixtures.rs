//! Generated MD5 files for tests (being written).
