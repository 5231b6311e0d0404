//! Quaternion maths with the MD5 sign convention (being written).
