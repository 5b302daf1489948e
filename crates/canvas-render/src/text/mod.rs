//! Text layout and drawing with the bundled fonts.
//!
//! The module is split by concern: [`style`](TextStyle) (faces, alignment,
//! outline, boxes), `fonts` (the font database: bundled and added fonts,
//! fallback chains and the shaping engine), `layout` (lines, shrink-to-fit,
//! truncation) and `raster` (glyph images and blending).
//!
//! **Libraries, not hand-written text code.** Shaping (harfrust: Arabic
//! joining, Indic reordering and conjuncts, Thai marks, ligatures, kerning),
//! the Unicode Bidi Algorithm (mixed right-to-left and left-to-right text in
//! one line), UAX #14 line breaking and per-character font fallback come from
//! cosmic-text; glyphs are rasterised with swash, colour emoji included
//! (Noto Color Emoji's CBDT bitmaps: ZWJ sequences, skin tones, keycaps and
//! flags are ligatures of that font). Truncation cuts only at grapheme-cluster
//! boundaries (unicode-segmentation).
//!
//! **Fonts** are never read from the system. The bundled ones come from the
//! font crates of the `font-latin`, `font-scripts` and `font-emoji` features
//! (all on by default, through `bundled-fonts`), compiled in, with their
//! licences beside them. Coverage: Latin, Greek,
//! Cyrillic (Noto Sans, Noto Serif, DejaVu Sans); Arabic, Hebrew, Devanagari,
//! Bengali, Tamil, Thai (Noto Sans script fonts); Chinese (simplified and
//! traditional), Japanese kana and Korean Hangul (WenQuanYi Micro Hei); colour
//! emoji (Noto Color Emoji); symbols (Noto Sans Symbols and Symbols 2, DejaVu
//! Sans: arrows, maths, dingbats, box drawing, Armenian, Georgian). A
//! character no font has is drawn as the font's `.notdef` box ("tofu"),
//! counted by [`TextLayout::missing_glyphs`].
//!
//! **Your own fonts**: [`add_font`] adds font bytes to the database every
//! layout uses (on every thread, from the next layout on),
//! [`set_face_family`] draws a face in a family and [`set_fallback_order`]
//! sets the families tried for characters the face lacks. Without bundled
//! fonts (`default-features = false`) and before any font is added, layout
//! returns [`RenderError::NoFonts`].
//!
//! ```
//! use canvas_render::text::{self, FontFace, TextBox, TextStyle};
//! // Any TrueType/OpenType bytes: read from a file, fetched, or compiled in.
//! // (Here one of the bundled files, so that the example runs anywhere.)
//! # let bytes: Vec<u8> = menagerie_fonts_latin::NOTO_SERIF_ITALIC.to_vec();
//! let families = text::add_font(bytes)?;
//! assert_eq!(families, ["Noto Serif"]);
//! text::set_face_family(FontFace::Bold, "Noto Serif");
//! let style = TextStyle::new(FontFace::Bold, 32.0);
//! let mut card = canvas_render::solid(300, 60, [255, 255, 255])?;
//! let area = TextBox::new(8.0, 8.0, 284.0, 44.0);
//! let layout = text::fit_text("A card in my font", &style, area, 10.0)?;
//! text::draw_layout(&mut card, &layout, &style, area);
//! # text::set_face_family(FontFace::Bold, "Noto Sans");
//! # Ok::<(), canvas_render::RenderError>(())
//! ```
//!
//! Text is sanitised before layout: `\r\n`, `\r` and other line
//! separators become `\n`, tabs become a space, other control characters are
//! removed. None of this can panic.
//!
//! Every font size and box is validated ([`MIN_FONT_SIZE`]..=[`MAX_FONT_SIZE`],
//! finite, non-negative boxes) before the engine sees it.
//!
//! ```
//! use canvas_render::text::{self, FontFace, TextBox, TextStyle};
//! let mut img = canvas_render::solid(200, 80, [255, 255, 255]).unwrap();
//! let style = TextStyle::new(FontFace::Bold, 40.0).color([20, 20, 20, 255]);
//! let area = TextBox::new(10.0, 10.0, 180.0, 60.0);
//! // Shrinks the text until it fits the box (never below 10 px).
//! let layout = text::fit_text("Ηello, Привет, سارة 🌸 ユウキ", &style, area, 10.0).unwrap();
//! assert!(layout.font_size() <= 40.0 && layout.height() <= 60.0);
//! assert_eq!(layout.missing_glyphs(), 0);
//! text::draw_layout(&mut img, &layout, &style, area);
//! assert!(img.pixels().any(|p| p.0[0] < 128)); // some ink was drawn
//! ```

