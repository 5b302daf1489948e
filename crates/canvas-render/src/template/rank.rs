//! The rank cards, as data: nine 900×300 still templates over the same
//! parameters (the original's rank card), each with its own layout, avatar
//! mask, typography, decoration and default colours.
//!
//! Every card shows the avatar, `username` (with `#discriminator` when it is
//! set), the level, the XP as `cxp / nxp XP` (just `cxp XP` when `nxp` is
//! absent or 0) and a bar of `cxp / nxp`, and the rank only when `rank` is
//! set. The colours `cbg` (background), `ccxp` (bar fill), `cbar` (bar
//! track), `ctext` (text) and `ctag` (the name and its tag) are parameters
//! whose defaults are each card's own palette.

use super::{
    Art, AvatarSlot, BarSlot, BarStyle, Layer, Mask, Paint, ParamKind, ParamSpec, Piece, Place,
    Reveal, Shape, ShapeSlot, Template, TextSlot, Timeline, When,
};
use crate::text::{Align, FontFace, VAlign};

/// Width and height of every rank card.
pub const RANK_CARD_SIZE: (u32, u32) = (900, 300);
/// Cap on `username`, in characters.
pub const MAX_RANK_USERNAME_CHARS: usize = 64;
/// Cap on `discriminator`, in characters.
pub const MAX_DISCRIMINATOR_CHARS: usize = 8;
/// Largest `cxp`, `nxp`, `level` and `rank`.
pub const MAX_RANK_NUMBER: u32 = 1_000_000_000;

const STILL: Timeline = Timeline::STILL;

const W: f32 = 900.0;
const H: f32 = 300.0;
const FULL: &[Place] = &[Place::rect(0.0, 0.0, W, H)];

/// The default colours of one card, `0xRRGGBB`.
struct Palette {
    cbg: u32,
    ccxp: u32,
    cbar: u32,
    ctext: u32,
    ctag: u32,
}

const fn number(name: &'static str, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Int {
            min: 0,
            max: MAX_RANK_NUMBER as u64,
            default: 0,
        },
        doc,
        expected: "expected a whole number from 0 to 1000000000",
    }
}

const fn colour(name: &'static str, default: u32, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Colour { default },
        doc,
        expected: "expected six hexadecimal digits RRGGBB (e.g. 5865F2; a leading # and the 3-digit shorthand are tolerated)",
    }
}

/// The parameters of a card with this palette.
const fn params(p: Palette) -> [ParamSpec; 11] {
    [
        ParamSpec {
            name: "username",
            kind: ParamKind::Text {
                max_chars: MAX_RANK_USERNAME_CHARS,
                default: "Member",
            },
            doc: "the name, at most 64 characters (default \"Member\"); long names shrink, then are cut with \"…\"",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "discriminator",
            kind: ParamKind::Text {
                max_chars: MAX_DISCRIMINATOR_CHARS,
                default: "",
            },
            doc: "the tag after the name, drawn as #1234, at most 8 characters; hidden when absent or \"0\"",
            expected: "expected at most 8 characters",
        },
        number(
            "cxp",
            "current XP, a whole number 0 to 1000000000 (default 0), written compactly (12.3K); once cxp or nxp is 10000 or more, both in thousands alike (3.4K / 10K)",
        ),
        number(
            "nxp",
            "XP of the next level, a whole number 0 to 1000000000 (default 0); the bar shows cxp/nxp, clamped; absent or 0: no goal, the bar is full when cxp is above 0",
        ),
        number(
            "level",
            "the level, a whole number 0 to 1000000000 (default 0)",
        ),
        number(
            "rank",
            "the rank, a whole number 0 to 1000000000; hidden when absent or 0",
        ),
        colour(
            "cbg",
            p.cbg,
            "background colour, RRGGBB (default: the card's own)",
        ),
        colour(
            "ccxp",
            p.ccxp,
            "colour of the reached part of the XP bar, RRGGBB (default: the card's own)",
        ),
        colour(
            "cbar",
            p.cbar,
            "colour of the XP bar's track, RRGGBB (default: the card's own); given without ccxp, the bar's colour: the reached part in it, the track a faint shade of it",
        ),
        colour(
            "ctext",
            p.ctext,
            "colour of the text, RRGGBB (default: the card's own)",
        ),
        colour(
            "ctag",
            p.ctag,
            "colour of the name and its tag, RRGGBB (default: the card's own)",
        ),
    ]
}

