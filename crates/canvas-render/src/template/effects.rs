//! Animated effects on the avatar ([`Layer::Effect`]): each frame draws
//! the avatar through a geometric warp (a function from output to source
//! coordinates at the frame's phase) and a colour operation, with one
//! shared bilinear sampler.
//!
//! The phase of frame `i` of a loop of `n` frames is `t = i / n`, and every
//! warp and colour operation is periodic in `t` with period 1 (its motions
//! turn a whole number of times per loop), so the frame after the last is
//! the first again and the loop closes.

use super::*;

/// A geometric warp: how an output pixel finds its source pixel at phase
/// `t` (see the module docs). Strength 1 is the default look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Warp {
    /// The avatar as it is.
    None,
    /// The avatar, cut round, turning `speed` times per loop.
    Spin,
    /// Jitter in x and y, slightly enlarged so no edge shows.
    Shake,
    /// Zooming into the centre and back out.
    Zoom,
    /// Rows moving sideways in a travelling sine wave.
    Wave,
    /// Rings travelling out from the centre.
    Ripple,
    /// Rows and columns waving both ways, a short wave.
    Wiggle,
    /// A twist around the centre, one way and then the other.
    Swirl,
    /// Columns dripping down by different amounts, then back up.
    Melt,
    /// The avatar, smaller, jumping and squashing as it lands.
    Bounce,
    /// Slanting left and right.
    Shear,
    /// The avatar, cut round, rolling across the canvas and around.
    Roll,
    /// Small wobbles everywhere, like a hand-drawn line boiling.
    Boil,
    /// Bands of rows torn sideways, different in every frame, with the
    /// colour channels split.
    Glitch,
    /// The avatar wrapped on a turning, shaded sphere.
    Globe,
    /// A liquid distortion growing and settling over the loop.
    Magik,
    /// Blocks of `2 + strength / 4` pixels (each one colour).
    Blocks,
}

impl Warp {
    /// Every warp.
    pub const ALL: [Warp; 17] = [
        Warp::None,
        Warp::Spin,
        Warp::Shake,
        Warp::Zoom,
        Warp::Wave,
        Warp::Ripple,
        Warp::Wiggle,
        Warp::Swirl,
        Warp::Melt,
        Warp::Bounce,
        Warp::Shear,
        Warp::Roll,
        Warp::Boil,
        Warp::Glitch,
        Warp::Globe,
        Warp::Magik,
        Warp::Blocks,
    ];

    /// Its name in a template file.
    pub fn name(self) -> &'static str {
        match self {
            Warp::None => "none",
            Warp::Spin => "spin",
            Warp::Shake => "shake",
            Warp::Zoom => "zoom",
            Warp::Wave => "wave",
            Warp::Ripple => "ripple",
            Warp::Wiggle => "wiggle",
            Warp::Swirl => "swirl",
            Warp::Melt => "melt",
            Warp::Bounce => "bounce",
            Warp::Shear => "shear",
            Warp::Roll => "roll",
            Warp::Boil => "boil",
            Warp::Glitch => "glitch",
            Warp::Globe => "globe",
            Warp::Magik => "magik",
            Warp::Blocks => "blocks",
        }
    }

    /// The warp named `name` in a template file.
    pub fn from_name(name: &str) -> Option<Warp> {
        Warp::ALL.into_iter().find(|w| w.name() == name)
    }
}

/// A colour operation on each sampled pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tone {
    /// The colours as they are.
    None,
    /// The hue turning around the colour wheel `speed` times per loop,
    /// with a rainbow tint over grey parts.
    HueCycle,
    /// Over-saturated, over-sharpened, posterised, with a red-orange cast.
    Deepfry,
}

impl Tone {
    /// Every colour operation.
    pub const ALL: [Tone; 3] = [Tone::None, Tone::HueCycle, Tone::Deepfry];

    /// Its name in a template file.
    pub fn name(self) -> &'static str {
        match self {
            Tone::None => "none",
            Tone::HueCycle => "hue-cycle",
            Tone::Deepfry => "deepfry",
        }
    }

    /// The colour operation named `name` in a template file.
    pub fn from_name(name: &str) -> Option<Tone> {
        Tone::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// An effect layer: the avatar, prepared at the canvas's size, drawn
/// through a [`Warp`] and a [`Tone`] over the canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EffectSlot {
    /// The warp.
    pub warp: Warp,
    /// The colour operation.
    pub tone: Tone,
    /// The [`ParamKind::Int`] parameter of the strength (5 is the default
    /// look, 1 a fifth of it, 10 twice it); `None`: 5.
    pub strength: Option<&'static str>,
    /// The [`ParamKind::Int`] parameter of the speed: whole cycles of the
    /// motion per loop; `None`: 1.
    pub speed: Option<&'static str>,
    /// The [`ParamKind::Int`] parameter of the square canvas's side
    /// ([`Template::size_for`]); `None`: the template's size.
    pub side: Option<&'static str>,
    /// Frames in one loop (the template's frame count): frame `i` is
    /// drawn at phase `i / period`.
    pub period: u32,
}

