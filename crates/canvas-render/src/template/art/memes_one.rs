//! The one-avatar memes' art ([`crate::template::memes_one`]): our own
//! drawings, each made once per process. Geometry comes from the
//! templates' constants so the avatar lands where the drawing expects it.

use tiny_skia::{BlendMode, FillRule, PathBuilder, Pixmap, PixmapPaint, Transform};

use crate::RenderError;
use crate::paint::{
    Canvas, circle_path, linear, paint, poly, radial, rect_path, rgba, rrect_path, shader_paint,
    text_rgb,
};
use crate::template::memes_one::{
    BEAUTIFUL_PAINTING, BEAUTIFUL_PLAQUE, DELETE_DIALOG, DELETE_ICON, RIP_OVAL, RIP_PHOTO,
    RIP_STONE, STONKS_AVATAR, TRASH_BIN, TRASH_FRONT, WANTED_PHOTO,
};
use crate::template::rng::Lcg;
use crate::text::{Align, FontFace, TextBox, TextStyle, VAlign};

fn oval(cx: f32, cy: f32, rx: f32, ry: f32) -> tiny_skia::Path {
    let r =
        tiny_skia::Rect::from_xywh(cx - rx, cy - ry, 2.0 * rx, 2.0 * ry).expect("finite ellipse");
    PathBuilder::from_oval(r).expect("oval")
}

fn segment(a: (f32, f32), b: (f32, f32)) -> tiny_skia::Path {
    let mut pb = PathBuilder::new();
    pb.move_to(a.0, a.1);
    pb.line_to(b.0, b.1);
    pb.finish().expect("segment")
}

/// Clears `path` out of the canvas (transparent there).
fn cut(c: &mut Canvas, path: &tiny_skia::Path) {
    let clear = tiny_skia::Paint {
        anti_alias: true,
        blend_mode: BlendMode::Clear,
        ..tiny_skia::Paint::default()
    };
    c.pixmap
        .fill_path(path, &clear, FillRule::Winding, Transform::identity(), None);
}

