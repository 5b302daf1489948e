//! Colour and blur filters on RGBA images.
//!
//! Every filter takes any RGBA image and returns an image of the **same
//! size**, and all but [`Pixelate`](Filter::Pixelate) keep the **alpha
//! channel** exactly: only the colour channels change. Filters are
//! values of [`Filter`]; [`apply`] runs one into a new image and
//! [`apply_in_place`] overwrites its input (saving an allocation).
//!
//! ## Definitions
//!
//! Grey values use the ITU-R BT.601 luma weights, the ones PIL/Pillow, JPEG
//! and most image tools use for "convert to greyscale":
//!
//! `L ≈ 0.299 R + 0.587 G + 0.114 B`, computed in 8-bit fixed point as
//! exactly `L = (77 R + 150 G + 29 B + 128) >> 8` (never more than 1 from the
//! exactly rounded value).
//!
//! | filter | output colour of a pixel `(R, G, B)` with grey value `L` |
//! |---|---|
//! | [`Greyscale`](Filter::Greyscale) | `(L, L, L)` |
//! | [`Invert`](Filter::Invert) | `(255 − R, 255 − G, 255 − B)` |
//! | [`InvertGreyscale`](Filter::InvertGreyscale) | `(255 − L, 255 − L, 255 − L)` |
//! | [`Red`](Filter::Red) / [`Green`](Filter::Green) / [`Blue`](Filter::Blue) | `(L, 0, 0)` / `(0, L, 0)` / `(0, 0, L)` |
//! | [`Blurple`](Filter::Blurple) | `L` on a ramp through #5865F2 (see below) |
//! | [`Blurple2`](Filter::Blurple2) | `L` on a ramp through #7289DA |
//! | [`Threshold(t)`](Filter::Threshold) | white `(255, 255, 255)` if `L ≥ t`, else black `(0, 0, 0)` |
//! | [`Sepia`](Filter::Sepia) | the standard sepia matrix, each result clamped to 255: `R' = .393R + .769G + .189B`, `G' = .349R + .686G + .168B`, `B' = .272R + .534G + .131B` |
//! | [`Brightness(f)`](Filter::Brightness) | `(min(255, round(f·R)), …)`: every channel multiplied by `f` (as CSS `brightness()`); `1` is unchanged |
//! | [`Color([r, g, b])`](Filter::Color) | `(round(R·r/255), round(G·g/255), round(B·b/255))`: the image seen through glass of that colour (a "multiply" blend); white becomes the colour, black stays black |
//! | [`Blur`](Filter::Blur) | a Gaussian blur (three box passes) with σ = shorter side / 100 (5.12 px on a 512 px avatar), at least 1 px |
//! | [`Pixelate`](Filter::Pixelate) | square blocks of side `max(2, shorter side / 32)` (16 px on a 512 px avatar, 32 blocks across), each filled with the mean colour and mean alpha of a 4 × 4 grid of evenly spread samples (all pixels of blocks narrower than 4); blocks start at the top-left corner, the last row and column of blocks may be narrower |
//!
//! The blurple ramps map `L = 0` to a deep shade of the brand colour (the
//! brand colour × 0.2), `L = 128` to the brand colour and `L = 255` to white,
//! linearly in between.
//!
//! Blur and pixelate weight each pixel's colour by its alpha, so the
//! invisible colour of transparent pixels never bleeds into visible ones.
//! Every filter but pixelate keeps the alpha channel exactly; pixelate makes
//! alpha blocky too (a pixelated round avatar gets stepped edges).
//!
//! ```
//! use canvas_render::{apply, Brightness, Filter};
//!
//! let img = canvas_render::solid(8, 8, [200, 100, 50]).unwrap();
//! let grey = apply(&Filter::Greyscale, &img).unwrap();
//! assert_eq!(grey.get_pixel(0, 0).0, [124, 124, 124, 255]);
//!
//! let darker = apply(&Filter::Brightness(Brightness::new(0.5).unwrap()), &img).unwrap();
//! assert_eq!(darker.get_pixel(0, 0).0, [100, 50, 25, 255]);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::resize::mul_div255;
use crate::{RenderError, RgbaImage, check_size};

