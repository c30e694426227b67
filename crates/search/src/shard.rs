//! Shard results and merging them.
//!
//! A search split for many machines runs each [`Shard`](crate::Shard) on its
//! own and writes a [`ShardResult`]: which puzzle (a hash of its normalised
//! content, so a renamed file is still the same puzzle and an edited one is
//! not), which split (the number of shards and the engine options that shape
//! the tree), which shard, the counts, and whether it completed. [`merge`]
//! checks that the results belong together and that every shard is there
//! exactly once and complete, then adds them up; what is missing or
//! incomplete is listed so that only those shards are run again.

use crate::Counts;
use serde::{Deserialize, Serialize};

/// The `format` tag of shard result files.
pub const FORMAT: &str = "jigsolve-shard-result/1";

/// What one shard of a split search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always [`FORMAT`].
    pub format: String,
    /// The puzzle family.
    pub family: String,
    /// The puzzle's name (for messages only).
    pub puzzle: String,
    /// A hash of the puzzle's normalised content.
    pub puzzle_hash: String,
    /// The engine options that shape the search tree (every shard of one
    /// split must have been run with the same).
    pub split: String,
    /// Number of shards in the split.
    pub shards: usize,
    /// This shard, from 0.
    pub shard: usize,
    /// Subtrees this shard explored.
    pub subtrees: usize,
    /// Raw, distinct and unique counts of this shard.
    pub counts: Counts,
    /// Solutions reported in this shard.
    pub reported: u64,
    /// Nodes visited (shard 0 includes the nodes above the cut).
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// True when the shard was searched to the end.
    pub complete: bool,
    /// Why it stopped early, if it did.
    pub stopped: Option<String>,
}

/// The sum of a complete set of shards, or what is missing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Merged {
    /// Family, puzzle name and hash, split and shard count of the set.
    pub family: String,
    /// Puzzle name.
    pub puzzle: String,
    /// Puzzle hash.
    pub puzzle_hash: String,
    /// The split's engine options.
    pub split: String,
    /// Number of shards in the split.
    pub shards: usize,
    /// The counts added over the shards present.
    pub counts: Counts,
    /// Solutions reported, added.
    pub reported: u64,
    /// Nodes, added.
    pub nodes: u64,
    /// Seconds, added (CPU-time-like: the shards may have run in parallel).
    pub seconds: f64,
    /// Shards with no result.
    pub missing: Vec<usize>,
    /// Shards whose result says they did not finish.
    pub incomplete: Vec<usize>,
}

impl Merged {
    /// True when every shard is present and complete: the counts are the
    /// puzzle's counts.
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && self.incomplete.is_empty()
    }
}

/// Why results cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No results at all.
    #[error("no shard results to merge")]
    Empty,
    /// A file that is not a shard result of this format.
    #[error("result {index} is not a shard result of format {FORMAT} (found '{found}')")]
    Format {
        /// Position of the result in the list, from 1.
        index: usize,
        /// Its format tag.
        found: String,
    },
    /// Results of different puzzles or splits.
    #[error("result {index} is of {what} '{found}', but result 1 is of '{expected}': results of different {what}s cannot be merged")]
    Mismatch {
        /// Position of the result in the list, from 1.
        index: usize,
        /// "puzzle", "split" or "shard count".
        what: &'static str,
        /// What result 1 has.
        expected: String,
        /// What this one has.
        found: String,
    },
    /// A shard index outside the split.
    #[error("result {index} claims shard {shard} of {shards}, which does not exist (shards are 0 to {})", shards.saturating_sub(1))]
    OutOfRange {
        /// Position of the result in the list, from 1.
        index: usize,
        /// The shard claimed.
        shard: usize,
        /// The split's shard count.
        shards: usize,
    },
    /// One shard present twice.
    #[error("shard {shard} appears twice (results {first} and {second}); remove one")]
    Duplicate {
        /// The shard.
        shard: usize,
        /// First position, from 1.
        first: usize,
        /// Second position, from 1.
        second: usize,
    },
}

