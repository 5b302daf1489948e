//! The avatar cropped to a shape, or framed by a pride-flag ring.
//!
//! Every function here returns a [`SIZE`] × [`SIZE`] (512 × 512) RGBA image.
//! The avatar, of any size and aspect ratio, is first scaled and centre-cropped
//! to fill its area (like CSS `object-fit: cover`; bilinear resampling weighted
//! by alpha, antialiased when shrinking),
//! then cut out with an anti-aliased mask: outside the shape the output is
//! fully transparent, on its edge partly so. Fully transparent pixels are
//! transparent black `[0, 0, 0, 0]`: nothing of the avatar outside the shape
//! survives in the image (or in its PNG).
//!
//! ```
//! use canvas_render::{circle, pride, PrideFlag};
//!
//! let avatar = canvas_render::solid(300, 200, [20, 160, 90]).unwrap();
//! let round = circle(&avatar).unwrap();
//! assert_eq!(round.dimensions(), (512, 512));
//! assert_eq!(round.get_pixel(0, 0).0[3], 0); // corner: transparent
//! assert_eq!(round.get_pixel(256, 256).0, [20, 160, 90, 255]);
//!
//! let ring = pride(&avatar, PrideFlag::Transgender).unwrap();
//! assert_eq!(ring.get_pixel(256, 4).0, [0x5B, 0xCE, 0xFA, 255]); // top stripe: light blue
//! ```

use std::fmt;
use std::sync::OnceLock;

use tiny_skia::{FillRule, Mask, Path, PathBuilder, Transform};

use crate::buffers::take;
use crate::resize::{cover, cover_masked, draw_over, multiply_alpha};
use crate::{RenderError, RgbaImage};

/// Width and height of every image made by this module, in pixels.
pub const SIZE: u32 = 512;

/// Radius of the avatar circle inside a pride ring; the ring is the rest of
/// the 256 px radius (44 px wide).
const RING_INNER: f32 = 212.0;

/// The avatar cropped to a circle filling the 512 × 512 square.
///
/// ```
/// let avatar = canvas_render::solid(64, 64, [200, 30, 30]).unwrap();
/// let out = canvas_render::circle(&avatar).unwrap();
/// assert_eq!(out.get_pixel(511, 511).0[3], 0);
/// assert_eq!(out.get_pixel(256, 2).0[3], 255);
/// ```
pub fn circle(avatar: &RgbaImage) -> Result<RgbaImage, RenderError> {
    static MASK: OnceLock<Vec<u8>> = OnceLock::new();
    let mask = MASK.get_or_init(|| {
        let half = SIZE as f32 / 2.0;
        render_mask(SIZE, PathBuilder::from_circle(half, half, half))
    });
    let mut out = cover_masked(avatar, SIZE, SIZE, mask)?;
    multiply_alpha(&mut out, mask);
    Ok(out)
}

/// The avatar cropped to a heart filling the 512 × 512 square (point down,
/// two round lobes on top).
///
/// ```
/// let avatar = canvas_render::solid(64, 64, [200, 30, 30]).unwrap();
/// let out = canvas_render::heart(&avatar).unwrap();
/// assert_eq!(out.get_pixel(256, 256).0, [200, 30, 30, 255]); // inside
/// assert_eq!(out.get_pixel(256, 40).0[3], 0); // the dip between the lobes
/// assert_eq!(out.get_pixel(20, 500).0[3], 0); // beside the point
/// ```
pub fn heart(avatar: &RgbaImage) -> Result<RgbaImage, RenderError> {
    static MASK: OnceLock<Vec<u8>> = OnceLock::new();
    let mask = MASK.get_or_init(|| render_mask(SIZE, heart_path()));
    let mut out = cover_masked(avatar, SIZE, SIZE, mask)?;
    multiply_alpha(&mut out, mask);
    Ok(out)
}

/// A pride flag for [`pride`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PrideFlag {
    /// Magenta, purple and royal blue stripes (2 : 1 : 2).
    Bisexual,
    /// The five-stripe orange, white and pink flag.
    Lesbian,
    /// A rainbow: the ring runs once around the colour wheel.
    Lgbt,
    /// Yellow, white, purple and black stripes.
    Nonbinary,
    /// Pink, yellow and cyan stripes.
    Pansexual,
    /// Light blue, pink, white, pink, light blue stripes.
    Transgender,
}

impl PrideFlag {
    /// Every flag, in alphabetical order of [`name`](PrideFlag::name).
    pub const ALL: [PrideFlag; 6] = [
        PrideFlag::Bisexual,
        PrideFlag::Lesbian,
        PrideFlag::Lgbt,
        PrideFlag::Nonbinary,
        PrideFlag::Pansexual,
        PrideFlag::Transgender,
    ];

