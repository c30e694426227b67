//! The second breakers as the search applies them: per representative of
//! the first breaker that a symmetry fixes, which placements of a second
//! type may go below it (see [`Second`]).

use crate::problem::Problem;
use crate::symmetry::{Plan, Second};

/// A second breaker as the search applies it.
#[derive(Debug)]
pub(super) struct SecondCut {
    pub(super) second: Second,
    /// Per placement, whether it may be placed below the representative:
    /// all but the second type's placements that are not representatives.
    pub(super) allowed: Vec<bool>,
}

/// Per representative of the plan's breaker, the second breaker below it
/// (representatives with the same stabiliser share one).
pub(super) fn second_cuts(problem: &Problem, plan: &Plan) -> Vec<Option<SecondCut>> {
    let mut by_stabiliser = std::collections::HashMap::new();
    plan.reps
        .iter()
        .map(|r| {
            let first = plan.breaker()?;
            let second: Second = by_stabiliser
                .entry(r.stabiliser.clone())
                .or_insert_with(|| Second::new(problem, first, r))
                .clone()?;
            let mut allowed = vec![true; problem.placements.len()];
            for p in problem.by_type[second.ty].clone() {
                allowed[p] = false;
            }
            for q in &second.reps {
                allowed[q.placement] = true;
            }
            Some(SecondCut { second, allowed })
        })
        .collect()
}
