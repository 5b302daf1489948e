//! Template files: templates written in TOML, with their own art and fonts,
//! loaded at run time into the same [`Template`] the built-ins are
//! (feature `files`, on by default).
//!
//! ```toml
//! format = 1
//! name = "hello"
//! description = "A greeting under the avatar."
//! size = [400, 200]
//!
//! [[param]]
//! name = "username"
//! type = "text"
//! max_chars = 32
//! doc = "Who is greeted."
//!
//! [[layer]]
//! kind = "shape"
//! shape = "rounded(24)"
//! area = [0, 0, 400, 200]
//! paint = { color = "#1e1f29" }
//!
//! [[layer]]
//! kind = "avatar"
//! place = [{ x = 20, y = 40, w = 120, h = 120 }]
//! mask = "circle"
//!
//! [[layer]]
//! kind = "text"
//! text = [{ lit = "Hello, " }, { param = "username" }]
//! size = 36
//! min_size = 16
//! area = [160, 40, 220, 120]
//! valign = "middle"
//! ```
//!
//! The format is documented for operators in the book's "Write your own
//! template" page, which a test holds to these structs. In short:
//!
//! * **Why TOML**: it is the Rust ecosystem's configuration habit, has
//!   comments, no indentation traps, and the `toml` crate gives every value
//!   its place in the file, so that an error names its line.
//! * **Versioned**: a file starts with `format = 1`; any other version is
//!   refused as such (before its fields are looked at).
//! * **Checked fully**: unknown fields are refused; every layer has its box
//!   or placements; every parameter its bounds; every reference to a
//!   parameter names one of the right type; art files exist and pass their
//!   caps; names are URL-safe. A [`FileError`] names the file, the line and
//!   the field: `welcome.toml:12: layer[2].place: …`.
//! * **Art**: built-in art by its name ([`Art::name`](super::Art::name), `art = "hand"`), or
//!   a picture in the template's folder (`file = "logo.svg"`): an SVG
//!   (through `usvg`/`resvg`; it may not refer to anything outside itself:
//!   no `<image>` of a file, URL or `data:` URI), a PNG or a WebP, each at
//!   most [`MAX_ART_BYTES`] and [`MAX_ART_PIXELS`] (an SVG as rasterised).
//!   A picture is rasterised once, when the file is loaded, at the largest
//!   box a layer places it in (a PNG or WebP is kept at its own size), and
//!   drawn like built-in art ([`Layer::Picture`](super::Layer::Picture)).
//! * **Fonts**: `fonts = ["MyFont.ttf"]` adds the folder's font files (at
//!   most [`MAX_FONT_BYTES`] each) through [`crate::text::add_font`]; a
//!   text layer's `family` then draws in it.
//!
//! **Memory.** The model is `&'static` data, so a loaded template is leaked
//! rather than owned: that keeps the interpreter and every built-in as they
//! are (no lifetimes or reference counts through the model). Loading is
//! interned by content (SHA-256 of the file and of every art and font file
//! it uses): loading an unchanged template again — a reload of the same
//! folder — returns the same `&'static Template` and leaks nothing new.
//! What is leaked is bounded by the distinct versions of the files ever
//! loaded, each about its own size plus its pictures' pixels (at most
//! [`MAX_ART_PIXELS`] × 4 bytes per picture); fonts are never removed from
//! the font database, as [`crate::text::add_font`] says, and each distinct
//! font file is added once.

mod assets;
mod convert;
mod format;
mod write;

#[cfg(test)]
mod fit_tests;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

#[cfg(test)]
use super::Art;
use super::Template;

pub use write::to_toml;

/// The version of the format this crate reads and writes.
pub const FORMAT: u32 = 1;
/// Largest template file, in bytes.
pub const MAX_FILE_BYTES: u64 = 256 * 1024;
/// Largest art file (SVG, PNG, WebP), in bytes.
pub const MAX_ART_BYTES: u64 = 4 * 1024 * 1024;
/// Most pixels of one picture (an SVG's as rasterised): 2048 × 2048.
pub const MAX_ART_PIXELS: u64 = 2048 * 2048;
/// Largest font file, in bytes.
pub const MAX_FONT_BYTES: u64 = 8 * 1024 * 1024;
/// Largest canvas side, in pixels.
pub const MAX_CANVAS_SIDE: u32 = 2048;
/// Most template files in a folder.
pub const MAX_TEMPLATES: usize = 256;
/// Longest cap of a text parameter, in characters.
pub const MAX_TEXT_CHARS: usize = 2000;
/// Most layers of a template.
pub const MAX_LAYERS: usize = 64;
/// Most parameters of a template.
pub const MAX_PARAMS: usize = 32;

