//! The meme templates: `its-so-stupid`, `lied`, `lolice`, `nobitches` and
//! `series`, with the art they place (drawn in code once per process, see
//! [`super::art`]).

use tiny_skia::{Color, PathBuilder, Transform};

use super::{
    Art, AvatarSlot, Layer, Mask, ParamKind, ParamSpec, Piece, Place, Reveal, Template, TextSlot,
    Timeline,
};
use crate::RenderError;
use crate::paint::{
    Canvas, circle_path, linear, paint, radial, rect_path, rgba, rrect_path, shader_paint, text_rgb,
};
use crate::text::{Align, FontFace, TextBox, TextStyle, VAlign};

/// Cap on meme captions (`dog`, `no`, `bottomtext`), in characters.
pub const MAX_CAPTION_CHARS: usize = 200;

const STILL: Timeline = Timeline::STILL;

const fn avatar(motion: &'static [Place], mask: Mask, grey: bool) -> Layer {
    Layer::Avatar(AvatarSlot {
        motion,
        mask,
        grey,
        tint: None,
    })
}

/// A caption of at most [`MAX_CAPTION_CHARS`], empty by default (the
/// memes' and the captions').
pub(super) const fn caption(name: &'static str, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Text {
            max_chars: MAX_CAPTION_CHARS,
            default: "",
        },
        doc,
        expected: "expected at most 200 characters",
    }
}

/// A white meme caption with a black outline of a twelfth of its size
/// ([`TextStyle::meme`]).
const fn meme_text(
    pieces: &'static [Piece],
    size: f32,
    min_size: f32,
    valign: VAlign,
    area: (f32, f32, f32, f32),
    outline: f32,
) -> Layer {
    Layer::Text(TextSlot {
        replaced_by: None,
        pieces,
        face: FontFace::Meme,
        size,
        min_size,
        color: [255, 255, 255, 255],
        outline: Some(([0, 0, 0, 255], outline)),
        align: Align::Center,
        valign,
        area,
        reveal: Reveal::All,
    })
}

/// `nobitches`: a smug cartoon face with the captions `no` on top and
/// `bottomtext` below, upper-cased. Takes no avatar.
pub(super) static NOBITCHES: Template = Template {
    size: (800, 800),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::NoBitchesFace, &[Place::rect(0.0, 0.0, 800.0, 800.0)]),
        meme_text(
            &[Piece::Upper("no")],
            104.0,
            28.0,
            VAlign::Top,
            (20.0, 14.0, 760.0, 200.0),
            104.0 / 12.0,
        ),
        meme_text(
            &[Piece::Upper("bottomtext")],
            104.0,
            28.0,
            VAlign::Bottom,
            (20.0, 586.0, 760.0, 200.0),
            104.0 / 12.0,
        ),
    ],
    params: &[
        caption("no", "the top caption, upper-cased, at most 200 characters"),
        caption(
            "bottomtext",
            "the bottom caption, upper-cased, at most 200 characters",
        ),
    ],
};

/// The avatar on the sign in `its-so-stupid`: `(x, y, side)`, in panel 4
/// of the comic (panels of 376 px, 16 px apart).
const STUPID_SIGN: (f32, f32, f32) = (408.0 + 98.0, 408.0 + 124.0, 180.0);
/// The sign's tilt, in degrees (anticlockwise).
const STUPID_TILT: f32 = -4.0;
/// The box of the hands art, `(x, y, width, height)`.
const STUPID_HANDS: (f32, f32, f32, f32) = (470.0, 670.0, 260.0, 90.0);

/// The sign's rotation about its centre.
fn sign_tilt() -> Transform {
    let (sx, sy, ss) = STUPID_SIGN;
    Transform::from_rotate_at(STUPID_TILT, sx + ss / 2.0, sy + ss / 2.0)
}

