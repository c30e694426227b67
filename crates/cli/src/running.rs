//! Running and stopping: Ctrl-C and SIGTERM ask the search to stop, and a
//! progress bar on standard error shows how far it is while it runs.
//! Neither knows what is searched; both only read and set the [`Control`].

use crate::exit;
use crate::text::{group_digits, human_duration};
use jigsolve_search::Control;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The search a signal stops: the one most recently given to
/// [`watch_signals`] (commands such as `hints` run one search after another).
static WATCHED: Mutex<Option<Arc<Control>>> = Mutex::new(None);

/// Set by the first signal, so that a search started after it stops at once.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C / SIGTERM stop `control`'s search. The handler is installed
/// once per process: the first signal asks the running search to stop (it
/// then prints what it found), a second one exits at once.
pub fn watch_signals(control: &Arc<Control>) {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if SIGNALLED.load(Ordering::SeqCst) {
        control.cancel();
    }
    if let Ok(mut watched) = WATCHED.lock() {
        *watched = Some(Arc::clone(control));
    }
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    let _ = ctrlc::set_handler(move || {
        if SIGNALLED.swap(true, Ordering::SeqCst) {
            std::process::exit(exit::CANCELLED as i32);
        }
        if let Ok(watched) = WATCHED.lock() {
            if let Some(control) = watched.as_ref() {
                control.cancel();
            }
        }
    });
}

/// Shows nodes, solutions, rate, fraction of the tree done and an ETA on
/// standard error until `done` is set.
fn show_progress(control: &Control, done: &AtomicBool, fraction: bool) {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let bar = ProgressBar::with_draw_target(Some(10_000), ProgressDrawTarget::stderr());
    let template = if fraction {
        "{elapsed_precise} [{bar:30}] {percent:>3}% {msg}"
    } else {
        "{elapsed_precise} {spinner} {msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    // Stay quiet for short searches.
    let mut waited = Duration::ZERO;
    let step = Duration::from_millis(100);
    let mut baseline: Option<(f64, f64)> = None;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(step);
        waited += step;
        if waited < Duration::from_millis(500) {
            continue;
        }
        let secs = control.elapsed().as_secs_f64().max(1e-9);
        let nodes = control.nodes();
        let mut msg = format!(
            "{} nodes ({}/s), {} solutions",
            group_digits(nodes as u128),
            group_digits((nodes as f64 / secs) as u128),
            group_digits(control.solutions() as u128)
        );
        if fraction {
            let f = control.fraction_done();
            bar.set_position((f * 10_000.0) as u64);
            // The rate is taken from the first reading on, so the share a
            // resumed run found done already does not count as this run's.
            let (secs0, f0) = *baseline.get_or_insert((secs, f));
            if f > f0 {
                let eta = (secs - secs0) * (1.0 - f) / (f - f0);
                msg.push_str(&format!(", ETA {}", human_duration(eta)));
            }
        }
        bar.set_message(msg);
        bar.tick();
    }
    bar.finish_and_clear();
}

/// Runs `search` with a progress bar on standard error when `wanted` and
/// standard error is a terminal (and the search lasts more than half a
/// second); `fraction_known` says whether the share done means anything.
pub fn with_progress<R>(
    control: &Control,
    wanted: bool,
    fraction_known: bool,
    search: impl FnOnce() -> R,
) -> R {
    let show = wanted && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if show {
            scope.spawn(|| show_progress(control, &done, fraction_known));
        }
        let result = search();
        done.store(true, Ordering::Relaxed);
        result
    })
}
