//! The one-avatar memes: `wanted` (an old-west poster), `rip` (a
//! gravestone), `trash` (thrown in a bin), `delete` (a "delete this
//! file?" dialog), `beautiful` (a gilded frame in a museum) and `stonks`
//! (a rising market chart). Each is a cached drawing of ours
//! ([`super::art`]), the avatar and its text slots; the art's geometry is
//! written here once, for the templates and the drawings alike.

use super::stored::{at_scale, size_at};
use super::{
    Art, AvatarSlot, Layer, Mask, ParamKind, ParamSpec, Piece, Place, Reveal, Template, TextSlot,
    Timeline, Tint, When,
};
use crate::text::{Align, FontFace, MAX_NAME_CHARS, VAlign};

/// Cap on `wanted`'s `reward`: a trillion (written `$1,000,000,000,000`).
pub const MAX_WANTED_REWARD: u64 = 1_000_000_000_000;
/// Cap on `rip`'s `text` (the epitaph), in characters.
pub const MAX_EPITAPH_CHARS: usize = 120;
/// Cap on `rip`'s `years` (free text such as "1999 – 2024"), in characters.
pub const MAX_YEARS_CHARS: usize = 40;

const STILL: Timeline = Timeline::STILL;

/// Text in one face and colour, without outline, whole in every frame.
const fn text(
    pieces: &'static [Piece],
    face: FontFace,
    (size, min_size): (f32, f32),
    color: [u8; 4],
    align: Align,
    area: (f32, f32, f32, f32),
) -> Layer {
    Layer::Text(TextSlot {
        replaced_by: None,
        pieces,
        face,
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

/// A free text parameter of at most `max_chars`.
const fn free_text(
    name: &'static str,
    max_chars: usize,
    default: &'static str,
    doc: &'static str,
    expected: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Text { max_chars, default },
        doc,
        expected,
    }
}

/// The design box `(x, y, w, h)` of a meme stored at `k` times its design
/// size, on its canvas as stored (to whole pixels).
const fn at(x: f32, y: f32, w: f32, h: f32, k: f32) -> Place {
    Place::rect(
        at_scale(x, k),
        at_scale(y, k),
        at_scale(w, k),
        at_scale(h, k),
    )
}

/// A text area of a meme stored at `k` times its design size.
const fn area_at((x, y, w, h): (f32, f32, f32, f32), k: f32) -> (f32, f32, f32, f32) {
    (x * k, y * k, w * k, h * k)
}

// --- wanted ---

/// How much smaller than its design (the sizes below) `wanted` is stored:
/// its art is drawn at the design size and kept at this scale, where the
/// template places everything.
pub(super) const WANTED_STORED: f32 = 0.75;

/// `wanted`'s canvas as designed (stored at [`WANTED_STORED`] times it).
pub(super) const WANTED_SIZE: (u32, u32) = (600, 800);
/// The portrait in `wanted`: `(x, y, side)`.
pub(super) const WANTED_PHOTO: (f32, f32, f32) = (130.0, 226.0, 340.0);
/// The portrait's box on `wanted`'s canvas as stored.
pub(super) const WANTED_PHOTO_AT: Place = at(
    WANTED_PHOTO.0,
    WANTED_PHOTO.1,
    WANTED_PHOTO.2,
    WANTED_PHOTO.2,
    WANTED_STORED,
);
/// The name's band in `wanted`, under the portrait.
pub(super) const WANTED_NAME: (f32, f32, f32, f32) = (56.0, 590.0, 488.0, 76.0);
/// The ink of `wanted`'s print.
const WANTED_INK: [u8; 4] = [0x3a, 0x22, 0x12, 255];

/// `wanted`, 450×600 (designed at 600×800): an old-west poster on aged paper, the avatar as its
/// sepia portrait, "WANTED", "DEAD OR ALIVE", the `name` in capitals
/// (a rule in its place when blank) and "REWARD $`reward`".
pub(super) static WANTED: Template = Template {
    size: size_at(WANTED_SIZE, WANTED_STORED),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(
            Art::WantedPoster,
            &[at(0.0, 0.0, 600.0, 800.0, WANTED_STORED)],
        ),
        Layer::Avatar(AvatarSlot {
            motion: &[WANTED_PHOTO_AT],
            mask: Mask::Square,
            grey: true,
            tint: Some(Tint {
                rgb: 0x8a5a2b,
                strength: 0.32,
            }),
        }),
        Layer::art(Art::WantedPhotoAge, &[WANTED_PHOTO_AT]),
        Layer::When {
            when: When::Absent("name"),
            layer: &Layer::art(
                Art::WantedRule,
                &[at(
                    WANTED_NAME.0 + 64.0,
                    WANTED_NAME.1 + WANTED_NAME.3 / 2.0 - 12.0,
                    360.0,
                    24.0,
                    WANTED_STORED,
                )],
            ),
        },
        text(
            &[Piece::Upper("name")],
            FontFace::Meme,
            (60.0 * WANTED_STORED, 20.0 * WANTED_STORED),
            WANTED_INK,
            Align::Center,
            area_at(WANTED_NAME, WANTED_STORED),
        ),
        text(
            &[Piece::Lit("REWARD $"), Piece::Param("reward")],
            FontFace::Meme,
            (54.0 * WANTED_STORED, 20.0 * WANTED_STORED),
            [0x7a, 0x1c, 0x10, 255],
            Align::Center,
            area_at((40.0, 672.0, 520.0, 70.0), WANTED_STORED),
        ),
    ],
    params: &[
        free_text(
            "name",
            MAX_NAME_CHARS,
            "",
            "the outlaw's name, upper-cased, at most 64 characters (blank: an ornament in its place)",
            "expected at most 64 characters",
        ),
        ParamSpec {
            name: "reward",
            kind: ParamKind::Int {
                min: 0,
                max: MAX_WANTED_REWARD,
                default: 5000,
            },
            doc: "the reward in dollars, a whole number 0 to 1000000000000, written with thousands separators (\"$5,000\")",
            expected: "expected a whole number of dollars from 0 to 1000000000000",
        },
    ],
};

// --- rip ---

/// `rip`'s canvas.
pub(super) const RIP_SIZE: (u32, u32) = (700, 800);
/// The gravestone in `rip`: `(x, y, width, height)`, its top a half circle.
pub(super) const RIP_STONE: (f32, f32, f32, f32) = (140.0, 96.0, 420.0, 620.0);
/// The avatar's square in `rip`: `(x, y, side)`; the stone over it leaves
/// an upright oval of it in view.
pub(super) const RIP_PHOTO: (f32, f32, f32) = (240.0, 170.0, 220.0);
/// The oval window in `rip`'s photo square: width and height.
pub(super) const RIP_OVAL: (f32, f32) = (172.0, 216.0);
/// Engraved letters in `rip`.
const ENGRAVED: [u8; 4] = [0x2c, 0x30, 0x35, 255];

/// `rip`, 700×800: a gravestone on a grassy hill under a dusk sky, the
/// avatar greyed in an oval on the stone, "RIP" engraved under it, then
/// `text` and `years`.
pub(super) static RIP: Template = Template {
    size: RIP_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::RipScene, &[Place::rect(0.0, 0.0, 700.0, 800.0)]),
        Layer::Avatar(AvatarSlot {
            motion: &[Place::rect(
                RIP_PHOTO.0,
                RIP_PHOTO.1,
                RIP_PHOTO.2,
                RIP_PHOTO.2,
            )],
            mask: Mask::Square,
            grey: true,
            tint: None,
        }),
        Layer::art(
            Art::RipOval,
            &[Place::rect(
                RIP_PHOTO.0,
                RIP_PHOTO.1,
                RIP_PHOTO.2,
                RIP_PHOTO.2,
            )],
        ),
        text(
            &[Piece::Param("text")],
            FontFace::SerifItalic,
            (40.0, 16.0),
            ENGRAVED,
            Align::Center,
            (190.0, 498.0, 320.0, 100.0),
        ),
        text(
            &[Piece::Param("years")],
            FontFace::Bold,
            (34.0, 16.0),
            ENGRAVED,
            Align::Center,
            (190.0, 600.0, 320.0, 48.0),
        ),
    ],
    params: &[
        free_text(
            "text",
            MAX_EPITAPH_CHARS,
            "",
            "the epitaph under \"RIP\", at most 120 characters; wraps and shrinks to fit",
            "expected at most 120 characters",
        ),
        free_text(
            "years",
            MAX_YEARS_CHARS,
            "",
            "the years under the epitaph, free text such as \"1999 – 2024\", at most 40 characters",
            "expected at most 40 characters",
        ),
    ],
};