impl EffectSlot {
    /// The strength factor (1 by default).
    fn strength(&self, args: &Args) -> f32 {
        self.strength.map_or(1.0, |p| args.int(p) as f32 / 5.0)
    }

    /// Whole cycles per loop (at least 1).
    fn speed(&self, args: &Args) -> f32 {
        self.speed.map_or(1.0, |p| args.int(p).max(1) as f32)
    }
}

/// The side of an effect's square canvas for these arguments, if a
/// parameter sets it.
pub(super) fn effect_side(template: &Template, args: &Args) -> Option<u32> {
    template.layers.iter().find_map(|l| match l {
        Layer::Effect(EffectSlot { side: Some(p), .. }) => {
            u32::try_from(args.int(p)).ok().filter(|&s| s > 0)
        }
        _ => None,
    })
}

/// The side the avatar is prepared at for an effect layer: the canvas's.
pub(super) fn prepared_side(template: &Template, args: &Args) -> u32 {
    let (w, h) = template.content_size_for(args);
    w.max(h).max(1)
}

/// Premultiplied RGBA, 0–255 per channel.
type Px = [u32; 4];

/// The one sampler every warp shares: bilinear over premultiplied RGBA,
/// transparent outside the source.
struct Sampler<'a> {
    data: &'a [u8],
    w: i32,
    h: i32,
}

impl Sampler<'_> {
    #[inline(always)]
    fn texel(&self, x: i32, y: i32) -> Px {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            return [0; 4];
        }
        let i = (y as usize * self.w as usize + x as usize) * 4;
        let p = &self.data[i..i + 4];
        [
            u32::from(p[0]),
            u32::from(p[1]),
            u32::from(p[2]),
            u32::from(p[3]),
        ]
    }

    /// The colour at `(x, y)` in source pixels (pixel centres at `.5`).
    #[inline(always)]
    fn sample(&self, x: f32, y: f32) -> Px {
        let (fx, fy) = (x - 0.5, y - 0.5);
        // Far outside (or not a number): transparent, no lookups.
        if !(fx > -1.0 && fy > -1.0 && fx < self.w as f32 && fy < self.h as f32) {
            return [0; 4];
        }
        let (x0, y0) = (fx.floor(), fy.floor());
        let wx = ((fx - x0) * 256.0) as u32;
        let wy = ((fy - y0) * 256.0) as u32;
        let (x0, y0) = (x0 as i32, y0 as i32);
        let (a, b, c, d) = if x0 >= 0 && y0 >= 0 && x0 + 1 < self.w && y0 + 1 < self.h {
            let row = self.w as usize * 4;
            let i = (y0 as usize * self.w as usize + x0 as usize) * 4;
            let q = &self.data[i..i + row + 8];
            let px = |o: usize| {
                [
                    u32::from(q[o]),
                    u32::from(q[o + 1]),
                    u32::from(q[o + 2]),
                    u32::from(q[o + 3]),
                ]
            };
            (px(0), px(4), px(row), px(row + 4))
        } else {
            (
                self.texel(x0, y0),
                self.texel(x0 + 1, y0),
                self.texel(x0, y0 + 1),
                self.texel(x0 + 1, y0 + 1),
            )
        };
        let mut out = [0; 4];
        for k in 0..4 {
            let top = a[k] * (256 - wx) + b[k] * wx;
            let bottom = c[k] * (256 - wx) + d[k] * wx;
            out[k] = (top * (256 - wy) + bottom * wy + (1 << 15)) >> 16;
        }
        out
    }
}

/// Where an output pixel samples: the source point, a shade on its colour
/// (a lit sphere) and its coverage (an anti-aliased round edge), 0–1.
#[derive(Clone, Copy)]
struct Hit {
    x: f32,
    y: f32,
    shade: f32,
    cover: f32,
}

impl Hit {
    #[inline(always)]
    fn at(x: f32, y: f32) -> Option<Hit> {
        Some(Hit {
            x,
            y,
            shade: 1.0,
            cover: 1.0,
        })
    }
}

/// How much of a pixel at distance `r` from a disc's centre the disc of
/// radius `radius` covers (a one-pixel ramp).
#[inline(always)]
fn disc(r: f32, radius: f32) -> f32 {
    (radius - r + 0.5).clamp(0.0, 1.0)
}

/// A smooth value noise in about −1–1, its lattice one unit apart.
#[inline(always)]
fn noise(x: f32, y: f32, seed: u32) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let (ix, iy) = (x0 as i32, y0 as i32);
    let corner = |i: i32, j: i32| {
        let mut h = (i as u32).wrapping_mul(0x27d4_eb2d)
            ^ (j as u32).wrapping_mul(0x1656_67b1)
            ^ seed.wrapping_mul(0x9e37_79b9);
        h ^= h >> 15;
        h = h.wrapping_mul(0x85eb_ca6b);
        h ^= h >> 13;
        (h & 0xffff) as f32 / 32767.5 - 1.0
    };
    let top = corner(ix, iy) + (corner(ix + 1, iy) - corner(ix, iy)) * sx;
    let bottom = corner(ix, iy + 1) + (corner(ix + 1, iy + 1) - corner(ix, iy + 1)) * sx;
    top + (bottom - top) * sy
}

