//! The chat `message` card: one message as a chat client shows it (a
//! quote of someone's message in a bot's reply), grown with its text
//! ([`Layer::Grow`]) and read as chat markup ([`super::Markup`]).
//!
//! Drawn at twice a chat client's sizes, 1000 px wide: the round avatar
//! (80 px), the name (32 px, in `color`, held to the contrast rule over
//! the background), an optional "BOT" tag, the timestamp (24 px, muted,
//! [`super::format_timestamp`]: never a clock, so the same input gives the
//! same pixels), then the text (32 px) wrapped to the card's width. One
//! line gives a 1000 × 152 card (196 with a reply line); each further line
//! adds about 44 px up to [`MESSAGE_MAX_HEIGHT`], where a longer text
//! shrinks (down to 16 px) and is then cut with "…". A reply line
//! (`reply_username`, `reply_text`) sits above, joined to the avatar by
//! the curved reply spine: the name and one line of the quoted text
//! without its markers, and no small avatar (the picture given is the
//! author's, not the quoted person's). Themes: `dark` (the default, a chat
//! client's #313338) and `light` (#ffffff). No mark is drawn on the card.

use super::social::rgb;
use super::{
    AvatarSlot, Grow, Layer, Lead, Markup, Mask, Paint, ParamKind, ParamSpec, Piece, Place, Reveal,
    Row, RowItem, Shape, ShapeSlot, Template, TextSlot, Timeline, When,
};
use crate::text::{Align, FontFace, VAlign};

/// Width of the `message` card, pixels.
pub const MESSAGE_WIDTH: u32 = 1000;
/// The tallest `message` card, pixels (a reply line taken): a text taller
/// than the room left shrinks (down to 16 px) to fit it, then is cut.
pub const MESSAGE_MAX_HEIGHT: u32 = 1200;
/// Cap on a message's text, in characters (a chat client's own cap).
pub const MAX_MESSAGE_CHARS: usize = 2000;
/// Cap on a replied-to message's text, in characters (one line of it is
/// drawn).
const MAX_REPLY_CHARS: usize = 2000;

const STILL: Timeline = Timeline::STILL;

/// The themes, in the order of every colour list below.
const THEMES: &[&str] = &["dark", "light"];
const THEME: &str = "theme";
/// A colour per theme: dark, light.
macro_rules! pick {
    ($dark:expr, $light:expr) => {
        Paint::Pick {
            param: THEME,
            colors: &[$dark, $light],
        }
    };
}
const BG: Paint = pick!(rgb(0x313338), rgb(0xffffff));
const TEXT: Paint = pick!(rgb(0xdbdee1), rgb(0x313338));
const NAME: Paint = pick!(rgb(0xf2f3f5), rgb(0x060607));
const MUTED: Paint = pick!(rgb(0x949ba4), rgb(0x5c5e66));
const SPINE: Paint = pick!(rgb(0x4e5058), rgb(0xc4c9ce));
const BLURPLE: [u8; 4] = rgb(0x5865f2);

/// The text's parameter, and the reply's.
const TEXT_PARAM: &str = "text";
const REPLY_NAME: &str = "reply_username";

/// Room above the header, and under the text.
const TOP: f32 = 32.0;
const MARGIN: f32 = 32.0;
/// The reply line's height (the lead the card takes with a reply).
const LEAD: f32 = 44.0;
/// The avatar's left edge and side.
const AVATAR_X: f32 = 32.0;
const AVATAR: f32 = 80.0;
/// The header's and the text's left edge.
const TEXT_X: f32 = 144.0;
/// Top of the text's box without a reply line.
const BODY_TOP: f32 = TOP + 44.0;
const BODY_H: f32 = MESSAGE_MAX_HEIGHT as f32 - BODY_TOP - LEAD - MARGIN;
const RIGHT: f32 = MESSAGE_WIDTH as f32 - 32.0;

/// The round avatar with its top at `y`.
macro_rules! avatar {
    ($y:expr) => {
        Layer::Avatar(AvatarSlot {
            motion: &[Place::rect(AVATAR_X, $y, AVATAR, AVATAR)],
            mask: Mask::Circle,
            grey: false,
            tint: None,
        })
    };
}