const TEXT: Paint = Paint::param("ctext");
const TAG: Paint = Paint::param("ctag");
const BG: Paint = Paint::param("cbg");
const FILL: Paint = Paint::param("ccxp");
const TRACK: Paint = Paint::param("cbar");

const fn dim(param: &'static str, alpha: u8) -> Paint {
    Paint::Param { param, alpha }
}

const fn white(alpha: u8) -> Paint {
    Paint::Fixed([255, 255, 255, alpha])
}

#[allow(clippy::too_many_arguments)]
const fn text(
    paint: Paint,
    pieces: &'static [Piece],
    face: FontFace,
    size: f32,
    min_size: f32,
    align: Align,
    valign: VAlign,
    area: (f32, f32, f32, f32),
) -> Layer {
    Layer::PaintedText {
        paint,
        slot: TextSlot {
            replaced_by: None,
            pieces,
            face,
            size,
            min_size,
            color: [255, 255, 255, 255],
            outline: None,
            align,
            valign,
            area,
            reveal: Reveal::All,
        },
    }
}

const fn shape(shape: Shape, area: (f32, f32, f32, f32), paint: Paint) -> Layer {
    Layer::Shape(ShapeSlot {
        shape,
        area,
        paint,
        stroke: None,
    })
}

const fn outline(shape: Shape, area: (f32, f32, f32, f32), paint: Paint, width: f32) -> Layer {
    Layer::Shape(ShapeSlot {
        shape,
        area,
        paint,
        stroke: Some(width),
    })
}

const fn avatar(motion: &'static [Place], mask: Mask) -> Layer {
    Layer::Avatar(AvatarSlot {
        motion,
        mask,
        grey: false,
        tint: None,
    })
}

const fn bar(area: (f32, f32, f32, f32), style: BarStyle) -> Layer {
    Layer::Bar(BarSlot {
        value: "cxp",
        max: "nxp",
        area,
        style,
        track: TRACK,
        fill: FILL,
    })
}

const fn art(art: Art) -> Layer {
    Layer::Art { art, motion: FULL }
}

/// The name, then ` #tag` when the discriminator is set.
const NAME_AND_TAG: &[Piece] = &[
    Piece::Param("username"),
    Piece::IfSet {
        param: "discriminator",
        pieces: &[Piece::Lit(" #"), Piece::Param("discriminator")],
    },
];
const NAME: &[Piece] = &[Piece::Param("username")];
const TAG_ONLY: &[Piece] = &[Piece::IfSet {
    param: "discriminator",
    pieces: &[Piece::Lit("#"), Piece::Param("discriminator")],
}];
/// `340 / 1,000 XP`, or `340 XP` without a goal; both counts in thousands
/// once either is 10,000 or more (`3.4K / 10K XP`).
#[cfg(test)]
pub(super) const XP_PIECES: &[Piece] = XP;
const XP: &[Piece] = &[
    Piece::CompactWith {
        param: "cxp",
        with: "nxp",
    },
    Piece::IfSet {
        param: "nxp",
        pieces: &[
            Piece::Lit(" / "),
            Piece::CompactWith {
                param: "nxp",
                with: "cxp",
            },
        ],
    },
    Piece::Lit(" XP"),
];
const XP_BARE: &[Piece] = &[
    Piece::CompactWith {
        param: "cxp",
        with: "nxp",
    },
    Piece::IfSet {
        param: "nxp",
        pieces: &[
            Piece::Lit(" / "),
            Piece::CompactWith {
                param: "nxp",
                with: "cxp",
            },
        ],
    },
];
const LEVEL: &[Piece] = &[Piece::Compact("level")];
const RANK: &[Piece] = &[Piece::Lit("#"), Piece::Compact("rank")];

/// `$layer`, drawn only when `rank` is set.
macro_rules! when_rank {
    ($layer:expr) => {
        Layer::When {
            when: When::Set("rank"),
            layer: &$layer,
        }
    };
}