/// `its-so-stupid`: a four-panel comic; in the last panel the avatar is
/// held up on a tilted sign, with `dog` written above it.
pub(super) static ITS_SO_STUPID: Template = Template {
    size: (800, 800),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::StupidComic, &[Place::rect(0.0, 0.0, 800.0, 800.0)]),
        avatar(
            &[Place::new(
                STUPID_SIGN.0,
                STUPID_SIGN.1,
                STUPID_SIGN.2,
                STUPID_SIGN.2,
                STUPID_TILT,
                1.0,
            )],
            Mask::Square,
            false,
        ),
        Layer::art(
            Art::StupidHands,
            &[Place::rect(
                STUPID_HANDS.0,
                STUPID_HANDS.1,
                STUPID_HANDS.2,
                STUPID_HANDS.3,
            )],
        ),
        meme_text(
            &[Piece::Param("dog")],
            48.0,
            14.0,
            VAlign::Middle,
            (418.0, 416.0, 356.0, 104.0),
            4.0,
        ),
    ],
    params: &[caption(
        "dog",
        "the caption above the held-up avatar, at most 200 characters",
    )],
};

/// The photo's box in `lied`: `(x, y, side)`.
const LIED_PHOTO: (f32, f32, f32) = (80.0, 36.0, 440.0);

/// `lied`: the avatar, grey and rounded, between a dark backdrop and a
/// vignette, captioned "`username` lied." ("You lied." when absent or
/// blank).
pub(super) static LIED: Template = Template {
    size: (600, 600),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::LiedBackdrop, &[Place::rect(0.0, 0.0, 600.0, 600.0)]),
        avatar(
            &[Place::rect(
                LIED_PHOTO.0,
                LIED_PHOTO.1,
                LIED_PHOTO.2,
                LIED_PHOTO.2,
            )],
            Mask::Rounded(10.0 / LIED_PHOTO.2),
            true,
        ),
        Layer::art(Art::LiedVignette, &[Place::rect(0.0, 0.0, 600.0, 600.0)]),
        Layer::Text(TextSlot {
            replaced_by: None,
            pieces: &[Piece::Param("username"), Piece::Lit(" lied.")],
            face: FontFace::SerifItalic,
            size: 64.0,
            min_size: 18.0,
            color: [240, 240, 240, 255],
            outline: Some(([0, 0, 0, 255], 3.0)),
            align: Align::Center,
            valign: VAlign::Middle,
            area: (24.0, 482.0, 552.0, 100.0),
            reveal: Reveal::All,
        }),
    ],
    params: &[ParamSpec {
        name: "username",
        kind: ParamKind::Text {
            max_chars: crate::text::MAX_NAME_CHARS,
            default: "You",
        },
        doc: "who lied, at most 64 characters (default \"You\")",
        expected: "expected at most 64 characters",
    }],
};

/// Position and size of the mugshot in `lolice`: `(x, y, side)`.
const LOLICE_PHOTO: (f32, f32, f32) = (285.0, 56.0, 330.0);

/// `lolice`: a police mugshot of the avatar in front of a height chart,
/// with red-and-blue siren glow.
pub(super) static LOLICE: Template = Template {
    size: (900, 600),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::LoliceScene, &[Place::rect(0.0, 0.0, 900.0, 600.0)]),
        avatar(
            &[Place::rect(
                LOLICE_PHOTO.0,
                LOLICE_PHOTO.1,
                LOLICE_PHOTO.2,
                LOLICE_PHOTO.2,
            )],
            Mask::Square,
            false,
        ),
    ],
    params: &[],
};

/// The disc case in `series`: x, y, width, height.
const CASE: (f32, f32, f32, f32) = (150.0, 100.0, 400.0, 580.0);
/// The cover's window in the case: x, y, width, height.
const SERIES_COVER: (f32, f32, f32, f32) =
    (CASE.0 + 40.0, CASE.1 + 14.0, CASE.2 - 54.0, CASE.3 - 28.0);

/// `series`: the avatar as the cover of a disc case held up in two hands.
/// The avatar is drawn as a square as tall as the cover, centred on it;
/// the case art over it leaves it seen through the cover's window only.
pub(super) static SERIES: Template = Template {
    size: (700, 800),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::SeriesBackdrop, &[Place::rect(0.0, 0.0, 700.0, 800.0)]),
        avatar(
            &[Place::rect(
                SERIES_COVER.0 - (SERIES_COVER.3 - SERIES_COVER.2) / 2.0,
                SERIES_COVER.1,
                SERIES_COVER.3,
                SERIES_COVER.3,
            )],
            Mask::Square,
            false,
        ),
        Layer::art(Art::SeriesCase, &[Place::rect(0.0, 0.0, 700.0, 800.0)]),
    ],
    params: &[],
};