/// One image filter. See the [module documentation](self) for the exact
/// definition of each.
///
/// Names (as used in URLs, [`Filter::name`] and [`Filter::from_name`]) are the
/// lower-case variant names: `blue`, `blurple`, `blurple2`, `blur`,
/// `pixelate`, `brightness`, `color`, `green`, `greyscale`, `invert`,
/// `invertgreyscale`, `red`, `sepia`, `threshold`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Filter {
    /// The grey value in the blue channel: `(0, 0, L)`.
    Blue,
    /// The grey value on a ramp through the brand colour #5865F2.
    Blurple,
    /// The grey value on a ramp through the older brand colour #7289DA.
    Blurple2,
    /// Gaussian blur, σ = shorter side / 100 (at least 1 px).
    Blur,
    /// Square blocks of side `max(2, shorter side / 32)`, each of one colour
    /// (alpha included).
    Pixelate,
    /// Every colour channel multiplied by a factor; `1` is unchanged.
    Brightness(Brightness),
    /// Multiplies each colour channel by the given colour (`[r, g, b]`), as
    /// seen through coloured glass.
    Color([u8; 3]),
    /// The grey value in the green channel: `(0, L, 0)`.
    Green,
    /// Grey: `r = g = b = L`.
    Greyscale,
    /// `255 − c` for each colour channel.
    Invert,
    /// The inverted grey value: `r = g = b = 255 − L`.
    InvertGreyscale,
    /// The grey value in the red channel: `(L, 0, 0)`.
    Red,
    /// The standard sepia matrix.
    Sepia,
    /// Black or white by grey value against a level.
    Threshold(Threshold),
}

impl Filter {
    /// The default colour of [`Filter::Color`] used by [`Filter::from_name`]
    /// and [`Filter::ALL`]: #5865F2.
    pub const DEFAULT_COLOR: [u8; 3] = BLURPLE;

    /// Every filter, in alphabetical order of [`name`](Filter::name), with
    /// default parameters.
    ///
    /// ```
    /// use canvas_render::Filter;
    /// assert_eq!(Filter::ALL.len(), 14);
    /// assert!(Filter::ALL.iter().all(|f| Filter::from_name(f.name()) == Some(*f)));
    /// ```
    pub const ALL: [Filter; 14] = [
        Filter::Blue,
        Filter::Blur,
        Filter::Blurple,
        Filter::Blurple2,
        Filter::Brightness(Brightness::DEFAULT),
        Filter::Color(Filter::DEFAULT_COLOR),
        Filter::Green,
        Filter::Greyscale,
        Filter::Invert,
        Filter::InvertGreyscale,
        Filter::Pixelate,
        Filter::Red,
        Filter::Sepia,
        Filter::Threshold(Threshold::DEFAULT),
    ];

    /// The filter's lower-case name, as used in URLs (`"invertgreyscale"`).
    pub const fn name(&self) -> &'static str {
        match self {
            Filter::Blue => "blue",
            Filter::Blurple => "blurple",
            Filter::Blurple2 => "blurple2",
            Filter::Blur => "blur",
            Filter::Pixelate => "pixelate",
            Filter::Brightness(_) => "brightness",
            Filter::Color(_) => "color",
            Filter::Green => "green",
            Filter::Greyscale => "greyscale",
            Filter::Invert => "invert",
            Filter::InvertGreyscale => "invertgreyscale",
            Filter::Red => "red",
            Filter::Sepia => "sepia",
            Filter::Threshold(_) => "threshold",
        }
    }

    /// The filter of that [`name`](Filter::name) (exact, lower case), with
    /// default parameters ([`Brightness::DEFAULT`], [`Threshold::DEFAULT`],
    /// [`Filter::DEFAULT_COLOR`]); `None` for an unknown name.
    ///
    /// ```
    /// use canvas_render::{Filter, Threshold};
    /// assert_eq!(Filter::from_name("threshold"), Some(Filter::Threshold(Threshold::DEFAULT)));
    /// assert_eq!(Filter::from_name("Sepia"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Filter> {
        Filter::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn check_param(name: &'static str, value: f32, min: f32, max: f32) -> Result<f32, RenderError> {
    if !value.is_finite() {
        return Err(RenderError::ParameterNotFinite { name });
    }
    if !(min..=max).contains(&value) {
        return Err(RenderError::ParameterOutOfRange {
            name,
            value,
            min,
            max,
        });
    }
    Ok(value)
}

