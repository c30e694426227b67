//! Stopping and watching a running search.
//!
//! A [`Control`] is shared by every thread of one search (and by the Ctrl-C
//! handler). Engines never look at it per node: each worker owns a [`Ticker`]
//! and calls [`Ticker::poll`] every few thousand nodes, which publishes the node
//! count, checks the stop flag and the limits, and, only when someone watches
//! progress, records how far through its subtree the worker is.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Why a search ended before exploring its whole tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Stopped from outside: Ctrl-C, SIGTERM or [`Control::cancel`].
    Cancelled,
    /// The time limit passed.
    TimeLimit,
    /// The node limit was reached.
    NodeLimit,
    /// The consumer had all the solutions it asked for.
    SolutionLimit,
}

impl StopReason {
    /// A short name for summaries and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Cancelled => "cancelled",
            StopReason::TimeLimit => "time-limit",
            StopReason::NodeLimit => "node-limit",
            StopReason::SolutionLimit => "solution-limit",
        }
    }

    fn code(self) -> u8 {
        match self {
            StopReason::Cancelled => 1,
            StopReason::TimeLimit => 2,
            StopReason::NodeLimit => 3,
            StopReason::SolutionLimit => 4,
        }
    }

    fn from_code(code: u8) -> Option<StopReason> {
        match code {
            1 => Some(StopReason::Cancelled),
            2 => Some(StopReason::TimeLimit),
            3 => Some(StopReason::NodeLimit),
            4 => Some(StopReason::SolutionLimit),
            _ => None,
        }
    }
}

/// Something to call at most every so often while a search runs (see
/// [`Control::with_heartbeat`]).
pub type Beat = Arc<dyn Fn(&Control) + Send + Sync>;

/// A beat and when it is next due, in nanoseconds since the control was made.
struct Heartbeat {
    every: Duration,
    due: AtomicU64,
    beat: Beat,
}

/// The shared state of one search: stop flag, limits, node count, progress.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    reason: AtomicU8,
    nodes: AtomicU64,
    solutions: AtomicU64,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    started: Instant,
    track_progress: bool,
    /// Fraction of the tree (as f64 bits) in subtrees already finished.
    done: AtomicU64,
    /// Per worker: fraction of the tree (f64 bits) done inside its current subtree.
    slots: Mutex<Vec<Arc<AtomicU64>>>,
    /// Search threads asked for and those the system let a driver create,
    /// when it refused some (see [`Control::fewer_threads`]).
    fewer: Mutex<Option<(usize, usize)>>,
    heartbeat: Option<Heartbeat>,
}

impl std::fmt::Debug for Heartbeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Heartbeat")
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

