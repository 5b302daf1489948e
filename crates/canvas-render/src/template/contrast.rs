//! Text that reads over whatever is under it: the WCAG contrast ratio of
//! a slot's ink against the pixels its glyphs cover, and the rule that
//! picks a readable ink when the designed or requested one is not.
//!
//! Titles (slots of [`TITLE_SIZE`] and up) need [`TITLE_MIN`], body text
//! [`BODY_MIN`], measured as the 10th percentile over the covered pixels
//! (a few pixels over a star or a cloud's edge do not decide it). An
//! outline counts (the better of fill and outline against the pixel) only
//! when it is at least [`OUTLINE_SHARE`] of the font size wide and at least
//! half opaque: a thinner one edges a glyph but does not carry it.

use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex};

use super::*;

/// Slots of this size (px) and up are titles.
pub(super) const TITLE_SIZE: f32 = 40.0;
/// Least contrast of a title.
pub(super) const TITLE_MIN: f64 = 3.0;
/// Least contrast of body text.
pub(super) const BODY_MIN: f64 = 4.5;
/// Least outline width that carries a glyph, as a share of its size.
pub(super) const OUTLINE_SHARE: f32 = 0.06;
/// Outline width the rule gives a slot, as a share of its size.
const RULE_OUTLINE_SHARE: f32 = 0.075;

/// Each 8-bit sRGB channel value, linear (the WCAG transfer curve).
static LINEAR: std::sync::LazyLock<[f64; 256]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|c| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    })
});

fn linear(c: u8) -> f64 {
    LINEAR[usize::from(c)]
}