fn parse_param(name: &'static str, s: &str) -> Result<f32, RenderError> {
    s.trim()
        .parse::<f32>()
        .map_err(|_| RenderError::ParameterNotNumber { name })
}

/// The factor of [`Filter::Brightness`]: every colour channel is multiplied
/// by it (like CSS `filter: brightness()`), so **higher is brighter**.
///
/// Range `0.0 ..= 5.0` ([`MIN`](Brightness::MIN), [`MAX`](Brightness::MAX)):
/// `0` is black, `1` unchanged, `2` twice as bright; at `5` nearly everything
/// is white. Default [`DEFAULT`](Brightness::DEFAULT) = `1.5`.
///
/// ```
/// use canvas_render::{Brightness, RenderError};
///
/// assert_eq!(Brightness::new(1.25).unwrap().factor(), 1.25);
/// assert_eq!("2".parse::<Brightness>().unwrap().factor(), 2.0);
/// assert!(matches!(Brightness::new(7.0), Err(RenderError::ParameterOutOfRange { .. })));
/// assert!(matches!(Brightness::new(f32::NAN), Err(RenderError::ParameterNotFinite { .. })));
/// assert!(matches!("bright".parse::<Brightness>(), Err(RenderError::ParameterNotNumber { .. })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Brightness(f32);

impl Brightness {
    /// The smallest factor: black.
    pub const MIN: f32 = 0.0;
    /// The largest factor.
    pub const MAX: f32 = 5.0;
    /// The default factor, 1.5 (half as bright again).
    pub const DEFAULT: Brightness = Brightness(1.5);

    /// A brightness factor, checked against [`MIN`](Self::MIN)..=[`MAX`](Self::MAX).
    pub fn new(factor: f32) -> Result<Self, RenderError> {
        check_param("brightness", factor, Self::MIN, Self::MAX).map(Brightness)
    }

    /// The factor.
    pub const fn factor(self) -> f32 {
        self.0
    }
}

impl Default for Brightness {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl FromStr for Brightness {
    type Err = RenderError;
    /// Parses a decimal number (surrounding whitespace allowed) and checks it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Brightness::new(parse_param("brightness", s)?)
    }
}

/// The level of [`Filter::Threshold`]: pixels whose grey value is at least the
/// level become white, the others black.
///
/// Range `0.0 ..= 255.0` (the grey scale; fractions allowed, so `127.5`
/// behaves as `128`). Default [`DEFAULT`](Threshold::DEFAULT) = `128`. A level
/// of `0` makes everything white.
///
/// ```
/// use canvas_render::{RenderError, Threshold};
///
/// assert_eq!("100".parse::<Threshold>().unwrap().level(), 100.0);
/// assert!(matches!(Threshold::new(-1.0), Err(RenderError::ParameterOutOfRange { .. })));
/// assert!(matches!(Threshold::new(f32::INFINITY), Err(RenderError::ParameterNotFinite { .. })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Threshold(f32);

impl Threshold {
    /// The smallest level (everything white).
    pub const MIN: f32 = 0.0;
    /// The largest level (only pure white stays white).
    pub const MAX: f32 = 255.0;
    /// The default level, 128.
    pub const DEFAULT: Threshold = Threshold(128.0);

    /// A threshold level, checked against [`MIN`](Self::MIN)..=[`MAX`](Self::MAX).
    pub fn new(level: f32) -> Result<Self, RenderError> {
        check_param("threshold", level, Self::MIN, Self::MAX).map(Threshold)
    }

    /// The level.
    pub const fn level(self) -> f32 {
        self.0
    }
}

impl Default for Threshold {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl FromStr for Threshold {
    type Err = RenderError;
    /// Parses a decimal number (surrounding whitespace allowed) and checks it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Threshold::new(parse_param("threshold", s)?)
    }
}

/// The brand colour of [`Filter::Blurple`].
const BLURPLE: [u8; 3] = [0x58, 0x65, 0xF2];
/// The older brand colour of [`Filter::Blurple2`].
const BLURPLE_OLD: [u8; 3] = [0x72, 0x89, 0xDA];

