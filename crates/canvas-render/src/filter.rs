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
//! | [`Brightness(p)`](Filter::Brightness) | `(round(R + (255 − R)·p/100), …)`: every channel moved `p` % of the way to white; `0` is unchanged, `50` halfway to white, `100` white |
//! | [`Color([r, g, b])`](Filter::Color) | `(round(R·r/255), round(G·g/255), round(B·b/255))`: the image seen through glass of that colour (a "multiply" blend); white becomes the colour, black stays black |
//! | [`Blur`](Filter::Blur) | a Gaussian blur (three box passes) with σ = shorter side / 100 (5.12 px on a 512 px avatar), at least 1 px; from σ = 4 (shorter side ≥ 400 px) computed on a half-resolution copy and upsampled, within a few levels of the full-resolution blur |
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
//! let brighter = apply(&Filter::Brightness(Brightness::new(50.0).unwrap()), &img).unwrap();
//! assert_eq!(brighter.get_pixel(0, 0).0, [228, 178, 153, 255]);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::buffers::{self, take};
use crate::limits::check_size;
use crate::{RenderError, RgbaImage};

mod blur;

use blur::map_words;

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
    /// Every colour channel moved towards white by a percentage; `0` is
    /// unchanged, `100` white.
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

/// The level of [`Filter::Brightness`], a percentage `0 ..= 100`: every
/// colour channel `c` becomes `round(c + (255 − c) · level / 100)`, so
/// **higher is brighter**, and the effect grows monotonically with the level.
///
/// * `0`: the image unchanged;
/// * `50`: every channel halfway to white (black becomes mid grey, 128);
/// * `100`: white (the alpha channel is kept, so the avatar's shape stays).
///
/// Fractions are accepted (`12.5`). The range is
/// [`MIN`](Brightness::MIN)..=[`MAX`](Brightness::MAX); the default
/// [`DEFAULT`](Brightness::DEFAULT) = `30` visibly brightens (a channel of 100
/// becomes 147).
///
/// ```
/// use canvas_render::{Brightness, RenderError};
///
/// assert_eq!(Brightness::new(12.5).unwrap().level(), 12.5);
/// assert_eq!("75".parse::<Brightness>().unwrap().level(), 75.0);
/// assert!(matches!(Brightness::new(101.0), Err(RenderError::ParameterOutOfRange { .. })));
/// assert!(matches!(Brightness::new(-1.0), Err(RenderError::ParameterOutOfRange { .. })));
/// assert!(matches!(Brightness::new(f32::NAN), Err(RenderError::ParameterNotFinite { .. })));
/// assert!(matches!("bright".parse::<Brightness>(), Err(RenderError::ParameterNotNumber { .. })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Brightness(f32);

impl Brightness {
    /// The smallest level: the image unchanged.
    pub const MIN: f32 = 0.0;
    /// The largest level: white.
    pub const MAX: f32 = 100.0;
    /// The default level, 30 (every channel 30 % of the way to white).
    pub const DEFAULT: Brightness = Brightness(30.0);

    /// A brightness level, checked against [`MIN`](Self::MIN)..=[`MAX`](Self::MAX).
    pub fn new(level: f32) -> Result<Self, RenderError> {
        check_param("brightness", level, Self::MIN, Self::MAX).map(Brightness)
    }

    /// The level, `0 ..= 100`.
    pub const fn level(self) -> f32 {
        self.0
    }

