//! The welcome cards' 13 backgrounds, 1200×600, our own art drawn in code
//! with tiny-skia: each drawn once per process (through [`super::art`]'s
//! cache) and shared by every welcome template.

use tiny_skia::{Color, Path, PathBuilder, Transform};

use super::rng::Lcg;
use crate::paint::{Canvas, circle_path, linear, poly, radial, rect_path, rgba, shader_paint};

/// Background width.
pub(super) const W: f32 = 1200.0;
/// Background height.
pub(super) const H: f32 = 600.0;

/// A vertical gradient over the whole canvas.
fn sky(c: &mut Canvas, stops: &[(f32, Color)]) {
    c.fill_all(linear(0.0, 0.0, 0.0, H, stops));
}

/// `n` stars: dots of radius `r_min..r_max` scattered over `(x, y, w, h)`,
/// brighter ones with a soft halo.
fn stars(c: &mut Canvas, seed: u64, n: usize, area: (f32, f32, f32, f32), r: (f32, f32)) {
    let mut rng = Lcg(seed);
    let (x0, y0, w, h) = area;
    for _ in 0..n {
        let (x, y) = (x0 + rng.next() * w, y0 + rng.next() * h);
        let size = r.0 + rng.next().powi(3) * (r.1 - r.0);
        let alpha = (110.0 + rng.next() * 145.0) as u8;
        if size > r.0 + (r.1 - r.0) * 0.55 {
            c.glow(x, y, size * 5.0, 0xcfe0ff, 60);
        }
        c.color(&circle_path(x, y, size), rgba(0xffffff, alpha));
    }
}

/// A four-pointed sparkle centred on `(x, y)`.
fn sparkle(c: &mut Canvas, x: f32, y: f32, r: f32, hex: u32) {
    c.glow(x, y, r * 1.6, hex, 90);
    let k = r * 0.16;
    let pts = [
        (x, y - r),
        (x + k, y - k),
        (x + r, y),
        (x + k, y + k),
        (x, y + r),
        (x - k, y + k),
        (x - r, y),
        (x - k, y - k),
    ];
    c.color(&poly(&pts), rgba(0xffffff, 235));
}