/// A small whole-number hash of `(a, b)`, 0–1.
fn hash01(a: u32, b: u32) -> f32 {
    let mut h = a.wrapping_mul(0x9e37_79b9) ^ b.wrapping_mul(0x85eb_ca6b) ^ 0x5bd1_e995;
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    (h & 0xffff) as f32 / 65535.0
}

/// The colour operation of one frame, its constants worked out once.
enum ToneFrame {
    None,
    /// A 3×3 matrix on premultiplied RGB (fixed point, 1.0 = 1024), and a
    /// tint colour mixed in by `mix` (0–256) in proportion to how grey the
    /// pixel is.
    Matrix {
        m: [i32; 9],
        tint: [i32; 3],
        mix: i32,
    },
    Deepfry {
        contrast: f32,
        saturation: f32,
        levels: f32,
        wash: f32,
    },
}

/// The hue rotation by `angle` radians as a matrix on RGB (luma kept).
fn hue_matrix(angle: f32) -> [f32; 9] {
    let (s, c) = angle.sin_cos();
    [
        0.213 + c * 0.787 - s * 0.213,
        0.715 - c * 0.715 - s * 0.715,
        0.072 - c * 0.072 + s * 0.928,
        0.213 - c * 0.213 + s * 0.143,
        0.715 + c * 0.285 + s * 0.140,
        0.072 - c * 0.072 - s * 0.283,
        0.213 - c * 0.213 - s * 0.787,
        0.715 - c * 0.715 + s * 0.715,
        0.072 + c * 0.928 + s * 0.072,
    ]
}

/// A fully saturated colour at hue `turns` (0–1 around the wheel).
fn hue_rgb(turns: f32) -> [f32; 3] {
    let h = turns.rem_euclid(1.0) * 6.0;
    let x = 1.0 - (h % 2.0 - 1.0).abs();
    match h as u32 {
        0 => [1.0, x, 0.0],
        1 => [x, 1.0, 0.0],
        2 => [0.0, 1.0, x],
        3 => [0.0, x, 1.0],
        4 => [x, 0.0, 1.0],
        _ => [1.0, 0.0, x],
    }
}

impl ToneFrame {
    fn new(tone: Tone, t: f32, speed: f32, strength: f32) -> ToneFrame {
        match tone {
            Tone::None => ToneFrame::None,
            Tone::HueCycle => {
                let turn = (t * speed).fract();
                let m = hue_matrix(turn * std::f32::consts::TAU);
                let tint = hue_rgb(turn);
                ToneFrame::Matrix {
                    m: m.map(|v| (v * 1024.0).round() as i32),
                    tint: tint.map(|v| (v * 255.0) as i32),
                    mix: (strength * 0.45 * 256.0).clamp(0.0, 256.0) as i32,
                }
            }
            Tone::Deepfry => ToneFrame::Deepfry {
                contrast: 1.0 + 0.5 * strength,
                saturation: 1.0 + 1.5 * strength,
                levels: (8.0 - strength * 2.0).clamp(3.0, 7.0),
                wash: (0.3 * strength).min(0.6),
            },
        }
    }

    /// Applies the operation to a premultiplied pixel (alpha `c[3]`).
    #[inline(always)]
    fn apply(&self, c: &mut Px) {
        match self {
            ToneFrame::None => {}
            ToneFrame::Matrix { m, tint, mix } => {
                let a = c[3] as i32;
                let (r, g, b) = (c[0] as i32, c[1] as i32, c[2] as i32);
                let mut out = [
                    (m[0] * r + m[1] * g + m[2] * b) >> 10,
                    (m[3] * r + m[4] * g + m[5] * b) >> 10,
                    (m[6] * r + m[7] * g + m[8] * b) >> 10,
                ];
                // Grey parts take the rainbow colour as a tint, scaled by
                // their lightness (a hue turn alone leaves them grey).
                let spread = r.max(g).max(b) - r.min(g).min(b);
                let grey = ((256 - (spread * 256 / a.max(1)).min(256)) * mix) >> 8;
                let luma = (r * 54 + g * 183 + b * 19) >> 8;
                for k in 0..3 {
                    let tinted = (tint[k] * luma / 255 + luma) >> 1;
                    out[k] += ((tinted - out[k]) * grey) >> 8;
                    c[k] = out[k].clamp(0, a) as u32;
                }
            }
            ToneFrame::Deepfry {
                contrast,
                saturation,
                levels,
                wash,
            } => {
                let a = c[3] as f32;
                if a == 0.0 {
                    return;
                }
                let mut rgb = [c[0] as f32 / a, c[1] as f32 / a, c[2] as f32 / a];
                let luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
                // A red-orange cast, and an orange wash by the lightness.
                const CAST: [f32; 3] = [1.3, 0.9, 0.5];
                const WARM: [f32; 3] = [1.0, 0.42, 0.05];
                for (k, v) in rgb.iter_mut().enumerate() {
                    let s = luma + (*v - luma) * saturation;
                    let s = (s - 0.5) * contrast + 0.5 + 0.04;
                    let s = s * CAST[k] * (1.0 - wash) + WARM[k] * (0.3 + 0.9 * luma) * wash;
                    let s = s.clamp(0.0, 1.0);
                    *v = (s * levels).round() / levels;
                }
                for k in 0..3 {
                    c[k] = (rgb[k] * a).round().clamp(0.0, a) as u32;
                }
            }
        }
    }
}

