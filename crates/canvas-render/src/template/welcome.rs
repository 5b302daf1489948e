//! The seven welcome cards, as data: 1200×600 stills over one of the 13
//! shared backgrounds (chosen by the `background` parameter, or replaced by
//! a custom image from the source `bg`), each with its own layout, avatar
//! frame and typography.
//!
//! Every card has the same parameters ([`PARAMS`]) and the same four text
//! lines, placed differently:
//!
//! * the title: "WELCOME" or "GOODBYE" (`type`), in `textcolor`;
//! * the name: `username`, or "New member" / "A member" without one;
//! * the server line: "to `<guildName>`" / "has left `<guildName>`"
//!   (`guildName` absent: "the server");
//! * the member line: "Member #1,234" / "1,234 members remain", only when
//!   `memberCount` is given.
//!
//! Name boxes are one line high at their largest size and their smallest
//! size is above half of it, so a long name shrinks on one line, then is
//! cut with "…" at a grapheme boundary; it never wraps.

use super::{
    Art, AvatarSlot, Layer, Mask, Palette, ParamKind, ParamSpec, Piece, Place, Reveal, Template,
    TextSlot, Timeline,
};
use crate::text::{Align, FontFace, VAlign};

/// The welcome card's size.
pub const SIZE: (u32, u32) = (1200, 600);

/// The URL names of the backgrounds, in [`Art::BACKDROPS`] order.
pub const BACKGROUNDS: [&str; 13] = [
    "blobday",
    "blobnight",
    "gaming1",
    "gaming2",
    "gaming3",
    "gaming4",
    "night",
    "rainbow",
    "rainbowgradient",
    "space",
    "stars",
    "stars2",
    "sunset",
];

/// The `textcolor` names, in the order of their colours (`TEXT_COLORS`).
pub const TEXT_COLOR_NAMES: [&str; 10] = [
    "red", "orange", "yellow", "green", "blue", "indigo", "purple", "pink", "black", "white",
];

/// The colour of each `textcolor` name.
pub const TEXT_COLORS: [[u8; 4]; 10] = [
    [0xff, 0x4b, 0x4b, 255],
    [0xff, 0x9f, 0x1c, 255],
    [0xff, 0xd9, 0x3d, 255],
    [0x3d, 0xdc, 0x84, 255],
    [0x3b, 0x9b, 0xff, 255],
    [0x6c, 0x72, 0xff, 255],
    [0xb0, 0x6a, 0xf5, 255],
    [0xff, 0x6f, 0xb5, 255],
    [0x11, 0x11, 0x11, 255],
    [0xff, 0xff, 0xff, 255],
];

/// Cap on `username`, in characters.
pub const MAX_USERNAME_CHARS: usize = 64;
/// Cap on `guildName`, in characters (a chat server's name is at most 100).
pub const MAX_GUILD_CHARS: usize = 100;
/// Largest `memberCount`.
pub const MAX_MEMBER_COUNT: u32 = 999_999_999;

/// The parameters every welcome card takes.
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "type",
        kind: ParamKind::Choice {
            options: &["join", "leave"],
            default: 0,
        },
        doc: "join or leave, in any case (default join): \"WELCOME\" or \"GOODBYE\" and the wording of the lines",
        expected: "expected join or leave",
    },
    ParamSpec {
        name: "textcolor",
        kind: ParamKind::Choice {
            options: &TEXT_COLOR_NAMES,
            default: 9,
        },
        doc: "colour of the title and the name: red, orange, yellow, green, blue, indigo, purple, pink, black or white, in any case (default white)",
        expected: "expected one of red, orange, yellow, green, blue, indigo, purple, pink, black, white",
    },
    ParamSpec {
        name: "username",
        kind: ParamKind::Text {
            max_chars: MAX_USERNAME_CHARS,
            default: "",
        },
        doc: "the member's name, at most 64 characters (absent: \"New member\", or \"A member\" when leaving); long names shrink, then end with \"…\"",
        expected: "expected at most 64 characters",
    },
    ParamSpec {
        name: "guildName",
        kind: ParamKind::Text {
            max_chars: MAX_GUILD_CHARS,
            default: "the server",
        },
        doc: "the server's name, at most 100 characters (default \"the server\")",
        expected: "expected at most 100 characters",
    },
    ParamSpec {
        name: "memberCount",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_MEMBER_COUNT as u64,
            default: 1,
        },
        doc: "the member count, a whole number from 1 to 999999999, drawn with thousands separators (absent: no member line)",
        expected: "expected a whole number from 1 to 999999999",
    },
    ParamSpec {
        name: "background",
        kind: ParamKind::Choice {
            options: &BACKGROUNDS,
            default: 0,
        },
        doc: "the background: blobday, blobnight, gaming1, gaming2, gaming3, gaming4, night, rainbow, rainbowgradient, space, stars, stars2 or sunset",
        expected: "expected one of blobday, blobnight, gaming1, gaming2, gaming3, gaming4, night, rainbow, rainbowgradient, space, stars, stars2, sunset",
    },
];

