//! The art of the two-avatar memes (`ship`, `kiss`, `slap`, `hug`,
//! `fuse`, `vs`, `heart-locket`): backdrops under the two pictures and
//! the pieces drawn over them, all drawn in code.

use tiny_skia::{Color, FillRule, LineCap, PathBuilder, Pixmap, Stroke, Transform};

use super::Art;
use crate::RenderError;
use crate::paint::{
    Canvas, circle_path, heart, linear, paint, poly, radial, rgba, rrect_path, shader_paint,
    text_rgb,
};
use crate::template::rng::Lcg;
use crate::text::{Align, FontFace, TextBox, TextStyle, VAlign};

/// How much smaller than their design `ship`, `kiss`, `slap` and `hug`
/// are stored: their art is drawn at the design sizes below and kept at
/// this scale, where the templates place everything.
pub(in crate::template) const PAIRS_STORED: f32 = 0.8;
/// The same for `vs`, whose panels are larger.
pub(in crate::template) const VS_STORED: f32 = 0.7;

/// `ship`'s canvas as designed (stored at [`PAIRS_STORED`] times it).
pub(in crate::template) const SHIP_SIZE: (u32, u32) = (900, 440);
/// `kiss`, `slap` and `hug`'s canvas as designed (stored at [`PAIRS_STORED`] times it).
pub(in crate::template) const SCENE_SIZE: (u32, u32) = (800, 450);
/// `fuse`'s canvas.
pub(in crate::template) const FUSE_SIZE: (u32, u32) = (512, 512);
/// `vs`'s canvas as designed (stored at [`VS_STORED`] times it).
pub(in crate::template) const VS_SIZE: (u32, u32) = (1000, 500);
/// How much smaller than its design `heart-locket` is kept (its art drawn
/// at design size, then resampled once): 390×312. The GIF's cost grows with
/// its pixels: at 600×480 it served 0.046× circle512's requests per second
/// against a bound of 0.15× (BENCHMARKS.md).
pub(in crate::template) const LOCKET_STORED: f32 = 0.65;
/// `heart-locket`'s canvas as designed (stored at [`LOCKET_STORED`] times it).
pub(in crate::template) const LOCKET_SIZE: (u32, u32) = (600, 480);
/// One half of the open locket (and its lid).
pub(in crate::template) const LOCKET_HALF: (u32, u32) = (240, 230);
/// The round window in a locket half: centre and radius, in the half's
/// pixels.
pub(in crate::template) const LOCKET_WINDOW: (f32, f32, f32) = (122.0, 112.0, 66.0);
/// `ship`'s meter: the centre of the first heart, the step to the next,
/// and a heart's width.
pub(in crate::template) const PIPS: (f32, f32, f32, f32) = (261.0, 336.0, 42.0, 34.0);
/// The lit heart of `ship`'s meter.
pub(in crate::template) const PIP_SIZE: (u32, u32) = (38, 34);
/// `ship`'s big heart.
pub(in crate::template) const SHIP_HEART: (u32, u32) = (220, 200);

/// The design size of a piece of this module's art (the size it is drawn
/// at).
pub(super) fn size(art: Art) -> Option<(u32, u32)> {
    Some(match art {
        Art::ShipBackdrop => SHIP_SIZE,
        Art::ShipHeart => SHIP_HEART,
        Art::HeartPip => PIP_SIZE,
        Art::KissScene | Art::KissFront | Art::SlapScene | Art::SlapFront => SCENE_SIZE,
        Art::HugScene | Art::HugFront => SCENE_SIZE,
        Art::FuseGlow => FUSE_SIZE,
        Art::VsScene | Art::VsFront => VS_SIZE,
        Art::LocketBack | Art::LocketSparkle => LOCKET_SIZE,
        Art::LocketHalf | Art::LocketLid => LOCKET_HALF,
        _ => return None,
    })
}

/// How much smaller than its design a piece of this module's art is kept
/// (`None` for any other art; `fuse`'s is kept at its design size).
pub(super) fn stored_scale(art: Art) -> Option<f32> {
    match art {
        Art::ShipBackdrop
        | Art::ShipHeart
        | Art::HeartPip
        | Art::KissScene
        | Art::KissFront
        | Art::SlapScene
        | Art::SlapFront
        | Art::HugScene
        | Art::HugFront => Some(PAIRS_STORED),
        Art::VsScene | Art::VsFront => Some(VS_STORED),
        Art::LocketBack | Art::LocketHalf | Art::LocketLid | Art::LocketSparkle => {
            Some(LOCKET_STORED)
        }
        _ => None,
    }
}