/// Draws `frame` of the effect `slot` of the avatar `src` (prepared at the
/// canvas's size) over the canvas.
pub(super) fn draw_effect(
    canvas: &mut Canvas,
    slot: &EffectSlot,
    src: &Pixmap,
    args: &Args,
    frame: u32,
) {
    let period = slot.period.max(1);
    draw_phase(
        canvas,
        slot,
        src,
        args,
        (frame % period) as f32 / period as f32,
    );
}

/// [`draw_effect`] at phase `t` (0–1: frame `t × period`).
pub(super) fn draw_phase(
    canvas: &mut Canvas,
    slot: &EffectSlot,
    src: &Pixmap,
    args: &Args,
    t: f32,
) {
    let period = slot.period.max(1);
    let index = (t * period as f32).round() as u32 % period;
    let s = slot.strength(args);
    let speed = slot.speed(args);
    let (w, h) = (canvas.pixmap.width(), canvas.pixmap.height());
    let sampler = Sampler {
        data: src.data(),
        w: src.width() as i32,
        h: src.height() as i32,
    };
    // Output pixels to source pixels (the avatar is prepared at the
    // canvas's size: 1, but a differently sized source still fills it).
    let (kx, ky) = (
        src.width() as f32 / w as f32,
        src.height() as f32 / h as f32,
    );
    let size = w.min(h) as f32;
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let radius = size / 2.0;
    let tone = ToneFrame::new(slot.tone, t, speed, s);
    let theta = std::f32::consts::TAU * t * speed;
    let out = Out {
        canvas,
        sampler: &sampler,
        tone: &tone,
        k: (kx, ky),
    };
    match slot.warp {
        Warp::None => out.run(0.0, 0.0, Hit::at),
        Warp::Spin => {
            let (sn, cs) = theta.sin_cos();
            let r = radius - 1.0;
            out.run(0.0, 0.0, |x, y| {
                let (dx, dy) = (x - cx, y - cy);
                let cover = disc((dx * dx + dy * dy).sqrt(), r);
                (cover > 0.0).then_some(Hit {
                    x: cx + cs * dx + sn * dy,
                    y: cy - sn * dx + cs * dy,
                    shade: 1.0,
                    cover,
                })
            })
        }
        Warp::Shake => {
            let a = size * 0.035 * s;
            let ox = a * (0.65 * (3.0 * theta).sin() + 0.35 * (5.0 * theta + 1.0).sin());
            let oy = a * (0.65 * (4.0 * theta + 0.5).cos() + 0.35 * (7.0 * theta + 2.0).sin());
            let zoom = 1.0 / (1.0 + 2.0 * a / size);
            out.run(0.0, 0.0, |x, y| {
                Hit::at(cx + (x - cx + ox) * zoom, cy + (y - cy + oy) * zoom)
            })
        }
        Warp::Zoom => {
            let z = 1.0 + 0.6 * s * (1.0 - theta.cos()) / 2.0;
            let inv = 1.0 / z;
            out.run(0.0, 0.0, |x, y| {
                Hit::at(cx + (x - cx) * inv, cy + (y - cy) * inv)
            })
        }
        Warp::Wave => {
            let a = size * 0.045 * s;
            let f = std::f32::consts::TAU * 1.5 / size;
            // Each row's shift, worked out once per row.
            let shift = per_line(h, |y| a * (y * f + theta).sin());
            out.run(0.0, 0.0, |x, y| Hit::at(x + shift[line(y)], y))
        }
        Warp::Ripple => {
            let a = size * 0.02 * s;
            let f = std::f32::consts::TAU * 7.0 / size;
            let (sn, cs) = theta.sin_cos();
            // sin(r·f − θ) / r = (sin(r·f)·cos θ − cos(r·f)·sin θ) / r: the
            // parts of each pixel's offset that depend on the size alone
            // are worked out once and kept.
            let build = |x: f32, y: f32| {
                let (dx, dy) = (x - cx, y - cy);
                let r = (dx * dx + dy * dy).sqrt().max(1e-3);
                let (rs, rc) = (r * f).sin_cos();
                [dx * rs / r, dx * rc / r, dy * rs / r, dy * rc / r]
            };
            with_table(Warp::Ripple, (w, h), build, |table| {
                out.run(0.0, 0.0, |x, y| {
                    let [xs, xc, ys, yc] = table[line(y) * w as usize + line(x)];
                    Hit::at(x + a * (xs * cs - xc * sn), y + a * (ys * cs - yc * sn))
                })
            })
        }
        Warp::Wiggle => {
            let a = size * 0.03 * s;
            let f = std::f32::consts::TAU * 3.0 / size;
            // Across shifts by row, down by column: each worked out once.
            let across = per_line(h, |y| a * (y * f + theta).sin());
            let down = per_line(w, |x| a * (x * f + theta + 1.3).sin());
            out.run(0.0, 0.0, |x, y| {
                Hit::at(x + across[line(y)], y + down[line(x)])
            })
        }
        Warp::Swirl => {
            let amount = 2.2 * s * theta.cos();
            // Each pixel's offset from the centre and its share of the
            // turn, (1 − r)² (negative outside the disc), depend on the
            // size alone: worked out once and kept.
            let build = |x: f32, y: f32| {
                let (dx, dy) = (x - cx, y - cy);
                let r = (dx * dx + dy * dy).sqrt() / radius;
                let share = if r >= 1.0 {
                    -1.0
                } else {
                    (1.0 - r) * (1.0 - r)
                };
                [dx, dy, share, 0.0]
            };
            // The turn's sine and cosine by share, in steps interpolated
            // (off by some 1e-6 of a turn, far below a pixel).
            let turns: Vec<(f32, f32)> = (0..=SWIRL_STEPS)
                .map(|i| (amount * i as f32 / SWIRL_STEPS as f32).sin_cos())
                .collect();
            with_table(Warp::Swirl, (w, h), build, |table| {
                out.run(0.0, 0.0, |x, y| {
                    let [dx, dy, share, _] = table[line(y) * w as usize + line(x)];
                    if share < 0.0 {
                        return Hit::at(x, y);
                    }
                    let at = share * SWIRL_STEPS as f32;
                    let i = (at as usize).min(SWIRL_STEPS - 1);
                    let k = at - i as f32;
                    let ((s0, c0), (s1, c1)) = (turns[i], turns[i + 1]);
                    let (sn, cs) = (s0 + (s1 - s0) * k, c0 + (c1 - c0) * k);
                    Hit::at(cx + cs * dx - sn * dy, cy + sn * dx + cs * dy)
                })
            })
        }
        Warp::Melt => {
            let depth = size * 0.3 * s * (std::f32::consts::PI * t).sin().powi(2);
            let cols = 14.0 / size;
            // Each column slides down by its own amount (narrow drips far
            // ahead of the rest), stretching towards the bottom.
            let mut drips = [0f32; MAX_EFFECT_SIDE as usize];
            for (x, d) in drips.iter_mut().enumerate().take(w as usize) {
                let n = 0.5 + 0.5 * noise((x as f32 + 0.5) * cols, 0.5, 11);
                *d = depth * (0.25 + 0.75 * n * n);
            }
            let stretch = 0.4 / size;
            out.run(0.0, 0.0, |x, y| {
                let fall = drips[(x as usize).min(drips.len() - 1)] * (0.6 + stretch * y);
                Hit::at(x, y - fall)
            })
        }
        Warp::Bounce => {
            // Half a sine per bounce: up in the air mid-bounce, squashed
            // on the ground at its ends.
            let phase = (t * speed).fract();
            // A parabola: fast off the ground, slow at the top.
            let up = 1.0 - (2.0 * phase - 1.0).powi(2);
            let small = 0.8;
            let lift = size * 0.2 * s.min(1.0) * up;
            let squash = 0.12 * s.min(2.0) * (1.0 - up).powi(4);
            let (sw, sh) = (small * (1.0 + squash), small * (1.0 - squash));
            let bottom = h as f32 - lift;
            out.run(0.0, 0.0, |x, y| {
                Hit::at(cx + (x - cx) / sw, h as f32 - (bottom - y) / sh)
            })
        }
        Warp::Shear => {
            let k = 0.35 * s.min(2.0) * theta.cos();
            out.run(0.0, 0.0, |x, y| Hit::at(x + k * (y - cy), y))
        }
        Warp::Roll => {
            let shift = (t * speed).fract() * w as f32;
            let turn = std::f32::consts::TAU * (t * speed).fract();
            let (sn, cs) = turn.sin_cos();
            let r = radius - 1.0;
            let wf = w as f32;
            out.run(0.0, 0.0, |x, y| {
                let lx = (x - shift).rem_euclid(wf);
                let (dx, dy) = (lx - cx, y - cy);
                let cover = disc((dx * dx + dy * dy).sqrt(), r);
                (cover > 0.0).then_some(Hit {
                    x: cx + cs * dx + sn * dy,
                    y: cy - sn * dx + cs * dy,
                    shade: 1.0,
                    cover,
                })
            })
        }
        Warp::Boil => {
            let a = size * 0.012 * s;
            let scale = 10.0 / size;
            let (sn, cs) = theta.sin_cos();
            // Each pixel's two phases (as sines and cosines) depend on the
            // size only: worked out once and kept.
            let build = |x: f32, y: f32| {
                let (nx, ny) = (x * scale, y * scale);
                let (ps, pc) = (noise(nx, ny, 3) * 3.2).sin_cos();
                let (qs, qc) = (noise(nx, ny, 7) * 3.2).sin_cos();
                [pc, ps, qc, qs]
            };
            with_table(Warp::Boil, (w, h), build, |table| {
                out.run(0.0, 0.0, |x, y| {
                    // A small circle per pixel, each at its own phase.
                    let [pc, ps, qc, qs] = table[y as usize * w as usize + x as usize];
                    Hit::at(x + a * (pc * cs - ps * sn), y + a * (qs * cs + qc * sn))
                })
            })
        }
        Warp::Glitch => {
            let bands = 9.0;
            let band_h = size / bands;
            let seed = index + 1;
            let calm = index % 4 == 3;
            let a = size * 0.09 * s;
            let split = if calm { 0.0 } else { size * 0.012 * s };
            // Each row's shift (its band's), worked out once per row.
            let shift = per_line(h, |y| {
                let band = (y / band_h) as u32;
                let r = hash01(seed, band);
                match calm || r < 0.45 {
                    true => 0.0,
                    false => (hash01(band, seed * 7) - 0.5) * 2.0 * a,
                }
            });
            out.run(split, 0.0, |x, y| Hit::at(x + shift[line(y)], y))
        }
        Warp::Globe => {
            let spin = (t * speed).fract();
            let (wf, hf) = (w as f32, h as f32);
            // Where each pixel lies on the sphere (longitude at rest,
            // latitude, light, coverage) depends on the size only.
            let build = |x: f32, y: f32| {
                let r = radius - 2.0;
                let light = [-0.45f32, -0.5, 0.74];
                let inv_pi = 1.0 / std::f32::consts::PI;
                let (dx, dy) = ((x - cx) / r, (y - cy) / r);
                let d2 = dx * dx + dy * dy;
                let cover = disc(d2.sqrt() * r, r);
                let z = (1.0 - d2).max(0.0).sqrt();
                // Longitude across the visible half, latitude from the
                // pole: the avatar goes once around the sphere.
                let lon = dx.atan2(z) * inv_pi * 0.5 + 0.5;
                let lat = dy.clamp(-1.0, 1.0).asin() * inv_pi + 0.5;
                let lit = dx * light[0] + dy * light[1] + z * light[2];
                [lon, lat, 0.3 + 0.8 * lit.max(0.0), cover]
            };
            with_table(Warp::Globe, (w, h), build, |table| {
                out.run(0.0, 0.0, |x, y| {
                    let [lon, lat, shade, cover] = table[y as usize * w as usize + x as usize];
                    // Kept half a pixel inside the avatar: its edges meet
                    // at the seam and the poles without a transparent line.
                    (cover > 0.0).then(|| Hit {
                        x: ((lon + spin).rem_euclid(1.0) * wf).clamp(0.5, wf - 0.5),
                        y: (lat * hf).clamp(0.5, hf - 0.5),
                        shade,
                        cover,
                    })
                })
            })
        }
        Warp::Magik => {
            let grow = (std::f32::consts::PI * t).sin().powi(2);
            let a = size * 0.16 * s * grow;
            let scale = 3.0 / size;
            // The liquid field (two octaves of noise each way) depends on
            // the size only; its strength grows and settles with the loop.
            let build = |x: f32, y: f32| {
                let (nx, ny) = (x * scale, y * scale);
                let u = noise(nx, ny, 21) + 0.5 * noise(nx * 2.0, ny * 2.0, 22);
                let v = noise(nx, ny, 31) + 0.5 * noise(nx * 2.0, ny * 2.0, 32);
                [u, v, 0.0, 0.0]
            };
            with_table(Warp::Magik, (w, h), build, |table| {
                out.run(0.0, 0.0, |x, y| {
                    let [u, v, _, _] = table[y as usize * w as usize + x as usize];
                    Hit::at(x + a * u, y + a * v)
                })
            })
        }
        Warp::Blocks => {
            let block = (2.0 + (s * 5.0 / 4.0).floor()).max(1.0);
            let sharpen = match slot.tone {
                Tone::Deepfry => 0.5 * s,
                _ => 0.0,
            };
            out.run(0.0, sharpen, |x, y| {
                Hit::at(
                    ((x / block).floor() + 0.5) * block,
                    ((y / block).floor() + 0.5) * block,
                )
            })
        }
    }
}

