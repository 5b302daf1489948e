//! ID-card style scenes: `horny`, `simpcard` and the `namecard` profile card.

use tiny_skia::{Color, PathBuilder, Transform};

use std::sync::LazyLock;

use tiny_skia::Pixmap;

use crate::RenderError;
use crate::RgbaImage;
use crate::paint::{
    Avatar, Canvas, base_layer, circle_path, linear, poly, rect_path, rgba, rrect_path,
    shader_paint, text_rgb,
};
use crate::text::{FontFace, TextBox, TextStyle, VAlign};

#[derive(Clone, Copy)]
pub(super) enum Card {
    Horny,
    Simp,
}

/// A heart centred on `(cx, cy)`, `s` pixels wide.
pub(super) fn heart(cx: f32, cy: f32, s: f32) -> tiny_skia::Path {
    let h = s / 2.0;
    let mut pb = PathBuilder::new();
    pb.move_to(cx, cy + h * 0.9);
    pb.cubic_to(
        cx - h * 1.2,
        cy + h * 0.1,
        cx - h * 1.05,
        cy - h * 0.95,
        cx,
        cy - h * 0.45,
    );
    pb.cubic_to(
        cx + h * 1.05,
        cy - h * 0.95,
        cx + h * 1.2,
        cy + h * 0.1,
        cx,
        cy + h * 0.9,
    );
    pb.close();
    pb.finish().expect("heart path")
}

