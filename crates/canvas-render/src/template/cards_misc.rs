//! The quote cards and ID cards as templates: `sage` and `sage2` (the wise
//! old turtle and a quote), `horny` and `simpcard` (licence cards with the
//! avatar as their photo) and `namecard` (a profile card), each a cached
//! backdrop drawn here once per process, then its avatar and text slots.

use tiny_skia::{Color, PathBuilder, Transform};

use super::{
    Art, AvatarSlot, Layer, Mask, ParamKind, ParamSpec, Piece, Place, Reveal, Template, TextSlot,
    Timeline,
};
use crate::RenderError;
use crate::paint::{
    Canvas, TURTLE, circle_path, ground, heart, linear, poly, rect_path, rgba, rrect_path,
    shader_paint, text_rgb,
};
use crate::text::{Align, FontFace, MAX_NAME_CHARS, TextStyle, VAlign};

/// Cap on `quote` (`sage`, `sage2`), in characters.
pub const MAX_QUOTE_CHARS: usize = 500;
/// Cap on the namecard's `birthday` (free text such as "March 3" or
/// "2000-03-03"), in characters.
pub const MAX_BIRTHDAY_CHARS: usize = 64;
/// Cap on the namecard's `description`, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;

const STILL: Timeline = Timeline::STILL;

/// The quote of `sage` and `sage2`, drawn whole, without outline.
const fn quote_slot(
    (size, min_size): (f32, f32),
    color: [u8; 4],
    align: Align,
    area: (f32, f32, f32, f32),
) -> Layer {
    Layer::Text(TextSlot {
        replaced_by: None,
        pieces: &[Piece::Param("quote")],
        face: FontFace::SerifItalic,
        size,
        min_size,
        color,
        outline: None,
        align,
        valign: VAlign::Middle,
        area,
        reveal: Reveal::All,
    })
}

/// The `quote` parameter of `sage` and `sage2`.
const QUOTE: &[ParamSpec] = &[ParamSpec {
    name: "quote",
    kind: ParamKind::Text {
        max_chars: MAX_QUOTE_CHARS,
        default: "",
    },
    doc: "the quote, at most 500 characters; shrinks to fit",
    expected: "expected at most 500 characters",
}];

/// `sage`, 1200×630: the wise old turtle beside the quote, on a warm
/// landscape card. Takes no avatar.
pub(super) static SAGE: Template = Template {
    size: (1200, 630),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::SageCard, &[Place::rect(0.0, 0.0, 1200.0, 630.0)]),
        quote_slot(
            (54.0, 18.0),
            [0x3b, 0x25, 0x10, 255],
            Align::Left,
            (610.0, 150.0, 510.0, 330.0),
        ),
    ],
    params: QUOTE,
};

/// `sage2`, 800×800: the wise old turtle under a night sky, saying the
/// quote in a speech bubble. Takes no avatar.
pub(super) static SAGE2: Template = Template {
    size: (800, 800),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::Sage2Night, &[Place::rect(0.0, 0.0, 800.0, 800.0)]),
        quote_slot(
            (56.0, 16.0),
            [0x1e, 0x29, 0x3b, 255],
            Align::Center,
            (80.0, 70.0, 640.0, 270.0),
        ),
    ],
    params: QUOTE,
};

/// Photo square of the licence cards: `(x, y, side)`.
const PHOTO: (f32, f32, f32) = (48.0, 150.0, 300.0);

/// The licence cards' photo: the avatar in colour, its corners rounded.
const LICENCE_PHOTO: Layer = Layer::Avatar(AvatarSlot {
    motion: &[Place::rect(PHOTO.0, PHOTO.1, PHOTO.2, PHOTO.2)],
    mask: Mask::Rounded(14.0 / PHOTO.2),
    grey: false,
    tint: None,
});

/// `horny`, 900×560: a pink "horny licence" ID card with the avatar as its
/// photo.
pub(super) static HORNY: Template = Template {
    size: (900, 560),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::HornyLicence, &[Place::rect(0.0, 0.0, 900.0, 560.0)]),
        LICENCE_PHOTO,
    ],
    params: &[],
};

/// `simpcard`, 900×560: a lilac "simp card" membership card with the avatar
/// as its photo.
pub(super) static SIMPCARD: Template = Template {
    size: (900, 560),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::SimpCard, &[Place::rect(0.0, 0.0, 900.0, 560.0)]),
        LICENCE_PHOTO,
    ],
    params: &[],
};