const fn text_item(
    pieces: &'static [Piece],
    face: FontFace,
    size: f32,
    paint: Paint,
    max_width: f32,
    dy: f32,
    gap: f32,
) -> RowItem {
    RowItem::Text {
        replaced_by: None,
        pieces,
        face,
        size,
        paint,
        max_width,
        dy,
        gap,
    }
}

/// The header: the name (in `color` when given, else the theme's), the
/// bot tag, the timestamp.
const HEADER: &[RowItem] = &[
    RowItem::When(
        When::Given("color"),
        &[text_item(
            &[Piece::Param("username")],
            FontFace::Bold,
            32.0,
            Paint::param("color"),
            560.0,
            0.0,
            16.0,
        )],
    ),
    RowItem::When(
        When::Unset("color"),
        &[text_item(
            &[Piece::Param("username")],
            FontFace::Bold,
            32.0,
            NAME,
            560.0,
            0.0,
            16.0,
        )],
    ),
    RowItem::When(
        When::Set("bot"),
        &[
            RowItem::Shape {
                shape: Shape::Rounded(6.0),
                area: (0.0, 8.0, 62.0, 30.0),
                paint: Paint::Fixed(BLURPLE),
                advance: 9.0,
            },
            text_item(
                &[Piece::Lit("BOT")],
                FontFace::Bold,
                20.0,
                Paint::Fixed(rgb(0xffffff)),
                60.0,
                10.0,
                // To the pill's end (the word is about 42 px), then room.
                28.0,
            ),
        ],
    ),
    text_item(
        &[Piece::Param("timestamp")],
        FontFace::Regular,
        24.0,
        MUTED,
        300.0,
        9.0,
        0.0,
    ),
];

/// The reply line: the replied-to name (in `reply_color` when given) and
/// one line of its text, muted, cut with "…".
const REPLY: &[RowItem] = &[
    RowItem::When(
        When::Given("reply_color"),
        &[text_item(
            &[Piece::Handle(REPLY_NAME)],
            FontFace::Bold,
            26.0,
            Paint::param("reply_color"),
            360.0,
            0.0,
            12.0,
        )],
    ),
    RowItem::When(
        When::Unset("reply_color"),
        &[text_item(
            &[Piece::Handle(REPLY_NAME)],
            FontFace::Bold,
            26.0,
            NAME,
            360.0,
            0.0,
            12.0,
        )],
    ),
    text_item(
        &[Piece::Plain("reply_text")],
        FontFace::Regular,
        26.0,
        MUTED,
        RIGHT - TEXT_X,
        0.0,
        0.0,
    ),
];

const fn when(when: When, layer: &'static Layer) -> Layer {
    Layer::When { when, layer }
}

const fn fill(area: (f32, f32, f32, f32), paint: Paint) -> Layer {
    Layer::Shape(ShapeSlot {
        shape: Shape::Rect,
        area,
        paint,
        stroke: None,
    })
}

/// The reply spine's middle: from above the avatar's centre, curving right
/// to the reply line.
const SPINE_Y: f32 = TOP + 20.0;

