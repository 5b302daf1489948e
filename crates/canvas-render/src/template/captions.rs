//! The captions over any picture: `caption`, `impact`, `motivate` and
//! `speechbubble`. Each draws the avatar whole as its main picture, the
//! canvas following its aspect ([`Layer::Fit`]): the layers are placed
//! here for a square picture 1000 units wide.

use super::memes::caption;
use super::{
    FitSlot, Grow, Layer, Paint, Piece, Reveal, Shape, ShapeSlot, Template, TextSlot, Timeline,
};
use crate::text::{Align, FontFace, VAlign};

const STILL: Timeline = Timeline::STILL;

/// The shortest and longest a caption's picture is drawn on its long
/// side, in pixels.
pub const CAPTION_PICTURE_SIDES: (u32, u32) = (320, 1024);

const WHITE: [u8; 4] = [255, 255, 255, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];

const fn picture(x: f32, y: f32) -> Layer {
    Layer::Fit(FitSlot {
        area: (x, y, 1000.0, 1000.0),
        min_side: CAPTION_PICTURE_SIDES.0,
        max_side: CAPTION_PICTURE_SIDES.1,
    })
}

const fn fill(area: (f32, f32, f32, f32), color: [u8; 4]) -> Layer {
    Layer::Shape(ShapeSlot {
        shape: Shape::Rect,
        area,
        paint: Paint::Fixed(color),
        stroke: None,
    })
}

#[allow(clippy::too_many_arguments)]
const fn text(
    pieces: &'static [Piece],
    face: FontFace,
    (size, min_size): (f32, f32),
    color: [u8; 4],
    outline: Option<([u8; 4], f32)>,
    valign: VAlign,
    area: (f32, f32, f32, f32),
) -> TextSlot {
    TextSlot {
        replaced_by: None,
        pieces,
        face,
        size,
        min_size,
        color,
        outline,
        align: Align::Center,
        valign,
        area,
        reveal: Reveal::All,
    }
}

/// The tallest `caption` band: its text's box and the room above and
/// below it.
const BAND_PAD: f32 = 36.0;
const BAND_TEXT: f32 = 480.0;
const BAND: f32 = BAND_PAD + BAND_TEXT + BAND_PAD;

/// `caption`: a white band above the picture, `text` in black in it, the
/// band as tall as the text (up to about four lines, then the text
/// shrinks).
pub(super) static CAPTION: Template = Template {
    size: (1000, BAND as u32 + 1000),
    camera: None,
    timeline: STILL,
    layers: &[
        fill((0.0, 0.0, 1000.0, BAND + 1000.0), WHITE),
        Layer::Grow(Grow {
            slot: text(
                &[Piece::Param("text")],
                FontFace::Meme,
                (92.0, 40.0),
                // A growing text's colour is its `paint`.
                [0, 0, 0, 0],
                None,
                VAlign::Middle,
                (40.0, BAND_PAD, 920.0, BAND_TEXT),
            ),
            line_spacing: 1.0,
            paint: Paint::Fixed(BLACK),
            margin: BAND_PAD,
            lead: None,
            markup: None,
            below: &[],
        }),
        picture(0.0, BAND),
    ],
    params: &[caption(
        "text",
        "the caption above the picture, at most 200 characters",
    )],
};

/// `impact`: `top` and `bottom` in white outlined capitals over the
/// picture.
pub(super) static IMPACT: Template = Template {
    size: (1000, 1000),
    camera: None,
    timeline: STILL,
    layers: &[
        picture(0.0, 0.0),
        Layer::Text(text(
            &[Piece::Upper("top")],
            FontFace::Meme,
            (110.0, 40.0),
            WHITE,
            Some((BLACK, 110.0 / 12.0)),
            VAlign::Top,
            (30.0, 24.0, 940.0, 400.0),
        )),
        Layer::Text(text(
            &[Piece::Upper("bottom")],
            FontFace::Meme,
            (110.0, 40.0),
            WHITE,
            Some((BLACK, 110.0 / 12.0)),
            VAlign::Bottom,
            (30.0, 576.0, 940.0, 400.0),
        )),
    ],
    params: &[
        caption(
            "top",
            "the top caption, upper-cased, at most 200 characters",
        ),
        caption(
            "bottom",
            "the bottom caption, upper-cased, at most 200 characters",
        ),
    ],
};

/// The room around the picture on the `motivate` poster.
const POSTER_SIDE: f32 = 110.0;

/// `motivate`: the black poster: the picture in a thin white frame, a big
/// serif `title` and a smaller `text` under it.
pub(super) static MOTIVATE: Template = Template {
    size: (
        1000 + 2 * POSTER_SIDE as u32,
        POSTER_SIDE as u32 + 1000 + 400,
    ),
    camera: None,
    timeline: STILL,
    layers: &[
        fill(
            (0.0, 0.0, 1000.0 + 2.0 * POSTER_SIDE, POSTER_SIDE + 1400.0),
            BLACK,
        ),
        Layer::Shape(ShapeSlot {
            shape: Shape::Rect,
            area: (
                POSTER_SIDE - 16.0,
                POSTER_SIDE - 16.0,
                1000.0 + 32.0,
                1000.0 + 32.0,
            ),
            paint: Paint::Fixed(WHITE),
            stroke: Some(5.0),
        }),
        picture(POSTER_SIDE, POSTER_SIDE),
        Layer::Text(text(
            &[Piece::Param("title")],
            FontFace::SerifItalic,
            (124.0, 44.0),
            WHITE,
            None,
            VAlign::Middle,
            (60.0, POSTER_SIDE + 1000.0 + 50.0, 1100.0, 170.0),
        )),
        Layer::Text(text(
            &[Piece::Param("text")],
            FontFace::Regular,
            (52.0, 26.0),
            WHITE,
            None,
            VAlign::Top,
            (60.0, POSTER_SIDE + 1000.0 + 230.0, 1100.0, 130.0),
        )),
    ],
    params: &[
        caption("title", "the big title, at most 200 characters"),
        caption("text", "the smaller line under it, at most 200 characters"),
    ],
};

/// `speechbubble`: a speech bubble cut out of the top of the picture
/// (transparent there), which a chat shows as a reply bubble.
pub(super) static SPEECHBUBBLE: Template = Template {
    size: (1000, 1000),
    camera: None,
    timeline: STILL,
    layers: &[
        picture(0.0, 0.0),
        Layer::Cut(ShapeSlot {
            shape: Shape::Ellipse,
            area: (-160.0, -300.0, 1320.0, 480.0),
            paint: Paint::Fixed(BLACK),
            stroke: None,
        }),
        Layer::Cut(ShapeSlot {
            shape: Shape::Wedge(0.12),
            area: (230.0, 150.0, 170.0, 190.0),
            paint: Paint::Fixed(BLACK),
            stroke: None,
        }),
    ],
    params: &[],
};
