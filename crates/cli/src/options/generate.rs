//! The options of `jigsolve generate`: which family, and the size and
//! shape of the puzzle to make.

use super::{seconds, threads};
use clap::Args;
use std::path::PathBuf;

/// `jigsolve generate`: which family.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum GenerateKind {
    /// An edge-matching puzzle: a rows x columns board coloured at random, cut into tiles, turned and shuffled.
    Edge {
        #[command(flatten)]
        spec: EdgeSpec,
        #[command(flatten)]
        common: GenerateArgs,
    },
    /// A polyform puzzle: a board cut into random pieces (--size, --board), or a region for a given piece set (--pieces).
    Grid {
        #[command(flatten)]
        spec: GridSpec,
        #[command(flatten)]
        common: GenerateArgs,
    },
    /// A polygon puzzle: a convex polygon cut by random chords into pieces, each moved and maybe mirrored.
    Polygon {
        #[command(flatten)]
        spec: PolygonSpec,
        #[command(flatten)]
        common: GenerateArgs,
    },
}

impl GenerateKind {
    /// What every family's `generate` takes.
    pub fn common(&self) -> &GenerateArgs {
        match self {
            GenerateKind::Edge { common, .. }
            | GenerateKind::Grid { common, .. }
            | GenerateKind::Polygon { common, .. } => common,
        }
    }
}

/// `jigsolve generate edge` options.
#[derive(Args, Clone, Debug)]
pub struct EdgeSpec {
    /// Board rows (1 to 32).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=32))]
    pub rows: u64,
    /// Board columns (1 to 32).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=32))]
    pub cols: u64,
    /// Colours (marks) on inner edges (1 to 200).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=200))]
    pub colours: u64,
    /// Colours on the edges running along the frame between two frame tiles, apart from the inner ones (Eternity II has 5); 0 uses the inner colours there.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=200), conflicts_with = "no_border")]
    pub frame_colours: u64,
    /// No border mark: the outer sides get random colours like the rest.
    #[arg(long)]
    pub no_border: bool,
    /// How marks fit: equal (a mark fits itself, as in Eternity II) or complementary (+3 fits -3).
    #[arg(long, default_value = "equal", value_parser = ["equal", "complementary"])]
    pub matching: String,
}

/// `jigsolve generate grid` options.
#[derive(Args, Clone, Debug)]
#[command(group(clap::ArgGroup::new("shape").required(true).args(["size", "board", "pieces"])))]
pub struct GridSpec {
    /// A board of W x H cells (or W x H x D cubes), with --holes, cut into random pieces.
    #[arg(long, value_name = "WxH[xD]", value_parser = box_size)]
    pub size: Option<[i32; 3]>,
    /// Cut the board of this puzzle (a file or a catalog name) into random pieces.
    #[arg(long, value_name = "PUZZLE")]
    pub board: Option<String>,
    /// Lay out the pieces of this puzzle (a file or a catalog name) into a random region they fill.
    #[arg(long, value_name = "PUZZLE")]
    pub pieces: Option<String>,
    /// Sizes of the cut pieces, MIN-MAX cells (a piece boxed in may end smaller).
    #[arg(long, value_name = "MIN-MAX", default_value = "4-6", value_parser = size_range, conflicts_with = "pieces")]
    pub piece_size: (usize, usize),
    /// With --size: the share of the box's cells left out as holes (0 to 0.6, more is refused; the board stays in one piece).
    #[arg(long, default_value_t = 0.0, value_parser = hole_share, requires = "size")]
    pub holes: f64,
    /// With --size: board colours: none, checker, or a number of random colours (2 to 26).
    #[arg(long, default_value = "none", value_parser = colouring, requires = "size")]
    pub colouring: GridColouring,
    /// The share of cut pieces that are one-sided (may only turn, not turn over); default 0 for squares, 1 for cubes (a solid cannot be mirrored).
    #[arg(long, value_parser = fraction, conflicts_with = "pieces")]
    pub one_sided: Option<f64>,
}