    /// The output value of one colour channel value `c`:
    /// `round(c + (255 − c) · level / 100)`.
    fn channel(self, c: u8) -> u8 {
        let c = f32::from(c);
        (c + (255.0 - c) * (self.0 / 100.0)).round().min(255.0) as u8
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
    // Every filter writes every byte of its output, so a reused buffer
    // (`buffers`) needs no zeroing and shows nothing of its last image.
    let out = match *filter {
        Filter::Pixelate => pixelate(src, w as usize, h as usize),
        Filter::Blur => {
            let (w, h) = (w as usize, h as usize);
            let mut out = take(src.len());
            if blur::at_half(w, h) {
                let mut scratch = take(blur::half_scratch_len(w, h));
                let radii = blur::half_radii(w, h);
                blur::half_blur_with(src, &mut out, w, h, radii, &mut scratch);
                buffers::recycle(scratch);
            } else {
                let scratch = blur::scratch_len(w, h);
                let (mut a, mut b) = (take(scratch), take(scratch));
                blur::blur_with(src, &mut out, w, h, &mut a, &mut b);
                buffers::recycle(a);
                buffers::recycle(b);
            }
            out
        }
        _ => {
            let mut out = take(src.len());
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
            buffers::recycle_image(out);
        }
        _ => point(filter, None, img),
    }
    Ok(())
}

/// BT.601 luma in 8-bit fixed point: `(77 R + 150 G + 29 B + 128) >> 8`,
/// on a little-endian RGBA word. Each product has both factors below 2¹⁵, so
/// on 32-bit lanes LLVM emits one `pmaddwd` per multiply (SSE2 has no
/// 32-bit multiply).
#[inline(always)]
fn luma_word(p: u32) -> u32 {
    let (r, g, b) = (p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff);
    (r * 77 + g * 150 + b * 29 + 128) >> 8
}

/// [`luma_word`] on separate channels.
#[cfg(test)]
fn luma(r: u8, g: u8, b: u8) -> u8 {
    luma_word(u32::from_le_bytes([r, g, b, 0])) as u8
}

/// `(l, l, l)` in the colour bytes of a word (alpha zero).
#[inline(always)]
fn grey_word(l: u32) -> u32 {
    l | (l << 8) | (l << 16)
}

/// `round(a · b / 255)` for `a, b ≤ 255` (exact, as `resize::mul_div255`;
/// `a · b + 128 + (a · b + 128) / 256 < 2¹⁶`), on 32-bit lanes: both factors
/// are below 2¹⁵, so the multiply vectorises to `pmaddwd`.
#[inline(always)]
fn mul_div255_word(a: u32, b: u32) -> u32 {
    let x = a * b + 128;
    (x + (x >> 8)) >> 8
}

/// A table from grey value to output colour, in two passes: the grey values
/// (vectorised) into `dst`, then the table lookups, which cannot be
/// vectorised, in a loop that does nothing else.
fn grey_lut(src: Option<&[u8]>, dst: &mut [u8], lut: &[[u8; 3]; 256]) {
    let words = lut.map(|[r, g, b]| u32::from_le_bytes([r, g, b, 0]));
    map_words(src, dst, |p| luma_word(p) | (p & ALPHA));
    map_words(None, dst, |p| words[(p & 0xff) as usize] | (p & ALPHA));
}

/// A table per channel value (the same for R, G and B), on blocks of 8
/// pixels in fixed arrays: the lookups cannot be vectorised, and this form
/// measured about 20 % fewer instructions than the plain word loop.
fn channel_lut(src: Option<&[u8]>, dst: &mut [u8], lut: &[u8; 256]) {
    const BYTES: usize = 32;
    let block = |s: &[u8], d: &mut [u8]| {
        let mut words = [0u32; BYTES / 4];
        for (w, p) in words.iter_mut().zip(s.chunks_exact(4)) {
            let at = |c: u8| lut[usize::from(c)];
            *w = u32::from_le_bytes([at(p[0]), at(p[1]), at(p[2]), p[3]]);
        }
        for (w, p) in words.iter().zip(d.chunks_exact_mut(4)) {
            p.copy_from_slice(&w.to_le_bytes());
        }
    };
    match src {
        Some(src) => {
            let mut s = src.chunks_exact(BYTES);
            let mut d = dst.chunks_exact_mut(BYTES);
            for (s, d) in (&mut s).zip(&mut d) {
                block(s, d);
            }
            block(s.remainder(), d.into_remainder());
        }
        None => {
            let mut d = dst.chunks_exact_mut(BYTES);
            for d in &mut d {
                let s: [u8; BYTES] = (*d).try_into().expect("a whole block");
                block(&s, d);
            }
            let d = d.into_remainder();
            let s = d.to_vec();
            block(&s, d);
        }
    }
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
        Filter::Greyscale => map_words(src, dst, |p| grey_word(luma_word(p)) | (p & ALPHA)),
        Filter::InvertGreyscale => {
            map_words(src, dst, |p| grey_word(255 - luma_word(p)) | (p & ALPHA))
        }
        Filter::Red => map_words(src, dst, |p| luma_word(p) | (p & ALPHA)),
        Filter::Green => map_words(src, dst, |p| (luma_word(p) << 8) | (p & ALPHA)),
        Filter::Blue => map_words(src, dst, |p| (luma_word(p) << 16) | (p & ALPHA)),
        Filter::Invert => map_words(src, dst, |p| p ^ !ALPHA),
        Filter::Blurple => grey_lut(src, dst, &ramp_lut(BLURPLE)),
        Filter::Blurple2 => grey_lut(src, dst, &ramp_lut(BLURPLE_OLD)),
        Filter::Threshold(t) => {
            // Grey values are integers: `L ≥ level` ⇔ `L ≥ ⌈level⌉`.
            let level = t.level().ceil() as u32;
            map_words(src, dst, |p| {
                let white = 0u32.wrapping_sub(u32::from(luma_word(p) >= level));
                (white & !ALPHA) | (p & ALPHA)
            });
        }
        Filter::Brightness(b) => {
            let lut: [u8; 256] = std::array::from_fn(|v| b.channel(v as u8));
            channel_lut(src, dst, &lut);
        }
        Filter::Color(tint) => {
            let [tr, tg, tb] = tint.map(u32::from);
            map_words(src, dst, |p| {
                let c = |shift: u32, t: u32| mul_div255_word((p >> shift) & 0xff, t) << shift;
                c(0, tr) | c(8, tg) | c(16, tb) | (p & ALPHA)
            });
        }
        Filter::Sepia => map_words(src, dst, |p| {
            // The matrix in 15-bit fixed point, rounded: every coefficient is
            // below 2¹⁵, so each product is one `pmaddwd` (SSE2 has no
            // 32-bit multiply).
            let (r, g, b) = (p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff);
            let nr = (r * 12878 + g * 25199 + b * 6193 + 0x4000) >> 15;
            let ng = (r * 11436 + g * 22479 + b * 5505 + 0x4000) >> 15;
            let nb = (r * 8913 + g * 17498 + b * 4293 + 0x4000) >> 15;
            nr.min(255) | (ng.min(255) << 8) | (nb.min(255) << 16) | (p & ALPHA)
        }),
        Filter::Blur | Filter::Pixelate => unreachable!("not a point filter"),
    }
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
/// rows are read, each in one sweep over a precomputed list of sample
/// columns, and each output row of a block row is one copy.
fn pixelate(src: &[u8], w: usize, h: usize) -> Vec<u8> {
    let block = pixel_block(w, h);
    let stride = w * 4;
    // (block column, byte offset in a row) of every sample column.
    let columns: Vec<(usize, usize)> = (0..w)
        .step_by(block)
        .enumerate()
        .flat_map(|(i, bx)| sample_offsets(block.min(w - bx)).map(move |ox| (i, (bx + ox) * 4)))
        .collect();
    let blocks = w.div_ceil(block);
    let mut sums = vec![[0u32; 4]; blocks];
    let mut dst = buffers::take_empty(src.len());
    let mut row_out = vec![0u8; stride];
    for by in (0..h).step_by(block) {
        let bh = block.min(h - by);
        sums.fill([0; 4]);
        let mut sample_rows = 0;
        for oy in sample_offsets(bh) {
            let row = &src[(by + oy) * stride..(by + oy + 1) * stride];
            for &(i, x) in &columns {
                let p = &row[x..x + 4];
                let a = u32::from(p[3]);
                let sum = &mut sums[i];
                sum[0] += u32::from(p[0]) * a;
                sum[1] += u32::from(p[1]) * a;
                sum[2] += u32::from(p[2]) * a;
                sum[3] += a;
            }
            sample_rows += 1;
        }
        for (bx, sum) in (0..w).step_by(block).zip(&sums) {
            let bw = block.min(w - bx);
            let count = sample_rows * bw.min(4) as u32;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resize::mul_div255;

    /// The blur as whole-image passes: three vertical box passes over the
    /// image, a transposition, three more, and back (the definition the
    /// strip-wise [`blur`] must match byte for byte).
    fn blur_whole_image(src: &[u8], w: usize, h: usize) -> Vec<u8> {
        let opaque = blur::is_opaque(src);
        let radii = blur::box_radii(blur::blur_sigma(w, h));
        let mut a = vec![0u8; src.len()];
        let mut b = vec![0u8; src.len()];
        let mut sums = vec![0u16; w.max(h) * 4];
        if opaque {
            a.copy_from_slice(src);
        } else {
            blur::map_words(Some(src), &mut a, blur::premultiply_word);
        }
        blur::box3(&mut a, &mut b, w * 4, h, radii, &mut sums);
        blur::transpose(&b, &mut a, w, h);
        blur::box3(&mut a, &mut b, h * 4, w, radii, &mut sums);
        blur::transpose(&b, &mut a, h, w);
        if opaque {
            blur::map_words(None, &mut a, |p| p | ALPHA);
        } else {
            blur::unpremultiply(&mut a, src);
        }
        a
    }

    #[test]
    fn strip_wise_blur_equals_the_whole_image_passes() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        // Sizes below, at and across the 64-pixel strips, tall and wide.
        for (w, h) in [
            (1, 1),
            (3, 70),
            (64, 64),
            (65, 130),
            (200, 63),
            (150, 300),
            (512, 512),
        ] {
            for opaque in [true, false] {
                let src: Vec<u8> = (0..w * h)
                    .flat_map(|i| {
                        let r = next().to_le_bytes();
                        // Smooth-ish colour with noise, and alpha ramps with
                        // fully transparent patches.
                        let alpha = if opaque {
                            255
                        } else {
                            [0, 255, r[3], 128][i % 7 % 4]
                        };
                        [r[0], (i % 251) as u8, r[2] / 2 + 60, alpha]
                    })
                    .collect();
                let mut out = vec![0u8; src.len()];
                let n = blur::scratch_len(w, h);
                // Scratch of any contents.
                let (mut a, mut b) = (vec![0xa5; n], vec![0x5a; n + 100]);
                blur::blur_with(&src, &mut out, w, h, &mut a, &mut b);
                assert!(
                    out == blur_whole_image(&src, w, h),
                    "{w}x{h}, opaque {opaque}"
                );
            }
        }
    }

    /// Test images for the half-resolution blur: `kind` 0 an avatar-like
    /// picture (gradients, a disc, noise, transparent anti-aliased
    /// corners), 1 opaque squares of contrasting colours (hard edges), 2
    /// opaque per-pixel noise, 3 thin opaque lines on a transparent
    /// ground, 4 noise with alpha patterns and fully transparent patches.
    fn test_image(kind: usize, w: usize, h: usize) -> Vec<u8> {
        let mut seed = 0x2545_f491_u32 ^ (kind as u32 * 7919 + w as u32 * 31 + h as u32);
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut out = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                let r = next().to_le_bytes();
                let px = match kind {
                    0 => {
                        let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
                        let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                        let d = (dx * dx + dy * dy).sqrt();
                        let radius = cx.min(cy);
                        let alpha = ((radius - d + 0.5).clamp(0.0, 1.0) * 255.0).round() as u8;
                        let face = (dx * dx + (dy + radius * 0.2).powi(2)).sqrt() < radius * 0.45;
                        let n = r[0] % 24;
                        let base = if face {
                            [225, 180, 150]
                        } else {
                            [(x * 200 / w) as u8, 90, (y * 200 / h) as u8]
                        };
                        [base[0] + n, base[1] + n, base[2] + n, alpha]
                    }
                    1 => {
                        let c = ((x / 37) + (y / 23)) % 3;
                        [[250, 10, 20], [5, 240, 5], [20, 20, 250]][c]
                            .map(|v| v)
                            .into_iter()
                            .chain([255])
                            .collect::<Vec<u8>>()
                            .try_into()
                            .unwrap()
                    }
                    2 => [r[0], r[1], r[2], 255],
                    3 => {
                        let on = x % 19 < 2 || y % 29 == 0 || (x + 2 * y) % 53 == 0;
                        if on {
                            [250, 240, 30, 255]
                        } else {
                            [r[0], r[1], r[2], 0]
                        }
                    }
                    _ => [
                        r[0],
                        ((x + y) % 251) as u8,
                        r[2] / 2 + 60,
                        [0, 255, r[3], 128][(x + y) % 7 % 4],
                    ],
                };
                out.extend_from_slice(&px);
            }
        }
        out
    }

