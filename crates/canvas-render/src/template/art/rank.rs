//! The rank cards' decoration: translucent light and shade that sits over
//! the card's own background colour (`cbg`), so that it suits any colour a
//! caller picks. Each piece stays inside its card's outline.

use tiny_skia::{FillRule, Mask, PathBuilder, Transform};

use crate::paint::{Canvas, circle_path, linear, poly, radial, rect_path, rgba, rrect_path};
use crate::template::rng::Lcg;

/// Natural size of every rank card piece.
pub(super) const SIZE: (u32, u32) = (900, 300);
const W: f32 = 900.0;
const H: f32 = 300.0;

/// Keeps only what lies inside the card's rounded outline (radius `r`).
fn clip_to_card(c: &mut Canvas, r: f32) {
    let Some(mut mask) = Mask::new(SIZE.0, SIZE.1) else {
        return;
    };
    mask.fill_path(
        &rrect_path(0.0, 0.0, W, H, r),
        FillRule::Winding,
        true,
        Transform::identity(),
    );
    c.pixmap.apply_mask(&mask);
}

fn line(c: &mut Canvas, a: (f32, f32), b: (f32, f32), hex: u32, alpha: u8, width: f32) {
    let mut pb = PathBuilder::new();
    pb.move_to(a.0, a.1);
    pb.line_to(b.0, b.1);
    if let Some(p) = pb.finish() {
        c.stroke(&p, rgba(hex, alpha), width);
    }
}

/// Card 1: light from the top left, shade to the bottom right, a fan of
/// hairlines behind the text.
pub(super) fn sheen(c: &mut Canvas) {
    c.fill_all(radial(
        120.0,
        40.0,
        520.0,
        &[(0.0, rgba(0xffffff, 30)), (1.0, rgba(0xffffff, 0))],
    ));
    c.fill_all(linear(
        0.0,
        0.0,
        0.0,
        H,
        &[(0.5, rgba(0x000000, 0)), (1.0, rgba(0x000000, 60))],
    ));
    for i in 0..14 {
        let x = 520.0 + i as f32 * 34.0;
        line(c, (x, H + 10.0), (x + 260.0, -10.0), 0xffffff, 9, 2.0);
    }
    // A hairline just inside the edge.
    c.stroke(
        &rrect_path(1.5, 1.5, W - 3.0, H - 3.0, 28.5),
        rgba(0xffffff, 26),
        1.5,
    );
    clip_to_card(c, 30.0);
}

/// Card 2: stripes over the left panel (0–300), the panel's shadow on the
/// right part, and a shade at the bottom.
pub(super) fn stripes(c: &mut Canvas) {
    for i in -12..12 {
        let x = i as f32 * 36.0;
        let band = poly(&[(x, H), (x + 16.0, H), (x + 16.0 + H, 0.0), (x + H, 0.0)]);
        c.color(&band, rgba(0xffffff, 16));
    }
    // Only the panel keeps its stripes.
    let Some(mut mask) = Mask::new(SIZE.0, SIZE.1) else {
        return;
    };
    mask.fill_path(
        &rect_path(0.0, 0.0, 300.0, H),
        FillRule::Winding,
        true,
        Transform::identity(),
    );
    c.pixmap.apply_mask(&mask);
    c.fill_all(linear(
        0.0,
        0.0,
        0.0,
        H,
        &[(0.0, rgba(0x000000, 0)), (1.0, rgba(0x000000, 70))],
    ));
    c.fill_all(linear(
        300.0,
        0.0,
        340.0,
        0.0,
        &[(0.0, rgba(0x000000, 90)), (1.0, rgba(0x000000, 0))],
    ));
    c.fill_all(radial(
        900.0,
        0.0,
        420.0,
        &[(0.0, rgba(0xffffff, 22)), (1.0, rgba(0xffffff, 0))],
    ));
}

