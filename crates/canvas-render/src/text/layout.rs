//! Line layout over cosmic-text: shaping (harfrust), the Unicode Bidi
//! Algorithm, UAX #14 line breaking and font fallback come from the library;
//! this module fits the result into boxes (shrink-to-fit, truncation with
//! "…" at a grapheme-cluster boundary) and keeps what drawing needs.

use std::ops::Range;
use std::sync::Arc;

use cosmic_text::{Buffer, Metrics, Shaping, Wrap};
use unicode_segmentation::UnicodeSegmentation;

use super::fonts::{self, Engine};
use super::{FontFace, SpanLook, TextStyle};

/// One glyph placed on a line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Glyph {
    /// The font's slot in the font database.
    pub font: u8,
    /// Glyph id in that font (0 is `.notdef`, the "tofu" box).
    pub id: u16,
    /// Pen position from the line's left edge, pixels.
    pub x: f32,
    /// Offset from the baseline, pixels (positive = down).
    pub y: f32,
    /// The grapheme cluster of the laid-out text it draws (its index).
    pub grapheme: u32,
    /// Its advance, pixels.
    pub w: f32,
    /// Its look: 0 the style's, `n` the rich text's look `n - 1`
    /// ([`TextLayout::looks`]).
    pub look: u16,
}

/// One laid-out line, in visual (left-to-right drawing) order.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Line {
    pub glyphs: Vec<Glyph>,
    pub width: f32,
    /// Byte offset in the laid-out text just past this line's last character.
    end: usize,
}

/// Text broken into lines at a given font size, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLayout {
    pub(super) lines: Vec<Line>,
    pub(super) size: f32,
    pub(super) ascent: f32,
    pub(super) line_height: f32,
    pub(super) block_height: f32,
    truncated: bool,
    /// The looks of a rich text's spans ([`super::fit_rich`]), by
    /// [`Glyph::look`] − 1; empty for plain text.
    pub(super) looks: Arc<[SpanLook]>,
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
    /// Number of glyphs drawn as `.notdef` (a box, "tofu"): characters no
    /// bundled font covers.
    pub fn missing_glyphs(&self) -> usize {
        self.lines
            .iter()
            .flat_map(|l| &l.glyphs)
            .filter(|g| g.id == 0)
            .count()
    }
    /// Each line's width in pixels and number of glyphs. A line is wider
    /// than its wrapping width only when it holds a single glyph wider than
    /// that (a grapheme cluster is never split).
    pub fn line_sizes(&self) -> impl Iterator<Item = (f32, usize)> + '_ {
        self.lines.iter().map(|l| (l.width, l.glyphs.len()))
    }
    /// Each line's grapheme clusters (their indices in the laid-out text)
    /// from left to right as drawn, one entry per glyph.
    #[cfg(test)]
    pub(crate) fn visual_graphemes(&self) -> Vec<Vec<u32>> {
        self.lines
            .iter()
            .map(|l| {
                let mut glyphs: Vec<&Glyph> = l.glyphs.iter().collect();
                glyphs.sort_by(|a, b| a.x.total_cmp(&b.x));
                glyphs.iter().map(|g| g.grapheme).collect()
            })
            .collect()
    }
    /// Number of glyphs drawn (whitespace excluded).
    pub fn glyph_count(&self) -> usize {
        self.lines.iter().map(|l| l.glyphs.len()).sum()
    }
    /// The layout with only the glyphs of the text's first `graphemes`
    /// grapheme clusters, each where it is in the whole text (lines keep
    /// their widths): text typing out, without shaping each prefix again.
    pub fn first_graphemes(&self, graphemes: usize) -> TextLayout {
        let lines = self
            .lines
            .iter()
            .map(|l| Line {
                glyphs: l
                    .glyphs
                    .iter()
                    .filter(|g| (g.grapheme as usize) < graphemes)
                    .copied()
                    .collect(),
                ..l.clone()
            })
            .collect();
        TextLayout {
            lines,
            ..self.clone()
        }
    }
}

/// Shaped text, ready to be laid out at any size and width.
pub(super) struct Shaped {
    buffer: Buffer,
    /// Byte offset of each paragraph (`\n`-separated) in `text`.
    paragraphs: Vec<usize>,
    /// Byte offset of each grapheme cluster in `text`.
    graphemes: Vec<usize>,
}