/// A label over a number, centred in a column `w` wide at `x`.
macro_rules! stat {
    ($label:expr, $pieces:expr, $x:expr, $y:expr, $w:expr, $face:expr, $size:expr, $value:expr) => {
        [
            text(
                dim("ctext", 170),
                &[Piece::Lit($label)],
                FontFace::Bold,
                17.0,
                12.0,
                Align::Center,
                VAlign::Bottom,
                ($x, $y, $w, 24.0),
            ),
            text(
                $value,
                $pieces,
                $face,
                $size,
                16.0,
                Align::Center,
                VAlign::Top,
                ($x, $y + 26.0, $w, $size * 1.3),
            ),
        ]
    };
}

/// 1, "Classic": a dark rounded card, a round avatar ringed in the bar
/// colour, level and rank as columns at the top right, a wide round bar.
pub(super) static RANK_1: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &{
        const STATS: [Layer; 2] = stat!(
            "LEVEL",
            LEVEL,
            736.0,
            28.0,
            130.0,
            FontFace::Bold,
            46.0,
            FILL
        );
        const RANKS: [Layer; 2] =
            stat!("RANK", RANK, 596.0, 28.0, 130.0, FontFace::Bold, 46.0, TEXT);
        [
            shape(Shape::Rounded(30.0), (0.0, 0.0, W, H), BG),
            art(Art::RankSheen),
            outline(Shape::Ellipse, (41.0, 41.0, 218.0, 218.0), FILL, 6.0),
            avatar(&[Place::rect(50.0, 50.0, 200.0, 200.0)], Mask::Circle),
            STATS[0],
            STATS[1],
            when_rank!(RANKS[0]),
            when_rank!(RANKS[1]),
            text(
                TAG,
                NAME_AND_TAG,
                FontFace::Bold,
                44.0,
                24.0,
                Align::Left,
                VAlign::Bottom,
                (292.0, 116.0, 568.0, 62.0),
            ),
            text(
                dim("ctext", 200),
                XP,
                FontFace::Regular,
                22.0,
                14.0,
                Align::Right,
                VAlign::Bottom,
                (560.0, 180.0, 300.0, 32.0),
            ),
            bar((292.0, 220.0, 568.0, 34.0), BarStyle::Rounded),
        ]
    },
    params: &params(Palette {
        cbg: 0x1e2029,
        ccxp: 0x57f2b0,
        cbar: 0x3a3d4d,
        ctext: 0xe9ebf5,
        ctag: 0xffffff,
    }),
};

/// 2, "Panel": a square card; a left panel in the bar colour with stripes,
/// a framed rounded-square avatar and the level; a segmented bar.
pub(super) static RANK_2: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        shape(Shape::Rect, (0.0, 0.0, W, H), BG),
        shape(Shape::Rect, (0.0, 0.0, 300.0, H), FILL),
        art(Art::RankStripes),
        shape(Shape::Rounded(40.0), (62.0, 34.0, 176.0, 176.0), white(235)),
        avatar(&[Place::rect(70.0, 42.0, 160.0, 160.0)], Mask::Rounded(0.2)),
        text(
            white(255),
            &[Piece::Lit("LEVEL "), Piece::Compact("level")],
            FontFace::Bold,
            30.0,
            16.0,
            Align::Center,
            VAlign::Middle,
            (10.0, 222.0, 280.0, 50.0),
        ),
        text(
            TAG,
            NAME,
            FontFace::Bold,
            50.0,
            28.0,
            Align::Left,
            VAlign::Bottom,
            (340.0, 36.0, 520.0, 74.0),
        ),
        text(
            dim("ctext", 150),
            TAG_ONLY,
            FontFace::Regular,
            24.0,
            14.0,
            Align::Left,
            VAlign::Top,
            (340.0, 112.0, 520.0, 34.0),
        ),
        text(
            dim("ctext", 200),
            XP,
            FontFace::Regular,
            24.0,
            14.0,
            Align::Left,
            VAlign::Bottom,
            (340.0, 164.0, 300.0, 38.0),
        ),
        when_rank!(text(
            TEXT,
            &[Piece::Lit("RANK "), Piece::Lit("#"), Piece::Compact("rank")],
            FontFace::Bold,
            26.0,
            14.0,
            Align::Right,
            VAlign::Bottom,
            (640.0, 164.0, 220.0, 38.0)
        )),
        bar(
            (340.0, 214.0, 520.0, 30.0),
            BarStyle::Segments {
                count: 16,
                gap: 5.0,
                radius: 4.0,
            },
        ),
    ],
    params: &params(Palette {
        cbg: 0x161821,
        ccxp: 0xff7a59,
        cbar: 0x2c2f3b,
        ctext: 0xeef0f6,
        ctag: 0xffffff,
    }),
};

