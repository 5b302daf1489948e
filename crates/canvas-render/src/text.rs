//! Text layout and drawing with the bundled fonts.
//!
//! The fonts are compiled into the crate (`include_bytes!`) and parsed once,
//! on first use; system fonts are never read. Every character is looked up
//! along a fallback chain: the requested [`FontFace`], then Noto Sans, then
//! DejaVu Sans (which adds Armenian, Georgian, Hebrew, Arabic letters and many
//! symbols). Latin, Greek and Cyrillic are covered by every face. A character
//! no font has is drawn as an outlined box ("tofu"); zero-width format
//! characters (joiners, bidi controls, variation selectors) that no font has
//! are skipped silently.
//!
//! Text is sanitised before layout: `\r\n`, `\r` and other line
//! separators become `\n`, tabs become a space, other control characters are
//! removed. Layout is left to right in logical order: right-to-left scripts
//! are drawn without reordering, emoji (no colour font is bundled) come out as
//! tofu, and combining marks use the font's mark offsets. None of these can
//! panic.
//!
//! Every font size and box is validated ([`MIN_FONT_SIZE`]..=[`MAX_FONT_SIZE`],
//! finite, non-negative boxes) before fontdue sees it.
//!
//! ```
//! use canvas_render::text::{self, FontFace, TextBox, TextStyle};
//! let mut img = canvas_render::solid(200, 80, [255, 255, 255]).unwrap();
//! let style = TextStyle::new(FontFace::Bold, 40.0).color([20, 20, 20, 255]);
//! let area = TextBox::new(10.0, 10.0, 180.0, 60.0);
//! // Shrinks the text until it fits the box (never below 10 px).
//! let layout = text::fit_text("Ηello, Привет, world!", &style, area, 10.0).unwrap();
//! assert!(layout.font_size() <= 40.0 && layout.height() <= 60.0);
//! text::draw_layout(&mut img, &layout, &style, area);
//! assert!(img.pixels().any(|p| p.0[0] < 128)); // some ink was drawn
//! ```

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use fontdue::{Font, FontSettings};

use crate::{RenderError, RgbaImage};

/// The smallest font size, in pixels, accepted anywhere in this crate.
pub const MIN_FONT_SIZE: f32 = 4.0;
/// The largest font size, in pixels, accepted anywhere in this crate.
pub const MAX_FONT_SIZE: f32 = 400.0;
/// The largest outline width, in pixels.
pub const MAX_OUTLINE_WIDTH: f32 = 24.0;
/// The most characters any single layout call accepts (after sanitising).
/// Scene parameters have lower, per-field caps (see [`crate::scene`]).
pub const MAX_LAYOUT_CHARS: usize = 4000;

/// Upper limit on the number of cached glyph bitmaps before the cache is reset.
const GLYPH_CACHE_LIMIT: usize = 8192;
/// Upper limit on the bytes of cached glyph coverage before the cache is reset
/// (sizes chosen by shrink-to-fit vary, so entries are bounded by bytes too).
const GLYPH_CACHE_BYTES: usize = 24 << 20;

/// A typeface bundled with the crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FontFace {
    /// Noto Sans Regular: body text.
    Regular,
    /// Noto Sans Bold: names, headings.
    Bold,
    /// DejaVu Sans Condensed Bold: heavy, narrow meme captions.
    Meme,
    /// Noto Serif Italic: quotations.
    SerifItalic,
}

/// Horizontal alignment of each line inside its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Align {
    /// Flush left.
    #[default]
    Left,
    /// Centred.
    Center,
    /// Flush right.
    Right,
}

/// Vertical placement of the whole text block inside its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum VAlign {
    /// At the top of the box.
    #[default]
    Top,
    /// Centred vertically.
    Middle,
    /// At the bottom of the box.
    Bottom,
}

/// An outline drawn around every glyph (meme text).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outline {
    /// Outline colour, straight (non-premultiplied) RGBA.
    pub color: [u8; 4],
    /// Outline width in pixels at the style's nominal size; it scales with
    /// the size chosen by [`fit_text`]. `0 < width <= MAX_OUTLINE_WIDTH`.
    pub width: f32,
}