impl Shaped {
    /// Shapes `text` (already sanitised: `\n` is the only line separator).
    pub fn new(engine: &Engine, text: &str, face: FontFace) -> Shaped {
        Shaped::rich(engine, text, face, &[])
    }

    /// Shapes `text` with the looks of `spans` (byte ranges, in order, not
    /// overlapping, on character boundaries; others are left out) over
    /// `face`: a span's glyphs carry its index + 1 ([`Glyph::look`]).
    pub fn rich(engine: &Engine, text: &str, face: FontFace, spans: &[Span]) -> Shaped {
        let mut buffer = Buffer::new_empty(Metrics::new(16.0, 16.0));
        buffer.set_wrap(Wrap::WordOrGlyph);
        let base = engine.attrs(face);
        if spans.is_empty() {
            buffer.set_text(text, &base, Shaping::Advanced, None);
        } else {
            let mut pieces = Vec::with_capacity(spans.len() * 2 + 1);
            let mut at = 0;
            for (i, (range, look)) in spans.iter().enumerate() {
                let ok = range.start >= at
                    && range.start < range.end
                    && range.end <= text.len()
                    && text.is_char_boundary(range.start)
                    && text.is_char_boundary(range.end);
                if !ok {
                    continue;
                }
                if range.start > at {
                    pieces.push((&text[at..range.start], base.clone()));
                }
                let attrs = engine.look_attrs(face, look).metadata(i + 1);
                pieces.push((&text[range.clone()], attrs));
                at = range.end;
            }
            if at < text.len() {
                pieces.push((&text[at..], base.clone()));
            }
            buffer.set_rich_text(pieces, &base, Shaping::Advanced, None);
        }
        let mut paragraphs = vec![0];
        paragraphs.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let graphemes = text.grapheme_indices(true).map(|(i, _)| i).collect();
        Shaped {
            buffer,
            paragraphs,
            graphemes,
        }
    }

    /// Breaks the text into lines at `size` pixels, at most `max_width` wide.
    pub fn lines(&mut self, engine: &mut Engine, size: f32, max_width: f32) -> Vec<Line> {
        self.buffer.set_metrics(Metrics::new(size, size));
        self.buffer.set_size(Some(max_width), None);
        self.buffer.shape_until_scroll(&mut engine.fs, false);
        let mut lines = Vec::new();
        for run in self.buffer.layout_runs() {
            let para = self.paragraphs.get(run.line_i).copied().unwrap_or(0);
            let is_space = |g: &cosmic_text::LayoutGlyph| {
                let cluster = run.text.get(g.start..g.end).unwrap_or("");
                !cluster.is_empty() && cluster.chars().all(char::is_whitespace)
            };
            // Whitespace after the line's last visible character takes no
            // room (UAX #9 rule L1), wherever the bidi runs put it visually:
            // the glyphs to its right move left by its width.
            let last_ink = run
                .glyphs
                .iter()
                .filter(|g| !is_space(g))
                .map(|g| g.end)
                .max()
                .unwrap_or(0);
            let trailing: Vec<(f32, f32)> = run
                .glyphs
                .iter()
                .filter(|g| is_space(g) && g.start >= last_ink)
                .map(|g| (g.x, g.w))
                .collect();
            let mut min_x = f32::INFINITY;
            let mut max_x = f32::NEG_INFINITY;
            let mut end = para;
            let mut glyphs = Vec::with_capacity(run.glyphs.len());
            for g in run.glyphs {
                end = end.max(para + g.end);
                if is_space(g) {
                    continue;
                }
                let shift: f32 = trailing
                    .iter()
                    .filter(|(x, _)| *x < g.x)
                    .map(|(_, w)| w)
                    .sum();
                let x = g.x - shift;
                min_x = min_x.min(x);
                max_x = max_x.max(x + g.w);
                let start = para + g.start;
                let grapheme = self.graphemes.partition_point(|&b| b <= start).max(1) - 1;
                glyphs.push(Glyph {
                    font: engine.index(g.font_id),
                    id: g.glyph_id,
                    x: x + g.font_size * g.x_offset,
                    y: g.y - g.font_size * g.y_offset,
                    grapheme: grapheme as u32,
                    w: g.w,
                    look: u16::try_from(g.metadata).unwrap_or(0),
                });
            }
            if glyphs.is_empty() {
                min_x = 0.0;
                max_x = 0.0;
            }
            for g in &mut glyphs {
                g.x -= min_x;
            }
            lines.push(Line {
                glyphs,
                width: (max_x - min_x).max(0.0),
                end,
            });
        }
        if lines.is_empty() {
            lines.push(Line {
                glyphs: Vec::new(),
                width: 0.0,
                end: 0,
            });
        }
        lines
    }
}

