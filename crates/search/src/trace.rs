//! The search tree itself, recorded for a picture: which nodes there are,
//! what became of each, and the path to every solution.
//!
//! A trace is taken through the [`Tree`] contract alone, level by level:
//! [`Tree::node`] says what each node is and how many children it has, so
//! the size of the next level is known before it is visited. While the
//! levels fit the budget of drawn nodes (and the depth asked for) they are
//! recorded node by node; the first level that would not fit is *folded*:
//! each inner node of the last recorded level has its whole subtree searched
//! by [`Tree::explore`] and is kept as one node that carries the subtree's
//! node and solution counts (a picture draws it as a triangle).
//!
//! Nothing is added to the engines' hot loops: an engine that is not traced
//! runs exactly as before, and tracing costs a replay of each recorded
//! node's path, which is cheap for the few thousand nodes a picture can
//! show. The price of that choice: what an engine does only inside
//! `explore` (the polygon engine's memo of dead regions) is not seen by
//! `node`, so a recorded level can hold nodes a search with the memo would
//! have cut short. The per-depth profile of the folded subtrees is the
//! engine's own.

use crate::{Branch, Control, NoSuchNode, NodeKind, NodeStats, Prune, Ticker, Tree, Weight};
use std::ops::ControlFlow;

/// What became of one recorded node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A partial assembly whose children are recorded.
    Inner,
    /// A complete assembly that is reported.
    Solution,
    /// A complete assembly rejected as a symmetric copy of one reported
    /// elsewhere (its weight is zero).
    Duplicate,
    /// A partial assembly that no piece extends.
    DeadEnd,
    /// A partial assembly whose subtree was searched without recording it.
    Folded {
        /// Nodes of the subtree, this one included.
        nodes: u64,
        /// Solutions reported in the subtree (with a weight that is not zero).
        solutions: u64,
    },
}

impl Outcome {
    /// A short name: `inner`, `solution`, `duplicate`, `dead-end`, `folded`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Inner => "inner",
            Outcome::Solution => "solution",
            Outcome::Duplicate => "duplicate",
            Outcome::DeadEnd => "dead-end",
            Outcome::Folded { .. } => "folded",
        }
    }
}

/// One recorded node.
#[derive(Clone, Debug, PartialEq)]
pub struct TracedNode {
    /// The recorded node above it (`None` for the root).
    pub parent: Option<usize>,
    /// Its depth (the root is 0).
    pub depth: usize,
    /// Which child of its parent it is (0 for the root).
    pub child: u32,
    /// What became of it.
    pub outcome: Outcome,
    /// Whether a reported solution lies at it or below it.
    pub leads_to_solution: bool,
    /// What an inner node branches on, for an engine that says (see
    /// [`Tree::branch`]).
    pub branch: Option<Branch>,
    /// Why a leaf that is not a solution ended: for a duplicate,
    /// [`Prune::Symmetry`]; for a dead end, the rule that cut the node
    /// short or, failing that, the rule that rejected the most placements
    /// tried at it (every one was rejected). `None` for a dead end where
    /// no rule rejected anything: nothing fits at all (or the engine does
    /// not count what it tries; `tree` makes the engines count).
    pub cut_by: Option<Prune>,
}

/// Node counts of one depth of a trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// Recorded nodes at this depth.
    pub recorded: u64,
    /// Of them, reported solutions.
    pub solutions: u64,
    /// Of them, duplicates rejected by symmetry.
    pub duplicates: u64,
    /// Of them, dead ends.
    pub dead_ends: u64,
    /// Of the dead ends, those a rule ended, by rule (see
    /// [`TracedNode::cut_by`]), in rule order; the rest had nothing that
    /// fits.
    pub dead_ends_by_rule: Vec<(Prune, u64)>,
    /// Of them, folded subtrees.
    pub folded: u64,
}

/// How much of a tree to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceLimits {
    /// Record no node deeper than this (`None`: as deep as the budget allows).
    pub depth: Option<usize>,
    /// Record at most this many nodes (at least the root is recorded).
    pub nodes: usize,
}

/// A recorded search tree.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchTrace {
    /// The recorded nodes, level by level from the root; children of one
    /// node are consecutive and in the engine's order.
    pub nodes: Vec<TracedNode>,
    /// Counts per recorded depth.
    pub levels: Vec<Level>,
    /// Nodes of the whole tree per depth: the recorded ones and those of
    /// the folded subtrees as the engine counted them; with the placements
    /// tried and rejected at each depth, for an engine that counts them.
    pub profile: NodeStats,
    /// False when the control stopped the recording or a folded subtree's
    /// search (the counts are then partial).
    pub complete: bool,
}

