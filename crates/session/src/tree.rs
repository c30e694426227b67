//! Views of a recorded search tree ([`jigsolve_search::trace`]): its counts
//! per depth as text and JSON, what the search chose at each depth, and the
//! caption of its picture. `jigsolve tree` prints them; the web page's
//! show-the-search draws them.

use crate::engine::EngineOptions;
use crate::report::naive_json;
use crate::session::{Described, Session};
use crate::text::{group_digits, plural};
use jigsolve_render::tree::TreeCaption;
use jigsolve_search::trace::{Level, Outcome, SearchTrace};
use jigsolve_search::{Branch, NodeStats};
use serde_json::{json, Value};

/// The engine options a trace runs with: the ones asked for, counting the
/// placements tried and rejected.
pub fn traced_engine(engine: &EngineOptions) -> EngineOptions {
    EngineOptions {
        count_tried: true,
        ..engine.clone()
    }
}

/// The JSON of `jigsolve tree --json`: the trace's counts with the
/// puzzle's name and family, its naive space and the share pruned.
pub fn tree_json(
    trace: &SearchTrace,
    labels: &[String],
    name: &str,
    described: &Described,
) -> Value {
    let mut v = trace_json(trace, labels);
    v["puzzle"] = json!(name);
    v["family"] = json!(described.family.as_str());
    v["naive_space"] = naive_json(&described.naive);
    v["pruned_share"] = json!(described.naive.pruned_share(trace.total_nodes()));
    v
}

/// A recorded tree as the page shows it: what `tree --json` prints, the
/// naive space in words, and the picture.
pub struct Shown {
    /// The JSON of `jigsolve tree --json`.
    pub json: Value,
    /// `{"space", "means", "pruned", "visited"}`: the naive space, what it
    /// counts, the share of it never visited, the nodes visited.
    pub naive: Value,
    /// The tree drawn (SVG).
    pub svg: String,
}

/// Counts, words and picture of `trace`, recorded from `session`.
pub fn shown(
    trace: &SearchTrace,
    session: &dyn Session,
    name: &str,
    described: &Described,
) -> Shown {
    let labels = level_labels(trace, session);
    let nodes = trace.total_nodes();
    let json = tree_json(trace, &labels, name, described);
    Shown {
        json,
        naive: json!({
            "space": described.naive.to_string(),
            "means": described.naive.means(),
            "pruned": crate::report::share_text(&described.naive, nodes),
            "visited": nodes,
        }),
        svg: jigsolve_render::tree::tree_svg(trace, &tree_caption(trace, labels, name)),
    }
}

/// The title and subtitle of the tree's picture, and its level labels.
pub fn tree_caption(trace: &SearchTrace, labels: Vec<String>, name: &str) -> TreeCaption {
    let recorded = trace.nodes.len() as u64;
    let folded = trace
        .nodes
        .iter()
        .filter(|n| matches!(n.outcome, Outcome::Folded { .. }))
        .count();
    TreeCaption {
        title: format!("{name}: the search tree"),
        subtitle: format!(
            "{} nodes, {} solution{}{}; {} nodes drawn{}",
            group_digits(trace.total_nodes() as u128),
            group_digits(trace.solutions() as u128),
            plural(trace.solutions()),
            if trace.complete {
                ""
            } else {
                " (stopped early: partial)"
            },
            group_digits(recorded as u128),
            if folded > 0 {
                format!(
                    ", {folded} subtrees folded below depth {}",
                    trace.levels.len() - 1
                )
            } else {
                String::new()
            }
        ),
        levels: labels,
    }
}

/// What the search chose at each depth: the scan order's cells when the
/// engine fixes them in advance, else what the recorded nodes branched on
/// (see [`chosen_per_level`]).
pub fn level_labels(trace: &SearchTrace, session: &dyn Session) -> Vec<String> {
    let fixed = session.level_labels();
    if !fixed.is_empty() {
        return fixed;
    }
    chosen_per_level(trace, |b| session.branch_name(b))
}

