//! Glyph rasterising (swash: outlines, colour outlines and colour bitmaps)
//! and blending into RGBA buffers.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use swash::scale::image::Content;
use swash::scale::{Render, ScaleContext, Source, StrikeWith};
use swash::zeno::{Angle, Format, Transform};

use super::fonts;
use super::{Align, Decoration, TextBox, TextLayout, TextStyle, VAlign};

/// Upper limit on the number of cached glyph bitmaps before the cache is reset.
const GLYPH_CACHE_LIMIT: usize = 8192;
/// Upper limit on the bytes of cached glyph pixels before the cache is reset
/// (sizes chosen by shrink-to-fit vary, so entries are bounded by bytes too).
const GLYPH_CACHE_BYTES: usize = 24 << 20;

#[derive(Debug)]
enum Pixels {
    /// Coverage, one byte a pixel.
    Mask(Vec<u8>),
    /// Straight RGBA (colour emoji).
    Color(Vec<u8>),
}

#[derive(Debug)]
struct Bitmap {
    left: i32,
    /// Offset of the top row from the baseline (negative = above).
    top: i32,
    width: usize,
    height: usize,
    pixels: Pixels,
}

impl Bitmap {
    fn bytes(&self) -> usize {
        match &self.pixels {
            Pixels::Mask(v) | Pixels::Color(v) => v.len(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct GlyphKey {
    font: u8,
    id: u16,
    size_bits: u32,
    outline_bits: u32,
    slant: bool,
}

#[derive(Default)]
struct GlyphCache {
    map: HashMap<GlyphKey, Arc<Bitmap>>,
    bytes: usize,
}

static GLYPH_CACHE: LazyLock<Mutex<GlyphCache>> =
    LazyLock::new(|| Mutex::new(GlyphCache::default()));

thread_local! {
    static SCALER: RefCell<ScaleContext> = RefCell::new(ScaleContext::new());
}

/// The slant of a synthetic italic, degrees.
const SLANT_DEGREES: f32 = 12.0;

/// Renders a glyph with swash: colour outlines (COLR), then colour bitmaps
/// (CBDT, scaled to `size`), then the plain outline; `slant` leans its
/// outline by [`SLANT_DEGREES`] (a synthetic italic).
fn render(font: u8, id: u16, size: f32, slant: bool) -> Bitmap {
    let empty = || Bitmap {
        left: 0,
        top: 0,
        width: 0,
        height: 0,
        pixels: Pixels::Mask(Vec::new()),
    };
    let Some(font_ref) = fonts::font_ref(font) else {
        return empty();
    };
    let image = SCALER.with(|ctx| {
        let mut ctx = ctx.borrow_mut();
        let mut scaler = ctx.builder(font_ref).size(size).hint(false).build();
        let lean = slant
            .then(|| Transform::skew(Angle::from_degrees(SLANT_DEGREES), Angle::from_degrees(0.0)));
        Render::new(&[
            Source::ColorOutline(0),
            Source::ColorBitmap(StrikeWith::BestFit),
            Source::Outline,
        ])
        .format(Format::Alpha)
        .transform(lean)
        .render(&mut scaler, id)
    });
    let Some(image) = image else {
        return empty();
    };
    let (w, h) = (
        image.placement.width as usize,
        image.placement.height as usize,
    );
    let pixels = match image.content {
        Content::Mask if image.data.len() >= w * h => Pixels::Mask(image.data),
        Content::Color if image.data.len() >= w * h * 4 => Pixels::Color(image.data),
        _ => return empty(),
    };
    Bitmap {
        left: image.placement.left,
        top: -image.placement.top,
        width: w,
        height: h,
        pixels,
    }
}

/// The coverage of a bitmap: the mask itself, or a colour image's alpha.
fn coverage(bmp: &Bitmap) -> Vec<u8> {
    match &bmp.pixels {
        Pixels::Mask(m) => m.clone(),
        Pixels::Color(c) => c.chunks_exact(4).map(|p| p[3]).collect(),
    }
}

fn glyph_bitmap(font: u8, id: u16, size: f32, outline: f32, slant: bool) -> Arc<Bitmap> {
    let key = GlyphKey {
        font,
        id,
        size_bits: size.to_bits(),
        outline_bits: outline.to_bits(),
        slant,
    };
    if let Some(b) = GLYPH_CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .map
        .get(&key)
    {
        return b.clone();
    }
    let mut bmp = render(font, id, size, slant);
    if outline > 0.0 {
        let mask = Bitmap {
            pixels: Pixels::Mask(coverage(&bmp)),
            ..bmp
        };
        bmp = dilate(&mask, outline);
    }
    let bmp = Arc::new(bmp);
    let mut cache = GLYPH_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if cache.map.len() >= GLYPH_CACHE_LIMIT || cache.bytes + bmp.bytes() > GLYPH_CACHE_BYTES {
        cache.map.clear();
        cache.bytes = 0;
    }
    cache.bytes += bmp.bytes();
    cache.map.insert(key, bmp.clone());
    bmp
}

/// Grows a coverage bitmap by `radius` pixels with an anti-aliased disc.
fn dilate(src: &Bitmap, radius: f32) -> Bitmap {
    let Pixels::Mask(cov) = &src.pixels else {
        unreachable!("dilate takes a mask")
    };
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
            let c = cov[sy * src.width + sx] as u32;
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
        pixels: Pixels::Mask(out),
    }
}

/// Blends one source pixel (straight colour `rgb`, alpha `sa` 0..=255) over
/// `px`, a premultiplied or straight RGBA pixel.
#[inline(always)]
fn blend(px: &mut [u8], rgb: [u8; 3], sa: u32, premultiplied: bool) {
    let inv = 255 - sa;
    if sa == 255 {
        // Opaque ink (the inside of a glyph): the formulas below give it.
        px[..3].copy_from_slice(&rgb);
        px[3] = 255;
        return;
    }
    if premultiplied {
        for ch in 0..3 {
            px[ch] = ((rgb[ch] as u32 * sa + px[ch] as u32 * inv + 127) / 255) as u8;
        }
        px[3] = (sa + (px[3] as u32 * inv + 127) / 255) as u8;
    } else {
        let da = px[3] as u32;
        let out_a = sa + da * inv / 255;
        if out_a == 0 {
            return;
        }
        for ch in 0..3 {
            let v = (rgb[ch] as u32 * sa + px[ch] as u32 * da * inv / 255) / out_a;
            px[ch] = v.min(255) as u8;
        }
        px[3] = out_a.min(255) as u8;
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
    /// Draws a bitmap with its top-left pixel at `(x0, y0)`: a mask in
    /// `color`, a colour image in its own colours at `color`'s alpha. Rows
    /// and columns outside the target are clipped once, up front.
    fn blit(&mut self, bmp: &Bitmap, x0: i32, y0: i32, color: [u8; 4]) {
        let a = color[3] as u32;
        if a == 0 || bmp.width == 0 {
            return;
        }
        let (w, h) = (self.width as i64, self.height as i64);
        let bx0 = (-(x0 as i64)).clamp(0, bmp.width as i64) as usize;
        let bx1 = (w - x0 as i64).clamp(0, bmp.width as i64) as usize;
        let by0 = (-(y0 as i64)).clamp(0, bmp.height as i64) as usize;
        let by1 = (h - y0 as i64).clamp(0, bmp.height as i64) as usize;
        if bx0 >= bx1 || by0 >= by1 {
            return;
        }
        let premultiplied = self.premultiplied;
        for by in by0..by1 {
            let y = (y0 as i64 + by as i64) as usize;
            let x_start = (x0 as i64 + bx0 as i64) as usize;
            let row_start = (y * self.width + x_start) * 4;
            let dst = &mut self.data[row_start..row_start + (bx1 - bx0) * 4];
            match &bmp.pixels {
                Pixels::Mask(m) => {
                    let src = &m[by * bmp.width + bx0..by * bmp.width + bx1];
                    let rgb = [color[0], color[1], color[2]];
                    for (px, &cov) in dst.chunks_exact_mut(4).zip(src) {
                        if cov != 0 {
                            blend(px, rgb, cov as u32 * a / 255, premultiplied);
                        }
                    }
                }
                Pixels::Color(c) => {
                    let src = &c[(by * bmp.width + bx0) * 4..(by * bmp.width + bx1) * 4];
                    for (px, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(4)) {
                        if s[3] != 0 {
                            blend(px, [s[0], s[1], s[2]], s[3] as u32 * a / 255, premultiplied);
                        }
                    }
                }
            }
        }
    }

    pub(crate) fn draw(&mut self, layout: &TextLayout, style: &TextStyle, area: TextBox) {
        for (bmp, x, y, color, _) in placed_glyphs(layout, style, area) {
            self.blit(&bmp, x, y, color);
        }
    }
}

/// The top of a layout's block of lines in `area`.
fn block_top(layout: &TextLayout, style: &TextStyle, area: TextBox) -> f32 {
    match style.valign {
        VAlign::Top => area.y,
        VAlign::Middle => area.y + (area.height - layout.block_height) / 2.0,
        VAlign::Bottom => area.y + area.height - layout.block_height,
    }
}

/// The left edge of a line `width` wide in `area`.
fn line_left(style: &TextStyle, area: TextBox, width: f32) -> f32 {
    match style.align {
        Align::Left => area.x,
        Align::Center => area.x + (area.width - width) / 2.0,
        Align::Right => area.x + area.width - width,
    }
}

impl TextLayout {
    /// The chips and strike-through lines of a rich text ([`super::fit_rich`])
    /// drawn in `area` with `style`, in the drawing's pixels: one per run
    /// of a span's glyphs on a line (a span broken over lines, or split by
    /// the bidi algorithm, gives several). Chips go under the glyphs
    /// ([`Decoration::chip`]), lines over them. Empty for plain text.
    pub fn decorations(&self, style: &TextStyle, area: TextBox) -> Vec<Decoration> {
        let mut out = Vec::new();
        if self.looks.is_empty() {
            return out;
        }
        let top = block_top(self, style, area);
        let size = self.size;
        for (i, line) in self.lines.iter().enumerate() {
            let baseline = top + self.ascent + i as f32 * self.line_height;
            let x0 = line_left(style, area, line.width);
            let mut k = 0;
            while k < line.glyphs.len() {
                let look_at = line.glyphs[k].look;
                let mut end = k + 1;
                while end < line.glyphs.len() && line.glyphs[end].look == look_at {
                    end += 1;
                }
                let run = &line.glyphs[k..end];
                k = end;
                let Some(look) = (look_at as usize)
                    .checked_sub(1)
                    .and_then(|n| self.looks.get(n))
                else {
                    continue;
                };
                let left = run.iter().map(|g| g.x).fold(f32::INFINITY, f32::min);
                let right = run
                    .iter()
                    .map(|g| g.x + g.w)
                    .fold(f32::NEG_INFINITY, f32::max);
                if right <= left {
                    continue;
                }
                let (left, right) = (x0 + left, x0 + right);
                if let Some(chip) = look.chip {
                    let pad = size * 0.06;
                    out.push(Decoration {
                        area: (
                            left - pad,
                            baseline - size * 0.98,
                            right - left + 2.0 * pad,
                            size * 1.3,
                        ),
                        color: chip,
                        chip: true,
                    });
                }
                if look.strike {
                    let thick = (size * 0.07).max(1.0);
                    out.push(Decoration {
                        area: (
                            left,
                            baseline - size * 0.3 - thick / 2.0,
                            right - left,
                            thick,
                        ),
                        color: look.color.unwrap_or(style.color),
                        chip: false,
                    });
                }
            }
        }
        out
    }
}

/// Each glyph bitmap [`Target::draw`] blits, in order: the bitmap, its
/// top-left pixel, its colour and the grapheme cluster it draws (outlines
/// first, then the fills). A rich text's span draws in its own colour and
/// slant.
fn placed_glyphs<'a>(
    layout: &'a TextLayout,
    style: &'a TextStyle,
    area: TextBox,
) -> impl Iterator<Item = (Arc<Bitmap>, i32, i32, [u8; 4], u32)> + 'a {
    let block_y = block_top(layout, style, area);
    let scale = layout.size / style.size;
    let outline = style.outline.map(|o| ((o.width * scale).max(0.5), o.color));
    let passes: &[bool] = if outline.is_some() {
        &[true, false]
    } else {
        &[false]
    };
    passes.iter().flat_map(move |&is_outline| {
        let (color, width) = match (is_outline, outline) {
            (true, Some((w, c))) => (c, w),
            _ => (style.color, 0.0),
        };
        layout.lines.iter().enumerate().flat_map(move |(i, line)| {
            let baseline = block_y + layout.ascent + i as f32 * layout.line_height;
            let x0 = line_left(style, area, line.width);
            line.glyphs.iter().map(move |g| {
                let pen = (x0 + g.x).round() as i32;
                let base = (baseline + g.y).round() as i32;
                let look = (g.look as usize)
                    .checked_sub(1)
                    .and_then(|n| layout.looks.get(n));
                let slant = look.is_some_and(|l| l.italic);
                let color = match look.and_then(|l| l.color) {
                    Some(own) if !is_outline => [
                        own[0],
                        own[1],
                        own[2],
                        (own[3] as u32 * color[3] as u32 / 255) as u8,
                    ],
                    _ => color,
                };
                let bmp = glyph_bitmap(g.font, g.id, layout.size, width, slant);
                let (x, y) = (pen + bmp.left, base + bmp.top);
                (bmp, x, y, color, g.grapheme)
            })
        })
    })
}

/// The smallest rectangle holding every pixel that drawing `layout`
/// ([`Target::draw`]) changes for the glyphs of the grapheme clusters in
/// `graphemes` (outlines included): left, top, right and bottom (the last
/// two past it), unclipped; `None` when they draw nothing.
pub(crate) fn glyph_bounds(
    layout: &TextLayout,
    style: &TextStyle,
    area: TextBox,
    graphemes: std::ops::Range<usize>,
) -> Option<(i32, i32, i32, i32)> {
    placed_glyphs(layout, style, area)
        .filter(|(bmp, _, _, color, g)| {
            graphemes.contains(&(*g as usize)) && color[3] != 0 && bmp.width > 0 && bmp.height > 0
        })
        .map(|(bmp, x, y, _, _)| {
            (
                x,
                y,
                x.saturating_add(bmp.width as i32),
                y.saturating_add(bmp.height as i32),
            )
        })
        .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
}