impl SearchTrace {
    /// Every node of the tree, recorded or folded.
    pub fn total_nodes(&self) -> u64 {
        self.profile.total()
    }

    /// Solutions reported in the whole tree.
    pub fn solutions(&self) -> u64 {
        self.nodes
            .iter()
            .map(|n| match n.outcome {
                Outcome::Solution => 1,
                Outcome::Folded { solutions, .. } => solutions,
                _ => 0,
            })
            .sum()
    }

    /// The children of each recorded node (indices into `nodes`).
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut kids = vec![Vec::new(); self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if let Some(p) = n.parent {
                kids[p].push(i);
            }
        }
        kids
    }
}

/// Records the tree of `tree` within `limits`, searching folded subtrees
/// under `control` (its node and time limits apply to them).
pub fn trace<T: Tree>(
    tree: &mut T,
    limits: TraceLimits,
    control: &Control,
) -> Result<SearchTrace, NoSuchNode> {
    let mut nodes = Vec::new();
    let mut paths: Vec<Vec<u32>> = Vec::new();
    let mut degrees: Vec<u32> = Vec::new();
    let mut profile = NodeStats::new();
    let mut complete = true;

    let root = visit(tree, &[], &mut profile)?;
    push(
        &mut nodes,
        &mut paths,
        &mut degrees,
        None,
        Vec::new(),
        0,
        root,
    );
    let mut level_start = 0;
    loop {
        let level_end = nodes.len();
        let depth = nodes[level_start].depth;
        profile.add(depth, (level_end - level_start) as u64);
        let next: u64 = degrees[level_start..level_end]
            .iter()
            .map(|&d| d as u64)
            .sum();
        if next == 0 {
            break;
        }
        let fits = limits.depth.is_none_or(|d| depth < d)
            && (level_end as u64).saturating_add(next) <= limits.nodes as u64;
        if !fits {
            for i in level_start..level_end {
                if degrees[i] == 0 {
                    continue;
                }
                let (folded, stopped) = fold(tree, &paths[i], control, &mut profile)?;
                nodes[i].outcome = folded;
                complete &= !stopped;
            }
            break;
        }
        // Recording a level replays each node from the root: on a big
        // tree that takes long, so the control's limits and Ctrl-C are
        // asked before each node. Stopped, the level being recorded is
        // dropped and the one above ends the trace, partial.
        let mut stopped = false;
        'level: for i in level_start..level_end {
            for k in 0..degrees[i] {
                if control.should_stop() {
                    stopped = true;
                    break 'level;
                }
                let mut path = paths[i].clone();
                path.push(k);
                let kind = visit(tree, &path, &mut profile)?;
                push(&mut nodes, &mut paths, &mut degrees, Some(i), path, k, kind);
            }
        }
        if stopped {
            nodes.truncate(level_end);
            paths.truncate(level_end);
            for i in level_start..level_end {
                if degrees[i] > 0 {
                    nodes[i].outcome = Outcome::Folded {
                        nodes: 1,
                        solutions: 0,
                    };
                }
            }
            degrees.truncate(level_end);
            complete = false;
            break;
        }
        level_start = level_end;
    }

    // What each inner node branched on (a replay per node: cheap for the
    // few thousand nodes a trace records; stopped with the control).
    for (i, path) in paths.iter().enumerate() {
        if control.should_stop() {
            complete = false;
            break;
        }
        if matches!(nodes[i].outcome, Outcome::Inner | Outcome::Folded { .. }) {
            nodes[i].branch = tree.branch(path)?;
        }
    }

    // Mark the paths to solutions, deepest first so that a parent sees its
    // children's marks (children always come after their parent).
    for i in (0..nodes.len()).rev() {
        let n = nodes[i].clone();
        let here = n.leads_to_solution
            || matches!(n.outcome, Outcome::Solution)
            || matches!(n.outcome, Outcome::Folded { solutions, .. } if solutions > 0);
        nodes[i].leads_to_solution = here;
        if here {
            if let Some(p) = n.parent {
                nodes[p].leads_to_solution = true;
            }
        }
    }
    let depth = nodes.last().map_or(0, |n| n.depth);
    let mut levels = vec![Level::default(); depth + 1];
    for n in &nodes {
        let l = &mut levels[n.depth];
        l.recorded += 1;
        match n.outcome {
            Outcome::Solution => l.solutions += 1,
            Outcome::Duplicate => l.duplicates += 1,
            Outcome::DeadEnd => {
                l.dead_ends += 1;
                if let Some(rule) = n.cut_by {
                    match l.dead_ends_by_rule.iter_mut().find(|(r, _)| *r == rule) {
                        Some(entry) => entry.1 += 1,
                        None => {
                            l.dead_ends_by_rule.push((rule, 1));
                            l.dead_ends_by_rule.sort();
                        }
                    }
                }
            }
            Outcome::Folded { .. } => l.folded += 1,
            Outcome::Inner => {}
        }
    }
    Ok(SearchTrace {
        nodes,
        levels,
        profile,
        complete,
    })
}

