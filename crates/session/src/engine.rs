//! The options that choose a puzzle's format and shape its search tree,
//! whoever asks for them (the command line's flags, the web page's
//! fields). Every shard of a split must use the same ones: [`EngineOptions::to_args`]
//! writes them back as command-line words for the shard commands.

use jigsolve_edge::ScanOrder;
use jigsolve_grid::EngineChoice;

/// Options that choose the puzzle's format and shape its search tree.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// The file's format when it cannot be told from the file (`toml`; for
    /// edge matching also `wh` and `hints`).
    pub format: Option<String>,
    /// List every distinct solution instead of one per symmetry class.
    pub no_symmetry: bool,
    /// Edge matching only: the cell order.
    pub order: Option<ScanOrder>,
    /// Polyforms only: the engine.
    pub engine_choice: Option<EngineChoice>,
    /// Polygons only: every piece may flip, whatever the file says.
    pub flip: bool,
    /// Polygons only: no piece may flip, whatever the file says.
    pub no_flip: bool,
    /// Polygons only: floating point with a tolerance even when exact
    /// numbers would do.
    pub approximate: bool,
    /// Count the placements tried and rejected at each depth (`solve
    /// --stats`, `tree`): an engine whose inner loop pays for the counting
    /// counts only then.
    pub count_tried: bool,
    /// When preparing the engine must end (the command's time limit counts
    /// from its start).
    pub deadline: Option<jigsolve_search::clock::Instant>,
}

impl EngineOptions {
    /// The options as command-line words, in one fixed order: what `split`
    /// writes into every shard command, so that each shard searches the tree
    /// the split was planned on. Every field of this struct must appear here
    /// (a test in the command line's `tests/split_options.rs` runs each one
    /// through a split).
    pub fn to_args(&self) -> Vec<String> {
        // Destructured so that a new option cannot be added without being
        // forwarded: the compiler names the missing field.
        let EngineOptions {
            format,
            no_symmetry,
            order,
            engine_choice,
            flip,
            no_flip,
            approximate,
            // Leaves the tree as it is: what `--stats` asks, not forwarded.
            count_tried: _,
            // The command's own time limit, forwarded as --time-limit.
            deadline: _,
        } = self;
        let mut words = Vec::new();
        let mut value = |flag: &str, v: Option<&str>| {
            if let Some(v) = v {
                words.push(flag.to_string());
                words.push(v.to_string());
            }
        };
        value("--format", format.as_deref());
        value("--order", order.map(ScanOrder::as_str));
        value("--engine", engine_choice.map(EngineChoice::as_str));
        for (flag, on) in [
            ("--no-symmetry", *no_symmetry),
            ("--flip", *flip),
            ("--no-flip", *no_flip),
            ("--approximate", *approximate),
        ] {
            if on {
                words.push(flag.to_string());
            }
        }
        words
    }
}