mod fonts;
pub(crate) use fonts::generation as font_generation;
mod layout;
mod raster;
mod style;

pub(crate) use fonts::check_fonts;
pub use fonts::{
    MAX_FONTS, add_font, fallback_order, font_families, has_glyph, preload_fonts, set_face_family,
    set_fallback_order,
};
pub use layout::TextLayout;
pub(crate) use raster::{Target, glyph_bounds};
pub use style::{Align, FontFace, Outline, TextBox, TextStyle, VAlign};

use crate::{RenderError, RgbaImage};

/// The smallest font size, in pixels, accepted anywhere in this crate.
pub const MIN_FONT_SIZE: f32 = 4.0;
/// The largest font size, in pixels, accepted anywhere in this crate.
pub const MAX_FONT_SIZE: f32 = 400.0;
/// The largest outline width, in pixels.
pub const MAX_OUTLINE_WIDTH: f32 = 24.0;
/// The most characters any single layout call accepts (after sanitising).
/// Template parameters have lower, per-field caps ([`crate::template::ParamKind::Text`]).
pub const MAX_LAYOUT_CHARS: usize = 4000;

/// Checks that `size` is a usable font size (finite, within
/// [`MIN_FONT_SIZE`]`..=`[`MAX_FONT_SIZE`]).
pub fn check_font_size(size: f32) -> Result<(), RenderError> {
    if size.is_finite() && (MIN_FONT_SIZE..=MAX_FONT_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(RenderError::InvalidFontSize)
    }
}

/// Checks `text` against a character cap: `Err(TextTooLong)` when it has more
/// than `max` characters (Unicode scalar values). `field` names the parameter
/// in the error.
pub(crate) fn check_length(field: &'static str, text: &str, max: usize) -> Result<(), RenderError> {
    let len = text.chars().count();
    if len > max {
        Err(RenderError::TextTooLong { field, max, len })
    } else {
        Ok(())
    }
}

