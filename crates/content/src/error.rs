//! Errors of the content crate: one enum per concern.

use std::path::PathBuf;

use crate::kind::Group;
pub use crate::kind::UnknownType;

/// Why a content pack was refused. Every message names the pack file and,
/// where there is one, the line and the entry.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// A file every pack must have is missing.
    #[error("content pack {pack}: required file `{file}` is missing")]
    MissingFile {
        /// Where the pack comes from (`embedded` or a directory).
        pack: String,
        /// The pack-relative file name.
        file: String,
    },
    /// A pack file could not be read.
    #[error("content pack {pack}: cannot read `{file}`: {source}")]
    Io {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A pack file is larger than the loader accepts.
    #[error("content pack {pack}: `{file}` is larger than {limit} bytes")]
    TooLarge {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
        /// The size limit in bytes.
        limit: u64,
    },
    /// A pack file is not valid UTF-8.
    #[error("content pack {pack}: `{file}` is not valid UTF-8")]
    NotUtf8 {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
    },
    /// A type of a group has no entries at all.
    #[error(
        "content pack {pack}: `{file}` has no entries, but /{group}/{type_name} needs at least one"
    )]
    EmptyType {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
        /// The group of the empty type.
        group: Group,
        /// The empty type's segment.
        type_name: &'static str,
    },
    /// A link is not an absolute http(s) URL.
    #[error("content pack {pack}: `{file}` line {line}: {entry:?} is not a valid link: {reason}")]
    InvalidLink {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// The offending entry (shortened if long).
        entry: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An entry appears twice in one type's list.
    #[error("content pack {pack}: `{file}` line {line}: duplicate entry {entry:?}")]
    DuplicateEntry {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
        /// 1-based line number of the second occurrence.
        line: usize,
        /// The entry (shortened if long).
        entry: String,
    },
    /// A quotes line does not have the `id<TAB>anime<TAB>name<TAB>quote` shape.
    #[error("content pack {pack}: `{file}` line {line}: malformed quote ({reason}): {entry:?}")]
    MalformedQuote {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// The offending line (shortened if long).
        entry: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Two quotes share an id.
    #[error(
        "content pack {pack}: `{file}` line {line}: quote id {id} already used on line {first_line}"
    )]
    DuplicateQuoteId {
        /// Where the pack comes from.
        pack: String,
        /// The pack-relative file name.
        file: String,
        /// 1-based line number of the second use.
        line: usize,
        /// The repeated id.
        id: u32,
        /// 1-based line number of the first use.
        first_line: usize,
    },
}

/// Why a self-hosted media folder or its public URL was refused.
#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// The media root is not a readable directory.
    #[error("media dir {path}: {reason}")]
    BadRoot {
        /// The configured directory.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The public URL the links are built on is not an absolute http(s) URL
    /// without query or fragment.
    #[error("public URL {url:?} is not usable for media links: {reason}")]
    BadPublicUrl {
        /// The configured URL (shortened if long).
        url: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Listing a media folder failed.
    #[error("media dir: cannot list {path}: {source}")]
    Io {
        /// The folder being listed.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}
