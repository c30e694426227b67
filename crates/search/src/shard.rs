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
//!
//! A result file is plain JSON that people copy between machines, so merge
//! does not take its numbers on trust: each result carries a checksum over
//! all its other fields ([`ShardResult::seal`]), and merge refuses a result
//! whose checksum does not match (hand-edited or corrupted) or whose fields
//! contradict each other (more unique solutions than raw ones, "complete"
//! beside a stop reason).

use crate::Counts;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The `format` tag of shard result files. Version 2 added the checksum.
pub const FORMAT: &str = "jigsolve-shard-result/2";

/// One goal's counts (the cells a solution leaves open: a date).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalCount {
    /// The names of its open cells.
    pub open: Vec<String>,
    /// The open group of each of them.
    pub groups: Vec<String>,
    /// Where it sorts among the goals (each cell's group and place in it).
    pub order: Vec<u32>,
    /// Its raw, distinct and unique counts.
    pub counts: Counts,
}

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
    /// A search counted by goal (`solve --by-open`): each goal's counts in
    /// this shard; empty otherwise (and then not written).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goals: Vec<GoalCount>,
    /// SHA-256 over every other field ([`ShardResult::seal`] sets it). A
    /// file without one reads as empty, so that an older file is refused
    /// for its format rather than for a missing field.
    #[serde(default)]
    pub checksum: String,
}