/// A smooth organic blob around `(cx, cy)`: a closed curve through `n`
/// points whose radius wobbles by `wobble` (0–1) with the seed.
fn blob_path(cx: f32, cy: f32, r: f32, wobble: f32, seed: u64) -> Path {
    let mut rng = Lcg(seed);
    let n = 7;
    let pts: Vec<(f32, f32)> = (0..n)
        .map(|i| {
            let a = std::f32::consts::TAU * i as f32 / n as f32;
            let rr = r * (1.0 - wobble / 2.0 + rng.next() * wobble);
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    // Catmull-Rom through the points, as cubic Béziers.
    let mut pb = PathBuilder::new();
    pb.move_to(pts[0].0, pts[0].1);
    for i in 0..n {
        let p0 = pts[(i + n - 1) % n];
        let p1 = pts[i];
        let p2 = pts[(i + 1) % n];
        let p3 = pts[(i + 2) % n];
        pb.cubic_to(
            p1.0 + (p2.0 - p0.0) / 6.0,
            p1.1 + (p2.1 - p0.1) / 6.0,
            p2.0 - (p3.0 - p1.0) / 6.0,
            p2.1 - (p3.1 - p1.1) / 6.0,
            p2.0,
            p2.1,
        );
    }
    pb.close();
    pb.finish().expect("closed blob")
}

/// A blob filled with a gradient from `light` (top left) to `dark`, over a
/// soft shadow.
fn blob(c: &mut Canvas, (cx, cy, r): (f32, f32, f32), seed: u64, light: u32, dark: u32, alpha: u8) {
    let path = blob_path(cx, cy, r, 0.35, seed);
    c.shadow(&path, r * 0.04, r * 0.06, 28);
    c.fill(
        &path,
        &shader_paint(linear(
            cx - r,
            cy - r,
            cx + r,
            cy + r,
            &[(0.0, rgba(light, alpha)), (1.0, rgba(dark, alpha))],
        )),
    );
}

fn stroke_line(c: &mut Canvas, pts: &[(f32, f32)], color: Color, width: f32) {
    let mut pb = PathBuilder::new();
    pb.move_to(pts[0].0, pts[0].1);
    for p in &pts[1..] {
        pb.line_to(p.0, p.1);
    }
    if let Some(path) = pb.finish() {
        c.stroke(&path, color, width);
    }
}

/// `blobday`: a pale morning sky, a soft sun, and pastel blobs.
pub(super) fn blobday(c: &mut Canvas) {
    sky(
        c,
        &[
            (0.0, rgba(0xaee0ff, 255)),
            (0.65, rgba(0xdcefff, 255)),
            (1.0, rgba(0xffe6cf, 255)),
        ],
    );
    c.glow(960.0, 120.0, 340.0, 0xfff4b8, 200);
    c.color(&circle_path(960.0, 120.0, 62.0), rgba(0xfff6c9, 255));
    for (i, (pos, light, dark)) in [
        ((110.0, 560.0, 250.0), 0xffb3d6, 0xff7fb6),
        ((1100.0, 520.0, 230.0), 0x9ff0d4, 0x4fcfa6),
        ((140.0, 40.0, 150.0), 0xffe39a, 0xffc95c),
        ((690.0, 650.0, 200.0), 0xb9c6ff, 0x8c9cff),
        ((1180.0, 40.0, 120.0), 0xffc2a8, 0xff9c7a),
        ((420.0, 120.0, 60.0), 0xc6f1ff, 0x8fd8f5),
    ]
    .into_iter()
    .enumerate()
    {
        blob(c, pos, 11 + i as u64, light, dark, 235);
    }
    let mut rng = Lcg(7);
    for _ in 0..22 {
        let (x, y, r) = (rng.next() * W, rng.next() * H, 4.0 + rng.next() * 14.0);
        c.color(&circle_path(x, y, r), rgba(0xffffff, 110));
    }
}

/// `blobnight`: a deep violet night, glowing blobs, a moon and stars.
pub(super) fn blobnight(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        W,
        H,
        &[(0.0, rgba(0x0b1033, 255)), (1.0, rgba(0x2a0f4f, 255))],
    ));
    stars(c, 3, 140, (0.0, 0.0, W, H), (0.6, 2.0));
    c.glow(1010.0, 110.0, 200.0, 0xfff1c1, 70);
    c.color(&circle_path(1010.0, 110.0, 48.0), rgba(0xfdf3d2, 255));
    for (x, y, r) in [
        (995.0, 98.0, 9.0),
        (1026.0, 124.0, 6.0),
        (1018.0, 92.0, 4.0),
    ] {
        c.color(&circle_path(x, y, r), rgba(0xe8dcb5, 255));
    }
    for (i, (pos, light, dark, glow)) in [
        ((120.0, 560.0, 250.0), 0x5b4bff, 0x2b1d9e, 0x6a5cff),
        ((1090.0, 560.0, 220.0), 0x20d6e0, 0x0b7f9e, 0x22e0ff),
        ((160.0, 50.0, 140.0), 0xe2409f, 0x8e1d6b, 0xff4fb0),
        ((700.0, 660.0, 190.0), 0x8a4dff, 0x4b1f9e, 0x9a60ff),
        ((1190.0, 330.0, 90.0), 0xff6fb5, 0xa3206a, 0xff6fb5),
    ]
    .into_iter()
    .enumerate()
    {
        c.glow(pos.0, pos.1, pos.2 * 1.5, glow, 70);
        blob(c, pos, 11 + i as u64, light, dark, 230);
    }
}