impl Control {
    /// A control with no limits and no progress tracking.
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            reason: AtomicU8::new(0),
            nodes: AtomicU64::new(0),
            solutions: AtomicU64::new(0),
            node_limit: None,
            deadline: None,
            started: Instant::now(),
            track_progress: false,
            done: AtomicU64::new(0f64.to_bits()),
            slots: Mutex::new(Vec::new()),
            fewer: Mutex::new(None),
            heartbeat: None,
        }
    }

    /// Calls `beat` from inside the search, at a poll, at most once every
    /// `every`: progress for a host that has no thread to watch from (a
    /// browser's Web Worker runs the search on its only thread). The beat
    /// runs on a search thread, so it must be quick.
    pub fn with_heartbeat(mut self, every: Duration, beat: Beat) -> Control {
        self.heartbeat = Some(Heartbeat {
            every,
            due: AtomicU64::new(0),
            beat,
        });
        self
    }

    /// Notes that a driver asked for `asked` search threads and the system
    /// let it create only `made` (a per-process memory cap: each thread
    /// reserves [`crate::SEARCH_STACK_BYTES`]); the search ran on those.
    pub fn note_fewer_threads(&self, asked: usize, made: usize) {
        *self.fewer.lock().unwrap_or_else(|e| e.into_inner()) = Some((asked, made));
    }

    /// The search threads asked for and made, when the system refused some.
    pub fn fewer_threads(&self) -> Option<(usize, usize)> {
        *self.fewer.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the search once about `limit` nodes have been visited (the check
    /// runs at every poll, so a few thousand more may be visited).
    pub fn with_node_limit(mut self, limit: u64) -> Control {
        self.node_limit = Some(limit);
        self
    }

    /// Stops the search once `limit` has passed since the control was made.
    pub fn with_time_limit(mut self, limit: Duration) -> Control {
        self.deadline = self.started.checked_add(limit);
        self
    }

    /// Makes workers publish how far through the tree they are, for
    /// [`Control::fraction_done`]. Costs a few multiplications per poll.
    pub fn with_progress(mut self) -> Control {
        self.track_progress = true;
        self
    }

    /// Asks every worker to stop at its next poll. The first reason given wins.
    pub fn stop(&self, reason: StopReason) {
        let _ = self
            .reason
            .compare_exchange(0, reason.code(), Ordering::SeqCst, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Stops the search from outside (Ctrl-C).
    pub fn cancel(&self) {
        self.stop(StopReason::Cancelled);
    }

    /// True once a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Why the search was stopped, if it was.
    pub fn stop_reason(&self) -> Option<StopReason> {
        StopReason::from_code(self.reason.load(Ordering::SeqCst))
    }

    /// Nodes published by polls so far (lags the engines by one poll interval).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Solutions counted so far by the driver, for progress displays.
    pub fn solutions(&self) -> u64 {
        self.solutions.load(Ordering::Relaxed)
    }

    /// Adds to the solution counter shown by progress displays.
    pub fn add_solutions(&self, n: u64) {
        self.solutions.fetch_add(n, Ordering::Relaxed);
    }

    /// Time since the control was made.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The fraction of the tree explored so far, by Knuth's measure (a subtree
    /// reached by choosing among d₁, d₂, … children weighs 1/(d₁·d₂·…)). Only
    /// meaningful when made [`with_progress`](Control::with_progress).
    pub fn fraction_done(&self) -> f64 {
        let mut total = f64::from_bits(self.done.load(Ordering::Relaxed));
        if let Ok(slots) = self.slots.lock() {
            for slot in slots.iter() {
                total += f64::from_bits(slot.load(Ordering::Relaxed));
            }
        }
        total.clamp(0.0, 1.0)
    }

    /// True when progress is tracked.
    pub fn tracks_progress(&self) -> bool {
        self.track_progress
    }

    /// Records that a part of the tree weighing `span` is finished.
    pub fn add_done(&self, span: f64) {
        if !self.track_progress || span == 0.0 {
            return;
        }
        let mut current = self.done.load(Ordering::Relaxed);
        loop {
            let next = (f64::from_bits(current) + span).to_bits();
            match self.done.compare_exchange_weak(
                current,
                next,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(seen) => current = seen,
            }
        }
    }

    fn register_slot(&self) -> Option<Arc<AtomicU64>> {
        if !self.track_progress {
            return None;
        }
        let slot = Arc::new(AtomicU64::new(0f64.to_bits()));
        self.slots.lock().ok()?.push(Arc::clone(&slot));
        Some(slot)
    }

    /// True when the search must stop: asked to, or past its deadline (which
    /// this call turns into a stop). For work between polls, such as the
    /// probes of an estimate.
    pub fn should_stop(&self) -> bool {
        !self.check(self.nodes())
    }

    fn check(&self, total_nodes: u64) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        if let Some(limit) = self.node_limit {
            if total_nodes >= limit {
                self.stop(StopReason::NodeLimit);
                return false;
            }
        }
        if let Some(deadline) = self.deadline {
            if Instant::now() >= deadline {
                self.stop(StopReason::TimeLimit);
                return false;
            }
        }
        if let Some(heart) = &self.heartbeat {
            let now = u64::try_from(self.started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            let due = heart.due.load(Ordering::Relaxed);
            let next =
                now.saturating_add(u64::try_from(heart.every.as_nanos()).unwrap_or(u64::MAX));
            // One thread wins each beat; the others go on searching.
            if now >= due
                && heart
                    .due
                    .compare_exchange(due, next, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                (heart.beat)(self);
            }
        }
        true
    }
}

/// One worker's handle on a [`Control`].
///
/// Engines call [`poll`](Ticker::poll) every few thousand nodes with the nodes
/// visited since the last call and a closure that says how far through the
/// current subtree they are (a number in `0..=1`, computed from the path:
/// Σᵢ kᵢ/dᵢ · ∏ⱼ<ᵢ 1/dⱼ where the engine is at choice kᵢ of dᵢ at level i). The
/// closure runs only when progress is watched.
#[derive(Debug)]
pub struct Ticker<'c> {
    control: &'c Control,
    slot: Option<Arc<AtomicU64>>,
    span: f64,
    /// Nodes this ticker may still publish before it stops its search (a
    /// restart's budget); `None` for no budget.
    budget: Option<u64>,
    /// A flag that stops this ticker's search without stopping the control
    /// (another restart finished the tree).
    abort: Option<&'c AtomicBool>,
}

impl<'c> Ticker<'c> {
    /// A ticker for one worker of `control`.
    pub fn new(control: &'c Control) -> Ticker<'c> {
        Ticker {
            control,
            slot: control.register_slot(),
            span: 1.0,
            budget: None,
            abort: None,
        }
    }

    /// Stops the search after about `nodes` more nodes, without stopping the
    /// control: one attempt of a restart schedule.
    pub fn with_budget(mut self, nodes: u64) -> Ticker<'c> {
        self.budget = Some(nodes);
        self
    }

    /// Stops the search when `flag` is set, without stopping the control.
    pub fn with_abort(mut self, flag: &'c AtomicBool) -> Ticker<'c> {
        self.abort = Some(flag);
        self
    }

    /// True when the budget given by [`with_budget`](Ticker::with_budget) is spent.
    pub fn budget_spent(&self) -> bool {
        self.budget == Some(0)
    }

    /// The control this ticker reports to.
    pub fn control(&self) -> &'c Control {
        self.control
    }

    /// Says that the worker now explores a subtree weighing `span` of the tree.
    pub fn enter(&mut self, span: f64) {
        self.span = span;
        if let Some(slot) = &self.slot {
            slot.store(0f64.to_bits(), Ordering::Relaxed);
        }
    }

    /// Says that the current subtree is finished.
    pub fn leave(&mut self) {
        if let Some(slot) = &self.slot {
            slot.store(0f64.to_bits(), Ordering::Relaxed);
        }
        self.control.add_done(self.span);
    }

    /// Publishes `nodes` more visited nodes; returns `Break` when the search
    /// must stop (stop flag, node limit, time limit).
    #[inline]
    pub fn poll(
        &mut self,
        nodes: u64,
        position: impl FnOnce() -> f64,
    ) -> std::ops::ControlFlow<()> {
        let total = self.control.nodes.fetch_add(nodes, Ordering::Relaxed) + nodes;
        if let Some(left) = &mut self.budget {
            *left = left.saturating_sub(nodes);
            if *left == 0 {
                return std::ops::ControlFlow::Break(());
            }
        }
        if self.abort.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return std::ops::ControlFlow::Break(());
        }
        if let Some(slot) = &self.slot {
            let within = position().clamp(0.0, 1.0);
            slot.store((within * self.span).to_bits(), Ordering::Relaxed);
        }
        if self.control.check(total) {
            std::ops::ControlFlow::Continue(())
        } else {
            std::ops::ControlFlow::Break(())
        }
    }
}

/// Knuth's position measure: how much of a tree lies before the current node,
/// given the choice index and the number of children at each level from the
/// subtree root down.
pub fn fraction_of(choices: impl IntoIterator<Item = (u32, u32)>) -> f64 {
    let mut weight = 1.0;
    let mut done = 0.0;
    for (k, d) in choices {
        if d == 0 {
            break;
        }
        weight /= d as f64;
        done += k as f64 * weight;
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::ControlFlow;

    #[test]
    fn node_limit_stops_with_reason() {
        let control = Control::new().with_node_limit(100);
        let mut ticker = Ticker::new(&control);
        assert!(ticker.poll(50, || 0.0).is_continue());
        assert_eq!(ticker.poll(50, || 0.0), ControlFlow::Break(()));
        assert_eq!(control.stop_reason(), Some(StopReason::NodeLimit));
        assert!(control.is_stopped());
    }

    #[test]
    fn a_budget_stops_the_ticker_but_not_the_control() {
        let control = Control::new();
        let mut ticker = Ticker::new(&control).with_budget(100);
        assert!(ticker.poll(60, || 0.0).is_continue());
        assert!(!ticker.budget_spent());
        assert!(ticker.poll(60, || 0.0).is_break());
        assert!(ticker.budget_spent());
        assert!(!control.is_stopped());
    }

    #[test]
    fn a_heartbeat_beats_at_the_first_poll_and_then_once_a_period() {
        let beats = Arc::new(AtomicU64::new(0));
        let seen = Arc::clone(&beats);
        let control = Control::new().with_heartbeat(
            Duration::from_secs(3600),
            Arc::new(move |c: &Control| {
                seen.fetch_add(1, Ordering::SeqCst);
                assert_eq!(c.nodes(), 5, "the beat sees the nodes published");
            }),
        );
        let mut ticker = Ticker::new(&control);
        assert!(ticker.poll(5, || 0.0).is_continue());
        assert!(ticker.poll(5, || 0.0).is_continue());
        assert_eq!(beats.load(Ordering::SeqCst), 1, "an hour has not passed");
    }

    #[test]
    fn first_stop_reason_wins() {
        let control = Control::new();
        control.cancel();
        control.stop(StopReason::TimeLimit);
        assert_eq!(control.stop_reason(), Some(StopReason::Cancelled));
    }

    #[test]
    fn zero_time_limit_stops_at_first_poll() {
        let control = Control::new().with_time_limit(Duration::ZERO);
        let mut ticker = Ticker::new(&control);
        assert!(ticker.poll(1, || 0.0).is_break());
        assert_eq!(control.stop_reason(), Some(StopReason::TimeLimit));
    }

    #[test]
    fn progress_adds_finished_subtrees_and_current_position() {
        let control = Control::new().with_progress();
        let mut a = Ticker::new(&control);
        let mut b = Ticker::new(&control);
        a.enter(0.5);
        a.leave();
        b.enter(0.25);
        let _ = b.poll(1, || 0.5);
        let f = control.fraction_done();
        assert!((f - 0.625).abs() < 1e-12, "{f}");
    }

    #[test]
    fn knuth_fraction_from_choices() {
        // Second of two children, then third of four inside it.
        let f = fraction_of([(1, 2), (2, 4)]);
        assert!((f - (0.5 + 2.0 / 8.0)).abs() < 1e-12);
        assert_eq!(fraction_of([]), 0.0);
    }
}
