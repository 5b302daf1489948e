//! Self-hosted media: image files an operator puts under
//! `<media dir>/<group>/<type>/`, served at `/media/<group>/<type>/<file>`
//! and added to that type's links.
//!
//! The folder is scanned once at start. Only the folders of known
//! group/type enums are visited, only regular files (no symlinks) with a
//! safe name and a known image extension are listed, and a request can
//! only reach a file in that list: a request's file name is looked up,
//! never joined to a path.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::error::MediaError;
use crate::kind::LinkSlot;
use crate::quote::excerpt;

/// The longest media file name accepted, in bytes.
pub const MAX_MEDIA_NAME_BYTES: usize = 100;
/// The largest media file listed, in bytes; larger files are skipped.
pub const MAX_MEDIA_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// The image formats that can be self-hosted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MediaKind {
    /// `.png`
    Png,
    /// `.jpg`, `.jpeg`
    Jpeg,
    /// `.gif`
    Gif,
    /// `.webp`
    Webp,
}

impl MediaKind {
    /// The IANA media type of the format.
    pub const fn mime(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Gif => "image/gif",
            Self::Webp => "image/webp",
        }
    }

    /// The kind a safe file name stands for, or `None` if the name is not
    /// acceptable: 1 to [`MAX_MEDIA_NAME_BYTES`] bytes of ASCII letters,
    /// digits, `-`, `_` and `.`, starting with a letter or digit, without
    /// `..`, ending in a known extension (any case).
    pub fn from_file_name(name: &str) -> Option<Self> {
        let well_formed = !name.is_empty()
            && name.len() <= MAX_MEDIA_NAME_BYTES
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            && name.as_bytes()[0].is_ascii_alphanumeric()
            && !name.contains("..");
        if !well_formed {
            return None;
        }
        let (_, ext) = name.rsplit_once('.')?;
        match ext.to_ascii_lowercase().as_str() {
            "png" => Some(Self::Png),
            "jpg" | "jpeg" => Some(Self::Jpeg),
            "gif" => Some(Self::Gif),
            "webp" => Some(Self::Webp),
            _ => None,
        }
    }
}

/// A listed media file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaFile {
    /// Where the file is on disk (found by the scan, never built from a request).
    pub path: PathBuf,
    /// Its format.
    pub kind: MediaKind,
    /// Its size at scan time, in bytes.
    pub len: u64,
}

/// A file the scan saw but did not list, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedMedia {
    /// The file.
    pub path: PathBuf,
    /// Why it was skipped.
    pub reason: &'static str,
}

/// The files found under a media directory, by slot and file name.
#[derive(Debug, Clone, Default)]
pub struct MediaLibrary {
    base_url: String,
    files: HashMap<LinkSlot, BTreeMap<Box<str>, MediaFile>>,
    skipped: Vec<SkippedMedia>,
}

impl MediaLibrary {
    /// Scans `root/<group>/<type>/` for every known group and type; links
    /// are built as `<public_url>/media/<group>/<type>/<file>`.
    pub fn scan(root: &Path, public_url: &str) -> Result<Self, MediaError> {
        let base_url = check_public_url(public_url)?;
        let meta = std::fs::metadata(root).map_err(|e| MediaError::BadRoot {
            path: root.to_owned(),
            reason: e.to_string(),
        })?;
        if !meta.is_dir() {
            return Err(MediaError::BadRoot {
                path: root.to_owned(),
                reason: "not a directory".to_owned(),
            });
        }
        let mut library = Self {
            base_url,
            ..Self::default()
        };
        for slot in LinkSlot::all() {
            let dir = root.join(slot.group().as_str()).join(slot.type_name());
            match std::fs::symlink_metadata(&dir) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    library.skipped.push(SkippedMedia {
                        path: dir,
                        reason: "not a directory",
                    });
                    continue;
                }
                Err(_) => continue,
            }
            let entries = std::fs::read_dir(&dir).map_err(|source| MediaError::Io {
                path: dir.clone(),
                source,
            })?;
            for entry in entries {
                let entry = entry.map_err(|source| MediaError::Io {
                    path: dir.clone(),
                    source,
                })?;
                library.consider(slot, entry);
            }
        }
        Ok(library)
    }

    fn consider(&mut self, slot: LinkSlot, entry: std::fs::DirEntry) {
        let path = entry.path();
        let skip = |reason| SkippedMedia {
            path: path.clone(),
            reason,
        };
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            self.skipped.push(skip("file name is not UTF-8"));
            return;
        };
        let Some(kind) = MediaKind::from_file_name(&name) else {
            self.skipped.push(skip(
                "file name is not a safe image name (png, jpg, jpeg, gif, webp)",
            ));
            return;
        };
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(_) => {
                self.skipped.push(skip("cannot read metadata"));
                return;
            }
        };
        if !meta.file_type().is_file() {
            self.skipped
                .push(skip("not a regular file (symlinks are not followed)"));
            return;
        }
        if meta.len() > MAX_MEDIA_FILE_BYTES {
            self.skipped.push(skip("larger than 32 MiB"));
            return;
        }
        self.files.entry(slot).or_default().insert(
            name.into_boxed_str(),
            MediaFile {
                path,
                kind,
                len: meta.len(),
            },
        );
    }

    /// The listed file `name` of `slot`, if any.
    pub fn get(&self, slot: LinkSlot, name: &str) -> Option<&MediaFile> {
        self.files.get(&slot)?.get(name)
    }

    /// The public links of the files of `slot`, sorted by file name.
    pub fn links(&self, slot: LinkSlot) -> impl Iterator<Item = String> + '_ {
        self.files.get(&slot).into_iter().flat_map(move |files| {
            files.keys().map(move |name| {
                format!(
                    "{}/media/{}/{}/{}",
                    self.base_url,
                    slot.group().as_str(),
                    slot.type_name(),
                    name
                )
            })
        })
    }

    /// How many files are listed.
    pub fn len(&self) -> usize {
        self.files.values().map(BTreeMap::len).sum()
    }

    /// Whether no file is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Files seen but not listed.
    pub fn skipped(&self) -> &[SkippedMedia] {
        &self.skipped
    }

    /// The base URL links are built on (no trailing `/`).
    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}

/// Validates the public base URL and returns it without a trailing `/`.
fn check_public_url(public_url: &str) -> Result<String, MediaError> {
    let bad = |reason| MediaError::BadPublicUrl {
        url: excerpt(public_url),
        reason,
    };
    let url = url::Url::parse(public_url).map_err(|_| bad("not an absolute URL"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("scheme is not http or https"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("has no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("carries credentials"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("has a query or fragment"));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}