/// The part `(x, y, w, h)` of `full`, as a canvas of its own.
fn crop(full: &Pixmap, (x, y, w, h): (f32, f32, f32, f32)) -> Result<Canvas, RenderError> {
    let mut c = Canvas::new(w as u32, h as u32)?;
    c.pixmap.draw_pixmap(
        -(x as i32),
        -(y as i32),
        full.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    Ok(c)
}

/// A fly: a dark body and two pale wings.
fn fly(c: &mut Canvas, x: f32, y: f32) {
    c.color(&oval(x - 5.0, y - 5.0, 6.0, 3.5), rgba(0xdfe8f0, 200));
    c.color(&oval(x + 5.0, y - 5.0, 6.0, 3.5), rgba(0xdfe8f0, 200));
    c.color(&oval(x, y, 5.0, 4.0), rgba(0x15171a, 255));
}

// --- wanted ---

const PAPER_INK: u32 = 0x3a2212;

/// The poster: aged paper with grain, stains and burnt edges, a double
/// border, "WANTED", "DEAD OR ALIVE", the portrait's frame and the
/// sheriff's line at the foot.
pub(super) fn wanted_poster() -> Result<Canvas, RenderError> {
    let (w, h) = (600.0, 800.0);
    let mut c = Canvas::new(600, 800)?;
    // The wooden wall behind the poster's torn edge.
    c.color(&rect_path(0.0, 0.0, w, h), rgba(0x3b2616, 255));
    let sheet = poly(&[
        (6.0, 10.0),
        (150.0, 4.0),
        (300.0, 9.0),
        (450.0, 3.0),
        (594.0, 8.0),
        (597.0, 200.0),
        (592.0, 420.0),
        (598.0, 640.0),
        (594.0, 794.0),
        (420.0, 797.0),
        (260.0, 792.0),
        (110.0, 798.0),
        (5.0, 793.0),
        (9.0, 560.0),
        (3.0, 300.0),
    ]);
    c.fill(
        &sheet,
        &shader_paint(radial(
            300.0,
            380.0,
            520.0,
            &[
                (0.0, rgba(0xf1dfb4, 255)),
                (0.6, rgba(0xe2c68e, 255)),
                (1.0, rgba(0xb8894e, 255)),
            ],
        )),
    );
    // Grain, fibres and stains.
    let mut rng = Lcg(1881);
    for _ in 0..1600 {
        let (x, y) = (
            10.0 + rng.next() * (w - 20.0),
            10.0 + rng.next() * (h - 20.0),
        );
        let dark = rng.next() < 0.6;
        let a = (10.0 + rng.next() * 26.0) as u8;
        let hex = if dark { 0x6b4a24 } else { 0xfff6dc };
        c.color(&circle_path(x, y, 0.6 + rng.next() * 1.4), rgba(hex, a));
    }
    for _ in 0..60 {
        let (x, y) = (
            20.0 + rng.next() * (w - 40.0),
            20.0 + rng.next() * (h - 40.0),
        );
        let (dx, dy) = (rng.next() * 40.0 - 20.0, rng.next() * 6.0 - 3.0);
        c.stroke(&segment((x, y), (x + dx, y + dy)), rgba(0x7a5530, 22), 1.0);
    }
    for (x, y, r, a) in [
        (90.0, 130.0, 70.0, 40),
        (520.0, 560.0, 90.0, 36),
        (470.0, 90.0, 50.0, 30),
        (120.0, 700.0, 80.0, 34),
    ] {
        c.glow(x, y, r, 0x8a5a22, a);
    }
    // Burnt edge.
    c.stroke(&sheet, rgba(0x5a3818, 150), 10.0);
    c.stroke(&sheet, rgba(0x2e1a0a, 200), 3.0);
    // Double border.
    c.stroke(
        &rect_path(26.0, 28.0, w - 52.0, h - 56.0),
        rgba(PAPER_INK, 200),
        4.0,
    );
    c.stroke(
        &rect_path(36.0, 38.0, w - 72.0, h - 76.0),
        rgba(PAPER_INK, 150),
        1.5,
    );
    // Nails at the corners.
    for (x, y) in [
        (50.0, 52.0),
        (w - 50.0, 52.0),
        (50.0, h - 52.0),
        (w - 50.0, h - 52.0),
    ] {
        c.color(&circle_path(x + 1.5, y + 2.0, 7.0), rgba(0x000000, 60));
        c.fill(
            &circle_path(x, y, 6.5),
            &shader_paint(radial(
                x - 2.0,
                y - 2.0,
                8.0,
                &[(0.0, rgba(0xc9c4bb, 255)), (1.0, rgba(0x4a4036, 255))],
            )),
        );
    }
    // "WANTED", slightly worn.
    let title = TextStyle::new(FontFace::Meme, 132.0)
        .color(text_rgb(PAPER_INK))
        .align(Align::Center)
        .valign(VAlign::Middle);
    c.text(
        "WANTED",
        &title,
        TextBox::new(40.0, 40.0, w - 80.0, 140.0),
        40.0,
    )?;
    let mut rng = Lcg(77);
    for _ in 0..260 {
        let (x, y) = (60.0 + rng.next() * (w - 120.0), 60.0 + rng.next() * 100.0);
        c.color(
            &circle_path(x, y, 0.8 + rng.next() * 1.8),
            rgba(0xe7cf9e, (120.0 + rng.next() * 100.0) as u8),
        );
    }
    // "DEAD OR ALIVE" between rules.
    let sub = TextStyle::new(FontFace::Bold, 34.0)
        .color(text_rgb(PAPER_INK))
        .align(Align::Center)
        .valign(VAlign::Middle);
    c.text(
        "DEAD OR ALIVE",
        &sub,
        TextBox::new(130.0, 172.0, w - 260.0, 44.0),
        16.0,
    )?;
    for (x0, x1) in [(60.0, 150.0), (w - 150.0, w - 60.0)] {
        c.stroke(
            &segment((x0, 192.0), (x1, 192.0)),
            rgba(PAPER_INK, 220),
            3.0,
        );
        c.stroke(
            &segment((x0 + 10.0, 200.0), (x1 - 10.0, 200.0)),
            rgba(PAPER_INK, 160),
            1.5,
        );
    }
    // The portrait's frame and shadow.
    let (px, py, ps) = WANTED_PHOTO;
    c.shadow(&rect_path(px, py, ps, ps), 4.0, 8.0, 70);
    c.color(
        &rect_path(px - 10.0, py - 10.0, ps + 20.0, ps + 20.0),
        rgba(0x2c1a0c, 255),
    );
    c.stroke(
        &rect_path(px - 5.0, py - 5.0, ps + 10.0, ps + 10.0),
        rgba(0xb08850, 255),
        2.0,
    );
    // The sheriff's line at the foot.
    let foot = TextStyle::new(FontFace::Bold, 17.0)
        .color(text_rgb(0x5a3a20))
        .align(Align::Center)
        .valign(VAlign::Middle);
    c.text(
        "REPORT TO THE SHERIFF'S OFFICE",
        &foot,
        TextBox::new(60.0, 734.0, w - 120.0, 26.0),
        10.0,
    )?;
    Ok(c)
}

/// Wear over the portrait: grain, a fold and a soft dark rim, translucent.
pub(super) fn wanted_photo_age() -> Result<Canvas, RenderError> {
    let s = WANTED_PHOTO.2;
    let mut c = Canvas::new(s as u32, s as u32)?;
    c.fill_all(radial(
        s / 2.0,
        s / 2.0,
        s * 0.75,
        &[(0.6, rgba(0x2a1606, 0)), (1.0, rgba(0x2a1606, 80))],
    ));
    let mut rng = Lcg(1849);
    for _ in 0..500 {
        let (x, y) = (rng.next() * s, rng.next() * s);
        let hex = if rng.next() < 0.5 { 0xf5e6c4 } else { 0x3a2410 };
        c.color(
            &circle_path(x, y, 0.5 + rng.next()),
            rgba(hex, (20.0 + rng.next() * 40.0) as u8),
        );
    }
    // A fold across the middle.
    c.stroke(
        &segment((0.0, s * 0.52), (s, s * 0.49)),
        rgba(0xfff4d8, 60),
        2.0,
    );
    c.stroke(
        &segment((0.0, s * 0.52 + 2.0), (s, s * 0.49 + 2.0)),
        rgba(0x3a2410, 40),
        1.5,
    );
    Ok(c)
}

/// The ornament in place of a blank name: a rule, a diamond, a rule.
pub(super) fn wanted_rule() -> Result<Canvas, RenderError> {
    let mut c = Canvas::new(360, 24)?;
    c.stroke(
        &segment((6.0, 12.0), (160.0, 12.0)),
        rgba(PAPER_INK, 220),
        3.0,
    );
    c.stroke(
        &segment((200.0, 12.0), (354.0, 12.0)),
        rgba(PAPER_INK, 220),
        3.0,
    );
    c.color(
        &poly(&[(180.0, 2.0), (192.0, 12.0), (180.0, 22.0), (168.0, 12.0)]),
        rgba(PAPER_INK, 255),
    );
    Ok(c)
}

// --- rip ---

const STONE: u32 = 0x8d939a;
const STONE_DARK: u32 = 0x5d636a;

/// The gravestone's outline: a rectangle with a half-circle top.
fn stone_path(inset: f32) -> tiny_skia::Path {
    let (x, y, w, h) = RIP_STONE;
    let (x, y, w, h) = (x + inset, y + inset, w - 2.0 * inset, h - 2.0 * inset);
    let r = w / 2.0;
    let mut pb = PathBuilder::new();
    pb.move_to(x, y + h);
    pb.line_to(x, y + r);
    // A half circle from the left to the right, as two quarter arcs.
    let k = 0.552_284_8 * r;
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.cubic_to(x + r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h);
    pb.close();
    pb.finish().expect("stone")
}

/// The scene of `rip`: a dusk sky, a hill, the stone with its oval and
/// "RIP" engraved, grass and flowers at its foot.
pub(super) fn rip_scene() -> Result<Canvas, RenderError> {
    let (w, h) = (700.0, 800.0);
    let mut c = Canvas::backdrop(
        700,
        800,
        (0.0, 640.0),
        &[
            (0.0, rgba(0x3d4a6b, 255)),
            (0.6, rgba(0x8b8fa8, 255)),
            (1.0, rgba(0xe0c3a8, 255)),
        ],
    )?;
    c.glow(560.0, 150.0, 60.0, 0xfff7e0, 120);
    c.color(&circle_path(560.0, 150.0, 30.0), rgba(0xf7f1de, 235));
    // Far hills and the near one.
    c.color(
        &crate::paint::ground(600.0, (200.0, 540.0), (420.0, 600.0), (w, 560.0), h),
        rgba(0x4f6b4a, 255),
    );
    c.fill(
        &crate::paint::ground(660.0, (220.0, 630.0), (480.0, 640.0), (w, 670.0), h),
        &shader_paint(linear(
            0.0,
            630.0,
            0.0,
            h,
            &[(0.0, rgba(0x5f8f4a, 255)), (1.0, rgba(0x2f5527, 255))],
        )),
    );
    // The stone, its shadow and bevel.
    let (sx, sy, sw, sh) = RIP_STONE;
    c.color(
        &oval(sx + sw / 2.0 + 30.0, sy + sh - 4.0, sw * 0.62, 26.0),
        rgba(0x000000, 70),
    );
    let stone = stone_path(0.0);
    c.fill(
        &stone,
        &shader_paint(linear(
            sx,
            sy,
            sx + sw,
            sy + sh,
            &[(0.0, rgba(0xa9aeb4, 255)), (1.0, rgba(0x6e747b, 255))],
        )),
    );
    let mut rng = Lcg(1999);
    for _ in 0..900 {
        let (x, y) = (sx + rng.next() * sw, sy + rng.next() * sh);
        let hex = if rng.next() < 0.5 { 0x4d5258 } else { 0xd4d8dc };
        c.color(
            &circle_path(x, y, 0.6 + rng.next() * 1.3),
            rgba(hex, (30.0 + rng.next() * 50.0) as u8),
        );
    }
    // Moss creeping up from the foot.
    for _ in 0..90 {
        let x = sx + rng.next() * sw;
        let y = sy + sh - rng.next().powi(2) * 120.0;
        c.color(
            &circle_path(x, y, 1.5 + rng.next() * 3.5),
            rgba(0x5f7a3a, (25.0 + rng.next() * 35.0) as u8),
        );
    }
    c.stroke(&stone_path(14.0), rgba(0xc6cacf, 150), 2.0);
    c.stroke(&stone_path(16.0), rgba(STONE_DARK, 150), 2.0);
    c.stroke(&stone, rgba(0x4a4f55, 255), 3.0);
    // "RIP", engraved: a dark cut with light on its lower edge.
    let rip = TextStyle::new(FontFace::Meme, 88.0)
        .align(Align::Center)
        .valign(VAlign::Middle);
    let area = TextBox::new(sx + 40.0, 398.0, sw - 80.0, 96.0);
    c.text(
        "R I P",
        &rip.color(text_rgb(0xdfe2e6)),
        TextBox::new(area.x, area.y + 2.5, area.width, area.height),
        40.0,
    )?;
    c.text("R I P", &rip.color(text_rgb(0x33373c)), area, 40.0)?;
    // A small engraved rosette above the oval.
    let cx = sx + sw / 2.0;
    for k in 0..6 {
        let a = k as f32 * std::f32::consts::TAU / 6.0;
        let (px, py) = (cx + 8.0 * a.cos(), 142.0 + 8.0 * a.sin());
        c.color(&circle_path(px, py + 1.0, 5.5), rgba(0xdfe2e6, 160));
        c.color(&circle_path(px, py, 5.5), rgba(0x3a3e44, 200));
    }
    c.color(&circle_path(cx, 142.0, 4.0), rgba(0x8d939a, 255));
    // Grass blades along the stone's foot and the hill.
    let mut rng = Lcg(24);
    for i in 0..260 {
        let x = i as f32 * (w / 260.0) + rng.next() * 3.0;
        let base = if (sx - 10.0..sx + sw + 10.0).contains(&x) {
            sy + sh + 8.0
        } else {
            690.0 + rng.next() * 20.0
        };
        let tall = 14.0 + rng.next() * 26.0;
        let lean = rng.next() * 12.0 - 6.0;
        let hex = if rng.next() < 0.5 { 0x3f7a34 } else { 0x6fa84f };
        c.stroke(
            &segment((x, base), (x + lean, base - tall)),
            rgba(hex, 255),
            2.5,
        );
    }
    // Flowers at the foot.
    for (fx, hex) in [
        (sx + 40.0, 0xf4d35e),
        (sx + 70.0, 0xffffff),
        (sx + sw - 60.0, 0xe76f51),
        (sx + sw - 32.0, 0xf4d35e),
    ] {
        let fy = sy + sh - 6.0;
        c.stroke(
            &segment((fx, fy + 24.0), (fx, fy)),
            rgba(0x2f6b2a, 255),
            3.0,
        );
        for k in 0..5 {
            let a = k as f32 * std::f32::consts::TAU / 5.0;
            c.color(
                &circle_path(fx + 7.0 * a.cos(), fy + 7.0 * a.sin(), 5.0),
                rgba(hex, 255),
            );
        }
        c.color(&circle_path(fx, fy, 4.0), rgba(0xb5651d, 255));
    }
    Ok(c)
}

/// The stone again over the avatar's square, with the oval window cut
/// out and an engraved rim around it.
pub(super) fn rip_oval() -> Result<Canvas, RenderError> {
    let scene = rip_scene()?;
    let (px, py, s) = RIP_PHOTO;
    let mut c = crop(&scene.pixmap, (px, py, s, s))?;
    let (rx, ry) = (RIP_OVAL.0 / 2.0, RIP_OVAL.1 / 2.0);
    let (cx, cy) = (s / 2.0, s / 2.0);
    cut(&mut c, &oval(cx, cy, rx, ry));
    // An inner shadow at the window's top, the rim and its light edge.
    c.stroke(
        &oval(cx, cy + 1.0, rx - 3.0, ry - 3.0),
        rgba(0x000000, 70),
        6.0,
    );
    c.stroke(
        &oval(cx, cy, rx + 4.0, ry + 4.0),
        rgba(STONE_DARK, 255),
        6.0,
    );
    c.stroke(
        &oval(cx, cy + 1.5, rx + 9.0, ry + 9.0),
        rgba(0xd9dde1, 200),
        2.0,
    );
    c.stroke(&oval(cx, cy, rx + 8.0, ry + 8.0), rgba(STONE, 255), 1.0);
    Ok(c)
}

// --- trash ---

/// The alley: a brick wall, the pavement, the bin's shadow and dark
/// inside, the lid thrown down, bags and flies.
pub(super) fn trash_alley() -> Result<Canvas, RenderError> {
    let (w, h) = (800.0, 800.0);
    let mut c = Canvas::new(800, 800)?;
    c.color(&rect_path(0.0, 0.0, w, 600.0), rgba(0x7a3b2e, 255));
    let mut rng = Lcg(404);
    let (bw, bh) = (80.0, 36.0);
    for row in 0..17 {
        let y = row as f32 * bh;
        let off = if row % 2 == 0 { 0.0 } else { bw / 2.0 };
        for col in -1..11 {
            let x = col as f32 * bw + off;
            let shade = 0x8a4636 + ((rng.next() * 3.0) as u32) * 0x060303;
            c.color(
                &rrect_path(x + 3.0, y + 3.0, bw - 6.0, bh - 6.0, 3.0),
                rgba(shade, 255),
            );
        }
    }
    c.fill_all(radial(
        400.0,
        260.0,
        620.0,
        &[(0.3, rgba(0x000000, 0)), (1.0, rgba(0x000000, 170))],
    ));
    // Pavement.
    c.fill(
        &rect_path(0.0, 600.0, w, h - 600.0),
        &shader_paint(linear(
            0.0,
            600.0,
            0.0,
            h,
            &[(0.0, rgba(0x4a4d52, 255)), (1.0, rgba(0x2a2c30, 255))],
        )),
    );
    c.color(&rect_path(0.0, 596.0, w, 8.0), rgba(0x1c1d20, 255));
    // Bags leaning on the wall, tied at the top.
    for (x, y, r, hex) in [
        (110.0, 610.0, 92.0, 0x1d1f24),
        (190.0, 640.0, 70.0, 0x2a2d33),
        (680.0, 620.0, 88.0, 0x23262b),
    ] {
        let mut pb = PathBuilder::new();
        pb.move_to(x - 10.0, y - r * 0.8);
        pb.cubic_to(
            x - r * 1.3,
            y - r * 0.5,
            x - r * 1.1,
            y + r * 0.9,
            x,
            y + r * 0.85,
        );
        pb.cubic_to(
            x + r * 1.1,
            y + r * 0.9,
            x + r * 1.3,
            y - r * 0.5,
            x + 10.0,
            y - r * 0.8,
        );
        pb.close();
        let bag = pb.finish().expect("bag");
        c.color(&bag, rgba(hex, 255));
        c.stroke(&bag, rgba(0x0c0d10, 255), 2.0);
        c.color(
            &oval(x - r * 0.35, y - r * 0.2, r * 0.22, r * 0.1),
            rgba(0xffffff, 28),
        );
        // The knot and its two ears.
        let ky = y - r * 0.8;
        c.color(
            &poly(&[(x - 4.0, ky), (x - 22.0, ky - 22.0), (x - 6.0, ky - 16.0)]),
            rgba(hex, 255),
        );
        c.color(
            &poly(&[(x + 4.0, ky), (x + 22.0, ky - 20.0), (x + 6.0, ky - 15.0)]),
            rgba(hex, 255),
        );
        c.color(&circle_path(x, ky - 2.0, 7.0), rgba(0x0c0d10, 255));
    }
    // Litter on the pavement.
    for (x, y, r) in [
        (560.0, 770.0, 14.0),
        (740.0, 740.0, 11.0),
        (300.0, 785.0, 9.0),
    ] {
        c.color(&circle_path(x, y, r), rgba(0xe8e4d8, 255));
        c.stroke(
            &segment((x - r * 0.6, y - r * 0.2), (x + r * 0.5, y + r * 0.3)),
            rgba(0x9a968c, 255),
            1.5,
        );
        c.stroke(
            &segment((x - r * 0.2, y + r * 0.6), (x + r * 0.3, y - r * 0.5)),
            rgba(0x9a968c, 255),
            1.5,
        );
    }
    // The bin's shadow and its dark inside, behind the avatar.
    let (bx, rim_y, rw, rh, bottom, _) = TRASH_BIN;
    c.color(
        &oval(bx + 30.0, bottom, rw + 40.0, 28.0),
        rgba(0x000000, 110),
    );
    c.fill(
        &oval(bx, rim_y, rw - 6.0, rh - 6.0),
        &shader_paint(radial(
            bx,
            rim_y + 20.0,
            rw,
            &[(0.0, rgba(0x050505, 255)), (1.0, rgba(0x2a2c2f, 255))],
        )),
    );
    // Stink lines above the bin.
    for (x, s) in [(180.0, 1.0), (620.0, -1.0), (660.0, -1.0)] {
        let mut pb = PathBuilder::new();
        pb.move_to(x, 360.0);
        pb.cubic_to(x + 18.0 * s, 330.0, x - 18.0 * s, 300.0, x, 270.0);
        pb.cubic_to(x + 18.0 * s, 240.0, x - 18.0 * s, 220.0, x, 190.0);
        c.stroke(&pb.finish().expect("stink"), rgba(0xb5d86a, 150), 6.0);
    }
    for (x, y) in [
        (150.0, 180.0),
        (640.0, 150.0),
        (590.0, 230.0),
        (210.0, 250.0),
    ] {
        fly(&mut c, x, y);
    }
    // The lid, dropped on the pavement at the left.
    let lid = oval(0.0, 0.0, 130.0, 30.0);
    let t = Transform::from_translate(150.0, 740.0).pre_rotate(-8.0);
    c.fill_t(
        &lid,
        &shader_paint(linear(
            -130.0,
            0.0,
            130.0,
            0.0,
            &[
                (0.0, rgba(0x5e646b, 255)),
                (0.45, rgba(0xc9ced4, 255)),
                (1.0, rgba(0x50555b, 255)),
            ],
        )),
        t,
    );
    c.stroke_t(&lid, rgba(0x2a2d31, 255), 3.0, t);
    c.fill_t(
        &rrect_path(-26.0, -40.0, 52.0, 18.0, 8.0),
        &paint(rgba(0x3a3e43, 255)),
        t,
    );
    Ok(c)
}

/// The bin's front over the avatar, in the box [`TRASH_FRONT`]: the
/// corrugated body, its dents, the front of the rim and a banana peel.
pub(super) fn trash_bin() -> Result<Canvas, RenderError> {
    let (ox, oy, fw, fh) = TRASH_FRONT;
    let mut c = Canvas::new(fw as u32, fh as u32)?;
    let t = Transform::from_translate(-ox, -oy);
    let (bx, rim_y, rw, rh, bottom, bot_w) = TRASH_BIN;
    // The body: from the rim's front half down to the bottom.
    let mut pb = PathBuilder::new();
    pb.move_to(bx - rw + 6.0, rim_y);
    pb.quad_to(bx, rim_y + 2.0 * rh, bx + rw - 6.0, rim_y);
    pb.line_to(bx + bot_w, bottom);
    pb.quad_to(bx, bottom + 36.0, bx - bot_w, bottom);
    pb.close();
    let body = pb.finish().expect("bin body");
    let metal = [
        (0.0, rgba(0x4a5057, 255)),
        (0.25, rgba(0x9aa1a8, 255)),
        (0.4, rgba(0xdfe3e7, 255)),
        (0.6, rgba(0x8a9199, 255)),
        (1.0, rgba(0x3a3f45, 255)),
    ];
    c.fill_t(
        &body,
        &shader_paint(linear(bx - rw, 0.0, bx + rw, 0.0, &metal)),
        t,
    );
    // Corrugation: vertical ribs following the taper.
    for i in 1..10 {
        let f = i as f32 / 10.0;
        let top_x = bx - rw + 6.0 + f * (2.0 * rw - 12.0);
        let bot_x = bx - bot_w + f * 2.0 * bot_w;
        let dip = (1.0 - (2.0 * f - 1.0).powi(2)) * rh;
        c.stroke_t(
            &segment((top_x, rim_y + dip + 10.0), (bot_x, bottom + dip * 0.7)),
            rgba(0x2c3035, 110),
            3.0,
            t,
        );
        c.stroke_t(
            &segment(
                (top_x + 5.0, rim_y + dip + 10.0),
                (bot_x + 4.0, bottom + dip * 0.7),
            ),
            rgba(0xffffff, 60),
            2.0,
            t,
        );
    }
    // Two hoops round the body.
    for (k, y) in [(0.3f32, 0.0f32), (0.75, 0.0)] {
        let yy = rim_y + k * (bottom - rim_y) + y;
        let half = rw - 6.0 + k * (bot_w - rw + 6.0);
        let mut pb = PathBuilder::new();
        pb.move_to(bx - half, yy);
        pb.quad_to(bx, yy + 2.0 * rh * (1.0 - k * 0.3), bx + half, yy);
        let hoop = pb.finish().expect("hoop");
        c.stroke_t(&hoop, rgba(0x2a2e33, 255), 9.0, t);
        c.stroke_t(&hoop, rgba(0xc3c8ce, 200), 3.0, t.pre_translate(0.0, -2.0));
    }
    // A dent.
    c.fill_t(
        &oval(bx + 70.0, rim_y + 170.0, 34.0, 22.0),
        &shader_paint(radial(
            bx + 78.0,
            rim_y + 176.0,
            36.0,
            &[(0.0, rgba(0x1c1f23, 110)), (1.0, rgba(0x1c1f23, 0))],
        )),
        t,
    );
    c.stroke_t(&body, rgba(0x22262a, 255), 4.0, t);
    // The rim's front half.
    let mut pb = PathBuilder::new();
    pb.move_to(bx - rw, rim_y);
    pb.quad_to(bx, rim_y + 2.0 * rh + 4.0, bx + rw, rim_y);
    let rim = pb.finish().expect("rim");
    c.stroke_t(&rim, rgba(0x2a2e33, 255), 16.0, t);
    c.stroke_t(&rim, rgba(0xd7dbe0, 255), 8.0, t);
    c.stroke_t(&rim, rgba(0xffffff, 160), 2.0, t.pre_translate(0.0, -3.0));
    // Handles.
    for s in [-1.0f32, 1.0] {
        let hx = bx + s * (rw - 16.0);
        c.stroke_t(
            &rrect_path(hx - 24.0, rim_y + 44.0, 48.0, 22.0, 10.0),
            rgba(0x2a2e33, 255),
            6.0,
            t,
        );
    }
    // A fish bone hanging over the rim.
    let (fx, fy) = (bx + 110.0, rim_y + 30.0);
    let ft = t.pre_translate(fx, fy).pre_rotate(64.0);
    c.stroke_t(
        &segment((0.0, 0.0), (70.0, 0.0)),
        rgba(0xf1ede2, 255),
        4.0,
        ft,
    );
    for k in 0..5 {
        let x = 12.0 + k as f32 * 11.0;
        let h = 14.0 - k as f32 * 1.5;
        c.stroke_t(
            &segment((x, -h), (x + 4.0, h)),
            rgba(0xf1ede2, 255),
            2.5,
            ft,
        );
    }
    c.fill_t(
        &oval(-10.0, 0.0, 12.0, 9.0),
        &paint(rgba(0xf1ede2, 255)),
        ft,
    );
    c.fill_t(
        &circle_path(-13.0, -2.0, 2.0),
        &paint(rgba(0x222222, 255)),
        ft,
    );
    c.fill_t(
        &poly(&[(70.0, 0.0), (86.0, -12.0), (86.0, 12.0)]),
        &paint(rgba(0xf1ede2, 255)),
        ft,
    );
    let _ = (ox, oy);
    Ok(c)
}

// --- delete ---

/// The desktop and the dialog: a title bar, the file icon's page (the
/// avatar is its thumbnail), the question, details and the two buttons,
/// the pointer on "Delete".
pub(super) fn delete_dialog() -> Result<Canvas, RenderError> {
    let mut c = Canvas::backdrop(
        800,
        480,
        (800.0, 480.0),
        &[(0.0, rgba(0x2b6cb0, 255)), (1.0, rgba(0x5a3d8a, 255))],
    )?;
    c.glow(140.0, 420.0, 300.0, 0x7dd3fc, 60);
    c.glow(700.0, 60.0, 260.0, 0xf0abfc, 50);
    let (x, y, w, h) = DELETE_DIALOG;
    let window = rrect_path(x, y, w, h, 12.0);
    c.shadow(&window, 6.0, 14.0, 48);
    c.color(&window, rgba(0xf8fafc, 255));
    // Title bar.
    let mut bar = rrect_path(x, y, w, 46.0, 12.0);
    c.color(&bar, rgba(0xe2e8f0, 255));
    bar = rect_path(x, y + 30.0, w, 16.0);
    c.color(&bar, rgba(0xe2e8f0, 255));
    c.color(&rect_path(x, y + 46.0, w, 1.0), rgba(0xcbd5e1, 255));
    let title = TextStyle::new(FontFace::Bold, 19.0).color(text_rgb(0x334155));
    c.line("Delete File", &title, x + 52.0, y + 12.0, 300.0)?;
    // A bin glyph in the title bar.
    c.color(
        &rrect_path(x + 20.0, y + 16.0, 18.0, 20.0, 3.0),
        rgba(0xdc2626, 255),
    );
    c.color(
        &rect_path(x + 17.0, y + 12.0, 24.0, 4.0),
        rgba(0xdc2626, 255),
    );
    // Close cross.
    let (cx, cy) = (x + w - 28.0, y + 23.0);
    c.stroke(
        &segment((cx - 7.0, cy - 7.0), (cx + 7.0, cy + 7.0)),
        rgba(0x475569, 255),
        2.5,
    );
    c.stroke(
        &segment((cx + 7.0, cy - 7.0), (cx - 7.0, cy + 7.0)),
        rgba(0x475569, 255),
        2.5,
    );
    // The file icon: a page with a folded corner around the thumbnail.
    let (ix, iy, is) = DELETE_ICON;
    let page = poly(&[
        (ix - 16.0, iy - 16.0),
        (ix + is - 10.0, iy - 16.0),
        (ix + is + 16.0, iy + 10.0),
        (ix + is + 16.0, iy + is + 34.0),
        (ix - 16.0, iy + is + 34.0),
    ]);
    c.shadow(&page, 3.0, 5.0, 50);
    c.color(&page, rgba(0xffffff, 255));
    c.stroke(&page, rgba(0x94a3b8, 255), 2.0);
    c.color(
        &poly(&[
            (ix + is - 10.0, iy - 16.0),
            (ix + is - 10.0, iy + 10.0),
            (ix + is + 16.0, iy + 10.0),
        ]),
        rgba(0xcbd5e1, 255),
    );
    c.color(
        &rrect_path(ix - 2.0, iy + is + 8.0, 48.0, 18.0, 4.0),
        rgba(0x2563eb, 255),
    );
    let tag = TextStyle::new(FontFace::Bold, 12.0).color([255, 255, 255, 255]);
    c.line("PNG", &tag, ix + 9.0, iy + is + 9.0, 40.0)?;
    // The question and the details.
    let ask = TextStyle::new(FontFace::Bold, 28.0).color(text_rgb(0x0f172a));
    c.line("Delete this file?", &ask, 300.0, 140.0, 390.0)?;
    let body = TextStyle::new(FontFace::Regular, 18.0).color(text_rgb(0x475569));
    c.line("Type: Image", &body, 300.0, 236.0, 390.0)?;
    c.line("This action cannot be undone.", &body, 300.0, 262.0, 390.0)?;
    // Buttons.
    let by = y + h - 62.0;
    let delete = rrect_path(x + w - 300.0, by, 130.0, 42.0, 8.0);
    c.color(&delete, rgba(0xdc2626, 255));
    let cancel = rrect_path(x + w - 156.0, by, 130.0, 42.0, 8.0);
    c.color(&cancel, rgba(0xffffff, 255));
    c.stroke(&cancel, rgba(0x94a3b8, 255), 2.0);
    let label = TextStyle::new(FontFace::Bold, 19.0)
        .align(Align::Center)
        .valign(VAlign::Middle);
    c.text(
        "Delete",
        &label.color([255, 255, 255, 255]),
        TextBox::new(x + w - 300.0, by, 130.0, 42.0),
        10.0,
    )?;
    c.text(
        "Cancel",
        &label.color(text_rgb(0x1e293b)),
        TextBox::new(x + w - 156.0, by, 130.0, 42.0),
        10.0,
    )?;
    // The pointer, about to click "Delete".
    let (mx, my) = (x + w - 214.0, by + 24.0);
    let arrow = poly(&[
        (mx, my),
        (mx, my + 34.0),
        (mx + 8.0, my + 26.0),
        (mx + 15.0, my + 41.0),
        (mx + 21.0, my + 38.0),
        (mx + 14.0, my + 24.0),
        (mx + 25.0, my + 24.0),
    ]);
    c.shadow(&arrow, 2.0, 3.0, 60);
    c.color(&arrow, rgba(0xffffff, 255));
    c.stroke(&arrow, rgba(0x000000, 255), 2.0);
    Ok(c)
}

// --- beautiful ---

/// The gallery: a dark green wall with a spotlight, wainscoting, the gilded
/// frame around the painting, the plaque and a velvet rope.
pub(super) fn beautiful_gallery() -> Result<Canvas, RenderError> {
    let (w, h) = (800.0, 800.0);
    let mut c = Canvas::backdrop(
        800,
        800,
        (0.0, 800.0),
        &[(0.0, rgba(0x24463c, 255)), (1.0, rgba(0x163027, 255))],
    )?;
    // Damask: faint diamonds.
    for row in 0..14 {
        for col in 0..11 {
            let (x, y) = (
                col as f32 * 80.0 + if row % 2 == 0 { 0.0 } else { 40.0 },
                row as f32 * 50.0,
            );
            c.color(
                &poly(&[(x, y - 14.0), (x + 9.0, y), (x, y + 14.0), (x - 9.0, y)]),
                rgba(0xb6d4c0, 16),
            );
        }
    }
    // Wainscoting and floor.
    c.color(&rect_path(0.0, 690.0, w, 110.0), rgba(0x3b2a1c, 255));
    c.color(&rect_path(0.0, 686.0, w, 8.0), rgba(0xc9a45c, 255));
    c.color(&rect_path(0.0, 694.0, w, 3.0), rgba(0x1e140b, 200));
    for i in 0..5 {
        c.stroke(
            &rect_path(20.0 + i as f32 * 160.0, 712.0, 130.0, 70.0),
            rgba(0x251a10, 255),
            3.0,
        );
    }
    // The spotlight.
    c.fill_all(radial(
        400.0,
        300.0,
        460.0,
        &[
            (0.0, rgba(0xfff3d6, 70)),
            (0.5, rgba(0xfff3d6, 20)),
            (1.0, rgba(0x000000, 90)),
        ],
    ));
    let lamp = rrect_path(340.0, 18.0, 120.0, 20.0, 10.0);
    c.color(&lamp, rgba(0x1a1a1a, 255));
    c.color(&rect_path(396.0, 0.0, 8.0, 20.0), rgba(0x1a1a1a, 255));
    c.glow(400.0, 40.0, 60.0, 0xfff3d6, 160);
    // The gilded frame.
    let (px, py, ps) = BEAUTIFUL_PAINTING;
    let t = 52.0;
    let outer = rect_path(px - t, py - t, ps + 2.0 * t, ps + 2.0 * t);
    c.shadow(&outer, 14.0, 18.0, 120);
    let gold = [
        (0.0, rgba(0x7a5412, 255)),
        (0.3, rgba(0xf4d27a, 255)),
        (0.5, rgba(0xb88a2a, 255)),
        (0.7, rgba(0xfbe3a0, 255)),
        (1.0, rgba(0x6e4a10, 255)),
    ];
    c.fill(
        &outer,
        &shader_paint(linear(px - t, py - t, px + ps + t, py + ps + t, &gold)),
    );
    // Bevels: lit top and left, shaded bottom and right.
    let (x0, y0, x1, y1) = (px - t, py - t, px + ps + t, py + ps + t);
    let (i0, j0, i1, j1) = (px, py, px + ps, py + ps);
    c.color(
        &poly(&[(x0, y0), (x1, y0), (i1, j0), (i0, j0)]),
        rgba(0xfff2c4, 70),
    );
    c.color(
        &poly(&[(x0, y0), (i0, j0), (i0, j1), (x0, y1)]),
        rgba(0xfff2c4, 40),
    );
    c.color(
        &poly(&[(x1, y1), (x0, y1), (i0, j1), (i1, j1)]),
        rgba(0x3a2606, 80),
    );
    c.color(
        &poly(&[(x1, y1), (i1, j1), (i1, j0), (x1, y0)]),
        rgba(0x3a2606, 60),
    );
    // Beading along the middle of the frame.
    let mid = t / 2.0;
    let beads = 18;
    for k in 0..beads {
        let f = (k as f32 + 0.5) / beads as f32;
        for (bx, by) in [
            (x0 + f * (x1 - x0), y0 + mid),
            (x0 + f * (x1 - x0), y1 - mid),
            (x0 + mid, y0 + f * (y1 - y0)),
            (x1 - mid, y0 + f * (y1 - y0)),
        ] {
            c.color(&circle_path(bx + 0.8, by + 1.2, 3.6), rgba(0x4a3008, 110));
            c.color(&circle_path(bx, by, 3.2), rgba(0xe2bd62, 255));
        }
    }
    for (inset, hex, a, wd) in [
        (2.0, 0x4a3008, 255, 3.0),
        (t - 10.0, 0x5a3c0c, 200, 2.0),
        (t - 4.0, 0xfce9b0, 200, 2.0),
    ] {
        c.stroke(
            &rect_path(
                x0 + inset,
                y0 + inset,
                x1 - x0 - 2.0 * inset,
                y1 - y0 - 2.0 * inset,
            ),
            rgba(hex, a),
            wd,
        );
    }
    // Corner ornaments.
    for (cx, cy) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
        let r = 24.0;
        c.fill(
            &circle_path(cx, cy, r),
            &shader_paint(radial(
                cx - 6.0,
                cy - 6.0,
                r * 1.2,
                &[(0.0, rgba(0xfff0b8, 255)), (1.0, rgba(0x8a6014, 255))],
            )),
        );
        c.stroke(&circle_path(cx, cy, r), rgba(0x4a3008, 255), 2.0);
        c.color(&circle_path(cx, cy, 8.0), rgba(0xb88a2a, 255));
    }
    // The painting's shadow line inside the frame.
    c.color(
        &rect_path(i0 - 3.0, j0 - 3.0, ps + 6.0, ps + 6.0),
        rgba(0x2a1a04, 255),
    );
    // The plaque.
    let (qx, qy, qw, qh) = BEAUTIFUL_PLAQUE;
    let plaque = rrect_path(qx, qy, qw, qh, 6.0);
    c.shadow(&plaque, 3.0, 5.0, 90);
    c.fill(
        &plaque,
        &shader_paint(linear(
            qx,
            qy,
            qx + qw,
            qy + qh,
            &[
                (0.0, rgba(0xe9cd84, 255)),
                (0.5, rgba(0xc99f45, 255)),
                (1.0, rgba(0xa77a2a, 255)),
            ],
        )),
    );
    c.stroke(&plaque, rgba(0x6e4a10, 255), 2.0);
    for (sx, sy) in [
        (qx + 8.0, qy + 8.0),
        (qx + qw - 8.0, qy + 8.0),
        (qx + 8.0, qy + qh - 8.0),
        (qx + qw - 8.0, qy + qh - 8.0),
    ] {
        c.color(&circle_path(sx, sy, 2.5), rgba(0x6e4a10, 255));
    }
    let small = TextStyle::new(FontFace::Regular, 15.0)
        .color(text_rgb(0x3a2606))
        .align(Align::Center)
        .valign(VAlign::Middle);
    c.text(
        "Oil on canvas · on loan",
        &small,
        TextBox::new(qx + 12.0, qy + 52.0, qw - 24.0, 24.0),
        9.0,
    )?;
    // The velvet rope on brass posts, in front.
    for x in [70.0, 730.0] {
        c.color(&oval(x, 792.0, 40.0, 10.0), rgba(0x000000, 90));
        c.fill(
            &rrect_path(x - 9.0, 640.0, 18.0, 150.0, 6.0),
            &shader_paint(linear(
                x - 9.0,
                0.0,
                x + 9.0,
                0.0,
                &[
                    (0.0, rgba(0x8a6014, 255)),
                    (0.4, rgba(0xfbe3a0, 255)),
                    (1.0, rgba(0x6e4a10, 255)),
                ],
            )),
        );
        c.fill(
            &circle_path(x, 636.0, 16.0),
            &shader_paint(radial(
                x - 5.0,
                631.0,
                18.0,
                &[(0.0, rgba(0xfff0b8, 255)), (1.0, rgba(0x8a6014, 255))],
            )),
        );
    }
    let mut pb = PathBuilder::new();
    pb.move_to(84.0, 646.0);
    pb.quad_to(400.0, 800.0, 716.0, 646.0);
    let rope = pb.finish().expect("rope");
    c.stroke(&rope, rgba(0x3a0610, 255), 18.0);
    c.stroke(&rope, rgba(0x9b1b30, 255), 13.0);
    c.stroke_t(
        &rope,
        rgba(0xe0607a, 150),
        3.0,
        Transform::from_translate(0.0, -3.0),
    );
    let _ = h;
    Ok(c)
}

