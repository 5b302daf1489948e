//! A template file's own art and fonts: read with caps, hashed for
//! interning, then decoded (pictures rasterised once) and registered.

use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;
use std::path::{Component, Path};
use std::sync::{Mutex, PoisonError};

use sha2::{Digest, Sha256};
use tiny_skia::{Pixmap, Transform};
use toml::Spanned;

use super::format::Doc;
use super::{Checker, FileError, MAX_ART_BYTES, MAX_ART_PIXELS, MAX_FONT_BYTES};
use crate::template::Picture;
use crate::text::FontFace;

/// One file a template uses, read.
pub(super) struct AssetFile {
    /// Its name in the template's folder, as the template wrote it.
    pub name: String,
    /// Where the template names it.
    pub span: Range<usize>,
    /// `layer[i].file` or `fonts`.
    pub field: String,
    pub kind: Kind,
    pub bytes: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Svg,
    Png,
    Webp,
    Font,
}

/// What the layers may refer to besides parameters: the pictures loaded
/// from the folder (by file name) and the font families it registered.
pub(super) struct Assets {
    pub pictures: HashMap<String, &'static Picture>,
    pub families: Vec<String>,
}

/// Reads at most `cap` bytes of `path`; a longer file is an error.
pub(super) fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut bytes = Vec::new();
    f.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!("over its cap of {cap} bytes"));
    }
    Ok(bytes)
}

/// A plain file name in the folder: no directory, no `..`.
fn plain(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    ) && !name.contains(['/', '\\'])
}

/// Reads every art and font file `doc` refers to, each once, in order.
pub(super) fn read(c: &Checker, doc: &Doc, dir: &Path) -> Result<Vec<AssetFile>, FileError> {
    let mut wanted: Vec<(String, Range<usize>, String, bool)> = Vec::new();
    for (i, layer) in doc.layers.iter().enumerate() {
        if let Some(file) = &layer.get_ref().file {
            wanted.push((
                file.get_ref().clone(),
                file.span(),
                format!("layer[{i}].file"),
                false,
            ));
        }
    }
    for font in &doc.fonts {
        wanted.push((
            font.get_ref().clone(),
            font.span(),
            "fonts".to_owned(),
            true,
        ));
    }
    let mut out: Vec<AssetFile> = Vec::new();
    for (name, span, field, font) in wanted {
        if out.iter().any(|r| r.name == name) {
            continue;
        }
        if !plain(&name) {
            return Err(c.err(
                span,
                &field,
                format!("`{name}`: a file of the template's folder, named without a path"),
            ));
        }
        let ext = Path::new(&name)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        let (kind, cap) = match (font, ext.as_str()) {
            (false, "svg") => (Kind::Svg, MAX_ART_BYTES),
            (false, "png") => (Kind::Png, MAX_ART_BYTES),
            (false, "webp") => (Kind::Webp, MAX_ART_BYTES),
            (true, "ttf" | "otf" | "ttc" | "otc") => (Kind::Font, MAX_FONT_BYTES),
            (false, _) => {
                return Err(c.err(
                    span,
                    &field,
                    format!("`{name}`: art is an .svg, .png or .webp file"),
                ));
            }
            (true, _) => {
                return Err(c.err(
                    span,
                    &field,
                    format!("`{name}`: a font is a .ttf, .otf, .ttc or .otc file"),
                ));
            }
        };
        let bytes = read_capped(&dir.join(&name), cap)
            .map_err(|m| c.err(span.clone(), &field, format!("`{name}`: {m}")))?;
        out.push(AssetFile {
            name,
            span,
            field,
            kind,
            bytes,
        });
    }
    Ok(out)
}

/// The SHA-256 of the template's text and of every file it uses.
pub(super) fn content_key(text: &str, files: &[AssetFile]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update((text.len() as u64).to_le_bytes());
    h.update(text.as_bytes());
    for f in files {
        h.update((f.name.len() as u64).to_le_bytes());
        h.update(f.name.as_bytes());
        h.update((f.bytes.len() as u64).to_le_bytes());
        h.update(&f.bytes);
    }
    h.finalize().into()
}

/// The largest box any layer places `name` in, in whole pixels.
fn largest_box(doc: &Doc, name: &str) -> Option<(u32, u32)> {
    let mut best: Option<(f32, f32)> = None;
    for layer in &doc.layers {
        let l = layer.get_ref();
        if l.file.as_ref().map(Spanned::get_ref).map(String::as_str) != Some(name) {
            continue;
        }
        for p in l.place.iter().flat_map(|p| p.get_ref()) {
            if p.w.is_finite() && p.h.is_finite() && p.w > 0.0 && p.h > 0.0 {
                let (w, h) = best.unwrap_or((0.0, 0.0));
                best = Some((w.max(p.w), h.max(p.h)));
            }
        }
    }
    best.map(|(w, h)| (w.ceil().min(1e6) as u32, h.ceil().min(1e6) as u32))
}

