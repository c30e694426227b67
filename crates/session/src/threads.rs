//! Search threads the system would not make.

use crate::error::{Error, Result};
use jigsolve_search::Control;

/// What became of the search threads asked for: an error when the system
/// refused every one (a per-process memory cap: each reserves
/// [`jigsolve_search::SEARCH_STACK_BYTES`] of stack), since then the search
/// did not run at all; a warning to show when it refused some; nothing
/// when it made them all.
pub fn threads_made(control: &Control) -> Result<Option<String>> {
    let Some((asked, made)) = control.fewer_threads() else {
        return Ok(None);
    };
    let stack = jigsolve_search::SEARCH_STACK_BYTES >> 20;
    if made == 0 {
        return Err(Error::input(format!(
            "the system could not create any of the {asked} search threads asked for (a memory \
             cap? each reserves {stack} MiB of stack): the search did not run; --threads 1 \
             searches on the command's own thread"
        )));
    }
    Ok(Some(format!(
        "the system refused some search threads (a memory cap? each reserves {stack} MiB of \
         stack): {made} of the {asked} asked for ran the search"
    )))
}
