//! `jigsolve serve`: the local web page (see [`crate::serve`]).

use crate::exit;
use crate::options::ServeArgs;
use crate::serve;
use anyhow::Result;
use std::net::SocketAddr;
use std::time::Duration;

/// Serves the page until the process is stopped.
pub fn serve_command(args: &ServeArgs) -> Result<u8> {
    let threads = if args.threads > 0 {
        args.threads
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    serve::run(serve::Config {
        addr: SocketAddr::new(args.listen, args.port),
        open: args.open,
        limits: serve::Limits {
            connect_timeout: Duration::from_secs_f64(args.connect_timeout),
            solutions: args.kept_solutions as usize,
            ..serve::limits(
                threads,
                args.queue as usize,
                Duration::from_secs_f64(args.time_limit),
            )
        },
    })?;
    Ok(exit::FOUND)
}