    /// The flag's lower-case name, as used in URLs (`"nonbinary"`).
    pub const fn name(self) -> &'static str {
        match self {
            PrideFlag::Bisexual => "bisexual",
            PrideFlag::Lesbian => "lesbian",
            PrideFlag::Lgbt => "lgbt",
            PrideFlag::Nonbinary => "nonbinary",
            PrideFlag::Pansexual => "pansexual",
            PrideFlag::Transgender => "transgender",
        }
    }

    /// The flag of that [`name`](PrideFlag::name) (exact, lower case).
    ///
    /// ```
    /// use canvas_render::PrideFlag;
    /// assert_eq!(PrideFlag::from_name("lgbt"), Some(PrideFlag::Lgbt));
    /// assert_eq!(PrideFlag::from_name("circle"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<PrideFlag> {
        PrideFlag::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Horizontal stripes from top to bottom, as (colour, relative height);
    /// `None` for the hue ring of [`PrideFlag::Lgbt`].
    fn stripes(self) -> Option<&'static [([u8; 3], u32)]> {
        Some(match self {
            PrideFlag::Bisexual => &[
                ([0xD6, 0x02, 0x70], 2),
                ([0x9B, 0x4F, 0x96], 1),
                ([0x00, 0x38, 0xA8], 2),
            ],
            PrideFlag::Lesbian => &[
                ([0xD5, 0x2D, 0x00], 1),
                ([0xFF, 0x9A, 0x56], 1),
                ([0xFF, 0xFF, 0xFF], 1),
                ([0xD3, 0x62, 0xA4], 1),
                ([0xA3, 0x02, 0x62], 1),
            ],
            PrideFlag::Nonbinary => &[
                ([0xFC, 0xF4, 0x34], 1),
                ([0xFF, 0xFF, 0xFF], 1),
                ([0x9C, 0x59, 0xD1], 1),
                ([0x2C, 0x2C, 0x2C], 1),
            ],
            PrideFlag::Pansexual => &[
                ([0xFF, 0x21, 0x8C], 1),
                ([0xFF, 0xD8, 0x00], 1),
                ([0x21, 0xB1, 0xFF], 1),
            ],
            PrideFlag::Transgender => &[
                ([0x5B, 0xCE, 0xFA], 1),
                ([0xF5, 0xA9, 0xB8], 1),
                ([0xFF, 0xFF, 0xFF], 1),
                ([0xF5, 0xA9, 0xB8], 1),
                ([0x5B, 0xCE, 0xFA], 1),
            ],
            PrideFlag::Lgbt => return None,
        })
    }
}

impl fmt::Display for PrideFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The avatar as a circle (424 px across) inside a 44 px ring of the flag's
/// colours, on a 512 × 512 transparent square.
///
/// Striped flags show their horizontal stripes, top to bottom, across the
/// ring (so the ring reads as the flag seen through a round frame);
/// [`PrideFlag::Lgbt`] is a hue wheel starting with red at the top and running
/// clockwise through yellow, green, blue and violet.
pub fn pride(avatar: &RgbaImage, flag: PrideFlag) -> Result<RgbaImage, RenderError> {
    static RINGS: [OnceLock<RgbaImage>; 6] = [const { OnceLock::new() }; 6];
    static INNER: OnceLock<Vec<u8>> = OnceLock::new();
    let index = PrideFlag::ALL.iter().position(|f| *f == flag).unwrap_or(0);
    let diameter = (RING_INNER * 2.0) as u32;
    let mut face = cover(avatar, diameter, diameter)?;
    let mask = INNER.get_or_init(|| {
        render_mask(
            diameter,
            PathBuilder::from_circle(RING_INNER, RING_INNER, RING_INNER),
        )
    });
    multiply_alpha(&mut face, mask);
    let ring = RINGS[index].get_or_init(|| ring(flag));
    let mut copy = take(ring.as_raw().len());
    copy.copy_from_slice(ring.as_raw());
    let mut out = RgbaImage::from_raw(SIZE, SIZE, copy).expect("the ring's size");
    let offset = i64::from((SIZE - diameter) / 2);
    draw_over(&mut out, &face, offset, offset);
    crate::buffers::recycle_image(face);
    Ok(out)
}