/// 3, "Neon": a horizon grid, a hexagonal avatar in a glowing ring, a big
/// condensed level, a thin bar above the horizon.
pub(super) static RANK_3: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        shape(Shape::Rounded(20.0), (0.0, 0.0, W, H), BG),
        art(Art::RankNeonGrid),
        outline(
            Shape::Hexagon,
            (48.0, 28.0, 204.0, 204.0),
            dim("ccxp", 70),
            16.0,
        ),
        outline(Shape::Hexagon, (48.0, 28.0, 204.0, 204.0), FILL, 4.0),
        avatar(&[Place::rect(60.0, 40.0, 180.0, 180.0)], Mask::Hexagon),
        text(
            TAG,
            NAME_AND_TAG,
            FontFace::Bold,
            44.0,
            26.0,
            Align::Left,
            VAlign::Bottom,
            (290.0, 40.0, 390.0, 64.0),
        ),
        text(
            dim("ctext", 170),
            &[Piece::Lit("LEVEL")],
            FontFace::Meme,
            24.0,
            14.0,
            Align::Right,
            VAlign::Bottom,
            (700.0, 26.0, 160.0, 32.0),
        ),
        text(
            FILL,
            LEVEL,
            FontFace::Meme,
            76.0,
            24.0,
            Align::Right,
            VAlign::Top,
            (640.0, 54.0, 220.0, 92.0),
        ),
        when_rank!(text(
            dim("ctext", 210),
            &[Piece::Lit("RANK #"), Piece::Compact("rank")],
            FontFace::Bold,
            24.0,
            14.0,
            Align::Left,
            VAlign::Bottom,
            (290.0, 110.0, 300.0, 36.0)
        )),
        text(
            dim("ctext", 210),
            XP,
            FontFace::Regular,
            20.0,
            12.0,
            Align::Right,
            VAlign::Bottom,
            (560.0, 136.0, 300.0, 30.0),
        ),
        bar((290.0, 172.0, 570.0, 10.0), BarStyle::Rounded),
    ],
    params: &params(Palette {
        cbg: 0x0d0a1f,
        ccxp: 0x27e8ff,
        cbar: 0x2a2350,
        ctext: 0xf3e9ff,
        ctag: 0xff7ae6,
    }),
};

/// 4, "Paper": a light card with a dot grid, a soft rounded avatar with a
/// shadow, a serif name, one quiet line of facts and a slim bar.
pub(super) static RANK_4: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        shape(Shape::Rounded(24.0), (0.0, 0.0, W, H), BG),
        art(Art::RankDots),
        shape(
            Shape::Rounded(44.0),
            (58.0, 68.0, 180.0, 180.0),
            Paint::Fixed([0, 0, 0, 26]),
        ),
        avatar(
            &[Place::rect(56.0, 60.0, 180.0, 180.0)],
            Mask::Rounded(0.24),
        ),
        text(
            TAG,
            NAME,
            FontFace::SerifItalic,
            50.0,
            28.0,
            Align::Left,
            VAlign::Bottom,
            (276.0, 52.0, 570.0, 72.0),
        ),
        text(
            dim("ctext", 170),
            &[
                Piece::IfSet {
                    param: "discriminator",
                    pieces: &[
                        Piece::Lit("#"),
                        Piece::Param("discriminator"),
                        Piece::Lit("  ·  "),
                    ],
                },
                Piece::Lit("Level "),
                Piece::Compact("level"),
                Piece::IfSet {
                    param: "rank",
                    pieces: &[Piece::Lit("  ·  Rank #"), Piece::Compact("rank")],
                },
            ],
            FontFace::Regular,
            22.0,
            13.0,
            Align::Left,
            VAlign::Top,
            (278.0, 128.0, 570.0, 34.0),
        ),
        text(
            dim("ctext", 130),
            &[Piece::Lit("PROGRESS")],
            FontFace::Bold,
            15.0,
            10.0,
            Align::Left,
            VAlign::Bottom,
            (278.0, 178.0, 200.0, 26.0),
        ),
        text(
            dim("ctext", 200),
            XP,
            FontFace::Regular,
            20.0,
            12.0,
            Align::Right,
            VAlign::Bottom,
            (546.0, 174.0, 300.0, 30.0),
        ),
        bar((278.0, 212.0, 568.0, 12.0), BarStyle::Rounded),
    ],
    params: &params(Palette {
        cbg: 0xf6f4ef,
        ccxp: 0xe4572e,
        cbar: 0xe2ded4,
        ctext: 0x2b2a33,
        ctag: 0x1b1a22,
    }),
};

