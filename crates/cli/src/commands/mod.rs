//! The commands, one module each. A command reads its input, asks a family
//! for what it needs (a session, a verifier, a picture) and decides what to
//! print; the families and sessions below never print.

pub mod best;
pub mod by_open;
pub mod catalog;
pub mod estimate;
pub mod export;
pub mod generate;
pub mod hints;
pub mod merge;
pub mod merge_best;
pub mod render;
pub mod serve;
pub mod solve;
pub mod split;
pub mod tree;
pub mod unique;
pub mod verify;