/// Applies a filter, returning a new image of the same size (and, for all
/// filters but [`Filter::Pixelate`], the same alpha channel).
///
/// Fails only with [`RenderError::EmptyImage`] or [`RenderError::TooLarge`]
/// for inputs outside [`check_size`]; parameters are valid by construction.
///
/// ```
/// use canvas_render::{apply, Filter, Threshold};
///
/// let img = canvas_render::solid(3, 2, [10, 200, 30]).unwrap();
/// let out = apply(&Filter::Threshold(Threshold::new(100.0).unwrap()), &img).unwrap();
/// assert_eq!(out.dimensions(), (3, 2));
/// assert_eq!(out.get_pixel(0, 0).0, [255, 255, 255, 255]);
/// ```
pub fn apply(filter: &Filter, img: &RgbaImage) -> Result<RgbaImage, RenderError> {
    let (w, h) = img.dimensions();
    check_size(w, h)?;
    let src = img.as_raw();
    let out = match *filter {
        // Pixelate writes whole rows, so its buffer needs no zeroing.
        Filter::Pixelate => pixelate(src, w as usize, h as usize),
        Filter::Blur => {
            let mut out = vec![0u8; src.len()];
            blur(src, &mut out, w as usize, h as usize);
            out
        }
        _ => {
            let mut out = vec![0u8; src.len()];
            point(filter, Some(src), &mut out);
            out
        }
    };
    Ok(RgbaImage::from_raw(w, h, out).expect("buffer has the input's size"))
}

/// Applies a filter, overwriting the image (same result as [`apply`]).
///
/// ```
/// use canvas_render::{apply_in_place, Filter};
///
/// let mut img = canvas_render::solid(2, 2, [0, 100, 255]).unwrap();
/// apply_in_place(&Filter::Invert, &mut img).unwrap();
/// assert_eq!(img.get_pixel(1, 1).0, [255, 155, 0, 255]);
/// ```
pub fn apply_in_place(filter: &Filter, img: &mut RgbaImage) -> Result<(), RenderError> {
    let (w, h) = img.dimensions();
    check_size(w, h)?;
    match *filter {
        Filter::Blur | Filter::Pixelate => {
            let out = apply(filter, img)?;
            img.copy_from_slice(out.as_raw());
        }
        _ => point(filter, None, img),
    }
    Ok(())
}

/// BT.601 luma in 8-bit fixed point: `(77 R + 150 G + 29 B + 128) >> 8`,
/// on a little-endian RGBA word. 16-bit lanes suffice, so it vectorises.
#[inline(always)]
fn luma_word(p: u32) -> u32 {
    ((p & 0xff) * 77 + ((p >> 8) & 0xff) * 150 + ((p >> 16) & 0xff) * 29 + 128) >> 8
}

/// [`luma_word`] on separate channels.
#[cfg(test)]
fn luma(r: u8, g: u8, b: u8) -> u8 {
    luma_word(u32::from_le_bytes([r, g, b, 0])) as u8
}

/// Runs a per-pixel function on little-endian RGBA words from `src` (or from
/// `dst` itself when `src` is `None`) into `dst`. Generic so that each filter
/// gets its own tight, vectorisable loop.
#[inline(always)]
fn map_words<F: Fn(u32) -> u32>(src: Option<&[u8]>, dst: &mut [u8], f: F) {
    match src {
        Some(src) => {
            for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
                let p = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
                d.copy_from_slice(&f(p).to_le_bytes());
            }
        }
        None => {
            for d in dst.chunks_exact_mut(4) {
                let p = u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
                d.copy_from_slice(&f(p).to_le_bytes());
            }
        }
    }
}

/// Runs a per-pixel function from `src` (or from `dst` itself when `src` is
/// `None`) into `dst`.
#[inline(always)]
fn map_pixels<F: Fn([u8; 4]) -> [u8; 4]>(src: Option<&[u8]>, dst: &mut [u8], f: F) {
    map_words(src, dst, |p| u32::from_le_bytes(f(p.to_le_bytes())));
}

/// A table from grey value to output colour.
fn grey_lut(src: Option<&[u8]>, dst: &mut [u8], lut: &[[u8; 3]; 256]) {
    let words = lut.map(|[r, g, b]| u32::from_le_bytes([r, g, b, 0]));
    map_words(src, dst, |p| words[luma_word(p) as usize] | (p & ALPHA));
}

