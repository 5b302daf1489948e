//! Every template, as data: sizes, timelines, layers and parameters.
//!
//! The per-frame placements below were computed once (eased curves) and
//! written out, so that each template is plain data.

use super::{
    Art, AvatarSlot, Camera, Layer, Mask, Paint, ParamKind, ParamSpec, Piece, Place, Reveal, Shape,
    ShapeSlot, Template, TextSlot, Timeline, Tint,
};
use crate::text::{Align, FontFace, VAlign};

/// Overlay canvases are 512×512.
const SIDE: f32 = 512.0;

/// The whole canvas, upright and opaque.
const FULL: &[Place] = &[Place::rect(0.0, 0.0, SIDE, SIDE)];

const STILL: Timeline = Timeline::STILL;

const fn avatar(motion: &'static [Place], grey: bool, tint: Option<Tint>) -> Layer {
    Layer::Avatar(AvatarSlot {
        motion,
        mask: Mask::Square,
        grey,
        tint,
    })
}

/// A still 512×512 overlay: the avatar (grey or in colour) under one
/// full-size piece of art.
macro_rules! overlay {
    ($(#[$doc:meta])* $name:ident, grey: $grey:expr, $art:expr) => {
        $(#[$doc])*
        pub(super) static $name: Template = Template {
            size: (512, 512),
            camera: None,
            timeline: STILL,
            layers: &[avatar(FULL, $grey, None), Layer::art($art, FULL)],
            params: &[],
        };
    };
}

overlay!(
    /// `comrade`: a Soviet red wash, the gold hammer and sickle in its upper
    /// corner as on the flag.
    COMRADE, grey: false, Art::ComradeWash
);
overlay!(
    /// `gay`: rainbow stripes.
    GAY, grey: false, Art::Rainbow
);
overlay!(
    /// `glass`: cracked glass.
    GLASS, grey: false, Art::GlassCracks
);
overlay!(
    /// `jail`: grey, behind bars.
    JAIL, grey: true, Art::JailBars
);
overlay!(
    /// `passed`: grey and dimmed, "MISSION PASSED" and "RESPECT +" on a
    /// dark band.
    PASSED, grey: true, Art::PassedBanner
);
overlay!(
    /// `wasted`: grey and dimmed, "WASTED" in red on a dark band.
    WASTED, grey: true, Art::WastedBanner
);

/// `triggered`: 12 frames of 40 ms, every one full, the TRIGGERED banner
/// steady across the foot. The avatar under a red tint, at the canvas's
/// size, its middle 488 px across in a thin dark edge, shakes as one
/// picture above the banner: each frame shows it at another of 12 places
/// (up to 12 px either way from the centre, even, so that WebP frame
/// offsets are exact), in an order where every step (the loop's too)
/// jumps 16 to 27 px in a direction of its own, so it reads as random.
/// Under it, the [`Camera`]'s backdrop: a deep red board and the banner;
/// around the picture each frame shows the first one. The picture is the
/// same in every frame: the interpreter draws it once and the GIF encoder
/// stores it once. (The avatar across the backdrop too, so that the
/// picture's surroundings ran on, cost a second photo-sized frame in the
/// GIF's LZW and took triggered below its cost bound.)
pub(super) static TRIGGERED: Template = Template {
    size: (512, 512),
    camera: Some(Camera {
        content: (SHAKEN, SHAKEN_HEIGHT),
        offsets: &SHAKE,
        backdrop: &[
            Layer::Shape(ShapeSlot {
                shape: Shape::Rect,
                area: (0.0, 0.0, 512.0, 512.0),
                paint: Paint::Fixed([0x6e, 0x0a, 0x0a, 255]),
                stroke: None,
            }),
            Layer::art(
                Art::TriggeredBanner,
                &[Place::rect(0.0, BANNER_TOP as f32, 512.0, 112.0)],
            ),
        ],
    }),
    timeline: Timeline {
        frames: 12,
        delay_ms: 40,
        delay_param: None,
    },
    layers: &[
        // The avatar at the canvas's size, its middle 488 px across.
        avatar(
            &[Place::rect(-12.0, -12.0, 512.0, 512.0)],
            false,
            Some(TRIGGERED_TINT),
        ),
        // A thin dark edge, so that the picture shows moving over any
        // avatar, one of a single flat colour too.
        Layer::Shape(ShapeSlot {
            shape: Shape::Rect,
            area: (1.5, 1.5, SHAKEN as f32 - 3.0, SHAKEN_HEIGHT as f32 - 3.0),
            paint: Paint::Fixed([0x4a, 0x00, 0x00, 210]),
            stroke: Some(3.0),
        }),
    ],
    params: &[],
};

/// Triggered's red over the shaking picture.
const TRIGGERED_TINT: Tint = Tint {
    rgb: 0xff1a1a,
    strength: 0.5,
};

/// The width of triggered's shaking picture: 12 px short of the canvas on
/// either side.
const SHAKEN: u32 = 488;

/// Where triggered's banner starts: it is 112 px tall, at the canvas's
/// foot.
const BANNER_TOP: u32 = 400;

/// The height of triggered's shaking picture: the avatar's top, down to
/// the banner at the lowest place of the shake.
const SHAKEN_HEIGHT: u32 = BANNER_TOP - 24;

/// Where triggered's picture is in each frame: 12 distinct places, the
/// centre being (12, 12), the first near it; no two steps alike.
const SHAKE: [(u32, u32); 12] = [
    (14, 6),
    (24, 24),
    (16, 6),
    (0, 8),
    (24, 4),
    (0, 16),
    (18, 2),
    (8, 20),
    (6, 4),
    (10, 22),
    (0, 6),
    (18, 22),
];

/// `petpet`: 256×256, 10 frames (40 ms by default, `delay` 20–1000): the
/// hand presses down and the avatar squashes (wider, lower) and springs
/// back.
pub(super) static PETPET: Template = Template {
    size: (256, 256),
    camera: None,
    timeline: Timeline {
        frames: 10,
        delay_ms: 40,
        delay_param: Some("delay"),
    },
    layers: &[
        Layer::Avatar(AvatarSlot {
            motion: PET_AVATAR,
            mask: Mask::Rounded(0.16),
            grey: false,
            tint: None,
        }),
        Layer::art(Art::Hand, PET_HAND),
    ],
    params: &[ParamSpec {
        name: "delay",
        kind: ParamKind::Int {
            min: 20,
            max: 1000,
            default: 40,
        },
        doc: "time each of the 10 frames shows, in milliseconds (20 to 1000, default 40)",
        expected: "expected a whole number of milliseconds from 20 to 1000",
    }],
};

const PET_AVATAR: &[Place] = &[
    Place::new(48.0, 68.0, 184.0, 184.0, 0.0, 1.0),
    Place::new(46.8, 72.2, 186.5, 179.8, 0.0, 1.0),
    Place::new(43.6, 83.3, 192.9, 168.7, 0.0, 1.0),
    Place::new(39.6, 96.9, 200.9, 155.1, 0.0, 1.0),
    Place::new(36.3, 107.9, 207.3, 144.1, 0.0, 1.0),
    Place::new(35.1, 112.2, 209.8, 139.8, 0.0, 1.0),
    Place::new(36.3, 107.9, 207.3, 144.1, 0.0, 1.0),
    Place::new(39.6, 96.9, 200.9, 155.1, 0.0, 1.0),
    Place::new(43.6, 83.3, 192.9, 168.7, 0.0, 1.0),
    Place::new(46.8, 72.2, 186.5, 179.8, 0.0, 1.0),
];

const PET_HAND: &[Place] = &[
    Place::new(74.9, -108.8, 148.0, 239.0, -6.0, 1.0),
    Place::new(75.8, -103.5, 148.0, 237.5, -5.5, 1.0),
    Place::new(78.1, -89.8, 148.0, 234.1, -4.3, 1.0),
    Place::new(80.8, -72.5, 148.0, 229.5, -2.7, 1.0),
    Place::new(83.0, -58.8, 148.0, 226.1, -1.5, 1.0),
    Place::new(83.9, -53.4, 148.0, 224.7, -1.0, 1.0),
    Place::new(83.0, -58.8, 148.0, 226.1, -1.5, 1.0),
    Place::new(80.8, -72.5, 148.0, 229.5, -2.7, 1.0),
    Place::new(78.1, -89.8, 148.0, 234.1, -4.3, 1.0),
    Place::new(75.8, -103.5, 148.0, 237.5, -5.5, 1.0),
];

/// Cap on `username` (amongus), in characters.
pub const MAX_USERNAME_CHARS: usize = 64;
/// Cap on `custom` (amongus), in characters.
pub const MAX_CUSTOM_CHARS: usize = 120;

/// `amongus`: 600×300, 30 frames of 80 ms: the avatar, round, drifts
/// across space turning slowly while the sentence types out (frames 3 to
/// 21, then held).
pub(super) static AMONGUS: Template = Template {
    size: (600, 300),
    camera: None,
    timeline: Timeline {
        frames: 30,
        delay_ms: 80,
        delay_param: None,
    },
    layers: &[
        Layer::art(Art::Space, &[Place::rect(0.0, 0.0, 600.0, 300.0)]),
        Layer::Avatar(AvatarSlot {
            motion: DRIFT,
            mask: Mask::Circle,
            grey: false,
            tint: None,
        }),
        Layer::Text(TextSlot {
            replaced_by: Some("custom"),
            pieces: &[
                Piece::Param("username"),
                Piece::Flag {
                    param: "impostor",
                    yes: " was the impostor.",
                    no: " was not the impostor.",
                },
            ],
            face: FontFace::Regular,
            size: 34.0,
            min_size: 14.0,
            color: [0xff, 0xff, 0xff, 255],
            outline: Some(([0x05, 0x07, 0x14, 255], 2.0)),
            align: Align::Center,
            valign: VAlign::Middle,
            area: (30.0, 170.0, 540.0, 100.0),
            reveal: Reveal::Typed { from: 3, to: 21 },
        }),
    ],
    params: &[
        ParamSpec {
            name: "username",
            kind: ParamKind::Text {
                max_chars: MAX_USERNAME_CHARS,
                default: "Someone",
            },
            doc: "who is (or is not) the impostor, at most 64 characters (default \"Someone\")",
            expected: "expected at most 64 characters",
        },
        ParamSpec {
            name: "impostor",
            kind: ParamKind::Bool { default: false },
            doc: "true or false, in any case (default false): the sentence says \"was\" or \"was not\"",
            expected: "expected true or false (in any case)",
        },
        ParamSpec {
            name: "custom",
            kind: ParamKind::Text {
                max_chars: MAX_CUSTOM_CHARS,
                default: "",
            },
            doc: "a sentence typed instead of \"<username> was [not] the impostor.\", at most 120 characters",
            expected: "expected at most 120 characters",
        },
    ],
};

const DRIFT: &[Place] = &[
    Place::new(-185.0, 23.0, 110.0, 110.0, 0.0, 1.0),
    Place::new(-156.3, 26.3, 110.0, 110.0, 12.0, 1.0),
    Place::new(-127.7, 29.5, 110.0, 110.0, 24.0, 1.0),
    Place::new(-99.0, 32.4, 110.0, 110.0, 36.0, 1.0),
    Place::new(-70.3, 34.9, 110.0, 110.0, 48.0, 1.0),
    Place::new(-41.7, 36.9, 110.0, 110.0, 60.0, 1.0),
    Place::new(-13.0, 38.2, 110.0, 110.0, 72.0, 1.0),
    Place::new(15.7, 38.9, 110.0, 110.0, 84.0, 1.0),
    Place::new(44.3, 38.9, 110.0, 110.0, 96.0, 1.0),
    Place::new(73.0, 38.2, 110.0, 110.0, 108.0, 1.0),
    Place::new(101.7, 36.9, 110.0, 110.0, 120.0, 1.0),
    Place::new(130.3, 34.9, 110.0, 110.0, 132.0, 1.0),
    Place::new(159.0, 32.4, 110.0, 110.0, 144.0, 1.0),
    Place::new(187.7, 29.5, 110.0, 110.0, 156.0, 1.0),
    Place::new(216.3, 26.3, 110.0, 110.0, 168.0, 1.0),
    Place::new(245.0, 23.0, 110.0, 110.0, 180.0, 1.0),
    Place::new(273.7, 19.7, 110.0, 110.0, 192.0, 1.0),
    Place::new(302.3, 16.5, 110.0, 110.0, 204.0, 1.0),
    Place::new(331.0, 13.6, 110.0, 110.0, 216.0, 1.0),
    Place::new(359.7, 11.1, 110.0, 110.0, 228.0, 1.0),
    Place::new(388.3, 9.1, 110.0, 110.0, 240.0, 1.0),
    Place::new(417.0, 7.8, 110.0, 110.0, 252.0, 1.0),
    Place::new(445.7, 7.1, 110.0, 110.0, 264.0, 1.0),
    Place::new(474.3, 7.1, 110.0, 110.0, 276.0, 1.0),
    Place::new(503.0, 7.8, 110.0, 110.0, 288.0, 1.0),
    Place::new(531.7, 9.1, 110.0, 110.0, 300.0, 1.0),
    Place::new(560.3, 11.1, 110.0, 110.0, 312.0, 1.0),
    Place::new(589.0, 13.6, 110.0, 110.0, 324.0, 1.0),
    Place::new(617.7, 16.5, 110.0, 110.0, 336.0, 1.0),
    Place::new(646.3, 19.7, 110.0, 110.0, 348.0, 1.0),
];
