//! The searches of `jigsolve serve`: each one a [`Session`] run on a thread
//! of its own, as `solve` runs it, with a server-wide cap on the threads
//! running at once and on the searches waiting for one.
//!
//! A search may use several threads (as `solve --threads N` does): the cap
//! counts threads, so a search waits until enough of them are free.
//! The best-board search of edge puzzles (`jigsolve best`) runs the same
//! way, keeping its best board so far instead of solutions, and so does
//! the walk that records the search tree (`jigsolve tree`), on one thread,
//! keeping the tree's counts and picture.
//!
//! A search belongs to the page that started it and lives only as long as
//! that page listens to its event stream: when the stream closes (the page
//! went away, or started another search) the search is cancelled through
//! its [`Control`] and forgotten, solutions and all. A search whose stream
//! never connects is forgotten the same way after a timeout. So nothing
//! outlives its page, and the server's memory returns to where it was.
//!
//! [`Session`]: jigsolve_session::session::Session

use jigsolve_search::{Control, Weight};
use jigsolve_session::report::weight_json;
pub use jigsolve_session::request::{open_names, Mode, Options};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Most bytes of solution records (or of a recorded tree) one search
/// keeps for browsing.
pub const KEPT_BYTES_PER_SEARCH: usize = 64 << 20;

/// Most bytes of solution records and trees all searches keep together.
pub const KEPT_BYTES_IN_ALL: usize = 512 << 20;

/// Bytes of solution records and trees kept by every search of the server.
static KEPT_BYTES: AtomicUsize = AtomicUsize::new(0);

/// Takes `n` more bytes out of the server's [`KEPT_BYTES_IN_ALL`] when they
/// fit; false (and nothing taken) when they do not.
fn reserve_kept(n: usize) -> bool {
    KEPT_BYTES
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |all| {
            (all + n <= KEPT_BYTES_IN_ALL).then_some(all + n)
        })
        .is_ok()
}

/// Bytes of solution records and trees the server keeps now.
pub fn kept_bytes() -> usize {
    KEPT_BYTES.load(Ordering::SeqCst)
}

/// The server's limits on searches.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Threads the running searches use at once, server-wide.
    pub threads: usize,
    /// Searches waiting for a thread.
    pub waiting: usize,
    /// Searches kept for open pages, running, waiting or finished.
    pub kept: usize,
    /// Solutions kept per search for browsing (the counts go on past it).
    pub solutions: usize,
    /// The longest a search runs.
    pub time_limit: Duration,
    /// How long a new search waits for its page's event stream.
    pub connect_timeout: Duration,
}

/// Where a search is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// In the queue for a thread.
    Waiting,
    /// Searching.
    Running,
    /// Finished, stopped or failed.
    Done,
}

impl Phase {
    fn as_str(self) -> &'static str {
        match self {
            Phase::Waiting => "waiting",
            Phase::Running => "running",
            Phase::Done => "done",
        }
    }
}

/// One search of one page.
pub struct Search {
    /// Its name in the API: 128 random bits in hex, so that no other page
    /// can guess a search's address to follow or stop it.
    pub id: String,
    /// What it was asked to do.
    pub mode: Mode,
    /// How it runs.
    pub options: Options,
    /// The name the puzzle's messages use.
    pub label: String,
    /// The puzzle file's text.
    pub text: String,
    /// Set once a page listens to the event stream.
    pub streamed: AtomicBool,
    /// Set by Stop, a closed stream or the server; a search that has not
    /// started yet never starts.
    cancelled: AtomicBool,
    state: Mutex<State>,
}

/// What a search has found so far.
struct State {
    phase: Phase,
    control: Option<Arc<Control>>,
    /// Solution records (`solve --json`'s `solution` objects, as compact
    /// JSON text: a parsed record of a 128 x 128 board took 10 MB) with
    /// their weights, the first [`Limits::solutions`] of them, as long as
    /// they fit in [`KEPT_BYTES_PER_SEARCH`] and the server's
    /// [`KEPT_BYTES_IN_ALL`].
    kept: Vec<(String, Weight)>,
    /// The bytes of `kept`'s records and of `tree`, taken out of
    /// [`KEPT_BYTES`].
    kept_bytes: usize,
    listed: u64,
    puzzle: String,
    family: String,
    counts_mean: Value,
    fraction_known: bool,
    summary: Option<Value>,
    error: Option<String>,
    /// What the page should know of a search that ran: that the system
    /// refused some of its threads (as the command line warns).
    warning: Option<String>,
    /// How long the search ran, once it has ended.
    ran_for: Option<Duration>,
    /// [`Mode::Best`]: the best board so far.
    best: Option<BestBoard>,
    /// [`Mode::Tree`]: the tree, once recorded (its bytes are counted in
    /// `kept_bytes`).
    tree: Option<TreeShown>,
    /// Its page went: it keeps nothing more.
    forgotten: bool,
    /// [`Mode::ByOpen`]: each goal's line (as `solve --by-open --json`
    /// prints it) and the heat map, once counted.
    goals: Option<(Vec<Value>, String)>,
}