/// For engines that choose anew at every node: entry `d` names what the
/// recorded nodes at depth `d` branched on (the placement depth `d + 1`
/// makes). One name when they all chose the same; otherwise the commonest
/// (the first met on a tie) with its share and how many others there were.
pub fn chosen_per_level(trace: &SearchTrace, name: impl Fn(&Branch) -> String) -> Vec<String> {
    let mut tallies: Vec<Vec<(String, u64)>> = Vec::new();
    for n in &trace.nodes {
        let Some(branch) = &n.branch else { continue };
        if tallies.len() <= n.depth {
            tallies.resize(n.depth + 1, Vec::new());
        }
        let named = name(branch);
        let tally = &mut tallies[n.depth];
        match tally.iter_mut().find(|(t, _)| *t == named) {
            Some(entry) => entry.1 += 1,
            None => tally.push((named, 1)),
        }
    }
    tallies
        .into_iter()
        .map(|tally| {
            let total: u64 = tally.iter().map(|(_, k)| k).sum();
            let Some((top, k)) = tally
                .iter()
                .fold(None::<&(String, u64)>, |best, e| match best {
                    Some(b) if b.1 >= e.1 => Some(b),
                    _ => Some(e),
                })
            else {
                return String::new();
            };
            match tally.len() {
                1 => top.clone(),
                others => format!(
                    "{top} at {} of {} nodes, {} other{}",
                    group_digits(*k as u128),
                    group_digits(total as u128),
                    others - 1,
                    plural((others - 1) as u64)
                ),
            }
        })
        .collect()
}

/// The counts per depth as text: recorded nodes and their outcomes while
/// the levels are recorded, then the nodes the engine counted in the
/// folded subtrees.
pub fn trace_text(trace: &SearchTrace, labels: &[String]) -> String {
    let profile = trace.profile.per_depth();
    let tried = trace.profile.counts_tried();
    let mut s = String::new();
    s.push_str(&format!(
        "  depth       nodes  solutions  dead ends  symmetry     folded{}  chosen\n",
        if tried {
            "        tried   rejected"
        } else {
            ""
        }
    ));
    for (d, &nodes) in profile.iter().enumerate() {
        let mut chosen = match d {
            0 => "-".to_string(),
            _ => labels.get(d - 1).cloned().unwrap_or_default(),
        };
        if tried {
            let (t, r) = tried_at(&trace.profile, d);
            chosen = format!(
                "{:>12} {:>10}  {chosen}",
                group_digits(t as u128),
                group_digits(r as u128)
            );
        }
        match trace.levels.get(d) {
            Some(l) => s.push_str(&format!(
                "{}\n",
                format!(
                    "  {d:>5} {:>11} {:>10} {:>10} {:>9} {:>10}  {chosen}",
                    group_digits(nodes as u128),
                    group_digits(l.solutions as u128),
                    group_digits(l.dead_ends as u128),
                    group_digits(l.duplicates as u128),
                    group_digits(l.folded as u128),
                )
                .trim_end()
            )),
            None => s.push_str(&format!(
                "{}\n",
                format!(
                    "  {d:>5} {:>11} {:>10} {:>10} {:>9} {:>10}  {chosen}",
                    group_digits(nodes as u128),
                    "",
                    "",
                    "",
                    "(folded)"
                )
                .trim_end()
            )),
        }
    }
    let mut by_rule: Vec<(&str, u64)> = Vec::new();
    for l in &trace.levels {
        for (name, n) in dead_ends_by_rule(l) {
            match by_rule.iter_mut().find(|(r, _)| *r == name) {
                Some(entry) => entry.1 += n,
                None => by_rule.push((name, n)),
            }
        }
    }
    // Rules in their own order, boards where nothing fits last.
    by_rule.sort_by_key(|&(name, _)| (name == "nothing-fits", name));
    if !by_rule.is_empty() {
        let parts: Vec<String> = by_rule
            .iter()
            .map(|(name, n)| format!("{name} {}", group_digits(*n as u128)))
            .collect();
        s.push_str(&format!(
            "  recorded dead ends by what ended them: {}\n",
            parts.join(", ")
        ));
    }
    if trace.nodes.iter().any(|n| n.branch.is_some()) {
        s.push_str(
            "  chosen: the engine picks the cell or corner anew at every node; shown is the\n         commonest choice among the recorded nodes one depth up\n",
        );
    }
    s.push_str(&format!(
        "  total {:>11} nodes, {} solution{}; {} recorded, {} in folded subtrees{}\n",
        group_digits(trace.total_nodes() as u128),
        group_digits(trace.solutions() as u128),
        plural(trace.solutions()),
        group_digits(trace.nodes.len() as u128),
        group_digits((trace.total_nodes() - trace.nodes.len() as u64) as u128),
        if trace.complete {
            ""
        } else {
            " (stopped early: the folded counts are partial)"
        }
    ));
    s
}