/// How text looks: face, size, colour, alignment and optional outline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextStyle {
    /// The first font of the fallback chain.
    pub face: FontFace,
    /// Font size in pixels (the em size), `MIN_FONT_SIZE..=MAX_FONT_SIZE`.
    pub size: f32,
    /// Fill colour, straight RGBA.
    pub color: [u8; 4],
    /// Horizontal alignment.
    pub align: Align,
    /// Vertical alignment of the block within its box.
    pub valign: VAlign,
    /// Line height as a multiple of the font's natural line height, `0.5..=3`.
    pub line_spacing: f32,
    /// Optional outline.
    pub outline: Option<Outline>,
}

impl TextStyle {
    /// Black, left/top-aligned text of `face` at `size` pixels.
    pub fn new(face: FontFace, size: f32) -> Self {
        TextStyle {
            face,
            size,
            color: [0, 0, 0, 255],
            align: Align::Left,
            valign: VAlign::Top,
            line_spacing: 1.0,
            outline: None,
        }
    }
    /// Sets the fill colour.
    pub fn color(mut self, color: [u8; 4]) -> Self {
        self.color = color;
        self
    }
    /// Sets the horizontal alignment.
    pub fn align(mut self, align: Align) -> Self {
        self.align = align;
        self
    }
    /// Sets the vertical alignment.
    pub fn valign(mut self, valign: VAlign) -> Self {
        self.valign = valign;
        self
    }
    /// Sets the line spacing multiplier.
    pub fn line_spacing(mut self, spacing: f32) -> Self {
        self.line_spacing = spacing;
        self
    }
    /// Adds an outline.
    pub fn outline(mut self, color: [u8; 4], width: f32) -> Self {
        self.outline = Some(Outline { color, width });
        self
    }
    /// White text with a black outline of `size / 12` pixels in the meme face,
    /// centred: the classic meme caption.
    pub fn meme(size: f32) -> Self {
        TextStyle::new(FontFace::Meme, size)
            .color([255, 255, 255, 255])
            .align(Align::Center)
            .outline([0, 0, 0, 255], (size / 12.0).clamp(1.0, MAX_OUTLINE_WIDTH))
    }

    fn validate(&self) -> Result<(), RenderError> {
        check_font_size(self.size)?;
        if !(self.line_spacing.is_finite() && (0.5..=3.0).contains(&self.line_spacing)) {
            return Err(RenderError::InvalidTextStyle(
                "line spacing must be within 0.5..=3",
            ));
        }
        if let Some(o) = self.outline {
            if !(o.width.is_finite() && o.width > 0.0 && o.width <= MAX_OUTLINE_WIDTH) {
                return Err(RenderError::InvalidTextStyle(
                    "outline width must be within (0, 24]",
                ));
            }
        }
        Ok(())
    }
}

/// A rectangle text is laid out in, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextBox {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width (finite, > 0, at most [`crate::MAX_DIMENSION`]).
    pub width: f32,
    /// Height (finite, > 0, at most [`crate::MAX_DIMENSION`]).
    pub height: f32,
}

impl TextBox {
    /// A box at `(x, y)` of `width` × `height` pixels.
    pub fn new(x: f32, y: f32, width: f32, height: f32) -> Self {
        TextBox {
            x,
            y,
            width,
            height,
        }
    }

    fn validate(&self) -> Result<(), RenderError> {
        let max = crate::MAX_DIMENSION as f32;
        let ok = |v: f32| v.is_finite() && v.abs() <= max;
        if ok(self.x)
            && ok(self.y)
            && ok(self.width)
            && ok(self.height)
            && self.width > 0.0
            && self.height > 0.0
        {
            Ok(())
        } else {
            Err(RenderError::InvalidTextBox)
        }
    }
}

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

/// Characters that take no space and are skipped when no font has them.
fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1F3FB..=0x1F3FF | 0xE0000..=0xE0FFF)
        || (0x0300..=0x036F).contains(&(c as u32)) // combining marks no font has: drop
}

// ---------------------------------------------------------------------------
// Fonts

const NOTO_REGULAR: &[u8] = include_bytes!("../assets/fonts/NotoSans-Regular.ttf");
const NOTO_BOLD: &[u8] = include_bytes!("../assets/fonts/NotoSans-Bold.ttf");
const NOTO_SERIF_ITALIC: &[u8] = include_bytes!("../assets/fonts/NotoSerif-Italic.ttf");
const DEJAVU_SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");
const DEJAVU_CONDENSED_BOLD: &[u8] = include_bytes!("../assets/fonts/DejaVuSansCondensed-Bold.ttf");

