//! The two-avatar memes: `ship`, `kiss`, `slap`, `hug`, `fuse`, `vs` and
//! `heart-locket`. Each draws the avatar and a second picture, the image
//! source [`SECOND_AVATAR`] (a [`Layer::Image`]), with art of their own
//! ([`super::art`]).

use super::art::pairs::{
    FUSE_SIZE, LOCKET_SIZE, LOCKET_STORED, PAIRS_STORED, PIP_SIZE, PIPS, SCENE_SIZE, SHIP_HEART,
    SHIP_SIZE, VS_SIZE, VS_STORED,
};
use super::stored::{at_scale, size_at};
use super::{
    Art, AvatarSlot, Layer, Mask, ParamKind, ParamSpec, Piece, Place, Reveal, Template, TextSlot,
    Timeline, When,
};
use crate::text::{Align, FontFace, VAlign};

/// The name of the second picture's image source in every two-avatar
/// meme (the caller's query parameter).
pub const SECOND_AVATAR: &str = "avatar2";

/// `ship`'s parameter: the match percentage, 0 to 100.
pub const SHIP_PERCENT: &str = "percent";

const STILL: Timeline = Timeline::STILL;

const fn avatar(motion: &'static [Place], mask: Mask) -> Layer {
    Layer::Avatar(AvatarSlot {
        motion,
        mask,
        grey: false,
        tint: None,
    })
}

const fn second(motion: &'static [Place], mask: Mask) -> Layer {
    Layer::Image {
        source: SECOND_AVATAR,
        motion,
        mask,
    }
}

const fn full(size: (u32, u32)) -> Place {
    Place::rect(0.0, 0.0, size.0 as f32, size.1 as f32)
}

/// `v` design pixels of `ship`, `kiss`, `slap` and `hug`, on their canvas
/// as stored ([`PAIRS_STORED`]), to the nearest whole pixel.
const fn s(v: f32) -> f32 {
    at_scale(v, PAIRS_STORED)
}

/// A design size of those memes as stored.
const fn sized(size: (u32, u32)) -> (u32, u32) {
    size_at(size, PAIRS_STORED)
}

/// The design box `(x, y, w, h)` of those memes as stored, turned by
/// `rotation` degrees.
const fn at(x: f32, y: f32, w: f32, h: f32, rotation: f32) -> Place {
    Place::new(s(x), s(y), s(w), s(h), rotation, 1.0)
}

// --- ship ---

/// A lit heart of the meter: heart `i` (0–9) is lit from `i`×10 + 5 %.
macro_rules! pip {
    ($i:literal) => {
        Layer::When {
            when: When::AtLeast(SHIP_PERCENT, $i * 10 + 5),
            layer: &Layer::Art {
                art: Art::HeartPip,
                motion: &[at(
                    PIPS.0 + PIPS.2 * $i as f32 - PIP_SIZE.0 as f32 / 2.0,
                    PIPS.1 - PIP_SIZE.1 as f32 / 2.0,
                    PIP_SIZE.0 as f32,
                    PIP_SIZE.1 as f32,
                    0.0,
                )],
            },
        }
    };
}

/// The verdict's look: white bold with a plum outline, under the meter.
const fn verdict_slot(text: &'static [Piece]) -> TextSlot {
    TextSlot {
        replaced_by: None,
        pieces: text,
        face: FontFace::Bold,
        size: 40.0 * PAIRS_STORED,
        min_size: 16.0 * PAIRS_STORED,
        color: [255, 255, 255, 255],
        outline: Some(([0x5a, 0x1a, 0x4a, 255], 3.0 * PAIRS_STORED)),
        align: Align::Center,
        valign: VAlign::Middle,
        area: (s(150.0), s(370.0), s(600.0), s(60.0)),
        reveal: Reveal::All,
    }
}

/// The verdict for `percent` in `from..to`.
macro_rules! verdict {
    ($from:expr, $to:expr, $text:expr) => {
        Layer::When {
            when: When::AtLeast(SHIP_PERCENT, $from),
            layer: &Layer::When {
                when: When::Below(SHIP_PERCENT, $to),
                layer: &Layer::Text(verdict_slot(&[Piece::Lit($text)])),
            },
        }
    };
}

