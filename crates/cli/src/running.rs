//! Running and stopping: Ctrl-C and SIGTERM ask the search to stop, and a
//! progress bar on standard error shows how far it is while it runs.
//! Neither knows what is searched; both only read and set the [`Control`].

use crate::exit;
use crate::text::{group_digits, human_duration};
use jigsolve_search::Control;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The search a signal stops: the one most recently given to
/// [`watch_signals`] (commands such as `hints` run one search after another).
/// A signal handler reads it without a lock, so a control put here is never
/// freed: a handler on another thread may still hold the one a newer search
/// replaced. That is one small control per search of the process.
static WATCHED: AtomicPtr<Control> = AtomicPtr::new(std::ptr::null_mut());

/// Set by the first signal, so that a search started after it stops at once.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C / SIGTERM (and SIGHUP) stop `control`'s search. The handler
/// is installed once per process: the first signal asks the running search
/// to stop (it then prints what it found), a second one exits at once.
pub fn watch_signals(control: &Arc<Control>) {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    let watched = Arc::into_raw(Arc::clone(control)).cast_mut();
    // Published before the flag is read: a signal in between stops either
    // this search through the pointer or, through the flag, right here.
    WATCHED.store(watched, Ordering::SeqCst);
    if SIGNALLED.load(Ordering::SeqCst) {
        control.cancel();
    }
    if !INSTALLED.swap(true, Ordering::SeqCst) {
        install_handler();
    }
}

/// What a signal does; safe in a signal handler, since it only touches
/// atomics (and `_exit` for the second signal).
fn on_signal() {
    if SIGNALLED.swap(true, Ordering::SeqCst) {
        exit_at_once();
    }
    let watched = WATCHED.load(Ordering::SeqCst);
    // SAFETY: a non-null pointer came from `Arc::into_raw` in
    // `watch_signals`, and that reference is never given back, so the
    // control is alive.
    if let Some(control) = unsafe { watched.as_ref() } {
        control.cancel();
    }
}

/// The handler runs on the thread the signal interrupts, with `sigaction`.
/// A handler thread (the `ctrlc` crate's) cost every run a thread and its
/// allocator arena: measured 0.1 to 0.4 ms, 1% of counting the hexiamonds
/// in the 6 x 6 rhombus and 15% of a run of 28 nodes.
#[cfg(unix)]
fn install_handler() {
    extern "C" fn handler(_: libc::c_int) {
        on_signal();
    }
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed `sigaction` is a valid value to fill in; the
        // handler only touches atomics and `_exit` (async-signal-safe), and
        // SA_RESTART keeps interrupted reads and writes going.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
fn install_handler() {
    let _ = ctrlc::set_handler(on_signal);
}

/// Ends the process with [`exit::CANCELLED`] without running anything else
/// (a second signal while the first stop is still under way).
#[cfg(unix)]
fn exit_at_once() -> ! {
    // SAFETY: `_exit` ends the process at once; it is async-signal-safe.
    unsafe { libc::_exit(exit::CANCELLED as libc::c_int) }
}

#[cfg(not(unix))]
fn exit_at_once() -> ! {
    std::process::exit(exit::CANCELLED as i32)
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

/// Says on standard error when the system refused some of the search
/// threads asked for; an error when it refused every one (see
/// [`jigsolve_session::threads::threads_made`]).
pub fn threads_made(control: &Control) -> anyhow::Result<()> {
    if let Some(warning) = jigsolve_session::threads::threads_made(control)? {
        eprintln!("jigsolve: {warning}");
    }
    Ok(())
}