/// Normalises text for drawing: line separators (`\r\n`, `\r`, U+0085,
/// U+2028, U+2029) become `\n`, tabs become a space, every other control
/// character (Unicode category Cc) is removed.
pub(crate) fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push('\n'),
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `value` (a user's text) isolated for drawing beside our own words: in
/// a first-strong isolate (U+2068 … U+2069), so a name in a right-to-left
/// script keeps its own direction without turning the sentence around it
/// ("محمد lied." stays a left-to-right line that begins with the name).
/// The explicit embeddings, overrides and isolates of `value` itself
/// (U+202A–U+202E, U+2066–U+2069) are dropped, so no name can close the
/// isolate early or flip the words after it; marks (U+200E, U+200F) stay.
///
/// ```
/// assert_eq!(
///     canvas_render::text::isolate("a\u{202E}b\u{2069}"),
///     "\u{2068}ab\u{2069}"
/// );
/// ```
pub fn isolate(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 6);
    out.push('\u{2068}');
    out.extend(
        value
            .chars()
            .filter(|c| !matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')),
    );
    out.push('\u{2069}');
    out
}

/// Validates `style` and `max_width`, then sanitises `text` and checks its
/// length.
fn prepare(text: &str, style: &TextStyle, max_width: f32) -> Result<String, RenderError> {
    style.validate()?;
    style::check_width(max_width)?;
    let clean = sanitize(text);
    check_length("text", &clean, MAX_LAYOUT_CHARS)?;
    Ok(clean)
}

/// Lays `text` out at `style.size`, wrapping lines to `max_width` pixels at
/// UAX #14 break opportunities; a word longer than a line is broken between
/// grapheme clusters. `\n` starts a new line. The text is sanitised first (see the module documentation).
pub fn layout_text(
    text: &str,
    style: &TextStyle,
    max_width: f32,
) -> Result<TextLayout, RenderError> {
    let clean = prepare(text, style, max_width)?;
    let lines = fonts::with_engine(|engine| {
        layout::Shaped::new(engine, &clean, style.face).lines(engine, style.size, max_width)
    })?;
    Ok(layout::finish(style, style.size, lines, false))
}

/// Shrink-to-fit: lays `text` out in `area` at the largest size between
/// `min_size` and `style.size` (in steps of half a pixel) at which the wrapped
/// block fits the box. If even `min_size` is too big, the text is laid out at
/// `min_size`, cut (at a grapheme-cluster boundary) to the lines that fit, and
/// ends with "…" ([`TextLayout::is_truncated`]).
pub fn fit_text(
    text: &str,
    style: &TextStyle,
    area: TextBox,
    min_size: f32,
) -> Result<TextLayout, RenderError> {
    fit_spans(sanitize(text), &[], style, area, min_size)
}

/// How a span of a rich text ([`fit_rich`]) differs from its style: its
/// weight, slant, family, colour, a line through it and a rounded chip
/// behind it. The default is the style itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct SpanLook {
    /// Drawn in the bold face.
    pub bold: bool,
    /// Slanted (12°, a synthetic italic: every bundled face is upright).
    pub italic: bool,
    /// Drawn in the bundled monospaced family (DejaVu Sans Mono); `bold`
    /// is then ignored.
    pub mono: bool,
    /// Struck through, in the span's colour.
    pub strike: bool,
    /// Its colour instead of the style's, straight RGBA.
    pub color: Option<[u8; 4]>,
    /// A rounded chip in this colour behind the span (inline code, a
    /// mention), straight RGBA.
    pub chip: Option<[u8; 4]>,
}

/// Something drawn with a rich text's glyphs ([`TextLayout::decorations`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decoration {
    /// Its box, `(x, y, width, height)`, in the drawing's pixels.
    pub area: (f32, f32, f32, f32),
    /// Its colour, straight RGBA.
    pub color: [u8; 4],
    /// A chip behind the glyphs (rounded, drawn before them); else a line
    /// through them (drawn after them).
    pub chip: bool,
}