    /// Largest and mean difference per channel between two blurs of `src`,
    /// on what is seen: colour premultiplied by the (shared) alpha.
    fn visible_difference(a: &[u8], b: &[u8]) -> (u8, f64) {
        let (mut max, mut sum) = (0u8, 0u64);
        for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
            assert_eq!(p[3], q[3], "alpha is the source's");
            let alpha = u32::from(p[3]);
            for c in 0..3 {
                let seen = |v: u8| ((u32::from(v) * alpha + 127) / 255) as u8;
                let d = seen(p[c]).abs_diff(seen(q[c]));
                max = max.max(d);
                sum += u64::from(d);
            }
        }
        (max, sum as f64 / (a.len() / 4 * 3) as f64)
    }

    fn full_blur(src: &[u8], w: usize, h: usize) -> Vec<u8> {
        let mut out = vec![0u8; src.len()];
        let n = blur::scratch_len(w, h);
        let (mut a, mut b) = (vec![0; n], vec![0; n]);
        blur::blur_with(src, &mut out, w, h, &mut a, &mut b);
        out
    }

    fn half_blur(src: &[u8], w: usize, h: usize, radii: [usize; 3]) -> Vec<u8> {
        let mut out = vec![0u8; src.len()];
        let mut scratch = vec![0x5a; blur::half_scratch_len(w, h)];
        blur::half_blur_with(src, &mut out, w, h, radii, &mut scratch);
        out
    }

    /// From σ = 4 on, the blur runs at half resolution; what is seen
    /// (colour premultiplied by the source alpha, which both keep) stays
    /// within these bounds of the full-resolution blur, per test image
    /// (largest difference of a channel, mean difference). The measured
    /// values are in docs/benchmarks-history/canvas-render.md ("Blur at half resolution"): on the
    /// avatar-like picture at most 4 levels and 0.36 on average; hard edges
    /// and per-pixel noise differ more, and most on thin lines over a
    /// transparent ground, whose blurred alpha is a few levels, where the
    /// 8-bit premultiplied colour of either blur is coarse.
    #[test]
    fn half_resolution_blur_stays_close_to_full_resolution() {
        const BOUNDS: [(u8, f64); 5] = [(4, 0.4), (5, 1.3), (18, 0.65), (32, 0.5), (15, 0.5)];
        for (w, h, kinds) in [
            (512, 512, 0..5),
            (451, 401, 0..5),
            (480, 480, 0..5),
            (4096, 400, 0..2),
        ] {
            assert!(blur::at_half(w, h));
            for kind in kinds {
                let src = test_image(kind, w, h);
                let half = half_blur(&src, w, h, blur::half_radii(w, h));
                let (max, mean) = visible_difference(&full_blur(&src, w, h), &half);
                eprintln!("{w}x{h} image {kind}: max {max}, mean {mean:.3}");
                let (max_bound, mean_bound) = BOUNDS[kind];
                assert!(
                    max <= max_bound && mean <= mean_bound,
                    "{w}x{h} image {kind}: {max} {mean}"
                );
            }
        }
        assert!(!blur::at_half(399, 4000));
    }

    /// The half-resolution blur on any size, odd and tiny ones included
    /// (the filter only uses it from 400 px on): flat images stay flat,
    /// alpha is the source's, opaque colour stays within the input's range.
    #[test]
    fn half_resolution_blur_works_on_any_size() {
        for (w, h) in [
            (1, 1),
            (1, 9),
            (9, 1),
            (2, 2),
            (3, 3),
            (5, 2),
            (2, 5),
            (33, 17),
            (64, 3),
        ] {
            for radii in [[0, 0, 0], [1, 1, 1], [2, 2, 3]] {
                let flat: Vec<u8> = [40, 200, 120, 255].repeat(w * h);
                assert_eq!(half_blur(&flat, w, h, radii), flat, "{w}x{h}");
                // Translucent: colour within one step of 255 / alpha.
                let faint: Vec<u8> = [40, 200, 120, 128].repeat(w * h);
                for (p, q) in half_blur(&faint, w, h, radii)
                    .chunks_exact(4)
                    .zip(faint.chunks_exact(4))
                {
                    assert_eq!(p[3], 128);
                    assert!(p.iter().zip(q).all(|(a, b)| a.abs_diff(*b) <= 2), "{p:?}");
                }
                let clear = vec![0u8; w * h * 4];
                assert_eq!(half_blur(&clear, w, h, radii), clear);
                for kind in 0..5 {
                    let src = test_image(kind, w, h);
                    let out = half_blur(&src, w, h, radii);
                    for (p, q) in src.chunks_exact(4).zip(out.chunks_exact(4)) {
                        assert_eq!(p[3], q[3]);
                    }
                    if blur::is_opaque(&src) {
                        for c in 0..3 {
                            let range = |img: &[u8]| {
                                let v = img.chunks_exact(4).map(|p| p[c]);
                                (v.clone().min().unwrap(), v.max().unwrap())
                            };
                            let ((lo, hi), (a, b)) = (range(&src), range(&out));
                            assert!(lo <= a && b <= hi, "{w}x{h} image {kind}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn box_radii_match_a_gaussian() {
        assert_eq!(blur::box_radii(5.0), [4, 4, 5]);
        assert_eq!(blur::box_radii(1.0), [0, 0, 1]);
    }

    #[test]
    fn mul_div255_is_exact_rounding() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let want = ((a * b) as f32 / 255.0).round() as u8;
                assert_eq!(mul_div255(a as u8, b as u8), want, "{a} * {b}");
                assert_eq!(mul_div255_word(a, b), u32::from(want), "{a} * {b}");
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
        assert_eq!(blur::blur_sigma(512, 700), 5.12);
        assert_eq!(blur::blur_sigma(20, 20), 1.0);
    }
}
