//! Drawing helpers shared by the scenes: a tiny-skia canvas with shapes,
//! gradients, the avatar as a paint, text and SVG art.

use std::sync::LazyLock;

use tiny_skia::{
    Color, FillRule, GradientStop, LinearGradient, Paint, Path, PathBuilder, Pixmap, Point,
    RadialGradient, Rect, Shader, SpreadMode, Stroke, Transform,
};

use crate::text::{self, Target, TextBox, TextLayout, TextStyle};
use crate::{RenderError, RgbaImage};

/// Straight RGBA colour from a `0xRRGGBB` value and an alpha.
pub(crate) fn rgba(hex: u32, a: u8) -> Color {
    Color::from_rgba8((hex >> 16) as u8, (hex >> 8) as u8, hex as u8, a)
}

/// Straight RGBA bytes for text from a `0xRRGGBB` value.
pub(crate) fn text_rgb(hex: u32) -> [u8; 4] {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255]
}

pub(crate) fn paint(color: Color) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(color);
    p.anti_alias = true;
    p
}

pub(crate) fn shader_paint(shader: Shader<'_>) -> Paint<'_> {
    Paint {
        shader,
        anti_alias: true,
        ..Paint::default()
    }
}

/// Gradient stops from `(position, colour)` pairs.
fn gradient_stops(stops: &[(f32, Color)]) -> Vec<GradientStop> {
    stops
        .iter()
        .map(|&(p, c)| GradientStop::new(p, c))
        .collect()
}

pub(crate) fn linear(
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    stops: &[(f32, Color)],
) -> Shader<'static> {
    LinearGradient::new(
        Point::from_xy(x0, y0),
        Point::from_xy(x1, y1),
        gradient_stops(stops),
        SpreadMode::Pad,
        Transform::identity(),
    )
    .unwrap_or(Shader::SolidColor(Color::BLACK))
}

pub(crate) fn radial(cx: f32, cy: f32, r: f32, stops: &[(f32, Color)]) -> Shader<'static> {
    RadialGradient::new(
        Point::from_xy(cx, cy),
        Point::from_xy(cx, cy),
        r,
        gradient_stops(stops),
        SpreadMode::Pad,
        Transform::identity(),
    )
    .unwrap_or(Shader::SolidColor(Color::BLACK))
}

pub(crate) fn rect_path(x: f32, y: f32, w: f32, h: f32) -> Path {
    PathBuilder::from_rect(Rect::from_xywh(x, y, w.max(0.01), h.max(0.01)).expect("finite rect"))
}

pub(crate) fn rrect_path(x: f32, y: f32, w: f32, h: f32, r: f32) -> Path {
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    let k = 0.552_284_8 * r;
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    pb.finish().expect("non-empty path")
}

pub(crate) fn circle_path(cx: f32, cy: f32, r: f32) -> Path {
    PathBuilder::from_circle(cx, cy, r.max(0.01)).expect("positive radius")
}

/// Ground along the bottom of a scene: from `(0, y0)` a cubic curve through
/// the control points `c1` and `c2` to `end`, then straight down to `bottom`
/// and back along it.
pub(crate) fn ground(
    y0: f32,
    c1: (f32, f32),
    c2: (f32, f32),
    end: (f32, f32),
    bottom: f32,
) -> Path {
    let mut pb = PathBuilder::new();
    pb.move_to(0.0, y0);
    pb.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
    pb.line_to(end.0, bottom);
    pb.line_to(0.0, bottom);
    pb.close();
    pb.finish().expect("ground")
}

/// A closed polygon.
pub(crate) fn poly(points: &[(f32, f32)]) -> Path {
    let mut pb = PathBuilder::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb.close();
    pb.finish().expect("non-empty polygon")
}

/// The avatar, square-cropped and premultiplied, ready to be used as a paint.
pub(crate) struct Avatar {
    pixmap: Pixmap,
}