/// A template read from a file.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LoadedTemplate {
    /// Its name (`name = "…"`): lower-case letters, digits and `-`.
    pub name: String,
    /// Its description (`description = "…"`, may be empty).
    pub description: String,
    /// The template, as the interpreter runs it.
    pub template: &'static Template,
    /// The file it was read from.
    pub path: PathBuf,
    /// The line of `name` in the file.
    name_line: usize,
}

/// What is wrong with a template file, and where: shown as
/// `file:line: field: message` (`file: field: message` when no line
/// applies, as for a file that cannot be read).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileError {
    /// The file.
    pub file: PathBuf,
    /// The line, from 1; 0 when the error is about the whole file.
    pub line: usize,
    /// The field, as a path: `layer[2].place`, `param[0].max_chars`; the
    /// file itself is `-`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        write!(f, ": {}: {}", self.field, self.message)
    }
}

impl std::error::Error for FileError {}

impl FileError {
    fn whole(file: &Path, field: &str, message: impl Into<String>) -> FileError {
        FileError {
            file: file.to_owned(),
            line: 0,
            field: field.to_owned(),
            message: message.into(),
        }
    }
}

/// Turns spans of one file's text into errors naming their line.
pub(super) struct Checker<'a> {
    file: &'a Path,
    text: &'a str,
}

impl Checker<'_> {
    fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1
    }

    pub(super) fn err(
        &self,
        span: Range<usize>,
        field: &str,
        message: impl Into<String>,
    ) -> FileError {
        FileError {
            file: self.file.to_owned(),
            line: self.line(span.start),
            field: field.to_owned(),
            message: message.into(),
        }
    }

    /// A TOML syntax or type error, its field read from the line it points
    /// at (the key before `=`, or the unknown key itself).
    fn toml(&self, e: &toml::de::Error) -> FileError {
        let span = e.span().unwrap_or(0..0);
        let start = span.start.min(self.text.len());
        let line_start = self
            .text
            .get(..start)
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1);
        let line_text = self.text[line_start..].lines().next().unwrap_or("");
        let at = self.text.get(span.clone()).unwrap_or("").trim();
        let bare = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
        };
        let named = e
            .message()
            .split_once("missing field `")
            .and_then(|(_, rest)| rest.split_once('`'))
            .map(|(name, _)| name.to_owned());
        let field = if let Some(name) = named {
            name
        } else if bare(at) && e.message().contains("field") {
            at.to_owned()
        } else if let Some((key, _)) = line_text.split_once('=')
            && bare(key.trim())
        {
            key.trim().to_owned()
        } else if let Some(table) = line_text
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split_whitespace()
            .next()
            .filter(|t| line_text.trim_start().starts_with('[') && bare(t))
        {
            table.to_owned()
        } else {
            "-".to_owned()
        };
        FileError {
            file: self.file.to_owned(),
            line: if e.span().is_some() {
                self.line(start)
            } else {
                0
            },
            field,
            message: e.message().trim().to_owned(),
        }
    }
}

/// A string kept for the life of the process (the model is `&'static`;
/// see the module docs on memory).
fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// Whether `name` is a template name: 1 to 64 of `a`–`z`, `0`–`9` and `-`,
/// not starting or ending with `-`.
pub fn is_valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

/// Templates loaded so far, by the SHA-256 of everything they were made
/// from, and the error of each content that failed after its files were
/// read: loading the same content again (a reload of an unchanged folder,
/// or of a file still broken) leaks nothing.
type Interned = HashMap<[u8; 32], Result<&'static Template, FileError>>;
static INTERNED: Mutex<Option<Interned>> = Mutex::new(None);