/// This module's art, drawn; `None` for any other.
pub(super) fn draw(art: Art) -> Option<Pixmap> {
    let (w, h) = size(art)?;
    let mut c = Canvas::new(w, h).ok()?;
    let drawn = match art {
        Art::ShipBackdrop => ship_backdrop(&mut c),
        Art::ShipHeart => ship_heart(&mut c),
        Art::HeartPip => {
            pip(&mut c);
            Ok(())
        }
        Art::KissScene => {
            soft_scene(&mut c, 0xffd1e3, 0xffb3c6, 0xfff0f5, 1);
            Ok(())
        }
        Art::KissFront => {
            kiss_front(&mut c);
            Ok(())
        }
        Art::SlapScene => {
            slap_scene(&mut c);
            Ok(())
        }
        Art::SlapFront => slap_front(&mut c),
        Art::HugScene => {
            soft_scene(&mut c, 0xffe3b3, 0xffb38a, 0xfff6e0, 2);
            Ok(())
        }
        Art::HugFront => {
            hug_front(&mut c);
            Ok(())
        }
        Art::FuseGlow => {
            fuse_glow(&mut c);
            Ok(())
        }
        Art::VsScene => vs_scene(&mut c),
        Art::VsFront => vs_front(&mut c),
        Art::LocketBack => {
            locket_back(&mut c);
            Ok(())
        }
        Art::LocketHalf => {
            locket_half(&mut c);
            Ok(())
        }
        Art::LocketLid => {
            locket_lid(&mut c);
            Ok(())
        }
        Art::LocketSparkle => {
            locket_sparkle(&mut c);
            Ok(())
        }
        _ => return None,
    };
    // The art's size and text are fixed: a failure is a bug every test of
    // these templates catches.
    drawn.expect("fixed pair art draws");
    Some(c.pixmap)
}

fn round_stroke(c: &mut Canvas, path: &tiny_skia::Path, color: Color, width: f32) {
    let stroke = Stroke {
        width,
        line_cap: LineCap::Round,
        line_join: tiny_skia::LineJoin::Round,
        ..Stroke::default()
    };
    c.pixmap
        .stroke_path(path, &paint(color), &stroke, Transform::identity(), None);
}

fn quad(a: (f32, f32), ctrl: (f32, f32), b: (f32, f32)) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(a.0, a.1);
    pb.quad_to(ctrl.0, ctrl.1, b.0, b.1);
    pb.finish()
}

/// A four-pointed twinkle centred on `(cx, cy)`, `r` from centre to tip.
fn twinkle(c: &mut Canvas, cx: f32, cy: f32, r: f32, color: Color) {
    let k = r * 0.22;
    let star = poly(&[
        (cx, cy - r),
        (cx + k, cy - k),
        (cx + r, cy),
        (cx + k, cy + k),
        (cx, cy + r),
        (cx - k, cy + k),
        (cx - r, cy),
        (cx - k, cy - k),
    ]);
    c.color(&star, color);
}

/// A heart with a white rim and a glint, as the memes scatter them.
fn bright_heart(c: &mut Canvas, cx: f32, cy: f32, s: f32, hex: u32) {
    let path = heart(cx, cy, s);
    c.shadow(&path, s * 0.05, s * 0.06, 50);
    c.color(&path, rgba(hex, 255));
    c.stroke(&path, rgba(0xffffff, 255), (s * 0.07).max(2.0));
    c.color(
        &circle_path(cx - s * 0.22, cy - s * 0.12, s * 0.08),
        rgba(0xffffff, 170),
    );
}

/// A jagged burst: `points` spikes between radii `r_in` and `r_out`.
fn burst(cx: f32, cy: f32, r_in: f32, r_out: f32, points: usize) -> tiny_skia::Path {
    let pts: Vec<(f32, f32)> = (0..points * 2)
        .map(|i| {
            let a = i as f32 * std::f32::consts::PI / points as f32 - 0.2;
            let r = if i % 2 == 0 { r_out } else { r_in };
            // A little irregularity, the same every time.
            let wobble = 1.0 + 0.12 * ((i * 7 % 5) as f32 / 4.0 - 0.5);
            (cx + a.cos() * r * wobble, cy + a.sin() * r * wobble)
        })
        .collect();
    poly(&pts)
}