const STILL: Timeline = Timeline::STILL;

const FULL: &[Place] = &[Place::rect(0.0, 0.0, 1200.0, 600.0)];

/// The background, then the custom `bg` image over it when one is given.
const BACKGROUND: Layer = Layer::ArtChoice {
    param: "background",
    arts: &Art::BACKDROPS,
    motion: FULL,
};
const CUSTOM_BG: Layer = Layer::Image {
    source: "bg",
    motion: FULL,
    mask: Mask::Square,
};

const TITLE: &[Piece] = &[Piece::Pick {
    param: "type",
    texts: &["WELCOME", "GOODBYE"],
}];
const NAME: &[Piece] = &[Piece::Pick {
    param: "type",
    texts: &["New member", "A member"],
}];
const GUILD: &[Piece] = &[
    Piece::Pick {
        param: "type",
        texts: &["to ", "has left "],
    },
    Piece::Param("guildName"),
];
const MEMBERS: &[Piece] = &[Piece::IfGiven {
    param: "memberCount",
    pieces: &[
        Piece::Pick {
            param: "type",
            texts: &["Member #", ""],
        },
        Piece::Param("memberCount"),
        Piece::Pick {
            param: "type",
            texts: &["", " members remain"],
        },
    ],
}];

/// The palette of `textcolor`; under black, outlines turn light.
const PALETTE: Palette = Palette {
    param: "textcolor",
    colors: &TEXT_COLORS,
    light_outline: [255, 255, 255, 230],
};

/// A soft dark outline that keeps light text readable over any background.
const SOFT: Option<([u8; 4], f32)> = Some(([0, 0, 0, 150], 2.0));

/// A one-line text slot: `pieces` in `face` at `size` (down to `min`) in
/// `area`, `color`, no outline.
const fn line(
    pieces: &'static [Piece],
    face: FontFace,
    (size, min): (f32, f32),
    align: Align,
    area: (f32, f32, f32, f32),
    color: [u8; 4],
) -> TextSlot {
    TextSlot {
        replaced_by: None,
        pieces,
        face,
        size,
        min_size: min,
        color,
        outline: None,
        align,
        valign: VAlign::Middle,
        area,
        reveal: Reveal::All,
    }
}

/// The title, in `textcolor`.
const fn title(
    face: FontFace,
    size: (f32, f32),
    align: Align,
    area: (f32, f32, f32, f32),
) -> Layer {
    let mut slot = line(TITLE, face, size, align, area, [255; 4]);
    slot.outline = SOFT;
    Layer::PaletteText(slot, PALETTE)
}

/// The name: `username`, or "New member" / "A member".
const fn name(slot: TextSlot) -> TextSlot {
    TextSlot {
        replaced_by: Some("username"),
        outline: SOFT,
        ..slot
    }
}

const fn avatar(place: &'static [Place], mask: Mask) -> Layer {
    Layer::Avatar(AvatarSlot {
        motion: place,
        mask,
        grey: false,
        tint: None,
    })
}

/// A card's own art at its region ([`super::cards::region`]; a test holds
/// the two together).
const fn card(art: Art, at: &'static [Place]) -> Layer {
    Layer::Art { art, motion: at }
}

const WHITE: [u8; 4] = [255, 255, 255, 255];

const fn text(slot: TextSlot) -> Layer {
    Layer::Text(slot)
}

const fn colored(slot: TextSlot) -> Layer {
    Layer::PaletteText(slot, PALETTE)
}

/// 1, classic: a centred glass panel, the round avatar in a white ring on
/// top, centred lines under it.
pub(super) static WELCOME_1: Template = Template {
    size: SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        BACKGROUND,
        CUSTOM_BG,
        card(Art::Welcome1, &[Place::rect(150.0, 30.0, 900.0, 545.0)]),
        avatar(&[Place::rect(490.0, 65.0, 220.0, 220.0)], Mask::Circle),
        title(
            FontFace::Bold,
            (60.0, 33.0),
            Align::Center,
            (200.0, 298.0, 800.0, 84.0),
        ),
        text(name(line(
            NAME,
            FontFace::Bold,
            (46.0, 26.0),
            Align::Center,
            (200.0, 390.0, 800.0, 64.0),
            WHITE,
        ))),
        text(line(
            GUILD,
            FontFace::Regular,
            (30.0, 17.0),
            Align::Center,
            (200.0, 452.0, 800.0, 42.0),
            [0xe4, 0xe8, 0xf4, 255],
        )),
        text(line(
            MEMBERS,
            FontFace::Regular,
            (23.0, 13.0),
            Align::Center,
            (200.0, 496.0, 800.0, 33.0),
            [0xaa, 0xb4, 0xd0, 255],
        )),
    ],
    params: PARAMS,
};