/// `gaming1`: a neon synthwave horizon: striped sun, mountains and a
/// glowing perspective grid.
pub(super) fn gaming1(c: &mut Canvas) {
    let horizon = 390.0;
    sky(
        c,
        &[
            (0.0, rgba(0x0d0221, 255)),
            (0.45, rgba(0x2b0b4a, 255)),
            (0.65, rgba(0x7a1e6c, 255)),
            (0.651, rgba(0x120428, 255)),
            (1.0, rgba(0x07010f, 255)),
        ],
    );
    stars(c, 5, 90, (0.0, 0.0, W, horizon - 120.0), (0.5, 1.8));
    // The sun, cut by widening bands towards the horizon.
    c.glow(600.0, 300.0, 330.0, 0xff2975, 110);
    let sun = circle_path(600.0, 290.0, 170.0);
    c.fill(
        &sun,
        &shader_paint(linear(
            0.0,
            120.0,
            0.0,
            horizon,
            &[
                (0.0, rgba(0xffe66d, 255)),
                (0.55, rgba(0xff8a3d, 255)),
                (1.0, rgba(0xff2975, 255)),
            ],
        )),
    );
    let mut y = 285.0;
    let mut gap = 3.0;
    while y < horizon {
        c.fill(
            &rect_path(400.0, y, 400.0, gap),
            &shader_paint(linear(
                0.0,
                0.0,
                0.0,
                H,
                &[(0.45, rgba(0x2b0b4a, 255)), (0.65, rgba(0x7a1e6c, 255))],
            )),
        );
        y += 14.0 + gap;
        gap += 2.2;
    }
    // Mountains on the horizon.
    let ridge = |pts: &[(f32, f32)]| {
        let mut all = vec![(pts[0].0, horizon)];
        all.extend_from_slice(pts);
        all.push((pts[pts.len() - 1].0, horizon));
        poly(&all)
    };
    for (pts, fill) in [
        (
            vec![
                (0.0, 300.0),
                (90.0, 250.0),
                (170.0, 320.0),
                (260.0, 270.0),
                (380.0, 360.0),
                (440.0, 390.0),
            ],
            0x1a0633,
        ),
        (
            vec![
                (760.0, 390.0),
                (850.0, 330.0),
                (930.0, 280.0),
                (1020.0, 330.0),
                (1110.0, 260.0),
                (1200.0, 300.0),
            ],
            0x1a0633,
        ),
    ] {
        let path = ridge(&pts);
        c.color(&path, rgba(fill, 255));
        stroke_line(c, &pts, rgba(0xff4fd8, 200), 2.0);
    }
    // The grid: rows closer together towards the horizon, columns from
    // the vanishing point.
    let line = rgba(0xff3df2, 210);
    let glow = rgba(0xff3df2, 50);
    for k in 1..14 {
        let t = (k as f32 / 13.0).powf(2.2);
        let y = horizon + t * (H - horizon) + 0.5;
        stroke_line(c, &[(0.0, y), (W, y)], glow, 7.0);
        stroke_line(c, &[(0.0, y), (W, y)], line, 1.6);
    }
    for k in -12..=12 {
        let x_bottom = 600.0 + k as f32 * 120.0;
        stroke_line(
            c,
            &[(600.0 + k as f32 * 12.0, horizon), (x_bottom, H)],
            glow,
            7.0,
        );
        stroke_line(
            c,
            &[(600.0 + k as f32 * 12.0, horizon), (x_bottom, H)],
            line,
            1.6,
        );
    }
    stroke_line(c, &[(0.0, horizon), (W, horizon)], rgba(0xffb3f5, 255), 2.5);
    c.fill(
        &rect_path(0.0, horizon, W, 60.0),
        &shader_paint(linear(
            0.0,
            horizon,
            0.0,
            horizon + 60.0,
            &[(0.0, rgba(0xff2975, 90)), (1.0, rgba(0xff2975, 0))],
        )),
    );
}

/// `gaming2`: a dark circuit board: hexagon mesh, glowing traces and
/// nodes in cyan and green, magenta corner light.
pub(super) fn gaming2(c: &mut Canvas) {
    c.fill_all(radial(
        600.0,
        300.0,
        760.0,
        &[(0.0, rgba(0x0c2030, 255)), (1.0, rgba(0x03080f, 255))],
    ));
    c.glow(0.0, 600.0, 520.0, 0xff2bd6, 70);
    c.glow(1200.0, 0.0, 520.0, 0x00e5ff, 70);
    // Hexagon mesh.
    let r = 34.0f32;
    let (dx, dy) = (r * 3.0f32.sqrt(), r * 1.5);
    let mut row = 0;
    let mut y = 0.0;
    while y < H + r {
        let off = if row % 2 == 0 { 0.0 } else { dx / 2.0 };
        let mut x = off;
        while x < W + r {
            let pts: Vec<(f32, f32)> = (0..6)
                .map(|i| {
                    let a = std::f32::consts::FRAC_PI_3 * i as f32 + std::f32::consts::FRAC_PI_6;
                    (x + r * a.cos(), y + r * a.sin())
                })
                .collect();
            c.stroke(&poly(&pts), rgba(0x00e5ff, 26), 1.2);
            x += dx;
        }
        y += dy;
        row += 1;
    }
    // Circuit traces: right-angled runs with a node at each end.
    let mut rng = Lcg(42);
    for i in 0..26 {
        let hex = if i % 3 == 0 { 0x00ffa3 } else { 0x00e5ff };
        let mut x = (rng.next() * 30.0).floor() * 40.0;
        let mut y = (rng.next() * 15.0).floor() * 40.0 + 20.0;
        let mut pts = vec![(x, y)];
        for s in 0..3 {
            let len = 40.0 + (rng.next() * 5.0).floor() * 40.0;
            if s % 2 == 0 {
                x += if rng.next() < 0.5 { len } else { -len };
            } else {
                x += if rng.next() < 0.5 { 30.0 } else { -30.0 };
                y += if rng.next() < 0.5 { 30.0 } else { -30.0 };
            }
            pts.push((x, y));
        }
        stroke_line(c, &pts, rgba(hex, 40), 8.0);
        stroke_line(c, &pts, rgba(hex, 190), 2.0);
        for &(px, py) in [pts[0], pts[pts.len() - 1]].iter() {
            c.glow(px, py, 22.0, hex, 120);
            c.stroke(&circle_path(px, py, 6.0), rgba(hex, 230), 2.0);
            c.color(&circle_path(px, py, 2.5), rgba(0xffffff, 230));
        }
    }
}