/// A chat message card.
pub(super) static MESSAGE: Template = Template {
    size: (MESSAGE_WIDTH, MESSAGE_MAX_HEIGHT),
    camera: None,
    timeline: STILL,
    layers: &[
        fill(
            (0.0, 0.0, MESSAGE_WIDTH as f32, MESSAGE_MAX_HEIGHT as f32),
            BG,
        ),
        // The reply spine: a rounded frame's top-left corner, the rest of
        // it covered by the background.
        when(
            When::Set(REPLY_NAME),
            &Layer::Shape(ShapeSlot {
                shape: Shape::Rounded(14.0),
                area: (
                    AVATAR_X + AVATAR / 2.0 - 2.0,
                    SPINE_Y,
                    TEXT_X - AVATAR_X - AVATAR / 2.0 + 40.0,
                    80.0,
                ),
                paint: SPINE,
                stroke: Some(4.0),
            }),
        ),
        when(
            When::Set(REPLY_NAME),
            &fill((TEXT_X - 14.0, SPINE_Y - 4.0, 80.0, 90.0), BG),
        ),
        when(
            When::Set(REPLY_NAME),
            &fill((AVATAR_X, TOP + LEAD - 8.0, 140.0, 80.0), BG),
        ),
        when(When::Unset(REPLY_NAME), &avatar!(TOP)),
        when(When::Set(REPLY_NAME), &avatar!(TOP + LEAD)),
        when(
            When::Set(REPLY_NAME),
            &Layer::Row(Row {
                x: TEXT_X,
                y: TOP + 2.0,
                right: Some(RIGHT),
                items: REPLY,
            }),
        ),
        when(
            When::Unset(REPLY_NAME),
            &Layer::Row(Row {
                x: TEXT_X,
                y: TOP,
                right: Some(RIGHT),
                items: HEADER,
            }),
        ),
        when(
            When::Set(REPLY_NAME),
            &Layer::Row(Row {
                x: TEXT_X,
                y: TOP + LEAD,
                right: Some(RIGHT),
                items: HEADER,
            }),
        ),
        Layer::Grow(Grow {
            slot: TextSlot {
                replaced_by: None,
                pieces: &[Piece::Param(TEXT_PARAM)],
                face: FontFace::Regular,
                size: 32.0,
                min_size: 16.0,
                color: [0, 0, 0, 0],
                outline: None,
                align: Align::Left,
                valign: VAlign::Top,
                area: (TEXT_X, BODY_TOP, RIGHT - TEXT_X, BODY_H),
                reveal: Reveal::All,
            },
            line_spacing: 1.0,
            paint: TEXT,
            margin: MARGIN,
            below: &[],
            lead: Some(Lead {
                when: When::Set(REPLY_NAME),
                by: LEAD,
            }),
            markup: Some(Markup {
                mention: pick!(rgb(0xc9cdfb), rgb(0x505cdc)),
                mention_chip: pick!([88, 101, 242, 77], [88, 101, 242, 38]),
                code_chip: pick!(rgb(0x2b2d31), rgb(0xf2f3f5)),
            }),
        }),
    ],
    params: &[
        ParamSpec {
            name: "username",
            kind: ParamKind::Text {
                max_chars: crate::text::MAX_NAME_CHARS,
                default: "",
            },
            doc: "the author's name, at most 64 characters",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: TEXT_PARAM,
            kind: ParamKind::Text {
                max_chars: MAX_MESSAGE_CHARS,
                default: "",
            },
            doc: "the message, 1 to 2000 characters, in chat markup (**bold**, *italic* or _italic_, ~~strike~~, `code`, @mentions; \\ before a marker keeps it literal): the card grows with it",
            expected: "expected 1 to 2000 characters",
        },
        ParamSpec {
            name: "color",
            kind: ParamKind::Colour { default: 0xf2f3f5 },
            doc: "the name's colour, RRGGBB (default: the theme's); a colour that would not read over the card is drawn in black or white",
            expected: "expected a colour, six hexadecimal digits RRGGBB",
        },
        ParamSpec {
            name: "timestamp",
            kind: ParamKind::Time,
            doc: "when it was sent, ISO 8601 (2026-11-29T08:15:00Z, or an offset such as +05:30 instead of Z), drawn in UTC as 11/29/2026 8:15 AM; none when absent",
            expected: "expected an ISO 8601 timestamp such as 2026-11-29T08:15:00Z (an offset such as +05:30 instead of Z)",
        },
        ParamSpec {
            name: THEME,
            kind: ParamKind::Choice {
                options: THEMES,
                default: 0,
            },
            doc: "colour theme: dark (default) or light",
            expected: "expected dark or light",
        },
        ParamSpec {
            name: "bot",
            kind: ParamKind::Bool { default: false },
            doc: "true adds the BOT tag after the name",
            expected: "expected true or false",
        },
        ParamSpec {
            name: REPLY_NAME,
            kind: ParamKind::Text {
                max_chars: crate::text::MAX_NAME_CHARS,
                default: "",
            },
            doc: "the name of the message replied to: adds the reply line above, at most 64 characters",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "reply_text",
            kind: ParamKind::Text {
                max_chars: MAX_REPLY_CHARS,
                default: "",
            },
            doc: "the text of the message replied to (needs reply_username), one line of it drawn, at most 2000 characters",
            expected: "expected at most 2000 characters, with reply_username",
        },
        ParamSpec {
            name: "reply_color",
            kind: ParamKind::Colour { default: 0xf2f3f5 },
            doc: "the replied-to name's colour, RRGGBB (default: the theme's)",
            expected: "expected a colour, six hexadecimal digits RRGGBB",
        },
    ],
};