/// Steps of swirl's table of turns (interpolated between).
const SWIRL_STEPS: usize = 1024;

/// A value per row (or column) of a canvas `n` pixels long, `f` at each
/// pixel centre, for warps whose terms depend on one coordinate only.
fn per_line(n: u32, f: impl Fn(f32) -> f32) -> Vec<f32> {
    (0..n).map(|i| f(i as f32 + 0.5)).collect()
}

/// The row (or column) of a pixel centre coordinate as `run` hands them.
#[inline(always)]
fn line(c: f32) -> usize {
    c as usize
}

/// Per-pixel values of `warp` on a canvas of `size` that depend on the
/// size alone (`build` at each pixel centre), handed to `with`: worked out
/// once per thread and kept for the next frame and render (one table per
/// thread, at most [`MAX_EFFECT_SIDE`]² × 16 bytes).
fn with_table<R>(
    warp: Warp,
    (w, h): (u32, u32),
    build: impl Fn(f32, f32) -> [f32; 4],
    with: impl FnOnce(&[[f32; 4]]) -> R,
) -> R {
    type Table = Option<((Warp, u32, u32), Vec<[f32; 4]>)>;
    thread_local! {
        static TABLE: std::cell::RefCell<Table> = const { std::cell::RefCell::new(None) };
    }
    TABLE.with(|cell| {
        let mut kept = cell.borrow_mut();
        let key = (warp, w, h);
        if kept.as_ref().is_none_or(|(k, _)| *k != key) {
            let mut table = kept.take().map(|(_, t)| t).unwrap_or_default();
            table.clear();
            for y in 0..h {
                for x in 0..w {
                    table.push(build(x as f32 + 0.5, y as f32 + 0.5));
                }
            }
            *kept = Some((key, table));
        }
        let (_, table) = kept.as_ref().expect("filled above");
        with(table)
    })
}

