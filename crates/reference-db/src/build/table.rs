//! Reading one CSV file with positions in every error.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::BuildError;

/// Something the builder reports while it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress<'a> {
    /// Starting to read a file of `bytes` bytes.
    Reading {
        /// File name within the source directory.
        file: &'a str,
        /// Its size.
        bytes: u64,
    },
    /// A record's slug is an earlier (lower) id's; the data has such
    /// repeats (two `roseli-berry` items). The record is kept and found by
    /// its id; its slug finds the earlier one.
    DuplicateSlug {
        /// File name within the source directory.
        file: &'a str,
        /// The repeated slug.
        slug: &'a str,
        /// Id of the repeat.
        id: u32,
    },
    /// Finished a file.
    Read {
        /// File name within the source directory.
        file: &'a str,
        /// Data rows read (header excluded).
        rows: u64,
    },
}

/// One data row, with the wanted columns addressed by their position in the
/// `columns` list given to [`read_table`].
pub(crate) struct Row<'a> {
    record: &'a csv::StringRecord,
    columns: &'a [usize],
    file: &'a Path,
    line: u64,
}

impl Row<'_> {
    /// The raw text of wanted column `i`.
    pub(crate) fn str(&self, i: usize) -> &str {
        self.record.get(self.columns[i]).unwrap_or("")
    }

    /// A "malformed" error pointing at wanted column `i` of this row.
    pub(crate) fn error(&self, i: usize, message: impl Into<String>) -> BuildError {
        BuildError::Malformed {
            file: self.file.to_path_buf(),
            line: self.line,
            column: self.columns[i] + 1,
            message: message.into(),
        }
    }

    /// Column `i` as a number of type `T`; empty is an error.
    pub(crate) fn num<T: std::str::FromStr>(&self, i: usize) -> Result<T, BuildError> {
        let text = self.str(i);
        text.parse()
            .map_err(|_| self.error(i, format!("expected a number in range, found {text:?}")))
    }

    /// Column `i` as a number of type `T`, or `None` when empty.
    pub(crate) fn opt_num<T: std::str::FromStr>(&self, i: usize) -> Result<Option<T>, BuildError> {
        if self.str(i).is_empty() {
            Ok(None)
        } else {
            self.num(i).map(Some)
        }
    }

    /// Column `i` as a `0`/`1` flag.
    pub(crate) fn flag(&self, i: usize) -> Result<bool, BuildError> {
        match self.str(i) {
            "0" => Ok(false),
            "1" => Ok(true),
            other => Err(self.error(i, format!("expected 0 or 1, found {other:?}"))),
        }
    }
}

fn csv_error(file: &Path, error: csv::Error) -> BuildError {
    let at = |pos: Option<&csv::Position>| pos.map_or(0, csv::Position::line);
    match error.kind() {
        csv::ErrorKind::Io(e) => BuildError::Io {
            file: file.to_path_buf(),
            source: std::io::Error::new(e.kind(), e.to_string()),
        },
        csv::ErrorKind::Utf8 { pos, err } => BuildError::Malformed {
            file: file.to_path_buf(),
            line: at(pos.as_ref()),
            column: err.field() + 1,
            message: format!("invalid UTF-8 (valid up to byte {})", err.valid_up_to()),
        },
        csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => BuildError::Malformed {
            file: file.to_path_buf(),
            line: at(pos.as_ref()),
            column: (*len.min(expected_len) as usize) + 1,
            message: format!("expected {expected_len} fields, found {len}"),
        },
        _ => BuildError::Malformed {
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            message: error.to_string(),
        },
    }
}

/// Reads `<dir>/<name>`, calling `each` on every data row. `columns` names
/// the wanted columns; [`Row`] accessors take indices into that list.
pub(crate) fn read_table(
    dir: &Path,
    name: &str,
    columns: &[&str],
    progress: &mut dyn FnMut(Progress<'_>),
    mut each: impl FnMut(&Row<'_>) -> Result<(), BuildError>,
) -> Result<(), BuildError> {
    let path: PathBuf = dir.join(name);
    let file = File::open(&path).map_err(|source| BuildError::Io {
        file: path.clone(),
        source,
    })?;
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    progress(Progress::Reading { file: name, bytes });
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(file);
    let headers = reader.headers().map_err(|e| csv_error(&path, e))?.clone();
    let indices = columns
        .iter()
        .map(|c| {
            headers
                .iter()
                .position(|h| h.trim_start_matches('\u{feff}') == *c)
                .ok_or_else(|| BuildError::MissingColumn {
                    file: path.clone(),
                    column: (*c).to_owned(),
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut record = csv::StringRecord::new();
    let mut rows = 0u64;
    while reader
        .read_record(&mut record)
        .map_err(|e| csv_error(&path, e))?
    {
        let line = record.position().map_or(0, csv::Position::line);
        each(&Row {
            record: &record,
            columns: &indices,
            file: &path,
            line,
        })?;
        rows += 1;
    }
    progress(Progress::Read { file: name, rows });
    Ok(())
}