/// A table per channel value (the same for R, G and B).
fn channel_lut(src: Option<&[u8]>, dst: &mut [u8], lut: &[u8; 256]) {
    map_pixels(src, dst, |[r, g, b, a]| {
        [
            lut[usize::from(r)],
            lut[usize::from(g)],
            lut[usize::from(b)],
            a,
        ]
    });
}

fn ramp_lut(colour: [u8; 3]) -> [[u8; 3]; 256] {
    let mut lut = [[0u8; 3]; 256];
    for (v, entry) in lut.iter_mut().enumerate() {
        for c in 0..3 {
            let brand = f32::from(colour[c]);
            let value = if v <= 128 {
                let dark = brand * 0.2;
                dark + (brand - dark) * (v as f32 / 128.0)
            } else {
                brand + (255.0 - brand) * ((v - 128) as f32 / 127.0)
            };
            entry[c] = value.round().clamp(0.0, 255.0) as u8;
        }
    }
    lut
}

/// The alpha byte of a little-endian RGBA word.
const ALPHA: u32 = 0xff00_0000;

/// The filters that look at one pixel at a time.
fn point(filter: &Filter, src: Option<&[u8]>, dst: &mut [u8]) {
    match *filter {
        Filter::Greyscale => map_words(src, dst, |p| (luma_word(p) * 0x01_01_01) | (p & ALPHA)),
        Filter::InvertGreyscale => map_words(src, dst, |p| {
            ((255 - luma_word(p)) * 0x01_01_01) | (p & ALPHA)
        }),
        Filter::Red => map_words(src, dst, |p| luma_word(p) | (p & ALPHA)),
        Filter::Green => map_words(src, dst, |p| (luma_word(p) << 8) | (p & ALPHA)),
        Filter::Blue => map_words(src, dst, |p| (luma_word(p) << 16) | (p & ALPHA)),
        Filter::Invert => map_words(src, dst, |p| p ^ !ALPHA),
        Filter::Blurple => grey_lut(src, dst, &ramp_lut(BLURPLE)),
        Filter::Blurple2 => grey_lut(src, dst, &ramp_lut(BLURPLE_OLD)),
        Filter::Threshold(t) => {
            let level = t.level();
            let mut lut = [[0u8; 3]; 256];
            for (v, e) in lut.iter_mut().enumerate() {
                if v as f32 >= level {
                    *e = [255; 3];
                }
            }
            grey_lut(src, dst, &lut);
        }
        Filter::Brightness(b) => {
            let f = b.factor();
            let mut lut = [0u8; 256];
            for (v, e) in lut.iter_mut().enumerate() {
                *e = (v as f32 * f).round().min(255.0) as u8;
            }
            channel_lut(src, dst, &lut);
        }
        Filter::Color([tr, tg, tb]) => map_pixels(src, dst, |[r, g, b, a]| {
            [mul_div255(r, tr), mul_div255(g, tg), mul_div255(b, tb), a]
        }),
        Filter::Sepia => map_pixels(src, dst, |[r, g, b, a]| {
            // The matrix in 16-bit fixed point, rounded.
            let (r, g, b) = (u32::from(r), u32::from(g), u32::from(b));
            let nr = (r * 25756 + g * 50397 + b * 12386 + 0x8000) >> 16;
            let ng = (r * 22872 + g * 44958 + b * 11010 + 0x8000) >> 16;
            let nb = (r * 17826 + g * 34996 + b * 8585 + 0x8000) >> 16;
            [nr.min(255) as u8, ng.min(255) as u8, nb.min(255) as u8, a]
        }),
        Filter::Blur | Filter::Pixelate => unreachable!("not a point filter"),
    }
}

fn is_opaque(src: &[u8]) -> bool {
    src.chunks_exact(4).all(|p| p[3] == 255)
}

/// The block side of [`Filter::Pixelate`] for an image of this size.
fn pixel_block(w: usize, h: usize) -> usize {
    (w.min(h) / 32).max(2)
}

/// Offsets of up to four sample points spread evenly across a block side of
/// `len` pixels (the centres of four equal parts).
fn sample_offsets(len: usize) -> impl Iterator<Item = usize> {
    let n = len.min(4);
    (0..n).map(move |k| (2 * k + 1) * len / (2 * n))
}

