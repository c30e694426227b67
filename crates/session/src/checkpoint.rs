//! Checkpoint files: the progress of a resumable `solve`, on disk.
//!
//! A checkpoint names what it belongs to (the puzzle's content hash, the
//! options that shape the tree, the shard) and holds the search crate's
//! [`Progress`]. It is written whole to a temporary file beside the target,
//! synced and renamed over it, so a kill at any moment leaves either the old
//! checkpoint or the new one. It carries a SHA-256 over its other fields: a
//! truncated, corrupted or hand-edited checkpoint is refused, never trusted,
//! and so is one made for another puzzle, other options or another shard.
//!
//! Besides the nodes per depth it keeps what `--stats` reports of them:
//! the nodes a rule cut short and the placements tried and rejected, per
//! rule and depth. Files written before those counts were kept lack the
//! fields and are read as they were (their checksums cover the same text).
//!
//! A search counted by goal (`solve --by-open --checkpoint`) keeps, besides,
//! the weights of the solutions handed out so far per goal. They are
//! tallied on the thread that saves, between two saves never, so the file
//! holds each goal's solutions of the finished subtrees and of those handed
//! out from the unfinished ones: exactly the solutions a resumed run skips.

use crate::error::{Error, Result};
use crate::session::{Described, Goal};
use crate::source::read_file_limited;
use crate::text::{group_digits, human_duration};
use jigsolve_search::{NodeStats, Progress, Prune, ResumeError, Shard, Weight};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The `format` tag of checkpoint files.
pub const FORMAT: &str = "jigsolve-checkpoint/1";

/// Checkpoints are small (a few bytes per subtree); anything bigger is not one.
const MAX_BYTES: u64 = 16 << 20;

/// A checkpoint file's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    family: String,
    puzzle: String,
    puzzle_hash: String,
    split: String,
    /// `I/N`, or empty for a whole search.
    shard: String,
    /// Subtrees in the cut.
    subtrees: usize,
    /// Finished subtrees as ranges, `0-41,43,50-99`.
    finished: String,
    /// Weights of the finished subtrees' solutions, in decimal (u128).
    raw: String,
    distinct: String,
    unique: String,
    found: u64,
    /// Nodes per depth.
    nodes: Vec<u64>,
    /// Nodes cut short per depth, by rule name (absent when none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pruned: BTreeMap<String, Vec<u64>>,
    /// Placements tried per depth (absent when not counted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tried: Vec<u64>,
    /// Placements rejected per depth, by rule name (absent when none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    rejected: BTreeMap<String, Vec<u64>>,
    /// (subtree, solutions already handed out) for unfinished subtrees.
    handed_out: Vec<(u32, u64)>,
    /// For a search counted by goal (`solve --by-open`): each goal met so
    /// far with the raw, distinct and unique weights of the solutions
    /// handed out, in decimal (absent otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    goals: Vec<(Goal, String, String, String)>,
    delivered: u64,
    seconds: f64,
    checksum: String,
}

impl File {
    fn expected_checksum(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut unsealed = self.clone();
        unsealed.checksum.clear();
        let text = serde_json::to_string(&unsealed).expect("plain data serialises");
        Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

fn shard_text(shard: Option<Shard>) -> String {
    shard.map_or_else(String::new, |s| format!("{}/{}", s.index, s.count))
}

/// `0-41,43,50-99` for the finished entries of `flags`.
fn ranges(flags: &[bool]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < flags.len() {
        if !flags[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < flags.len() && flags[i] {
            i += 1;
        }
        out.push(if i - 1 == start {
            start.to_string()
        } else {
            format!("{start}-{}", i - 1)
        });
    }
    out.join(",")
}

fn parse_ranges(text: &str, len: usize) -> Option<Vec<bool>> {
    let mut flags = vec![false; len];
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.parse::<usize>().ok()?, b.parse::<usize>().ok()?),
            None => {
                let a = part.parse::<usize>().ok()?;
                (a, a)
            }
        };
        if a > b || b >= len {
            return None;
        }
        flags[a..=b].iter_mut().for_each(|f| *f = true);
    }
    Some(flags)
}

/// The weights of the solutions handed out so far by a search counted by
/// goal, per goal.
pub type GoalWeights = BTreeMap<Goal, Weight>;