// --- trash ---

/// `trash`'s canvas as designed (stored at [`TRASH_STORED`] times it).
pub(super) const TRASH_SIZE: (u32, u32) = (800, 800);
/// The bin in `trash`: centre x, the rim's centre y, the rim's half width
/// and half height, the bottom's y and half width.
pub(super) const TRASH_BIN: (f32, f32, f32, f32, f32, f32) =
    (400.0, 440.0, 214.0, 46.0, 748.0, 178.0);
/// The box of the art in front of the avatar in `trash` (the bin's front).
pub(super) const TRASH_FRONT: (f32, f32, f32, f32) = (170.0, 430.0, 460.0, 340.0);
/// How much smaller than its design `trash` is stored (as `wanted`).
pub(super) const TRASH_STORED: f32 = 0.7;
/// The avatar's box on `trash`'s canvas as stored, turned as thrown.
pub(super) const TRASH_AVATAR_AT: Place = Place {
    rotation: -11.0,
    ..at(248.0, 176.0, 300.0, 300.0, TRASH_STORED)
};

/// `trash`, 560×560 (designed at 800×800): the avatar thrown head first into a dented metal bin
/// in a brick alley, flies circling.
pub(super) static TRASH: Template = Template {
    size: size_at(TRASH_SIZE, TRASH_STORED),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::TrashAlley, &[at(0.0, 0.0, 800.0, 800.0, TRASH_STORED)]),
        Layer::Avatar(AvatarSlot {
            motion: &[TRASH_AVATAR_AT],
            mask: Mask::Rounded(0.06),
            grey: false,
            tint: None,
        }),
        Layer::art(
            Art::TrashBin,
            &[at(
                TRASH_FRONT.0,
                TRASH_FRONT.1,
                TRASH_FRONT.2,
                TRASH_FRONT.3,
                TRASH_STORED,
            )],
        ),
    ],
    params: &[],
};