/// Indices into [`Fonts::list`].
const F_REGULAR: u8 = 0;
const F_BOLD: u8 = 1;
const F_MEME: u8 = 2;
const F_SERIF_ITALIC: u8 = 3;
const F_FALLBACK: u8 = 4;

struct Fonts {
    list: [Font; 5],
}

static FONTS: LazyLock<Fonts> = LazyLock::new(|| {
    let load = |bytes: &'static [u8]| {
        Font::from_bytes(
            bytes,
            FontSettings {
                scale: 40.0,
                ..FontSettings::default()
            },
        )
        .expect("bundled font parses (checked by tests)")
    };
    Fonts {
        list: [
            load(NOTO_REGULAR),
            load(NOTO_BOLD),
            load(DEJAVU_CONDENSED_BOLD),
            load(NOTO_SERIF_ITALIC),
            load(DEJAVU_SANS),
        ],
    }
});

fn chain(face: FontFace) -> &'static [u8] {
    match face {
        FontFace::Regular => &[F_REGULAR, F_FALLBACK],
        FontFace::Bold => &[F_BOLD, F_REGULAR, F_FALLBACK],
        FontFace::Meme => &[F_MEME, F_BOLD, F_FALLBACK],
        FontFace::SerifItalic => &[F_SERIF_ITALIC, F_REGULAR, F_FALLBACK],
    }
}

fn font(id: u8) -> &'static Font {
    &FONTS.list[id as usize]
}

/// Parses the bundled fonts now rather than on first use (they are parsed
/// once per process either way). Useful to keep the first request fast.
pub fn preload_fonts() {
    LazyLock::force(&FONTS);
}

/// Whether some bundled font has a glyph for `c`.
pub fn has_glyph(c: char) -> bool {
    FONTS.list.iter().any(|f| f.lookup_glyph_index(c) != 0)
}

// ---------------------------------------------------------------------------
// Layout

#[derive(Debug, Clone, Copy, PartialEq)]
enum GlyphKind {
    Glyph { font: u8, index: u16 },
    Tofu,
}

/// One glyph placed on a line.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Placed {
    kind: GlyphKind,
    /// Pen position from the line start, pixels.
    x: f32,
    advance: f32,
    space: bool,
}

/// One laid-out line.
#[derive(Debug, Clone, PartialEq)]
struct Line {
    glyphs: Vec<Placed>,
    width: f32,
}

/// Text broken into lines at a given font size, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLayout {
    lines: Vec<Line>,
    size: f32,
    ascent: f32,
    line_height: f32,
    block_height: f32,
    truncated: bool,
}

impl TextLayout {
    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }
    /// The font size the layout was made at, in pixels.
    pub fn font_size(&self) -> f32 {
        self.size
    }
    /// Height of the block of lines, in pixels.
    pub fn height(&self) -> f32 {
        self.block_height
    }
    /// Width of the widest line, in pixels.
    pub fn width(&self) -> f32 {
        self.lines.iter().map(|l| l.width).fold(0.0, f32::max)
    }
    /// Whether text was cut (and ended with "…") to fit the box.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

struct Shaper {
    chain: &'static [u8],
    size: f32,
}

impl Shaper {
    fn resolve(&self, c: char) -> Option<(GlyphKind, f32)> {
        for &id in self.chain {
            let index = font(id).lookup_glyph_index(c);
            if index != 0 {
                let m = font(id).metrics_indexed(index, self.size);
                return Some((GlyphKind::Glyph { font: id, index }, m.advance_width));
            }
        }
        if is_invisible(c) {
            None
        } else {
            Some((GlyphKind::Tofu, self.size * 0.6))
        }
    }

    /// Shapes a word (no spaces) into glyphs starting at pen 0.
    fn shape(&self, word: &str, out: &mut Vec<Placed>) -> f32 {
        let mut pen = 0.0f32;
        let mut prev: Option<(u8, u16)> = None;
        for c in word.chars() {
            let Some((kind, advance)) = self.resolve(c) else {
                continue;
            };
            if let (GlyphKind::Glyph { font: f, index }, Some((pf, pi))) = (kind, prev) {
                if f == pf {
                    pen += font(f)
                        .horizontal_kern_indexed(pi, index, self.size)
                        .unwrap_or(0.0);
                }
            }
            prev = match kind {
                GlyphKind::Glyph { font, index } => Some((font, index)),
                GlyphKind::Tofu => None,
            };
            out.push(Placed {
                kind,
                x: pen,
                advance,
                space: false,
            });
            pen += advance;
        }
        pen
    }
}