/// Pixelate: each block gets the alpha-weighted mean colour and the mean
/// alpha of a grid of up to 4 × 4 evenly spread samples. Only the sampled
/// rows are read, and each output row of a block row is one copy.
fn pixelate(src: &[u8], w: usize, h: usize) -> Vec<u8> {
    let block = pixel_block(w, h);
    let stride = w * 4;
    let mut dst = Vec::with_capacity(src.len());
    let mut row_out = vec![0u8; stride];
    for by in (0..h).step_by(block) {
        let bh = block.min(h - by);
        for bx in (0..w).step_by(block) {
            let bw = block.min(w - bx);
            let mut sum = [0u32; 4];
            let mut count = 0u32;
            for oy in sample_offsets(bh) {
                let row = &src[(by + oy) * stride..(by + oy + 1) * stride];
                for ox in sample_offsets(bw) {
                    let p = &row[(bx + ox) * 4..(bx + ox) * 4 + 4];
                    let a = u32::from(p[3]);
                    sum[0] += u32::from(p[0]) * a;
                    sum[1] += u32::from(p[1]) * a;
                    sum[2] += u32::from(p[2]) * a;
                    sum[3] += a;
                    count += 1;
                }
            }
            let px = if sum[3] == 0 {
                [0; 4]
            } else {
                let div = |v: u32, d: u32| ((v + d / 2) / d) as u8;
                [
                    div(sum[0], sum[3]),
                    div(sum[1], sum[3]),
                    div(sum[2], sum[3]),
                    div(sum[3], count),
                ]
            };
            for p in row_out[bx * 4..(bx + bw) * 4].chunks_exact_mut(4) {
                p.copy_from_slice(&px);
            }
        }
        for _ in 0..bh {
            dst.extend_from_slice(&row_out);
        }
    }
    dst
}

/// Standard deviation of [`Filter::Blur`] for an image of this size.
fn blur_sigma(w: usize, h: usize) -> f32 {
    (w.min(h) as f32 / 100.0).max(1.0)
}

/// Radii of three box blurs approximating a Gaussian of standard deviation
/// `sigma` (W. Jarosz, "Fast image convolutions", 2001).
fn box_radii(sigma: f32) -> [usize; 3] {
    let n = 3.0f32;
    let ideal = (12.0 * sigma * sigma / n + 1.0).sqrt();
    let mut lower = ideal.floor() as i64;
    if lower % 2 == 0 {
        lower -= 1;
    }
    let lower = lower.max(1);
    let upper = lower + 2;
    let lf = lower as f32;
    let m = ((12.0 * sigma * sigma - n * lf * lf - 4.0 * n * lf - 3.0 * n) / (-4.0 * lf - 4.0))
        .round() as i64;
    let mut radii = [0usize; 3];
    for (i, r) in radii.iter_mut().enumerate() {
        let width = if (i as i64) < m { lower } else { upper };
        *r = ((width - 1) / 2) as usize;
    }
    radii
}

fn blur(src: &[u8], dst: &mut [u8], w: usize, h: usize) {
    let opaque = is_opaque(src);
    let mut a = src.to_vec();
    if !opaque {
        for p in a.chunks_exact_mut(4) {
            let alpha = p[3];
            for c in &mut p[..3] {
                *c = mul_div255(*c, alpha);
            }
        }
    }
    let radii = box_radii(blur_sigma(w, h));
    let mut b = vec![0u8; src.len()];
    let mut sums = vec![0u16; w.max(h) * 4];
    // Vertical passes run over whole rows (contiguous, vectorised); the
    // horizontal ones are vertical passes over the transposed image.
    for r in radii {
        box_vertical(&a, &mut b, w * 4, h, r, &mut sums);
        std::mem::swap(&mut a, &mut b);
    }
    transpose(&a, &mut b, w, h);
    std::mem::swap(&mut a, &mut b);
    for r in radii {
        box_vertical(&a, &mut b, h * 4, w, r, &mut sums);
        std::mem::swap(&mut a, &mut b);
    }
    transpose(&a, &mut b, h, w);
    for ((d, s), o) in dst
        .chunks_exact_mut(4)
        .zip(b.chunks_exact(4))
        .zip(src.chunks_exact(4))
    {
        let alpha = o[3];
        if opaque {
            d.copy_from_slice(&[s[0], s[1], s[2], 255]);
        } else if s[3] == 0 {
            d.copy_from_slice(&[0, 0, 0, alpha]);
        } else {
            let sa = u32::from(s[3]);
            let un = |c: u8| ((u32::from(c) * 255 + sa / 2) / sa).min(255) as u8;
            d.copy_from_slice(&[un(s[0]), un(s[1]), un(s[2]), alpha]);
        }
    }
}

