//! `jigsolve tree`: the search itself. The tree is recorded level by level
//! through the search contract ([`jigsolve_search::trace`]), on one thread,
//! until the next level would pass `--max-nodes` or `--depth`; the subtrees
//! below are searched whole and kept as counts. The command prints the
//! counts per depth (text or JSON) and draws the tree with `--svg` or
//! `--png`.

use crate::exit::{self, out};
use crate::family;
use crate::options::TreeArgs;
use crate::puzzle::check_engine_options;
use crate::report::naive_text;
use crate::running::watch_signals;
use crate::session::Job;
use crate::source;
use crate::tree_views::{level_labels, trace_text, traced_engine, tree_caption, tree_json};
use anyhow::{anyhow, Result};
use jigsolve_render::tree::tree_svg;
use jigsolve_search::trace::TraceLimits;
use jigsolve_search::{Control, StopReason};
use std::sync::Arc;
use std::time::Duration;

/// Records, prints and draws the search tree; returns the exit code.
pub fn tree_command(args: &TreeArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine.options())?;
    let pictures = args.pictures();
    pictures.prepare()?;
    let session = puzzle.session(&traced_engine(&args.engine.options()))?;
    let described = session.described(&Job::whole_tree());
    let mut control = Control::new();
    if let Some(secs) = args.time_limit {
        control = control.with_time_limit(Duration::from_secs_f64(secs));
    }
    // Ctrl-C and SIGTERM stop the recording as a limit does: what was
    // recorded is printed and drawn, and the exit code says so.
    let control = Arc::new(control);
    watch_signals(&control);
    let limits = TraceLimits {
        depth: args.depth.map(|d| usize::try_from(d).unwrap_or(usize::MAX)),
        nodes: args.max_nodes,
    };
    let trace = session
        .trace(limits, &control)
        .map_err(|e| anyhow!("the search tree could not be walked (a bug): {e}"))?;
    let labels = level_labels(&trace, session.as_ref());
    let name = puzzle.name();
    if args.json {
        out!("{}\n", tree_json(&trace, &labels, name, &described));
    } else {
        out!(
            "{name}: search tree\n{}{}",
            trace_text(&trace, &labels),
            naive_text(&described.naive, trace.total_nodes())
        );
    }
    if pictures.wanted() {
        pictures.write(&tree_svg(&trace, &tree_caption(&trace, labels, name)))?;
    }
    Ok(if control.stop_reason() == Some(StopReason::Cancelled) {
        exit::CANCELLED
    } else if !trace.complete {
        exit::LIMIT
    } else if trace.solutions() > 0 {
        exit::FOUND
    } else {
        exit::NONE
    })
}
