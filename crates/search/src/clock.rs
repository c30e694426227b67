//! The clock the searches read for deadlines, rates and checkpoint
//! intervals.
//!
//! Natively it is the standard library's monotonic clock. In a browser
//! (`wasm32-unknown-unknown`, no operating system) the standard library has
//! no clock: `std::time::Instant::now()` panics there. That build reads the
//! host's instead, a function `jigsolve_now_ms` imported from the module
//! `env` that returns milliseconds as a float (`performance.now()` in a
//! page or a worker), behind a type with the methods the searches use.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds since some fixed moment, never decreasing.
        fn jigsolve_now_ms() -> f64;
    }

    /// A moment of the host's clock, in nanoseconds (whole, so that
    /// moments compare and hash as std's do).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(u64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the host provides the import; it takes nothing and
            // returns a number.
            let ms = unsafe { jigsolve_now_ms() };
            Instant((ms.max(0.0) * 1e6) as u64)
        }

        /// The time since `earlier` (zero if it is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_nanos(self.0.saturating_sub(earlier.0))
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// This moment plus `d`, if that is a moment.
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            let nanos = u64::try_from(d.as_nanos()).ok()?;
            self.0.checked_add(nanos).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            self.checked_add(d).expect("a moment within 584 years")
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