/// What a warp draws into and samples from.
struct Out<'a> {
    canvas: &'a mut Canvas,
    sampler: &'a Sampler<'a>,
    tone: &'a ToneFrame,
    /// Output to source pixel scale.
    k: (f32, f32),
}

impl Out<'_> {
    /// Every output pixel samples where `warp` says (output pixel centres
    /// in, source-sized coordinates out), through the tone, blended over
    /// the canvas; red and blue come from `split` pixels right and left
    /// when it is not 0, and the colour is sharpened by `sharpen` (its
    /// difference from the four samples a pixel and a half around it,
    /// added) when that is not 0.
    #[inline(always)]
    fn run(self, split: f32, sharpen: f32, warp: impl Fn(f32, f32) -> Option<Hit>) {
        let w = self.canvas.pixmap.width() as usize;
        let (kx, ky) = self.k;
        let data = self.canvas.pixmap.data_mut();
        for (y, row) in data.chunks_exact_mut(w * 4).enumerate() {
            let py = y as f32 + 0.5;
            for (x, dst) in row.chunks_exact_mut(4).enumerate() {
                let Some(hit) = warp(x as f32 + 0.5, py) else {
                    continue;
                };
                let (sx, sy) = (hit.x * kx, hit.y * ky);
                let mut c = self.sampler.sample(sx, sy);
                if split != 0.0 {
                    let r = self.sampler.sample(sx + split * kx, sy);
                    let b = self.sampler.sample(sx - split * kx, sy);
                    c = [r[0], c[1], b[2], c[3].max(r[3]).max(b[3])];
                    c = [c[0].min(c[3]), c[1].min(c[3]), c[2].min(c[3]), c[3]];
                }
                if c[3] == 0 {
                    continue;
                }
                if sharpen != 0.0 {
                    let d = 1.5;
                    let around = [
                        self.sampler.sample(sx - d, sy),
                        self.sampler.sample(sx + d, sy),
                        self.sampler.sample(sx, sy - d),
                        self.sampler.sample(sx, sy + d),
                    ];
                    for k in 0..3 {
                        let sum: u32 = around.iter().map(|p| p[k]).sum();
                        let v = c[k] as f32 + sharpen * (c[k] as f32 - sum as f32 / 4.0);
                        c[k] = v.clamp(0.0, c[3] as f32) as u32;
                    }
                }
                self.tone.apply(&mut c);
                if hit.shade != 1.0 {
                    let k = (hit.shade.clamp(0.0, 2.0) * 256.0) as u32;
                    let a = c[3];
                    for v in &mut c[..3] {
                        *v = ((*v * k) >> 8).min(a);
                    }
                }
                if hit.cover < 1.0 {
                    let k = (hit.cover * 256.0) as u32;
                    for v in &mut c {
                        *v = (*v * k) >> 8;
                    }
                }
                let da = u32::from(dst[3]);
                if da == 0 {
                    for k in 0..4 {
                        dst[k] = c[k] as u8;
                    }
                } else {
                    let keep = 255 - c[3];
                    for k in 0..4 {
                        dst[k] = (c[k] + (u32::from(dst[k]) * keep + 127) / 255).min(255) as u8;
                    }
                }
            }
        }
    }
}

