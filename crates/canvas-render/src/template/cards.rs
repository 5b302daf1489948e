//! The welcome cards' own art: each template's panels, frames and
//! ornaments, drawn in code over the chosen background (which shows
//! through) and under the avatar and text. Each piece covers only its
//! region ([`region`]), so the cached pixmaps stay small.

use tiny_skia::{Color, Path, PathBuilder, Transform};

use super::rng::Lcg;
use crate::paint::{
    Canvas, circle_path, linear, poly, radial, rect_path, rgba, rrect_path, shader_paint,
};

/// The seven welcome cards' art, each drawn in code on a 1200×600 card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Card {
    Classic,
    Pill,
    Split,
    Ribbon,
    Polaroid,
    BottomBar,
    Badge,
}

impl Card {
    /// Where the card's art sits on the 1200×600 card: `(x, y, w, h)`.
    pub(super) const fn region(self) -> (f32, f32, f32, f32) {
        match self {
            Card::Classic => (150.0, 30.0, 900.0, 545.0),
            Card::Pill => (30.0, 100.0, 1140.0, 410.0),
            Card::Split => (80.0, 0.0, 1120.0, 600.0),
            Card::Ribbon => (0.0, 210.0, 1200.0, 370.0),
            Card::Polaroid => (60.0, 30.0, 1110.0, 540.0),
            Card::BottomBar => (0.0, 260.0, 1200.0, 340.0),
            Card::Badge => (0.0, 0.0, 1200.0, 600.0),
        }
    }
}

/// Draws in card coordinates on a canvas that holds only `region`.
struct Piece {
    c: Canvas,
    t: Transform,
}

impl Piece {
    fn fill(&mut self, path: &Path, shader: tiny_skia::Shader<'_>) {
        self.c.fill_t(path, &shader_paint(shader), self.t);
    }

    fn color(&mut self, path: &Path, color: Color) {
        self.c.fill_t(path, &crate::paint::paint(color), self.t);
    }

    fn stroke(&mut self, path: &Path, color: Color, width: f32) {
        self.c.stroke_t(path, color, width, self.t);
    }

    /// A soft shadow under `path`, `dy` below it, `blur` wide.
    fn shadow(&mut self, path: &Path, dy: f32, blur: f32, alpha: u8) {
        let t = self.t.pre_translate(0.0, dy);
        let steps = 8;
        for i in (1..=steps).rev() {
            let w = blur * i as f32 / steps as f32 * 2.0;
            let a = (f32::from(alpha) / steps as f32) as u8;
            self.c.stroke_t(path, Color::from_rgba8(0, 0, 0, a), w, t);
        }
        self.c.fill_t(
            path,
            &crate::paint::paint(Color::from_rgba8(0, 0, 0, alpha)),
            t,
        );
    }

    /// A ring of `width` around the circle `(cx, cy, r)`, filled with a
    /// top-to-bottom gradient `from` → `to`, over a soft shadow.
    fn ring(&mut self, (cx, cy, r): (f32, f32, f32), width: f32, from: u32, to: u32) {
        let outer = circle_path(cx, cy, r + width);
        self.shadow(&outer, 6.0, 10.0, 70);
        self.fill(
            &outer,
            linear(
                cx,
                cy - r,
                cx,
                cy + r,
                &[(0.0, rgba(from, 255)), (1.0, rgba(to, 255))],
            ),
        );
    }
}

/// The art of `card`, at its region's size.
pub(super) fn draw(card: Card) -> Canvas {
    let (x, y, w, h) = card.region();
    let c = Canvas::new(w as u32, h as u32).expect("fixed card region");
    let mut p = Piece {
        c,
        t: Transform::from_translate(-x, -y),
    };
    match card {
        Card::Classic => classic(&mut p),
        Card::Pill => pill(&mut p),
        Card::Split => split(&mut p),
        Card::Ribbon => ribbon(&mut p),
        Card::Polaroid => polaroid(&mut p),
        Card::BottomBar => bottom_bar(&mut p),
        Card::Badge => badge(&mut p),
    }
    p.c
}

