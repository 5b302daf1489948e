//! The font database: the bundled fonts and the fonts added at run time.
//!
//! Bundled fonts come from the font crates of the `font-*` cargo features
//! (`bundled-fonts`, on by default, turns on all three), compiled in with
//! `include_bytes!`. Nothing is read from the system: the database starts
//! empty and only these byte slices, and those given to [`add_font`], are
//! added to it. The bytes are never copied, so a bundled font costs resident
//! memory only for the pages that are read: parsing a face touches its table
//! directory and names, and a glyph's outline or bitmap is read when it is
//! first drawn.
//!
//! Every face is a slot of a process-wide, append-only table (at most
//! [`MAX_FONTS`]; a laid-out glyph names its font by slot, the same on every
//! thread). One global template (a `fontdb` database, the fallback order and
//! the face families) changes under a lock when fonts are added or the order
//! is set, and bumps a generation counter; each thread's shaping engine (a
//! cosmic-text `FontSystem`, which is not `Sync`) compares the counter before
//! every layout and rebuilds itself from the template when it changed.
//!
//! Fallback: a character the requested face lacks is looked up in the fonts
//! for its script (Arabic, Hebrew, Devanagari, Bengali, Tamil, Thai,
//! Javanese, Tibetan, Han, kana, Hangul), then in the fallback order
//! ([`fallback_order`]): by default Noto Sans, Noto Color Emoji (People,
//! then Things), DejaVu Sans, Noto Sans Symbols, Noto Sans Symbols 2, Noto
//! Sans Math (the styled letters of "fancy text" names), WenQuanYi Micro Hei,
//! then the families added with [`add_font`], in the order they were added.
//! Families that are not in the database are skipped.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, OnceLock};

use cosmic_text::fontdb::{self, Database, Query, Source};
use cosmic_text::{Attrs, Fallback, Family, FontSystem, Stretch, Style, Weight};
use unicode_script::Script;

use super::{FontFace, SpanLook};
use crate::RenderError;

/// The most font faces the database holds, bundled ones included (a laid-out
/// glyph names its font in one byte).
pub const MAX_FONTS: usize = 256;

/// One face in the database.
struct Slot {
    /// File name of a bundled font, or the family of an added one (tests
    /// check which font a glyph came from).
    #[cfg_attr(not(test), allow(dead_code))]
    name: Cow<'static, str>,
    /// The file's bytes, shared with the `fontdb` databases.
    data: Bytes,
    /// Index of the face in its file (collections hold several).
    index: u32,
}

type Bytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

