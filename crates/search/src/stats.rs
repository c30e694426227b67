//! Node counts and the report of a finished search.

use crate::{Counts, StopReason};
use std::time::Duration;

/// A rule that cut a node short: the node is visited (and counted at its
/// depth) but none of its children is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prune {
    /// A part of the region or board left empty that no piece can fill.
    DeadRegion,
    /// A region already found impossible elsewhere in the search (a memo hit).
    Memo,
    /// A complete assembly that is a symmetric copy of one reported elsewhere.
    Symmetry,
}

impl Prune {
    /// The rule's name in JSON: `dead-region`, `memo`, `symmetry`.
    pub fn as_str(self) -> &'static str {
        match self {
            Prune::DeadRegion => "dead-region",
            Prune::Memo => "memo",
            Prune::Symmetry => "symmetry",
        }
    }
}

/// Nodes visited at each depth of the search tree (depth 0 is the root),
/// and of them those a pruning rule cut short, by rule, where the engine
/// counts them (outside its inner loop only, so that counting costs
/// nothing measurable).
///
/// The seeds print exactly this ("calls per depth"); Knuth's programs call it
/// the level profile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeStats {
    per_depth: Vec<u64>,
    pruned: Vec<(Prune, Vec<u64>)>,
}

impl NodeStats {
    /// No nodes yet.
    pub fn new() -> NodeStats {
        NodeStats::default()
    }

    /// Adds `n` nodes at `depth`.
    pub fn add(&mut self, depth: usize, n: u64) {
        if n == 0 {
            return;
        }
        if self.per_depth.len() <= depth {
            self.per_depth.resize(depth + 1, 0);
        }
        self.per_depth[depth] += n;
    }

    /// Adds a whole profile whose first entry is at depth `first_depth`.
    pub fn add_profile(&mut self, first_depth: usize, counts: &[u64]) {
        for (i, &n) in counts.iter().enumerate() {
            self.add(first_depth + i, n);
        }
    }

    /// Adds another worker's counts.
    pub fn merge(&mut self, other: &NodeStats) {
        self.add_profile(0, &other.per_depth);
        for (rule, counts) in &other.pruned {
            for (d, &n) in counts.iter().enumerate() {
                self.add_pruned(*rule, d, n);
            }
        }
    }

    /// Says that `n` nodes at `depth` were cut short by `rule`.
    pub fn add_pruned(&mut self, rule: Prune, depth: usize, n: u64) {
        if n == 0 {
            return;
        }
        let at = match self.pruned.binary_search_by_key(&rule, |(r, _)| *r) {
            Ok(i) => i,
            Err(i) => {
                self.pruned.insert(i, (rule, Vec::new()));
                i
            }
        };
        let counts = &mut self.pruned[at].1;
        if counts.len() <= depth {
            counts.resize(depth + 1, 0);
        }
        counts[depth] += n;
    }

    /// The nodes cut short per depth, by rule (rules in a fixed order; only
    /// rules the engine counted and that cut something).
    pub fn pruned(&self) -> &[(Prune, Vec<u64>)] {
        &self.pruned
    }

    /// Nodes per depth, from the root down; trailing depths never reached are absent.
    pub fn per_depth(&self) -> &[u64] {
        &self.per_depth
    }

    /// All nodes.
    pub fn total(&self) -> u64 {
        self.per_depth.iter().sum()
    }

    /// All nodes below the root: for placing engines, the number of placements.
    pub fn placements(&self) -> u64 {
        self.per_depth.iter().skip(1).sum()
    }
}

/// What a search did: counts, nodes, time, and whether it finished.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Raw, distinct and unique totals of what was found.
    pub counts: Counts,
    /// Solutions reported to the consumer (one per symmetry class when the
    /// engine breaks symmetry, one per distinct solution otherwise).
    pub reported: u64,
    /// Nodes visited, per depth.
    pub nodes: NodeStats,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// True when the whole tree (or the whole shard) was searched.
    pub complete: bool,
    /// Why the search stopped early, if it did.
    pub stopped: Option<StopReason>,
    /// How many subtrees the tree was cut into (1 when it was not cut).
    pub subtrees: usize,
    /// How many worker threads ran.
    pub threads: usize,
    /// Attempts made by a restart schedule (0 when the tree was searched once).
    pub attempts: u64,
}

impl Report {
    /// Nodes per second of wall-clock time.
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.nodes.total() as f64 / secs
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_merge_by_depth() {
        let mut a = NodeStats::new();
        a.add(0, 1);
        a.add(2, 5);
        let mut b = NodeStats::new();
        b.add_profile(1, &[3, 4, 7]);
        a.merge(&b);
        assert_eq!(a.per_depth(), &[1, 3, 9, 7]);
        assert_eq!(a.total(), 20);
        assert_eq!(a.placements(), 19);
    }

    #[test]
    fn pruned_counts_merge_by_rule_and_depth() {
        let mut a = NodeStats::new();
        a.add_pruned(Prune::Symmetry, 3, 2);
        a.add_pruned(Prune::Memo, 1, 0);
        let mut b = NodeStats::new();
        b.add_pruned(Prune::DeadRegion, 2, 4);
        b.add_pruned(Prune::Symmetry, 1, 1);
        a.merge(&b);
        assert_eq!(
            a.pruned(),
            &[
                (Prune::DeadRegion, vec![0, 0, 4]),
                (Prune::Symmetry, vec![0, 1, 0, 2])
            ]
        );
    }
}