/// A five-pointed star.
pub(super) fn star(cx: f32, cy: f32, r: f32) -> tiny_skia::Path {
    let pts: Vec<(f32, f32)> = (0..10)
        .map(|i| {
            let a = std::f32::consts::PI * (i as f32 / 5.0) - std::f32::consts::FRAC_PI_2;
            let rr = if i % 2 == 0 { r } else { r * 0.45 };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    poly(&pts)
}

static HORNY_BASE: LazyLock<Pixmap> = LazyLock::new(|| base_layer(licence_base(Card::Horny)));
static SIMP_BASE: LazyLock<Pixmap> = LazyLock::new(|| base_layer(licence_base(Card::Simp)));

/// Photo square of the licence cards.
const PHOTO: (f32, f32, f32) = (48.0, 150.0, 300.0);

pub(super) fn licence(kind: Card, avatar: Option<&RgbaImage>) -> Result<Canvas, RenderError> {
    let mut c = Canvas::from_layer(match kind {
        Card::Horny => &HORNY_BASE,
        Card::Simp => &SIMP_BASE,
    });
    let (px, py, ps) = PHOTO;
    let av = Avatar::prepare(avatar, ps as u32, false)?;
    c.fill(
        &rrect_path(px, py, ps, ps, 14.0),
        &av.paint(px, py, ps, 0.0),
    );
    Ok(c)
}

/// Colours (gradient top, bottom, header band, ink, accent), title, subtitle
/// and the four label/value fields of a licence card.
type CardTheme = (
    u32,
    u32,
    u32,
    u32,
    u32,
    &'static str,
    &'static str,
    [(&'static str, &'static str); 4],
);

/// Everything of a licence card but the photo (drawn once, then cached).
fn licence_base(kind: Card) -> Result<Canvas, RenderError> {
    let (w, h) = (900.0, 560.0);
    let mut c = Canvas::new(900, 560)?;
    let (top, bottom, band, ink, accent, title, subtitle, fields): CardTheme = match kind {
        Card::Horny => (
            0xffc2de,
            0xff7fb6,
            0xe2407f,
            0x5a0f33,
            0xd81b60,
            "HORNY LICENSE",
            "Department of Bonk Affairs · Official Permit",
            [
                ("LICENSE NO.", "HL-0069-420"),
                ("CLASS", "A+ (unrestricted)"),
                ("ISSUED", "by popular demand"),
                ("EXPIRES", "never"),
            ],
        ),
        Card::Simp => (
            0xe3dcff,
            0xa99bff,
            0x5b45d6,
            0x23145e,
            0x6d4cff,
            "SIMP CARD",
            "International Simp Association · Member",
            [
                ("MEMBER NO.", "ISA-000-001"),
                ("RANK", "Ultimate Simp"),
                ("PERKS", "unlimited simping"),
                ("STATUS", "down bad, forever"),
            ],
        ),
    };
    let card = rrect_path(0.0, 0.0, w, h, 36.0);
    c.fill(
        &card,
        &shader_paint(linear(
            0.0,
            0.0,
            w * 0.4,
            h,
            &[(0.0, rgba(top, 255)), (1.0, rgba(bottom, 255))],
        )),
    );
    // Faint decorations.
    for (i, &(x, y, s)) in [
        (770.0, 170.0, 120.0),
        (840.0, 300.0, 60.0),
        (700.0, 470.0, 80.0),
        (330.0, 500.0, 50.0),
        (600.0, 150.0, 40.0),
    ]
    .iter()
    .enumerate()
    {
        let path = match kind {
            Card::Horny => heart(x, y, s),
            Card::Simp => star(x, y, s / 2.0),
        };
        c.color(
            &path,
            Color::from_rgba8(255, 255, 255, if i % 2 == 0 { 70 } else { 45 }),
        );
    }
    // Header band, clipped to the card's rounded top.
    let mut band_c = PathBuilder::new();
    band_c.move_to(0.0, 36.0);
    band_c.cubic_to(0.0, 16.0, 16.0, 0.0, 36.0, 0.0);
    band_c.line_to(w - 36.0, 0.0);
    band_c.cubic_to(w - 16.0, 0.0, w, 16.0, w, 36.0);
    band_c.line_to(w, 112.0);
    band_c.line_to(0.0, 112.0);
    band_c.close();
    let band_path = band_c.finish().expect("band");
    c.fill(
        &band_path,
        &shader_paint(linear(
            0.0,
            0.0,
            w,
            0.0,
            &[(0.0, rgba(band, 255)), (1.0, rgba(accent, 255))],
        )),
    );
    let emblem = match kind {
        Card::Horny => heart(64.0, 56.0, 54.0),
        Card::Simp => star(64.0, 56.0, 30.0),
    };
    c.color(&emblem, Color::WHITE);
    c.line(
        title,
        &TextStyle::new(FontFace::Bold, 50.0).color([255, 255, 255, 255]),
        108.0,
        8.0,
        760.0,
    )?;
    c.line(
        subtitle,
        &TextStyle::new(FontFace::Regular, 20.0).color([255, 255, 255, 220]),
        110.0,
        72.0,
        760.0,
    )?;

    // Photo with a white frame and a shadow.
    let (px, py, ps) = PHOTO;
    let frame = rrect_path(px - 10.0, py - 10.0, ps + 20.0, ps + 20.0, 22.0);
    c.shadow(&frame, 6.0, 10.0, 40);
    c.color(&frame, Color::WHITE);

    // Fields.
    let label = TextStyle::new(FontFace::Bold, 18.0).color(text_rgb(accent));
    let value = TextStyle::new(FontFace::Bold, 32.0).color(text_rgb(ink));
    for (i, (k, v)) in fields.iter().enumerate() {
        let y = 146.0 + i as f32 * 78.0;
        c.line(k, &label, 400.0, y, 460.0)?;
        c.line(v, &value, 400.0, y + 22.0, 460.0)?;
    }
    // Barcode and signature line.
    let mut x = 400.0;
    let mut seed: u32 = 0x9e37_79b9;
    while x < 700.0 {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let bw = 2.0 + (seed % 4) as f32;
        c.color(&rect_path(x, 470.0, bw, 50.0), rgba(ink, 230));
        x += bw + 2.0 + ((seed >> 8) % 4) as f32;
    }
    let mut sig = PathBuilder::new();
    sig.move_to(730.0, 505.0);
    sig.cubic_to(750.0, 470.0, 765.0, 520.0, 785.0, 490.0);
    sig.cubic_to(800.0, 470.0, 805.0, 515.0, 830.0, 495.0);
    sig.line_to(850.0, 492.0);
    c.stroke(&sig.finish().expect("sig"), rgba(ink, 200), 3.0);
    c.color(&rect_path(720.0, 514.0, 140.0, 2.0), rgba(ink, 160));
    // Card edge.
    c.stroke(&card, Color::from_rgba8(255, 255, 255, 120), 3.0);
    Ok(c)
}

static NAMECARD_BASE: LazyLock<Pixmap> = LazyLock::new(|| base_layer(namecard_base()));

/// Centre and radius of the namecard avatar.
const NAMECARD_AVATAR: (f32, f32, f32) = (380.0, 400.0, 230.0);

pub(super) fn namecard(
    avatar: Option<&RgbaImage>,
    username: &str,
    birthday: &str,
    description: &str,
) -> Result<Canvas, RenderError> {
    let mut c = Canvas::from_layer(&NAMECARD_BASE);
    let (cx, cy, r) = NAMECARD_AVATAR;
    let av = Avatar::prepare(avatar, (2.0 * r) as u32, false)?;
    c.fill(
        &circle_path(cx, cy, r),
        &av.paint(cx - r, cy - r, 2.0 * r, 0.0),
    );
    let x = 720.0;
    let tw = 860.0;
    let name_style = TextStyle::new(FontFace::Bold, 96.0)
        .color([255, 255, 255, 255])
        .valign(VAlign::Bottom);
    let name_box = TextBox::new(x, 120.0, tw, 140.0);
    c.text(username, &name_style.line_spacing(0.9), name_box, 36.0)?;
    let bday = if birthday.trim().is_empty() {
        "Birthday not set"
    } else {
        birthday
    };
    c.line(
        bday,
        &TextStyle::new(FontFace::Bold, 44.0).color([0xf5, 0xf3, 0xff, 255]),
        x + 72.0,
        312.0,
        tw - 72.0,
    )?;
    let desc_style = TextStyle::new(FontFace::Regular, 44.0)
        .color([0xe0, 0xe7, 0xff, 235])
        .line_spacing(1.1);
    c.text(
        description,
        &desc_style,
        TextBox::new(x, 410.0, tw, 280.0),
        20.0,
    )?;
    Ok(c)
}

/// The namecard without avatar and text (drawn once, then cached).
fn namecard_base() -> Result<Canvas, RenderError> {
    let (w, h) = (1680.0, 800.0);
    let mut c = Canvas::backdrop(
        1680,
        800,
        (w, h),
        &[
            (0.0, rgba(0x1e1b4b, 255)),
            (0.55, rgba(0x312e81, 255)),
            (1.0, rgba(0x0f766e, 255)),
        ],
    )?;
    // Soft glows.
    for &(x, y, r, col) in &[
        (260.0, 120.0, 520.0, 0x7c3aed),
        (1500.0, 720.0, 600.0, 0x14b8a6),
        (1200.0, 80.0, 300.0, 0xec4899),
    ] {
        c.glow(x, y, r, col, 110);
    }
    // Glass panel.
    let panel = rrect_path(60.0, 60.0, w - 120.0, h - 120.0, 48.0);
    c.color(&panel, Color::from_rgba8(255, 255, 255, 22));
    c.stroke(&panel, Color::from_rgba8(255, 255, 255, 60), 2.0);

    // Round avatar with a gradient ring.
    let (cx, cy, r) = NAMECARD_AVATAR;
    c.shadow(&circle_path(cx, cy, r + 14.0), 10.0, 18.0, 50);
    c.fill(
        &circle_path(cx, cy, r + 14.0),
        &shader_paint(linear(
            cx - r,
            cy - r,
            cx + r,
            cy + r,
            &[(0.0, rgba(0xf472b6, 255)), (1.0, rgba(0x22d3ee, 255))],
        )),
    );
    c.color(&circle_path(cx, cy, r + 4.0), rgba(0x1e1b4b, 255));
    let x = 720.0;
    // Accent divider.
    c.fill(
        &rrect_path(x, 282.0, 160.0, 8.0, 4.0),
        &shader_paint(linear(
            x,
            0.0,
            x + 160.0,
            0.0,
            &[(0.0, rgba(0xf472b6, 255)), (1.0, rgba(0x22d3ee, 255))],
        )),
    );
    // Birthday row with a little cake.
    let (kx, ky) = (x + 4.0, 322.0);
    c.color(
        &rrect_path(kx, ky + 22.0, 48.0, 30.0, 6.0),
        rgba(0xf9a8d4, 255),
    );
    c.color(
        &rrect_path(kx, ky + 22.0, 48.0, 10.0, 5.0),
        rgba(0xffffff, 255),
    );
    c.color(
        &rect_path(kx + 21.0, ky + 6.0, 6.0, 16.0),
        rgba(0xfde68a, 255),
    );
    c.fill_t(
        &circle_path(0.0, 0.0, 5.0),
        &crate::paint::paint(rgba(0xfb923c, 255)),
        Transform::from_translate(kx + 24.0, ky + 1.0),
    );
    Ok(c)
}