/// How `generate grid --size` colours its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridColouring {
    /// No colours.
    None,
    /// A checkerboard.
    Checker,
    /// Each cell one of this many colours at random.
    Random(u8),
}

fn colouring(s: &str) -> Result<GridColouring, String> {
    match s {
        "none" => Ok(GridColouring::None),
        "checker" => Ok(GridColouring::Checker),
        n => match n.parse::<u8>() {
            Ok(k) if (2..=26).contains(&k) => Ok(GridColouring::Random(k)),
            _ => Err(format!(
                "'{s}' is not none, checker or a number of colours from 2 to 26"
            )),
        },
    }
}

fn box_size(s: &str) -> Result<[i32; 3], String> {
    let parts: Vec<&str> = s.split(['x', 'X']).collect();
    let numbers: Option<Vec<i32>> = parts
        .iter()
        .map(|p| {
            p.trim()
                .parse::<i32>()
                .ok()
                .filter(|n| (1..=64).contains(n))
        })
        .collect();
    match numbers.as_deref() {
        Some([w, h]) => Ok([*w, *h, 1]),
        Some([w, h, d]) => Ok([*w, *h, *d]),
        _ => Err(format!(
            "'{s}' is not W x H or W x H x D with each from 1 to 64 (e.g. 6x10)"
        )),
    }
}

fn size_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}' is not MIN-MAX with 1 <= MIN <= MAX <= 64 (e.g. 4-6)");
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (a.trim().parse::<usize>(), b.trim().parse::<usize>()),
        None => (s.trim().parse::<usize>(), s.trim().parse::<usize>()),
    };
    match (lo, hi) {
        (Ok(lo), Ok(hi)) if 1 <= lo && lo <= hi && hi <= 64 => Ok((lo, hi)),
        _ => Err(bad()),
    }
}

fn fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
    }
}

/// The share of a generated board left out as holes: 0 to 0.6 (more would
/// cut the board apart; a larger share was once kept at 0.6 in silence).
fn hole_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if (0.0..=0.6).contains(&f) => Ok(f),
        _ => Err(format!("'{s}' is not a share from 0 to 0.6")),
    }
}

/// `jigsolve generate polygon` options.
#[derive(Args, Clone, Debug)]
pub struct PolygonSpec {
    /// Number of pieces (1 to 12).
    #[arg(long = "pieces", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=12))]
    pub count: u64,
}

/// What every `jigsolve generate` takes.
#[derive(Args, Clone, Debug)]
pub struct GenerateArgs {
    /// Seed of the random choices: the same seed and options make the same puzzle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Keep generating (seed, seed+1, ...) until the puzzle has exactly one solution up to symmetry.
    #[arg(long)]
    pub unique: bool,
    /// With --unique: instead of trying more seeds, add the fewest hints that leave one solution (edge matching, polyforms).
    #[arg(long, requires = "unique")]
    pub add_hints: bool,
    /// With --unique: seeds to try before giving up (exit code 1).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000), requires = "unique")]
    pub tries: u64,
    /// Report the estimated size of the search tree (Knuth's estimator, 1,000 probes), to aim for easy or hard puzzles.
    #[arg(long)]
    pub difficulty: bool,
    /// The puzzle's name (default: one made of the options and the seed).
    #[arg(long)]
    pub name: Option<String>,
    /// Write the puzzle to FILE (`-` or none: standard output).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the planted solution to FILE as `solve --json` writes solutions (so `verify` and `render` take it).
    #[arg(long, value_name = "FILE")]
    pub solution: Option<PathBuf>,
    /// Write an SVG picture of the puzzle to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write a PNG picture of the puzzle to FILE.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Print the report as one JSON object (on standard error when the puzzle goes to standard output).
    #[arg(long)]
    pub json: bool,
    /// Worker threads for --unique and --add-hints (default: every core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = threads)]
    pub threads: usize,
    /// Stop the searches of --unique, --add-hints and --difficulty after this many seconds (exit code 3).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Never show the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}
