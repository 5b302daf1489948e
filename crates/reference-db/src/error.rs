//! Error types of the engine. Each variant says what went wrong in domain
//! terms; the server's error table maps them to HTTP.

use std::path::PathBuf;

use crate::suggest::Suggestion;

/// Loading a dataset failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The dataset file could not be read (typically: not built yet).
    #[error("cannot read {}: {source} (build it with `cargo xtask data`)", path.display())]
    Io {
        /// The file that was read.
        path: PathBuf,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with the dataset header.
    #[error("not a reference-db dataset (bad header)")]
    NotADataset,
    /// The file was written by another version of the builder.
    #[error(
        "dataset format version {found}, this build reads version {expected}: rebuild it with `cargo xtask data`"
    )]
    FormatVersion {
        /// Version in the file.
        found: u32,
        /// Version this code reads.
        expected: u32,
    },
    /// The header is right but the records do not decode.
    #[error("corrupt dataset: {reason}")]
    Corrupt {
        /// What the decoder said.
        reason: String,
    },
}

/// What kind of record a lookup was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    /// A creature (dex entry).
    Creature,
    /// A move.
    Move,
    /// An ability.
    Ability,
    /// An item.
    Item,
}

impl RecordKind {
    /// Lower-case noun: `"creature"`, `"move"`, `"ability"`, `"item"`.
    pub fn noun(self) -> &'static str {
        match self {
            RecordKind::Creature => "creature",
            RecordKind::Move => "move",
            RecordKind::Ability => "ability",
            RecordKind::Item => "item",
        }
    }
}

impl std::fmt::Display for RecordKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.noun())
    }
}

/// A lookup found nothing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LookupError {
    /// The query was empty or only whitespace.
    #[error("no {kind} name or number given")]
    EmptyQuery {
        /// What was looked up.
        kind: RecordKind,
    },
    /// No record matches the query.
    #[error("{kind} not found: {query:?}")]
    NotFound {
        /// What was looked up.
        kind: RecordKind,
        /// The query as given (trimmed).
        query: String,
        /// Similar names, best first.
        suggestions: Vec<Suggestion>,
    },
}

/// Building a dataset from the PokeAPI CSVs failed.
#[cfg(feature = "builder")]
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A CSV file could not be opened or read.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: PathBuf,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
    /// A required column is absent from a CSV header.
    #[error("{file}: line 1: missing column `{column}`")]
    MissingColumn {
        /// The file.
        file: PathBuf,
        /// The missing column's name.
        column: String,
    },
    /// A CSV value is malformed or refers to something that does not exist.
    #[error("{file}: line {line}, column {column}: {message}")]
    Malformed {
        /// The file.
        file: PathBuf,
        /// 1-based line of the record.
        line: u64,
        /// 1-based field number within the record.
        column: usize,
        /// What is wrong.
        message: String,
    },
}