const SKIN: u32 = 0xf6c9a0;
const SKIN_DARK: u32 = 0xd9a273;
const INK: u32 = 0x1f1f1f;

fn ellipse(cx: f32, cy: f32, rx: f32, ry: f32) -> tiny_skia::Path {
    let r =
        tiny_skia::Rect::from_xywh(cx - rx, cy - ry, 2.0 * rx, 2.0 * ry).expect("finite ellipse");
    PathBuilder::from_oval(r).expect("oval")
}

fn curve(x0: f32, y0: f32, cx: f32, cy: f32, x1: f32, y1: f32) -> tiny_skia::Path {
    let mut pb = PathBuilder::new();
    pb.move_to(x0, y0);
    pb.quad_to(cx, cy, x1, y1);
    pb.finish().expect("curve")
}

#[derive(Clone, Copy, PartialEq)]
enum Face {
    Smile,
    Worried,
    Grin,
}

/// Our comic character: a round-headed person in a teal hoodie, head at
/// `(cx, cy)` with radius `r`.
fn character(c: &mut Canvas, cx: f32, cy: f32, r: f32, face: Face) {
    // Body.
    let mut body = PathBuilder::new();
    body.move_to(cx - r * 1.5, cy + r * 3.2);
    body.cubic_to(
        cx - r * 1.5,
        cy + r * 1.4,
        cx - r * 0.9,
        cy + r * 0.95,
        cx,
        cy + r * 0.95,
    );
    body.cubic_to(
        cx + r * 0.9,
        cy + r * 0.95,
        cx + r * 1.5,
        cy + r * 1.4,
        cx + r * 1.5,
        cy + r * 3.2,
    );
    body.close();
    let body = body.finish().expect("body");
    c.color(&body, rgba(0x2a9d8f, 255));
    c.stroke(&body, rgba(INK, 255), r * 0.07);
    // Head, hair, ears.
    c.color(
        &circle_path(cx - r * 0.98, cy + r * 0.1, r * 0.2),
        rgba(SKIN, 255),
    );
    c.color(
        &circle_path(cx + r * 0.98, cy + r * 0.1, r * 0.2),
        rgba(SKIN, 255),
    );
    let head = circle_path(cx, cy, r);
    c.color(&head, rgba(SKIN, 255));
    let mut hair = PathBuilder::new();
    hair.move_to(cx - r * 0.98, cy - r * 0.05);
    hair.cubic_to(
        cx - r * 1.05,
        cy - r * 1.25,
        cx + r * 1.05,
        cy - r * 1.25,
        cx + r * 0.98,
        cy - r * 0.05,
    );
    hair.cubic_to(
        cx + r * 0.6,
        cy - r * 0.55,
        cx - r * 0.2,
        cy - r * 0.4,
        cx - r * 0.98,
        cy - r * 0.05,
    );
    hair.close();
    c.color(&hair.finish().expect("hair"), rgba(0x4a3020, 255));
    c.stroke(&head, rgba(INK, 255), r * 0.07);
    // Eyes and brows.
    let ey = cy + r * 0.1;
    for s in [-1.0f32, 1.0] {
        let ex = cx + s * r * 0.38;
        c.color(&ellipse(ex, ey, r * 0.1, r * 0.14), rgba(INK, 255));
        let brow = match face {
            Face::Worried => curve(
                ex - r * 0.18,
                ey - r * 0.22 - s * r * 0.06,
                ex,
                ey - r * 0.32,
                ex + r * 0.18,
                ey - r * 0.22 + s * r * 0.06,
            ),
            _ => curve(
                ex - r * 0.18,
                ey - r * 0.26,
                ex,
                ey - r * 0.36,
                ex + r * 0.18,
                ey - r * 0.26,
            ),
        };
        c.stroke(&brow, rgba(INK, 255), r * 0.06);
    }
    // Cheeks.
    c.color(
        &ellipse(cx - r * 0.6, cy + r * 0.42, r * 0.14, r * 0.08),
        rgba(0xf28b82, 140),
    );
    c.color(
        &ellipse(cx + r * 0.6, cy + r * 0.42, r * 0.14, r * 0.08),
        rgba(0xf28b82, 140),
    );
    let my = cy + r * 0.52;
    match face {
        Face::Smile => c.stroke(
            &curve(cx - r * 0.25, my, cx, my + r * 0.2, cx + r * 0.25, my),
            rgba(INK, 255),
            r * 0.06,
        ),
        Face::Worried => c.stroke(
            &curve(
                cx - r * 0.2,
                my + r * 0.1,
                cx,
                my - r * 0.05,
                cx + r * 0.2,
                my + r * 0.1,
            ),
            rgba(INK, 255),
            r * 0.06,
        ),
        Face::Grin => {
            let mut m = PathBuilder::new();
            m.move_to(cx - r * 0.35, my - r * 0.04);
            m.quad_to(cx, my + r * 0.5, cx + r * 0.35, my - r * 0.04);
            m.close();
            let m = m.finish().expect("mouth");
            c.color(&m, rgba(0x7a1f1f, 255));
            c.stroke(&m, rgba(INK, 255), r * 0.05);
        }
    }
}