/// 1: a centred glass panel with the avatar in a white ring on top.
fn classic(p: &mut Piece) {
    let panel = rrect_path(170.0, 50.0, 860.0, 505.0, 40.0);
    p.shadow(&panel, 10.0, 16.0, 50);
    p.fill(
        &panel,
        linear(
            0.0,
            50.0,
            0.0,
            555.0,
            &[(0.0, rgba(0x0b0f1c, 150)), (1.0, rgba(0x05070f, 185))],
        ),
    );
    p.stroke(&panel, rgba(0xffffff, 60), 1.5);
    // A thin divider under the title.
    p.fill(
        &rect_path(450.0, 382.0, 300.0, 2.0),
        linear(
            450.0,
            0.0,
            750.0,
            0.0,
            &[
                (0.0, rgba(0xffffff, 0)),
                (0.5, rgba(0xffffff, 150)),
                (1.0, rgba(0xffffff, 0)),
            ],
        ),
    );
    p.ring((600.0, 175.0, 110.0), 8.0, 0xffffff, 0xd9e0f5);
}

/// 2: a wide pill card, the avatar at its left end in a gradient ring.
fn pill(p: &mut Piece) {
    let card = rrect_path(50.0, 120.0, 1100.0, 360.0, 180.0);
    p.shadow(&card, 12.0, 18.0, 60);
    p.fill(
        &card,
        linear(
            50.0,
            120.0,
            1150.0,
            480.0,
            &[(0.0, rgba(0x141a2e, 215)), (1.0, rgba(0x0a0d18, 215))],
        ),
    );
    p.stroke(&card, rgba(0xffffff, 40), 2.0);
    p.ring((230.0, 300.0, 150.0), 10.0, 0x9fb4ff, 0xff8fd0);
    // An accent bar under the title.
    p.color(
        &rrect_path(440.0, 214.0, 64.0, 5.0, 2.5),
        rgba(0xffffff, 200),
    );
}

/// 3: a dark angled panel on the right with a gold edge; the avatar in a
/// white rounded frame on the left.
fn split(p: &mut Piece) {
    let panel = poly(&[(590.0, 0.0), (1200.0, 0.0), (1200.0, 600.0), (470.0, 600.0)]);
    p.fill(
        &panel,
        linear(
            600.0,
            0.0,
            1200.0,
            600.0,
            &[(0.0, rgba(0x0d1020, 232)), (1.0, rgba(0x06070f, 240))],
        ),
    );
    let edge = poly(&[(566.0, 0.0), (590.0, 0.0), (470.0, 600.0), (446.0, 600.0)]);
    p.fill(
        &edge,
        linear(
            0.0,
            0.0,
            0.0,
            600.0,
            &[(0.0, rgba(0xffd166, 255)), (1.0, rgba(0xf78c6b, 255))],
        ),
    );
    let frame = rrect_path(98.0, 138.0, 324.0, 324.0, 72.0);
    p.shadow(&frame, 10.0, 14.0, 80);
    p.color(&frame, rgba(0xffffff, 255));
    // Corner ticks on the panel.
    for (x, y, dx, dy) in [(1160.0, 40.0, -1.0, 1.0), (1160.0, 560.0, -1.0, -1.0)] {
        let mut pb = PathBuilder::new();
        pb.move_to(x + dx * 40.0, y);
        pb.line_to(x, y);
        pb.line_to(x, y + dy * 40.0);
        if let Some(path) = pb.finish() {
            p.stroke(&path, rgba(0xffd166, 200), 3.0);
        }
    }
}

/// 4: a dark ribbon across the card with fine rules, the avatar in a
/// thick white ring breaking through it.
fn ribbon(p: &mut Piece) {
    let band = rect_path(0.0, 300.0, 1200.0, 190.0);
    p.fill(
        &band,
        linear(
            0.0,
            0.0,
            1200.0,
            0.0,
            &[
                (0.0, rgba(0x000000, 205)),
                (0.7, rgba(0x000000, 170)),
                (1.0, rgba(0x000000, 110)),
            ],
        ),
    );
    for y in [292.0, 496.0] {
        p.color(&rect_path(0.0, y, 1200.0, 2.0), rgba(0xffffff, 150));
    }
    for y in [300.0, 488.0] {
        p.color(&rect_path(0.0, y, 1200.0, 2.0), rgba(0xffffff, 60));
    }
    p.ring((250.0, 395.0, 160.0), 12.0, 0xffffff, 0xe6e6e6);
}