/// Vertical metrics of a face at a size.
fn vertical(style: &TextStyle, size: f32) -> (f32, f32, f32) {
    let (ascent, natural) = fonts::line_metrics(fonts::primary(style.face), size);
    (ascent, natural, natural * style.line_spacing)
}

/// The lines of at most `max_lines` that fit, given their natural height.
pub(super) fn max_lines_for(style: &TextStyle, size: f32, height: f32) -> usize {
    let (_, natural, line_h) = vertical(style, size);
    (((height - natural) / line_h).floor() as i64 + 1).max(1) as usize
}

/// Assembles a layout from lines.
pub(super) fn finish(
    style: &TextStyle,
    size: f32,
    lines: Vec<Line>,
    truncated: bool,
) -> TextLayout {
    let (ascent, natural, line_height) = vertical(style, size);
    let n = lines.len().max(1) as f32;
    TextLayout {
        lines,
        size,
        ascent,
        line_height,
        block_height: (n - 1.0) * line_height + natural,
        truncated,
        looks: Arc::from([]),
    }
}

/// The largest grapheme-cluster boundary of `text` at or before `at`.
fn floor_grapheme(text: &str, at: usize) -> usize {
    let mut best = 0;
    for (i, _) in text.grapheme_indices(true) {
        if i > at {
            return best;
        }
        best = i;
    }
    if at >= text.len() { text.len() } else { best }
}

/// The grapheme-cluster boundary just before `at` (0 at the start).
fn prev_grapheme(text: &str, at: usize) -> usize {
    let at = floor_grapheme(text, at);
    text[..at]
        .grapheme_indices(true)
        .next_back()
        .map(|(i, _)| i)
        .unwrap_or(0)
}

/// A byte range of a rich text and its look.
pub(super) type Span = (Range<usize>, SpanLook);

/// The spans of `spans` cut to the first `len` bytes.
fn spans_before(spans: &[Span], len: usize) -> Vec<Span> {
    spans
        .iter()
        .filter(|(r, _)| r.start < len)
        .map(|(r, l)| (r.start..r.end.min(len), *l))
        .collect()
}

/// Cuts laid-out `lines` of `text` to at most `max_lines`: when there are
/// more, the text is cut at a grapheme-cluster boundary and ends with "…"
/// (the second value is `true`). `spans` are the text's looks, if rich.
#[allow(clippy::too_many_arguments)]
pub(super) fn cut_to(
    engine: &mut Engine,
    text: &str,
    spans: &[Span],
    face: FontFace,
    size: f32,
    width: f32,
    max_lines: usize,
    lines: Vec<Line>,
) -> (Vec<Line>, bool) {
    if lines.len() <= max_lines {
        return (lines, false);
    }
    let max_lines = max_lines.max(1);
    let mut cut = floor_grapheme(text, lines[max_lines - 1].end);
    // Each round either fits or moves the cut back by at least one cluster.
    for _ in 0..64 {
        let kept = text[..cut].trim_end();
        let candidate = format!("{kept}…");
        let mut shaped = Shaped::rich(engine, &candidate, face, &spans_before(spans, kept.len()));
        let mut got = shaped.lines(engine, size, width);
        if got.len() <= max_lines {
            for l in &mut got {
                l.end = l.end.min(cut);
            }
            return (got, true);
        }
        if kept.is_empty() {
            break;
        }
        // The ellipsis spilled over: keep what fit (or, when all of it fit
        // and only the ellipsis did not, one cluster less).
        let fit = got[max_lines - 1].end;
        cut = if fit < kept.len() {
            floor_grapheme(text, fit)
        } else {
            prev_grapheme(text, kept.len())
        };
    }
    let mut shaped = Shaped::new(engine, "…", face);
    let mut got = shaped.lines(engine, size, width);
    got.truncate(max_lines);
    (got, true)
}