/// `ship`, 720×352: the two round portraits, a big heart between them
/// with the percentage, a meter of ten hearts and a verdict.
pub(super) static SHIP: Template = Template {
    size: sized(SHIP_SIZE),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::ShipBackdrop, &[full(sized(SHIP_SIZE))]),
        avatar(&[at(70.0, 60.0, 240.0, 240.0, 0.0)], Mask::Circle),
        second(&[at(590.0, 60.0, 240.0, 240.0, 0.0)], Mask::Circle),
        Layer::art(
            Art::ShipHeart,
            &[at(
                450.0 - SHIP_HEART.0 as f32 / 2.0,
                76.0,
                SHIP_HEART.0 as f32,
                SHIP_HEART.1 as f32,
                0.0,
            )],
        ),
        Layer::Text(TextSlot {
            replaced_by: None,
            pieces: &[Piece::Param(SHIP_PERCENT), Piece::Lit("%")],
            face: FontFace::Bold,
            size: 56.0 * PAIRS_STORED,
            min_size: 20.0 * PAIRS_STORED,
            color: [255, 255, 255, 255],
            outline: Some(([0x80, 0x0f, 0x2e, 255], 3.0 * PAIRS_STORED)),
            align: Align::Center,
            valign: VAlign::Middle,
            area: (s(365.0), s(118.0), s(170.0), s(80.0)),
            reveal: Reveal::All,
        }),
        pip!(0),
        pip!(1),
        pip!(2),
        pip!(3),
        pip!(4),
        pip!(5),
        pip!(6),
        pip!(7),
        pip!(8),
        pip!(9),
        verdict!(0, 20, "Not meant to be"),
        verdict!(20, 40, "Just friends"),
        verdict!(40, 60, "Worth a try"),
        verdict!(60, 80, "A lovely match"),
        verdict!(80, 100, "Made for each other"),
        verdict!(100, 101, "Soulmates!"),
    ],
    params: &[ParamSpec {
        name: SHIP_PERCENT,
        kind: ParamKind::Int {
            min: 0,
            max: 100,
            default: 50,
        },
        doc: "the match, 0 to 100 (absent: a percentage drawn from the two pictures' URLs, the same for the same pair in either order)",
        expected: "expected a whole number from 0 to 100",
    }],
};

// --- kiss, slap, hug ---

/// `kiss`, 640×360: the two round portraits leaning in, cheek to cheek,
/// hearts rising where they meet.
pub(super) static KISS: Template = Template {
    size: sized(SCENE_SIZE),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::KissScene, &[full(sized(SCENE_SIZE))]),
        avatar(&[at(150.0, 110.0, 260.0, 260.0, 12.0)], Mask::Circle),
        second(&[at(390.0, 110.0, 260.0, 260.0, -12.0)], Mask::Circle),
        Layer::art(Art::KissFront, &[full(sized(SCENE_SIZE))]),
    ],
    params: &[],
};

/// `slap`, 640×360: the avatar swings an open hand into the second
/// picture, which reels back under the impact.
pub(super) static SLAP: Template = Template {
    size: sized(SCENE_SIZE),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::SlapScene, &[full(sized(SCENE_SIZE))]),
        avatar(&[at(40.0, 150.0, 240.0, 240.0, 0.0)], Mask::Circle),
        second(&[at(480.0, 70.0, 260.0, 260.0, 22.0)], Mask::Circle),
        Layer::art(Art::SlapFront, &[full(sized(SCENE_SIZE))]),
    ],
    params: &[],
};

/// `hug`, 640×360: the two round portraits side by side, arms wrapped
/// around both, hearts above.
pub(super) static HUG: Template = Template {
    size: sized(SCENE_SIZE),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::HugScene, &[full(sized(SCENE_SIZE))]),
        avatar(&[at(130.0, 95.0, 280.0, 280.0, 6.0)], Mask::Circle),
        second(&[at(390.0, 95.0, 280.0, 280.0, -6.0)], Mask::Circle),
        Layer::art(Art::HugFront, &[full(sized(SCENE_SIZE))]),
    ],
    params: &[],
};

// --- fuse, vs ---