/// 2, pill: a wide rounded card, the avatar at its left end in a gradient
/// ring, left-aligned lines with a large name.
pub(super) static WELCOME_2: Template = Template {
    size: SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        BACKGROUND,
        CUSTOM_BG,
        card(Art::Welcome2, &[Place::rect(30.0, 100.0, 1140.0, 410.0)]),
        avatar(&[Place::rect(80.0, 150.0, 300.0, 300.0)], Mask::Circle),
        title(
            FontFace::Bold,
            (38.0, 21.0),
            Align::Left,
            (440.0, 158.0, 620.0, 54.0),
        ),
        text(name(line(
            NAME,
            FontFace::Bold,
            (66.0, 37.0),
            Align::Left,
            (440.0, 226.0, 640.0, 93.0),
            WHITE,
        ))),
        text(line(
            GUILD,
            FontFace::Regular,
            (30.0, 17.0),
            Align::Left,
            (440.0, 322.0, 620.0, 42.0),
            [0xd6, 0xdc, 0xf0, 255],
        )),
        text(line(
            MEMBERS,
            FontFace::Regular,
            (24.0, 14.0),
            Align::Left,
            (440.0, 372.0, 620.0, 34.0),
            [0x9a, 0xa6, 0xc7, 255],
        )),
    ],
    params: PARAMS,
};

/// 3, split: a dark angled panel with a gold edge; the avatar in a white
/// rounded frame on the left, the lines on the panel.
pub(super) static WELCOME_3: Template = Template {
    size: SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        BACKGROUND,
        CUSTOM_BG,
        card(Art::Welcome3, &[Place::rect(80.0, 0.0, 1120.0, 600.0)]),
        avatar(
            &[Place::rect(110.0, 150.0, 300.0, 300.0)],
            Mask::Rounded(0.2),
        ),
        title(
            FontFace::Meme,
            (64.0, 35.0),
            Align::Left,
            (600.0, 156.0, 550.0, 78.0),
        ),
        colored(name(line(
            NAME,
            FontFace::Bold,
            (54.0, 30.0),
            Align::Left,
            (600.0, 242.0, 550.0, 76.0),
            WHITE,
        ))),
        text(line(
            GUILD,
            FontFace::Regular,
            (30.0, 17.0),
            Align::Left,
            (602.0, 330.0, 548.0, 42.0),
            [0xd0, 0xd4, 0xde, 255],
        )),
        text(line(
            MEMBERS,
            FontFace::Bold,
            (24.0, 14.0),
            Align::Left,
            (602.0, 384.0, 548.0, 34.0),
            [0xff, 0xd1, 0x66, 255],
        )),
    ],
    params: PARAMS,
};

/// 4, ribbon: a huge outlined title over the background, a dark ribbon
/// with the lines, the avatar in a thick ring breaking through it.
pub(super) static WELCOME_4: Template = Template {
    size: SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        BACKGROUND,
        CUSTOM_BG,
        card(Art::Welcome4, &[Place::rect(0.0, 210.0, 1200.0, 370.0)]),
        avatar(&[Place::rect(90.0, 235.0, 320.0, 320.0)], Mask::Circle),
        colored(TextSlot {
            outline: Some(([0x10, 0x10, 0x18, 230], 5.0)),
            ..line(
                TITLE,
                FontFace::Meme,
                (124.0, 68.0),
                Align::Center,
                (40.0, 40.0, 1120.0, 150.0),
                WHITE,
            )
        }),
        text(name(line(
            NAME,
            FontFace::Bold,
            (58.0, 32.0),
            Align::Left,
            (450.0, 312.0, 700.0, 81.0),
            WHITE,
        ))),
        text(line(
            GUILD,
            FontFace::Regular,
            (30.0, 17.0),
            Align::Left,
            (452.0, 396.0, 700.0, 42.0),
            [0xe6, 0xe6, 0xe6, 255],
        )),
        text(line(
            MEMBERS,
            FontFace::Regular,
            (24.0, 14.0),
            Align::Left,
            (452.0, 440.0, 700.0, 34.0),
            [0xbd, 0xbd, 0xbd, 255],
        )),
    ],
    params: PARAMS,
};