/// Over the painting: a varnish sheen and a soft shade from the frame.
pub(super) fn beautiful_varnish() -> Result<Canvas, RenderError> {
    let s = BEAUTIFUL_PAINTING.2;
    let mut c = Canvas::new(s as u32, s as u32)?;
    c.color(
        &poly(&[(0.0, 0.0), (s * 0.45, 0.0), (0.0, s * 0.45)]),
        rgba(0xffffff, 34),
    );
    c.fill_all(linear(
        0.0,
        0.0,
        0.0,
        s,
        &[
            (0.0, rgba(0x000000, 60)),
            (0.12, rgba(0x000000, 0)),
            (1.0, rgba(0x000000, 0)),
        ],
    ));
    c.stroke(&rect_path(0.0, 0.0, s, s), rgba(0x000000, 60), 6.0);
    Ok(c)
}

// --- stonks ---

/// The trading screen: a dark grid, climbing candles, a ticker strip and a
/// thick green arrow that starts behind the avatar and shoots up right.
pub(super) fn stonks_chart() -> Result<Canvas, RenderError> {
    let (w, h) = (800.0, 600.0);
    let mut c = Canvas::backdrop(
        800,
        600,
        (0.0, 600.0),
        &[(0.0, rgba(0x0b1d33, 255)), (1.0, rgba(0x040a14, 255))],
    )?;
    for i in 0..17 {
        let x = i as f32 * 50.0;
        c.color(&rect_path(x, 0.0, 1.0, h), rgba(0x5f8fbf, 34));
    }
    for i in 0..13 {
        let y = i as f32 * 50.0;
        c.color(&rect_path(0.0, y, w, 1.0), rgba(0x5f8fbf, 34));
    }
    // Candles, climbing with a wobble.
    let mut rng = Lcg(2021);
    let mut level = 470.0f32;
    for i in 0..26 {
        let x = 30.0 + i as f32 * 29.0;
        let step = 14.0 + rng.next() * 10.0;
        let up = i % 5 != 3;
        let (open, close) = if up {
            (level, level - step)
        } else {
            (level - step * 0.6, level)
        };
        level = if up { close } else { open - 4.0 };
        let (top, bot) = (open.min(close), open.max(close));
        let hex = if up { 0x22c55e } else { 0xef4444 };
        c.color(
            &rect_path(
                x + 8.0,
                top - 10.0 - rng.next() * 12.0,
                2.0,
                bot - top + 26.0,
            ),
            rgba(hex, 200),
        );
        c.color(
            &rect_path(x + 3.0, top, 12.0, (bot - top).max(3.0)),
            rgba(hex, 230),
        );
    }
    // The arrow: a zigzag shaft and a head at the top right.
    let pts = [
        (200.0, 420.0),
        (330.0, 300.0),
        (400.0, 350.0),
        (560.0, 190.0),
        (610.0, 230.0),
        (700.0, 120.0),
    ];
    let mut pb = PathBuilder::new();
    pb.move_to(pts[0].0, pts[0].1);
    for p in &pts[1..] {
        pb.line_to(p.0, p.1);
    }
    let shaft = pb.finish().expect("arrow");
    c.stroke_t(
        &shaft,
        rgba(0x000000, 120),
        40.0,
        Transform::from_translate(6.0, 8.0),
    );
    c.stroke(&shaft, rgba(0x0f5f2b, 255), 40.0);
    c.stroke(&shaft, rgba(0x22c55e, 255), 32.0);
    c.stroke(&shaft, rgba(0x86efac, 180), 6.0);
    let (tx, ty) = (760.0, 48.0);
    let head = poly(&[(tx, ty), (tx - 8.0, ty + 112.0), (tx - 112.0, ty + 8.0)]);
    c.fill_t(
        &head,
        &paint(rgba(0x000000, 120)),
        Transform::from_translate(6.0, 8.0),
    );
    c.color(&head, rgba(0x22c55e, 255));
    c.stroke(&head, rgba(0x0f5f2b, 255), 4.0);
    // The ticker strip.
    c.color(&rect_path(0.0, 0.0, w, 34.0), rgba(0x000000, 170));
    let tick = TextStyle::new(FontFace::Bold, 18.0).color(text_rgb(0x4ade80));
    c.line(
        "▲ +420.69%   ▲ +1337.00%   ▲ +9001.00%   ▲ +69.42%   ▲ +256.00%",
        &tick,
        12.0,
        6.0,
        w - 24.0,
    )?;
    // A soft light behind the avatar.
    let (ax, ay, s) = STONKS_AVATAR;
    c.glow(ax + s / 2.0, ay + s / 2.0, s * 0.75, 0x38bdf8, 70);
    c.shadow(
        &circle_path(ax + s / 2.0, ay + s / 2.0, s / 2.0),
        8.0,
        12.0,
        90,
    );
    c.color(
        &circle_path(ax + s / 2.0, ay + s / 2.0, s / 2.0 + 6.0),
        rgba(0xe2e8f0, 255),
    );
    Ok(c)
}