/// `fuse`, 512×512: the two pictures blended half and half, under a
/// violet swirl.
pub(super) static FUSE: Template = Template {
    size: FUSE_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        avatar(&[full(FUSE_SIZE)], Mask::Square),
        second(
            &[Place::new(
                0.0,
                0.0,
                FUSE_SIZE.0 as f32,
                FUSE_SIZE.1 as f32,
                0.0,
                0.5,
            )],
            Mask::Square,
        ),
        Layer::art(Art::FuseGlow, &[full(FUSE_SIZE)]),
    ],
    params: &[],
};

/// `vs`, 700×350: "who would win": the two pictures in framed panels,
/// blue and red, a VS badge between.
pub(super) static VS: Template = Template {
    size: size_at(VS_SIZE, VS_STORED),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::VsScene, &[full(size_at(VS_SIZE, VS_STORED))]),
        avatar(&[VS_PANELS[0]], Mask::Rounded(0.08)),
        second(&[VS_PANELS[1]], Mask::Rounded(0.08)),
        Layer::art(Art::VsFront, &[full(size_at(VS_SIZE, VS_STORED))]),
    ],
    params: &[],
};

/// The two pictures' boxes in `vs`, as stored ([`VS_STORED`]).
const VS_PANELS: [Place; 2] = {
    let (y, side) = (at_scale(110.0, VS_STORED), at_scale(300.0, VS_STORED));
    [
        Place::rect(at_scale(90.0, VS_STORED), y, side, side),
        Place::rect(at_scale(610.0, VS_STORED), y, side, side),
    ]
};

// --- heart locket ---

/// The locket's design box `(x, y, w, h)` on its canvas as stored
/// ([`LOCKET_STORED`]), drawn at `alpha`.
const fn lk(x: f32, y: f32, w: f32, h: f32, alpha: f32) -> Place {
    let k = LOCKET_STORED;
    let w = at_scale(w, k).max(1.0);
    Place::new(
        at_scale(x, k),
        at_scale(y, k),
        w,
        at_scale(h, k),
        0.0,
        alpha,
    )
}

/// `heart-locket`'s canvas as stored.
const LOCKET_CANVAS: (u32, u32) = size_at(LOCKET_SIZE, LOCKET_STORED);

/// `heart-locket`, 390×312 (designed at 600×480, kept at
/// [`LOCKET_STORED`] times it), 24 frames of 70 ms (always animated): a
/// gold heart locket on its chain hangs closed for 4 frames, swings open
/// on the two portraits in 6 (a step of 30° each, the halves parting),
/// then the twinkles appear and the open locket holds for the last 14.
/// Identical frames in a row are one frame of the GIF (8 in all), and the
/// frames after the first change only around the locket, so the GIF
/// stores little more than the first frame and the opening.
pub(super) static HEART_LOCKET: Template = Template {
    size: LOCKET_CANVAS,
    camera: None,
    timeline: Timeline {
        frames: 24,
        delay_ms: 70,
        delay_param: None,
    },
    layers: &[
        Layer::art(Art::LocketBack, &[full(LOCKET_CANVAS)]),
        avatar(LOCKET_AVATAR, Mask::Circle),
        Layer::art(Art::LocketHalf, LOCKET_LEFT),
        second(LOCKET_AVATAR2, Mask::Circle),
        Layer::art(Art::LocketHalf, LOCKET_RIGHT),
        Layer::art(Art::LocketLid, LOCKET_LID),
        Layer::art(Art::LocketSparkle, LOCKET_SPARKLE),
    ],
    params: &[],
};