/// 5, "Honeycomb": a hexagonal avatar and a hexagonal level badge over a
/// honeycomb, and a bar of narrow blocks.
pub(super) static RANK_5: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        shape(Shape::Rect, (0.0, 0.0, W, H), BG),
        art(Art::RankHexes),
        outline(Shape::Hexagon, (40.0, 36.0, 228.0, 228.0), FILL, 6.0),
        avatar(&[Place::rect(50.0, 46.0, 208.0, 208.0)], Mask::Hexagon),
        shape(Shape::Hexagon, (766.0, 30.0, 100.0, 116.0), FILL),
        text(
            Paint::Fixed([16, 24, 28, 255]),
            LEVEL,
            FontFace::Bold,
            36.0,
            14.0,
            Align::Center,
            VAlign::Bottom,
            (772.0, 46.0, 88.0, 50.0),
        ),
        text(
            Paint::Fixed([16, 24, 28, 200]),
            &[Piece::Lit("LEVEL")],
            FontFace::Bold,
            14.0,
            9.0,
            Align::Center,
            VAlign::Top,
            (772.0, 98.0, 88.0, 22.0),
        ),
        text(
            TAG,
            NAME,
            FontFace::Bold,
            46.0,
            26.0,
            Align::Left,
            VAlign::Bottom,
            (300.0, 56.0, 450.0, 66.0),
        ),
        text(
            dim("ctext", 170),
            TAG_ONLY,
            FontFace::Regular,
            22.0,
            13.0,
            Align::Left,
            VAlign::Top,
            (300.0, 124.0, 420.0, 32.0),
        ),
        when_rank!(text(
            TEXT,
            &[Piece::Lit("RANK #"), Piece::Compact("rank")],
            FontFace::Bold,
            20.0,
            12.0,
            Align::Center,
            VAlign::Top,
            (736.0, 154.0, 160.0, 30.0)
        )),
        text(
            dim("ctext", 210),
            XP,
            FontFace::Regular,
            22.0,
            13.0,
            Align::Left,
            VAlign::Bottom,
            (300.0, 172.0, 420.0, 34.0),
        ),
        bar(
            (300.0, 214.0, 560.0, 30.0),
            BarStyle::Segments {
                count: 24,
                gap: 4.0,
                radius: 1.5,
            },
        ),
    ],
    params: &params(Palette {
        cbg: 0x0f2a2e,
        ccxp: 0xf5c542,
        cbar: 0x1d4a50,
        ctext: 0xe6fbf8,
        ctag: 0xffffff,
    }),
};

