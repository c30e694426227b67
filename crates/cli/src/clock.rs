//! When the command started. `--time-limit` counts from here, so reading
//! and preparing a huge puzzle is inside the limit too.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

static STARTED: OnceLock<Instant> = OnceLock::new();

/// Time since the command started (the first call starts the clock; `main`
/// makes it before anything else).
pub fn since_start() -> Duration {
    STARTED.get_or_init(Instant::now).elapsed()
}

/// What is left of `seconds` counted from the start of the command.
pub fn left_of(seconds: f64) -> Duration {
    Duration::from_secs_f64(seconds.max(0.0)).saturating_sub(since_start())
}