/// Card 3: a horizon glow and a grid running to it.
pub(super) fn neon_grid(c: &mut Canvas) {
    let horizon = 190.0;
    c.fill_all(linear(
        0.0,
        horizon - 80.0,
        0.0,
        horizon + 4.0,
        &[(0.0, rgba(0xff2bd6, 0)), (1.0, rgba(0xff2bd6, 60))],
    ));
    c.fill_all(linear(
        0.0,
        horizon,
        0.0,
        H,
        &[(0.0, rgba(0x12002a, 120)), (1.0, rgba(0x000000, 40))],
    ));
    line(c, (0.0, horizon), (W, horizon), 0xff4fe0, 160, 2.0);
    // Lines running to a vanishing point in the middle of the horizon.
    for i in -16..=16 {
        let x = W / 2.0 + i as f32 * 70.0;
        line(
            c,
            (W / 2.0 + i as f32 * 8.0, horizon),
            (x * 1.0 + i as f32 * 40.0, H),
            0x27e8ff,
            70,
            1.5,
        );
    }
    // Horizontal lines closer together towards the horizon.
    let mut y = horizon;
    let mut step = 5.0;
    while y < H {
        y += step;
        step *= 1.35;
        line(c, (0.0, y), (W, y), 0x27e8ff, 60, 1.5);
    }
    // Stars above.
    let mut rng = Lcg(303);
    for _ in 0..70 {
        let (x, yy, r) = (
            rng.next() * W,
            rng.next() * (horizon - 20.0),
            0.6 + rng.next() * 1.4,
        );
        c.color(
            &circle_path(x, yy, r),
            rgba(0xffffff, 60 + (rng.next() * 120.0) as u8),
        );
    }
    c.stroke(
        &rrect_path(2.0, 2.0, W - 4.0, H - 4.0, 18.0),
        rgba(0xff4fe0, 120),
        3.0,
    );
    clip_to_card(c, 20.0);
}

/// Card 4: a dot grid fading from the top right, a hairline frame.
pub(super) fn dots(c: &mut Canvas) {
    for row in 0..14 {
        for col in 0..30 {
            let (x, y) = (500.0 + col as f32 * 14.0, 18.0 + row as f32 * 14.0);
            let d = ((W - x).powi(2) + y.powi(2)).sqrt();
            let a = (70.0 * (1.0 - d / 420.0)).max(0.0) as u8;
            if a > 2 {
                c.color(&circle_path(x, y, 1.8), rgba(0x000000, a));
            }
        }
    }
    c.stroke(
        &rrect_path(12.0, 12.0, W - 24.0, H - 24.0, 14.0),
        rgba(0x000000, 22),
        1.5,
    );
    c.color(&rect_path(0.0, H - 8.0, W, 8.0), rgba(0x000000, 10));
    clip_to_card(c, 24.0);
}