/// The flag's ring alone: opaque between radius `RING_INNER - 1.5` and 256
/// (the overlap hides the seam under the avatar's anti-aliased edge).
fn ring(flag: PrideFlag) -> RgbaImage {
    let half = SIZE as f32 / 2.0;
    let mut pb = PathBuilder::new();
    pb.push_circle(half, half, half);
    pb.push_circle(half, half, RING_INNER - 1.5);
    let coverage = render_mask_rule(SIZE, pb.finish(), FillRule::EvenOdd);
    let rows: Vec<[u8; 3]> = match flag.stripes() {
        Some(stripes) => {
            let total: u32 = stripes.iter().map(|s| s.1).sum();
            (0..SIZE)
                .map(|y| {
                    // Which stripe holds the row's centre.
                    let pos = (2 * y + 1) * total / (2 * SIZE);
                    let mut acc = 0;
                    stripes
                        .iter()
                        .find(|(_, h)| {
                            acc += h;
                            pos < acc
                        })
                        .map_or([0; 3], |s| s.0)
                })
                .collect()
        }
        None => Vec::new(),
    };
    RgbaImage::from_fn(SIZE, SIZE, |x, y| {
        let a = coverage[(y * SIZE + x) as usize];
        if a == 0 {
            return image::Rgba([0, 0, 0, 0]);
        }
        let [r, g, b] = if rows.is_empty() {
            let (dx, dy) = (x as f32 + 0.5 - half, y as f32 + 0.5 - half);
            // Angle clockwise from the top, in turns.
            let turn = dx.atan2(-dy) / std::f32::consts::TAU;
            hue(turn.rem_euclid(1.0))
        } else {
            rows[y as usize]
        };
        image::Rgba([r, g, b, a])
    })
}

/// A fully saturated, fully bright colour at `turn` (0..1) of the colour wheel.
fn hue(turn: f32) -> [u8; 3] {
    let h = turn * 6.0;
    let f = |n: f32| {
        let k = (n + h) % 6.0;
        let v = 1.0 - (k.min(4.0 - k).clamp(0.0, 1.0));
        (v * 255.0).round() as u8
    };
    [f(5.0), f(3.0), f(1.0)]
}

/// The heart outline in a 512 × 512 box: two lobes meeting in a dip at the
/// top centre, sides curving down to a point at the bottom centre.
fn heart_path() -> Option<Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(256.0, 498.0);
    pb.cubic_to(190.0, 440.0, 4.0, 330.0, 4.0, 170.0);
    pb.cubic_to(4.0, 80.0, 70.0, 18.0, 150.0, 18.0);
    pb.cubic_to(205.0, 18.0, 240.0, 50.0, 256.0, 92.0);
    pb.cubic_to(272.0, 50.0, 307.0, 18.0, 362.0, 18.0);
    pb.cubic_to(442.0, 18.0, 508.0, 80.0, 508.0, 170.0);
    pb.cubic_to(508.0, 330.0, 322.0, 440.0, 256.0, 498.0);
    pb.close();
    pb.finish()
}

fn render_mask(size: u32, path: Option<Path>) -> Vec<u8> {
    render_mask_rule(size, path, FillRule::Winding)
}

/// An anti-aliased coverage mask of `path` in a `size`² square. `size` is a
/// constant of this module (≤ 512), far below tiny-skia's limits.
fn render_mask_rule(size: u32, path: Option<Path>, rule: FillRule) -> Vec<u8> {
    let mut mask = Mask::new(size, size).expect("constant, non-zero mask size");
    if let Some(path) = path {
        mask.fill_path(&path, rule, true, Transform::identity());
    }
    mask.data().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_of_the_avatar_hides_under_transparent_pixels() {
        let avatar = crate::limits::solid(300, 200, [200, 120, 40]).unwrap();
        for (name, out) in [
            ("circle", circle(&avatar).unwrap()),
            ("heart", heart(&avatar).unwrap()),
            ("pride", pride(&avatar, PrideFlag::Bisexual).unwrap()),
        ] {
            let transparent: Vec<_> = out.pixels().filter(|p| p.0[3] == 0).collect();
            assert!(
                transparent.len() > 10_000,
                "{name} has a transparent outside"
            );
            assert!(
                transparent.iter().all(|p| p.0 == [0, 0, 0, 0]),
                "{name}: fully transparent pixels are transparent black"
            );
        }
    }

    #[test]
    fn hue_wheel_stops() {
        assert_eq!(hue(0.0), [255, 0, 0]);
        assert_eq!(hue(1.0 / 6.0), [255, 255, 0]);
        assert_eq!(hue(1.0 / 3.0), [0, 255, 0]);
        assert_eq!(hue(2.0 / 3.0), [0, 0, 255]);
    }

    #[test]
    fn masks_are_anti_aliased() {
        let half = SIZE as f32 / 2.0;
        let mask = render_mask(SIZE, PathBuilder::from_circle(half, half, half));
        assert_eq!(mask[0], 0);
        assert_eq!(mask[(256 * SIZE + 256) as usize], 255);
        assert!(mask.iter().any(|&m| m > 0 && m < 255));
    }

    #[test]
    fn every_flag_has_a_name_and_a_ring() {
        for flag in PrideFlag::ALL {
            assert_eq!(PrideFlag::from_name(flag.name()), Some(flag));
            let r = ring(flag);
            assert_eq!(
                r.get_pixel(256, 256).0[3],
                0,
                "{flag}: centre is the avatar's"
            );
            assert_eq!(r.get_pixel(256, 10).0[3], 255, "{flag}: ring is opaque");
        }
    }
}