impl Avatar {
    /// Centre-crops `img` to a square and downsizes it (if much larger) to
    /// about `display` pixels (`None` gives a neutral placeholder
    /// silhouette), then [`Avatar::tint`]s it by `tint` (colour, strength)
    /// when given, in the same pass over the pixels.
    pub(crate) fn prepare_tinted(
        img: Option<&RgbaImage>,
        display: u32,
        grey: bool,
        tint: Option<(u32, f32)>,
    ) -> Result<Avatar, RenderError> {
        let Some(img) = img else {
            let mut placeholder = Avatar {
                pixmap: placeholder(),
            };
            if let Some((hex, strength)) = tint {
                placeholder.tint(hex, strength);
            }
            return Ok(placeholder);
        };
        let tint = tint.map(|(hex, strength)| TintTable::new(hex, strength));
        let (w, h) = img.dimensions();
        crate::limits::check_size(w, h)?;
        let side = w.min(h);
        let view = image::imageops::crop_imm(img, (w - side) / 2, (h - side) / 2, side, side);
        let target = display.clamp(1, 2048);
        // Shrunk once to the exact display size (area averaging), so that
        // drawing it is a plain copy (nearest sampling at integer offsets);
        // a smaller avatar is kept as is and enlarged bilinearly while drawn.
        let shrunk: Option<RgbaImage> = (side > target).then(|| {
            let (x0, y0) = ((w - side) / 2, (h - side) / 2);
            box_shrink(img, (x0, y0, side), target)
                .unwrap_or_else(|| image::imageops::thumbnail(&*view, target, target))
        });
        // Otherwise the square's rows are read in place, without a copy.
        let (sw, sh, stride, start) = match &shrunk {
            Some(s) => (s.width(), s.height(), s.width() as usize * 4, 0),
            None => {
                let (x0, y0) = ((w - side) as usize / 2, (h - side) as usize / 2);
                (side, side, w as usize * 4, (y0 * w as usize + x0) * 4)
            }
        };
        let source = shrunk.as_ref().map_or(img.as_raw(), |s| s.as_raw());
        let rows = source[start..].chunks(stride).take(sh as usize);
        // Every byte is written below, so a reused buffer needs no zeroing.
        let size = tiny_skia::IntSize::from_wh(sw, sh).ok_or(RenderError::EmptyImage)?;
        let len = sw as usize * sh as usize * 4;
        let mut pixmap =
            Pixmap::from_vec(crate::buffers::take(len), size).ok_or(RenderError::EmptyImage)?;
        let width = sw as usize * 4;
        for (out, row) in pixmap.data_mut().chunks_exact_mut(width).zip(rows) {
            let row = &row[..width];
            let tint = tint.as_ref();
            if grey {
                prepare_row::<true>(out, row, tint);
            } else if row.chunks_exact(4).fold(255, |m, p| m & p[3]) == 255 {
                // An opaque row in colour (the usual avatar) is its own
                // premultiplied form: copied, or looked up in the tint's
                // table. (Its alphas folded rather than tested with `all`:
                // no early exit, so the test runs in vector lanes.)
                match tint {
                    None => out.copy_from_slice(row),
                    Some(t) => {
                        for (dst, src) in out.chunks_exact_mut(4).zip(row.chunks_exact(4)) {
                            dst[0] = t.opaque[0][usize::from(src[0])];
                            dst[1] = t.opaque[1][usize::from(src[1])];
                            dst[2] = t.opaque[2][usize::from(src[2])];
                            dst[3] = 255;
                        }
                    }
                }
            } else {
                prepare_row::<false>(out, row, tint);
            }
        }
        if let Some(shrunk) = shrunk {
            crate::buffers::recycle_image(shrunk);
        }
        Ok(Avatar { pixmap })
    }

    /// The prepared (premultiplied) square avatar.
    pub(crate) fn into_pixmap(self) -> Pixmap {
        self.pixmap
    }

    /// Moves every pixel `strength` (0–1) of the way to the colour `hex`,
    /// keeping its alpha.
    pub(crate) fn tint(&mut self, hex: u32, strength: f32) {
        let table = TintTable::new(hex, strength);
        for px in self.pixmap.data_mut().chunks_exact_mut(4) {
            table.apply(px);
        }
    }
}

