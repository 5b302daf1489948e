//! The social cards: the microblog `post` and the `video-comment`, cards
//! that grow with their comment ([`Layer::Grow`]), and their icons.
//!
//! `post` draws its comment at 52 px and `video-comment` at 34 px, wrapped
//! to the card's width; the card ends right below the text: one line gives
//! the compact card (1200 × 471 and 1200 × 227), each further line adds
//! about 79 px and 51 px. A comment taller than the room left at the
//! largest height ([`POST_MAX_HEIGHT`], [`VIDEO_COMMENT_MAX_HEIGHT`]) is
//! shrunk to fit it (down to 20 px and 16 px text), then cut with "…".
//! Dates, times and counters not given are fixed, never read from a
//! clock, so the same input always gives the same pixels.

use tiny_skia::{Color, PathBuilder};

use super::{
    Art, AvatarSlot, Grow, Layer, Mask, Paint, ParamKind, ParamSpec, Piece, Place, Reveal, Row,
    RowItem, Shape, ShapeSlot, Template, TextSlot, Timeline, When,
};
use crate::paint::{Canvas, heart, rgba};
use crate::text::{Align, FontFace, VAlign};

/// Width of the `post` card, pixels.
pub const POST_WIDTH: u32 = 1200;
/// The tallest `post` card, pixels: a comment whose text is taller than the
/// room left at this height shrinks (down to 20 px text) to fit it.
pub const POST_MAX_HEIGHT: u32 = 1400;
/// Width of the `video-comment` card, pixels.
pub const VIDEO_COMMENT_WIDTH: u32 = 1200;
/// The tallest `video-comment` card, pixels (longer comments shrink down to
/// 16 px text to fit).
pub const VIDEO_COMMENT_MAX_HEIGHT: u32 = 800;
/// Cap on post and video comments, in characters.
pub const MAX_COMMENT_CHARS: usize = 1000;
/// Largest counter `post` draws (`replies`, `likes`, `retweets`).
pub const MAX_COUNTER: u64 = 999_999_999_999;

const STILL: Timeline = Timeline::STILL;

/// An opaque colour from `0xRRGGBB`.
pub(super) const fn rgb(hex: u32) -> [u8; 4] {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255]
}

/// The post's themes, in the order of every colour list below.
const THEMES: &[&str] = &["light", "dim", "dark"];
const THEME: &str = "theme";
const BG: Paint = Paint::Pick {
    param: THEME,
    colors: &[rgb(0xffffff), rgb(0x15202b), rgb(0x000000)],
};
const TEXT: Paint = Paint::Pick {
    param: THEME,
    colors: &[rgb(0x0f1419), rgb(0xf7f9f9), rgb(0xe7e9ea)],
};
/// The muted colour of each theme, `0xRRGGBB` (the icons' too).
const MUTED_HEX: [u32; 3] = [0x536471, 0x8b98a5, 0x71767b];
const MUTED: Paint = Paint::Pick {
    param: THEME,
    colors: &[rgb(MUTED_HEX[0]), rgb(MUTED_HEX[1]), rgb(MUTED_HEX[2])],
};
const BORDER: Paint = Paint::Pick {
    param: THEME,
    colors: &[rgb(0xeff3f4), rgb(0x38444d), rgb(0x2f3336)],
};

/// The post's side margin.
const PAD: f32 = 56.0;
/// The post's timestamp line (there is no parameter for it).
const POST_DATE: &str = "4:20 PM · Apr 20, 2024";
/// Top of the post's comment; the room the date, counters and actions
/// take below it.
const POST_BODY_TOP: f32 = 200.0;
const POST_FOOTER: f32 = 200.0;
/// Where the comment's box ends on the tallest card: the footer's origin.
const POST_BODY_END: f32 = POST_MAX_HEIGHT as f32 - POST_FOOTER;
/// The action icons' strip: its top-left on the tallest card and its size.
const ACTIONS_AT: (f32, f32) = (PAD, POST_BODY_END + 148.0);
/// Size of the action icons' strip ([`Art::PostActionsLight`] …).
pub(super) const ACTIONS_SIZE: (u32, u32) = (POST_WIDTH - 2 * PAD as u32, 48);