/// Most pixels on a side of an effect ([`EFFECT_SIZE`]'s bound).
pub const MAX_EFFECT_SIDE: u32 = 512;

/// Frames in one loop of an animated effect.
pub const EFFECT_FRAMES: u32 = 16;

/// `size`: the side of an effect's square canvas.
pub const EFFECT_SIZE: ParamSpec = ParamSpec {
    name: "size",
    kind: ParamKind::Int {
        min: 64,
        max: MAX_EFFECT_SIDE as u64,
        default: 256,
    },
    doc: "Width and height of the output in pixels (64–512, default 256).",
    expected: "a whole number from 64 to 512",
};

/// `strength`: how strong the effect is.
pub const EFFECT_STRENGTH: ParamSpec = ParamSpec {
    name: "strength",
    kind: ParamKind::Int {
        min: 1,
        max: 10,
        default: 5,
    },
    doc: "How strong the effect is (1–10, default 5).",
    expected: "a whole number from 1 to 10",
};

/// `speed`: cycles of the motion per loop.
pub const EFFECT_SPEED: ParamSpec = ParamSpec {
    name: "speed",
    kind: ParamKind::Int {
        min: 1,
        max: 4,
        default: 1,
    },
    doc: "Cycles of the motion per loop of 16 frames (1–4, default 1).",
    expected: "a whole number from 1 to 4",
};