/// The square `(x0, y0, side)` of `img` shrunk to `target` × `target`
/// (`target` < `side`) with exactly the pixels `image::imageops::thumbnail`
/// gives: each output pixel the rounded mean of the block of source pixels
/// its bounds (computed as `thumbnail` computes them, in `f32`) enclose. The
/// sums are made a row at a time, every source pixel read once in place,
/// instead of one generic pixel read per block pixel. `None` when some
/// block would be empty (where `thumbnail` interpolates instead), which a
/// shrink never gives.
pub(crate) fn box_shrink(
    img: &RgbaImage,
    (x0, y0, side): (u32, u32, u32),
    target: u32,
) -> Option<RgbaImage> {
    let ratio = side as f32 / target as f32;
    let bounds = |i: u32| {
        let low = i as f32 * ratio;
        let start = (low.ceil() as u32).clamp(0, side - 1);
        let end = ((low + ratio).ceil() as u32).clamp(start, side);
        (start < end).then_some((start as usize, end as usize))
    };
    let cols: Vec<(usize, usize)> = (0..target).map(bounds).collect::<Option<_>>()?;
    let rows: Vec<(usize, usize)> = (0..target).map(bounds).collect::<Option<_>>()?;
    let stride = img.width() as usize * 4;
    let data = img.as_raw();
    let t = target as usize;
    let row = |y: usize| &data[(y0 as usize + y) * stride + x0 as usize * 4..][..side as usize * 4];
    // Per source column and channel, the sum over the current block of
    // rows (a plain vectorised add of whole rows), then summed across each
    // block of columns.
    let mut columns = vec![0u32; side as usize * 4];
    // Every byte is written below: a reused buffer needs no zeroing.
    let mut out = RgbaImage::from_raw(target, target, crate::buffers::take(t * t * 4))?;
    for (oy, &(top, bottom)) in rows.iter().enumerate() {
        for (s, &c) in columns.iter_mut().zip(row(top)) {
            *s = u32::from(c);
        }
        for y in top + 1..bottom {
            for (s, &c) in columns.iter_mut().zip(row(y)) {
                *s += u32::from(c);
            }
        }
        let height = (bottom - top) as u32;
        let line = &mut out.as_mut()[oy * t * 4..][..t * 4];
        // The block's pixel count and its reciprocal: blocks take only two
        // or three sizes, so it is computed when the size changes.
        let mut block = (0, None);
        for (o, &(left, right)) in line.chunks_exact_mut(4).zip(&cols) {
            // A block of one pixel (most of them when shrinking by a
            // little, 512 to 488 px) is that pixel.
            if height == 1 && right - left == 1 {
                for (o, &c) in o.iter_mut().zip(&columns[left * 4..left * 4 + 4]) {
                    *o = c as u8;
                }
                continue;
            }
            let mut sum = [0u32; 4];
            for p in columns[left * 4..right * 4].chunks_exact(4) {
                for (s, &c) in sum.iter_mut().zip(p) {
                    *s += c;
                }
            }
            let n = (right - left) as u32 * height;
            if block.0 != n {
                block = (n, reciprocal(n));
            }
            for (o, s) in o.iter_mut().zip(sum) {
                let rounded = s + n / 2;
                let mean = match block.1 {
                    Some(m) => ((u64::from(rounded) * m) >> 32) as u32,
                    None => rounded / n,
                };
                *o = mean.min(255) as u8;
            }
        }
    }
    Some(out)
}

/// `⌈2³² / n⌉`, with which `x * m >> 32` is `x / n` for every `x` below
/// 256 `n` (the rounded sum of a block of `n` bytes) when `n` ≤ 4096: the
/// error `x (m n − 2³²) / (n 2³²)` is then below `1 / n`. `None` for a
/// larger block, which is divided.
pub(crate) fn reciprocal(n: u32) -> Option<u64> {
    (n <= 4096).then(|| (1u64 << 32).div_ceil(u64::from(n)))
}