/// [`fit_text`] for a rich text: `text` with the looks of `spans`, byte
/// ranges of it in order (a span that overlaps the one before, is empty or
/// does not fall on character boundaries is drawn in the style's look).
/// Every script, emoji and fallback font shapes as in plain text; a text
/// cut with "…" keeps its spans up to the cut. The text is sanitised piece
/// by piece, the spans following it.
pub fn fit_rich(
    text: &str,
    spans: &[(std::ops::Range<usize>, SpanLook)],
    style: &TextStyle,
    area: TextBox,
    min_size: f32,
) -> Result<TextLayout, RenderError> {
    // Sanitised between span boundaries, so the ranges follow the text.
    let mut parts: Vec<(String, Option<SpanLook>)> = Vec::with_capacity(spans.len() * 2 + 1);
    let mut at = 0;
    for (range, look) in spans {
        let ok = range.start >= at
            && range.start < range.end
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end);
        if !ok {
            continue;
        }
        parts.push((sanitize(&text[at..range.start]), None));
        parts.push((sanitize(&text[range.clone()]), Some(*look)));
        at = range.end;
    }
    parts.push((sanitize(&text[at..]), None));
    // The shaper keeps the runs of one word in their logical order, which
    // a right-to-left word with two looks (a bold word and its "!") would
    // show the wrong way round: in a text with right-to-left letters, a
    // zero-width space parts two looks that meet inside a word.
    let rtl = text.chars().any(is_rtl);
    let mut clean = String::with_capacity(text.len() + 3 * parts.len());
    let mut kept = Vec::with_capacity(spans.len());
    for (part, look) in parts.iter().filter(|(p, _)| !p.is_empty()) {
        let inside_word = clean
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace())
            && part.chars().next().is_some_and(|c| !c.is_whitespace());
        if rtl && inside_word {
            clean.push('\u{200B}');
        }
        let start = clean.len();
        clean.push_str(part);
        if let Some(look) = look {
            kept.push((start..clean.len(), *look));
        }
    }
    let mut layout = fit_spans(clean, &kept, style, area, min_size)?;
    layout.looks = kept.iter().map(|(_, l)| *l).collect();
    Ok(layout)
}

/// Whether `c` is a letter of a right-to-left script (Hebrew, Arabic,
/// Syriac, Thaana, N'Ko and their presentation forms, the historic ones).
fn is_rtl(c: char) -> bool {
    matches!(c,
        '\u{0590}'..='\u{08FF}'
        | '\u{FB1D}'..='\u{FDFF}'
        | '\u{FE70}'..='\u{FEFF}'
        | '\u{10800}'..='\u{10FFF}'
        | '\u{1E800}'..='\u{1EFFF}')
}

fn fit_spans(
    clean: String,
    spans: &[layout::Span],
    style: &TextStyle,
    area: TextBox,
    min_size: f32,
) -> Result<TextLayout, RenderError> {
    style.validate()?;
    area.validate()?;
    check_font_size(min_size)?;
    let min_size = min_size.min(style.size);
    check_length("text", &clean, MAX_LAYOUT_CHARS)?;
    let width = (area.width - style.outline_extent() * 2.0).max(1.0);
    fonts::with_engine(|engine| {
        // Shaped once; each size only re-breaks the lines.
        let mut shaped = layout::Shaped::rich(engine, &clean, style.face, spans);
        let mut fits = |size: f32| {
            let lines = shaped.lines(engine, size, width);
            let l = layout::finish(style, size, lines, false);
            (l.block_height <= area.height).then_some(l)
        };
        if let Some(l) = fits(style.size) {
            return l;
        }
        // Binary search over half-pixel steps.
        let (mut lo, mut hi) = (
            (min_size * 2.0).ceil() as i32,
            (style.size * 2.0).floor() as i32,
        );
        let mut best: Option<TextLayout> = None;
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            match fits(mid as f32 / 2.0) {
                Some(l) => {
                    best = Some(l);
                    lo = mid + 1;
                }
                None => hi = mid - 1,
            }
        }
        if let Some(l) = best {
            return l;
        }
        let max_lines = layout::max_lines_for(style, min_size, area.height);
        let lines = shaped.lines(engine, min_size, width);
        let (lines, truncated) = layout::cut_to(
            engine, &clean, spans, style.face, min_size, width, max_lines, lines,
        );
        layout::finish(style, min_size, lines, truncated)
    })
}

/// Lays `text` out on one line (newlines become spaces) at `style.size`,
/// cutting it with "…" (at a grapheme-cluster boundary) when wider than
/// `max_width`.
pub(crate) fn fit_single_line(
    text: &str,
    style: &TextStyle,
    max_width: f32,
) -> Result<TextLayout, RenderError> {
    let clean = prepare(text, style, max_width)?.replace('\n', " ");
    let width = (max_width - style.outline_extent() * 2.0).max(1.0);
    let (lines, truncated) = fonts::with_engine(|engine| {
        let lines =
            layout::Shaped::new(engine, &clean, style.face).lines(engine, style.size, width);
        layout::cut_to(engine, &clean, &[], style.face, style.size, width, 1, lines)
    })?;
    Ok(layout::finish(style, style.size, lines, truncated))
}