/// `gaming3`: a pixel-art arcade landscape: stepped hills, blocky clouds,
/// coins and pixel stars on a dusk sky, all on a 20 px grid.
pub(super) fn gaming3(c: &mut Canvas) {
    let p = 20.0;
    // A banded (dithered-looking) sky.
    let bands = [0x1b1040, 0x23134f, 0x2c1860, 0x3a1f70, 0x4d2a7e, 0x65348a];
    for (i, hex) in bands.iter().enumerate() {
        c.color(&rect_path(0.0, i as f32 * 60.0, W, 60.0), rgba(*hex, 255));
    }
    let mut rng = Lcg(9);
    for _ in 0..60 {
        let x = (rng.next() * 60.0).floor() * p;
        let y = (rng.next() * 14.0).floor() * p;
        let s = if rng.next() < 0.2 { p / 2.0 } else { p / 4.0 };
        c.color(&rect_path(x, y, s, s), rgba(0xfff4c2, 220));
    }
    // Blocky clouds.
    for (cx, cy) in [(180.0, 100.0), (760.0, 60.0), (1020.0, 160.0)] {
        for (dx, dy, w, h) in [
            (0.0, 20.0, 140.0, 40.0),
            (20.0, 0.0, 80.0, 20.0),
            (-20.0, 40.0, 180.0, 20.0),
        ] {
            c.color(&rect_path(cx + dx, cy + dy, w, h), rgba(0xe8e2ff, 230));
        }
        c.color(
            &rect_path(cx - 20.0, cy + 60.0, 180.0, 10.0),
            rgba(0xb7a8f0, 230),
        );
    }
    // Stepped hills, back to front.
    let hills: [(&[f32], u32, u32); 3] = [
        (
            &[
                14.0, 15.0, 16.0, 15.0, 13.0, 12.0, 13.0, 14.0, 16.0, 17.0, 16.0, 14.0,
            ],
            0x2e8b57,
            0x3fae6a,
        ),
        (
            &[
                20.0, 19.0, 18.0, 19.0, 21.0, 22.0, 21.0, 19.0, 18.0, 17.0, 18.0, 20.0,
            ],
            0x1f6f44,
            0x2f9457,
        ),
        (
            &[
                26.0, 25.0, 25.0, 26.0, 27.0, 27.0, 26.0, 25.0, 24.0, 24.0, 25.0, 26.0,
            ],
            0x6b3e1f,
            0x8a5430,
        ),
    ];
    for (tops, fill, edge) in hills {
        let step = W / tops.len() as f32;
        for (i, top) in tops.iter().enumerate() {
            let y = top * p;
            c.color(&rect_path(i as f32 * step, y, step, H - y), rgba(fill, 255));
            c.color(
                &rect_path(i as f32 * step, y, step, p / 2.0),
                rgba(edge, 255),
            );
        }
    }
    // Ground bricks.
    for i in 0..(W / 40.0) as usize {
        c.stroke(
            &rect_path(i as f32 * 40.0, 540.0, 40.0, 20.0),
            rgba(0x4a2a14, 200),
            2.0,
        );
        c.stroke(
            &rect_path(i as f32 * 40.0 + 20.0, 560.0, 40.0, 20.0),
            rgba(0x4a2a14, 200),
            2.0,
        );
        c.stroke(
            &rect_path(i as f32 * 40.0, 580.0, 40.0, 20.0),
            rgba(0x4a2a14, 200),
            2.0,
        );
    }
    // Floating coins: a pixel ring with a shine.
    for (x, y) in [
        (300.0, 220.0),
        (360.0, 200.0),
        (420.0, 220.0),
        (880.0, 260.0),
        (940.0, 240.0),
    ] {
        c.color(&rect_path(x + 5.0, y, 10.0, 30.0), rgba(0xffcc33, 255));
        c.color(&rect_path(x, y + 5.0, 20.0, 20.0), rgba(0xffcc33, 255));
        c.color(&rect_path(x + 5.0, y + 5.0, 5.0, 15.0), rgba(0xfff2a8, 255));
        c.color(
            &rect_path(x + 10.0, y + 5.0, 5.0, 20.0),
            rgba(0xd99a1e, 255),
        );
    }
    // Scanlines.
    let mut y = 0.0;
    while y < H {
        c.color(&rect_path(0.0, y, W, 2.0), rgba(0x000000, 28));
        y += 4.0;
    }
}