/// The same for the video comment.
const VC_BODY_TOP: f32 = 88.0;
const VC_FOOTER: f32 = 92.0;
const VC_TEXT_X: f32 = 164.0;
const VC_BODY_END: f32 = VIDEO_COMMENT_MAX_HEIGHT as f32 - VC_FOOTER;
const VC_TEXT: [u8; 4] = rgb(0xf1f1f1);
const VC_MUTED: [u8; 4] = rgb(0xaaaaaa);
/// Size of a thumb icon ([`Art::ThumbUp`], [`Art::ThumbDown`]): the
/// 36-pixel thumb with 2 pixels around it.
pub(super) const THUMB_SIZE: (u32, u32) = (40, 40);

/// A single line of text in a row.
const fn text(pieces: &'static [Piece], face: FontFace, size: f32, paint: Paint) -> RowItem {
    RowItem::Text {
        replaced_by: None,
        pieces,
        face,
        size,
        paint,
        max_width: 300.0,
        dy: 0.0,
        gap: 0.0,
    }
}

/// `item` (a [`RowItem::Text`]) at most `max_width` wide, `gap` before the
/// next item and `dy` below the row's top.
const fn sized(item: RowItem, max_width: f32, gap: f32, dy: f32) -> RowItem {
    match item {
        RowItem::Text {
            replaced_by,
            pieces,
            face,
            size,
            paint,
            ..
        } => RowItem::Text {
            replaced_by,
            pieces,
            face,
            size,
            paint,
            max_width,
            dy,
            gap,
        },
        other => other,
    }
}

const fn row(x: f32, y: f32, items: &'static [RowItem]) -> Layer {
    Layer::Row(Row {
        x,
        y,
        right: None,
        items,
    })
}

const fn rect(area: (f32, f32, f32, f32), paint: Paint) -> Layer {
    Layer::Shape(ShapeSlot {
        shape: Shape::Rect,
        area,
        paint,
        stroke: None,
    })
}

/// One of the three dots of the post's menu.
const fn dot(i: f32) -> Layer {
    Layer::Shape(ShapeSlot {
        shape: Shape::Ellipse,
        area: (
            POST_WIDTH as f32 - PAD - 40.0 + i * 14.0 - 4.0,
            PAD + 30.0 - 4.0,
            8.0,
            8.0,
        ),
        paint: MUTED,
        stroke: None,
    })
}

/// A growing comment slot.
const fn comment(area: (f32, f32, f32, f32), size: f32, min_size: f32) -> TextSlot {
    TextSlot {
        replaced_by: None,
        pieces: &[Piece::Param("comment")],
        face: FontFace::Regular,
        size,
        min_size,
        color: [0, 0, 0, 0],
        outline: None,
        align: Align::Left,
        valign: VAlign::Top,
        area,
        reveal: Reveal::All,
    }
}

/// A counter of the post, bold, and its label, muted.
const fn counter(pieces: &'static [Piece]) -> RowItem {
    sized(text(pieces, FontFace::Bold, 30.0, TEXT), 300.0, 10.0, 0.0)
}

const fn label(word: &'static [Piece]) -> RowItem {
    sized(text(word, FontFace::Regular, 30.0, MUTED), 300.0, 36.0, 0.0)
}