/// Lays `text` out at `style.size`, wrapping words to `max_width` pixels.
/// Words longer than a line are broken between characters. `\n` starts a new
/// line. The text is sanitised first (see the module documentation).
pub fn layout_text(
    text: &str,
    style: &TextStyle,
    max_width: f32,
) -> Result<TextLayout, RenderError> {
    style.validate()?;
    if !(max_width.is_finite() && max_width > 0.0 && max_width <= crate::MAX_DIMENSION as f32) {
        return Err(RenderError::InvalidTextBox);
    }
    let clean = sanitize(text);
    check_length("text", &clean, MAX_LAYOUT_CHARS)?;
    Ok(layout_clean(
        &clean,
        style,
        style.size,
        max_width,
        usize::MAX,
    ))
}

fn line_metrics(face: FontFace, size: f32) -> (f32, f32) {
    let f = font(chain(face)[0]);
    match f.horizontal_line_metrics(size) {
        Some(m) => (m.ascent, m.ascent - m.descent),
        None => (size * 0.8, size * 1.2),
    }
}

fn layout_clean(
    text: &str,
    style: &TextStyle,
    size: f32,
    max_width: f32,
    max_lines: usize,
) -> TextLayout {
    let shaper = Shaper {
        chain: chain(style.face),
        size,
    };
    let (ascent, natural) = line_metrics(style.face, size);
    let line_height = natural * style.line_spacing;
    let space_w = shaper.resolve(' ').map(|(_, a)| a).unwrap_or(size * 0.3);
    let space = |x: f32| Placed {
        kind: GlyphKind::Tofu,
        x,
        advance: space_w,
        space: true,
    };

    let mut lines: Vec<Line> = Vec::new();
    let mut word_buf: Vec<Placed> = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = Line {
            glyphs: Vec::new(),
            width: 0.0,
        };
        for word in paragraph.split(' ') {
            word_buf.clear();
            let w = shaper.shape(word, &mut word_buf);
            let start = if line.glyphs.is_empty() {
                0.0
            } else {
                line.width + space_w
            };
            if start + w > max_width && !line.glyphs.is_empty() && w <= max_width {
                // Move the whole word to a new line.
                lines.push(std::mem::replace(
                    &mut line,
                    Line {
                        glyphs: Vec::new(),
                        width: 0.0,
                    },
                ));
            }
            let mut start = if line.glyphs.is_empty() {
                0.0
            } else {
                line.width + space_w
            };
            if !line.glyphs.is_empty() {
                line.glyphs.push(space(line.width));
                line.width = start;
            }
            // Place glyphs, breaking between them when a word is wider than a line.
            let mut offset = 0.0f32;
            for g in &word_buf {
                let x = g.x - offset + start;
                if x + g.advance > max_width && line.glyphs.iter().any(|p| !p.space) {
                    lines.push(std::mem::replace(
                        &mut line,
                        Line {
                            glyphs: Vec::new(),
                            width: 0.0,
                        },
                    ));
                    offset = g.x;
                    start = 0.0;
                }
                let x = g.x - offset + start;
                line.glyphs.push(Placed { x, ..*g });
                line.width = x + g.advance;
            }
        }
        lines.push(line);
    }
    let truncated = lines.len() > max_lines;
    if truncated {
        lines.truncate(max_lines);
    }
    for l in &mut lines {
        while l.glyphs.last().is_some_and(|g| g.space) {
            l.glyphs.pop();
        }
        // Leading spaces of wrapped lines are dropped too.
        let lead = l.glyphs.iter().take_while(|g| g.space).count();
        if lead > 0 && l.glyphs.len() > lead {
            let dx = l.glyphs[lead].x;
            l.glyphs.drain(..lead);
            for g in &mut l.glyphs {
                g.x -= dx;
            }
        } else if lead > 0 {
            l.glyphs.clear();
        }
        l.width = l.glyphs.last().map(|g| g.x + g.advance).unwrap_or(0.0);
    }
    if truncated {
        if let Some(last) = lines.last_mut() {
            add_ellipsis(last, &shaper, max_width);
            last.width = last.glyphs.last().map(|g| g.x + g.advance).unwrap_or(0.0);
        }
    }
    let n = lines.len().max(1) as f32;
    TextLayout {
        lines,
        size,
        ascent,
        line_height,
        block_height: (n - 1.0) * line_height + natural,
        truncated,
    }
}