/// `gaming4`: an esports look: hard red and orange slashes with speed
/// lines and shards on near black.
pub(super) fn gaming4(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        W,
        H,
        &[(0.0, rgba(0x121218, 255)), (1.0, rgba(0x07070b, 255))],
    ));
    c.glow(1000.0, 300.0, 600.0, 0xff2a3d, 60);
    let slash =
        |x: f32, w: f32| poly(&[(x, 0.0), (x + w, 0.0), (x + w - 340.0, H), (x - 340.0, H)]);
    for (x, w, a, b, alpha) in [
        (760.0, 70.0, 0xff2a3d, 0xff7a1a, 255),
        (860.0, 220.0, 0xff2a3d, 0xb3121f, 235),
        (1110.0, 40.0, 0xff7a1a, 0xffb21a, 255),
        (1180.0, 260.0, 0x2a0a10, 0x140508, 255),
        (300.0, 26.0, 0xff2a3d, 0xff7a1a, 120),
    ] {
        c.fill(
            &slash(x, w),
            &shader_paint(linear(
                x,
                0.0,
                x - 340.0,
                H,
                &[(0.0, rgba(a, alpha)), (1.0, rgba(b, alpha))],
            )),
        );
    }
    // Speed lines.
    let mut rng = Lcg(17);
    for _ in 0..46 {
        let y = rng.next() * H;
        let x = rng.next() * W;
        let len = 80.0 + rng.next() * 260.0;
        let hex = if rng.next() < 0.7 { 0xffffff } else { 0xff4050 };
        stroke_line(
            c,
            &[(x, y), (x + len, y - len * 0.05)],
            rgba(hex, (30.0 + rng.next() * 80.0) as u8),
            1.5,
        );
    }
    // Shards.
    for _ in 0..18 {
        let (x, y, s) = (rng.next() * W, rng.next() * H, 6.0 + rng.next() * 16.0);
        let hex = if rng.next() < 0.5 { 0xff2a3d } else { 0xff9a2a };
        c.color(
            &poly(&[
                (x, y - s),
                (x + s * 0.6, y + s * 0.5),
                (x - s * 0.7, y + s * 0.3),
            ]),
            rgba(hex, 200),
        );
    }
    // A dark vignette on the left, where text goes on most cards.
    c.fill_all(linear(
        0.0,
        0.0,
        W,
        0.0,
        &[(0.0, rgba(0x000000, 120)), (0.5, rgba(0x000000, 0))],
    ));
}

/// `night`: a city skyline with lit windows under a starry sky and a
/// full moon.
pub(super) fn night(c: &mut Canvas) {
    sky(
        c,
        &[
            (0.0, rgba(0x060c1f, 255)),
            (0.7, rgba(0x15306a, 255)),
            (1.0, rgba(0x284c8c, 255)),
        ],
    );
    stars(c, 21, 170, (0.0, 0.0, W, 380.0), (0.5, 1.9));
    c.glow(200.0, 120.0, 260.0, 0xcfe3ff, 80);
    c.color(&circle_path(200.0, 120.0, 56.0), rgba(0xf4f1e4, 255));
    for (x, y, r) in [
        (184.0, 104.0, 11.0),
        (220.0, 136.0, 8.0),
        (214.0, 100.0, 5.0),
        (186.0, 142.0, 6.0),
    ] {
        c.color(&circle_path(x, y, r), rgba(0xddd8c3, 255));
    }
    let mut rng = Lcg(33);
    for (base, fill, lit, count) in [(430.0, 0x142446, 120u8, 26), (500.0, 0x0a1228, 220u8, 20)] {
        let mut x = -20.0;
        for _ in 0..count {
            if x > W {
                break;
            }
            let w = 40.0 + rng.next() * 70.0;
            let h = 80.0 + rng.next() * 240.0;
            let top = base - h + 120.0;
            c.color(&rect_path(x, top, w, H - top), rgba(fill, 255));
            if rng.next() < 0.3 {
                c.color(
                    &rect_path(x + w / 2.0 - 1.5, top - 30.0, 3.0, 30.0),
                    rgba(fill, 255),
                );
                c.color(
                    &circle_path(x + w / 2.0, top - 31.0, 2.5),
                    rgba(0xff5a5a, 230),
                );
            }
            let mut wy = top + 12.0;
            while wy < H - 20.0 {
                let mut wx = x + 8.0;
                while wx < x + w - 12.0 {
                    if rng.next() < 0.32 {
                        c.color(&rect_path(wx, wy, 6.0, 9.0), rgba(0xffd77a, lit));
                    }
                    wx += 13.0;
                }
                wy += 18.0;
            }
            x += w + rng.next() * 10.0;
        }
    }
}