/// A microblog post card: the round avatar, the display name (the
/// username when blank) and `@username`, the comment (the card grows with
/// it), the date, the counters (replies only when given) and the actions.
pub(super) static POST: Template = Template {
    size: (POST_WIDTH, POST_MAX_HEIGHT),
    camera: None,
    timeline: STILL,
    layers: &[
        rect((0.0, 0.0, POST_WIDTH as f32, POST_MAX_HEIGHT as f32), BG),
        Layer::Avatar(AvatarSlot {
            motion: &[Place::rect(PAD, PAD, 112.0, 112.0)],
            mask: Mask::Circle,
            grey: false,
            tint: None,
        }),
        row(
            PAD + 140.0,
            PAD + 4.0,
            &[RowItem::Text {
                replaced_by: Some("displayname"),
                pieces: &[Piece::Param("username")],
                face: FontFace::Bold,
                size: 40.0,
                paint: TEXT,
                max_width: 860.0,
                dy: 0.0,
                gap: 0.0,
            }],
        ),
        row(
            PAD + 140.0,
            PAD + 58.0,
            &[sized(
                text(&[Piece::Handle("username")], FontFace::Regular, 34.0, MUTED),
                860.0,
                0.0,
                0.0,
            )],
        ),
        dot(0.0),
        dot(1.0),
        dot(2.0),
        Layer::Grow(Grow {
            slot: comment(
                (
                    PAD,
                    POST_BODY_TOP,
                    POST_WIDTH as f32 - 2.0 * PAD,
                    POST_BODY_END - POST_BODY_TOP,
                ),
                52.0,
                20.0,
            ),
            line_spacing: 1.12,
            paint: TEXT,
            margin: POST_FOOTER,
            lead: None,
            markup: None,
            below: &[
                row(
                    PAD,
                    POST_BODY_END + 14.0,
                    &[sized(
                        text(&[Piece::Lit(POST_DATE)], FontFace::Regular, 30.0, MUTED),
                        POST_WIDTH as f32 - 2.0 * PAD,
                        0.0,
                        0.0,
                    )],
                ),
                rect(
                    (
                        PAD,
                        POST_BODY_END + 68.0,
                        POST_WIDTH as f32 - 2.0 * PAD,
                        2.0,
                    ),
                    BORDER,
                ),
                row(
                    PAD,
                    POST_BODY_END + 84.0,
                    &[
                        RowItem::When(
                            When::Given("replies"),
                            &[
                                counter(&[Piece::Compact("replies")]),
                                label(&[Piece::Lit("Replies")]),
                            ],
                        ),
                        counter(&[Piece::Compact("retweets")]),
                        label(&[Piece::Lit("Reposts")]),
                        counter(&[Piece::Lit("42")]),
                        label(&[Piece::Lit("Quotes")]),
                        counter(&[Piece::Compact("likes")]),
                        label(&[Piece::Lit("Likes")]),
                    ],
                ),
                rect(
                    (
                        PAD,
                        POST_BODY_END + 140.0,
                        POST_WIDTH as f32 - 2.0 * PAD,
                        2.0,
                    ),
                    BORDER,
                ),
                Layer::ArtChoice {
                    param: THEME,
                    arts: &[
                        Art::PostActionsLight,
                        Art::PostActionsDim,
                        Art::PostActionsDark,
                    ],
                    motion: &[Place::rect(
                        ACTIONS_AT.0,
                        ACTIONS_AT.1,
                        ACTIONS_SIZE.0 as f32,
                        ACTIONS_SIZE.1 as f32,
                    )],
                },
            ],
        }),
    ],
    params: &[
        ParamSpec {
            name: "username",
            kind: ParamKind::Text {
                max_chars: crate::text::MAX_NAME_CHARS,
                default: "",
            },
            doc: "the handle, drawn as @username, at most 64 characters",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "displayname",
            kind: ParamKind::Text {
                max_chars: crate::text::MAX_NAME_CHARS,
                default: "",
            },
            doc: "the display name, drawn bold (the username when blank), at most 64 characters",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "comment",
            kind: ParamKind::Text {
                max_chars: MAX_COMMENT_CHARS,
                default: "",
            },
            doc: "the post's text, at most 1000 characters: the card grows with it",
            expected: "expected at most 1000 characters",
        },
        ParamSpec {
            name: THEME,
            kind: ParamKind::Choice {
                options: THEMES,
                default: 0,
            },
            doc: "colour theme: light (default), dim or dark",
            expected: "expected light, dim or dark",
        },
        ParamSpec {
            name: "replies",
            kind: ParamKind::Int {
                min: 0,
                max: MAX_COUNTER,
                default: 0,
            },
            doc: "reply counter, drawn first in the counter row when given",
            expected: "expected a whole number from 0 to 999999999999",
        },
        ParamSpec {
            name: "likes",
            kind: ParamKind::Int {
                min: 0,
                max: MAX_COUNTER,
                default: 12_800,
            },
            doc: "like counter (default 12800, drawn 12.8K)",
            expected: "expected a whole number from 0 to 999999999999",
        },
        ParamSpec {
            name: "retweets",
            kind: ParamKind::Int {
                min: 0,
                max: MAX_COUNTER,
                default: 1337,
            },
            doc: "repost counter (default 1337)",
            expected: "expected a whole number from 0 to 999999999999",
        },
    ],
};

