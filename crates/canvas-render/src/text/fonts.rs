//! The bundled fonts and the shaping engine's font database.
//!
//! Every font is compiled into the crate (`include_bytes!`, see
//! `assets/fonts/` and the licences beside them). Nothing is read from the
//! system: the font database starts empty and only these byte slices are
//! added to it. The bytes live in the binary's read-only data, so a font costs
//! resident memory only for the pages that are read: parsing a face touches
//! its table directory and names, and a glyph's outline or bitmap is read when
//! it is first drawn.
//!
//! Fallback: a character the requested face lacks is looked up in the fonts
//! for its script (Arabic, Hebrew, Devanagari, Bengali, Tamil, Thai,
//! Javanese, Tibetan, Han, kana, Hangul), then in the common chain: Noto Sans,
//! Noto Color Emoji, DejaVu Sans, Noto Sans Symbols, Noto Sans Symbols 2,
//! Noto Sans Math (the styled letters of "fancy text" names), WenQuanYi Micro
//! Hei.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use cosmic_text::{Attrs, Fallback, Family, FontSystem, Stretch, Style, Weight};
use unicode_script::Script;

use super::FontFace;

/// One bundled font file.
pub(super) struct Bundled {
    /// File name under `assets/fonts/` (tests check which font a glyph came from).
    #[cfg_attr(not(test), allow(dead_code))]
    pub name: &'static str,
    pub data: &'static [u8],
}

macro_rules! bundled {
    ($($file:literal),* $(,)?) => {
        [$(Bundled {
            name: $file,
            data: include_bytes!(concat!("../../assets/fonts/", $file)),
        }),*]
    };
}

/// Every bundled font, in database order. Indices are the `font` of a laid
/// out glyph (`u8`), stable across threads.
pub(super) static BUNDLED: [Bundled; 22] = bundled![
    "NotoSans-Regular.ttf",
    "NotoSans-Bold.ttf",
    "NotoSerif-Italic.ttf",
    "DejaVuSans.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansArabic-Bold.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansHebrew-Bold.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansDevanagari-Bold.ttf",
    "NotoSansBengali-Regular.ttf",
    "NotoSansTamil-Regular.ttf",
    "NotoSansThai-Regular.ttf",
    "NotoSansThai-Bold.ttf",
    "NotoSansSymbols-Regular.ttf",
    "NotoSansSymbols2-Regular.ttf",
    "WenQuanYiMicroHei.ttf",
    "NotoColorEmoji.ttf",
    "NotoSansMath-Regular.ttf",
    "NotoSansJavanese-Regular.ttf",
    "NotoSerifTibetan-Regular.ttf",
];

const NOTO_REGULAR: u8 = 0;
const NOTO_BOLD: u8 = 1;
const NOTO_SERIF_ITALIC: u8 = 2;
const DEJAVU_CONDENSED_BOLD: u8 = 4;

/// The font whose metrics (ascent, line height) a face's lines use.
pub(super) fn primary(face: FontFace) -> u8 {
    match face {
        FontFace::Regular => NOTO_REGULAR,
        FontFace::Bold => NOTO_BOLD,
        FontFace::Meme => DEJAVU_CONDENSED_BOLD,
        FontFace::SerifItalic => NOTO_SERIF_ITALIC,
    }
}

/// The shaping attributes that select `face` in the database.
pub(super) fn attrs(face: FontFace) -> Attrs<'static> {
    let a = Attrs::new();
    match face {
        FontFace::Regular => a.family(Family::Name("Noto Sans")),
        FontFace::Bold => a.family(Family::Name("Noto Sans")).weight(Weight::BOLD),
        FontFace::Meme => a
            .family(Family::Name("DejaVu Sans"))
            .weight(Weight::BOLD)
            .stretch(Stretch::Condensed),
        FontFace::SerifItalic => a.family(Family::Name("Noto Serif")).style(Style::Italic),
    }
}

/// The fallback lists, by family name, over the bundled fonts only.
#[derive(Debug)]
struct BundledFallback;

const CJK: &[&str] = &["WenQuanYi Micro Hei"];

impl Fallback for BundledFallback {
    fn common_fallback(&self) -> &[&'static str] {
        &[
            "Noto Sans",
            "Noto Color Emoji",
            "DejaVu Sans",
            "Noto Sans Symbols",
            "Noto Sans Symbols2",
            "Noto Sans Math",
            "WenQuanYi Micro Hei",
        ]
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

/// A thread's shaping engine: the font database (built from [`BUNDLED`])
/// and cosmic-text's caches.
pub(super) struct Engine {
    pub fs: FontSystem,
    /// Database id → index into [`BUNDLED`].
    ids: HashMap<cosmic_text::fontdb::ID, u8>,
}

impl Engine {
    fn new() -> Engine {
        let mut db = cosmic_text::fontdb::Database::new();
        let mut ids = HashMap::new();
        for (i, font) in BUNDLED.iter().enumerate() {
            let source = cosmic_text::fontdb::Source::Binary(Arc::new(font.data));
            for id in db.load_font_source(source) {
                ids.insert(id, i as u8);
            }
        }
        let fs = FontSystem::new_with_locale_and_db_and_fallback(
            "en-US".to_string(),
            db,
            BundledFallback,
        );
        Engine { fs, ids }
    }

    /// The bundled index of a database font.
    pub fn index(&self, id: cosmic_text::fontdb::ID) -> u8 {
        self.ids.get(&id).copied().unwrap_or(NOTO_REGULAR)
    }
}

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's engine, building it on first use.
pub(super) fn with_engine<R>(f: impl FnOnce(&mut Engine) -> R) -> R {
    ENGINE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let engine = slot.get_or_insert_with(Engine::new);
        f(engine)
    })
}

/// A parsed view of bundled font `index` for metrics and rasterising.
pub(super) fn font_ref(index: u8) -> Option<swash::FontRef<'static>> {
    BUNDLED
        .get(index as usize)
        .and_then(|f| swash::FontRef::from_index(f.data, 0))
}

/// Ascent and natural line height (ascent + descent) of font `index` at
/// `size` pixels.
pub(super) fn line_metrics(index: u8, size: f32) -> (f32, f32) {
    match font_ref(index) {
        Some(f) => {
            let m = f.metrics(&[]).scale(size);
            (m.ascent, m.ascent + m.descent)
        }
        None => (size * 0.8, size * 1.2),
    }
}

/// Whether some bundled font has a glyph for `c`.
pub fn has_glyph(c: char) -> bool {
    (0..BUNDLED.len() as u8).any(|i| font_ref(i).is_some_and(|f| f.charmap().map(c) != 0))
}

/// Builds this thread's shaping engine now rather than on first use (the
/// fonts themselves are never copied; each thread that lays text out builds
/// its own database over the same bytes).
pub fn preload_fonts() {
    with_engine(|_| ());
}