/// A grey head-and-shoulders silhouette used when no avatar is given.
fn placeholder() -> Pixmap {
    let mut p = Pixmap::new(256, 256).expect("fixed size");
    p.fill(Color::from_rgba8(0xc8, 0xcd, 0xd3, 255));
    let fg = paint(Color::from_rgba8(0x8e, 0x96, 0xa0, 255));
    p.fill_path(
        &circle_path(128.0, 100.0, 48.0),
        &fg,
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    let mut pb = PathBuilder::new();
    pb.move_to(40.0, 256.0);
    pb.cubic_to(40.0, 170.0, 216.0, 170.0, 216.0, 256.0);
    pb.close();
    if let Some(path) = pb.finish() {
        p.fill_path(&path, &fg, FillRule::Winding, Transform::identity(), None);
    }
    p
}

/// A scene canvas.
pub(crate) struct Canvas {
    pub pixmap: Pixmap,
}

impl Canvas {
    /// A copy of a kept layer, in a buffer from the store
    /// ([`crate::buffers`]) when one was given back.
    pub(crate) fn from_layer(layer: &Pixmap) -> Canvas {
        let data = crate::buffers::copy_of(layer.data());
        let size = tiny_skia::IntSize::from_wh(layer.width(), layer.height()).expect("non-empty");
        let pixmap = Pixmap::from_vec(data, size).expect("the layer's own size");
        Canvas { pixmap }
    }

    /// A transparent canvas, in a buffer from the store when one was given
    /// back.
    pub(crate) fn new(width: u32, height: u32) -> Result<Canvas, RenderError> {
        crate::limits::check_size(width, height)?;
        let size = tiny_skia::IntSize::from_wh(width, height).ok_or(RenderError::EmptyImage)?;
        let len = width as usize * height as usize * 4;
        let mut data = crate::buffers::take_empty(len);
        data.resize(len, 0);
        Ok(Canvas {
            pixmap: Pixmap::from_vec(data, size).ok_or(RenderError::EmptyImage)?,
        })
    }

    /// A `width` × `height` scene background: a linear gradient from the
    /// top-left corner to `to` (`(0, height)` runs top to bottom,
    /// `(width, height)` along the diagonal).
    pub(crate) fn backdrop(
        width: u32,
        height: u32,
        to: (f32, f32),
        stops: &[(f32, Color)],
    ) -> Result<Canvas, RenderError> {
        let mut c = Canvas::new(width, height)?;
        c.fill_all(linear(0.0, 0.0, to.0, to.1, stops));
        Ok(c)
    }

    /// Paints the whole canvas with `shader`.
    pub(crate) fn fill_all(&mut self, shader: Shader<'_>) {
        let (w, h) = (self.pixmap.width() as f32, self.pixmap.height() as f32);
        self.fill(&rect_path(0.0, 0.0, w, h), &shader_paint(shader));
    }

    /// A soft round glow: `hex` at `alpha` in the centre, fading out to
    /// nothing at radius `r`. Only the square around the circle is painted
    /// (outside it the gradient is transparent), so a small glow costs
    /// its size, not the canvas's.
    pub(crate) fn glow(&mut self, cx: f32, cy: f32, r: f32, hex: u32, alpha: u8) {
        let shader = radial(cx, cy, r, &[(0.0, rgba(hex, alpha)), (1.0, rgba(hex, 0))]);
        self.fill(
            &rect_path(cx - r - 1.0, cy - r - 1.0, 2.0 * r + 2.0, 2.0 * r + 2.0),
            &shader_paint(shader),
        );
    }

    pub(crate) fn fill(&mut self, path: &Path, paint: &Paint<'_>) {
        self.fill_t(path, paint, Transform::identity());
    }

    pub(crate) fn fill_t(&mut self, path: &Path, paint: &Paint<'_>, t: Transform) {
        self.pixmap
            .fill_path(path, paint, FillRule::Winding, t, None);
    }

    pub(crate) fn color(&mut self, path: &Path, color: Color) {
        self.fill(path, &paint(color));
    }

    pub(crate) fn stroke(&mut self, path: &Path, color: Color, width: f32) {
        self.stroke_t(path, color, width, Transform::identity());
    }

    pub(crate) fn stroke_t(&mut self, path: &Path, color: Color, width: f32, t: Transform) {
        let stroke = Stroke {
            width,
            line_cap: tiny_skia::LineCap::Round,
            line_join: tiny_skia::LineJoin::Round,
            ..Stroke::default()
        };
        self.pixmap
            .stroke_path(path, &paint(color), &stroke, t, None);
    }

    /// A soft drop shadow under `path`: a few widening translucent strokes.
    pub(crate) fn shadow(&mut self, path: &Path, dy: f32, spread: f32, alpha: u8) {
        let t = Transform::from_translate(0.0, dy);
        let steps = 6;
        for i in (1..=steps).rev() {
            let w = spread * i as f32 / steps as f32 * 2.0;
            let a = (alpha as f32 / steps as f32) as u8;
            self.stroke_t(path, Color::from_rgba8(0, 0, 0, a), w, t);
        }
        self.fill_t(path, &paint(Color::from_rgba8(0, 0, 0, alpha)), t);
    }

    /// Lays `text` out in `area` with shrink-to-fit down to `min_size`, and draws it.
    pub(crate) fn text(
        &mut self,
        text: &str,
        style: &TextStyle,
        area: TextBox,
        min_size: f32,
    ) -> Result<TextLayout, RenderError> {
        let layout = text::fit_text(text, style, area, min_size)?;
        self.draw_layout(&layout, style, area);
        Ok(layout)
    }

    /// Draws a single line at `(x, baseline_top y)`, returning its width.
    pub(crate) fn line(
        &mut self,
        text: &str,
        style: &TextStyle,
        x: f32,
        y: f32,
        max_width: f32,
    ) -> Result<f32, RenderError> {
        let area = TextBox::new(x, y, max_width.max(1.0), style.size * 2.0);
        let layout = text::fit_single_line(text, style, max_width.max(1.0))?;
        let w = layout.width();
        self.draw_layout(&layout, style, area);
        Ok(w)
    }

    pub(crate) fn draw_layout(&mut self, layout: &TextLayout, style: &TextStyle, area: TextBox) {
        let (w, h) = (self.pixmap.width() as usize, self.pixmap.height() as usize);
        let mut target = Target {
            data: self.pixmap.data_mut(),
            width: w,
            height: h,
            premultiplied: true,
        };
        target.draw(layout, style, area);
    }

    /// Composites another canvas onto this one at `(x, y)`.
    pub(crate) fn draw_canvas(&mut self, other: &Canvas, x: i32, y: i32) {
        self.pixmap.draw_pixmap(
            x,
            y,
            other.pixmap.as_ref(),
            &tiny_skia::PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }

    /// Renders parsed SVG art with `transform`.
    pub(crate) fn svg(&mut self, tree: &resvg::usvg::Tree, transform: Transform) {
        resvg::render(tree, transform, &mut self.pixmap.as_mut());
    }

    /// Converts a canvas whose every pixel is opaque to an RGBA image: its
    /// premultiplied colours are its straight ones, so no pixel is looked
    /// at (a canvas that started opaque stays so under source-over drawing,
    /// the only kind there is; debug builds check).
    pub(crate) fn into_opaque_image(self) -> RgbaImage {
        let (w, h) = (self.pixmap.width(), self.pixmap.height());
        debug_assert!(is_opaque(&self.pixmap), "an opaque canvas");
        RgbaImage::from_raw(w, h, self.pixmap.take()).expect("buffer matches size")
    }

    /// Converts to an RGBA image: as it is when `opaque` (every pixel is,
    /// see [`Canvas::into_opaque_image`]), else un-premultiplied.
    pub(crate) fn into_image_known(self, opaque: bool) -> RgbaImage {
        match opaque {
            true => self.into_opaque_image(),
            false => self.into_image(),
        }
    }

    /// Converts to a straight-alpha RGBA image.
    pub(crate) fn into_image(self) -> RgbaImage {
        let (w, h) = (self.pixmap.width(), self.pixmap.height());
        let mut data = self.pixmap.take();
        // Eight pixels at a time: a run all opaque or all transparent (most
        // of an opaque picture) is left as it is.
        const ALPHA: u64 = 0xff00_0000_ff00_0000;
        let mut runs = data.chunks_exact_mut(32);
        for run in &mut runs {
            let words = run
                .chunks_exact(8)
                .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")) & ALPHA);
            let (mut and, mut or) = (ALPHA, 0);
            for w in words {
                and &= w;
                or |= w;
            }
            if and == ALPHA || or == 0 {
                continue;
            }
            unpremultiply(run);
        }
        unpremultiply(runs.into_remainder());
        RgbaImage::from_raw(w, h, data).expect("buffer matches size")
    }
}

/// A tint ([`Avatar::tint`]) ready to apply: each premultiplied channel
/// moves `strength` of the way to the colour at the pixel's alpha, opaque
/// pixels (most of them) by a table per channel.
struct TintTable {
    rgb: [u32; 3],
    s: u32,
    opaque: [[u8; 256]; 3],
}

impl TintTable {
    fn new(hex: u32, strength: f32) -> TintTable {
        let s = (strength.clamp(0.0, 1.0) * 256.0) as u32;
        let rgb = [(hex >> 16) & 0xff, (hex >> 8) & 0xff, hex & 0xff];
        let opaque = rgb.map(|t| std::array::from_fn(|c| mix(c as u32, (t * 255 + 127) / 255, s)));
        TintTable { rgb, s, opaque }
    }

    /// Tints one premultiplied pixel.
    fn apply(&self, px: &mut [u8]) {
        let a = u32::from(px[3]);
        if a == 255 {
            for (c, table) in px[..3].iter_mut().zip(&self.opaque) {
                *c = table[usize::from(*c)];
            }
            return;
        }
        for (c, t) in px[..3].iter_mut().zip(self.rgb) {
            *c = mix(u32::from(*c), (t * a + 127) / 255, self.s);
        }
    }
}

/// One row of an avatar (straight RGBA) as drawn: premultiplied, in grey
/// when `GREY`, tinted by `tint`.
#[inline(always)]
fn prepare_row<const GREY: bool>(out: &mut [u8], row: &[u8], tint: Option<&TintTable>) {
    for (dst, src) in out.chunks_exact_mut(4).zip(row.chunks_exact(4)) {
        let a = src[3] as u32;
        let (mut r, mut g, mut b) = (src[0] as u32, src[1] as u32, src[2] as u32);
        if GREY {
            let l = (r * 299 + g * 587 + b * 114 + 500) / 1000;
            (r, g, b) = (l, l, l);
        }
        dst[0] = ((r * a + 127) / 255) as u8;
        dst[1] = ((g * a + 127) / 255) as u8;
        dst[2] = ((b * a + 127) / 255) as u8;
        dst[3] = a as u8;
        if let Some(t) = tint {
            t.apply(dst);
        }
    }
}

/// `c` moved `s`/256 of the way to `target`.
fn mix(c: u32, target: u32, s: u32) -> u8 {
    ((c * (256 - s) + target * s) >> 8) as u8
}

/// Premultiplied RGBA pixels to straight alpha, in place.
pub(crate) fn unpremultiply(pixels: &mut [u8]) {
    for px in pixels.chunks_exact_mut(4) {
        let a = px[3] as u32;
        if a != 255 && a != 0 {
            for c in &mut px[..3] {
                *c = ((*c as u32 * 255 + a / 2) / a).min(255) as u8;
            }
        }
    }
}

/// Whether every pixel of `pixmap` is opaque.
pub(crate) fn is_opaque(pixmap: &Pixmap) -> bool {
    pixmap.data().chunks_exact(4).all(|p| p[3] == 255)
}

/// Unwraps the canvas of a static layer: its size is a constant, so failure
/// is a bug caught by every scene test.
pub(crate) fn base_layer(canvas: Result<Canvas, RenderError>) -> Pixmap {
    canvas.expect("static scene layer renders").pixmap
}

/// Parses bundled SVG art once.
pub(crate) fn parse_svg(data: &'static [u8]) -> resvg::usvg::Tree {
    resvg::usvg::Tree::from_data(data, &resvg::usvg::Options::default())
        .expect("bundled SVG parses (checked by tests)")
}

/// The wise old turtle (`assets/art/turtle.svg`), 420×380 user units.
pub(crate) static TURTLE: LazyLock<resvg::usvg::Tree> =
    LazyLock::new(|| parse_svg(include_bytes!("../assets/art/turtle.svg")));

/// A heart centred on `(cx, cy)`, `s` pixels wide.
pub(crate) fn heart(cx: f32, cy: f32, s: f32) -> tiny_skia::Path {
    let h = s / 2.0;
    let mut pb = PathBuilder::new();
    pb.move_to(cx, cy + h * 0.9);
    pb.cubic_to(
        cx - h * 1.2,
        cy + h * 0.1,
        cx - h * 1.05,
        cy - h * 0.95,
        cx,
        cy - h * 0.45,
    );
    pb.cubic_to(
        cx + h * 1.05,
        cy - h * 0.95,
        cx + h * 1.2,
        cy + h * 0.1,
        cx,
        cy + h * 0.9,
    );
    pb.close();
    pb.finish().expect("heart path")
}