/// A dark video-site comment: the round avatar, `@username` and the age
/// of the comment, the comment (the card grows with it), the likes and
/// the reply button.
pub(super) static VIDEO_COMMENT: Template = Template {
    size: (VIDEO_COMMENT_WIDTH, VIDEO_COMMENT_MAX_HEIGHT),
    camera: None,
    timeline: STILL,
    layers: &[
        rect(
            (
                0.0,
                0.0,
                VIDEO_COMMENT_WIDTH as f32,
                VIDEO_COMMENT_MAX_HEIGHT as f32,
            ),
            Paint::Fixed(rgb(0x0f0f0f)),
        ),
        Layer::Avatar(AvatarSlot {
            motion: &[Place::rect(40.0, 40.0, 96.0, 96.0)],
            mask: Mask::Circle,
            grey: false,
            tint: None,
        }),
        Layer::Row(Row {
            x: VC_TEXT_X,
            y: 36.0,
            right: Some(VIDEO_COMMENT_WIDTH as f32 - 40.0),
            items: &[
                sized(
                    text(
                        &[Piece::Handle("username")],
                        FontFace::Bold,
                        30.0,
                        Paint::Fixed(VC_TEXT),
                    ),
                    700.0,
                    16.0,
                    0.0,
                ),
                sized(
                    text(
                        &[Piece::Lit("2 hours ago")],
                        FontFace::Regular,
                        28.0,
                        Paint::Fixed(VC_MUTED),
                    ),
                    VIDEO_COMMENT_WIDTH as f32,
                    0.0,
                    2.0,
                ),
            ],
        }),
        Layer::Grow(Grow {
            slot: comment(
                (
                    VC_TEXT_X,
                    VC_BODY_TOP,
                    VIDEO_COMMENT_WIDTH as f32 - VC_TEXT_X - 48.0,
                    VC_BODY_END - VC_BODY_TOP,
                ),
                34.0,
                16.0,
            ),
            line_spacing: 1.1,
            paint: Paint::Fixed(VC_TEXT),
            margin: VC_FOOTER,
            lead: None,
            markup: None,
            below: &[row(
                VC_TEXT_X,
                VC_BODY_END + 20.0,
                &[
                    RowItem::Art {
                        art: Art::ThumbUp,
                        at: (-2.0, 0.0),
                        advance: 48.0,
                    },
                    sized(
                        text(
                            &[Piece::Lit("2,400")],
                            FontFace::Regular,
                            28.0,
                            Paint::Fixed(VC_MUTED),
                        ),
                        160.0,
                        30.0,
                        0.0,
                    ),
                    RowItem::Art {
                        art: Art::ThumbDown,
                        at: (-2.0, 2.0),
                        advance: 76.0,
                    },
                    RowItem::Shape {
                        shape: Shape::Rounded(26.0),
                        area: (-18.0, -6.0, 116.0, 52.0),
                        paint: Paint::Fixed([255, 255, 255, 24]),
                        advance: 0.0,
                    },
                    sized(
                        text(
                            &[Piece::Lit("Reply")],
                            FontFace::Bold,
                            28.0,
                            Paint::Fixed(VC_TEXT),
                        ),
                        120.0,
                        0.0,
                        0.0,
                    ),
                ],
            )],
        }),
    ],
    params: &[
        ParamSpec {
            name: "username",
            kind: ParamKind::Text {
                max_chars: crate::text::MAX_NAME_CHARS,
                default: "",
            },
            doc: "the commenter, drawn as @username, at most 64 characters",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "comment",
            kind: ParamKind::Text {
                max_chars: MAX_COMMENT_CHARS,
                default: "",
            },
            doc: "the comment, at most 1000 characters: the card grows with it",
            expected: "expected at most 1000 characters",
        },
    ],
};

/// The post's action icons in a theme (0 light, 1 dim, 2 dark): reply,
/// repost, the pink like heart and share, each centred in a quarter of the
/// strip ([`ACTIONS_SIZE`]).
pub(super) fn actions(c: &mut Canvas, theme: usize) {
    let col = rgba(MUTED_HEX[theme.min(2)], 255);
    let slot = ACTIONS_SIZE.0 as f32 / 4.0;
    let iy = POST_BODY_END + 152.0 - ACTIONS_AT.1;
    reply_icon(c, slot * 0.5 - 20.0, iy, col);
    repost_icon(c, slot * 1.5 - 20.0, iy, col);
    c.color(&heart(slot * 2.5, iy + 18.0, 38.0), rgba(0xf91880, 255));
    share_icon(c, slot * 3.5 - 20.0, iy, col);
}