/// The search tree of a [`Mode::Tree`] search, as `jigsolve tree` shows it.
///
/// Kept as text, shared by the requests that read it: the parsed JSON of a
/// tree of 100,000 nodes took about 17 MB, its text a few.
#[derive(Clone)]
pub struct TreeShown {
    /// What `tree --json` prints, as compact JSON text.
    pub json: Arc<str>,
    /// The tree's nodes and solutions (from `json`, for progress events).
    pub nodes: u64,
    /// The solutions the tree counts, as `json` has them.
    pub solutions: Value,
    /// The naive space stated with its size, and the share of it never
    /// visited, as `tree` writes them.
    pub naive: Value,
    /// The picture `tree --svg` draws.
    pub svg: Arc<str>,
}

impl TreeShown {
    /// The bytes it keeps.
    fn bytes(&self) -> usize {
        self.json.len() + self.svg.len() + self.naive.to_string().len()
    }
}

/// The best board a best-board search has found so far.
#[derive(Clone)]
pub struct BestBoard {
    /// Its line of `best --json` (score, board, link, ...).
    pub line: Value,
    /// Boards reported so far, each better than the one before.
    pub improvements: u64,
}

/// A kept solution, as the API hands it out.
pub struct KeptSolution {
    /// The `solution` object of a JSON line.
    pub record: Value,
    /// Its weight.
    pub weight: Weight,
    /// The puzzle's name.
    pub puzzle: String,
}

impl Search {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the search to stop (or never to start).
    pub fn cancel(&self) {
        let state = self.state();
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(control) = &state.control {
            control.cancel();
        }
    }

    /// Where the search is.
    pub fn phase(&self) -> Phase {
        self.state().phase
    }

    /// How far it is: an object for the page's progress line.
    pub fn progress(&self) -> Value {
        let state = self.state();
        let mut p = json!({
            "phase": state.phase.as_str(),
            "mode": self.mode.as_str(),
            "puzzle": state.puzzle,
            "family": state.family,
            "listed": state.listed,
            "kept": state.kept.len(),
        });
        if let Some(control) = &state.control {
            let secs = state
                .ran_for
                .unwrap_or_else(|| control.elapsed())
                .as_secs_f64();
            // A tree counts its recorded levels itself, not through the
            // control (which sees the folded subtrees only): once it is
            // recorded, its own total is the search's node count.
            let nodes = match &state.tree {
                Some(tree) => tree.nodes,
                None => control.nodes(),
            };
            p["nodes"] = json!(nodes);
            p["seconds"] = json!(secs);
            p["rate"] = json!((nodes as f64 / secs.max(1e-9)).round());
            p["solutions"] = match &state.tree {
                Some(tree) => tree.solutions.clone(),
                None => json!(control.solutions().max(state.listed)),
            };
            if let Some(best) = &state.best {
                p["best"] = json!({
                    "score": best.line["score"],
                    "max": best.line["max"],
                    "nodes": best.line["nodes"],
                    "seconds": best.line["seconds"],
                    "link": best.line["link"],
                    "improvements": best.improvements,
                });
            }
            if state.fraction_known && self.mode == Mode::Count {
                let f = control.fraction_done();
                p["fraction"] = json!(f);
                if f > 0.0 && f < 1.0 && state.phase == Phase::Running {
                    p["seconds_left"] = json!(secs * (1.0 - f) / f);
                }
            }
        }
        p
    }

    /// The end of the search: its summary (as `solve --json`'s last line),
    /// what its counts mean, or the error that stopped it; a tree search:
    /// the tree's counts (as `tree --json` prints them) and its naive space
    /// in words.
    pub fn outcome(&self) -> Value {
        let state = self.state();
        let mut outcome = json!({
            "summary": state.summary,
            "counts_mean": state.counts_mean,
            "error": state.error,
            "warning": state.warning,
            "listed": state.listed,
            "kept": state.kept.len(),
        });
        if let Some(tree) = &state.tree {
            outcome["tree"] = serde_json::from_str(&tree.json).unwrap_or(Value::Null);
            outcome["naive"] = tree.naive.clone();
        }
        if let Some((goals, heat_map)) = &state.goals {
            outcome["goals"] = json!(goals);
            outcome["heat_map"] = json!(heat_map);
        }
        outcome
    }