/// Transposes a `w × h` image of 4-byte pixels into an `h × w` one, in tiles
/// so both sides stay in cache.
fn transpose(src: &[u8], dst: &mut [u8], w: usize, h: usize) {
    const TILE: usize = 16;
    for ty in (0..h).step_by(TILE) {
        for tx in (0..w).step_by(TILE) {
            for y in ty..(ty + TILE).min(h) {
                for x in tx..(tx + TILE).min(w) {
                    let s = (y * w + x) * 4;
                    let d = (x * h + y) * 4;
                    dst[d..d + 4].copy_from_slice(&src[s..s + 4]);
                }
            }
        }
    }
}

/// One vertical box pass of radius `r` over `rows` rows of `stride` bytes,
/// edges extended. Runs row by row so the inner loops are over contiguous
/// memory. Window sums fit `u16`: the window is at most 255 rows (`r` is
/// clamped to 127), and 255 · 255 + 127 < 2¹⁶.
fn box_vertical(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    rows: usize,
    r: usize,
    sums: &mut [u16],
) {
    let r = r.min(127);
    if r == 0 {
        dst.copy_from_slice(src);
        return;
    }
    let n = 2 * r as u32 + 1;
    // mean = (sum + n/2) * inv >> 16 with inv = ⌊2¹⁶ / n⌋ (n ≥ 3, so inv < 2¹⁶).
    let inv = (65536 / n) as u16;
    let half = (n / 2) as u16;
    let last = rows as isize - 1;
    let row = |y: isize| {
        let y = y.clamp(0, last) as usize;
        &src[y * stride..(y + 1) * stride]
    };
    let sums = &mut sums[..stride];
    sums.fill(0);
    let ri = r as isize;
    for y in -ri..=ri {
        for (s, &v) in sums.iter_mut().zip(row(y)) {
            *s += u16::from(v);
        }
    }
    for y in 0..rows {
        let out = &mut dst[y * stride..(y + 1) * stride];
        for (o, &s) in out.iter_mut().zip(sums.iter()) {
            *o = ((u32::from(s + half) * u32::from(inv)) >> 16) as u8;
        }
        let add = row(y as isize + ri + 1);
        let sub = row(y as isize - ri);
        for ((s, &a), &b) in sums.iter_mut().zip(add).zip(sub) {
            *s = s.wrapping_add(u16::from(a)).wrapping_sub(u16::from(b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_radii_match_a_gaussian() {
        assert_eq!(box_radii(5.0), [4, 4, 5]);
        assert_eq!(box_radii(1.0), [0, 0, 1]);
    }

    #[test]
    fn mul_div255_is_exact_rounding() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let want = ((a * b) as f32 / 255.0).round() as u8;
                assert_eq!(mul_div255(a as u8, b as u8), want, "{a} * {b}");
            }
        }
    }

    #[test]
    fn luma_is_within_one_of_bt601() {
        for (r, g, b) in [
            (255, 255, 255),
            (0, 0, 0),
            (255, 0, 0),
            (0, 255, 0),
            (10, 20, 30),
        ] {
            let want = (0.299 * r as f32 + 0.587 * g as f32 + 0.114 * b as f32).round() as u8;
            assert!(luma(r, g, b).abs_diff(want) <= 1, "{r} {g} {b}");
        }
        assert_eq!(luma(255, 255, 255), 255);
        assert_eq!(luma(0, 0, 0), 0);
    }

    #[test]
    fn ramps_hit_their_stops() {
        let lut = ramp_lut(BLURPLE);
        assert_eq!(lut[128], BLURPLE);
        assert_eq!(lut[255], [255, 255, 255]);
        assert_eq!(lut[0], [18, 20, 48]);
    }

    #[test]
    fn pixel_block_and_sigma_scale_with_size() {
        assert_eq!(pixel_block(512, 512), 16);
        assert_eq!(pixel_block(128, 100), 3);
        assert_eq!(pixel_block(10, 3000), 2);
        assert_eq!(blur_sigma(512, 700), 5.12);
        assert_eq!(blur_sigma(20, 20), 1.0);
    }
}
