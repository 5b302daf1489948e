//! Colour and blur filters on RGBA images.
//!
//! Every filter takes any RGBA image and returns an image of the **same size
//! with the same alpha channel**: only the colour channels change. Filters are
//! values of [`Filter`]; [`apply`] runs one into a new image and
//! [`apply_in_place`] overwrites its input (saving an allocation).
//!
//! ## Definitions
//!
//! Grey values use the ITU-R BT.601 luma weights, the ones PIL/Pillow, JPEG
//! and most image tools use for "convert to greyscale":
//!
//! `L = round(0.299 R + 0.587 G + 0.114 B)` (computed in 16-bit fixed point,
//! so exactly `(19595 R + 38470 G + 7471 B + 32768) >> 16`).
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
//! | [`Pixelate`](Filter::Pixelate) | the mean colour of square blocks of side `max(2, shorter side / 32)` (16 px on a 512 px avatar, 32 blocks across); blocks start at the top-left corner, the last row and column of blocks may be narrower |
//!
//! The blurple ramps map `L = 0` to a deep shade of the brand colour (the
//! brand colour × 0.2), `L = 128` to the brand colour and `L = 255` to white,
//! linearly in between.
//!
//! Blur and pixelate weight each pixel's colour by its alpha (so the
//! invisible colour of transparent pixels never bleeds into visible ones) and
//! then keep the original alpha, like every other filter.
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
    /// Mean colour of square blocks of side `max(2, shorter side / 32)`.
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

/// Applies a filter, returning a new image of the same size and alpha.
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
    let mut out = vec![0u8; src.len()];
    match *filter {
        Filter::Blur => blur(src, &mut out, w as usize, h as usize),
        Filter::Pixelate => pixelate(src, &mut out, w as usize, h as usize),
        _ => point(filter, Some(src), &mut out),
    }
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

/// BT.601 luma in 16-bit fixed point (identical to Pillow's `convert("L")`).
#[inline(always)]
fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((u32::from(r) * 19595 + u32::from(g) * 38470 + u32::from(b) * 7471 + 0x8000) >> 16) as u8
}

/// Runs a per-pixel function from `src` (or from `dst` itself when `src` is
/// `None`) into `dst`. Generic so that each filter gets its own tight loop.
#[inline(always)]
fn map_pixels<F: Fn([u8; 4]) -> [u8; 4]>(src: Option<&[u8]>, dst: &mut [u8], f: F) {
    match src {
        Some(src) => {
            for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
                d.copy_from_slice(&f([s[0], s[1], s[2], s[3]]));
            }
        }
        None => {
            for d in dst.chunks_exact_mut(4) {
                let p = f([d[0], d[1], d[2], d[3]]);
                d.copy_from_slice(&p);
            }
        }
    }
}