    /// The puzzle's name once the search has read it, else its label.
    pub fn label_stem(&self) -> String {
        let state = self.state();
        if state.puzzle.is_empty() {
            self.label.clone()
        } else {
            state.puzzle.clone()
        }
    }

    /// Kept solution `index` (from 1).
    pub fn solution(&self, index: u64) -> Option<KeptSolution> {
        let state = self.state();
        let i = usize::try_from(index.checked_sub(1)?).ok()?;
        let (text, weight) = state.kept.get(i)?.clone();
        Some(KeptSolution {
            record: serde_json::from_str(&text).ok()?,
            weight,
            puzzle: state.puzzle.clone(),
        })
    }

    /// [`Mode::Best`]: the best board so far.
    pub fn best(&self) -> Option<BestBoard> {
        self.state().best.clone()
    }

    /// [`Mode::Tree`]: the tree, once recorded.
    pub fn tree(&self) -> Option<TreeShown> {
        self.state().tree.clone()
    }

    /// The kept solutions as JSON Lines, `solve --json`'s format, with the
    /// summary last once the search is done (the best board: its line of
    /// `best --json`, then the summary).
    pub fn json_lines(&self) -> String {
        let state = self.state();
        let mut out = String::new();
        if let Some(best) = &state.best {
            out.push_str(&best.line.to_string());
            out.push('\n');
        }
        for (i, (record, weight)) in state.kept.iter().enumerate() {
            let line = json!({
                "type": "solution",
                "family": state.family,
                "puzzle": state.puzzle,
                "index": i + 1,
                "weight": weight_json(*weight),
                "solution": serde_json::from_str::<Value>(record).unwrap_or(Value::Null),
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
        if let Some(summary) = &state.summary {
            out.push_str(&summary.to_string());
            out.push('\n');
        }
        out
    }
}

/// Why a search was not started.
#[derive(Debug)]
pub struct Refused(pub String);

/// 128 bits from the system's random source, in hex: a search's name.
fn random_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No system source: the keys of a fresh hasher are random per
        // process and thread, and the clock moves on.
        use std::hash::{BuildHasher, Hasher};
        for half in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            half.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every search of the server.
pub struct Registry {
    /// The limits.
    pub limits: Limits,
    inner: Mutex<Inner>,
    /// Set when a search starts, cleared by [`Registry::tidy`].
    used: AtomicBool,
}

#[derive(Default)]
struct Inner {
    searches: HashMap<String, Arc<Search>>,
    running: usize,
    /// Threads the running searches use.
    threads: usize,
    waiting: VecDeque<Arc<Search>>,
}

/// How busy the server is.
pub struct Load {
    /// Searches running.
    pub running: usize,
    /// Threads the running searches use.
    pub threads: usize,
    /// Searches waiting for a thread.
    pub waiting: usize,
    /// Searches kept for open pages.
    pub kept: usize,
}

impl Registry {
    /// An empty registry with `limits`.
    pub fn new(limits: Limits) -> Registry {
        Registry {
            limits,
            inner: Mutex::new(Inner::default()),
            used: AtomicBool::new(false),
        }
    }

    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How busy the server is.
    pub fn load(&self) -> Load {
        let inner = self.inner();
        Load {
            running: inner.running,
            threads: inner.threads,
            waiting: inner.waiting.len(),
            kept: inner.searches.len(),
        }
    }

    /// Search `id`, while its page keeps it.
    pub fn get(&self, id: &str) -> Option<Arc<Search>> {
        self.inner().searches.get(id).cloned()
    }

    /// Starts a search of `text` (already read once without error), or
    /// queues it, or refuses it when the server is full. Its threads are
    /// held to 1 ..= [`Limits::threads`].
    pub fn start(
        self: &Arc<Self>,
        mode: Mode,
        mut options: Options,
        label: String,
        text: String,
    ) -> Result<Arc<Search>, Refused> {
        options.threads = options.threads.clamp(1, self.limits.threads.max(1));
        let mut inner = self.inner();
        if inner.searches.len() >= self.limits.kept {
            return Err(Refused(format!(
                "the server keeps at most {} searches for open pages, and that many are open; close some pages or try again later",
                self.limits.kept
            )));
        }
        // First come, first served: none jumps the queue, even when it
        // would fit in the threads free.
        let run_now =
            inner.waiting.is_empty() && inner.threads + options.threads <= self.limits.threads;
        if !run_now && inner.waiting.len() >= self.limits.waiting {
            return Err(Refused(format!(
                "the server is busy: {} searches are running on {} of its {} threads and {} are waiting for threads, the most it takes; try again later",
                inner.running,
                inner.threads,
                self.limits.threads,
                inner.waiting.len()
            )));
        }
        let id = loop {
            let id = random_id();
            if !inner.searches.contains_key(&id) {
                break id;
            }
        };
        self.used.store(true, Ordering::SeqCst);
        let search = Arc::new(Search {
            id,
            mode,
            options,
            label,
            text,
            streamed: AtomicBool::new(false),
            cancelled: AtomicBool::new(false),
            state: Mutex::new(State {
                phase: Phase::Waiting,
                control: None,
                kept: Vec::new(),
                kept_bytes: 0,
                listed: 0,
                puzzle: String::new(),
                family: String::new(),
                counts_mean: Value::Null,
                fraction_known: false,
                summary: None,
                error: None,
                warning: None,
                ran_for: None,
                best: None,
                tree: None,
                forgotten: false,
                goals: None,
            }),
        });
        inner
            .searches
            .insert(search.id.clone(), Arc::clone(&search));
        if run_now {
            inner.running += 1;
            inner.threads += search.options.threads;
            drop(inner);
            self.spawn(Arc::clone(&search));
        } else {
            inner.waiting.push_back(Arc::clone(&search));
        }
        Ok(search)
    }

    /// Cancels search `id` and forgets it: its page has gone.
    pub fn forget(&self, id: &str) {
        let mut inner = self.inner();
        if let Some(search) = inner.searches.remove(id) {
            search.cancel();
            {
                let mut state = search.state();
                KEPT_BYTES.fetch_sub(state.kept_bytes, Ordering::SeqCst);
                state.kept_bytes = 0;
                state.kept = Vec::new();
                state.tree = None;
                state.forgotten = true;
            }
            inner.waiting.retain(|s| s.id != id);
            let mut state = search.state();
            if state.phase == Phase::Waiting {
                state.phase = Phase::Done;
            }
        }
    }

    /// Gives freed memory back to the system when a search has run since
    /// the last call and none runs now (the server calls this every few
    /// seconds): what a finished search keeps is small beside what it used
    /// while it ran (a tree of 100,000 nodes: about 11 MB of text kept, 30
    /// MB used building it), and glibc keeps freed pages otherwise.
    pub fn tidy(&self) {
        let inner = self.inner();
        let idle = inner.running == 0;
        drop(inner);
        if idle && self.used.swap(false, Ordering::SeqCst) {
            release_memory();
        }
    }

    /// Runs `search` on a thread of its own; a thread that cannot be made
    /// fails the search with a message.
    fn spawn(self: &Arc<Self>, search: Arc<Search>) {
        let registry = Arc::clone(self);
        let for_thread = Arc::clone(&search);
        let spawned = std::thread::Builder::new()
            .name(format!("search-{}", search.id))
            .stack_size(jigsolve_search::SEARCH_STACK_BYTES)
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run(&for_thread, &registry.limits)
                }));
                let error = match outcome {
                    Ok(Ok(())) => None,
                    Ok(Err(message)) => Some(message),
                    Err(_) => Some(
                        "the search failed inside jigsolve (a bug): see the server's log"
                            .to_string(),
                    ),
                };
                {
                    let mut state = for_thread.state();
                    if error.is_some() {
                        state.error = error;
                    }
                    state.ran_for = state.control.as_ref().map(|c| c.elapsed());
                    state.phase = Phase::Done;
                }
                registry.finished(for_thread.options.threads);
            });
        if let Err(e) = spawned {
            {
                let mut state = search.state();
                state.error = Some(format!("cannot start a search thread: {e}"));
                state.phase = Phase::Done;
            }
            self.finished(search.options.threads);
        }
    }

    /// A running search of `threads` threads ended: its threads go to the
    /// searches waiting, in their order, as far as they reach.
    fn finished(self: &Arc<Self>, threads: usize) {
        let next = {
            let mut inner = self.inner();
            inner.running -= 1;
            inner.threads -= threads;
            let mut next = Vec::new();
            while let Some(first) = inner.waiting.front() {
                let wanted = first.options.threads;
                if inner.threads + wanted > self.limits.threads {
                    break;
                }
                inner.running += 1;
                inner.threads += wanted;
                next.extend(inner.waiting.pop_front());
            }
            next
        };
        for search in next {
            self.spawn(search);
        }
    }
}

mod runs;

pub use runs::few_arenas;
use runs::{release_memory, run};
