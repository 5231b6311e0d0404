//! Writing the three MD5 text files (being written).