fn outlined(face: FontFace, size: f32, fill: u32, outline: u32, width: f32) -> TextStyle {
    TextStyle::new(face, size)
        .color(text_rgb(fill))
        .outline(text_rgb(outline), width)
        .align(Align::Center)
        .valign(VAlign::Middle)
}

// --- ship ---

fn ship_backdrop(c: &mut Canvas) -> Result<(), RenderError> {
    let (w, h) = (SHIP_SIZE.0 as f32, SHIP_SIZE.1 as f32);
    c.fill_all(linear(
        0.0,
        0.0,
        w,
        h,
        &[(0.0, rgba(0xff8fab, 255)), (1.0, rgba(0x9d7be8, 255))],
    ));
    c.fill_all(radial(
        w / 2.0,
        h * 0.4,
        w * 0.6,
        &[(0.0, rgba(0xffffff, 70)), (1.0, rgba(0xffffff, 0))],
    ));
    // Faint hearts drifting over the card.
    let mut rng = Lcg(0x5e1f_0a11);
    for _ in 0..26 {
        let (x, y) = (rng.next() * w, rng.next() * h);
        let s = 16.0 + rng.next() * 30.0;
        let a = (24.0 + rng.next() * 40.0) as u8;
        c.color(&heart(x, y, s), rgba(0xffffff, a));
    }
    // The two portraits' rings.
    for cx in [190.0, 710.0] {
        let ring = circle_path(cx, 180.0, 128.0);
        c.shadow(&ring, 6.0, 10.0, 60);
        c.color(&ring, rgba(0xffffff, 255));
    }
    // The meter's track and its empty hearts.
    let (x0, y, step, s) = PIPS;
    let track = rrect_path(x0 - 33.0, y - 27.0, step * 9.0 + 66.0, 54.0, 27.0);
    c.color(&track, rgba(0x2a1040, 70));
    for i in 0..10 {
        let cx = x0 + step * i as f32;
        c.stroke(&heart(cx, y, s), rgba(0xffffff, 200), 2.5);
    }
    // The verdict's plate.
    c.color(
        &rrect_path(170.0, 372.0, 560.0, 56.0, 28.0),
        rgba(0x2a1040, 110),
    );
    let label = TextStyle::new(FontFace::Bold, 26.0)
        .color(text_rgb(0xffffff))
        .outline(text_rgb(0x5a1a4a), 2.0)
        .align(Align::Center)
        .valign(VAlign::Middle);
    c.text(
        "LOVE METER",
        &label,
        TextBox::new(330.0, 12.0, 240.0, 40.0),
        12.0,
    )?;
    Ok(())
}

fn ship_heart(c: &mut Canvas) -> Result<(), RenderError> {
    let (w, h) = (SHIP_HEART.0 as f32, SHIP_HEART.1 as f32);
    let path = heart(w / 2.0, h / 2.0 + 4.0, 236.0);
    c.shadow(&path, 6.0, 8.0, 70);
    c.fill(
        &path,
        &shader_paint(radial(
            w * 0.4,
            h * 0.35,
            w * 0.7,
            &[(0.0, rgba(0xff6b8b, 255)), (1.0, rgba(0xc2123f, 255))],
        )),
    );
    c.stroke(&path, rgba(0xffffff, 255), 6.0);
    // A soft shine on the left lobe, clear of the percentage.
    c.fill(
        &circle_path(w * 0.2, h * 0.3, 16.0),
        &shader_paint(radial(
            w * 0.2,
            h * 0.3,
            16.0,
            &[(0.0, rgba(0xffffff, 150)), (1.0, rgba(0xffffff, 0))],
        )),
    );
    Ok(())
}

fn pip(c: &mut Canvas) {
    let (w, h) = (PIP_SIZE.0 as f32, PIP_SIZE.1 as f32);
    let path = heart(w / 2.0, h / 2.0, PIPS.3);
    c.color(&path, rgba(0xff2d6f, 255));
    c.stroke(&path, rgba(0xffffff, 255), 2.5);
    c.color(&circle_path(w * 0.33, h * 0.36, 3.0), rgba(0xffffff, 190));
}