/// A table from grey value to output colour.
fn grey_lut(src: Option<&[u8]>, dst: &mut [u8], lut: &[[u8; 3]; 256]) {
    map_pixels(src, dst, |[r, g, b, a]| {
        let [r, g, b] = lut[usize::from(luma(r, g, b))];
        [r, g, b, a]
    });
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

/// The filters that look at one pixel at a time.
fn point(filter: &Filter, src: Option<&[u8]>, dst: &mut [u8]) {
    match *filter {
        Filter::Greyscale => map_pixels(src, dst, |[r, g, b, a]| {
            let l = luma(r, g, b);
            [l, l, l, a]
        }),
        Filter::InvertGreyscale => map_pixels(src, dst, |[r, g, b, a]| {
            let l = 255 - luma(r, g, b);
            [l, l, l, a]
        }),
        Filter::Red => map_pixels(src, dst, |[r, g, b, a]| [luma(r, g, b), 0, 0, a]),
        Filter::Green => map_pixels(src, dst, |[r, g, b, a]| [0, luma(r, g, b), 0, a]),
        Filter::Blue => map_pixels(src, dst, |[r, g, b, a]| [0, 0, luma(r, g, b), a]),
        Filter::Invert => map_pixels(src, dst, |[r, g, b, a]| [255 - r, 255 - g, 255 - b, a]),
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

fn pixelate(src: &[u8], dst: &mut [u8], w: usize, h: usize) {
    let block = pixel_block(w, h);
    let stride = w * 4;
    let blocks_x = w.div_ceil(block);
    let opaque = is_opaque(src);
    // Per block of the current block row: sums of R, G, B (alpha-weighted
    // unless opaque) and of the weights.
    let mut sums = vec![[0u32; 4]; blocks_x];
    let mut row_out = vec![0u8; stride];
    for by in (0..h).step_by(block) {
        let bh = block.min(h - by);
        sums.iter_mut().for_each(|s| *s = [0; 4]);
        for y in by..by + bh {
            let row = &src[y * stride..(y + 1) * stride];
            for (bx, chunk) in row.chunks(block * 4).enumerate() {
                let s = &mut sums[bx];
                if opaque {
                    for p in chunk.chunks_exact(4) {
                        s[0] += u32::from(p[0]);
                        s[1] += u32::from(p[1]);
                        s[2] += u32::from(p[2]);
                    }
                    s[3] += (chunk.len() / 4) as u32;
                } else {
                    for p in chunk.chunks_exact(4) {
                        let a = u32::from(p[3]);
                        s[0] += u32::from(p[0]) * a;
                        s[1] += u32::from(p[1]) * a;
                        s[2] += u32::from(p[2]) * a;
                        s[3] += a;
                    }
                }
            }
        }
        // One output row holds every block's mean colour.
        for (bx, chunk) in row_out.chunks_mut(block * 4).enumerate() {
            let s = sums[bx];
            let mean = if s[3] == 0 {
                [0; 3]
            } else {
                let half = s[3] / 2;
                [
                    ((s[0] + half) / s[3]) as u8,
                    ((s[1] + half) / s[3]) as u8,
                    ((s[2] + half) / s[3]) as u8,
                ]
            };
            for p in chunk.chunks_exact_mut(4) {
                p[..3].copy_from_slice(&mean);
                p[3] = 255;
            }
        }
        for y in by..by + bh {
            let out = &mut dst[y * stride..(y + 1) * stride];
            out.copy_from_slice(&row_out);
            if !opaque {
                let row = &src[y * stride..(y + 1) * stride];
                for (d, s) in out.chunks_exact_mut(4).zip(row.chunks_exact(4)) {
                    d[3] = s[3];
                }
            }
        }
    }
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
    let mut b = vec![0u8; src.len()];
    let mut sums = vec![0u32; w * 4];
    for r in box_radii(blur_sigma(w, h)) {
        box_horizontal(&a, &mut b, w, h, r);
        box_vertical(&b, &mut a, w, h, r, &mut sums);
    }
    for ((d, s), o) in dst
        .chunks_exact_mut(4)
        .zip(a.chunks_exact(4))
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

/// Fixed-point reciprocal of a box width, so `sum * inv >> 24` is the mean.
fn box_inverse(r: usize) -> u64 {
    (1u64 << 24) / (2 * r as u64 + 1)
}

/// One horizontal box pass of radius `r`, edges extended.
fn box_horizontal(src: &[u8], dst: &mut [u8], w: usize, h: usize, r: usize) {
    let inv = box_inverse(r) as u32;
    let round = 1u32 << 23;
    let stride = w * 4;
    let ri = r as isize;
    let last = w as isize - 1;
    for y in 0..h {
        let row = &src[y * stride..(y + 1) * stride];
        let out = &mut dst[y * stride..(y + 1) * stride];
        let px = |x: isize| {
            let x = x.clamp(0, last) as usize * 4;
            [row[x], row[x + 1], row[x + 2], row[x + 3]]
        };
        let mut sum = [0u32; 4];
        for x in -ri..=ri {
            let p = px(x);
            for c in 0..4 {
                sum[c] += u32::from(p[c]);
            }
        }
        for x in 0..w as isize {
            let o = x as usize * 4;
            for c in 0..4 {
                // sum ≤ 255 · (2r + 1) and inv ≤ 2^24 / (2r + 1): no overflow.
                out[o + c] = ((sum[c] * inv + round) >> 24) as u8;
            }
            let add = px(x + ri + 1);
            let sub = px(x - ri);
            for c in 0..4 {
                sum[c] = sum[c] + u32::from(add[c]) - u32::from(sub[c]);
            }
        }
    }
}

/// One vertical box pass of radius `r`, edges extended, row by row so that
/// the inner loops run over contiguous memory.
fn box_vertical(src: &[u8], dst: &mut [u8], w: usize, h: usize, r: usize, sums: &mut [u32]) {
    let inv = box_inverse(r) as u32;
    let round = 1u32 << 23;
    let stride = w * 4;
    let last = h as isize - 1;
    let row = |y: isize| {
        let y = y.clamp(0, last) as usize;
        &src[y * stride..(y + 1) * stride]
    };
    sums.fill(0);
    let ri = r as isize;
    for y in -ri..=ri {
        for (s, &v) in sums.iter_mut().zip(row(y)) {
            *s += u32::from(v);
        }
    }
    for y in 0..h {
        let out = &mut dst[y * stride..(y + 1) * stride];
        for (o, &s) in out.iter_mut().zip(sums.iter()) {
            *o = ((s * inv + round) >> 24) as u8;
        }
        let add = row(y as isize + ri + 1);
        let sub = row(y as isize - ri);
        for ((s, &a), &b) in sums.iter_mut().zip(add).zip(sub) {
            *s = *s + u32::from(a) - u32::from(b);
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
    fn luma_matches_rounded_bt601() {
        for (r, g, b) in [
            (255, 255, 255),
            (0, 0, 0),
            (255, 0, 0),
            (0, 255, 0),
            (10, 20, 30),
        ] {
            let want = (0.299 * r as f32 + 0.587 * g as f32 + 0.114 * b as f32).round() as u8;
            assert_eq!(luma(r, g, b), want);
        }
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