/// A speech bubble with a tail pointing at `(tx, ty)`, text fitted inside.
/// `rect` is `(x, y, width, height)`, `tip` the tail's point.
fn bubble(
    c: &mut Canvas,
    rect: (f32, f32, f32, f32),
    tip: (f32, f32),
    text: &str,
) -> Result<(), RenderError> {
    let ((x, y, w, h), (tx, ty)) = (rect, tip);
    let body = rrect_path(x, y, w, h, h.min(w) * 0.35);
    let mut tail = PathBuilder::new();
    let bx = tx.clamp(x + 30.0, x + w - 30.0);
    tail.move_to(bx - 16.0, y + h - 4.0);
    tail.line_to(tx, ty);
    tail.line_to(bx + 16.0, y + h - 4.0);
    tail.close();
    let tail = tail.finish().expect("tail");
    c.stroke(&body, rgba(INK, 255), 6.0);
    c.stroke(&tail, rgba(INK, 255), 6.0);
    c.color(&body, Color::WHITE);
    c.color(&tail, Color::WHITE);
    let style = TextStyle::new(FontFace::Bold, 30.0)
        .color(text_rgb(INK))
        .align(Align::Center)
        .valign(VAlign::Middle);
    c.text(
        text,
        &style,
        TextBox::new(x + 14.0, y + 8.0, w - 28.0, h - 16.0),
        12.0,
    )?;
    Ok(())
}