// --- kiss, hug ---

/// A soft two-tone backdrop with a big pale heart and sparkles.
fn soft_scene(c: &mut Canvas, top: u32, bottom: u32, glow: u32, seed: u64) {
    let (w, h) = (SCENE_SIZE.0 as f32, SCENE_SIZE.1 as f32);
    c.fill_all(linear(
        0.0,
        0.0,
        0.0,
        h,
        &[(0.0, rgba(top, 255)), (1.0, rgba(bottom, 255))],
    ));
    c.fill_all(radial(
        w / 2.0,
        h * 0.45,
        w * 0.5,
        &[(0.0, rgba(glow, 200)), (1.0, rgba(glow, 0))],
    ));
    c.color(&heart(w / 2.0, h * 0.5, 520.0), rgba(0xffffff, 60));
    let mut rng = Lcg(seed.wrapping_mul(0x9e37_79b9) + 17);
    for _ in 0..22 {
        let (x, y) = (rng.next() * w, rng.next() * h);
        let r = 4.0 + rng.next() * 9.0;
        twinkle(
            c,
            x,
            y,
            r,
            rgba(0xffffff, (110.0 + rng.next() * 120.0) as u8),
        );
    }
}

fn kiss_front(c: &mut Canvas) {
    // Blush on both cheeks beside the kiss.
    for (x, y) in [(352.0, 262.0), (448.0, 262.0)] {
        c.fill(
            &circle_path(x, y, 34.0),
            &shader_paint(radial(
                x,
                y,
                34.0,
                &[(0.0, rgba(0xff4f7b, 130)), (1.0, rgba(0xff4f7b, 0))],
            )),
        );
    }
    // Hearts rising from where the two meet.
    for (x, y, s, hex) in [
        (402.0, 96.0, 54.0, 0xff2d6f),
        (446.0, 58.0, 40.0, 0xff5c8a),
        (372.0, 40.0, 30.0, 0xff7aa2),
        (470.0, 22.0, 22.0, 0xff2d6f),
    ] {
        bright_heart(c, x, y, s, hex);
    }
    // A kiss mark where the two meet.
    let (x, y) = (400.0, 238.0);
    let mut pb = PathBuilder::new();
    pb.move_to(x - 38.0, y);
    pb.cubic_to(x - 28.0, y - 22.0, x - 9.0, y - 25.0, x, y - 13.0);
    pb.cubic_to(x + 9.0, y - 25.0, x + 28.0, y - 22.0, x + 38.0, y);
    pb.cubic_to(x + 24.0, y + 27.0, x - 24.0, y + 27.0, x - 38.0, y);
    pb.close();
    if let Some(lips) = pb.finish() {
        c.shadow(&lips, 3.0, 5.0, 60);
        c.color(&lips, rgba(0xe8173f, 255));
        c.stroke(&lips, rgba(0xffffff, 255), 4.0);
    }
    if let Some(line) = quad((x - 34.0, y + 1.0), (x, y + 8.0), (x + 34.0, y + 1.0)) {
        round_stroke(c, &line, rgba(0x8c0a26, 255), 3.0);
    }
    c.color(&circle_path(x - 14.0, y + 11.0, 4.0), rgba(0xffffff, 150));
}