const ALL_KNOBS: &[ParamSpec] = &[EFFECT_SIZE, EFFECT_STRENGTH, EFFECT_SPEED];
const TURN_KNOBS: &[ParamSpec] = &[EFFECT_SIZE, EFFECT_SPEED];
const ONCE_KNOBS: &[ParamSpec] = &[EFFECT_SIZE, EFFECT_STRENGTH];

/// Whether two names are the same (in a constant).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The parameter named `name` among `params`, if there.
const fn knob(params: &[ParamSpec], name: &'static str) -> Option<&'static str> {
    let mut i = 0;
    while i < params.len() {
        if same(params[i].name, name) {
            return Some(name);
        }
        i += 1;
    }
    None
}

/// The one effect layer of an effect template, reading the knobs among
/// `params`.
const fn effect(warp: Warp, tone: Tone, params: &[ParamSpec], period: u32) -> EffectSlot {
    EffectSlot {
        warp,
        tone,
        strength: knob(params, "strength"),
        speed: knob(params, "speed"),
        side: knob(params, "size"),
        period,
    }
}

macro_rules! effect_template {
    ($name:ident, $warp:expr, $tone:expr, $knobs:expr) => {
        effect_template!($name, $warp, $tone, $knobs, EFFECT_FRAMES, 60);
    };
    ($name:ident, $warp:expr, $tone:expr, $knobs:expr, $frames:expr, $delay:expr) => {
        pub(super) static $name: Template = Template {
            size: (MAX_EFFECT_SIDE, MAX_EFFECT_SIDE),
            camera: None,
            timeline: Timeline {
                frames: $frames,
                delay_ms: $delay,
                delay_param: None,
            },
            layers: &[Layer::Effect(effect($warp, $tone, $knobs, $frames))],
            params: $knobs,
        };
    };
}

effect_template!(SPIN, Warp::Spin, Tone::None, TURN_KNOBS);
effect_template!(SHAKE, Warp::Shake, Tone::None, ALL_KNOBS, EFFECT_FRAMES, 40);
effect_template!(ZOOM, Warp::Zoom, Tone::None, ALL_KNOBS);
effect_template!(RAINBOW, Warp::None, Tone::HueCycle, ALL_KNOBS);
effect_template!(WAVE, Warp::Wave, Tone::None, ALL_KNOBS);
effect_template!(RIPPLE, Warp::Ripple, Tone::None, ALL_KNOBS);
effect_template!(WIGGLE, Warp::Wiggle, Tone::None, ALL_KNOBS);
effect_template!(SWIRL, Warp::Swirl, Tone::None, ALL_KNOBS);
effect_template!(MELT, Warp::Melt, Tone::None, ONCE_KNOBS, EFFECT_FRAMES, 80);
effect_template!(BOUNCE, Warp::Bounce, Tone::None, ALL_KNOBS);
effect_template!(SHEAR, Warp::Shear, Tone::None, ALL_KNOBS);
effect_template!(ROLL, Warp::Roll, Tone::None, TURN_KNOBS);
effect_template!(BOIL, Warp::Boil, Tone::None, ALL_KNOBS, EFFECT_FRAMES, 80);
effect_template!(
    GLITCH,
    Warp::Glitch,
    Tone::None,
    ONCE_KNOBS,
    EFFECT_FRAMES,
    80
);
effect_template!(
    GLOBE,
    Warp::Globe,
    Tone::None,
    TURN_KNOBS,
    EFFECT_FRAMES,
    80
);
effect_template!(
    MAGIK,
    Warp::Magik,
    Tone::None,
    ONCE_KNOBS,
    EFFECT_FRAMES,
    80
);
effect_template!(DEEPFRY, Warp::Blocks, Tone::Deepfry, ONCE_KNOBS, 1, 0);