/// The progress saved in `path` for this puzzle, options and shard; `None`
/// when there is no such file yet (a new run).
pub fn load(path: &Path, described: &Described, shard: Option<Shard>) -> Result<Option<Progress>> {
    Ok(load_with_goals(path, described, shard)?.map(|(progress, _)| progress))
}

/// As [`load`], with the goals' weights of a search counted by goal.
pub fn load_with_goals(
    path: &Path,
    described: &Described,
    shard: Option<Shard>,
) -> Result<Option<(Progress, GoalWeights)>> {
    if !path.exists() {
        return Ok(None);
    }
    let shown = path.display();
    let bytes = read_file_limited(&format!("{shown}"), path, MAX_BYTES)?;
    let refuse = |why: String| Error::input(format!("{shown}: {why}"));
    let file: File = serde_json::from_slice(&bytes).map_err(|e| {
        refuse(format!(
            "not a jigsolve checkpoint, or a damaged one ({e}); delete it to start again"
        ))
    })?;
    if file.format != FORMAT {
        return Err(refuse(format!(
            "a checkpoint of format '{}', this jigsolve reads '{FORMAT}'",
            file.format
        )));
    }
    if file.checksum != file.expected_checksum() {
        return Err(refuse(
            "the checksum does not match the contents: the file was edited or damaged; delete it to start again"
                .into(),
        ));
    }
    if file.puzzle_hash != described.puzzle_hash {
        return Err(refuse(format!(
            "a checkpoint of another puzzle ('{}', or a different version of this one); use another file or delete it",
            file.puzzle
        )));
    }
    if file.split != described.split {
        return Err(refuse(format!(
            "made with other options that shape the search ({}; this run: {}); run with the same options or use another file",
            file.split, described.split
        )));
    }
    if file.shard != shard_text(shard) {
        let name = |s: &str| {
            if s.is_empty() {
                "the whole search".to_string()
            } else {
                format!("shard {s}")
            }
        };
        return Err(refuse(format!(
            "a checkpoint of {}, this run is {}",
            name(&file.shard),
            name(&shard_text(shard))
        )));
    }
    let count = |text: &str, what: &str| {
        text.parse::<u128>()
            .map_err(|_| refuse(format!("the {what} count '{text}' is not a number")))
    };
    let weight_of = |raw: &str, distinct: &str, unique: &str| -> Result<Weight> {
        let weight = Weight {
            raw: count(raw, "raw")?,
            distinct: count(distinct, "distinct")?,
            unique: count(unique, "unique")?,
        };
        if weight.raw < weight.distinct || weight.distinct < weight.unique {
            return Err(refuse(
                "its counts contradict each other (raw >= distinct >= unique)".into(),
            ));
        }
        Ok(weight)
    };
    let weight = weight_of(&file.raw, &file.distinct, &file.unique)?;
    let mut goals = GoalWeights::new();
    for (goal, raw, distinct, unique) in &file.goals {
        if goals
            .insert(goal.clone(), weight_of(raw, distinct, unique)?)
            .is_some()
        {
            return Err(refuse(format!("it counts the goal {goal:?} twice")));
        }
    }
    let finished = parse_ranges(&file.finished, file.subtrees)
        .ok_or_else(|| refuse("its list of finished subtrees is not valid".into()))?;
    if file
        .handed_out
        .iter()
        .any(|&(i, _)| i as usize >= file.subtrees)
    {
        return Err(refuse(
            "it names a subtree beyond its cut; delete it to start again".into(),
        ));
    }
    let mut nodes = NodeStats::new();
    nodes.add_profile(0, &file.nodes);
    for (name, counts, rejected) in file
        .pruned
        .iter()
        .map(|(n, c)| (n, c, false))
        .chain(file.rejected.iter().map(|(n, c)| (n, c, true)))
    {
        let rule = Prune::from_name(name)
            .ok_or_else(|| refuse(format!("it names an unknown pruning rule {name:?}")))?;
        for (d, &n) in counts.iter().enumerate() {
            if rejected {
                nodes.add_rejected(rule, d, n);
            } else {
                nodes.add_pruned(rule, d, n);
            }
        }
    }
    for (d, &n) in file.tried.iter().enumerate() {
        nodes.add_tried(d, n);
    }
    let progress = Progress {
        finished,
        weight,
        found: file.found,
        nodes,
        handed_out: file.handed_out.into_iter().collect::<BTreeMap<_, _>>(),
        delivered: file.delivered,
        seconds: file.seconds,
    };
    Ok(Some((progress, goals)))
}