/// A thumb icon (up, or down) in the video comment's light grey, drawn 2
/// pixels in from the corner of its [`THUMB_SIZE`] box.
pub(super) fn thumb_icon(c: &mut Canvas, down: bool) {
    thumb(c, 2.0, 2.0, down, rgba(0xf1f1f1, 255));
}

fn reply_icon(c: &mut Canvas, x: f32, y: f32, col: Color) {
    let mut pb = PathBuilder::new();
    pb.move_to(x + 6.0, y + 26.0);
    pb.line_to(x + 2.0, y + 34.0);
    pb.line_to(x + 14.0, y + 28.0);
    pb.line_to(x + 26.0, y + 28.0);
    pb.quad_to(x + 36.0, y + 28.0, x + 36.0, y + 18.0);
    pb.line_to(x + 36.0, y + 12.0);
    pb.quad_to(x + 36.0, y + 2.0, x + 26.0, y + 2.0);
    pb.line_to(x + 12.0, y + 2.0);
    pb.quad_to(x + 2.0, y + 2.0, x + 2.0, y + 12.0);
    pb.line_to(x + 2.0, y + 18.0);
    pb.quad_to(x + 2.0, y + 24.0, x + 6.0, y + 26.0);
    pb.close();
    c.stroke(&pb.finish().expect("reply"), col, 3.0);
}

fn repost_icon(c: &mut Canvas, x: f32, y: f32, col: Color) {
    let mut pb = PathBuilder::new();
    pb.move_to(x + 8.0, y + 28.0);
    pb.line_to(x + 8.0, y + 8.0);
    pb.line_to(x + 28.0, y + 8.0);
    pb.move_to(x + 2.0, y + 22.0);
    pb.line_to(x + 8.0, y + 29.0);
    pb.line_to(x + 14.0, y + 22.0);
    pb.move_to(x + 32.0, y + 8.0);
    pb.line_to(x + 32.0, y + 28.0);
    pb.line_to(x + 12.0, y + 28.0);
    pb.move_to(x + 26.0, y + 14.0);
    pb.line_to(x + 32.0, y + 7.0);
    pb.line_to(x + 38.0, y + 14.0);
    c.stroke(&pb.finish().expect("repost"), col, 3.0);
}

fn share_icon(c: &mut Canvas, x: f32, y: f32, col: Color) {
    let mut pb = PathBuilder::new();
    pb.move_to(x + 4.0, y + 20.0);
    pb.line_to(x + 4.0, y + 32.0);
    pb.line_to(x + 34.0, y + 32.0);
    pb.line_to(x + 34.0, y + 20.0);
    pb.move_to(x + 19.0, y + 24.0);
    pb.line_to(x + 19.0, y + 2.0);
    pb.move_to(x + 10.0, y + 11.0);
    pb.line_to(x + 19.0, y + 2.0);
    pb.line_to(x + 28.0, y + 11.0);
    c.stroke(&pb.finish().expect("share"), col, 3.0);
}

fn thumb(c: &mut Canvas, x: f32, y: f32, down: bool, col: Color) {
    // A thumbs-up drawn in a 36×36 box; flipped vertically for thumbs-down.
    let f = |yy: f32| if down { y + 36.0 - yy } else { y + yy };
    let mut pb = PathBuilder::new();
    pb.move_to(x + 2.0, f(16.0));
    pb.line_to(x + 9.0, f(16.0));
    pb.line_to(x + 9.0, f(34.0));
    pb.line_to(x + 2.0, f(34.0));
    pb.close();
    pb.move_to(x + 12.0, f(16.0));
    pb.line_to(x + 18.0, f(4.0));
    pb.quad_to(x + 24.0, f(3.0), x + 23.0, f(10.0));
    pb.line_to(x + 21.0, f(15.0));
    pb.line_to(x + 31.0, f(15.0));
    pb.quad_to(x + 36.0, f(16.0), x + 34.0, f(21.0));
    pb.line_to(x + 30.0, f(32.0));
    pb.quad_to(x + 29.0, f(34.0), x + 26.0, f(34.0));
    pb.line_to(x + 12.0, f(34.0));
    pb.close();
    c.stroke(&pb.finish().expect("thumb"), col, 2.6);
}