fn add_ellipsis(line: &mut Line, shaper: &Shaper, max_width: f32) {
    let mut buf = Vec::new();
    let ew = shaper.shape("…", &mut buf);
    while let Some(last) = line.glyphs.last() {
        if last.space || last.x + last.advance + ew > max_width {
            line.glyphs.pop();
        } else {
            break;
        }
    }
    let x = line.glyphs.last().map(|g| g.x + g.advance).unwrap_or(0.0);
    for g in buf {
        line.glyphs.push(Placed { x: g.x + x, ..g });
    }
}

/// Shrink-to-fit: lays `text` out in `area` at the largest size between
/// `min_size` and `style.size` (in steps of half a pixel) at which the wrapped
/// block fits the box. If even `min_size` is too big, the text is laid out at
/// `min_size`, cut to the lines that fit, and ends with "…"
/// ([`TextLayout::is_truncated`]).
pub fn fit_text(
    text: &str,
    style: &TextStyle,
    area: TextBox,
    min_size: f32,
) -> Result<TextLayout, RenderError> {
    style.validate()?;
    area.validate()?;
    check_font_size(min_size)?;
    let min_size = min_size.min(style.size);
    let clean = sanitize(text);
    check_length("text", &clean, MAX_LAYOUT_CHARS)?;
    let outline = style.outline.map(|o| o.width * 2.0).unwrap_or(0.0);
    let width = (area.width - outline).max(1.0);
    let fits = |size: f32| {
        let l = layout_clean(&clean, style, size, width, usize::MAX);
        (l.block_height <= area.height).then_some(l)
    };
    if let Some(l) = fits(style.size) {
        return Ok(l);
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
        return Ok(l);
    }
    let (_, natural) = line_metrics(style.face, min_size);
    let line_h = natural * style.line_spacing;
    let max_lines = (((area.height - natural) / line_h).floor() as i64 + 1).max(1) as usize;
    Ok(layout_clean(&clean, style, min_size, width, max_lines))
}

/// Lays `text` out on one line (newlines become spaces) at `style.size`,
/// cutting it with "…" when wider than `max_width`.
pub(crate) fn fit_single_line(
    text: &str,
    style: &TextStyle,
    max_width: f32,
) -> Result<TextLayout, RenderError> {
    style.validate()?;
    if !(max_width.is_finite() && max_width > 0.0 && max_width <= crate::MAX_DIMENSION as f32) {
        return Err(RenderError::InvalidTextBox);
    }
    let clean = sanitize(text).replace('\n', " ");
    check_length("text", &clean, MAX_LAYOUT_CHARS)?;
    let outline = style.outline.map(|o| o.width * 2.0).unwrap_or(0.0);
    Ok(layout_clean(
        &clean,
        style,
        style.size,
        (max_width - outline).max(1.0),
        1,
    ))
}

// ---------------------------------------------------------------------------
// Drawing