/// Decodes the pictures and registers the fonts.
pub(super) fn load(c: &Checker, doc: &Doc, files: &[AssetFile]) -> Result<Assets, FileError> {
    let mut pictures = HashMap::new();
    let mut families = Vec::new();
    for f in files {
        let err = |m: String| c.err(f.span.clone(), &f.field, format!("`{}`: {m}", f.name));
        match f.kind {
            Kind::Font => {
                for family in add_font(&f.bytes).map_err(err)? {
                    if !families.contains(&family) {
                        families.push(family);
                    }
                }
            }
            Kind::Svg => {
                let size = largest_box(doc, &f.name);
                let pixmap = svg(&f.bytes, size).map_err(err)?;
                let picture: &'static Picture =
                    Box::leak(Box::new(Picture::from_pixmap(&f.name, pixmap)));
                pictures.insert(f.name.clone(), picture);
            }
            Kind::Png | Kind::Webp => {
                let format = if f.kind == Kind::Png {
                    image::ImageFormat::Png
                } else {
                    image::ImageFormat::WebP
                };
                let image = raster(&f.bytes, format).map_err(err)?;
                let picture =
                    Picture::from_rgba(&f.name, &image).map_err(|e| err(e.to_string()))?;
                pictures.insert(f.name.clone(), &*Box::leak(Box::new(picture)));
            }
        }
    }
    Ok(Assets { pictures, families })
}

fn check_pixels(w: u64, h: u64) -> Result<(), String> {
    if w * h > MAX_ART_PIXELS {
        return Err(format!(
            "{w}×{h} pixels is over the cap of {MAX_ART_PIXELS} pixels"
        ));
    }
    Ok(())
}

/// A PNG or WebP, its size checked before it is decoded.
fn raster(bytes: &[u8], format: image::ImageFormat) -> Result<image::RgbaImage, String> {
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    let (w, h) = reader()
        .into_dimensions()
        .map_err(|e| format!("not a readable image: {e}"))?;
    check_pixels(u64::from(w), u64::from(h))?;
    let mut r = reader();
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    limits.max_alloc = Some(MAX_ART_PIXELS * 8);
    r.limits(limits);
    Ok(r.decode()
        .map_err(|e| format!("not a readable image: {e}"))?
        .to_rgba8())
}

/// Parses an SVG with nothing outside it reachable (no file, URL or
/// `data:` image: an `<image>` is refused), and rasterises it at `size`
/// (its own size when `None`).
fn svg(bytes: &[u8], size: Option<(u32, u32)>) -> Result<Pixmap, String> {
    use resvg::usvg;
    let refused: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let note = |what: String| {
        refused
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(what)
    };
    let options = usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|mime, _, _| {
                note(format!("data:{mime}"));
                None
            }),
            resolve_string: Box::new(|href, _| {
                note(href.to_owned());
                None
            }),
        },
        ..usvg::Options::default()
    };
    let tree =
        usvg::Tree::from_data(bytes, &options).map_err(|e| format!("not a readable SVG: {e}"))?;
    drop(options);
    let refused = refused.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(href) = refused.first() {
        let shown: String = href.chars().take(80).collect();
        return Err(format!(
            "an SVG may not refer to anything outside itself (an image `{shown}`): draw it in the SVG"
        ));
    }
    let natural = tree.size();
    let (w, h) = size.unwrap_or((
        natural.width().ceil() as u32,
        natural.height().ceil() as u32,
    ));
    check_pixels(u64::from(w), u64::from(h))?;
    let mut pixmap = Pixmap::new(w.max(1), h.max(1)).ok_or("an empty SVG")?;
    let t = Transform::from_scale(w as f32 / natural.width(), h as f32 / natural.height());
    resvg::render(&tree, t, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Fonts added so far, by SHA-256, with their families: each distinct file
/// is added once, however often its templates are loaded.
static FONTS: Mutex<Vec<([u8; 32], Vec<String>)>> = Mutex::new(Vec::new());

fn add_font(bytes: &[u8]) -> Result<Vec<String>, String> {
    let key: [u8; 32] = Sha256::digest(bytes).into();
    let mut fonts = FONTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, families)) = fonts.iter().find(|(k, _)| *k == key) {
        return Ok(families.clone());
    }
    let families = crate::text::add_font(bytes.to_vec()).map_err(|e| e.to_string())?;
    fonts.push((key, families.clone()));
    Ok(families)
}

/// The face a text layer's `family` draws in: a family of the template's
/// own fonts, or of the fonts in the database that no template file added
/// (so that whether a file loads does not hang on which files were loaded
/// before it).
pub(super) fn family_face(
    c: &Checker,
    field: &str,
    family: &Spanned<String>,
    families: &[String],
) -> Result<FontFace, FileError> {
    let name = family.get_ref();
    let from_files = || {
        FONTS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .any(|(_, f)| f.contains(name))
    };
    if families.contains(name) || (crate::text::font_families().contains(name) && !from_files()) {
        Ok(FontFace::Family(super::leak_str(name)))
    } else {
        Err(c.err(
            family.span(),
            field,
            format!("no font family `{name}`: add its file to `fonts`"),
        ))
    }
}