// --- delete ---

/// `delete`'s canvas.
pub(super) const DELETE_SIZE: (u32, u32) = (800, 480);
/// The dialog in `delete`: `(x, y, width, height)`.
pub(super) const DELETE_DIALOG: (f32, f32, f32, f32) = (80.0, 60.0, 640.0, 340.0);
/// The file icon's thumbnail in `delete`: `(x, y, side)`.
pub(super) const DELETE_ICON: (f32, f32, f32) = (126.0, 150.0, 132.0);

/// `delete`, 800×480: a desktop "Delete this file?" dialog whose file
/// icon is the avatar, `filename` under the question, the "Delete" button
/// under the pointer.
pub(super) static DELETE: Template = Template {
    size: DELETE_SIZE,
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(Art::DeleteDialog, &[Place::rect(0.0, 0.0, 800.0, 480.0)]),
        Layer::Avatar(AvatarSlot {
            motion: &[Place::rect(
                DELETE_ICON.0,
                DELETE_ICON.1,
                DELETE_ICON.2,
                DELETE_ICON.2,
            )],
            mask: Mask::Rounded(0.08),
            grey: false,
            tint: None,
        }),
        text(
            &[Piece::Param("filename")],
            FontFace::Bold,
            (26.0, 14.0),
            [0x1f, 0x29, 0x37, 255],
            Align::Left,
            (300.0, 184.0, 390.0, 40.0),
        ),
    ],
    params: &[free_text(
        "filename",
        MAX_NAME_CHARS,
        "avatar.png",
        "the file's name under the question, at most 64 characters (default \"avatar.png\")",
        "expected at most 64 characters",
    )],
};

// --- beautiful ---

/// `beautiful`'s canvas as designed (stored at [`BEAUTIFUL_STORED`] times it).
pub(super) const BEAUTIFUL_SIZE: (u32, u32) = (800, 800);
/// The painting in `beautiful`: `(x, y, side)`; the gilded frame is around it.
pub(super) const BEAUTIFUL_PAINTING: (f32, f32, f32) = (240.0, 150.0, 320.0);
/// The brass plaque under the frame: `(x, y, width, height)`.
pub(super) const BEAUTIFUL_PLAQUE: (f32, f32, f32, f32) = (290.0, 590.0, 220.0, 86.0);
/// How much smaller than its design `beautiful` is stored: 560×560 (at
/// 0.75, 600×600, its PNG cost it about half of circle512's throughput).
pub(super) const BEAUTIFUL_STORED: f32 = 0.7;
/// The painting's box on `beautiful`'s canvas as stored.
pub(super) const BEAUTIFUL_PAINTING_AT: Place = at(
    BEAUTIFUL_PAINTING.0,
    BEAUTIFUL_PAINTING.1,
    BEAUTIFUL_PAINTING.2,
    BEAUTIFUL_PAINTING.2,
    BEAUTIFUL_STORED,
);