/// The comic with the empty sign held up in panel 4: the art under the
/// avatar in `its-so-stupid`.
pub(super) fn stupid_comic() -> Result<Canvas, RenderError> {
    let mut c = Canvas::new(800, 800)?;
    c.color(&rect_path(0.0, 0.0, 800.0, 800.0), Color::WHITE);
    let p = 376.0;
    let origin = |i: usize| {
        (
            16.0 + (i % 2) as f32 * (p + 16.0),
            16.0 + (i / 2) as f32 * (p + 16.0),
        )
    };
    let backgrounds = [0xfde68a, 0xbae6fd, 0xfbcfe8, 0xddd6fe];
    for (i, bg) in backgrounds.iter().enumerate() {
        let (x, y) = origin(i);
        c.fill(
            &rect_path(x, y, p, p),
            &shader_paint(linear(
                x,
                y,
                x,
                y + p,
                &[(0.0, rgba(*bg, 255)), (1.0, rgba(0xffffff, 255))],
            )),
        );
    }
    let lines = [
        "Wanna see something?",
        "Promise you won't laugh...",
        "It's so stupid.",
    ];
    let faces = [Face::Smile, Face::Worried, Face::Grin];
    for i in 0..3 {
        let (x, y) = origin(i);
        // Each panel is drawn on its own canvas so the figure is clipped to it.
        let mut panel = Canvas::new(p as u32, p as u32)?;
        let (hx, hy) = (p / 2.0, 250.0);
        character(&mut panel, hx, hy, 62.0, faces[i]);
        bubble(
            &mut panel,
            (24.0, 22.0, p - 48.0, 112.0),
            (hx + 10.0, hy - 76.0),
            lines[i],
        )?;
        c.draw_canvas(&panel, x as i32, y as i32);
    }
    // Panel 4: the avatar held up like a sign, the caption above it.
    let (x, y) = origin(3);
    let mut panel = Canvas::new(p as u32, p as u32)?;
    character(&mut panel, p / 2.0, 330.0, 52.0, Face::Smile);
    c.draw_canvas(&panel, x as i32, y as i32);
    for i in 0..4 {
        let (x, y) = origin(i);
        c.stroke(&rect_path(x, y, p, p), rgba(INK, 255), 6.0);
    }
    // The sign the avatar is on, tilted, with its shadow.
    let (sx, sy, ss) = STUPID_SIGN;
    let t = sign_tilt();
    let board = rrect_path(sx - 12.0, sy - 12.0, ss + 24.0, ss + 24.0, 10.0);
    c.fill_t(
        &board,
        &paint(rgba(0x000000, 50)),
        t.pre_translate(4.0, 6.0),
    );
    c.fill_t(&board, &paint(Color::WHITE), t);
    c.stroke_t(&board, rgba(INK, 255), 5.0, t);
    Ok(c)
}

/// The hands gripping the sign's bottom corners, over the avatar, in the
/// box [`STUPID_HANDS`].
pub(super) fn stupid_hands() -> Result<Canvas, RenderError> {
    let (bx, by, bw, bh) = STUPID_HANDS;
    let mut c = Canvas::new(bw as u32, bh as u32)?;
    let (sx, sy, ss) = STUPID_SIGN;
    let t = sign_tilt().post_translate(-bx, -by);
    for hx in [sx + 4.0, sx + ss - 4.0] {
        let hand = circle_path(hx, sy + ss + 8.0, 22.0);
        c.fill_t(&hand, &paint(rgba(SKIN, 255)), t);
        c.stroke_t(&hand, rgba(INK, 255), 4.0, t);
        c.stroke_t(
            &curve(
                hx - 10.0,
                sy + ss + 2.0,
                hx,
                sy + ss - 2.0,
                hx + 10.0,
                sy + ss + 2.0,
            ),
            rgba(SKIN_DARK, 255),
            3.0,
            t,
        );
    }
    Ok(c)
}

/// Background and photo shadow of `lied`.
pub(super) fn lied_backdrop() -> Result<Canvas, RenderError> {
    let mut c = Canvas::backdrop(
        600,
        600,
        (0.0, 600.0),
        &[(0.0, rgba(0x3a3a3a, 255)), (1.0, rgba(0x0d0d0d, 255))],
    )?;
    let (ax, ay, s) = LIED_PHOTO;
    c.shadow(&rrect_path(ax, ay, s, s, 10.0), 8.0, 14.0, 90);
    Ok(c)
}

/// Vignette and film lines drawn over the photo in `lied`.
pub(super) fn lied_vignette() -> Result<Canvas, RenderError> {
    let mut c = Canvas::new(600, 600)?;
    c.fill_all(radial(
        300.0,
        260.0,
        430.0,
        &[
            (0.0, rgba(0x000000, 0)),
            (0.6, rgba(0x000000, 40)),
            (1.0, rgba(0x000000, 230)),
        ],
    ));
    for i in 0..6 {
        let x = 60.0 + i as f32 * 97.0;
        c.color(
            &rect_path(x, 0.0, 1.0, 600.0),
            Color::from_rgba8(255, 255, 255, 10),
        );
    }
    Ok(c)
}