fn hug_front(c: &mut Canvas) {
    const SKIN: u32 = 0xf5b98f;
    const LINE: u32 = 0x7a4326;
    // Two arms crossing in front of the pair, each ending in a hand on
    // the other's back.
    let arms = [
        ((300.0, 380.0), (520.0, 470.0), (648.0, 262.0)),
        ((500.0, 380.0), (280.0, 470.0), (152.0, 262.0)),
    ];
    for (a, ctrl, b) in arms {
        if let Some(p) = quad(a, ctrl, b) {
            round_stroke(c, &p, rgba(LINE, 255), 50.0);
            round_stroke(c, &p, rgba(SKIN, 255), 42.0);
            round_stroke(c, &p, rgba(0xffffff, 40), 14.0);
        }
        let hand = circle_path(b.0, b.1, 28.0);
        c.color(&hand, rgba(SKIN, 255));
        c.stroke(&hand, rgba(LINE, 255), 4.0);
        // Fingers, as short lines on the hand.
        for k in -1..=1 {
            let dy = k as f32 * 9.0;
            if let Some(p) = quad(
                (b.0 - 8.0, b.1 + dy),
                (b.0, b.1 + dy - 2.0),
                (b.0 + 8.0, b.1 + dy),
            ) {
                round_stroke(c, &p, rgba(LINE, 200), 3.0);
            }
        }
    }
    // Warmth: hearts above and squeeze lines at the sides.
    for (x, y, s, hex) in [
        (400.0, 62.0, 60.0, 0xff4d6d),
        (340.0, 40.0, 30.0, 0xff8fab),
        (462.0, 36.0, 34.0, 0xff6b8b),
    ] {
        bright_heart(c, x, y, s, hex);
    }
    for (a, ctrl, b) in [
        ((118.0, 190.0), (100.0, 235.0), (118.0, 280.0)),
        ((96.0, 170.0), (72.0, 235.0), (96.0, 300.0)),
        ((682.0, 190.0), (700.0, 235.0), (682.0, 280.0)),
        ((704.0, 170.0), (728.0, 235.0), (704.0, 300.0)),
    ] {
        if let Some(p) = quad(a, ctrl, b) {
            round_stroke(c, &p, rgba(0xffffff, 230), 7.0);
        }
    }
}

// --- slap ---

fn slap_scene(c: &mut Canvas) {
    let (w, h) = (SCENE_SIZE.0 as f32, SCENE_SIZE.1 as f32);
    let (cx, cy) = (560.0, 200.0);
    c.fill_all(radial(
        cx,
        cy,
        w * 0.8,
        &[(0.0, rgba(0xfff3a3, 255)), (1.0, rgba(0xff8c2b, 255))],
    ));
    // Comic rays from the impact.
    let n = 24;
    for i in 0..n {
        if i % 2 == 1 {
            continue;
        }
        let a0 = i as f32 * std::f32::consts::TAU / n as f32;
        let a1 = a0 + std::f32::consts::TAU / n as f32;
        let r = w * 1.2;
        let ray = poly(&[
            (cx, cy),
            (cx + a0.cos() * r, cy + a0.sin() * r),
            (cx + a1.cos() * r, cy + a1.sin() * r),
        ]);
        c.color(&ray, rgba(0xffffff, 55));
    }
    // Halftone dots in the corners.
    for y in (10..h as i32).step_by(22) {
        for x in (10..w as i32).step_by(22) {
            let d = ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt() / w;
            let r = ((d - 0.45) * 9.0).clamp(0.0, 4.5);
            if r > 0.3 {
                c.color(&circle_path(x as f32, y as f32, r), rgba(0xc2410c, 90));
            }
        }
    }
}

fn slap_front(c: &mut Canvas) -> Result<(), RenderError> {
    const SKIN: u32 = 0xffcfa3;
    const LINE: u32 = 0x4a2a14;
    // The impact on the cheek.
    let star = burst(488.0, 214.0, 38.0, 74.0, 11);
    c.color(&star, rgba(0xffffff, 255));
    c.stroke(&star, rgba(0xe03131, 255), 5.0);
    let inner = burst(488.0, 214.0, 20.0, 42.0, 9);
    c.color(&inner, rgba(0xffe066, 255));
    // Speed lines behind the swinging hand.
    for (a, ctrl, b) in [
        ((250.0, 120.0), (300.0, 150.0), (340.0, 196.0)),
        ((238.0, 160.0), (290.0, 188.0), (326.0, 234.0)),
        ((246.0, 204.0), (292.0, 228.0), (322.0, 270.0)),
        ((268.0, 88.0), (316.0, 112.0), (352.0, 156.0)),
    ] {
        if let Some(p) = quad(a, ctrl, b) {
            round_stroke(c, &p, rgba(0xffffff, 255), 11.0);
            round_stroke(c, &p, rgba(LINE, 255), 5.0);
        }
    }
    // The open hand, palm first, tilted into the slap.
    let t = Transform::from_rotate_at(-28.0, 410.0, 210.0);
    let mut parts: Vec<tiny_skia::Path> = Vec::new();
    // Fingers, then the thumb, then the palm over their roots.
    for (i, len) in [64.0f32, 76.0, 72.0, 58.0].into_iter().enumerate() {
        let x = 370.0 + i as f32 * 22.0;
        parts.push(rrect_path(x, 170.0 - len, 21.0, len + 30.0, 10.5));
    }
    parts.push(rrect_path(336.0, 196.0, 58.0, 22.0, 11.0));
    parts.push(rrect_path(362.0, 160.0, 94.0, 96.0, 30.0));
    for p in &parts {
        c.stroke_t(p, rgba(LINE, 255), 9.0, t);
    }
    for p in &parts {
        c.fill_t(p, &paint(rgba(SKIN, 255)), t);
    }
    // Creases on the palm.
    for (a, ctrl, b) in [
        ((376.0, 214.0), (406.0, 200.0), (442.0, 206.0)),
        ((380.0, 232.0), (404.0, 226.0), (428.0, 236.0)),
    ] {
        if let Some(p) = quad(a, ctrl, b)
            && let Some(p) = p.transform(t)
        {
            round_stroke(c, &p, rgba(0xc98b62, 255), 3.0);
        }
    }
    let style = outlined(FontFace::Meme, 84.0, 0xffe066, 0x1a1a1a, 6.0);
    c.text(
        "SLAP!",
        &style,
        TextBox::new(470.0, 330.0, 310.0, 110.0),
        24.0,
    )?;
    Ok(())
}

