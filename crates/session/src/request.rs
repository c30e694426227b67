//! What the web page asks a search to do, as the server and the
//! WebAssembly build both read it: the mode (`"solve"`, `"count"`, ...) and
//! the options object of a search request, checked with the command line's
//! own parsers so that the messages are the same.

use crate::engine::EngineOptions;
use crate::tree::DEFAULT_TREE_NODES;
use jigsolve_search::trace::TraceLimits;
use serde_json::Value;

/// What a search is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Stop at the first solution (`solve --limit 1`).
    Solve,
    /// Walk the whole tree and count (`solve`, every solution listed).
    Count,
    /// The board with the most matching inner edges (`best`), edge
    /// matching only.
    Best,
    /// The search tree recorded, counted and drawn (`tree`), on one
    /// thread.
    Tree,
    /// Every goal counted (`solve --by-open`): a puzzle that leaves cells
    /// open, each date of a calendar.
    ByOpen,
}

impl Mode {
    /// The word used in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Solve => "solve",
            Mode::Count => "count",
            Mode::Best => "best",
            Mode::Tree => "tree",
            Mode::ByOpen => "by-open",
        }
    }
}

/// How one search runs: the command line's engine options (`solve
/// --no-symmetry`, `--order`, `--engine`, `--flip`, `--no-flip`), its
/// threads, and for [`Mode::Tree`] how much of the tree is drawn.
#[derive(Clone, Debug)]
pub struct Options {
    /// The options `solve` passes to the session (unused by [`Mode::Best`]).
    pub engine: EngineOptions,
    /// Threads of this search, at least 1 and at most what the caller allows
    /// (the server's `--threads`; one in a browser worker).
    pub threads: usize,
    /// [`Mode::Tree`]: the levels and nodes recorded one by one (`tree
    /// --depth`, `--max-nodes`).
    pub tree: TraceLimits,
    /// The cells to leave open, by name, comma-separated (`solve --open`).
    pub open: Option<String>,
}

/// The names of `--open`'s comma-separated list.
pub fn open_names(list: &str) -> Vec<String> {
    list.split(',').map(|n| n.trim().to_string()).collect()
}

impl Default for Options {
    /// One thread, the command line's defaults.
    fn default() -> Options {
        Options {
            engine: EngineOptions::default(),
            threads: 1,
            tree: TraceLimits {
                depth: None,
                nodes: DEFAULT_TREE_NODES,
            },
            open: None,
        }
    }
}

/// The mode of a request, `"mode": "count"` (`solve` when absent).
pub fn mode_of(body: &Value) -> Result<Mode, String> {
    match body.get("mode") {
        None => Ok(Mode::Solve),
        Some(Value::String(mode)) => match mode.as_str() {
            "solve" => Ok(Mode::Solve),
            "count" => Ok(Mode::Count),
            "best" => Ok(Mode::Best),
            "tree" => Ok(Mode::Tree),
            "by-open" => Ok(Mode::ByOpen),
            other => Err(format!(
                "unknown mode '{other}': expected solve, count, best, tree or by-open"
            )),
        },
        Some(m) => Err(format!(
            "\"mode\" must be a string (solve, count, best, tree or by-open), not {m}"
        )),
    }
}

/// The search options of a request, `"options": {"symmetry": false,
/// "order": "frame", "engine": "dlx", "flip": "flip" | "no-flip",
/// "threads": 2}`, each optional: what `solve --no-symmetry --order frame
/// --engine dlx --flip --threads 2` asks. At most `most_threads` threads
/// (`why_most` says why, in the message when more are asked);
/// the best-board search takes the thread count only; the tree takes one
/// thread, and `"depth": N, "max_nodes": N` as `tree --depth N
/// --max-nodes N` (checked as the command line checks them).
pub fn options_of(
    body: &Value,
    mode: Mode,
    most_threads: usize,
    why_most: &str,
) -> Result<Options, String> {
    let mut options = Options::default();
    let Some(given) = body.get("options") else {
        return Ok(options);
    };
    let Some(given) = given.as_object() else {
        return Err("\"options\" must be an object such as {\"symmetry\": false}".into());
    };
    let text = |key: &str| -> Result<Option<&str>, String> {
        match given.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(format!("option {key}: expected a name, got {other}")),
        }
    };
    for key in given.keys() {
        if !matches!(
            key.as_str(),
            "symmetry" | "order" | "engine" | "flip" | "threads" | "depth" | "max_nodes" | "open"
        ) {
            return Err(format!(
                "unknown option '{key}': expected symmetry, order, engine, flip, threads, depth, max_nodes or open"
            ));
        }
    }
    if let Some(open) = text("open")? {
        if matches!(mode, Mode::Best | Mode::ByOpen) {
            return Err(format!(
                "option open names one goal; mode {} takes none",
                mode.as_str()
            ));
        }
        options.open = Some(open.to_string());
    }
    match given.get("symmetry") {
        None | Some(Value::Null) | Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => options.engine.no_symmetry = true,
        Some(other) => {
            return Err(format!(
                "option symmetry: expected true or false, got {other}"
            ))
        }
    }
    if let Some(order) = text("order")? {
        options.engine.order = Some(order.parse().map_err(|e| format!("option order: {e}"))?);
    }
    if let Some(engine) = text("engine")? {
        options.engine.engine_choice =
            Some(engine.parse().map_err(|e| format!("option engine: {e}"))?);
    }
    match text("flip")? {
        None | Some("file") => {}
        Some("flip") => options.engine.flip = true,
        Some("no-flip") => options.engine.no_flip = true,
        Some(other) => {
            return Err(format!(
                "option flip: unknown '{other}': expected file, flip or no-flip"
            ))
        }
    }
    match given.get("threads") {
        None | Some(Value::Null) => {}
        Some(n) => match n.as_u64() {
            Some(n) if n >= 1 && n <= most_threads as u64 => options.threads = n as usize,
            _ => {
                return Err(format!(
                "option threads: {n} is not a thread count from 1 to {most_threads} ({why_most})"
            ))
            }
        },
    }
    // The tree's options, parsed from their text by the command line's own
    // parsers, so that the messages are the same.
    let tree_option = |key: &str| -> Result<Option<String>, String> {
        match given.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) if mode != Mode::Tree => Err(format!(
                "option {key} applies to the search tree (mode tree) only"
            )),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(format!("option {key}: expected a number, got {other}")),
        }
    };
    if let Some(depth) = tree_option("depth")? {
        let depth = crate::text::positive(&depth).map_err(|e| format!("option depth: {e}"))?;
        options.tree.depth = Some(usize::try_from(depth).unwrap_or(usize::MAX));
    }
    if let Some(nodes) = tree_option("max_nodes")? {
        options.tree.nodes =
            crate::tree::tree_nodes(&nodes).map_err(|e| format!("option max_nodes: {e}"))?;
    }
    if mode == Mode::Tree && options.threads != 1 {
        return Err(format!(
            "the search tree is walked on one thread, as `jigsolve tree` walks it: option threads must be 1, not {}",
            options.threads
        ));
    }
    if mode == Mode::Best && !options.engine.to_args().is_empty() {
        return Err(format!(
            "the best-board search takes only the threads option, not {}",
            options.engine.to_args().join(" ")
        ));
    }
    Ok(options)
}