/// `beautiful`, 560×560 (designed at 800×800): the avatar as a painting in a gilded frame on a
/// museum wall under a spotlight, a brass plaque with `title` under it
/// and a velvet rope in front.
pub(super) static BEAUTIFUL: Template = Template {
    size: size_at(BEAUTIFUL_SIZE, BEAUTIFUL_STORED),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(
            Art::BeautifulGallery,
            &[at(0.0, 0.0, 800.0, 800.0, BEAUTIFUL_STORED)],
        ),
        Layer::Avatar(AvatarSlot {
            motion: &[BEAUTIFUL_PAINTING_AT],
            mask: Mask::Square,
            grey: false,
            tint: None,
        }),
        Layer::art(Art::BeautifulVarnish, &[BEAUTIFUL_PAINTING_AT]),
        text(
            &[Piece::Param("title")],
            FontFace::SerifItalic,
            (26.0 * BEAUTIFUL_STORED, 12.0 * BEAUTIFUL_STORED),
            [0x2a, 0x1a, 0x08, 255],
            Align::Center,
            area_at(
                (
                    BEAUTIFUL_PLAQUE.0 + 12.0,
                    BEAUTIFUL_PLAQUE.1 + 8.0,
                    BEAUTIFUL_PLAQUE.2 - 24.0,
                    44.0,
                ),
                BEAUTIFUL_STORED,
            ),
        ),
    ],
    params: &[free_text(
        "title",
        MAX_NAME_CHARS,
        "Beautiful",
        "the painting's title on the plaque, at most 64 characters (default \"Beautiful\")",
        "expected at most 64 characters",
    )],
};

// --- stonks ---

/// `stonks`'s canvas as designed (stored at [`STONKS_STORED`] times it).
pub(super) const STONKS_SIZE: (u32, u32) = (800, 600);
/// The avatar in `stonks`: `(x, y, side)`, round, at the lower left.
pub(super) const STONKS_AVATAR: (f32, f32, f32) = (48.0, 250.0, 300.0);
/// How much smaller than its design `stonks` is stored: 640×480 (at full
/// size its PNG cost it about half of circle512's throughput).
pub(super) const STONKS_STORED: f32 = 0.8;

/// `stonks`, 640×480 (designed at 800×600): the round avatar in front of a
/// trading screen whose candles climb and a green arrow shooting up from
/// behind it, `text` in big capitals (default "STONKS").
pub(super) static STONKS: Template = Template {
    size: size_at(STONKS_SIZE, STONKS_STORED),
    camera: None,
    timeline: STILL,
    layers: &[
        Layer::art(
            Art::StonksChart,
            &[at(0.0, 0.0, 800.0, 600.0, STONKS_STORED)],
        ),
        Layer::Avatar(AvatarSlot {
            motion: &[at(
                STONKS_AVATAR.0,
                STONKS_AVATAR.1,
                STONKS_AVATAR.2,
                STONKS_AVATAR.2,
                STONKS_STORED,
            )],
            mask: Mask::Circle,
            grey: false,
            tint: None,
        }),
        Layer::Text(TextSlot {
            replaced_by: None,
            pieces: &[Piece::Upper("text")],
            face: FontFace::Meme,
            size: 96.0 * STONKS_STORED,
            min_size: 28.0 * STONKS_STORED,
            color: [255, 255, 255, 255],
            outline: Some(([0, 0, 0, 255], 7.0 * STONKS_STORED)),
            align: Align::Center,
            valign: VAlign::Bottom,
            area: area_at((360.0, 440.0, 420.0, 140.0), STONKS_STORED),
            reveal: Reveal::All,
        }),
    ],
    params: &[free_text(
        "text",
        MAX_NAME_CHARS,
        "stonks",
        "the caption, upper-cased, at most 64 characters (default \"stonks\")",
        "expected at most 64 characters",
    )],
};
