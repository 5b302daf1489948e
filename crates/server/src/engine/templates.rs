//! Operators' templates: the template files of `--templates DIR`, each
//! served at `/canvas/custom/<name>` like a built-in template.
//!
//! The folder is loaded at start by canvas-render's loader
//! ([`canvas_render::template::file::load_dir`]); any error stops the
//! server, naming file, line and field. The loaded set is one immutable
//! [`TemplateSet`] behind a lock that a request holds only to clone its
//! `Arc`, so a request sees one set from its start to its end.
//!
//! The set is loaded again on SIGHUP ([`FileTemplates::reload`]) and when
//! the folder changes: a watcher thread looks at the folder every
//! `--templates-poll-ms` (the names, sizes and modification times of its
//! entries, and where symbolic links such as a Kubernetes ConfigMap's
//! `..data` point), sleeping in between. A new set that fails to load
//! keeps the old one; the errors go to the log and
//! `menagerie_templates_reload_errors_total` counts the failed reloads.
//! `menagerie_templates_loaded` is the size of the set being served.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, SystemTime};

use canvas_render::template::Args;
use canvas_render::template::Template;
use canvas_render::template::file;

use crate::catalogue;
use crate::metrics::Metrics;

/// One operator's template, as loaded.
#[derive(Debug)]
pub struct FileTemplate {
    /// Its name: the last segment of `/canvas/custom/<name>`.
    pub name: String,
    /// Its description (may be empty).
    pub description: String,
    /// The template.
    pub template: &'static Template,
    /// The arguments its preview is drawn with: its defaults.
    pub sample: Option<Args>,
    /// A digest of what it is made of (its file, and the folder's art and
    /// font files): the same on every replica for the same files, another
    /// when any of them changes. Its images' `ETag`s and cache keys carry it.
    pub digest: u64,
}

/// The templates served now, by name.
#[derive(Debug, Default)]
pub struct TemplateSet {
    /// A number no other set loaded in this process has (0: the empty set
    /// of a server without a folder), which what is made from a set (the
    /// OpenAPI document) is kept under.
    pub generation: u64,
    /// The templates, in name order.
    pub templates: Vec<Arc<FileTemplate>>,
}

impl TemplateSet {
    /// The template called `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<FileTemplate>> {
        self.templates
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.templates[i])
    }
}

/// The errors of a template folder, one a line.
pub fn describe(errors: &[String]) -> String {
    errors.join("\n")
}

/// The generation of the next set loaded.
fn next_generation() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Loads the folder `dir` into a set of generation `generation`. Errors:
/// the loader's, each `file:line: field: message`, and a parameter named
/// as one of the server's own ([`catalogue::SERVER_PARAMS`], or the
/// template's second image).
pub fn load(dir: &Path, generation: u64) -> Result<TemplateSet, Vec<String>> {
    let loaded =
        file::load_dir(dir).map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let clashes: Vec<String> = loaded
        .iter()
        .flat_map(|t| {
            t.template
                .params
                .iter()
                .filter(|p| {
                    catalogue::SERVER_PARAMS.contains(&p.name)
                        || t.template.image_source() == Some(p.name)
                })
                .map(|p| {
                    format!(
                        "{}: param: `{}` is a parameter of the server itself; name it otherwise",
                        t.path.display(),
                        p.name
                    )
                })
        })
        .collect();
    if !clashes.is_empty() {
        return Err(clashes);
    }
    let assets = assets_digest(dir);
    let mut templates: Vec<Arc<FileTemplate>> = loaded
        .into_iter()
        .map(|t| {
            Arc::new(FileTemplate {
                // The loader checks every default against its bounds.
                sample: t.template.args(|_| None).ok(),
                digest: digest(&t.path, assets),
                name: t.name,
                description: t.description,
                template: t.template,
            })
        })
        .collect();
    templates.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(TemplateSet {
        generation,
        templates,
    })
}

/// A digest of the folder's files other than templates (art and fonts),
/// by name and content, in name order. Files that cannot be read count by
/// name only (the loader has read every file a template uses).
fn assets_digest(dir: &Path) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_none_or(|x| x != "toml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    for f in files.iter().take(4 * file::MAX_TEMPLATES) {
        f.file_name().hash(&mut h);
        if let Ok(bytes) = std::fs::read(f) {
            bytes.hash(&mut h);
        }
    }
    h.finish()
}

/// A template's digest: its file's content and the folder's assets'.
fn digest(file: &Path, assets: u64) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::fs::read(file).unwrap_or_default().hash(&mut h);
    assets.hash(&mut h);
    h.finish()
}

/// `menagerie templates check DIR`: loads the folder as the server would
/// (without serving it) and gives its templates' names, or every error.
pub fn check(dir: &Path) -> Result<Vec<String>, Vec<String>> {
    load(dir, 0).map(|set| set.templates.iter().map(|t| t.name.clone()).collect())
}