fn hexagon(cx: f32, cy: f32, r: f32) -> tiny_skia::Path {
    let pts: Vec<(f32, f32)> = (0..6)
        .map(|i| {
            let a = std::f32::consts::FRAC_PI_3 * i as f32 - std::f32::consts::FRAC_PI_2;
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect();
    poly(&pts)
}

/// Card 5: a honeycomb, strongest on the left, and a diagonal shade.
pub(super) fn hexes(c: &mut Canvas) {
    let r = 26.0f32;
    let (dx, dy) = (r * 3f32.sqrt(), r * 1.5);
    for row in -1..9 {
        for col in -1..22 {
            let cx = col as f32 * dx + if row % 2 == 0 { 0.0 } else { dx / 2.0 };
            let cy = row as f32 * dy;
            let a = (34.0 * (1.0 - cx / W).max(0.0)) as u8 + 6;
            c.stroke(&hexagon(cx, cy, r - 3.0), rgba(0xffffff, a), 1.5);
        }
    }
    c.fill_all(linear(
        0.0,
        0.0,
        W,
        H,
        &[(0.0, rgba(0x000000, 0)), (1.0, rgba(0x000000, 90))],
    ));
    c.color(&rect_path(0.0, 0.0, 8.0, H), rgba(0xffffff, 40));
}

/// Card 6: arcs from the right edge and a glow behind the avatar.
pub(super) fn arcs(c: &mut Canvas) {
    c.fill_all(radial(
        170.0,
        150.0,
        260.0,
        &[(0.0, rgba(0xffffff, 30)), (1.0, rgba(0xffffff, 0))],
    ));
    for i in 0..9 {
        let r = 120.0 + i as f32 * 46.0;
        c.stroke(
            &circle_path(W + 40.0, H + 30.0, r),
            rgba(0xffffff, 12 + i as u8),
            2.0,
        );
    }
    c.fill_all(linear(
        0.0,
        0.0,
        0.0,
        H,
        &[(0.0, rgba(0xffffff, 10)), (1.0, rgba(0x000000, 50))],
    ));
}

/// Card 7: flowing lines over the top band (0–110), its lower edge shaded.
pub(super) fn waves(c: &mut Canvas) {
    for k in 0..7 {
        let mut pb = PathBuilder::new();
        let base = 20.0 + k as f32 * 14.0;
        pb.move_to(0.0, base);
        let mut x = 0.0;
        while x <= W {
            x += 10.0;
            let y = base + (x / 140.0 + k as f32 * 0.7).sin() * 12.0;
            pb.line_to(x, y);
        }
        if let Some(p) = pb.finish() {
            c.stroke(&p, rgba(0xffffff, 70 - k as u8 * 7), 2.5);
        }
    }
    let Some(mut mask) = Mask::new(SIZE.0, SIZE.1) else {
        return;
    };
    mask.fill_path(
        &rect_path(0.0, 0.0, W, 110.0),
        FillRule::Winding,
        true,
        Transform::identity(),
    );
    c.pixmap.apply_mask(&mask);
    c.fill_all(linear(
        0.0,
        0.0,
        0.0,
        110.0,
        &[(0.0, rgba(0xffffff, 26)), (1.0, rgba(0xffffff, 0))],
    ));
    c.color(&rect_path(0.0, 110.0, W, 6.0), rgba(0x000000, 40));
    c.color(&rect_path(0.0, 116.0, W, 4.0), rgba(0x000000, 16));
    clip_to_card(c, 26.0);
}

/// Card 8: a striped sun setting on the horizon at the foot of the right
/// half (below the block bar and its label, so nothing is drawn over it),
/// scan lines and pixel corners.
pub(super) fn retro(c: &mut Canvas) {
    let (cx, cy, r) = (772.0, 372.0, 118.0);
    c.glow(cx, cy - r * 0.45, r * 1.15, 0xff3d7f, 40);
    let sun = circle_path(cx, cy, r);
    c.fill(
        &sun,
        &crate::paint::shader_paint(linear(
            0.0,
            cy - r,
            0.0,
            cy - r * 0.35,
            &[(0.0, rgba(0xffd35c, 190)), (1.0, rgba(0xff3d7f, 190))],
        )),
    );
    // Bands cut out of the sun, each within its disc, wider further down.
    for i in 0..4 {
        let y = cy - r + 12.0 + i as f32 * 11.0;
        let band = sun_band(cx, cy, r, y, 2.5 + i as f32 * 1.5);
        c.color(&band, rgba(0x1c0f3a, 220));
    }
    c.fill_all(linear(
        0.0,
        0.0,
        0.0,
        H,
        &[(0.0, rgba(0x000000, 0)), (1.0, rgba(0x000000, 40))],
    ));
    let mut y = 0.0;
    while y < H {
        c.color(&rect_path(0.0, y, W, 1.0), rgba(0x000000, 36));
        y += 4.0;
    }
    // Stepped pixel corners and a frame.
    for (x, y, sx, sy) in [
        (0.0, 0.0, 1.0, 1.0),
        (W, 0.0, -1.0, 1.0),
        (0.0, H, 1.0, -1.0),
        (W, H, -1.0, -1.0),
    ] {
        for (i, len) in [(0.0, 3.0), (1.0, 2.0), (2.0, 1.0)] {
            let px = 8.0;
            let (rx, ry) = (x + sx * 0.0, y + sy * i * px);
            let (w, h) = (len * px, px);
            let (left, top) = (
                if sx > 0.0 { rx } else { rx - w },
                if sy > 0.0 { ry } else { ry - h },
            );
            c.color(&rect_path(left, top, w, h), rgba(0x000000, 255));
        }
    }
    c.stroke(
        &rect_path(12.0, 12.0, W - 24.0, H - 24.0),
        rgba(0xffffff, 40),
        2.0,
    );
}

/// Card 9: two soft lights and a shade, and the frosted panel over them.
pub(super) fn glass(c: &mut Canvas) {
    c.fill_all(radial(
        140.0,
        30.0,
        360.0,
        &[(0.0, rgba(0xffffff, 70)), (1.0, rgba(0xffffff, 0))],
    ));
    c.fill_all(radial(
        780.0,
        290.0,
        380.0,
        &[(0.0, rgba(0xffffff, 46)), (1.0, rgba(0xffffff, 0))],
    ));
    c.fill_all(radial(
        560.0,
        -40.0,
        300.0,
        &[(0.0, rgba(0x000000, 60)), (1.0, rgba(0x000000, 0))],
    ));
    // The frosted panel and its bright rim.
    let panel = rrect_path(24.0, 24.0, 852.0, 252.0, 24.0);
    c.color(&panel, rgba(0xffffff, 36));
    c.stroke(
        &rrect_path(24.5, 24.5, 851.0, 251.0, 24.0),
        rgba(0xffffff, 80),
        1.5,
    );
    clip_to_card(c, 32.0);
}

/// The part of the disc at (`cx`, `cy`) of radius `r` between `y` and
/// `y + h`: a band that follows the disc's edge.
fn sun_band(cx: f32, cy: f32, r: f32, y: f32, h: f32) -> tiny_skia::Path {
    const STEPS: usize = 6;
    let half = |y: f32| (r * r - (y - cy) * (y - cy)).max(0.0).sqrt();
    let ys: Vec<f32> = (0..=STEPS)
        .map(|k| y + h * k as f32 / STEPS as f32)
        .collect();
    let mut points: Vec<(f32, f32)> = ys.iter().map(|&y| (cx - half(y), y)).collect();
    points.extend(ys.iter().rev().map(|&y| (cx + half(y), y)));
    poly(&points)
}