/// 6, "Gauge": the bar is a ring around the round avatar; level, XP and
/// rank stand in columns under the name.
pub(super) static RANK_6: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &{
        const LEVEL_COL: [Layer; 2] = stat!(
            "LEVEL",
            LEVEL,
            330.0,
            142.0,
            150.0,
            FontFace::Bold,
            44.0,
            FILL
        );
        const XP_COL: [Layer; 2] = stat!(
            "XP",
            XP_BARE,
            490.0,
            142.0,
            210.0,
            FontFace::Bold,
            44.0,
            TEXT
        );
        const RANK_COL: [Layer; 2] = stat!(
            "RANK",
            RANK,
            710.0,
            142.0,
            150.0,
            FontFace::Bold,
            44.0,
            TEXT
        );
        [
            shape(Shape::Rounded(40.0), (0.0, 0.0, W, H), BG),
            art(Art::RankArcs),
            bar((44.0, 24.0, 252.0, 252.0), BarStyle::Ring { width: 14.0 }),
            avatar(&[Place::rect(70.0, 50.0, 200.0, 200.0)], Mask::Circle),
            text(
                TAG,
                NAME_AND_TAG,
                FontFace::Bold,
                48.0,
                28.0,
                Align::Left,
                VAlign::Bottom,
                (334.0, 36.0, 526.0, 72.0),
            ),
            shape(Shape::Rect, (334.0, 124.0, 526.0, 2.0), white(34)),
            LEVEL_COL[0],
            LEVEL_COL[1],
            XP_COL[0],
            XP_COL[1],
            when_rank!(RANK_COL[0]),
            when_rank!(RANK_COL[1]),
        ]
    },
    params: &params(Palette {
        cbg: 0x1b1333,
        ccxp: 0xff5fa2,
        cbar: 0x3a2d5c,
        ctext: 0xf4ecff,
        ctag: 0xffffff,
    }),
};

/// 7, "Banner": a top band in the bar colour with flowing lines, the round
/// avatar overlapping it, a round level badge, a bar along the foot.
pub(super) static RANK_7: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        shape(Shape::Rounded(26.0), (0.0, 0.0, W, H), BG),
        shape(Shape::Rounded(26.0), (0.0, 0.0, W, 110.0), FILL),
        shape(Shape::Rect, (0.0, 60.0, W, 50.0), FILL),
        art(Art::RankWaves),
        shape(Shape::Ellipse, (44.0, 30.0, 192.0, 192.0), BG),
        avatar(&[Place::rect(54.0, 40.0, 172.0, 172.0)], Mask::Circle),
        when_rank!(text(
            white(255),
            &[Piece::Lit("RANK #"), Piece::Compact("rank")],
            FontFace::Bold,
            28.0,
            14.0,
            Align::Left,
            VAlign::Middle,
            (256.0, 34.0, 440.0, 44.0)
        )),
        shape(Shape::Ellipse, (748.0, 46.0, 118.0, 118.0), BG),
        outline(Shape::Ellipse, (748.0, 46.0, 118.0, 118.0), FILL, 5.0),
        text(
            TEXT,
            LEVEL,
            FontFace::Bold,
            40.0,
            14.0,
            Align::Center,
            VAlign::Bottom,
            (756.0, 64.0, 102.0, 56.0),
        ),
        text(
            dim("ctext", 170),
            &[Piece::Lit("LEVEL")],
            FontFace::Bold,
            14.0,
            9.0,
            Align::Center,
            VAlign::Top,
            (756.0, 122.0, 102.0, 22.0),
        ),
        text(
            TAG,
            NAME,
            FontFace::Bold,
            40.0,
            22.0,
            Align::Left,
            VAlign::Bottom,
            (256.0, 120.0, 470.0, 58.0),
        ),
        text(
            dim("ctext", 160),
            TAG_ONLY,
            FontFace::Regular,
            22.0,
            13.0,
            Align::Left,
            VAlign::Top,
            (256.0, 180.0, 280.0, 32.0),
        ),
        text(
            dim("ctext", 200),
            XP,
            FontFace::Regular,
            20.0,
            12.0,
            Align::Right,
            VAlign::Bottom,
            (560.0, 180.0, 300.0, 32.0),
        ),
        bar((256.0, 226.0, 604.0, 24.0), BarStyle::Rounded),
    ],
    params: &params(Palette {
        cbg: 0x242838,
        ccxp: 0x4f8cff,
        cbar: 0x3a3f52,
        ctext: 0xeef1fa,
        ctag: 0xffffff,
    }),
};