/// The operator's templates of a server: the folder and the set served.
#[derive(Debug)]
pub struct FileTemplates {
    dir: Option<PathBuf>,
    current: RwLock<Arc<TemplateSet>>,
    /// Serialises reloads (SIGHUP and the watcher).
    reloading: Mutex<()>,
    metrics: Arc<Metrics>,
}

impl FileTemplates {
    /// No folder: no templates.
    pub fn none(metrics: Arc<Metrics>) -> FileTemplates {
        FileTemplates {
            dir: None,
            current: RwLock::new(Arc::new(TemplateSet::default())),
            reloading: Mutex::new(()),
            metrics,
        }
    }

    /// Loads `dir` (if any) for the first time: every error is returned.
    pub fn load(dir: Option<&Path>, metrics: Arc<Metrics>) -> Result<FileTemplates, String> {
        let Some(dir) = dir else {
            return Ok(FileTemplates::none(metrics));
        };
        let set = load(dir, next_generation()).map_err(|e| describe(&e))?;
        metrics.set_templates_loaded(set.templates.len() as u64);
        tracing::info!(
            dir = %dir.display(),
            templates = set.templates.len(),
            names = %names(&set),
            "templates loaded"
        );
        Ok(FileTemplates {
            dir: Some(dir.to_owned()),
            current: RwLock::new(Arc::new(set)),
            reloading: Mutex::new(()),
            metrics,
        })
    }

    /// The folder, when one was given.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The set served now.
    pub fn current(&self) -> Arc<TemplateSet> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Loads the folder again. A good set replaces the one served and its
    /// size is returned; a bad one keeps the old set, is logged and counted,
    /// and its errors are returned. Without a folder, nothing happens.
    pub fn reload(&self) -> Result<usize, Vec<String>> {
        let Some(dir) = &self.dir else {
            return Ok(0);
        };
        let _one = self
            .reloading
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match load(dir, next_generation()) {
            Ok(set) => {
                let n = set.templates.len();
                tracing::info!(
                    dir = %dir.display(),
                    templates = n,
                    names = %names(&set),
                    "templates reloaded"
                );
                self.metrics.set_templates_loaded(n as u64);
                *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(set);
                Ok(n)
            }
            Err(errors) => {
                self.metrics.templates_reload_failed();
                for e in &errors {
                    tracing::error!(error = %e, "template reload refused; the previous templates stay");
                }
                Err(errors)
            }
        }
    }

    /// Starts the watcher thread: it reloads when the folder's files change
    /// (looked at every `poll`) or when told to through the returned
    /// sender (SIGHUP). It ends when every sender is dropped. Without a
    /// folder, no thread is started.
    pub fn watch(self: &Arc<Self>, poll: Duration) -> std::io::Result<Sender<()>> {
        let (tx, rx) = mpsc::channel::<()>();
        let Some(dir) = self.dir.clone() else {
            return Ok(tx);
        };
        let this = Arc::clone(self);
        std::thread::Builder::new()
            .name("templates-watch".into())
            .spawn(move || {
                let mut seen = fingerprint(&dir);
                loop {
                    let asked = match rx.recv_timeout(poll) {
                        Ok(()) => true,
                        Err(RecvTimeoutError::Timeout) => false,
                        Err(RecvTimeoutError::Disconnected) => return,
                    };
                    let now = fingerprint(&dir);
                    if asked || now != seen {
                        seen = now;
                        // Errors are logged and counted by `reload`.
                        let _ = this.reload();
                    }
                }
            })?;
        Ok(tx)
    }
}

fn names(set: &TemplateSet) -> String {
    set.templates
        .iter()
        .map(|t| t.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the watcher compares: each entry of the folder by name, with its
/// size and modification time (through links) and, for a link, its
/// target. A ConfigMap update swaps the `..data` link to a new folder: the
/// target changes even when sizes and times do not.
type Fingerprint = Vec<(String, u64, Option<SystemTime>, Option<PathBuf>)>;

fn fingerprint(dir: &Path) -> Fingerprint {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Fingerprint = entries
        .filter_map(Result::ok)
        // Bounded as the loader is: a folder of more files is refused anyway.
        .take(4 * file::MAX_TEMPLATES)
        .map(|e| {
            let path = e.path();
            let meta = std::fs::metadata(&path).ok();
            (
                e.file_name().to_string_lossy().into_owned(),
                meta.as_ref().map_or(0, std::fs::Metadata::len),
                meta.and_then(|m| m.modified().ok()),
                std::fs::read_link(&path).ok(),
            )
        })
        .collect();
    out.sort();
    out
}
