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
//! - [`NaiveSpace`] states the search space a method without pruning would
//!   walk, with its formula, and [`trace`] records the tree itself (node by
//!   node down to a budget, deeper subtrees folded into counts) for a
//!   picture, through the same contract, so that an untraced search pays
//!   nothing for it.
//!
//! Nothing here knows about output: printing, JSON and pictures are sinks
//! that live with the command-line tool. The feature `testkit` adds
//! `testkit`, the checks every engine's tests run.
//!
//! # Implementing `Tree`
//!
//! A whole engine in a few lines: the ways to place `n` non-attacking
//! rooks on an `n` x `n` board, one row per level. A node names its
//! children by index, explores its subtree with [`NodeStats`] counting
//! every node at its depth, and polls the [`Ticker`] so that limits and
//! Ctrl-C stop it; the drivers then count it on every core.
//!
//! ```
//! use jigsolve_search::{count_solutions, Control, NoSuchNode, NodeKind, NodeStats, Sink,
//!                       Ticker, Tree, Weight};
//! use std::ops::ControlFlow;
//!
//! struct Rooks { n: u32 }
//!
//! impl Rooks {
//!     /// The columns still free after the rows of `path`, or an error for a
//!     /// path that names no node.
//!     fn free(&self, path: &[u32]) -> Result<Vec<u32>, NoSuchNode> {
//!         let mut free: Vec<u32> = (0..self.n).collect();
//!         for &k in path {
//!             if k as usize >= free.len() {
//!                 return Err(NoSuchNode { path: path.to_vec() });
//!             }
//!             free.remove(k as usize);
//!         }
//!         Ok(free)
//!     }
//! }
//!
//! impl Tree for Rooks {
//!     type Solution = [u32];
//!
//!     fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
//!         let free = self.free(path)?;
//!         Ok(if free.is_empty() {
//!             NodeKind::Solution(Weight::ONE)
//!         } else {
//!             NodeKind::Inner(free.len() as u32)
//!         })
//!     }
//!
//!     fn explore(
//!         &mut self,
//!         path: &[u32],
//!         sink: &mut dyn Sink<[u32]>,
//!         ticker: &mut Ticker<'_>,
//!         stats: &mut NodeStats,
//!     ) -> Result<ControlFlow<()>, NoSuchNode> {
//!         stats.add(path.len(), 1);
//!         if ticker.poll(1, || 0.0).is_break() {
//!             return Ok(ControlFlow::Break(()));
//!         }
//!         match self.node(path)? {
//!             NodeKind::Inner(d) => {
//!                 let mut child = path.to_vec();
//!                 child.push(0);
//!                 for k in 0..d {
//!                     *child.last_mut().unwrap() = k;
//!                     if self.explore(&child, sink, ticker, stats)?.is_break() {
//!                         return Ok(ControlFlow::Break(()));
//!                     }
//!                 }
//!                 Ok(ControlFlow::Continue(()))
//!             }
//!             NodeKind::Solution(w) => Ok(sink.solution(path, w)),
//!             NodeKind::DeadEnd => Ok(ControlFlow::Continue(())),
//!         }
//!     }
//! }
//!
//! // 5 rooks: 5! = 120 placements, found on 2 threads.
//! let report = count_solutions(|| Rooks { n: 5 }, 2, &Control::new()).unwrap();
//! assert_eq!(report.counts.raw, Some(120));
//! assert!(report.complete);
//! ```

#![warn(missing_docs)]

pub mod clock;
mod control;
mod count;
pub mod cpu;
pub mod drive;
pub mod estimate;
pub mod hitting;
pub mod located;
pub mod naive;
pub mod restart;
pub mod resume;
pub mod shard;
mod stats;
pub mod tally;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod trace;
mod tree;

pub use control::{fraction_of, Beat, Control, StopReason, Ticker};
pub use count::{CountKinds, Counts, Weight};
pub use drive::{count_solutions, run, RunConfig, Shard};
pub use located::{is_blank, line_of, plain_toml_message, LineIndex, Located};
pub use naive::NaiveSpace;
pub use restart::run_restarts;
pub use resume::{count_by_resumable, run_resumable, Checkpoints, Progress, ResumeError};
pub use stats::{NodeStats, Prune, Report};
pub use tally::{count_by, ByKey};
pub use tree::{Branch, Counter, NoSuchNode, NodeKind, Probe, Sink, Tree};

/// The stack each search thread gets, in bytes.
///
/// Engines recurse once per piece placed, and a board may take tens of
/// thousands of pieces (65,535 one-cell pieces is within the stated
/// limits), far deeper than the 2 MiB a spawned thread has by default or
/// the 8 MiB of a main thread. The space is only reserved: a page is used
/// when the search first goes that deep.
pub const SEARCH_STACK_BYTES: usize = 256 << 20;

/// Spawns a scoped search thread with [`SEARCH_STACK_BYTES`] of stack; an
/// error when the system cannot create one (under a per-process memory
/// cap, as cluster schedulers set, each thread's reserved stack counts).
pub fn spawn_search_thread<'scope, 'env, F, R>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    f: F,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, R>>
where
    F: FnOnce() -> R + Send + 'scope,
    R: Send + 'scope,
{
    std::thread::Builder::new()
        .name("jigsolve search".into())
        .stack_size(SEARCH_STACK_BYTES)
        .spawn_scoped(scope, f)
}

/// Spawns `workers` search threads running `work(k)` for k = 0, 1, ...,
/// as many as the system allows: when it refuses one, the search goes on
/// with those made (every driver hands out its work from a shared queue, so
/// fewer threads finish the same work) and `control` notes it. When not
/// even one can be made, `control` notes none made and is cancelled: the
/// driver returns an incomplete report at once, and the caller says why
/// (see [`Control::fewer_threads`]).
pub(crate) fn spawn_search_threads<'scope, 'env, F, R>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    workers: usize,
    control: &Control,
    mut work: impl FnMut(usize) -> F,
) -> Vec<std::thread::ScopedJoinHandle<'scope, R>>
where
    F: FnOnce() -> R + Send + 'scope,
    R: Send + 'scope,
{
    let mut handles = Vec::with_capacity(workers);
    for k in 0..workers {
        match spawn_search_thread(scope, work(k)) {
            Ok(handle) => handles.push(handle),
            Err(_) if handles.is_empty() => {
                control.note_fewer_threads(workers, 0);
                control.cancel();
                break;
            }
            Err(_) => {
                control.note_fewer_threads(workers, handles.len());
                break;
            }
        }
    }
    handles
}