/// `rainbow`: a rainbow arching over a clear sky, clouds at its feet.
pub(super) fn rainbow(c: &mut Canvas) {
    sky(c, &[(0.0, rgba(0x7cc8ff, 255)), (1.0, rgba(0xe4f6ff, 255))]);
    let bands = [
        0xff4d4d, 0xff9f40, 0xffe14d, 0x5ad66f, 0x4da6ff, 0x5b5bd6, 0xa35bd6,
    ];
    let (cx, cy) = (600.0, 760.0);
    for (i, hex) in bands.iter().enumerate() {
        let r = 640.0 - i as f32 * 36.0;
        c.stroke(&circle_path(cx, cy, r), rgba(*hex, 225), 37.0);
    }
    let cloud = |c: &mut Canvas, x: f32, y: f32, s: f32| {
        for (dx, dy, r) in [
            (-70.0, 20.0, 50.0),
            (-20.0, -10.0, 66.0),
            (45.0, 5.0, 56.0),
            (95.0, 28.0, 40.0),
            (10.0, 35.0, 50.0),
        ] {
            c.color(
                &circle_path(x + dx * s, y + dy * s + 6.0, r * s),
                rgba(0xb8d4ea, 160),
            );
        }
        for (dx, dy, r) in [
            (-70.0, 20.0, 50.0),
            (-20.0, -10.0, 66.0),
            (45.0, 5.0, 56.0),
            (95.0, 28.0, 40.0),
            (10.0, 35.0, 50.0),
        ] {
            c.color(
                &circle_path(x + dx * s, y + dy * s, r * s),
                rgba(0xffffff, 255),
            );
        }
    };
    cloud(c, 60.0, 560.0, 1.5);
    cloud(c, 1130.0, 560.0, 1.5);
    cloud(c, 320.0, 90.0, 0.6);
    cloud(c, 900.0, 60.0, 0.5);
}

/// `rainbowgradient`: every hue in one smooth diagonal sweep, with soft
/// light.
pub(super) fn rainbowgradient(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        W,
        H,
        &[
            (0.0, rgba(0xff5f6d, 255)),
            (0.18, rgba(0xffa64d, 255)),
            (0.34, rgba(0xffe15e, 255)),
            (0.5, rgba(0x4fe39a, 255)),
            (0.66, rgba(0x3fb4f5, 255)),
            (0.82, rgba(0x7b6cff, 255)),
            (1.0, rgba(0xe45fd2, 255)),
        ],
    ));
    c.glow(300.0, 120.0, 500.0, 0xffffff, 70);
    c.glow(900.0, 520.0, 420.0, 0xffffff, 40);
    // Soft diagonal sheen bands.
    for (x, w, a) in [
        (180.0, 90.0, 26u8),
        (420.0, 40.0, 20),
        (820.0, 140.0, 18),
        (1080.0, 50.0, 24),
    ] {
        c.color(
            &poly(&[(x, 0.0), (x + w, 0.0), (x + w - 300.0, H), (x - 300.0, H)]),
            rgba(0xffffff, a),
        );
    }
}