/// 5: an instant photo, tilted, with a strip of tape; a soft panel for the
/// text.
fn polaroid(p: &mut Piece) {
    let tilt = Transform::from_rotate_at(-4.0, 310.0, 300.0);
    let frame = rrect_path(120.0, 80.0, 380.0, 440.0, 6.0);
    let t = p.t;
    p.t = t.pre_concat(tilt);
    p.shadow(&frame, 12.0, 16.0, 80);
    p.fill(
        &frame,
        linear(
            0.0,
            80.0,
            0.0,
            520.0,
            &[(0.0, rgba(0xfffdf7, 255)), (1.0, rgba(0xf1ece0, 255))],
        ),
    );
    // The photo's well, seen where the avatar does not cover it.
    p.color(&rect_path(146.0, 106.0, 328.0, 328.0), rgba(0x2a2a2a, 255));
    // A hand-drawn underline in the white margin.
    let mut pb = PathBuilder::new();
    pb.move_to(200.0, 478.0);
    pb.cubic_to(260.0, 466.0, 330.0, 490.0, 420.0, 470.0);
    if let Some(path) = pb.finish() {
        p.stroke(&path, rgba(0x3b5bdb, 180), 3.0);
    }
    // Tape across the top edge.
    let tape = Transform::from_rotate_at(3.0, 310.0, 80.0);
    p.t = t.pre_concat(tilt).pre_concat(tape);
    p.color(&rect_path(250.0, 62.0, 120.0, 36.0), rgba(0xfff3b0, 170));
    p.t = t;
    let panel = rrect_path(560.0, 110.0, 590.0, 380.0, 28.0);
    p.fill(
        &panel,
        linear(
            560.0,
            0.0,
            1150.0,
            0.0,
            &[(0.0, rgba(0x120c08, 170)), (1.0, rgba(0x120c08, 120))],
        ),
    );
    p.stroke(&panel, rgba(0xf0e6d2, 60), 1.5);
}

/// 6: a rounded dark card along the bottom under the lines of text, the
/// avatar in a ring at its left end.
fn bottom_bar(p: &mut Piece) {
    // A dark glass card only under the name, server and count: the rest
    // of the background keeps its own colours.
    let card = rrect_path(322.0, 398.0, 846.0, 168.0, 30.0);
    p.shadow(&card, 8.0, 12.0, 45);
    p.fill(
        &card,
        linear(
            0.0,
            398.0,
            0.0,
            566.0,
            &[(0.0, rgba(0x10142a, 200)), (1.0, rgba(0x05060c, 215))],
        ),
    );
    p.stroke(&card, rgba(0xffffff, 70), 1.5);
    p.ring((190.0, 410.0, 120.0), 9.0, 0xffffff, 0xdfe3ea);
    p.color(&rect_path(350.0, 498.0, 790.0, 1.5), rgba(0xffffff, 50));
}

/// 7: a dark badge with a gold border, confetti around it and the avatar
/// in a gold ring on its top edge.
fn badge(p: &mut Piece) {
    let mut rng = Lcg(77);
    let colours = [0xff6b6b, 0xffd166, 0x06d6a0, 0x4cc9f0, 0xc77dff, 0xff8fab];
    for i in 0..46 {
        let (x, y) = (rng.next() * 1200.0, rng.next() * 600.0);
        if (200.0..1000.0).contains(&x) && (120.0..580.0).contains(&y) {
            continue;
        }
        let t = p.t;
        p.t = t.pre_concat(Transform::from_rotate_at(rng.next() * 180.0, x, y));
        let hex = colours[i % colours.len()];
        if i % 3 == 0 {
            p.color(&circle_path(x, y, 5.0), rgba(hex, 230));
        } else {
            p.color(
                &rrect_path(x - 9.0, y - 4.0, 18.0, 8.0, 2.0),
                rgba(hex, 230),
            );
        }
        p.t = t;
    }
    let card = rrect_path(230.0, 150.0, 740.0, 410.0, 32.0);
    p.shadow(&card, 14.0, 18.0, 90);
    p.fill(
        &card,
        linear(
            0.0,
            150.0,
            0.0,
            560.0,
            &[(0.0, rgba(0x182040, 240)), (1.0, rgba(0x0b0f22, 245))],
        ),
    );
    p.stroke(&card, rgba(0xe8c170, 255), 3.0);
    p.stroke(
        &rrect_path(242.0, 162.0, 716.0, 386.0, 24.0),
        rgba(0xe8c170, 70),
        1.5,
    );
    p.fill(
        &circle_path(600.0, 150.0, 130.0),
        radial(
            600.0,
            150.0,
            130.0,
            &[(0.6, rgba(0xe8c170, 60)), (1.0, rgba(0xe8c170, 0))],
        ),
    );
    p.ring((600.0, 150.0, 100.0), 9.0, 0xf6dd9c, 0xc8963e);
}