// --- fuse ---

fn fuse_glow(c: &mut Canvas) {
    let (w, h) = (FUSE_SIZE.0 as f32, FUSE_SIZE.1 as f32);
    c.fill_all(radial(
        w / 2.0,
        h / 2.0,
        w * 0.72,
        &[(0.55, rgba(0x3b0a6b, 0)), (1.0, rgba(0x3b0a6b, 170))],
    ));
    // A swirl of light where the two run together.
    for i in 0..5 {
        let r = 150.0 + i as f32 * 16.0;
        let a0 = i as f32 * 1.3;
        let mut pb = PathBuilder::new();
        for k in 0..=24 {
            let a = a0 + k as f32 * 0.09;
            let rr = r + k as f32 * 2.2;
            let (x, y) = (w / 2.0 + a.cos() * rr, h / 2.0 + a.sin() * rr);
            if k == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        if let Some(p) = pb.finish() {
            round_stroke(c, &p, rgba(0xe5dbff, 110), 5.0);
        }
    }
    let mut rng = Lcg(0xf05e);
    for _ in 0..18 {
        let a = rng.next() * std::f32::consts::TAU;
        let r = 190.0 + rng.next() * 60.0;
        let s = 4.0 + rng.next() * 9.0;
        twinkle(
            c,
            w / 2.0 + a.cos() * r,
            h / 2.0 + a.sin() * r,
            s,
            rgba(0xffffff, 220),
        );
    }
}

// --- vs ---

fn vs_scene(c: &mut Canvas) -> Result<(), RenderError> {
    let (w, h) = (VS_SIZE.0 as f32, VS_SIZE.1 as f32);
    let left = poly(&[(0.0, 0.0), (540.0, 0.0), (460.0, h), (0.0, h)]);
    let right = poly(&[(540.0, 0.0), (w, 0.0), (w, h), (460.0, h)]);
    c.fill(
        &left,
        &shader_paint(linear(
            0.0,
            0.0,
            500.0,
            h,
            &[(0.0, rgba(0x4dabf7, 255)), (1.0, rgba(0x1c3d8f, 255))],
        )),
    );
    c.fill(
        &right,
        &shader_paint(linear(
            w,
            0.0,
            500.0,
            h,
            &[(0.0, rgba(0xff6b6b, 255)), (1.0, rgba(0x8f1c1c, 255))],
        )),
    );
    // Speed streaks on each side.
    let mut rng = Lcg(0x0715);
    for _ in 0..18 {
        let y = rng.next() * h;
        let len = 60.0 + rng.next() * 160.0;
        let x = rng.next() * 300.0;
        let a = (30.0 + rng.next() * 40.0) as u8;
        c.color(&rrect_path(x, y, len, 4.0, 2.0), rgba(0xffffff, a));
        c.color(
            &rrect_path(w - x - len, h - y, len, 4.0, 2.0),
            rgba(0xffffff, a),
        );
    }
    // The dividing slash.
    let slash = poly(&[(530.0, 0.0), (550.0, 0.0), (470.0, h), (450.0, h)]);
    c.color(&slash, rgba(0xffffff, 255));
    let style = outlined(FontFace::Meme, 54.0, 0xffffff, 0x111111, 5.0);
    c.text(
        "WHO WOULD WIN?",
        &style,
        TextBox::new(100.0, 14.0, 800.0, 76.0),
        20.0,
    )?;
    // The avatars' shadows.
    for x in [90.0, 610.0] {
        let frame = rrect_path(x, 110.0, 300.0, 300.0, 24.0);
        c.shadow(&frame, 8.0, 12.0, 90);
    }
    Ok(())
}

fn vs_front(c: &mut Canvas) -> Result<(), RenderError> {
    for (x, hex) in [(90.0, 0xd0ebff), (610.0, 0xffe3e3)] {
        let frame = rrect_path(x - 4.0, 106.0, 308.0, 308.0, 28.0);
        c.stroke(&frame, rgba(0x111111, 255), 12.0);
        c.stroke(&frame, rgba(hex, 255), 7.0);
    }
    // The badge.
    let (cx, cy) = (500.0, 262.0);
    let outer = burst(cx, cy, 70.0, 98.0, 12);
    c.shadow(&outer, 6.0, 10.0, 110);
    c.color(&outer, rgba(0x111111, 255));
    let inner = burst(cx, cy, 62.0, 86.0, 12);
    c.fill(
        &inner,
        &shader_paint(linear(
            cx,
            cy - 90.0,
            cx,
            cy + 90.0,
            &[(0.0, rgba(0xffe066, 255)), (1.0, rgba(0xff922b, 255))],
        )),
    );
    // Lightning above and below.
    for (dx, dy, s) in [(0.0, -150.0, 1.0), (0.0, 150.0, -1.0)] {
        let (x, y) = (cx + dx, cy + dy);
        let bolt = poly(&[
            (x - 10.0 * s, y - 34.0 * s),
            (x + 16.0 * s, y - 34.0 * s),
            (x + 2.0 * s, y - 4.0 * s),
            (x + 18.0 * s, y - 4.0 * s),
            (x - 14.0 * s, y + 38.0 * s),
            (x - 4.0 * s, y + 6.0 * s),
            (x - 20.0 * s, y + 6.0 * s),
        ]);
        c.color(&bolt, rgba(0xffe066, 255));
        c.stroke(&bolt, rgba(0x111111, 255), 4.0);
    }
    let style = outlined(FontFace::Meme, 92.0, 0xffffff, 0x111111, 7.0);
    c.text(
        "VS",
        &style,
        TextBox::new(cx - 90.0, cy - 60.0, 180.0, 120.0),
        30.0,
    )?;
    Ok(())
}

// --- heart locket ---

const GOLD_LIGHT: u32 = 0xffe9a8;
const GOLD: u32 = 0xe8b53c;
const GOLD_DARK: u32 = 0x8a5a12;

fn locket_back(c: &mut Canvas) {
    let (w, h) = (LOCKET_SIZE.0 as f32, LOCKET_SIZE.1 as f32);
    c.fill_all(radial(
        w / 2.0,
        h * 0.55,
        w * 0.75,
        &[(0.0, rgba(0x7a1a45, 255)), (1.0, rgba(0x1e0612, 255))],
    ));
    // Velvet sheen.
    c.fill_all(linear(
        0.0,
        0.0,
        w,
        h,
        &[
            (0.0, rgba(0xffffff, 0)),
            (0.5, rgba(0xffffff, 14)),
            (1.0, rgba(0xffffff, 0)),
        ],
    ));
    // The chain: links along two curves down to the bail.
    for (start, ctrl) in [
        ((120.0, -10.0), (170.0, 120.0)),
        ((480.0, -10.0), (430.0, 120.0)),
    ] {
        let end = (300.0, 124.0);
        for k in 0..22 {
            let t = k as f32 / 21.0;
            let u = 1.0 - t;
            let x = u * u * start.0 + 2.0 * u * t * ctrl.0 + t * t * end.0;
            let y = u * u * start.1 + 2.0 * u * t * ctrl.1 + t * t * end.1;
            let link = circle_path(x, y, 5.5);
            c.stroke(&link, rgba(GOLD_DARK, 255), 4.5);
            c.stroke(&link, rgba(GOLD, 255), 2.5);
        }
    }
    let bail = circle_path(300.0, 132.0, 11.0);
    c.stroke(&bail, rgba(GOLD_DARK, 255), 7.0);
    c.stroke(&bail, rgba(GOLD_LIGHT, 255), 3.5);
}

fn locket_heart() -> tiny_skia::Path {
    let (w, _) = LOCKET_HALF;
    heart(w as f32 / 2.0, 104.0, 268.0)
}

fn gold_fill(c: &mut Canvas, path: &tiny_skia::Path) {
    let (w, h) = (LOCKET_HALF.0 as f32, LOCKET_HALF.1 as f32);
    c.fill(
        path,
        &shader_paint(linear(
            0.0,
            0.0,
            w,
            h,
            &[
                (0.0, rgba(GOLD_LIGHT, 255)),
                (0.45, rgba(GOLD, 255)),
                (1.0, rgba(0xb07d1a, 255)),
            ],
        )),
    );
    c.stroke(path, rgba(GOLD_DARK, 255), 5.0);
}

fn locket_half(c: &mut Canvas) {
    let path = locket_heart();
    gold_fill(c, &path);
    // The window, cut through to the portrait under it.
    let (wx, wy, r) = LOCKET_WINDOW;
    let cut = tiny_skia::Paint {
        anti_alias: true,
        blend_mode: tiny_skia::BlendMode::Clear,
        ..tiny_skia::Paint::default()
    };
    c.pixmap.fill_path(
        &circle_path(wx, wy, r),
        &cut,
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    let rim = circle_path(wx, wy, r + 3.0);
    c.stroke(&rim, rgba(GOLD_DARK, 255), 6.0);
    c.stroke(&rim, rgba(GOLD_LIGHT, 255), 2.5);
}

fn locket_lid(c: &mut Canvas) {
    let path = locket_heart();
    gold_fill(c, &path);
    let (w, _) = LOCKET_HALF;
    let cx = w as f32 / 2.0;
    // An engraved heart and scrolls.
    let inset = heart(cx, 104.0, 200.0);
    c.stroke(&inset, rgba(GOLD_DARK, 200), 3.0);
    c.stroke(&heart(cx, 106.0, 200.0), rgba(GOLD_LIGHT, 160), 1.5);
    for s in [-1.0f32, 1.0] {
        let mut pb = PathBuilder::new();
        pb.move_to(cx, 150.0);
        pb.cubic_to(
            cx + 40.0 * s,
            140.0,
            cx + 52.0 * s,
            96.0,
            cx + 26.0 * s,
            84.0,
        );
        pb.cubic_to(
            cx + 10.0 * s,
            78.0,
            cx + 4.0 * s,
            96.0,
            cx + 18.0 * s,
            102.0,
        );
        if let Some(p) = pb.finish() {
            round_stroke(c, &p, rgba(GOLD_DARK, 210), 3.0);
        }
    }
    c.color(&heart(cx, 120.0, 36.0), rgba(0xc2123f, 255));
    c.stroke(&heart(cx, 120.0, 36.0), rgba(GOLD_DARK, 255), 2.0);
    let mut pb = PathBuilder::new();
    pb.move_to(54.0, 70.0);
    pb.quad_to(66.0, 40.0, 98.0, 36.0);
    if let Some(glint) = pb.finish() {
        round_stroke(c, &glint, rgba(0xffffff, 170), 8.0);
    }
}

fn locket_sparkle(c: &mut Canvas) {
    for (x, y, r) in [
        (70.0, 170.0, 16.0),
        (540.0, 160.0, 20.0),
        (110.0, 400.0, 12.0),
        (500.0, 410.0, 15.0),
        (300.0, 440.0, 10.0),
        (40.0, 300.0, 9.0),
        (566.0, 300.0, 11.0),
    ] {
        twinkle(c, x, y, r, rgba(0xfff3bf, 255));
        c.glow(x, y, r * 2.0, 0xffe066, 90);
    }
    for (x, y, s, hex) in [
        (180.0, 92.0, 30.0, 0xff4d6d),
        (420.0, 88.0, 36.0, 0xff6b8b),
        (300.0, 408.0, 28.0, 0xff4d6d),
    ] {
        bright_heart(c, x, y, s, hex);
    }
}