/// `space`: nebula clouds, a ringed planet, a small moon and stars.
pub(super) fn space(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        W,
        H,
        &[(0.0, rgba(0x05030f, 255)), (1.0, rgba(0x020611, 255))],
    ));
    c.glow(320.0, 220.0, 460.0, 0x6b2fb3, 120);
    c.glow(520.0, 120.0, 300.0, 0xd04ba0, 70);
    c.glow(880.0, 460.0, 420.0, 0x1fa2a8, 90);
    c.glow(180.0, 480.0, 260.0, 0x3346c9, 80);
    stars(c, 77, 260, (0.0, 0.0, W, H), (0.5, 2.2));
    for (x, y) in [(140.0, 90.0), (760.0, 60.0), (520.0, 520.0)] {
        sparkle(c, x, y, 12.0, 0xbfd4ff);
    }
    // The planet, lit from the upper left, with a tilted ring.
    let (px, py, pr) = (1010.0, 430.0, 130.0);
    let ring = |c: &mut Canvas, front: bool| {
        let t = Transform::from_row(1.0, 0.0, 0.0, 0.28, 0.0, 0.0)
            .post_rotate(-14.0)
            .post_translate(px, py);
        let path = circle_path(0.0, 0.0, pr * 1.75);
        let color = if front {
            rgba(0xf3d9a8, 200)
        } else {
            rgba(0xb89a78, 120)
        };
        c.stroke_t(&path, color, 9.0, t);
    };
    ring(c, false);
    c.glow(px, py, pr * 1.5, 0xf0a35e, 60);
    c.fill(
        &circle_path(px, py, pr),
        &shader_paint(radial(
            px - pr * 0.4,
            py - pr * 0.45,
            pr * 1.6,
            &[
                (0.0, rgba(0xffc98b, 255)),
                (0.55, rgba(0xd0645e, 255)),
                (1.0, rgba(0x3b1a4f, 255)),
            ],
        )),
    );
    // Bands that curve with the sphere (arcs of wide circles), and the
    // night side's shadow, both kept inside the planet.
    let mut clip = tiny_skia::Mask::new(1200, 600).expect("canvas-sized mask");
    clip.fill_path(
        &circle_path(px, py, pr),
        tiny_skia::FillRule::Winding,
        true,
        Transform::identity(),
    );
    for (dy, w, a) in [
        (-45.0, 9.0, 46u8),
        (-5.0, 15.0, 40),
        (32.0, 7.0, 46),
        (68.0, 11.0, 36),
    ] {
        let big = pr * 3.2;
        let stroke = tiny_skia::Stroke {
            width: w,
            ..tiny_skia::Stroke::default()
        };
        c.pixmap.stroke_path(
            &circle_path(px + 20.0, py + dy - big, big),
            &crate::paint::paint(rgba(0x2a0f36, a)),
            &stroke,
            Transform::identity(),
            Some(&clip),
        );
    }
    c.pixmap.fill_path(
        &circle_path(px, py, pr),
        &shader_paint(radial(
            px - pr * 0.55,
            py - pr * 0.6,
            pr * 2.1,
            &[(0.55, rgba(0x0a0414, 0)), (1.0, rgba(0x0a0414, 150))],
        )),
        tiny_skia::FillRule::Winding,
        Transform::identity(),
        Some(&clip),
    );
    // The ring's front half, over the planet.
    let mut front = tiny_skia::Mask::new(1200, 600).expect("canvas-sized mask");
    front.fill_path(
        &rect_path(0.0, py - 4.0, W, H),
        tiny_skia::FillRule::Winding,
        true,
        Transform::identity(),
    );
    let t = Transform::from_row(1.0, 0.0, 0.0, 0.28, 0.0, 0.0)
        .post_rotate(-14.0)
        .post_translate(px, py);
    let stroke = tiny_skia::Stroke {
        width: 9.0,
        ..tiny_skia::Stroke::default()
    };
    c.pixmap.stroke_path(
        &circle_path(0.0, 0.0, pr * 1.75),
        &crate::paint::paint(rgba(0xf3d9a8, 220)),
        &stroke,
        t,
        Some(&front),
    );
    // A small moon.
    c.fill(
        &circle_path(760.0, 250.0, 26.0),
        &shader_paint(radial(
            750.0,
            240.0,
            40.0,
            &[(0.0, rgba(0xe9e6f5, 255)), (1.0, rgba(0x55527a, 255))],
        )),
    );
}

/// `stars`: a deep sky full of stars of every size, a few sparkling.
pub(super) fn stars_bg(c: &mut Canvas) {
    c.fill_all(radial(
        600.0,
        300.0,
        720.0,
        &[(0.0, rgba(0x121a3d, 255)), (1.0, rgba(0x03040b, 255))],
    ));
    c.glow(600.0, 300.0, 500.0, 0x2a3a8a, 60);
    stars(c, 101, 520, (0.0, 0.0, W, H), (0.4, 1.6));
    stars(c, 202, 40, (0.0, 0.0, W, H), (1.6, 3.2));
    let mut rng = Lcg(303);
    for _ in 0..9 {
        let (x, y) = (
            40.0 + rng.next() * (W - 80.0),
            30.0 + rng.next() * (H - 60.0),
        );
        sparkle(c, x, y, 10.0 + rng.next() * 12.0, 0xcfe0ff);
    }
}