/// Draws a layout (from [`layout_text`] or [`fit_text`]) into `image`, inside
/// `area`, with the alignment, colour and outline of `style`. Glyphs outside
/// the image are clipped. `style` should be the one the layout was made with
/// (its size is taken from the layout; the outline scales with it).
pub fn draw_layout(image: &mut RgbaImage, layout: &TextLayout, style: &TextStyle, area: TextBox) {
    let (w, h) = image.dimensions();
    let mut target = Target {
        data: image,
        width: w as usize,
        height: h as usize,
        premultiplied: false,
    };
    target.draw(layout, style, area);
}

/// Cap on a person's name drawn by a scene or template (usernames, display
/// names), in characters.
pub(crate) const MAX_NAME_CHARS: usize = 64;

/// Formats a counter the way social sites do: `999`, `1,337`, `12.8K`, `4.2M`.
pub(crate) fn format_count(n: u64) -> String {
    format_count_from(n, 10_000)
}

/// Formats a counter as [`format_count`] does, but in units (`3.4K`) from
/// `compact_from` (at least 1,000) on: below it `999`, `1,337`.
pub(crate) fn format_count_from(n: u64, compact_from: u64) -> String {
    if n < compact_from.max(1_000) {
        let s = n.to_string();
        if n >= 1000 {
            format!("{},{}", &s[..s.len() - 3], &s[s.len() - 3..])
        } else {
            s
        }
    } else if n < 1_000_000 {
        trim_decimal(n as f64 / 1000.0, "K")
    } else if n < 1_000_000_000 {
        trim_decimal(n as f64 / 1_000_000.0, "M")
    } else {
        trim_decimal(n as f64 / 1_000_000_000.0, "B")
    }
}

fn trim_decimal(v: f64, unit: &str) -> String {
    let v = (v * 10.0).floor() / 10.0;
    if v >= 100.0 || v.fract() == 0.0 {
        format!("{}{unit}", v.floor() as u64)
    } else {
        format!("{v:.1}{unit}")
    }
}

#[cfg(test)]
mod tests {
    use unicode_segmentation::UnicodeSegmentation;

    use super::*;

    fn style() -> TextStyle {
        TextStyle::new(FontFace::Regular, 20.0)
    }

    fn one_line(text: &str) -> TextLayout {
        layout_text(text, &style(), 4000.0).unwrap()
    }

    #[test]
    fn fonts_cover_the_scripts() {
        for c in [
            'A', 'é', 'Ω', 'λ', 'Ж', 'я', 'ß', '€', 'ש', 'س', 'ह', 'ক', 'த', 'ก', '中', '體', 'あ',
            'カ', '한', '✨', '😀', '→', '∑', '♞',
        ] {
            assert!(has_glyph(c), "{c}");
        }
        assert!(!has_glyph('\u{13000}')); // Egyptian hieroglyphs: not bundled
    }

    #[test]
    fn every_face_resolves_to_its_own_font() {
        for (face, want) in [
            (FontFace::Regular, "NotoSans-Regular.ttf"),
            (FontFace::Bold, "NotoSans-Bold.ttf"),
            (FontFace::Meme, "DejaVuSansCondensed-Bold.ttf"),
            (FontFace::SerifItalic, "NotoSerif-Italic.ttf"),
        ] {
            let l = layout_text("Ag", &TextStyle::new(face, 20.0), 500.0).unwrap();
            for g in &l.lines[0].glyphs {
                assert_eq!(fonts::name(g.font), want, "{face:?}");
            }
        }
    }