/// 5, instant photo: the avatar in a tilted white photo frame with tape,
/// the lines in serif italics on a soft panel.
pub(super) static WELCOME_5: Template = Template {
    size: SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        BACKGROUND,
        CUSTOM_BG,
        card(Art::Welcome5, &[Place::rect(60.0, 30.0, 1110.0, 540.0)]),
        // The frame's photo well (146, 106, 328²) turned -4° about the
        // frame's centre (310, 300): its centre moves to (307.91, 270.07).
        avatar(
            &[Place::new(143.91, 106.07, 328.0, 328.0, -4.0, 1.0)],
            Mask::Square,
        ),
        colored(TextSlot {
            pieces: &[Piece::Pick {
                param: "type",
                texts: &["Welcome,", "Goodbye,"],
            }],
            outline: SOFT,
            ..line(
                TITLE,
                FontFace::SerifItalic,
                (72.0, 40.0),
                Align::Left,
                (600.0, 128.0, 520.0, 100.0),
                WHITE,
            )
        }),
        text(name(line(
            NAME,
            FontFace::Bold,
            (58.0, 32.0),
            Align::Left,
            (600.0, 232.0, 520.0, 81.0),
            WHITE,
        ))),
        text(line(
            GUILD,
            FontFace::SerifItalic,
            (32.0, 18.0),
            Align::Left,
            (600.0, 322.0, 520.0, 45.0),
            [0xf0, 0xe6, 0xd2, 255],
        )),
        text(line(
            MEMBERS,
            FontFace::Regular,
            (24.0, 14.0),
            Align::Left,
            (600.0, 380.0, 520.0, 34.0),
            [0xd8, 0xcc, 0xb4, 255],
        )),
    ],
    params: PARAMS,
};

/// 6, bottom bar: a big title high on the background, a dark card along
/// the bottom under the name, server and member count (on its right), the
/// avatar ringed at its left end.
pub(super) static WELCOME_6: Template = Template {
    size: SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        BACKGROUND,
        CUSTOM_BG,
        card(Art::Welcome6, &[Place::rect(0.0, 260.0, 1200.0, 340.0)]),
        avatar(&[Place::rect(70.0, 290.0, 240.0, 240.0)], Mask::Circle),
        colored(TextSlot {
            outline: Some(([0, 0, 0, 170], 3.0)),
            ..line(
                TITLE,
                FontFace::Bold,
                (104.0, 57.0),
                Align::Left,
                (60.0, 60.0, 1080.0, 146.0),
                WHITE,
            )
        }),
        text(name(line(
            NAME,
            FontFace::Bold,
            (54.0, 30.0),
            Align::Left,
            (345.0, 418.0, 795.0, 76.0),
            WHITE,
        ))),
        text(line(
            GUILD,
            FontFace::Regular,
            (28.0, 16.0),
            Align::Left,
            (347.0, 508.0, 500.0, 40.0),
            [0xdc, 0xdc, 0xdc, 255],
        )),
        text(line(
            MEMBERS,
            FontFace::Bold,
            (26.0, 15.0),
            Align::Right,
            (860.0, 508.0, 280.0, 37.0),
            [0xff, 0xff, 0xff, 200],
        )),
    ],
    params: PARAMS,
};

/// 7, badge: a dark badge with a gold border among confetti, the avatar in
/// a gold ring on its top edge, centred lines.
pub(super) static WELCOME_7: Template = Template {
    size: SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        BACKGROUND,
        CUSTOM_BG,
        card(Art::Welcome7, FULL),
        avatar(&[Place::rect(500.0, 50.0, 200.0, 200.0)], Mask::Circle),
        title(
            FontFace::Bold,
            (44.0, 24.0),
            Align::Center,
            (260.0, 268.0, 680.0, 62.0),
        ),
        text(name(line(
            NAME,
            FontFace::Bold,
            (54.0, 30.0),
            Align::Center,
            (260.0, 334.0, 680.0, 76.0),
            WHITE,
        ))),
        text(line(
            GUILD,
            FontFace::Regular,
            (30.0, 17.0),
            Align::Center,
            (260.0, 418.0, 680.0, 42.0),
            [0xe8, 0xc1, 0x70, 255],
        )),
        text(line(
            MEMBERS,
            FontFace::Regular,
            (24.0, 14.0),
            Align::Center,
            (260.0, 470.0, 680.0, 34.0),
            [0xaa, 0xb3, 0xd6, 255],
        )),
    ],
    params: PARAMS,
};