/// A recorded level's dead ends by the rule that ended them (see
/// [`jigsolve_search::trace::TracedNode::cut_by`]), then those where
/// nothing fits at all; only the non-zero ones.
fn dead_ends_by_rule(level: &Level) -> Vec<(&'static str, u64)> {
    let by_rule: u64 = level.dead_ends_by_rule.iter().map(|(_, n)| n).sum();
    level
        .dead_ends_by_rule
        .iter()
        .map(|(rule, n)| (rule.as_str(), *n))
        .chain([("nothing-fits", level.dead_ends - by_rule)])
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// The placements tried at depth `d` and those rejected, over all rules.
fn tried_at(profile: &NodeStats, d: usize) -> (u64, u64) {
    let tried = profile.tried().get(d).copied().unwrap_or(0);
    let rejected = profile
        .rejected()
        .iter()
        .map(|(_, counts)| counts.get(d).copied().unwrap_or(0))
        .sum();
    (tried, rejected)
}

/// The trace as JSON: per depth the nodes of the whole tree and, for the
/// recorded depths, how many were solutions, dead ends, duplicates and
/// folded subtrees; for an engine that counts them, the placements tried
/// and rejected (by rule) at every depth.
fn trace_json(trace: &SearchTrace, labels: &[String]) -> Value {
    let depths: Vec<Value> = trace
        .profile
        .per_depth()
        .iter()
        .enumerate()
        .map(|(d, &nodes)| {
            let mut v = json!({
                "depth": d,
                "nodes": nodes,
                "chosen": if d == 0 { None } else { labels.get(d - 1) },
            });
            if trace.profile.counts_tried() {
                v["tried"] = json!(trace.profile.tried().get(d).copied().unwrap_or(0));
                let rejected: serde_json::Map<String, Value> = trace
                    .profile
                    .rejected()
                    .iter()
                    .map(|(rule, counts)| {
                        let n = counts.get(d).copied().unwrap_or(0);
                        (rule.as_str().to_string(), json!(n))
                    })
                    .collect();
                v["rejected"] = Value::Object(rejected);
            }
            // Nodes the engine cut short, by rule: known for the folded
            // subtrees, which the engine searched itself.
            let pruned: serde_json::Map<String, Value> = trace
                .profile
                .pruned()
                .iter()
                .map(|(rule, counts)| {
                    let n = counts.get(d).copied().unwrap_or(0);
                    (rule.as_str().to_string(), json!(n))
                })
                .collect();
            if !pruned.is_empty() {
                v["pruned"] = Value::Object(pruned);
            }
            if let Some(l) = trace.levels.get(d) {
                v["recorded"] = json!(l.recorded);
                v["solutions"] = json!(l.solutions);
                v["dead_ends"] = json!(l.dead_ends);
                v["dead_ends_by_rule"] = dead_ends_by_rule(l)
                    .into_iter()
                    .map(|(name, n)| (name.to_string(), json!(n)))
                    .collect::<serde_json::Map<String, Value>>()
                    .into();
                v["duplicates"] = json!(l.duplicates);
                v["folded"] = json!(l.folded);
            }
            v
        })
        .collect();
    json!({
        "type": "tree",
        "nodes": trace.total_nodes(),
        "recorded": trace.nodes.len(),
        "solutions": trace.solutions(),
        "complete": trace.complete,
        "depths": depths,
    })
}

/// The most nodes a recorded tree holds (a picture of more is not readable,
/// and each recorded node replays its path).
pub const MAX_TREE_NODES: usize = 100_000;

/// The nodes a tree records unless asked otherwise.
pub const DEFAULT_TREE_NODES: usize = 3000;

/// Parses a number of nodes to record: 1 to [`MAX_TREE_NODES`].
pub fn tree_nodes(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of nodes"))?;
    if n == 0 || n > MAX_TREE_NODES {
        return Err(format!(
            "{n} nodes: the tree records 1 to {MAX_TREE_NODES} nodes"
        ));
    }
    Ok(n)
}
