//! Exit codes, and what happens when standard output goes away.
//!
//! Every command ends in one of these codes; `main` maps errors onto them in
//! one place ([`code_of`]). A reader that stops reading (`jigsolve split ... |
//! head -1`) closes the pipe: that is not an error of jigsolve's, so the
//! command ends quietly with [`FOUND`], whatever it was printing.

/// Solutions were found (or the asked-for number of them), or the command
/// did what it was asked; also the code when the reader closed the pipe.
pub const FOUND: u8 = 0;
/// The whole tree was searched and there is no solution.
pub const NONE: u8 = 1;
/// Bad input or another error.
pub const ERROR: u8 = 2;
/// A --time-limit or --node-limit stopped the search first.
pub const LIMIT: u8 = 3;
/// `unique`: the puzzle has more than one solution.
pub const SEVERAL: u8 = 4;
/// Ctrl-C or SIGTERM stopped the search.
pub const CANCELLED: u8 = 130;

/// The exit code for a finished search.
pub fn exit_code(report: &jigsolve_search::Report) -> u8 {
    use jigsolve_search::StopReason;
    match report.stopped {
        Some(StopReason::Cancelled) => CANCELLED,
        Some(StopReason::TimeLimit | StopReason::NodeLimit) => LIMIT,
        _ if report.reported > 0 => FOUND,
        _ => NONE,
    }
}

/// True when `error` (or anything in its chain) is a write to a closed pipe.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A reader that closed the pipe ends the command quietly ([`FOUND`]); any
/// other failure is an error.
pub fn quiet_on_closed_pipe(error: anyhow::Error) -> anyhow::Result<u8> {
    if is_broken_pipe(&error) {
        Ok(FOUND)
    } else {
        Err(error)
    }
}

/// The exit code for a command's error, after printing it (nothing is
/// printed for a closed pipe).
pub fn code_of(error: &anyhow::Error) -> u8 {
    if is_broken_pipe(error) {
        return FOUND;
    }
    eprintln!("error: {error:#}");
    ERROR
}

/// Ends the process for a failed write to standard output: quietly with
/// [`FOUND`] when the reader closed the pipe, else with the error and
/// [`ERROR`].
pub fn stdout_failed(error: std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(i32::from(FOUND));
    }
    eprintln!("error: cannot write to standard output: {error}");
    std::process::exit(i32::from(ERROR));
}

/// `println!` that ends the process quietly when the reader has gone (the
/// standard one panics).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            $crate::exit::stdout_failed(e);
        }
    }};
}

/// `print!` that ends the process quietly when the reader has gone.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($arg)*) {
            $crate::exit::stdout_failed(e);
        }
    }};
}

pub(crate) use {out, outln};