/// What the node at `path` is, with what was tried and rejected there
/// added to `profile`, and the rule that ended it if it is a dead end.
fn visit<T: Tree>(
    tree: &mut T,
    path: &[u32],
    profile: &mut NodeStats,
) -> Result<(NodeKind, Option<Prune>), NoSuchNode> {
    let mut here = NodeStats::new();
    let kind = tree.node_counted(path, &mut here)?;
    profile.merge(&here);
    let d = path.len();
    let at = |counts: &[u64]| counts.get(d).copied().unwrap_or(0);
    let rule = match kind {
        NodeKind::DeadEnd => here
            .pruned()
            .iter()
            .find(|(_, counts)| at(counts) > 0)
            .or_else(|| {
                here.rejected()
                    .iter()
                    .filter(|(_, counts)| at(counts) > 0)
                    .max_by_key(|(_, counts)| at(counts))
            })
            .map(|(rule, _)| *rule),
        _ => None,
    };
    Ok((kind, rule))
}

fn push(
    nodes: &mut Vec<TracedNode>,
    paths: &mut Vec<Vec<u32>>,
    degrees: &mut Vec<u32>,
    parent: Option<usize>,
    path: Vec<u32>,
    child: u32,
    (kind, rule): (NodeKind, Option<Prune>),
) {
    let (outcome, degree, cut_by) = match kind {
        NodeKind::Inner(d) => (Outcome::Inner, d, None),
        NodeKind::Solution(w) if w.is_zero() => (Outcome::Duplicate, 0, Some(Prune::Symmetry)),
        NodeKind::Solution(_) => (Outcome::Solution, 0, None),
        NodeKind::DeadEnd => (Outcome::DeadEnd, 0, rule),
    };
    nodes.push(TracedNode {
        parent,
        depth: path.len(),
        child,
        outcome,
        leads_to_solution: false,
        branch: None,
        cut_by,
    });
    paths.push(path);
    degrees.push(degree);
}