impl ShardResult {
    /// The checksum of every field but `checksum` itself, in hexadecimal.
    ///
    /// Fields are written length-prefixed in a fixed order, and the seconds
    /// as their bit pattern, so that no two different results share a text.
    pub fn expected_checksum(&self) -> String {
        fn text(h: &mut Sha256, s: &str) {
            h.update((s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        }
        fn count(h: &mut Sha256, c: Option<u128>) {
            match c {
                None => h.update([0u8]),
                Some(n) => {
                    h.update([1u8]);
                    h.update(n.to_le_bytes());
                }
            }
        }
        let mut h = Sha256::new();
        text(&mut h, &self.format);
        text(&mut h, &self.family);
        text(&mut h, &self.puzzle);
        text(&mut h, &self.puzzle_hash);
        text(&mut h, &self.split);
        for n in [self.shards, self.shard, self.subtrees] {
            h.update((n as u64).to_le_bytes());
        }
        count(&mut h, self.counts.raw);
        count(&mut h, self.counts.distinct);
        count(&mut h, self.counts.unique);
        h.update(self.reported.to_le_bytes());
        h.update(self.nodes.to_le_bytes());
        h.update(self.seconds.to_bits().to_le_bytes());
        h.update([u8::from(self.complete)]);
        match &self.stopped {
            None => h.update([0u8]),
            Some(s) => {
                h.update([1u8]);
                text(&mut h, s);
            }
        }
        // Only results counted by goal hash their goals, so that the
        // files written before goals existed keep their checksums.
        if !self.goals.is_empty() {
            h.update((self.goals.len() as u64).to_le_bytes());
            for g in &self.goals {
                h.update((g.open.len() as u64).to_le_bytes());
                for name in g.open.iter().chain(&g.groups) {
                    text(&mut h, name);
                }
                for &k in &g.order {
                    h.update(k.to_le_bytes());
                }
                count(&mut h, g.counts.raw);
                count(&mut h, g.counts.distinct);
                count(&mut h, g.counts.unique);
            }
        }
        h.finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    }

    /// Sets the checksum from the other fields; call it last, just before
    /// writing the result out.
    pub fn seal(mut self) -> Self {
        self.checksum = self.expected_checksum();
        self
    }

    /// Why the fields of this result contradict each other, if they do.
    pub fn inconsistency(&self) -> Option<String> {
        let c = &self.counts;
        let pairs = [
            ("raw", c.raw, "distinct", c.distinct),
            ("distinct", c.distinct, "unique", c.unique),
            ("raw", c.raw, "unique", c.unique),
        ];
        for (big, b, small, s) in pairs {
            if let (Some(b), Some(s)) = (b, s) {
                if b < s {
                    return Some(format!(
                        "it counts {s} {small} solutions but only {b} {big} ones \
                         (there are never more {small} than {big} solutions)"
                    ));
                }
            }
        }
        if self.complete {
            if let Some(reason) = &self.stopped {
                return Some(format!(
                    "it says it is complete but also that it stopped early ({reason})"
                ));
            }
        }
        if !self.seconds.is_finite() || self.seconds < 0.0 {
            return Some(format!("its time, {} s, is not a duration", self.seconds));
        }
        if !self.goals.is_empty() {
            let mut sum = Counts {
                raw: Some(0),
                distinct: Some(0),
                unique: Some(0),
            };
            for g in &self.goals {
                sum.add(&g.counts);
            }
            if sum.raw != c.raw || sum.distinct != c.distinct {
                return Some("its goals' counts do not add up to its counts".to_string());
            }
        }
        None
    }
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
    /// Each goal's counts added over the shards (a search counted by goal),
    /// in the goals' order.
    pub goals: Vec<GoalCount>,
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
    /// A result whose checksum does not match its fields.
    #[error("result {index} (shard {shard}) has been edited or corrupted: its checksum does not match its contents; run that shard again")]
    Checksum {
        /// Position of the result in the list, from 1.
        index: usize,
        /// The shard it claims to be.
        shard: usize,
    },
    /// A result whose fields contradict each other.
    #[error("result {index} (shard {shard}) cannot be right: {reason}; run that shard again")]
    Inconsistent {
        /// Position of the result in the list, from 1.
        index: usize,
        /// The shard it claims to be.
        shard: usize,
        /// What contradicts what.
        reason: String,
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
    type GoalKey = (Vec<u32>, Vec<String>, Vec<String>);
    let mut goals: std::collections::BTreeMap<GoalKey, Counts> = std::collections::BTreeMap::new();
    for (i, r) in results.iter().enumerate() {
        let index = i + 1;
        if r.format != FORMAT {
            return Err(MergeError::Format {
                index,
                found: r.format.clone(),
            });
        }
        if r.checksum != r.expected_checksum() {
            return Err(MergeError::Checksum {
                index,
                shard: r.shard,
            });
        }
        if let Some(reason) = r.inconsistency() {
            return Err(MergeError::Inconsistent {
                index,
                shard: r.shard,
                reason,
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
        for g in &r.goals {
            let key = (g.order.clone(), g.open.clone(), g.groups.clone());
            match goals.get_mut(&key) {
                Some(c) => c.add(&g.counts),
                None => {
                    goals.insert(key, g.counts);
                }
            }
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
    merged.goals = goals
        .into_iter()
        .map(|((order, open, groups), counts)| GoalCount {
            open,
            groups,
            order,
            counts,
        })
        .collect();
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
            goals: Vec::new(),
            checksum: String::new(),
        }
        .seal()
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
        let other = other.seal();
        assert!(matches!(
            merge(&[result(0, 1, true), other]),
            Err(MergeError::Mismatch { what: "puzzle", .. })
        ));
        let mut other = result(1, 1, true);
        other.split = "order=frame".into();
        let other = other.seal();
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
        let other = other.seal();
        assert!(matches!(
            merge(&[result(0, 1, true), other]),
            Err(MergeError::OutOfRange { shard: 7, .. })
        ));
        assert_eq!(merge(&[]), Err(MergeError::Empty));
    }

    #[test]
    fn edited_results_are_refused() {
        let mut edited = result(1, 2, true);
        edited.counts.raw = Some(26);
        assert_eq!(
            merge(&[result(0, 1, true), edited]),
            Err(MergeError::Checksum { index: 2, shard: 1 })
        );
        let mut unsealed = result(1, 2, true);
        unsealed.checksum.clear();
        assert!(matches!(
            merge(&[result(0, 1, true), unsealed]),
            Err(MergeError::Checksum { .. })
        ));
    }

    #[test]
    fn contradictory_results_are_refused_even_when_sealed() {
        let mut more_unique = result(1, 2, true);
        more_unique.counts.unique = Some(3);
        let err = merge(&[result(0, 1, true), more_unique.seal()]).unwrap_err();
        assert!(
            err.to_string()
                .contains("counts 3 unique solutions but only 2 distinct ones"),
            "{err}"
        );
        let mut stopped = result(1, 2, true);
        stopped.stopped = Some("time-limit".into());
        let err = merge(&[result(0, 1, true), stopped.seal()]).unwrap_err();
        assert!(
            err.to_string()
                .contains("complete but also that it stopped early (time-limit)"),
            "{err}"
        );
    }

    #[test]
    fn the_checksum_covers_every_field() {
        let base = result(1, 2, true);
        let mut edits: Vec<ShardResult> = Vec::new();
        let mut e = base.clone();
        e.family = "grid".into();
        edits.push(e);
        let mut e = base.clone();
        e.puzzle = "q".into();
        edits.push(e);
        let mut e = base.clone();
        e.subtrees = 3;
        edits.push(e);
        let mut e = base.clone();
        e.counts.unique = None;
        edits.push(e);
        let mut e = base.clone();
        e.reported = 1;
        edits.push(e);
        let mut e = base.clone();
        e.nodes = 11;
        edits.push(e);
        let mut e = base.clone();
        e.seconds = 1.5;
        edits.push(e);
        let mut e = base.clone();
        e.complete = false;
        edits.push(e);
        let mut e = base.clone();
        e.stopped = Some(String::new());
        edits.push(e);
        for e in edits {
            assert_ne!(e.expected_checksum(), base.checksum, "{e:?}");
        }
    }
}