#[derive(Debug)]
struct Bitmap {
    left: i32,
    /// Offset of the top row from the baseline (negative = above).
    top: i32,
    width: usize,
    height: usize,
    coverage: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct GlyphKey {
    font: u8,
    index: u16,
    size_bits: u32,
    outline_bits: u32,
}

#[derive(Default)]
struct GlyphCache {
    map: HashMap<GlyphKey, Arc<Bitmap>>,
    bytes: usize,
}

static GLYPH_CACHE: LazyLock<Mutex<GlyphCache>> =
    LazyLock::new(|| Mutex::new(GlyphCache::default()));

fn glyph_bitmap(font_id: u8, index: u16, size: f32, outline: f32) -> Arc<Bitmap> {
    let key = GlyphKey {
        font: font_id,
        index,
        size_bits: size.to_bits(),
        outline_bits: outline.to_bits(),
    };
    if let Some(b) = GLYPH_CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .map
        .get(&key)
    {
        return b.clone();
    }
    let (m, coverage) = font(font_id).rasterize_indexed(index, size);
    let mut bmp = Bitmap {
        left: m.xmin,
        top: -(m.ymin + m.height as i32),
        width: m.width,
        height: m.height,
        coverage,
    };
    if outline > 0.0 {
        bmp = dilate(&bmp, outline);
    }
    let bmp = Arc::new(bmp);
    let mut cache = GLYPH_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if cache.map.len() >= GLYPH_CACHE_LIMIT || cache.bytes + bmp.coverage.len() > GLYPH_CACHE_BYTES
    {
        cache.map.clear();
        cache.bytes = 0;
    }
    cache.bytes += bmp.coverage.len();
    cache.map.insert(key, bmp.clone());
    bmp
}

/// Grows a coverage bitmap by `radius` pixels with an anti-aliased disc.
fn dilate(src: &Bitmap, radius: f32) -> Bitmap {
    let r = radius.ceil() as i32;
    let (w, h) = (src.width + 2 * r as usize, src.height + 2 * r as usize);
    let mut offsets = Vec::new();
    for dy in -r..=r {
        for dx in -r..=r {
            let d = ((dx * dx + dy * dy) as f32).sqrt();
            let weight = (radius + 0.5 - d).clamp(0.0, 1.0);
            if weight > 0.0 {
                offsets.push((dx, dy, (weight * 256.0) as u32));
            }
        }
    }
    let mut out = vec![0u8; w * h];
    for sy in 0..src.height {
        for sx in 0..src.width {
            let c = src.coverage[sy * src.width + sx] as u32;
            if c == 0 {
                continue;
            }
            let (cx, cy) = (sx as i32 + r, sy as i32 + r);
            for &(dx, dy, wgt) in &offsets {
                let v = ((c * wgt) >> 8) as u8;
                let i = (cy + dy) as usize * w + (cx + dx) as usize;
                if out[i] < v {
                    out[i] = v;
                }
            }
        }
    }
    Bitmap {
        left: src.left - r,
        top: src.top - r,
        width: w,
        height: h,
        coverage: out,
    }
}

/// A drawing target: an RGBA buffer, premultiplied (tiny-skia) or straight.
pub(crate) struct Target<'a> {
    pub data: &'a mut [u8],
    pub width: usize,
    pub height: usize,
    pub premultiplied: bool,
}