/// Centre and radius of the namecard avatar.
const NAMECARD_AVATAR: (f32, f32, f32) = (380.0, 400.0, 230.0);
/// Left edge and width of the namecard's text column.
const NAMECARD_TEXT: (f32, f32) = (720.0, 860.0);

/// `namecard`, 1680×800: a profile card with the round avatar, the name,
/// the birthday ("Birthday not set" when blank) and a description.
pub(super) static NAMECARD: Template = Template {
    size: (1680, 800),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::NamecardGlass, &[Place::rect(0.0, 0.0, 1680.0, 800.0)]),
        Layer::Avatar(AvatarSlot {
            motion: &[Place::rect(
                NAMECARD_AVATAR.0 - NAMECARD_AVATAR.2,
                NAMECARD_AVATAR.1 - NAMECARD_AVATAR.2,
                2.0 * NAMECARD_AVATAR.2,
                2.0 * NAMECARD_AVATAR.2,
            )],
            mask: Mask::Circle,
            grey: false,
            tint: None,
        }),
        Layer::Text(TextSlot {
            replaced_by: None,
            pieces: &[Piece::Param("username")],
            face: FontFace::Bold,
            size: 96.0,
            min_size: 36.0,
            color: [255, 255, 255, 255],
            outline: None,
            align: Align::Left,
            valign: VAlign::Bottom,
            area: (NAMECARD_TEXT.0, 120.0, NAMECARD_TEXT.1, 140.0),
            reveal: Reveal::All,
        }),
        // One line at its size, cut with "…" when too wide.
        Layer::Text(TextSlot {
            replaced_by: None,
            pieces: &[Piece::Param("birthday")],
            face: FontFace::Bold,
            size: 44.0,
            min_size: 44.0,
            color: [0xf5, 0xf3, 0xff, 255],
            outline: None,
            align: Align::Left,
            valign: VAlign::Top,
            area: (NAMECARD_TEXT.0 + 72.0, 312.0, NAMECARD_TEXT.1 - 72.0, 88.0),
            reveal: Reveal::All,
        }),
        Layer::Text(TextSlot {
            replaced_by: None,
            pieces: &[Piece::Param("description")],
            face: FontFace::Regular,
            size: 44.0,
            min_size: 20.0,
            color: [0xe0, 0xe7, 0xff, 235],
            outline: None,
            align: Align::Left,
            valign: VAlign::Top,
            area: (NAMECARD_TEXT.0, 410.0, NAMECARD_TEXT.1, 280.0),
            reveal: Reveal::All,
        }),
    ],
    params: &[
        ParamSpec {
            name: "username",
            kind: ParamKind::Text {
                max_chars: MAX_NAME_CHARS,
                default: "",
            },
            doc: "the name on the card, at most 64 characters; shrinks to fit",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "birthday",
            kind: ParamKind::Text {
                max_chars: MAX_BIRTHDAY_CHARS,
                default: "Birthday not set",
            },
            doc: "the birthday as free text, at most 64 characters (default \"Birthday not set\")",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "description",
            kind: ParamKind::Text {
                max_chars: MAX_DESCRIPTION_CHARS,
                default: "",
            },
            doc: "a line about the person, at most 500 characters; wraps and shrinks to fit",
            expected: "expected at most 500 characters",
        },
    ],
};

/// The sage card without its quote.
pub(super) fn sage_base() -> Result<Canvas, RenderError> {
    let mut c = Canvas::backdrop(
        1200,
        630,
        (1200.0, 630.0),
        &[(0.0, rgba(0xfff4dc, 255)), (1.0, rgba(0xf2cf8f, 255))],
    )?;
    c.glow(260.0, 200.0, 520.0, 0xffffff, 140);
    let sand = ground(520.0, (200.0, 490.0), (380.0, 500.0), (560.0, 540.0), 630.0);
    c.color(&sand, rgba(0xc9a86a, 160));
    // Turtle, 420×380 art scaled to ~500 wide.
    draw_turtle(&mut c, 1.18, 20.0, 6.0);
    // Quote.
    let panel = rrect_path(560.0, 50.0, 600.0, 530.0, 28.0);
    c.color(&panel, Color::from_rgba8(255, 255, 255, 150));
    let mark = TextStyle::new(FontFace::SerifItalic, 180.0).color([0xc2, 0x7c, 0x2c, 200]);
    c.line("\u{201C}", &mark, 580.0, 10.0, 200.0)?;
    let by = TextStyle::new(FontFace::Bold, 28.0)
        .color([0x8a, 0x55, 0x1d, 255])
        .align(Align::Right);
    c.line("\u{2014} the old turtle", &by, 610.0, 510.0, 510.0)?;
    Ok(c)
}