    /// A typed prefix taken from the whole text's layout draws the glyphs
    /// laying out the prefix alone draws, at the same places (one line,
    /// left to right), and counts clusters, not bytes or glyphs.
    #[test]
    fn first_graphemes_are_the_prefix_laid_out() {
        let text = "Ferris was not the impostor. Café 👍🏽!";
        let whole = one_line(text);
        let count = text.graphemes(true).count();
        for n in [0, 1, 6, 7, 20, count - 2, count - 1, count] {
            let prefix: String = text.graphemes(true).take(n).collect();
            let alone = one_line(&prefix);
            let typed = whole.first_graphemes(n);
            let glyphs = |l: &TextLayout| -> Vec<(u16, i32, i32)> {
                l.lines[0]
                    .glyphs
                    .iter()
                    .map(|g| {
                        (
                            g.id,
                            (g.x * 64.0).round() as i32,
                            (g.y * 64.0).round() as i32,
                        )
                    })
                    .collect()
            };
            assert_eq!(glyphs(&typed), glyphs(&alone), "{n}: {prefix:?}");
        }
        assert_eq!(whole.first_graphemes(count), whole);
    }

    #[test]
    fn wraps_at_word_boundaries() {
        let l = layout_text("one two three four five six", &style(), 80.0).unwrap();
        assert!(l.line_count() >= 3, "{}", l.line_count());
        assert!(l.width() <= 80.0);
        assert_eq!(one_line("one two three four five six").line_count(), 1);
    }

    #[test]
    fn newlines_start_lines_and_long_words_break() {
        assert_eq!(
            layout_text("a\nb\n\nc", &style(), 500.0)
                .unwrap()
                .line_count(),
            4
        );
        let l = layout_text(&"x".repeat(200), &style(), 100.0).unwrap();
        assert!(l.line_count() > 10);
        assert!(l.width() <= 100.0);
    }

    #[test]
    fn cjk_breaks_between_ideographs() {
        let text = "今日はとても良い天気ですね。散歩に行きましょう。";
        let l = layout_text(text, &style(), 120.0).unwrap();
        assert!(l.line_count() >= 3);
        assert!(l.width() <= 120.0);
        assert_eq!(l.missing_glyphs(), 0);
    }

    #[test]
    fn shrink_to_fit_shrinks_and_truncates() {
        let area = TextBox::new(0.0, 0.0, 300.0, 90.0);
        let s = TextStyle::new(FontFace::Bold, 60.0);
        let short = fit_text("hi", &s, area, 8.0).unwrap();
        assert_eq!(short.font_size(), 60.0);
        let long = fit_text(&"lorem ipsum ".repeat(20), &s, area, 8.0).unwrap();
        assert!(long.font_size() < 30.0);
        assert!(long.height() <= 90.0);
        assert!(!long.is_truncated());
        let huge = fit_text(&"lorem ipsum ".repeat(300), &s, area, 12.0).unwrap();
        assert!(huge.is_truncated());
        assert!(huge.height() <= 90.0);
        assert_eq!(huge.font_size(), 12.0);
    }

    #[test]
    fn arabic_is_joined_and_right_to_left() {
        // Joined: س takes its initial form, not the isolated one, and lam +
        // alef become one ligature (4 letters, 3 glyphs).
        let word = one_line("سلام");
        let glyphs = &word.lines[0].glyphs;
        assert_eq!(glyphs.len(), 3);
        assert_eq!(word.missing_glyphs(), 0);
        let isolated = one_line("س").lines[0].glyphs[0];
        assert_eq!(fonts::name(isolated.font), "NotoSansArabic-Regular.ttf");
        assert_eq!(glyphs[0].font, isolated.font);
        assert_ne!(glyphs[0].id, isolated.id, "initial form");
        // Right to left: the first letter is drawn rightmost.
        let xs: Vec<f32> = glyphs.iter().map(|g| g.x).collect();
        assert!(xs.windows(2).all(|w| w[0] > w[1]), "{xs:?}");
    }