/// The locket's front, swinging open about the hinge (its width the
/// cosine of its angle; hidden once edge-on), the hinge sliding from under
/// the bail (the closed locket hangs centred) to the canvas's middle.
const LOCKET_LID: &[Place] = &[
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(192.2, 140.0, 207.8, 230.0, 1.00),
    lk(260.0, 140.0, 120.0, 230.0, 1.00),
    lk(359.0, 140.0, 1.0, 230.0, 0.00),
    lk(339.0, 140.0, 1.0, 230.0, 0.00),
    lk(319.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
    lk(299.0, 140.0, 1.0, 230.0, 0.00),
];

/// The left half, moving with the hinge.
const LOCKET_LEFT: &[Place] = &[
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(180.0, 140.0, 240.0, 230.0, 1.00),
    lk(160.0, 140.0, 240.0, 230.0, 1.00),
    lk(140.0, 140.0, 240.0, 230.0, 1.00),
    lk(120.0, 140.0, 240.0, 230.0, 1.00),
    lk(100.0, 140.0, 240.0, 230.0, 1.00),
    lk(80.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
    lk(60.0, 140.0, 240.0, 230.0, 1.00),
];

/// The avatar, in the left half's window.
const LOCKET_AVATAR: &[Place] = &[
    lk(236.0, 186.0, 132.0, 132.0, 1.00),
    lk(236.0, 186.0, 132.0, 132.0, 1.00),
    lk(236.0, 186.0, 132.0, 132.0, 1.00),
    lk(236.0, 186.0, 132.0, 132.0, 1.00),
    lk(216.0, 186.0, 132.0, 132.0, 1.00),
    lk(196.0, 186.0, 132.0, 132.0, 1.00),
    lk(176.0, 186.0, 132.0, 132.0, 1.00),
    lk(156.0, 186.0, 132.0, 132.0, 1.00),
    lk(136.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
    lk(116.0, 186.0, 132.0, 132.0, 1.00),
];

/// The right half, unfolding from the hinge once the front has passed edge-on.
const LOCKET_RIGHT: &[Place] = &[
    lk(420.0, 140.0, 1.0, 230.0, 0.00),
    lk(420.0, 140.0, 1.0, 230.0, 0.00),
    lk(420.0, 140.0, 1.0, 230.0, 0.00),
    lk(420.0, 140.0, 1.0, 230.0, 0.00),
    lk(400.0, 140.0, 1.0, 230.0, 0.00),
    lk(380.0, 140.0, 1.0, 230.0, 0.00),
    lk(360.0, 140.0, 1.0, 230.0, 0.00),
    lk(340.0, 140.0, 120.0, 230.0, 1.00),
    lk(320.0, 140.0, 207.8, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
    lk(300.0, 140.0, 240.0, 230.0, 1.00),
];

/// The second picture, in the right half's window, unfolding with it.
const LOCKET_AVATAR2: &[Place] = &[
    lk(420.0, 186.0, 1.0, 132.0, 0.00),
    lk(420.0, 186.0, 1.0, 132.0, 0.00),
    lk(420.0, 186.0, 1.0, 132.0, 0.00),
    lk(420.0, 186.0, 1.0, 132.0, 0.00),
    lk(400.0, 186.0, 1.0, 132.0, 0.00),
    lk(380.0, 186.0, 1.0, 132.0, 0.00),
    lk(360.0, 186.0, 1.0, 132.0, 0.00),
    lk(368.0, 186.0, 66.0, 132.0, 1.00),
    lk(368.5, 186.0, 114.3, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
    lk(356.0, 186.0, 132.0, 132.0, 1.00),
];

/// The twinkles, appearing once the locket is open, then held.
const LOCKET_SPARKLE: &[Place] = &[
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 0.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
    lk(0.0, 0.0, 600.0, 480.0, 1.00),
];

/// `ship`'s percentage for a pair of pictures named by `a` and `b` (their
/// URLs, as given: surrounding blanks ignored), 0 to 100: the same for the
/// same pair in either order, and spread evenly over pairs. FNV-1a over
/// the two names, the smaller first, so it never changes between releases
/// or machines.
///
/// ```
/// use canvas_render::template::ship_percent;
///
/// let p = ship_percent("https://a.example/1.png", "https://b.example/2.png");
/// assert!(p <= 100);
/// assert_eq!(p, ship_percent("https://b.example/2.png", " https://a.example/1.png"));
/// ```
pub fn ship_percent(a: &str, b: &str) -> u64 {
    let (a, b) = (a.trim(), b.trim());
    let (first, second) = if a <= b { (a, b) } else { (b, a) };
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in first.bytes().chain([0]).chain(second.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // Fold the high bits in: FNV's low bits alone mix poorly.
    (hash ^ (hash >> 32)) % 101
}