/// Checks that `results` are shards of one split of one puzzle, each at most
/// once, and adds them up, listing missing and incomplete shards.
pub fn merge(results: &[ShardResult]) -> Result<Merged, MergeError> {
    let first = results.first().ok_or(MergeError::Empty)?;
    let mut seen: Vec<Option<usize>> = vec![None; first.shards];
    let mut merged = Merged {
        family: first.family.clone(),
        puzzle: first.puzzle.clone(),
        puzzle_hash: first.puzzle_hash.clone(),
        split: first.split.clone(),
        shards: first.shards,
        counts: Counts::default(),
        ..Merged::default()
    };
    let mut counts: Option<Counts> = None;
    for (i, r) in results.iter().enumerate() {
        let index = i + 1;
        if r.format != FORMAT {
            return Err(MergeError::Format {
                index,
                found: r.format.clone(),
            });
        }
        let checks: [(&'static str, String, String); 3] = [
            ("puzzle", first.puzzle_hash.clone(), r.puzzle_hash.clone()),
            ("split", first.split.clone(), r.split.clone()),
            (
                "shard count",
                first.shards.to_string(),
                r.shards.to_string(),
            ),
        ];
        for (what, expected, found) in checks {
            if expected != found {
                let (expected, found) = if what == "puzzle" {
                    (
                        format!("{} ({expected})", first.puzzle),
                        format!("{} ({found})", r.puzzle),
                    )
                } else {
                    (expected, found)
                };
                return Err(MergeError::Mismatch {
                    index,
                    what,
                    expected,
                    found,
                });
            }
        }
        if r.shard >= r.shards {
            return Err(MergeError::OutOfRange {
                index,
                shard: r.shard,
                shards: r.shards,
            });
        }
        if let Some(prev) = seen[r.shard] {
            return Err(MergeError::Duplicate {
                shard: r.shard,
                first: prev,
                second: index,
            });
        }
        seen[r.shard] = Some(index);
        match &mut counts {
            None => counts = Some(r.counts),
            Some(c) => c.add(&r.counts),
        }
        merged.reported += r.reported;
        merged.nodes += r.nodes;
        merged.seconds += r.seconds;
        if !r.complete {
            merged.incomplete.push(r.shard);
        }
    }
    merged.counts = counts.unwrap_or_default();
    merged.missing = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| i)
        .collect();
    merged.incomplete.sort_unstable();
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(shard: usize, raw: u128, complete: bool) -> ShardResult {
        ShardResult {
            format: FORMAT.into(),
            family: "edge".into(),
            puzzle: "p".into(),
            puzzle_hash: "h".into(),
            split: "order=rows".into(),
            shards: 3,
            shard,
            subtrees: 2,
            counts: Counts {
                raw: Some(raw),
                distinct: Some(raw),
                unique: Some(raw),
            },
            reported: raw as u64,
            nodes: 10,
            seconds: 1.0,
            complete,
            stopped: None,
        }
    }

    #[test]
    fn complete_sets_add_up() {
        let m = merge(&[result(2, 5, true), result(0, 1, true), result(1, 2, true)]).unwrap();
        assert!(m.complete());
        assert_eq!(m.counts.raw, Some(8));
        assert_eq!(m.nodes, 30);
    }

    #[test]
    fn missing_and_incomplete_shards_are_listed() {
        let m = merge(&[result(0, 1, true), result(2, 5, false)]).unwrap();
        assert!(!m.complete());
        assert_eq!(m.missing, vec![1]);
        assert_eq!(m.incomplete, vec![2]);
    }

    #[test]
    fn mixed_sets_are_refused() {
        let mut other = result(1, 1, true);
        other.puzzle_hash = "g".into();
        assert!(matches!(
            merge(&[result(0, 1, true), other]),
            Err(MergeError::Mismatch { what: "puzzle", .. })
        ));
        let mut other = result(1, 1, true);
        other.split = "order=frame".into();
        assert!(matches!(
            merge(&[result(0, 1, true), other]),
            Err(MergeError::Mismatch { what: "split", .. })
        ));
        assert!(matches!(
            merge(&[result(0, 1, true), result(0, 1, true)]),
            Err(MergeError::Duplicate {
                shard: 0,
                first: 1,
                second: 2
            })
        ));
        let mut other = result(7, 1, true);
        other.shards = 3;
        assert!(matches!(
            merge(&[result(0, 1, true), other]),
            Err(MergeError::OutOfRange { shard: 7, .. })
        ));
        assert_eq!(merge(&[]), Err(MergeError::Empty));
    }
}