/// WCAG relative luminance of an opaque RGB colour.
pub(super) fn luminance([r, g, b]: [u8; 3]) -> f64 {
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// The WCAG contrast ratio of two opaque colours, 1–21.
pub(super) fn ratio(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `c` at its opacity over the opaque `under`.
pub(super) fn over(c: [u8; 4], under: [u8; 3]) -> [u8; 3] {
    let a = f32::from(c[3]) / 255.0;
    std::array::from_fn(|i| (f32::from(c[i]) * a + f32::from(under[i]) * (1.0 - a)).round() as u8)
}

/// The floor of a slot of this size.
pub(super) fn floor(size: f32) -> f64 {
    if size >= TITLE_SIZE {
        TITLE_MIN
    } else {
        BODY_MIN
    }
}

/// Whether an outline of this width carries a glyph of this size.
pub(super) fn outline_counts((c, w): ([u8; 4], f32), size: f32) -> bool {
    w >= OUTLINE_SHARE * size && c[3] >= 128
}

/// `ink` with its outline as wide as [`readable_ink`] may draw it: the
/// bound of where a slot's glyphs may reach, for redrawing a frame's
/// changes.
pub(super) fn widest(ink: Ink, size: f32) -> Ink {
    let (color, outline) = ink;
    (
        color,
        outline.map(|(c, w)| (c, w.max(RULE_OUTLINE_SHARE * size))),
    )
}

/// The 10th percentile of the contrast of `ink` over `under` (each pixel
/// a glyph covers); `None` without pixels.
pub(super) fn percentile_10(ink: Ink, size: f32, under: &[[u8; 3]]) -> Option<f64> {
    let (color, outline) = ink;
    let outline = outline.filter(|&o| outline_counts(o, size));
    let mut ratios: Vec<f64> = match outline {
        // An opaque fill alone: its luminance once, not per pixel.
        None if color[3] == 255 => {
            let l = luminance([color[0], color[1], color[2]]);
            under
                .iter()
                .map(|&u| {
                    let lu = luminance(u);
                    (l.max(lu) + 0.05) / (l.min(lu) + 0.05)
                })
                .collect()
        }
        _ => under
            .iter()
            .map(|&u| {
                let fill = ratio(over(color, u), u);
                match outline {
                    Some((c, _)) => fill.max(ratio(over(c, u), u)),
                    None => fill,
                }
            })
            .collect(),
    };
    if ratios.is_empty() {
        return None;
    }
    let k = ratios.len() / 10;
    Some(*ratios.select_nth_unstable_by(k, f64::total_cmp).1)
}

/// Whether `ink` reads over any pixels at all, so that none need be
/// looked at: an opaque fill in an opaque outline that counts. Over a
/// background of luminance between theirs, the better of the two ratios is
/// least where both are equal, at the square root of the fill's ratio to
/// the outline (elsewhere one of them is at least that ratio itself); white
/// in black, √21 ≈ 4.58, reads at every size.
pub(super) fn reads_over_anything(ink: Ink, size: f32) -> bool {
    let (color, outline) = ink;
    let Some((oc, _)) = outline.filter(|&o| outline_counts(o, size)) else {
        return false;
    };
    let rgb = |c: [u8; 4]| [c[0], c[1], c[2]];
    color[3] == 255 && oc[3] == 255 && ratio(rgb(color), rgb(oc)).sqrt() >= floor(size)
}

/// The text slots of the built-in still templates drawn only over fixed
/// art: every layer before them is art placed once (no other text, no
/// avatar), so the pixels under their box are the same in every render.
static OVER_FIXED_ART: LazyLock<HashSet<usize>> = LazyLock::new(|| {
    let mut slots = HashSet::new();
    for kind in TemplateKind::ALL {
        let t = kind.template();
        let still = t.timeline.frames == 1 && t.camera.is_none();
        if !still || t.layers.iter().any(|l| matches!(l, Layer::Grow(_))) {
            continue;
        }
        for layer in t.layers {
            match layer {
                Layer::Art { motion, .. } if motion.len() == 1 => {}
                // The first text only: a later one may be drawn over the
                // glyphs of this one, which change with the arguments.
                Layer::Text(slot)
                | Layer::PaintedText { slot, .. }
                | Layer::PaletteText(slot, _) => {
                    slots.insert(std::ptr::from_ref(slot) as usize);
                    break;
                }
                _ => break,
            }
        }
    }
    slots
});

/// Whether `ink` reads against every pixel of `slot`'s box, for a slot
/// drawn over fixed art ([`OVER_FIXED_ART`]), worked out once per slot and
/// ink: then it reads against any glyphs' pixels, whatever the text (the
/// least contrast over the box bounds the 10th percentile over the
/// glyphs), and the glyphs need not be drawn apart to check.
fn reads_over_fixed_art(canvas: &Pixmap, slot: &TextSlot, ink: Ink) -> bool {
    /// At most this many slot and ink pairs are remembered (inks from
    /// colour parameters are many).
    const MAX_KEPT: usize = 4096;
    /// A slot (its address) and an ink (colour, outline colour, width).
    type Key = (usize, [u8; 4], [u8; 4], u32);
    static KEPT: LazyLock<Mutex<HashMap<Key, bool>>> = LazyLock::new(|| Mutex::new(HashMap::new()));
    let ptr = std::ptr::from_ref(slot) as usize;
    if !OVER_FIXED_ART.contains(&ptr) {
        return false;
    }
    let (color, outline) = ink;
    let (oc, ow) = outline.unwrap_or(([0; 4], 0.0));
    let key = (ptr, color, oc, ow.to_bits());
    if let Some(&reads) = KEPT.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return reads;
    }
    let under = box_pixels(canvas, slot);
    let outline = outline.filter(|&o| outline_counts(o, slot.size));
    let floor = floor(slot.size);
    let reads = under.iter().all(|&u| {
        let fill = ratio(over(color, u), u);
        let best = match outline {
            Some((c, _)) => fill.max(ratio(over(c, u), u)),
            None => fill,
        };
        best >= floor
    });
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() < MAX_KEPT {
        kept.insert(key, reads);
    }
    reads
}

/// The opaque pixels of `canvas` in `slot`'s box.
fn box_pixels(canvas: &Pixmap, slot: &TextSlot) -> Vec<[u8; 3]> {
    let (x, y, w, h) = slot.area;
    let (cw, ch) = (i64::from(canvas.width()), i64::from(canvas.height()));
    let (x0, y0) = ((x.floor() as i64).max(0), (y.floor() as i64).max(0));
    let (x1, y1) = (
        ((x + w).ceil() as i64).min(cw),
        ((y + h).ceil() as i64).min(ch),
    );
    let under = canvas.pixels();
    let mut out = Vec::new();
    for py in y0..y1 {
        for px in x0..x1 {
            let p = under[(py * cw + px) as usize].demultiply();
            if p.alpha() >= 128 {
                out.push([p.red(), p.green(), p.blue()]);
            }
        }
    }
    out
}

/// The opaque pixels of `canvas` under the glyphs of `layout` drawn in
/// `slot`'s box (each glyph pixel covered at least half).
fn pixels_under(canvas: &Pixmap, slot: &TextSlot, layout: &TextLayout) -> Vec<[u8; 3]> {
    let (x, y, w, h) = slot.area;
    let (cw, ch) = (canvas.width() as i64, canvas.height() as i64);
    let (x0, y0) = (x.floor() as i64, y.floor() as i64);
    let (bw, bh) = ((x + w).ceil() as i64 - x0, (y + h).ceil() as i64 - y0);
    if bw <= 0 || bh <= 0 || bw > cw || bh > ch {
        return Vec::new();
    }
    let Ok(mut glyphs) = Canvas::new(bw as u32, bh as u32) else {
        return Vec::new();
    };
    let style = slot_style(slot, ([0, 0, 0, 255], None), slot.size);
    glyphs.draw_layout(
        layout,
        &style,
        TextBox::new(x - x0 as f32, y - y0 as f32, w, h),
    );
    let under = canvas.pixels();
    let mut out = Vec::new();
    // Row by row over the part of the box on the canvas (no division per
    // pixel), reading each glyph pixel's alpha straight from the bytes.
    let cols = (x0.max(0) - x0) as usize..((x0 + bw).min(cw) - x0).max(0) as usize;
    let rows = (y0.max(0) - y0) as usize..((y0 + bh).min(ch) - y0).max(0) as usize;
    let coverage = glyphs.pixmap.data();
    let stride = bw as usize * 4;
    for gy in rows {
        let row = &coverage[gy * stride..(gy + 1) * stride];
        let canvas_row = ((y0 + gy as i64) * cw + x0) as usize;
        for gx in cols.clone() {
            if row[gx * 4 + 3] < 128 {
                continue;
            }
            let p = under[canvas_row + gx].demultiply();
            if p.alpha() >= 128 {
                out.push([p.red(), p.green(), p.blue()]);
            }
        }
    }
    crate::buffers::recycle(glyphs.pixmap.take());
    out
}

/// The ink `slot` is drawn in over `canvas`: `ink` when it reads against
/// the pixels its glyphs cover; else, in this order, the first that does
/// (or the last): the colour at full opacity; for a slot drawn with an
/// outline, the colour in a wider, firmer outline of black or white,
/// whichever stands out; for one without, black or white, whichever reads.
pub(super) fn readable_ink(canvas: &Pixmap, slot: &TextSlot, ink: Ink, layout: &TextLayout) -> Ink {
    if reads_over_anything(ink, slot.size) || reads_over_fixed_art(canvas, slot, ink) {
        return ink;
    }
    let under = pixels_under(canvas, slot, layout);
    let floor = floor(slot.size);
    let reads = |ink: Ink| percentile_10(ink, slot.size, &under).is_none_or(|r| r >= floor);
    if reads(ink) {
        return ink;
    }
    let (color, outline) = ink;
    let opaque = [color[0], color[1], color[2], 255];
    if reads((opaque, outline)) {
        return (opaque, outline);
    }
    let (black, white) = ([0, 0, 0, 255], [255, 255, 255, 255]);
    let score = |ink: Ink| percentile_10(ink, slot.size, &under).unwrap_or(0.0);
    match outline {
        Some((_, w)) => {
            let w = w.max(RULE_OUTLINE_SHARE * slot.size);
            let dark = (opaque, Some(([0, 0, 0, 230], w)));
            let light = (opaque, Some(([255, 255, 255, 230], w)));
            if score(dark) >= score(light) {
                dark
            } else {
                light
            }
        }
        None => {
            if score((black, None)) >= score((white, None)) {
                (black, None)
            } else {
                (white, None)
            }
        }
    }
}