/// Searches the subtree at `path` for its counts. Its nodes below `path`
/// go into `profile` (the node at `path` was counted with its level).
fn fold<T: Tree>(
    tree: &mut T,
    path: &[u32],
    control: &Control,
    profile: &mut NodeStats,
) -> Result<(Outcome, bool), NoSuchNode> {
    if control.should_stop() {
        // Not searched: only its root, counted with its level, is known.
        return Ok((
            Outcome::Folded {
                nodes: 1,
                solutions: 0,
            },
            true,
        ));
    }
    let mut solutions = 0u64;
    let mut sink = |_: &T::Solution, w: Weight| {
        if !w.is_zero() {
            solutions += 1;
        }
        ControlFlow::Continue(())
    };
    let mut ticker = Ticker::new(control);
    let mut stats = NodeStats::new();
    let flow = tree.explore(path, &mut sink, &mut ticker, &mut stats)?;
    let nodes = stats.total();
    // The subtree's root is already in the profile with its level.
    let mut below = stats.per_depth().to_vec();
    if let Some(own) = below.get_mut(path.len()) {
        *own = own.saturating_sub(1);
    }
    profile.add_profile(0, &below);
    // So are what the root tried and rejected; the rest is the subtree's.
    for (d, &n) in stats.tried().iter().enumerate().skip(path.len() + 1) {
        profile.add_tried(d, n);
    }
    for (rule, counts) in stats.rejected() {
        for (d, &n) in counts.iter().enumerate().skip(path.len() + 1) {
            profile.add_rejected(*rule, d, n);
        }
    }
    // What the engine cut short in the subtree (a memo hit, a dead region)
    // is known only to its own walk, the root's cut included: the recorded
    // levels above see the node, not why it ended.
    for (rule, counts) in stats.pruned() {
        for (d, &n) in counts.iter().enumerate().skip(path.len()) {
            profile.add_pruned(*rule, d, n);
        }
    }
    Ok((Outcome::Folded { nodes, solutions }, flow.is_break()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count_solutions;

    /// Rooks on an n x n board, one row per level; with `dead` set a
    /// rook in column 0 below the first row is a dead end (so that the
    /// tree has dead ends), and with `mirror` solutions whose second rook is
    /// in the right half are duplicates.
    struct Rooks {
        n: u32,
        mirror: bool,
        /// Count each dead end as pruned (by the memo rule), as engines
        /// that cut a node short do.
        pruned: bool,
    }

    impl Rooks {
        fn free(&self, path: &[u32]) -> Result<Vec<u32>, NoSuchNode> {
            let mut free: Vec<u32> = (0..self.n).collect();
            for &k in path {
                if k as usize >= free.len() {
                    return Err(NoSuchNode {
                        path: path.to_vec(),
                    });
                }
                free.remove(k as usize);
            }
            Ok(free)
        }
        fn cols(&self, path: &[u32]) -> Vec<u32> {
            let mut free: Vec<u32> = (0..self.n).collect();
            path.iter().map(|&k| free.remove(k as usize)).collect()
        }
    }

    impl Tree for Rooks {
        type Solution = [u32];

        fn node(&mut self, path: &[u32]) -> Result<NodeKind, NoSuchNode> {
            let free = self.free(path)?;
            let cols = self.cols(path);
            if path.len() >= 2 && cols[path.len() - 1] == 0 {
                return Ok(NodeKind::DeadEnd);
            }
            Ok(if free.is_empty() {
                if self.mirror && cols[1] * 2 >= self.n {
                    NodeKind::Solution(Weight {
                        raw: 0,
                        distinct: 0,
                        unique: 0,
                    })
                } else {
                    NodeKind::Solution(Weight::ONE)
                }
            } else {
                NodeKind::Inner(free.len() as u32)
            })
        }

        /// A dead end is cut short by the memo rule when `pruned` is set,
        /// as [`explore`](Tree::explore) counts it.
        fn node_counted(
            &mut self,
            path: &[u32],
            stats: &mut NodeStats,
        ) -> Result<NodeKind, NoSuchNode> {
            let kind = self.node(path)?;
            if self.pruned && kind == NodeKind::DeadEnd {
                stats.add_pruned(crate::Prune::Memo, path.len(), 1);
            }
            Ok(kind)
        }

        /// A rook is placed in row `path.len()`: the row is the "cell".
        fn branch(&mut self, path: &[u32]) -> Result<Option<Branch>, NoSuchNode> {
            Ok(match self.node(path)? {
                NodeKind::Inner(_) => Some(Branch::Cell(path.len() as u32)),
                _ => None,
            })
        }

        fn explore(
            &mut self,
            path: &[u32],
            sink: &mut dyn crate::Sink<[u32]>,
            ticker: &mut Ticker<'_>,
            stats: &mut NodeStats,
        ) -> Result<ControlFlow<()>, NoSuchNode> {
            stats.add(path.len(), 1);
            if ticker.poll(1, || 0.0).is_break() {
                return Ok(ControlFlow::Break(()));
            }
            let kind = self.node(path)?;
            if self.pruned && kind == NodeKind::DeadEnd {
                stats.add_pruned(crate::Prune::Memo, path.len(), 1);
            }
            match kind {
                NodeKind::Inner(d) => {
                    for k in 0..d {
                        let mut child = path.to_vec();
                        child.push(k);
                        if self.explore(&child, sink, ticker, stats)?.is_break() {
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                    Ok(ControlFlow::Continue(()))
                }
                // Like the engines, a duplicate is not reported at all.
                NodeKind::Solution(w) if !w.is_zero() => Ok(sink.solution(path, w)),
                _ => Ok(ControlFlow::Continue(())),
            }
        }
    }

    fn whole(n: u32, mirror: bool) -> (NodeStats, u64) {
        let report = count_solutions(
            || Rooks {
                n,
                mirror,
                pruned: false,
            },
            1,
            &Control::new(),
        )
        .unwrap();
        (report.nodes, report.reported)
    }

    #[test]
    fn a_whole_trace_is_the_engines_tree_node_for_node() {
        let (profile, reported) = whole(4, true);
        let limits = TraceLimits {
            depth: None,
            nodes: 10_000,
        };
        let t = trace(
            &mut Rooks {
                n: 4,
                mirror: true,
                pruned: false,
            },
            limits,
            &Control::new(),
        )
        .unwrap();
        assert_eq!(t.profile, profile);
        assert_eq!(t.nodes.len() as u64, profile.total());
        assert_eq!(t.solutions(), reported);
        let per_depth: Vec<u64> = t.levels.iter().map(|l| l.recorded).collect();
        assert_eq!(per_depth, profile.per_depth());
        assert!(t.levels.iter().any(|l| l.dead_ends > 0));
        assert!(t.levels.iter().any(|l| l.duplicates > 0));
        assert!(t.complete);
        // Every solution's ancestors lead to it; no dead end does. Inner
        // nodes say what they branch on, leaves do not.
        for n in &t.nodes {
            let want = matches!(n.outcome, Outcome::Inner).then_some(Branch::Cell(n.depth as u32));
            assert_eq!(n.branch, want);
            match n.outcome {
                Outcome::Solution => assert!(n.leads_to_solution),
                Outcome::DeadEnd | Outcome::Duplicate => assert!(!n.leads_to_solution),
                _ => {}
            }
            if n.leads_to_solution {
                let mut up = n.parent;
                while let Some(p) = up {
                    assert!(t.nodes[p].leads_to_solution);
                    up = t.nodes[p].parent;
                }
            }
        }
    }

    #[test]
    fn folded_subtrees_keep_what_the_engine_pruned() {
        let whole = count_solutions(
            || Rooks {
                n: 5,
                mirror: false,
                pruned: true,
            },
            1,
            &Control::new(),
        )
        .unwrap()
        .nodes;
        assert!(whole
            .pruned()
            .iter()
            .any(|(_, c)| c.iter().sum::<u64>() > 0));
        // Everything below the first level folded: every dead end lies in a
        // folded subtree, so every pruned count must come through the fold.
        let limits = TraceLimits {
            depth: Some(1),
            nodes: 100_000,
        };
        let mut rooks = Rooks {
            n: 5,
            mirror: false,
            pruned: true,
        };
        let t = trace(&mut rooks, limits, &Control::new()).unwrap();
        assert_eq!(t.profile.pruned(), whole.pruned());
        assert_eq!(t.profile, whole);
    }

    #[test]
    fn folding_keeps_the_counts_and_the_budget() {
        let (profile, reported) = whole(6, false);
        for (depth, budget) in [(Some(2), 100_000), (None, 200), (Some(1), 3), (None, 1)] {
            let limits = TraceLimits {
                depth,
                nodes: budget,
            };
            let t = trace(
                &mut Rooks {
                    n: 6,
                    mirror: false,
                    pruned: false,
                },
                limits,
                &Control::new(),
            )
            .unwrap();
            assert_eq!(t.profile, profile, "{depth:?} {budget}");
            assert_eq!(t.solutions(), reported);
            assert!(t.nodes.len() <= budget.max(1));
            if let Some(d) = depth {
                assert!(t.nodes.iter().all(|n| n.depth <= d));
            }
            let folded: u64 = t
                .nodes
                .iter()
                .map(|n| match n.outcome {
                    Outcome::Folded { nodes, .. } => nodes,
                    _ => 1,
                })
                .sum();
            assert_eq!(folded, profile.total());
            assert!(t
                .nodes
                .iter()
                .any(|n| matches!(n.outcome, Outcome::Folded { .. })));
        }
    }

    #[test]
    fn dead_ends_say_which_rule_ended_them() {
        let limits = TraceLimits {
            depth: None,
            nodes: 100_000,
        };
        for pruned in [false, true] {
            let mut rooks = Rooks {
                n: 5,
                mirror: true,
                pruned,
            };
            let whole = count_solutions(
                || Rooks {
                    n: 5,
                    mirror: true,
                    pruned,
                },
                1,
                &Control::new(),
            )
            .unwrap()
            .nodes;
            let t = trace(&mut rooks, limits, &Control::new()).unwrap();
            assert_eq!(t.profile, whole);
            let dead: Vec<&TracedNode> = t
                .nodes
                .iter()
                .filter(|n| n.outcome == Outcome::DeadEnd)
                .collect();
            assert!(!dead.is_empty());
            let want = pruned.then_some(Prune::Memo);
            assert!(dead.iter().all(|n| n.cut_by == want));
            for n in &t.nodes {
                match n.outcome {
                    Outcome::Duplicate => assert_eq!(n.cut_by, Some(Prune::Symmetry)),
                    Outcome::DeadEnd => {}
                    _ => assert_eq!(n.cut_by, None),
                }
            }
            for l in &t.levels {
                let by_rule: u64 = l.dead_ends_by_rule.iter().map(|(_, k)| k).sum();
                assert_eq!(by_rule, if pruned { l.dead_ends } else { 0 });
            }
        }
    }
}