    #[test]
    fn mixed_direction_line_is_reordered() {
        // "abc" then Hebrew "שלום" then "xyz": the Hebrew run sits between the
        // Latin runs and reads right to left.
        let l = one_line("abc שלום xyz");
        let g = &l.lines[0].glyphs;
        assert_eq!(g.len(), 10);
        let hebrew: Vec<&layout::Glyph> = g
            .iter()
            .filter(|g| fonts::name(g.font).contains("Hebrew"))
            .collect();
        assert_eq!(hebrew.len(), 4);
        // The Hebrew glyphs are between the two Latin runs.
        let latin_left = g[..3]
            .iter()
            .all(|g| !fonts::name(g.font).contains("Hebrew"));
        assert!(latin_left);
        // Shin (first logical letter) is drawn to the right of final mem.
        let shin = one_line("ש").lines[0].glyphs[0].id;
        let mem = one_line("ם").lines[0].glyphs[0].id;
        let x_of = |id: u16| hebrew.iter().find(|g| g.id == id).map(|g| g.x).unwrap();
        assert!(x_of(shin) > x_of(mem));
    }

    #[test]
    fn devanagari_and_thai_are_shaped() {
        // क्ष is a conjunct: fewer glyphs than characters.
        let l = one_line("क्षत्रिय");
        assert!(l.glyph_count() < "क्षत्रिय".chars().count());
        assert_eq!(l.missing_glyphs(), 0);
        assert_eq!(one_line("สวัสดีครับ").missing_glyphs(), 0);
    }

    #[test]
    fn emoji_sequences_are_single_colour_glyphs() {
        for seq in ["👨‍👩‍👧", "👍🏽", "1️⃣", "🇯🇵", "🏳️‍🌈", "❤️"]
        {
            let l = one_line(seq);
            assert_eq!(l.glyph_count(), 1, "{seq}");
            assert_eq!(l.missing_glyphs(), 0, "{seq}");
            let g = l.lines[0].glyphs[0];
            assert!(
                fonts::name(g.font).starts_with("NotoColorEmoji-"),
                "{seq}: {}",
                fonts::name(g.font)
            );
        }
        // Drawn in colour, even with black text.
        let mut img = crate::limits::solid(80, 60, [255, 255, 255]).unwrap();
        let l = one_line("🌸");
        draw_layout(&mut img, &l, &style(), TextBox::new(4.0, 4.0, 70.0, 50.0));
        assert!(
            img.pixels().any(|p| p.0[0] as u16 > p.0[1] as u16 + 40),
            "pink petals drawn"
        );
    }

    #[test]
    fn truncation_never_cuts_a_cluster() {
        let s = TextStyle::new(FontFace::Regular, 30.0);
        for text in [
            "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧",
            "🇯🇵🇫🇷🇧🇷🇰🇷🇺🇸🇩🇪🇮🇳🇪🇸🇮🇹",
            "नमस्ते दुनिया क्षत्रिय नमस्ते",
            "é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃é̃",
        ] {
            let l = fit_single_line(text, &s, 150.0).unwrap();
            assert!(l.is_truncated(), "{text}");
            assert!(l.width() <= 150.0, "{text}: {}", l.width());
            assert_eq!(l.missing_glyphs(), 0, "{text}");
        }
    }

    #[test]
    fn invalid_sizes_are_errors() {
        for size in [f32::NAN, f32::INFINITY, -1.0, 0.0, 1.0, 10_000.0] {
            let s = TextStyle::new(FontFace::Regular, size);
            assert_eq!(
                layout_text("a", &s, 100.0),
                Err(RenderError::InvalidFontSize)
            );
        }
        assert_eq!(
            layout_text("a", &style(), f32::NAN),
            Err(RenderError::InvalidTextBox)
        );
        let bad = TextBox::new(0.0, 0.0, -5.0, 10.0);
        assert_eq!(
            fit_text("a", &style(), bad, 8.0),
            Err(RenderError::InvalidTextBox)
        );
        assert!(layout_text("a", &style().outline([0; 4], f32::NAN), 10.0).is_err());
    }