/// Reads one template from `text`, the content of `file`, whose art and
/// fonts are looked up in `dir` (the template's folder). `file` names the
/// errors and becomes [`LoadedTemplate::path`].
///
/// Errors: the first thing wrong, naming file, line and field.
pub fn parse(file: &Path, text: &str, dir: &Path) -> Result<LoadedTemplate, FileError> {
    let c = Checker { file, text };
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(FileError::whole(
            file,
            "-",
            format!("a template file is at most {MAX_FILE_BYTES} bytes"),
        ));
    }
    let version: format::Version = toml::from_str(text).map_err(|e| c.toml(&e))?;
    match version.format {
        None => {
            return Err(c.err(
                0..0,
                "format",
                format!("the file does not say its format: start it with `format = {FORMAT}`"),
            ));
        }
        Some(v) if v.get_ref().as_integer() != Some(i64::from(FORMAT)) => {
            return Err(c.err(
                v.span(),
                "format",
                format!(
                    "format {} is not known to this version, which reads format {FORMAT}",
                    v.get_ref()
                ),
            ));
        }
        Some(_) => {}
    }
    let doc: format::Doc = toml::from_str(text).map_err(|e| c.toml(&e))?;
    let name = doc.name.get_ref();
    if !is_valid_name(name) {
        return Err(c.err(
            doc.name.span(),
            "name",
            format!("`{name}`: 1 to 64 of a-z, 0-9 and `-` (it is a URL path segment)"),
        ));
    }
    let files = assets::read(&c, &doc, dir)?;
    let key = assets::content_key(text, &files);
    let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    let map = interned.get_or_insert_with(HashMap::new);
    let result = map.entry(key).or_insert_with(|| {
        let assets = assets::load(&c, &doc, &files)?;
        let t = convert::template(&c, &doc, &assets)?;
        Ok(&*Box::leak(Box::new(t)))
    });
    let template = match result {
        Ok(t) => *t,
        Err(e) => {
            return Err(FileError {
                file: file.to_owned(),
                ..e.clone()
            });
        }
    };
    Ok(LoadedTemplate {
        name: name.clone(),
        description: doc.description.clone(),
        template,
        path: file.to_owned(),
        name_line: c.line(doc.name.span().start),
    })
}

/// Reads a file and [`parse`]s it, its folder as the art folder.
pub fn load_file(file: &Path) -> Result<LoadedTemplate, FileError> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let text =
        assets::read_capped(file, MAX_FILE_BYTES).map_err(|m| FileError::whole(file, "-", m))?;
    let text = String::from_utf8(text)
        .map_err(|_| FileError::whole(file, "-", "a template file is UTF-8 text"))?;
    parse(file, &text, dir)
}

/// Loads every template file (`*.toml`) of `dir`, in file-name order (other
/// files are their art and fonts; subfolders are not read).
///
/// Errors: every error found, not only the first: each bad file's first
/// error, and a name used by two files (naming both).
pub fn load_dir(dir: &Path) -> Result<Vec<LoadedTemplate>, Vec<FileError>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        vec![FileError::whole(
            dir,
            "-",
            format!("cannot read the folder: {e}"),
        )]
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    files.sort();
    if files.len() > MAX_TEMPLATES {
        return Err(vec![FileError::whole(
            dir,
            "-",
            format!("at most {MAX_TEMPLATES} template files in a folder"),
        )]);
    }
    let mut loaded: Vec<LoadedTemplate> = Vec::new();
    let mut errors = Vec::new();
    for file in &files {
        match load_file(file) {
            Ok(t) => {
                if let Some(first) = loaded.iter().find(|l| l.name == t.name) {
                    errors.push(FileError {
                        file: file.clone(),
                        line: t.name_line,
                        field: "name".to_owned(),
                        message: format!(
                            "`{}` is also the name of {} (line {})",
                            t.name,
                            first.path.display(),
                            first.name_line
                        ),
                    });
                } else {
                    loaded.push(t);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(errors)
    }
}

/// Every built-in template and the name a file of it would have.
pub fn builtins() -> Vec<(String, &'static Template)> {
    super::TemplateKind::ALL
        .iter()
        .map(|k| (kebab(&format!("{k:?}")), k.template()))
        .collect()
}

fn kebab(s: &str) -> String {
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}
