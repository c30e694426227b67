//! Node counts and the report of a finished search.

use crate::{Counts, StopReason};
use std::time::Duration;

/// A rule of the search. A rule either cuts a node short (the node is
/// visited and counted at its depth, but none of its children is: see
/// [`NodeStats::pruned`]) or rejects a placement tried at a node, which is
/// then never a node at all (see [`NodeStats::rejected`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prune {
    /// A part of the region or board left empty that no piece can fill.
    DeadRegion,
    /// A region already found impossible elsewhere in the search (a memo hit).
    Memo,
    /// A complete assembly that is a symmetric copy of one reported elsewhere.
    Symmetry,
    /// A tile whose marks do not match a neighbour already placed or the
    /// frame of the board.
    Mark,
}

impl Prune {
    /// The rule's name in JSON: `dead-region`, `memo`, `symmetry`, `mark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Prune::DeadRegion => "dead-region",
            Prune::Memo => "memo",
            Prune::Symmetry => "symmetry",
            Prune::Mark => "mark",
        }
    }

    /// The rule named `name` by [`as_str`](Prune::as_str).
    pub fn from_name(name: &str) -> Option<Prune> {
        [Prune::DeadRegion, Prune::Memo, Prune::Symmetry, Prune::Mark]
            .into_iter()
            .find(|r| r.as_str() == name)
    }
}

/// Nodes visited at each depth of the search tree (depth 0 is the root),
/// of them those a pruning rule cut short, by rule, and the placements
/// tried at the nodes of each depth and of them those a rule rejected, by
/// rule, where the engine counts them (in bulk per node or outside its
/// inner loop, so that counting costs nothing measurable).
///
/// A placement *tried* at a node either becomes a child of the node (a
/// node one level down) or is *rejected* by a rule and never becomes a
/// node. So for an engine that counts what it tries, a search that ran to
/// the end obeys, at every depth `d`,
///
/// `tried[d] = nodes[d + 1] + (rejected at d, summed over the rules)`.
///
/// What counts as tried is the engine's own: see each engine's docs.
///
/// The seeds print exactly this ("calls per depth"); Knuth's programs call it
/// the level profile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeStats {
    per_depth: Vec<u64>,
    pruned: Vec<(Prune, Vec<u64>)>,
    tried: Vec<u64>,
    rejected: Vec<(Prune, Vec<u64>)>,
}

/// Adds `n` at `depth` of a per-depth profile, growing it as needed.
fn add_at(counts: &mut Vec<u64>, depth: usize, n: u64) {
    if n == 0 {
        return;
    }
    if counts.len() <= depth {
        counts.resize(depth + 1, 0);
    }
    counts[depth] += n;
}

/// Adds `n` at `depth` of `rule`'s profile in a list kept in rule order.
fn add_by_rule(by_rule: &mut Vec<(Prune, Vec<u64>)>, rule: Prune, depth: usize, n: u64) {
    if n == 0 {
        return;
    }
    let at = match by_rule.binary_search_by_key(&rule, |(r, _)| *r) {
        Ok(i) => i,
        Err(i) => {
            by_rule.insert(i, (rule, Vec::new()));
            i
        }
    };
    add_at(&mut by_rule[at].1, depth, n);
}

impl NodeStats {
    /// No nodes yet.
    pub fn new() -> NodeStats {
        NodeStats::default()
    }

    /// Adds `n` nodes at `depth`.
    pub fn add(&mut self, depth: usize, n: u64) {
        add_at(&mut self.per_depth, depth, n);
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
        for (d, &n) in other.tried.iter().enumerate() {
            self.add_tried(d, n);
        }
        for (rule, counts) in &other.rejected {
            for (d, &n) in counts.iter().enumerate() {
                self.add_rejected(*rule, d, n);
            }
        }
    }

    /// Says that `n` nodes at `depth` were cut short by `rule`.
    pub fn add_pruned(&mut self, rule: Prune, depth: usize, n: u64) {
        add_by_rule(&mut self.pruned, rule, depth, n);
    }

    /// Says that `n` placements were tried at nodes of `depth`.
    pub fn add_tried(&mut self, depth: usize, n: u64) {
        add_at(&mut self.tried, depth, n);
    }

    /// Says that `n` placements tried at nodes of `depth` were rejected by
    /// `rule` (and so are not nodes).
    pub fn add_rejected(&mut self, rule: Prune, depth: usize, n: u64) {
        add_by_rule(&mut self.rejected, rule, depth, n);
    }

    /// Placements tried at the nodes of each depth; empty when the engine
    /// does not count them.
    pub fn tried(&self) -> &[u64] {
        &self.tried
    }

    /// The placements tried and rejected per depth, by rule (rules in a
    /// fixed order; only rules that rejected something).
    pub fn rejected(&self) -> &[(Prune, Vec<u64>)] {
        &self.rejected
    }

    /// Drops the counts of placements tried and rejected: for counts that
    /// would cover only part of the search (a run resumed from a
    /// checkpoint written without them).
    pub fn forget_tried(&mut self) {
        self.tried.clear();
        self.rejected.clear();
    }

    /// Whether the engine counted the placements it tried.
    pub fn counts_tried(&self) -> bool {
        !self.tried.is_empty()
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
    fn tried_and_rejected_merge_by_depth_and_rule_and_can_be_dropped() {
        let mut a = NodeStats::new();
        a.add_tried(0, 9);
        a.add_rejected(Prune::DeadRegion, 0, 7);
        let mut b = NodeStats::new();
        b.add_tried(2, 4);
        b.add_rejected(Prune::Mark, 2, 1);
        b.add_rejected(Prune::DeadRegion, 0, 0);
        a.merge(&b);
        assert_eq!(a.tried(), &[9, 0, 4]);
        assert_eq!(
            a.rejected(),
            &[(Prune::DeadRegion, vec![7]), (Prune::Mark, vec![0, 0, 1])]
        );
        assert!(a.counts_tried());
        assert_eq!(Prune::from_name("mark"), Some(Prune::Mark));
        assert_eq!(Prune::from_name("overlap"), None);
        a.forget_tried();
        assert!(!a.counts_tried() && a.rejected().is_empty());
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
