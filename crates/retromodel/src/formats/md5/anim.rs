//! Skeletal animation: poses, skinning, the compressing md5anim builder (being written).