/// The sage2 scene without its quote.
pub(super) fn sage2_base() -> Result<Canvas, RenderError> {
    let mut c = Canvas::backdrop(
        800,
        800,
        (0.0, 800.0),
        &[
            (0.0, rgba(0x0b1a3a, 255)),
            (0.7, rgba(0x23386b, 255)),
            (1.0, rgba(0x3d4f7a, 255)),
        ],
    )?;
    // Stars, deterministic.
    let mut seed: u32 = 0x2545_f491;
    for _ in 0..70 {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let x = (seed % 800) as f32;
        let y = ((seed >> 10) % 520) as f32;
        let r = 0.8 + ((seed >> 20) % 3) as f32 * 0.7;
        c.color(
            &circle_path(x, y, r),
            Color::from_rgba8(255, 255, 240, 120 + ((seed >> 4) % 120) as u8),
        );
    }
    // Moon.
    c.glow(660.0, 620.0, 200.0, 0xfff3c4, 90);
    c.color(&circle_path(660.0, 620.0, 70.0), rgba(0xfff6d8, 255));
    c.color(&circle_path(640.0, 600.0, 12.0), rgba(0xeadfb8, 255));
    c.color(&circle_path(684.0, 640.0, 9.0), rgba(0xeadfb8, 255));
    let hill = ground(700.0, (200.0, 640.0), (520.0, 660.0), (800.0, 740.0), 800.0);
    c.color(&hill, rgba(0x14284f, 255));
    draw_turtle(&mut c, 0.95, 40.0, 30.0);
    // Speech bubble.
    let bubble = rrect_path(40.0, 40.0, 720.0, 330.0, 40.0);
    let mut tail = PathBuilder::new();
    tail.move_to(300.0, 360.0);
    tail.line_to(360.0, 470.0);
    tail.line_to(380.0, 360.0);
    tail.close();
    let tail = tail.finish().expect("tail");
    c.color(&bubble, rgba(0xfffaf0, 255));
    c.color(&tail, rgba(0xfffaf0, 255));
    Ok(c)
}

/// The turtle art (420×380) at `scale`, its left edge at `x` and its bottom
/// `lift` pixels above the canvas's bottom edge.
fn draw_turtle(c: &mut Canvas, scale: f32, x: f32, lift: f32) {
    let bottom = c.pixmap.height() as f32;
    c.svg(
        &TURTLE,
        Transform::from_row(scale, 0.0, 0.0, scale, x, bottom - 380.0 * scale - lift),
    );
}

/// Which licence card.
#[derive(Clone, Copy)]
pub(super) enum Licence {
    Horny,
    Simp,
}

/// A five-pointed star.
fn star(cx: f32, cy: f32, r: f32) -> tiny_skia::Path {
    let pts: Vec<(f32, f32)> = (0..10)
        .map(|i| {
            let a = std::f32::consts::PI * (i as f32 / 5.0) - std::f32::consts::FRAC_PI_2;
            let rr = if i % 2 == 0 { r } else { r * 0.45 };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    poly(&pts)
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

/// Everything of a licence card but the photo.
pub(super) fn licence_base(kind: Licence) -> Result<Canvas, RenderError> {
    let (w, h) = (900.0, 560.0);
    let mut c = Canvas::new(900, 560)?;
    let (top, bottom, band, ink, accent, title, subtitle, fields): CardTheme = match kind {
        Licence::Horny => (
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
        Licence::Simp => (
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
            Licence::Horny => heart(x, y, s),
            Licence::Simp => star(x, y, s / 2.0),
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
        Licence::Horny => heart(64.0, 56.0, 54.0),
        Licence::Simp => star(64.0, 56.0, 30.0),
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

/// The namecard without avatar and text.
pub(super) fn namecard_base() -> Result<Canvas, RenderError> {
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
    let x = NAMECARD_TEXT.0;
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