/// The police scene without the mugshot: the art under the avatar in
/// `lolice`.
pub(super) fn lolice_scene() -> Result<Canvas, RenderError> {
    let w = 900.0;
    let mut c = Canvas::backdrop(
        900,
        600,
        (0.0, 600.0),
        &[(0.0, rgba(0xd9e2ec, 255)), (1.0, rgba(0xa9b8c9, 255))],
    )?;
    // Height chart.
    let label = TextStyle::new(FontFace::Bold, 22.0).color(text_rgb(0x33415c));
    for i in 0..12 {
        let y = 40.0 + i as f32 * 45.0;
        let major = i % 2 == 0;
        c.color(
            &rect_path(0.0, y, w, if major { 3.0 } else { 1.5 }),
            rgba(0x33415c, if major { 200 } else { 110 }),
        );
        if major {
            let feet = format!("{}'", 7 - i / 2);
            c.line(&feet, &label, 16.0, y + 4.0, 60.0)?;
            c.line(&feet, &label.align(Align::Right), w - 76.0, y + 4.0, 60.0)?;
        }
    }
    // Siren glow.
    c.glow(0.0, 0.0, 520.0, 0xff1f3d, 170);
    c.glow(w, 0.0, 520.0, 0x1f6bff, 170);
    // Mugshot.
    let (ax, ay, s) = LOLICE_PHOTO;
    let frame = rect_path(ax, ay, s, s);
    c.shadow(&frame, 8.0, 12.0, 60);
    // Placard.
    let board = rrect_path(240.0, 400.0, 420.0, 160.0, 10.0);
    c.shadow(&board, 6.0, 10.0, 70);
    c.color(&board, rgba(0x111418, 255));
    c.stroke(
        &rrect_path(252.0, 412.0, 396.0, 136.0, 6.0),
        rgba(0xe5e7eb, 120),
        2.0,
    );
    let white = TextStyle::new(FontFace::Bold, 44.0)
        .color([255, 255, 255, 255])
        .align(Align::Center);
    c.line("LOLICE DEPT.", &white, 252.0, 424.0, 396.0)?;
    let small = TextStyle::new(FontFace::Regular, 26.0)
        .color([0xd1, 0xd5, 0xdb, 255])
        .align(Align::Center);
    c.line("CASE No. 0413-2024", &small, 252.0, 482.0, 396.0)?;
    c.line(
        "suspect in custody",
        &small.color([0xfc, 0xa5, 0xa5, 255]),
        252.0,
        514.0,
        396.0,
    )?;
    // Light bar on top.
    c.color(
        &rrect_path(330.0, 8.0, 240.0, 30.0, 15.0),
        rgba(0x1f2937, 255),
    );
    c.color(
        &rrect_path(336.0, 12.0, 110.0, 22.0, 11.0),
        rgba(0xff1f3d, 255),
    );
    c.color(
        &rrect_path(454.0, 12.0, 110.0, 22.0, 11.0),
        rgba(0x1f6bff, 255),
    );
    c.color(
        &rrect_path(344.0, 15.0, 60.0, 6.0, 3.0),
        Color::from_rgba8(255, 255, 255, 150),
    );
    c.color(
        &rrect_path(462.0, 15.0, 60.0, 6.0, 3.0),
        Color::from_rgba8(255, 255, 255, 150),
    );
    Ok(c)
}