/// 8, "Arcade": a striped sunset with scan lines, a square avatar in a
/// framed box with a hard shadow, condensed type and chunky blocks.
pub(super) static RANK_8: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        shape(Shape::Rect, (0.0, 0.0, W, H), BG),
        art(Art::RankRetro),
        shape(
            Shape::Rect,
            (64.0, 64.0, 184.0, 184.0),
            Paint::Fixed([0, 0, 0, 255]),
        ),
        shape(Shape::Rect, (54.0, 54.0, 184.0, 184.0), FILL),
        avatar(&[Place::rect(60.0, 60.0, 172.0, 172.0)], Mask::Square),
        text(
            FILL,
            &[Piece::Lit("PLAYER")],
            FontFace::Meme,
            22.0,
            12.0,
            Align::Left,
            VAlign::Bottom,
            (282.0, 44.0, 300.0, 30.0),
        ),
        text(
            TAG,
            NAME_AND_TAG,
            FontFace::Meme,
            54.0,
            30.0,
            Align::Left,
            VAlign::Top,
            (280.0, 76.0, 580.0, 62.0),
        ),
        text(
            TEXT,
            &[Piece::Lit("LV "), Piece::Compact("level")],
            FontFace::Meme,
            34.0,
            14.0,
            Align::Left,
            VAlign::Middle,
            (282.0, 148.0, 170.0, 44.0),
        ),
        when_rank!(text(
            TEXT,
            &[Piece::Lit("RANK #"), Piece::Compact("rank")],
            FontFace::Meme,
            34.0,
            14.0,
            Align::Left,
            VAlign::Middle,
            (460.0, 148.0, 200.0, 44.0)
        )),
        text(
            dim("ctext", 200),
            XP,
            FontFace::Meme,
            24.0,
            12.0,
            Align::Right,
            VAlign::Middle,
            (640.0, 148.0, 220.0, 44.0),
        ),
        bar(
            (282.0, 204.0, 578.0, 40.0),
            BarStyle::Segments {
                count: 10,
                gap: 8.0,
                radius: 0.0,
            },
        ),
    ],
    params: &params(Palette {
        cbg: 0x1c0f3a,
        ccxp: 0x3dff9a,
        cbar: 0x3b2a66,
        ctext: 0xfff3c4,
        ctag: 0xffffff,
    }),
};

/// 9, "Glass": a frosted panel over soft lights (both art), a round avatar in a white
/// ring, level and rank in pills, a round bar.
pub(super) static RANK_9: Template = Template {
    size: RANK_CARD_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        shape(Shape::Rounded(32.0), (0.0, 0.0, W, H), BG),
        art(Art::RankGlass),
        outline(Shape::Ellipse, (52.0, 52.0, 196.0, 196.0), white(210), 4.0),
        avatar(&[Place::rect(60.0, 60.0, 180.0, 180.0)], Mask::Circle),
        text(
            TAG,
            NAME,
            FontFace::Bold,
            46.0,
            26.0,
            Align::Left,
            VAlign::Bottom,
            (280.0, 50.0, 570.0, 64.0),
        ),
        text(
            dim("ctext", 190),
            TAG_ONLY,
            FontFace::Regular,
            22.0,
            13.0,
            Align::Left,
            VAlign::Top,
            (280.0, 114.0, 300.0, 32.0),
        ),
        shape(Shape::Rounded(19.0), (280.0, 158.0, 156.0, 38.0), white(56)),
        text(
            TEXT,
            &[Piece::Lit("LEVEL "), Piece::Compact("level")],
            FontFace::Bold,
            19.0,
            11.0,
            Align::Center,
            VAlign::Middle,
            (288.0, 158.0, 140.0, 38.0),
        ),
        when_rank!(shape(
            Shape::Rounded(19.0),
            (446.0, 158.0, 156.0, 38.0),
            white(56)
        )),
        when_rank!(text(
            TEXT,
            &[Piece::Lit("RANK #"), Piece::Compact("rank")],
            FontFace::Bold,
            19.0,
            11.0,
            Align::Center,
            VAlign::Middle,
            (454.0, 158.0, 140.0, 38.0)
        )),
        text(
            dim("ctext", 220),
            XP,
            FontFace::Regular,
            20.0,
            12.0,
            Align::Right,
            VAlign::Middle,
            (610.0, 158.0, 240.0, 38.0),
        ),
        bar((280.0, 214.0, 570.0, 26.0), BarStyle::Rounded),
    ],
    params: &params(Palette {
        cbg: 0x5b3cc4,
        ccxp: 0xffffff,
        cbar: 0x3f2a94,
        ctext: 0xffffff,
        ctag: 0xffffff,
    }),
};