/// Per-rule counts keyed by the rule's name.
fn by_name(counts: &[(Prune, Vec<u64>)]) -> BTreeMap<String, Vec<u64>> {
    counts
        .iter()
        .map(|(rule, c)| (rule.as_str().to_string(), c.clone()))
        .collect()
}

/// Writes `progress` to `path` atomically: a temporary file beside it,
/// synced, then renamed over it.
pub fn save(
    path: &Path,
    described: &Described,
    shard: Option<Shard>,
    progress: &Progress,
) -> Result<(), String> {
    save_with_goals(path, described, shard, progress, &GoalWeights::new())
}

/// As [`save`], with the goals' weights of a search counted by goal.
pub fn save_with_goals(
    path: &Path,
    described: &Described,
    shard: Option<Shard>,
    progress: &Progress,
    goals: &GoalWeights,
) -> Result<(), String> {
    let mut file = File {
        format: FORMAT.into(),
        family: described.family.as_str().into(),
        puzzle: described.puzzle.clone(),
        puzzle_hash: described.puzzle_hash.clone(),
        split: described.split.clone(),
        shard: shard_text(shard),
        subtrees: progress.finished.len(),
        finished: ranges(&progress.finished),
        raw: progress.weight.raw.to_string(),
        distinct: progress.weight.distinct.to_string(),
        unique: progress.weight.unique.to_string(),
        found: progress.found,
        nodes: progress.nodes.per_depth().to_vec(),
        pruned: by_name(progress.nodes.pruned()),
        tried: progress.nodes.tried().to_vec(),
        rejected: by_name(progress.nodes.rejected()),
        handed_out: progress.handed_out.iter().map(|(&i, &n)| (i, n)).collect(),
        goals: goals
            .iter()
            .map(|(goal, w)| {
                let text = |n: u128| n.to_string();
                (goal.clone(), text(w.raw), text(w.distinct), text(w.unique))
            })
            .collect(),
        delivered: progress.delivered,
        seconds: progress.seconds,
        checksum: String::new(),
    };
    file.checksum = file.expected_checksum();
    let text = serde_json::to_string(&file).expect("plain data serialises") + "\n";
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = std::path::PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // The rename itself is durable once the directory is synced.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    };
    write().map_err(|e| format!("{}: cannot write the checkpoint: {e}", path.display()))
}

/// A resumable run's failure as the command reports it: a checkpoint of
/// another cut is bad input naming `path`; a path the engine does not have
/// is a bug.
pub fn resume_error(path: &Path, e: ResumeError) -> Error {
    match e {
        ResumeError::Tree(e) => Error::Bug(format!(
            "the search tree was cut at a path that does not exist: {e}"
        )),
        e @ ResumeError::OtherCut { .. } => Error::input(format!("{}: {e}", path.display())),
        ResumeError::Save(e) => Error::Write(e),
    }
}

/// Whether `saved` comes from before the placements tried were saved and
/// has finished subtrees: a run resumed from it would count the placements
/// tried of only part of the tree (so it forgets them).
pub fn lacks_tried(saved: &Progress) -> bool {
    saved.finished_count() > 0 && !saved.nodes.counts_tried()
}

/// What the summary says about the checkpoint a run started from.
pub fn resumed_text(path: &Path, saved: Option<&Progress>) -> String {
    match saved {
        None => format!("{}: a new search, saved as it goes", path.display()),
        Some(p) => format!(
            "{}: resumed with {} of {} subtrees already searched ({} in earlier runs)",
            path.display(),
            group_digits(p.finished_count() as u128),
            group_digits(p.finished.len() as u128),
            human_duration(p.seconds)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_round_trip() {
        for flags in [
            vec![],
            vec![false; 5],
            vec![true; 5],
            vec![true, false, true, true, false, false, true],
            vec![false, true, true, true],
        ] {
            let text = ranges(&flags);
            assert_eq!(
                parse_ranges(&text, flags.len()),
                Some(flags.clone()),
                "{text}"
            );
        }
        assert_eq!(parse_ranges("3-1", 5), None);
        assert_eq!(parse_ranges("0-5", 5), None);
        assert_eq!(parse_ranges("x", 5), None);
    }
}
