//! The search contract shared by every jigsolve puzzle family.
//!
//! Every family (edge matching, polyforms, polygons) solves its puzzles by
//! backtracking: a tree whose nodes are partial assemblies and whose leaves are
//! solutions or dead ends. This crate is the part of that picture that does not
//! depend on what a piece is:
//!
//! - An engine implements [`Tree`]. It pushes every solution it finds into a
//!   [`Sink`] (a callback returning [`ControlFlow`](std::ops::ControlFlow)), with
//!   a [`Weight`] that says how many raw, distinct and unique solutions the
//!   reported one stands for. Engines that break symmetry inside the search
//!   report one solution per symmetry class with the class size as its weight,
//!   so counts are exact without enumerating everything and dividing.
//! - A [`Control`] carries the stop flag (Ctrl-C, time and node limits) and the
//!   progress slots. Engines poll it through a [`Ticker`] every few thousand
//!   nodes, never per node.
//! - Every node of the tree has a *path*: the index of the child taken at each
//!   level ("choice k of d"). A path names a subtree, which is all the drivers
//!   need: [`drive::plan`] cuts the tree into many more subtrees than threads,
//!   [`drive::run`] explores them on every core or takes one deterministic
//!   [`Shard`] of them for another machine, and [`estimate`] descends along
//!   random paths to estimate the size of the tree (Knuth 1975).
//!
//! Nothing here knows about output: printing, JSON and pictures are sinks
//! that live with the command-line tool.

#![warn(missing_docs)]

mod control;
mod count;
pub mod cpu;
pub mod drive;
pub mod estimate;
pub mod located;
pub mod restart;
pub mod shard;
mod stats;
mod tree;

pub use control::{fraction_of, Control, StopReason, Ticker};
pub use count::{CountKinds, Counts, Weight};
pub use drive::{count_solutions, run, RunConfig, Shard};
pub use located::{is_blank, line_of, Located};
pub use restart::run_restarts;
pub use stats::{NodeStats, Report};
pub use tree::{NoSuchNode, NodeKind, Probe, Sink, Tree};