impl Target<'_> {
    fn blend_mask(&mut self, bmp: &Bitmap, x0: i32, y0: i32, color: [u8; 4]) {
        let a = color[3] as u32;
        if a == 0 {
            return;
        }
        for by in 0..bmp.height {
            let y = y0 + by as i32;
            if y < 0 || y >= self.height as i32 {
                continue;
            }
            for bx in 0..bmp.width {
                let x = x0 + bx as i32;
                if x < 0 || x >= self.width as i32 {
                    continue;
                }
                let cov = bmp.coverage[by * bmp.width + bx] as u32;
                if cov == 0 {
                    continue;
                }
                let sa = cov * a / 255; // source alpha 0..=255
                let i = (y as usize * self.width + x as usize) * 4;
                let px = &mut self.data[i..i + 4];
                let inv = 255 - sa;
                if self.premultiplied {
                    for ch in 0..3 {
                        px[ch] = ((color[ch] as u32 * sa + px[ch] as u32 * inv + 127) / 255) as u8;
                    }
                    px[3] = (sa + (px[3] as u32 * inv + 127) / 255) as u8;
                } else {
                    let da = px[3] as u32;
                    let out_a = sa + da * inv / 255;
                    if out_a == 0 {
                        continue;
                    }
                    for ch in 0..3 {
                        let v = (color[ch] as u32 * sa + px[ch] as u32 * da * inv / 255) / out_a;
                        px[ch] = v.min(255) as u8;
                    }
                    px[3] = out_a.min(255) as u8;
                }
            }
        }
    }

    fn tofu(&mut self, x: i32, baseline: i32, size: f32, color: [u8; 4], grow: i32) {
        let w = (size * 0.5).round() as i32;
        let h = (size * 0.7).round() as i32;
        let t = ((size / 14.0).round() as i32).max(1) + grow;
        let x0 = x + (size * 0.05).round() as i32 - grow;
        let y0 = baseline - h - grow;
        let (w, h) = (w + 2 * grow, h + 2 * grow);
        let mut cov = vec![0u8; (w.max(1) * h.max(1)) as usize];
        for yy in 0..h {
            for xx in 0..w {
                if xx < t || yy < t || xx >= w - t || yy >= h - t {
                    cov[(yy * w + xx) as usize] = 255;
                }
            }
        }
        let bmp = Bitmap {
            left: 0,
            top: 0,
            width: w.max(1) as usize,
            height: h.max(1) as usize,
            coverage: cov,
        };
        self.blend_mask(&bmp, x0, y0, color);
    }

    pub(crate) fn draw(&mut self, layout: &TextLayout, style: &TextStyle, area: TextBox) {
        let block_y = match style.valign {
            VAlign::Top => area.y,
            VAlign::Middle => area.y + (area.height - layout.block_height) / 2.0,
            VAlign::Bottom => area.y + area.height - layout.block_height,
        };
        let scale = layout.size / style.size;
        let outline = style.outline.map(|o| (o.width * scale).max(0.5));
        let passes: &[bool] = if outline.is_some() {
            &[true, false]
        } else {
            &[false]
        };
        for &is_outline in passes {
            for (i, line) in layout.lines.iter().enumerate() {
                let baseline =
                    (block_y + layout.ascent + i as f32 * layout.line_height).round() as i32;
                let x0 = match style.align {
                    Align::Left => area.x,
                    Align::Center => area.x + (area.width - line.width) / 2.0,
                    Align::Right => area.x + area.width - line.width,
                };
                for g in &line.glyphs {
                    if g.space {
                        continue;
                    }
                    let pen = (x0 + g.x).round() as i32;
                    let (color, width) = match (is_outline, outline, style.outline) {
                        (true, Some(w), Some(o)) => (o.color, w),
                        _ => (style.color, 0.0),
                    };
                    match g.kind {
                        GlyphKind::Glyph { font, index } => {
                            let bmp = glyph_bitmap(font, index, layout.size, width);
                            self.blend_mask(&bmp, pen + bmp.left, baseline + bmp.top, color);
                        }
                        GlyphKind::Tofu => {
                            self.tofu(pen, baseline, layout.size, color, width.ceil() as i32)
                        }
                    }
                }
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn style() -> TextStyle {
        TextStyle::new(FontFace::Regular, 20.0)
    }

    #[test]
    fn fonts_parse_and_cover_latin_greek_cyrillic() {
        for c in ['A', 'é', 'Ω', 'λ', 'Ж', 'я', 'ß', '€'] {
            for face in [
                FontFace::Regular,
                FontFace::Bold,
                FontFace::Meme,
                FontFace::SerifItalic,
            ] {
                assert_ne!(
                    font(chain(face)[0]).lookup_glyph_index(c),
                    0,
                    "{face:?} lacks {c}"
                );
            }
        }
        // Hebrew comes from the fallback font.
        assert_eq!(font(F_REGULAR).lookup_glyph_index('ש'), 0);
        assert!(has_glyph('ש'));
        assert!(has_glyph('😀')); // DejaVu has the basic smileys
        assert!(!has_glyph('中'));
    }

    #[test]
    fn wraps_at_word_boundaries() {
        let l = layout_text("one two three four five six", &style(), 80.0).unwrap();
        assert!(l.line_count() >= 3, "{}", l.line_count());
        assert!(l.width() <= 80.0);
        let one = layout_text("one two three four five six", &style(), 5000.0).unwrap();
        assert_eq!(one.line_count(), 1);
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
    fn tofu_and_ink() {
        let mut img = crate::solid(120, 40, [255, 255, 255]).unwrap();
        let s = style();
        let l = layout_text("中", &s, 100.0).unwrap();
        assert_eq!(l.line_count(), 1);
        assert!(l.width() > 5.0);
        draw_layout(&mut img, &l, &s, TextBox::new(2.0, 2.0, 100.0, 30.0));
        assert!(img.pixels().any(|p| p.0[0] == 0), "tofu box drawn");
        // Invisible characters take no room.
        assert_eq!(
            layout_text("\u{200D}\u{FE0F}", &s, 100.0).unwrap().width(),
            0.0
        );
    }

    #[test]
    fn outline_draws_two_colours() {
        let mut img = crate::solid(300, 100, [0, 128, 0]).unwrap();
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
            let mut img = crate::solid(64, 64, [9, 9, 9]).unwrap();
            for face in [FontFace::Regular, FontFace::Meme] {
                let s = TextStyle::new(face, size).outline([0, 0, 0, 255], 2.0).align(Align::Center);
                let l = layout_text(&text, &s, w).unwrap();
                draw_layout(&mut img, &l, &s, TextBox::new(-3.0, 0.0, w, 64.0));
                let area = TextBox::new(0.0, 0.0, w, 40.0);
                let f = fit_text(&text, &s, area, 4.0).unwrap();
                draw_layout(&mut img, &f, &s, area);
            }
        }
    }
}