/// The smug face without captions: the art of `nobitches`.
pub(super) fn nobitches_face() -> Result<Canvas, RenderError> {
    let mut c = Canvas::new(800, 800)?;
    c.fill_all(radial(
        400.0,
        420.0,
        620.0,
        &[(0.0, rgba(0xffb347, 255)), (1.0, rgba(0xc2410c, 255))],
    ));
    // Rays.
    for i in 0..16 {
        let a0 = i as f32 * std::f32::consts::TAU / 16.0;
        let a1 = a0 + std::f32::consts::TAU / 40.0;
        let mut ray = PathBuilder::new();
        ray.move_to(400.0, 430.0);
        ray.line_to(400.0 + 900.0 * a0.cos(), 430.0 + 900.0 * a0.sin());
        ray.line_to(400.0 + 900.0 * a1.cos(), 430.0 + 900.0 * a1.sin());
        ray.close();
        c.color(
            &ray.finish().expect("ray"),
            Color::from_rgba8(255, 255, 255, 28),
        );
    }
    // Cape and collar.
    let mut cape = PathBuilder::new();
    cape.move_to(90.0, 800.0);
    cape.cubic_to(120.0, 640.0, 250.0, 600.0, 400.0, 600.0);
    cape.cubic_to(550.0, 600.0, 680.0, 640.0, 710.0, 800.0);
    cape.close();
    c.color(&cape.finish().expect("cape"), rgba(0x1e1b2e, 255));
    let mut collar = PathBuilder::new();
    collar.move_to(170.0, 720.0);
    collar.line_to(120.0, 520.0);
    collar.line_to(300.0, 640.0);
    collar.close();
    collar.move_to(630.0, 720.0);
    collar.line_to(680.0, 520.0);
    collar.line_to(500.0, 640.0);
    collar.close();
    let collar = collar.finish().expect("collar");
    c.color(&collar, rgba(0x2e2a45, 255));
    c.stroke(&collar, rgba(0x0b0a12, 255), 5.0);
    // The big smug head.
    let head = ellipse(400.0, 420.0, 205.0, 230.0);
    c.fill(
        &head,
        &shader_paint(radial(
            340.0,
            330.0,
            300.0,
            &[(0.0, rgba(0xc4b5fd, 255)), (1.0, rgba(0x7c6bd6, 255))],
        )),
    );
    c.stroke(&head, rgba(0x2e1f6b, 255), 7.0);
    c.color(
        &ellipse(320.0, 290.0, 60.0, 34.0),
        Color::from_rgba8(255, 255, 255, 60),
    );
    // Half-lidded eyes.
    for (ex, raise) in [(325.0f32, 0.0f32), (480.0, -26.0)] {
        let ey = 430.0;
        c.color(&ellipse(ex, ey, 46.0, 30.0), Color::WHITE);
        c.color(&circle_path(ex + 10.0, ey + 6.0, 16.0), rgba(0x14532d, 255));
        c.color(&circle_path(ex + 10.0, ey + 6.0, 7.0), rgba(0x000000, 255));
        let mut lid = PathBuilder::new();
        lid.move_to(ex - 48.0, ey + 2.0);
        lid.quad_to(ex, ey - 62.0, ex + 48.0, ey + 2.0);
        lid.quad_to(ex, ey - 8.0, ex - 48.0, ey + 2.0);
        lid.close();
        c.color(&lid.finish().expect("lid"), rgba(0x8f7fe0, 255));
        c.stroke(
            &curve(ex - 48.0, ey + 2.0, ex, ey - 8.0, ex + 48.0, ey + 2.0),
            rgba(0x2e1f6b, 255),
            6.0,
        );
        c.stroke(
            &curve(
                ex - 50.0,
                ey - 50.0 + raise * 0.3,
                ex,
                ey - 70.0 + raise,
                ex + 48.0,
                ey - 56.0 + raise * 0.6,
            ),
            rgba(0x2e1f6b, 255),
            10.0,
        );
    }
    // Smirk.
    c.stroke(
        &curve(330.0, 560.0, 420.0, 590.0, 490.0, 535.0),
        rgba(0x2e1f6b, 255),
        9.0,
    );
    c.stroke(
        &curve(482.0, 548.0, 496.0, 538.0, 500.0, 522.0),
        rgba(0x2e1f6b, 255),
        6.0,
    );
    Ok(c)
}

/// Background and empty case: the art under the cover in `series`.
pub(super) fn series_backdrop() -> Result<Canvas, RenderError> {
    let mut c = Canvas::backdrop(
        700,
        800,
        (0.0, 800.0),
        &[(0.0, rgba(0x3b3028, 255)), (1.0, rgba(0x1b1612, 255))],
    )?;
    c.glow(350.0, 300.0, 520.0, 0xffd59e, 90);
    // Case.
    let (x, y, cw, ch) = CASE;
    let case = rrect_path(x, y, cw, ch, 16.0);
    c.shadow(&case, 14.0, 20.0, 110);
    c.color(&case, rgba(0x101010, 255));
    c.color(&rrect_path(x, y, 30.0, ch, 16.0), rgba(0x1f1f1f, 255));
    for i in 0..12 {
        c.color(
            &rect_path(x + 8.0, y + 40.0 + i as f32 * 42.0, 14.0, 3.0),
            rgba(0x333333, 255),
        );
    }
    Ok(c)
}