impl Slot {
    fn bytes(&'static self) -> &'static [u8] {
        (*self.data).as_ref()
    }
}

/// The faces, by slot; filled in order, never emptied.
static SLOTS: [OnceLock<Slot>; MAX_FONTS] = [const { OnceLock::new() }; MAX_FONTS];
/// How many slots are filled.
static FILLED: AtomicUsize = AtomicUsize::new(0);
/// Bumped by every change of the template.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The font set's generation: it changes whenever a font is added or the
/// fallback order set, so a layout kept from before is stale.
pub(crate) fn generation() -> u64 {
    GENERATION.load(Ordering::Acquire)
}
/// The slot of the font whose metrics (ascent, line height) each face's
/// lines use, by `FontFace` (see [`resolve_primary`]).
static PRIMARY: [AtomicU8; 4] = [const { AtomicU8::new(0) }; 4];

/// The bundled fonts of the enabled features, in database order (file
/// name, bytes). The order is that of the fonts' former single directory,
/// so ties in font matching resolve as they always did.
fn bundled() -> Vec<(&'static str, &'static [u8])> {
    #[allow(unused_mut)]
    let mut fonts: Vec<(&'static str, &'static [u8])> = Vec::new();
    #[cfg(feature = "font-latin")]
    fonts.extend(menagerie_fonts_latin::FONTS);
    #[cfg(feature = "font-scripts")]
    {
        let scripts = &menagerie_fonts_scripts::FONTS;
        // Symbols, Symbols 2 and WenQuanYi came before the emoji, the rest after.
        let at = scripts
            .iter()
            .position(|(f, _)| *f == "NotoSansMath-Regular.ttf")
            .unwrap_or(scripts.len());
        fonts.extend_from_slice(&scripts[..at]);
        #[cfg(feature = "font-emoji")]
        fonts.extend(emoji());
        fonts.extend_from_slice(&scripts[at..]);
    }
    #[cfg(all(feature = "font-emoji", not(feature = "font-scripts")))]
    fonts.extend(emoji());
    fonts
}

#[cfg(feature = "font-emoji")]
fn emoji() -> [(&'static str, &'static [u8]); 2] {
    // People first: the two parts share the joiners and modifiers, and a
    // sequence is drawn by the part that has all of its characters.
    [
        menagerie_fonts_emoji_people::FONTS[0],
        menagerie_fonts_emoji_things::FONTS[0],
    ]
}

/// The default fallback order, by family name.
const BUNDLED_FALLBACK: &[&str] = &[
    "Noto Sans",
    "Noto Color Emoji People",
    "Noto Color Emoji Things",
    "DejaVu Sans",
    "Noto Sans Symbols",
    "Noto Sans Symbols2",
    "Noto Sans Math",
    "WenQuanYi Micro Hei",
];

/// The family each `FontFace` asks for by default.
const BUNDLED_FAMILIES: [&str; 4] = ["Noto Sans", "Noto Sans", "DejaVu Sans", "Noto Serif"];

/// The slot of a face's family setting; a [`FontFace::Family`] shares the
/// regular one's (and names its family itself).
fn face_slot(face: FontFace) -> usize {
    match face {
        FontFace::Regular | FontFace::Family(_) => 0,
        FontFace::Bold => 1,
        FontFace::Meme => 2,
        FontFace::SerifItalic => 3,
    }
}

/// What every thread's engine is built from.
#[derive(Clone)]
struct Template {
    db: Database,
    /// Database id → slot.
    ids: Arc<HashMap<fontdb::ID, u8>>,
    fallback: Arc<[&'static str]>,
    /// Whether `fallback` was set by [`set_fallback_order`] (added fonts are
    /// then not appended to it).
    fallback_set: bool,
    /// The family of each face, by [`face_slot`].
    families: [&'static str; 4],
    generation: u64,
}

static TEMPLATE: LazyLock<Mutex<Template>> = LazyLock::new(|| {
    let mut t = Template {
        db: Database::new(),
        ids: Arc::new(HashMap::new()),
        fallback: BUNDLED_FALLBACK.into(),
        fallback_set: false,
        families: BUNDLED_FAMILIES,
        generation: 0,
    };
    for (file, data) in bundled() {
        // The bundled fonts parse, and there are far fewer than MAX_FONTS
        // (the crate's tests load every one).
        let _ = load(&mut t, Some(file), Arc::new(data));
    }
    resolve_primary(&t);
    Mutex::new(t)
});

fn template() -> MutexGuard<'static, Template> {
    TEMPLATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Interns a family name for the `&'static str` lists cosmic-text wants
/// (each distinct name is kept once, for the life of the process).
fn intern(name: &str) -> &'static str {
    static NAMES: LazyLock<Mutex<Vec<&'static str>>> = LazyLock::new(|| Mutex::new(Vec::new()));
    if let Some(s) = BUNDLED_FALLBACK
        .iter()
        .chain(&BUNDLED_FAMILIES)
        .find(|s| **s == name)
    {
        return s;
    }
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = names.iter().find(|s| **s == name) {
        return s;
    }
    let s: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.push(s);
    s
}

/// Adds every face of `data` to the template: the new slots and the
/// families of the faces added, in file order.
fn load(
    t: &mut Template,
    file: Option<&'static str>,
    data: Bytes,
) -> Result<Vec<String>, RenderError> {
    let mut db = t.db.clone();
    let ids = db.load_font_source(Source::Binary(data.clone()));
    // Faces swash cannot read either are left out.
    let faces: Vec<(fontdb::ID, u32, String)> = ids
        .iter()
        .filter_map(|&id| {
            let face = db.face(id)?;
            swash::FontRef::from_index((*data).as_ref(), face.index as usize)?;
            let family = face.families.first().map(|(f, _)| f.clone())?;
            Some((id, face.index, family))
        })
        .collect();
    if faces.is_empty() {
        return Err(RenderError::InvalidFont);
    }
    let first = FILLED.load(Ordering::Acquire);
    if first + faces.len() > MAX_FONTS {
        return Err(RenderError::TooManyFonts { max: MAX_FONTS });
    }
    for &id in &ids {
        if !faces.iter().any(|f| f.0 == id) {
            db.remove_face(id);
        }
    }
    let mut map = HashMap::clone(&t.ids);
    for (i, (id, index, family)) in faces.iter().enumerate() {
        let slot = first + i;
        // Slots are filled only here, under the template's lock.
        let _ = SLOTS[slot].set(Slot {
            name: file.map_or_else(|| Cow::Owned(family.clone()), Cow::Borrowed),
            data: data.clone(),
            index: *index,
        });
        map.insert(*id, slot as u8);
    }
    FILLED.store(first + faces.len(), Ordering::Release);
    t.db = db;
    t.ids = Arc::new(map);
    let mut families: Vec<String> = Vec::new();
    for (_, _, family) in faces {
        if !families.contains(&family) {
            families.push(family);
        }
    }
    Ok(families)
}

/// Publishes a changed template: the faces' metric fonts, then a new
/// generation for the thread engines.
fn publish(t: &mut Template) {
    resolve_primary(t);
    t.generation = GENERATION.fetch_add(1, Ordering::AcqRel) + 1;
}

/// The font whose metrics each face's lines use: the face's own family at
/// its weight, stretch and style; else the first family of the fallback
/// order that is in the database, in the face's style; else the first font.
fn resolve_primary(t: &Template) {
    for face in [
        FontFace::Regular,
        FontFace::Bold,
        FontFace::Meme,
        FontFace::SerifItalic,
    ] {
        let a = attrs_with(face, t.families[face_slot(face)]);
        let query = |family: &str| {
            t.db.query(&Query {
                families: &[Family::Name(family)],
                weight: a.weight,
                stretch: a.stretch,
                style: a.style,
            })
        };
        let id =
            query(t.families[face_slot(face)]).or_else(|| t.fallback.iter().find_map(|f| query(f)));
        let slot = id.and_then(|id| t.ids.get(&id).copied()).unwrap_or(0);
        PRIMARY[face_slot(face)].store(slot, Ordering::Relaxed);
    }
}

/// Adds a font (TrueType or OpenType, or a collection of them) to the font
/// database that every layout uses, on every thread, from the next layout
/// on. Returns the family names of the faces added, in file order.
///
/// Templates ([`crate::template`]) draw the fixed text of their art
/// (labels, headings) once per process, at their first render: add fonts
/// and set families before rendering the first template.
///
/// Each new family is appended to the fallback order (unless
/// [`set_fallback_order`] has set it): characters the requested face and
/// the fonts before it lack are looked up there. To draw a face in the new
/// font, name its family with [`set_face_family`].
///
/// Fonts are never removed: the bytes are kept for the life of the process
/// (`&'static` data is used in place, owned data is not copied). Faces swash
/// cannot read are left out.
///
/// Errors: [`RenderError::InvalidFont`] when no face of `data` can be read,
/// [`RenderError::TooManyFonts`] when the database would hold more than
/// [`MAX_FONTS`] faces.
///
/// ```no_run
/// use canvas_render::text;
/// let bytes = std::fs::read("MyFont-Regular.ttf").unwrap();
/// let families = text::add_font(bytes).unwrap();
/// text::set_face_family(text::FontFace::Regular, &families[0]);
/// ```
pub fn add_font(data: impl Into<Cow<'static, [u8]>>) -> Result<Vec<String>, RenderError> {
    let data: Bytes = match data.into() {
        Cow::Borrowed(b) => Arc::new(b),
        Cow::Owned(v) => Arc::new(v),
    };
    let mut t = template();
    let families = load(&mut t, None, data)?;
    if !t.fallback_set {
        let mut order: Vec<&'static str> = t.fallback.to_vec();
        for f in &families {
            let f = intern(f);
            if !order.contains(&f) {
                order.push(f);
            }
        }
        t.fallback = order.into();
    }
    publish(&mut t);
    Ok(families)
}

/// Sets the fallback order: the families, in order, in which a character
/// that the requested face (and the fonts for the character's script) lacks
/// is looked up. Replaces the default order (see [`fallback_order`]);
/// families added later with [`add_font`] are no longer appended to it.
/// Names not in the database are skipped.
///
/// ```
/// use canvas_render::text;
/// let before = text::fallback_order();
/// // Colour emoji before anything else (Noto Sans draws some symbols that
/// // have an emoji form, such as ☺, in black and white).
/// let mut order = before.clone();
/// order.retain(|f| !f.starts_with("Noto Color Emoji"));
/// order.splice(0..0, ["Noto Color Emoji People".into(), "Noto Color Emoji Things".into()]);
/// text::set_fallback_order(&order);
/// assert_eq!(text::fallback_order()[0], "Noto Color Emoji People");
/// # text::set_fallback_order(&before);
/// ```
pub fn set_fallback_order<S: AsRef<str>>(families: &[S]) {
    let mut t = template();
    t.fallback = families.iter().map(|f| intern(f.as_ref())).collect();
    t.fallback_set = true;
    publish(&mut t);
}

/// The fallback order in force (see [`set_fallback_order`]).
pub fn fallback_order() -> Vec<String> {
    template().fallback.iter().map(|f| f.to_string()).collect()
}

/// Sets the family `face` is drawn in (its weight, stretch and style stay
/// the face's: bold for [`FontFace::Bold`] and [`FontFace::Meme`], condensed
/// for `Meme`, italic for [`FontFace::SerifItalic`]; the nearest face of the
/// family is used). The defaults are Noto Sans (`Regular`, `Bold`), DejaVu
/// Sans (`Meme`) and Noto Serif (`SerifItalic`). A family not in the
/// database falls back, character by character, to the fallback order.
/// A [`FontFace::Family`] names its family itself: setting it does nothing.
pub fn set_face_family(face: FontFace, family: &str) {
    if let FontFace::Family(_) = face {
        return;
    }
    let mut t = template();
    t.families[face_slot(face)] = intern(family);
    publish(&mut t);
}

/// The family names in the font database, each once, in the order their
/// first face was added.
pub fn font_families() -> Vec<String> {
    let t = template();
    let mut out: Vec<String> = Vec::new();
    for face in t.db.faces() {
        if let Some((f, _)) = face.families.first()
            && !out.contains(f)
        {
            out.push(f.clone());
        }
    }
    out
}

/// The font whose metrics (ascent, line height) a face's lines use.
pub(super) fn primary(face: FontFace) -> u8 {
    if let FontFace::Family(family) = face {
        return family_primary(family);
    }
    LazyLock::force(&TEMPLATE);
    PRIMARY[face_slot(face)].load(Ordering::Relaxed)
}

/// The metric font of a [`FontFace::Family`]: the family's face nearest to
/// a regular one, else the regular face's. Each thread keeps what it found
/// for the current generation of the database.
fn family_primary(family: &'static str) -> u8 {
    thread_local! {
        static FOUND: RefCell<(u64, HashMap<&'static str, u8>)> =
            RefCell::new((0, HashMap::new()));
    }
    let generation = GENERATION.load(Ordering::Acquire);
    let cached = FOUND.with_borrow(|(g, found)| {
        if *g == generation {
            found.get(family).copied()
        } else {
            None
        }
    });
    if let Some(slot) = cached {
        return slot;
    }
    let slot = {
        let t = template();
        let id = t.db.query(&Query {
            families: &[Family::Name(family)],
            weight: Weight::NORMAL,
            stretch: Stretch::Normal,
            style: Style::Normal,
        });
        id.and_then(|id| t.ids.get(&id).copied())
            .unwrap_or_else(|| PRIMARY[0].load(Ordering::Relaxed))
    };
    FOUND.with_borrow_mut(|(g, found)| {
        if *g != generation {
            found.clear();
            *g = generation;
        }
        found.insert(family, slot);
    });
    slot
}

fn attrs_with(face: FontFace, family: &'static str) -> Attrs<'static> {
    let a = Attrs::new().family(Family::Name(family));
    match face {
        FontFace::Regular => a,
        FontFace::Bold => a.weight(Weight::BOLD),
        FontFace::Meme => a.weight(Weight::BOLD).stretch(Stretch::Condensed),
        FontFace::SerifItalic => a.style(Style::Italic),
        FontFace::Family(own) => Attrs::new().family(Family::Name(own)),
    }
}

/// The fallback lists, by family name.
#[derive(Debug)]
struct Chain(Arc<[&'static str]>);

const CJK: &[&str] = &["WenQuanYi Micro Hei"];

impl Fallback for Chain {
    fn common_fallback(&self) -> &[&'static str] {
        &self.0
    }

    fn forbidden_fallback(&self) -> &[&'static str] {
        &[]
    }

    fn script_fallback(&self, script: Script, _locale: &str) -> &[&'static str] {
        match script {
            Script::Arabic => &["Noto Sans Arabic", "DejaVu Sans"],
            Script::Hebrew => &["Noto Sans Hebrew", "DejaVu Sans"],
            Script::Devanagari => &["Noto Sans Devanagari"],
            Script::Bengali => &["Noto Sans Bengali"],
            Script::Tamil => &["Noto Sans Tamil"],
            Script::Thai => &["Noto Sans Thai"],
            Script::Javanese => &["Noto Sans Javanese"],
            Script::Tibetan => &["Noto Serif Tibetan"],
            Script::Han
            | Script::Hiragana
            | Script::Katakana
            | Script::Hangul
            | Script::Bopomofo => CJK,
            _ => &[],
        }
    }
}

/// A thread's shaping engine: cosmic-text over a copy of the template's
/// database (the font bytes are shared, never copied) and its caches.
pub(super) struct Engine {
    pub fs: FontSystem,
    /// Database id → slot.
    ids: Arc<HashMap<fontdb::ID, u8>>,
    families: [&'static str; 4],
    generation: u64,
}

impl Engine {
    fn new(t: Template) -> Engine {
        let fs = FontSystem::new_with_locale_and_db_and_fallback(
            "en-US".to_string(),
            t.db,
            Chain(t.fallback),
        );
        Engine {
            fs,
            ids: t.ids,
            families: t.families,
            generation: t.generation,
        }
    }

    /// The slot of a database font.
    pub fn index(&self, id: fontdb::ID) -> u8 {
        self.ids.get(&id).copied().unwrap_or(0)
    }

    /// The shaping attributes that select `face` in the database.
    pub fn attrs(&self, face: FontFace) -> Attrs<'static> {
        if let FontFace::Family(family) = face {
            // The family's face nearest to a regular one, asked for as it
            // is (shaping matches weight, style and stretch exactly): a
            // family of one bold italic face is drawn in that face.
            let db = self.fs.db();
            let found = db
                .query(&Query {
                    families: &[Family::Name(family)],
                    weight: Weight::NORMAL,
                    stretch: Stretch::Normal,
                    style: Style::Normal,
                })
                .and_then(|id| db.face(id));
            if let Some(f) = found {
                return Attrs::new()
                    .family(Family::Name(family))
                    .weight(f.weight)
                    .style(f.style)
                    .stretch(f.stretch);
            }
        }
        attrs_with(face, self.families[face_slot(face)])
    }

    /// The shaping attributes of a rich text's span over `face`: the
    /// bundled monospace family for code, the bold face for bold (italic
    /// is slanted when drawn, [`SpanLook::italic`]).
    pub fn look_attrs(&self, face: FontFace, look: &SpanLook) -> Attrs<'static> {
        if look.mono {
            Attrs::new().family(Family::Name(MONO_FAMILY))
        } else if look.bold && !matches!(face, FontFace::Family(_)) {
            self.attrs(FontFace::Bold)
        } else if look.bold {
            self.attrs(face).weight(Weight::BOLD)
        } else {
            self.attrs(face)
        }
    }
}

/// The family of monospaced spans ([`SpanLook::mono`]).
const MONO_FAMILY: &str = "DejaVu Sans Mono";

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's engine, building it on first use and again
/// after the template changed. `Err(NoFonts)` when the database is empty.
pub(super) fn with_engine<R>(f: impl FnOnce(&mut Engine) -> R) -> Result<R, RenderError> {
    check_fonts()?;
    ENGINE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let current = GENERATION.load(Ordering::Acquire);
        if slot.as_ref().is_none_or(|e| e.generation != current) {
            let t = template().clone();
            *slot = Some(Engine::new(t));
        }
        match slot.as_mut() {
            Some(engine) => Ok(f(engine)),
            None => Err(RenderError::NoFonts),
        }
    })
}

/// `Err(NoFonts)` while the font database is empty.
pub(crate) fn check_fonts() -> Result<(), RenderError> {
    LazyLock::force(&TEMPLATE);
    if FILLED.load(Ordering::Acquire) == 0 {
        Err(RenderError::NoFonts)
    } else {
        Ok(())
    }
}

/// A parsed view of font `slot` for metrics and rasterising.
pub(super) fn font_ref(slot: u8) -> Option<swash::FontRef<'static>> {
    let s: &'static Slot = SLOTS.get(slot as usize)?.get()?;
    swash::FontRef::from_index(s.bytes(), s.index as usize)
}

/// The name of font `slot`: a bundled font's file name, or an added font's
/// family.
#[cfg(test)]
pub(super) fn name(slot: u8) -> &'static str {
    SLOTS[slot as usize].get().map_or("", |s| &s.name)
}

/// Ascent and natural line height (ascent + descent) of font `slot` at
/// `size` pixels.
pub(super) fn line_metrics(slot: u8, size: f32) -> (f32, f32) {
    match font_ref(slot) {
        Some(f) => {
            let m = f.metrics(&[]).scale(size);
            (m.ascent, m.ascent + m.descent)
        }
        None => (size * 0.8, size * 1.2),
    }
}

/// Whether some font in the database has a glyph for `c`.
pub fn has_glyph(c: char) -> bool {
    LazyLock::force(&TEMPLATE);
    (0..FILLED.load(Ordering::Acquire))
        .any(|i| font_ref(i as u8).is_some_and(|f| f.charmap().map(c) != 0))
}

/// Builds this thread's shaping engine now rather than on first use (the
/// fonts themselves are never copied; each thread that lays text out builds
/// its own engine over the same bytes). Does nothing while the database is
/// empty.
pub fn preload_fonts() {
    let _ = with_engine(|_| ());
}