/// `stars2`: a violet-to-blue sky with constellations and shooting stars.
pub(super) fn stars2(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        W,
        H,
        &[
            (0.0, rgba(0x2a1660, 255)),
            (0.5, rgba(0x3b1f6e, 255)),
            (1.0, rgba(0x0e2a5c, 255)),
        ],
    ));
    c.glow(900.0, 150.0, 420.0, 0xff7ad9, 50);
    stars(c, 404, 260, (0.0, 0.0, W, H), (0.5, 1.8));
    for pts in [
        &[
            (120.0, 90.0),
            (190.0, 140.0),
            (260.0, 120.0),
            (330.0, 170.0),
            (300.0, 240.0),
            (220.0, 230.0),
        ][..],
        &[
            (880.0, 420.0),
            (950.0, 380.0),
            (1040.0, 400.0),
            (1100.0, 340.0),
            (1060.0, 480.0),
        ][..],
        &[(640.0, 60.0), (700.0, 110.0), (780.0, 90.0)][..],
    ] {
        stroke_line(c, pts, rgba(0xcfd8ff, 90), 1.5);
        for &(x, y) in pts {
            c.glow(x, y, 16.0, 0xdfe6ff, 120);
            c.color(&circle_path(x, y, 3.0), rgba(0xffffff, 255));
        }
    }
    for (x, y, len) in [
        (420.0, 60.0, 220.0),
        (980.0, 200.0, 160.0),
        (160.0, 420.0, 140.0),
    ] {
        let (dx, dy) = (len * 0.86, len * 0.5);
        let path = {
            let mut pb = PathBuilder::new();
            pb.move_to(x, y);
            pb.line_to(x - dx, y - dy);
            pb.finish().expect("line")
        };
        let stroke = tiny_skia::Stroke {
            width: 2.5,
            line_cap: tiny_skia::LineCap::Round,
            ..tiny_skia::Stroke::default()
        };
        c.pixmap.stroke_path(
            &path,
            &shader_paint(linear(
                x,
                y,
                x - dx,
                y - dy,
                &[(0.0, rgba(0xffffff, 240)), (1.0, rgba(0xffffff, 0))],
            )),
            &stroke,
            Transform::identity(),
            None,
        );
        c.glow(x, y, 14.0, 0xffffff, 200);
    }
}

/// `sunset`: a warm sky over the sea, the sun on the horizon with its
/// reflection, hills and birds.
pub(super) fn sunset(c: &mut Canvas) {
    let horizon = 400.0;
    sky(
        c,
        &[
            (0.0, rgba(0x2d1b5a, 255)),
            (0.3, rgba(0x8a2e6e, 255)),
            (0.52, rgba(0xff6b5a, 255)),
            (0.666, rgba(0xffc56e, 255)),
            (0.667, rgba(0x5a2a5e, 255)),
            (1.0, rgba(0x1a0f2e, 255)),
        ],
    );
    c.glow(600.0, horizon, 420.0, 0xffb36b, 150);
    let mut clip = tiny_skia::Mask::new(1200, 600).expect("canvas-sized mask");
    clip.fill_path(
        &rect_path(0.0, 0.0, W, horizon),
        tiny_skia::FillRule::Winding,
        true,
        Transform::identity(),
    );
    c.pixmap.fill_path(
        &circle_path(600.0, horizon, 110.0),
        &shader_paint(linear(
            0.0,
            horizon - 110.0,
            0.0,
            horizon,
            &[(0.0, rgba(0xfff1b0, 255)), (1.0, rgba(0xffb347, 255))],
        )),
        tiny_skia::FillRule::Winding,
        Transform::identity(),
        Some(&clip),
    );
    // Hills on both sides.
    c.color(
        &poly(&[
            (0.0, horizon),
            (0.0, 300.0),
            (120.0, 280.0),
            (260.0, 330.0),
            (380.0, 370.0),
            (460.0, horizon),
        ]),
        rgba(0x4a1f4f, 255),
    );
    c.color(
        &poly(&[
            (780.0, horizon),
            (880.0, 350.0),
            (1000.0, 310.0),
            (1120.0, 330.0),
            (1200.0, 300.0),
            (1200.0, horizon),
        ]),
        rgba(0x4a1f4f, 255),
    );
    // The sun's reflection.
    let mut rng = Lcg(55);
    for k in 0..12 {
        let y = horizon + 8.0 + k as f32 * 16.0;
        let w = 200.0 - k as f32 * 12.0 + rng.next() * 30.0;
        c.color(
            &rect_path(600.0 - w / 2.0, y, w, 4.0),
            rgba(0xffc56e, (200 - k * 14) as u8),
        );
    }
    // Birds.
    for (x, y, s) in [
        (300.0, 150.0, 1.0),
        (340.0, 175.0, 0.7),
        (880.0, 120.0, 0.9),
        (920.0, 140.0, 0.6),
    ] {
        let mut pb = PathBuilder::new();
        pb.move_to(x - 14.0 * s, y - 4.0 * s);
        pb.quad_to(x - 6.0 * s, y - 9.0 * s, x, y);
        pb.quad_to(x + 6.0 * s, y - 9.0 * s, x + 14.0 * s, y - 4.0 * s);
        if let Some(path) = pb.finish() {
            c.stroke(&path, rgba(0x2a1030, 230), 2.4 * s.max(0.7));
        }
    }
}