/// The art over the avatar in `series`: the backdrop and case again, with
/// the cover's rounded window cut out (the avatar, drawn square under it,
/// shows only through the window), then the cover's title band, its sheen
/// and the hands holding the case.
pub(super) fn series_case() -> Result<Canvas, RenderError> {
    let mut c = series_backdrop()?;
    let (x, y, cw, ch) = CASE;
    let case = rrect_path(x, y, cw, ch, 16.0);
    let (vx, vy, vw, vh) = SERIES_COVER;
    let cut = tiny_skia::Paint {
        anti_alias: true,
        blend_mode: tiny_skia::BlendMode::Clear,
        ..tiny_skia::Paint::default()
    };
    c.pixmap.fill_path(
        &rrect_path(vx, vy, vw, vh, 6.0),
        &cut,
        tiny_skia::FillRule::Winding,
        Transform::identity(),
        None,
    );
    // Title band and bottom strip.
    c.fill(
        &rect_path(vx, vy, vw, 64.0),
        &shader_paint(linear(
            0.0,
            vy,
            0.0,
            vy + 64.0,
            &[(0.0, rgba(0xb91c1c, 255)), (1.0, rgba(0x7f1d1d, 235))],
        )),
    );
    let title = TextStyle::new(FontFace::Meme, 40.0)
        .color([255, 255, 255, 255])
        .align(Align::Center);
    c.line("SERIES", &title, vx, vy + 6.0, vw)?;
    c.fill(
        &rect_path(vx, vy + vh - 90.0, vw, 90.0),
        &shader_paint(linear(
            0.0,
            vy + vh - 90.0,
            0.0,
            vy + vh,
            &[(0.0, rgba(0x000000, 0)), (1.0, rgba(0x000000, 220))],
        )),
    );
    let sub = TextStyle::new(FontFace::Bold, 24.0)
        .color([255, 255, 255, 255])
        .align(Align::Center);
    c.line("THE COMPLETE SERIES", &sub, vx, vy + vh - 44.0, vw)?;
    // Plastic sheen.
    let mut sheen = PathBuilder::new();
    sheen.move_to(x + 40.0, y + 14.0);
    sheen.line_to(x + 200.0, y + 14.0);
    sheen.line_to(x + 40.0, y + 300.0);
    sheen.close();
    c.color(
        &sheen.finish().expect("sheen"),
        Color::from_rgba8(255, 255, 255, 38),
    );
    c.stroke(&case, rgba(0x2a2a2a, 255), 3.0);
    // Hands: fingers wrapping over the left and right edges.
    for side in [-1.0f32, 1.0] {
        let edge = if side < 0.0 { x } else { x + cw };
        let palm = rrect_path(edge - 60.0 + side * 20.0, 380.0, 120.0, 200.0, 50.0);
        c.color(&palm, rgba(SKIN_DARK, 255));
        c.stroke(&palm, rgba(0x7a4a22, 255), 4.0);
        let n = if side < 0.0 { 4 } else { 1 };
        for i in 0..n {
            let fy = if side < 0.0 {
                370.0 + i as f32 * 44.0
            } else {
                420.0
            };
            let fw = if side < 0.0 { 74.0 } else { 90.0 };
            let fx = if side < 0.0 {
                edge - 22.0
            } else {
                edge + 22.0 - fw
            };
            let finger = rrect_path(fx, fy, fw, 40.0, 20.0);
            c.color(&finger, rgba(SKIN, 255));
            c.stroke(&finger, rgba(0x7a4a22, 255), 4.0);
            let nx = if side < 0.0 { fx + fw - 22.0 } else { fx + 6.0 };
            c.color(
                &rrect_path(nx, fy + 9.0, 16.0, 22.0, 7.0),
                rgba(0xfbe3cf, 255),
            );
        }
    }
    Ok(c)
}