    #[test]
    fn caps_are_enforced() {
        assert!(check_length("comment", &"é".repeat(10), 10).is_ok());
        assert_eq!(
            check_length("comment", &"é".repeat(11), 10),
            Err(RenderError::TextTooLong {
                field: "comment",
                max: 10,
                len: 11
            })
        );
        assert!(layout_text(&"a".repeat(MAX_LAYOUT_CHARS + 1), &style(), 100.0).is_err());
    }

    #[test]
    fn sanitize_strips_controls() {
        assert_eq!(sanitize("a\r\nb\rc\u{7}d\te\u{2028}f"), "a\nb\ncd e\nf");
    }

    #[test]
    fn tofu_is_counted_and_drawn() {
        let mut img = crate::limits::solid(120, 40, [255, 255, 255]).unwrap();
        let s = style();
        let l = layout_text("\u{13000}", &s, 100.0).unwrap();
        assert_eq!(l.line_count(), 1);
        assert_eq!(l.missing_glyphs(), 1);
        assert!(l.width() > 5.0);
        draw_layout(&mut img, &l, &s, TextBox::new(2.0, 2.0, 100.0, 30.0));
        assert!(img.pixels().any(|p| p.0[0] < 128), "tofu box drawn");
        // Invisible characters take no room and are no tofu.
        let z = layout_text("\u{200D}\u{FE0F}\u{200B}", &s, 100.0).unwrap();
        assert_eq!(z.missing_glyphs(), 0);
        assert!(z.width() < 1.0, "{}", z.width());
    }

    #[test]
    fn outline_draws_two_colours() {
        let mut img = crate::limits::solid(300, 100, [0, 128, 0]).unwrap();
        let s = TextStyle::meme(60.0);
        let area = TextBox::new(0.0, 0.0, 300.0, 100.0);
        let l = fit_text("NO", &s, area, 10.0).unwrap();
        draw_layout(&mut img, &l, &s, area);
        assert!(img.pixels().any(|p| p.0 == [255, 255, 255, 255]));
        assert!(img.pixels().any(|p| p.0 == [0, 0, 0, 255]));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,80}|.{0,40}|[\\u{0}-\\u{ffff}]{0,60}", size in 4.0f32..120.0, w in 1.0f32..600.0) {
            let mut img = crate::limits::solid(64, 64, [9, 9, 9]).unwrap();
            for face in [FontFace::Regular, FontFace::Meme] {
                let s = TextStyle::new(face, size).outline([0, 0, 0, 255], 2.0).align(Align::Center);
                let l = layout_text(&text, &s, w).unwrap();
                draw_layout(&mut img, &l, &s, TextBox::new(-3.0, 0.0, w, 64.0));
                let area = TextBox::new(0.0, 0.0, w, 40.0);
                let f = fit_text(&text, &s, area, 4.0).unwrap();
                draw_layout(&mut img, &f, &s, area);
                let one = fit_single_line(&text, &s, w).unwrap();
                proptest::prop_assert!(one.line_count() == 1);
            }
        }
    }

    #[test]
    fn counts_format() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1337), "1,337");
        assert_eq!(format_count(12_800), "12.8K");
        assert_eq!(format_count(250_000), "250K");
        assert_eq!(format_count(4_210_000), "4.2M");
        assert_eq!(format_count(u64::MAX), "18446744073B");
        assert_eq!(format_count_from(3_420, 1_000), "3.4K");
        assert_eq!(format_count_from(999, 1_000), "999");
        assert_eq!(format_count_from(3_420, 10_000), "3,420");
        assert_eq!(format_count_from(3_420, 0), "3.4K");
    }
}
