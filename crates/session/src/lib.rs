//! What jigsolve's command line and web server share, below any user
//! interface: reading a puzzle of any family from a file or the built-in
//! catalog ([`source`], [`catalog`], [`family`]), preparing its search for
//! one set of [`engine`] options as a [`session::Session`], and what is
//! built from a search's end: the summary and shard results ([`report`]),
//! the counts by goal ([`goals`]), checkpoints ([`checkpoint`]), views of
//! a recorded tree ([`tree`]) and the best-board search's lines ([`best`]).
//!
//! Nothing here prints, parses command-line words or decides an exit code:
//! every function hands back values or an [`Error`] whose message names the
//! file, line and problem, and the front end decides what to show.

pub mod best;
pub mod catalog;
pub mod checkpoint;
pub mod engine;
pub mod error;
pub mod family;
pub mod goals;
pub mod puzzle;
pub mod report;
pub mod request;
pub mod session;
pub mod source;
pub mod text;
pub mod threads;
pub mod tree;

pub use error::{Error, InputError, Result};
