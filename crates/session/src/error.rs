//! What can go wrong below the command line: bad input, a file that cannot
//! be read or written, or a broken rule of jigsolve's own (a bug). Every
//! message names what it is about (the file, the line, the option), so a
//! front end prints it as it is; the command line maps every error to exit
//! code 2.

use std::fmt;

/// Bad input: a message that already names the file and line.
#[derive(Debug)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// An error of this crate. The system's reason of an [`Error::Io`] is its
/// [`source`](std::error::Error::source), not part of its message: a front
/// end shows the chain (`anyhow`'s `{:#}` does).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The puzzle, an option or a file given is wrong; the message says
    /// where and how.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A file could not be read or written.
    #[error("{what}")]
    Io {
        /// What was being done, with the file's name.
        what: String,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be written (a checkpoint); the message names it and
    /// the system's reason.
    #[error("{0}")]
    Write(String),
    /// jigsolve broke one of its own rules; the message says which.
    #[error("{0} (a bug)")]
    Bug(String),
}

impl Error {
    /// Bad input with this message.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(InputError(message.into()))
    }

    /// A failed read or write of `what`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            what: what.into(),
            source,
        }
    }
}

/// A result of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
