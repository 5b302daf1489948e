//! The endpoint catalogue: every endpoint of the service with its
//! parameters, success body and error responses, as data.
//!
//! [`super::document`] turns it into the OpenAPI document; the drift tests
//! compare it with the routes actually registered (`routes::registered`).
//! Adding a route means adding an [`Endpoint`] here, or the test
//! `every_registered_route_is_documented` fails.

/// One endpoint (one path, method GET/HEAD).
#[derive(Debug)]
pub struct Endpoint {
    /// OpenAPI path template (`/animu/{type}`).
    pub path: &'static str,
    /// Group shown in the playground.
    pub tag: &'static str,
    /// One line.
    pub summary: &'static str,
    /// Longer text (Markdown), may be empty.
    pub description: &'static str,
    /// Query and path parameters.
    pub params: &'static [Param],
    /// What a success looks like.
    pub ok: Success,
    /// Error responses beside the ones every endpoint may give
    /// (401, 408, 414, 429, 431).
    pub errors: &'static [ErrorKind],
}

/// A success body.
#[derive(Debug, Clone, Copy)]
pub enum Success {
    /// `application/json` with the named component schema.
    Json(&'static str),
    /// `image/png`, cacheable, with an ETag.
    Png,
    /// A canvas image from an avatar: PNG by default, GIF or WebP by the
    /// `format` parameter ([`FORMAT`], added to the parameters), animated
    /// when the avatar is; cacheable, with an ETag.
    CanvasImage,
    /// Any image type (self-hosted media).
    Image,
    /// The playground page.
    Html,
    /// Playground assets (JavaScript or CSS).
    Asset,
    /// Prometheus text.
    Metrics,
}

/// Error responses, each a component in `#/components/responses`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400 `{"error"}`.
    BadRequest,
    /// 404 `{"error"}` (unknown `:type` or record).
    NotFound,
    /// 404 with `dym` creature suggestions.
    CreatureNotFound,
    /// 404 with `dym` move suggestions.
    MoveNotFound,
    /// 404 with `dym` ability suggestions.
    AbilityNotFound,
    /// 404 with `dym` item suggestions.
    ItemNotFound,
    /// 422: the avatar is not a usable image.
    Unprocessable,
    /// 502: the avatar host failed.
    BadGateway,
    /// 503: too many image jobs in flight.
    Overloaded,
    /// 504: the avatar host was too slow.
    GatewayTimeout,
    /// 503: the creature reference data is not built on this server.
    DataMissing,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    /// Query string.
    Query,
    /// Path segment.
    Path,
}

/// A parameter's accepted values.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Free text of at most this many characters.
    Text(u32),
    /// A required name to look up: at most this many characters, not blank.
    Name(u32),
    /// `RRGGBB` (also `RGB`, either case, optional leading `#`).
    Hex,
    /// `r,g,b` decimal integers 0–255.
    Triple,
    /// An absolute http(s) URL of an image.
    AvatarUrl,
    /// A number in `[min, max]`.
    Number(f64, f64),
    /// A whole number in `[min, max]`.
    Integer(f64, f64),
    /// One of these strings.
    Enum(&'static [&'static str]),
}

/// One parameter.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// Exact name.
    pub name: &'static str,
    /// Query or path.
    pub location: In,
    /// Whether a request without it is refused (400).
    pub required: bool,
    /// Accepted values.
    pub kind: Kind,
    /// One line for the document and the playground.
    pub description: &'static str,
    /// A value that works (the playground pre-fills it).
    pub example: &'static str,
    /// The value used when absent, if any.
    pub default: Option<&'static str>,
}

/// Longest accepted avatar URL, in bytes.
pub const AVATAR_URL_MAX: u32 = 2048;

pub const AVATAR: Param = Param {
    name: "avatar",
    location: In::Query,
    required: true,
    kind: Kind::AvatarUrl,
    description: "URL of the avatar image (http or https; PNG or APNG, JPEG, GIF or WebP, still or animated; at most 4096×4096 pixels, and an animation at most 256 frames and 32 Mi pixels in all)",
    example: "https://example.com/avatar.png",
    default: None,
};

/// `format` of every canvas image endpoint (added by the document builder
/// to each [`Success::CanvasImage`] endpoint).
pub const FORMAT: Param = Param {
    name: "format",
    location: In::Query,
    required: false,
    kind: Kind::Enum(&["png", "gif", "webp"]),
    description: "output format. Absent: PNG, or an animated GIF when the avatar is animated (every filter, shape and scene that draws the avatar animates); but when the `Accept` header names `image/webp` itself (browsers do; `*/*` and `image/*` do not), WebP, as with `format=webp`. Every image answer carries `Vary: Accept`. png: always a still PNG (the first frame). gif: a GIF, animated when the avatar is. webp: a WebP (lossy colour at `quality`, 85 unless asked; exact transparency), animated when the avatar is. An animated answer renders at most 32 Mi pixels in all (output frames × output width × height, `max_rendered_pixels`, e.g. 128 frames of a 512² circle or 24 of a 1680×800 namecard); beyond it frames are merged by time: fewer frames, each shown longer, the total duration kept",
    example: "gif",
    default: None,
};

/// `quality` of every canvas image endpoint (added beside [`FORMAT`]).
pub const QUALITY: Param = Param {
    name: "quality",
    location: In::Query,
    required: false,
    kind: Kind::Integer(1.0, 100.0),
    description: "lossy quality of a WebP answer's colour, 1 (smallest) to 100 (closest); transparency stays exact at any quality. Used whenever the answer is WebP (`format=webp`, or negotiated by `Accept`); PNG and GIF answers are lossless of their kind and ignore it, but a value outside 1–100 is refused whatever the format",
    example: "70",
    default: Some("85"),
};

/// `avatar` on scenes that draw none (sage, sage2): optional and never
/// fetched, but a given value must still be a valid avatar URL.
pub const AVATAR_UNUSED: Param = Param {
    required: false,
    description: "accepted for uniformity with the other canvas endpoints but not drawn; when given it must be a valid avatar URL",
    ..AVATAR
};

const fn text(
    name: &'static str,
    max: u32,
    description: &'static str,
    example: &'static str,
) -> Param {
    Param {
        name,
        location: In::Query,
        required: false,
        kind: Kind::Text(max),
        description,
        example,
        default: None,
    }
}

/// An optional number in `range` whose default is its example.
const fn level(
    name: &'static str,
    range: (f64, f64),
    description: &'static str,
    example: &'static str,
) -> Param {
    Param {
        kind: Kind::Number(range.0, range.1),
        default: Some(example),
        ..text(name, 0, description, example)
    }
}

const HEX: Param = Param {
    name: "hex",
    location: In::Query,
    required: true,
    kind: Kind::Hex,
    description: "a colour as six hexadecimal digits `RRGGBB` (either case; `#` and the 3-digit shorthand tolerated)",
    example: "4B007D",
    default: None,
};

const CANVAS_ERRORS: &[ErrorKind] = &[
    ErrorKind::BadRequest,
    ErrorKind::Unprocessable,
    ErrorKind::BadGateway,
    ErrorKind::Overloaded,
    ErrorKind::GatewayTimeout,
];

/// The plural overlay path's errors: the canvas ones, and 404 for a name
/// that is no overlay.
const OVERLAY_ERRORS: &[ErrorKind] = &[
    ErrorKind::BadRequest,
    ErrorKind::NotFound,
    ErrorKind::Unprocessable,
    ErrorKind::BadGateway,
    ErrorKind::Overloaded,
    ErrorKind::GatewayTimeout,
];

/// The operators' templates' operation (`--templates`); each template
/// loaded also has an operation of its own path, its parameters read from
/// its file ([`super::custom_operation`]).
pub const CUSTOM: Endpoint = Endpoint {
    path: "/canvas/custom/{name}",
    tag: "canvas: custom",
    summary: "An operator's template (only with `--templates`)",
    description: "The templates the operator put in the `--templates` folder, one per file, each at `/canvas/custom/<name>`: listed below as operations of their own, with their parameters and previews, when the server has any. Another name: 404. Every template takes `avatar` (unless it draws none), `format` and `quality`, and answers as the built-in templates do, under the same limits.",
    params: &[
        Param {
            name: "name",
            location: In::Path,
            required: true,
            kind: Kind::Name(64),
            description: "the template's name: 1 to 64 of a–z, 0–9 and `-`",
            example: "harbor-welcome",
            default: None,
        },
        AVATAR,
    ],
    ok: Success::CanvasImage,
    errors: OVERLAY_ERRORS,
};

/// The rank card designs (`/premium/rankcard/{template}`).
pub const RANKCARD_TEMPLATES: &[&str] = &["1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// Anime gif types, in the spec's order (the content crate's list).
pub const ANIMU_TYPES: &[&str] = content::AnimuType::NAMES;
/// `/animal/:type` types, in the spec's order.
pub const ANIMAL_TYPES: &[&str] = content::AnimalType::NAMES;
/// `/facts/:type` types, in the spec's order.
pub const FACT_TYPES: &[&str] = content::FactType::NAMES;
/// `/img/:type` types, in the spec's order.
pub const IMG_TYPES: &[&str] = content::ImgType::NAMES;

const fn type_param(values: &'static [&'static str], description: &'static str) -> Param {
    Param {
        name: "type",
        location: In::Path,
        required: true,
        kind: Kind::Enum(values),
        description,
        example: values[0],
        default: None,
    }
}

const fn misc(path: &'static str, summary: &'static str, params: &'static [Param]) -> Endpoint {
    Endpoint {
        path,
        tag: "canvas: misc",
        summary,
        description: "",
        params,
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    }
}

const fn meme(path: &'static str, summary: &'static str, description: &'static str) -> Endpoint {
    Endpoint {
        path,
        tag: "canvas: memes",
        summary,
        description,
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    }
}

/// `avatar2` of the two-avatar memes: required, fetched like `avatar`.
pub const AVATAR2: Param = Param {
    name: "avatar2",
    description: "URL of the second picture, fetched like `avatar` (http or https; PNG or APNG, JPEG, GIF or WebP, still or animated; the same caps; its errors name `avatar2`). Required: absent or blank is a 400 naming it",
    example: "https://example.com/avatar2.png",
    ..AVATAR
};

/// A two-avatar meme of `/canvas/meme`.
const fn pair_meme(
    path: &'static str,
    summary: &'static str,
    description: &'static str,
) -> Endpoint {
    Endpoint {
        path,
        tag: "canvas: memes",
        summary,
        description,
        params: &[AVATAR, AVATAR2],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    }
}

/// What every animated effect's description says.
const EFFECT_DESCRIPTION: &str = "256×256 by default (`size` 64–512), 16 frames looping seamlessly (the frame after the last is the first), always animated: absent `format` gives a GIF (png: the first frame), `format=webp` an animated WebP with true alpha. An animated avatar keeps its own motion, aligned by time (the effect's loop repeats to cover the avatar's, at most 256 frames). Transparency is kept. Out-of-range knobs: 400 naming the knob.";

const fn effect(path: &'static str, summary: &'static str) -> Endpoint {
    Endpoint {
        path,
        tag: "canvas: effects",
        summary,
        description: EFFECT_DESCRIPTION,
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    }
}

const fn overlay(path: &'static str, summary: &'static str) -> Endpoint {
    Endpoint {
        path,
        tag: "canvas: overlays",
        summary,
        description: "512×512, from `avatar`. An animated avatar gives an animated image (the overlay drawn over every frame).",
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    }
}

/// A caption over any picture: the picture from `avatar` or `image`.
const fn caption(path: &'static str, summary: &'static str, description: &'static str) -> Endpoint {
    Endpoint {
        path,
        tag: "canvas: captions",
        summary,
        description,
        params: CAPTION_PICTURE,
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    }
}

/// A caption's description: its own sentence, then what every caption
/// does with its picture.
macro_rules! caption_doc {
    ($own:literal) => {
        concat!(
            $own,
            "The canvas follows the picture: the picture keeps its aspect and is shown whole at its own size, its long side at least 320 and at most 1024 pixels (a larger picture is shrunk, a smaller one enlarged), with the band or frame around it scaled to match. Text takes every script and colour emoji, at most 200 characters a parameter. An animated picture gives an animated answer (absent `format`: a GIF), aligned by time. Open to everyone."
        )
    };
}

/// The picture of a caption: exactly one of `avatar` or `image`.
const CAPTION_PICTURE: &[Param] = &[
    Param {
        required: false,
        description: "URL of the picture, as for every avatar (http or https; PNG or APNG, JPEG, GIF or WebP, still or animated; at most 4096×4096 pixels, and an animation at most 256 frames and 32 Mi pixels in all). Give exactly one of `avatar` or `image` (both, or neither: 400)",
        ..AVATAR
    },
    Param {
        name: "image",
        required: false,
        description: "URL of any picture, fetched like `avatar` (same URL rules, size, pixel and frame caps, caches and decode budget; its errors name `image`). Give exactly one of `avatar` or `image`",
        example: "https://example.com/picture.png",
        ..AVATAR
    },
];

/// The overlay names, in the server catalogue's order (a test holds them
/// to it).
pub const OVERLAY_NAMES: &[&str] = &[
    "comrade",
    "gay",
    "glass",
    "jail",
    "passed",
    "triggered",
    "wasted",
];

/// The welcome cards' numbers, in the server catalogue's order (a test
/// holds them to it).
pub const WELCOME_TEMPLATES: &[&str] = &["1", "2", "3", "4", "5", "6", "7"];
/// The welcome backgrounds (canvas-render's list).
pub const WELCOME_BACKGROUNDS: &[&str] = &canvas_render::template::WELCOME_BACKGROUNDS;

const WELCOME_TEMPLATE: Param = Param {
    name: "template",
    location: In::Path,
    required: true,
    kind: Kind::Enum(WELCOME_TEMPLATES),
    description: "the card's design, 1 to 7 (another number: 404)",
    example: "1",
    default: None,
};

const WELCOME_PARAMS: &[Param] = &[
    WELCOME_TEMPLATE,
    Param {
        name: "background",
        location: In::Path,
        required: true,
        kind: Kind::Enum(WELCOME_BACKGROUNDS),
        description: "the background, our own art (another name: 404)",
        example: "space",
        default: None,
    },
    AVATAR,
];

const WELCOME_DESCRIPTION: &str = "1200×600: the avatar, a title, the name, the server's name and the member count on one of 13 backgrounds, in one of 7 designs. Only `avatar` is required. An animated avatar gives an animated card (absent `format`: a GIF). Open to everyone.";

const fn filter(path: &'static str, summary: &'static str, params: &'static [Param]) -> Endpoint {
    Endpoint {
        path,
        tag: "canvas: filters",
        summary,
        description: "",
        params,
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    }
}

const fn lookup(
    path: &'static str,
    summary: &'static str,
    param: &'static [Param],
    schema: &'static str,
    miss: ErrorKind,
) -> Endpoint {
    Endpoint {
        path,
        tag: "creature",
        summary,
        description: "Lookup is forgiving: case-insensitive; spaces, underscores and hyphens are equivalent; accents are folded; display names and slugs both work.",
        params: param,
        ok: Success::Json(schema),
        errors: match miss {
            ErrorKind::CreatureNotFound => &[
                ErrorKind::BadRequest,
                ErrorKind::CreatureNotFound,
                ErrorKind::DataMissing,
            ],
            ErrorKind::MoveNotFound => &[
                ErrorKind::BadRequest,
                ErrorKind::MoveNotFound,
                ErrorKind::DataMissing,
            ],
            ErrorKind::AbilityNotFound => &[
                ErrorKind::BadRequest,
                ErrorKind::AbilityNotFound,
                ErrorKind::DataMissing,
            ],
            _ => &[
                ErrorKind::BadRequest,
                ErrorKind::ItemNotFound,
                ErrorKind::DataMissing,
            ],
        },
    }
}

const fn name_param(name: &'static str, description: &'static str, example: &'static str) -> Param {
    Param {
        name,
        location: In::Query,
        required: true,
        kind: Kind::Name(100),
        description,
        example,
        default: None,
    }
}

const fn json(
    path: &'static str,
    tag: &'static str,
    summary: &'static str,
    params: &'static [Param],
    schema: &'static str,
    errors: &'static [ErrorKind],
) -> Endpoint {
    Endpoint {
        path,
        tag,
        summary,
        description: "",
        params,
        ok: Success::Json(schema),
        errors,
    }
}

const NOT_FOUND: &[ErrorKind] = &[ErrorKind::NotFound];
const NOT_FOUND_OR_BUSY: &[ErrorKind] = &[ErrorKind::NotFound, ErrorKind::Overloaded];

/// The group segments of the previews (`/previews/{group}/{file}`), in
/// the order of the server catalogue's image endpoints (a test holds them
/// to it).
pub const PREVIEW_GROUPS: &[&str] = &[
    "canvas",
    "misc",
    "filter",
    "overlay",
    "premium",
    "welcome",
    "rankcard",
    "meme",
    "caption",
    "effect",
    "welcome-background",
];

/// The group segments of `/previews/{group}/{file}`: [`PREVIEW_GROUPS`]
/// and the operators' templates' (`custom`).
pub const PREVIEW_PATH_GROUPS: &[&str] = &[
    "canvas",
    "misc",
    "filter",
    "overlay",
    "premium",
    "welcome",
    "rankcard",
    "meme",
    "caption",
    "effect",
    "welcome-background",
    crate::catalogue::CUSTOM_PREVIEWS,
];

/// The gallery's title for the previews of a preview group whose images an
/// operation's path parameters pick (`x-previews`' `group`).
pub fn preview_group_title(group: &str) -> &'static str {
    match group {
        "rankcard" => "rank cards",
        "welcome" => "welcome cards",
        "welcome-background" => "welcome backgrounds",
        _ => "previews",
    }
}
const NONE: &[ErrorKind] = &[];

/// Every endpoint of the service, in the order the playground lists them.
pub const ENDPOINTS: &[Endpoint] = &[
    // --- canvas tools ---
    json(
        "/canvas/hex",
        "canvas: colour",
        "RGB → hex",
        &[Param {
            name: "rgb",
            location: In::Query,
            required: true,
            kind: Kind::Triple,
            description: "three decimal integers 0–255 separated by commas, `r,g,b` (spaces tolerated)",
            example: "75,0,125",
            default: None,
        }],
        "HexConversion",
        &[ErrorKind::BadRequest],
    ),
    json(
        "/canvas/rgb",
        "canvas: colour",
        "hex → RGB",
        &[HEX],
        "RgbConversion",
        &[ErrorKind::BadRequest],
    ),
    Endpoint {
        path: "/canvas/colorviewer",
        tag: "canvas: colour",
        summary: "A 256×256 PNG square of one colour",
        description: "",
        params: &[HEX],
        ok: Success::Png,
        errors: &[ErrorKind::BadRequest],
    },
    Endpoint {
        path: "/canvas/message",
        tag: "canvas: misc",
        summary: "A chat message card: avatar, name, tag, time, reply line and text in chat markup",
        description: "One message as a chat client shows it (a quote of someone's message in a bot's reply), 1000 px wide and 152 px tall for one line of text (196 with a reply line), growing about 44 px a line up to 1200 px, past which the text shrinks (down to 16 px) and is then cut with \"…\". `text` is required (1–2000 characters). Chat markup: `**bold**`, `*italic*` or `_italic_`, `~~strike~~`, `` `code` `` (monospace on a chip) and `@mentions` (highlighted); a marker without its closing one is literal, `\\` before a marker keeps it literal. `timestamp` (ISO 8601) is drawn in UTC as `11/29/2026 8:15 AM`, never read from a clock. `reply_text` needs `reply_username`. An animated avatar gives an animated GIF (or WebP), aligned by time.",
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    },
    // --- canvas misc ---
    misc(
        "/canvas/misc/bisexual",
        "Avatar with a bisexual-flag overlay",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/circle",
        "Avatar cropped to a circle",
        &[AVATAR],
    ),
    misc("/canvas/misc/heart", "Avatar cropped to a heart", &[AVATAR]),
    misc(
        "/canvas/misc/horny",
        "A 'horny licence' card with the avatar",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/its-so-stupid",
        "A sign held up saying the text",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/lesbian",
        "Avatar with a lesbian-flag overlay",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/lgbt",
        "Avatar with a rainbow-flag overlay",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/lied",
        "A 'lied' meme with the avatar, captioned \"<username> lied.\"",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/lolice",
        "A police-badge meme with the avatar",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/namecard",
        "A name card with avatar, name, birthday and description",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/nobitches",
        "A two-line caption meme (no avatar)",
        &[],
    ),
    misc(
        "/canvas/misc/nonbinary",
        "Avatar with a non-binary-flag overlay",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/sage",
        "A character-quote card: a wise old turtle with the quote",
        &[AVATAR_UNUSED],
    ),
    misc(
        "/canvas/misc/sage2",
        "A second character-quote card layout",
        &[AVATAR_UNUSED],
    ),
    misc(
        "/canvas/misc/pansexual",
        "Avatar with a pansexual-flag overlay",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/simpcard",
        "A 'simp card' with the avatar",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/series",
        "A series title card with the avatar",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/transgender",
        "Avatar with a transgender-flag overlay",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/post",
        "A microblog post with avatar, names and text",
        &[AVATAR],
    ),
    misc(
        "/canvas/misc/video-comment",
        "A video-site comment with avatar, name and text",
        &[AVATAR],
    ),
    // --- two-avatar memes ---
    pair_meme(
        "/canvas/meme/ship",
        "Ship two pictures: a heart with their match percentage, a meter and a verdict",
        "720×352: `avatar` and `avatar2` in round frames, a heart with the match percentage, a meter of ten hearts and a one-line verdict (below 20 %: \"Not meant to be\", then \"Just friends\", \"Worth a try\", \"A lovely match\", \"Made for each other\", and at 100 % \"Soulmates!\"). Without `percent` the percentage comes from the two URLs: the same pair gives the same percentage, in either order. Both pictures come through the avatar's fetcher and caches, fetched at the same time (the second decoded once the job holds a slot for it) and the request costs two images; either animated gives an animated image, aligned by time.",
    ),
    pair_meme(
        "/canvas/meme/kiss",
        "A kiss: the two pictures cheek to cheek, hearts rising",
        "640×360, `avatar` on the left, `avatar2` on the right. Both come through the avatar's fetcher and caches, fetched at the same time (the second decoded once the job holds a slot for it) and the request costs two images; either animated gives an animated image, aligned by time.",
    ),
    pair_meme(
        "/canvas/meme/slap",
        "A slap: the avatar's hand hits the second picture",
        "640×360, `avatar` slaps `avatar2`, which reels back under the impact. Both come through the avatar's fetcher and caches, fetched at the same time (the second decoded once the job holds a slot for it) and the request costs two images; either animated gives an animated image, aligned by time.",
    ),
    pair_meme(
        "/canvas/meme/hug",
        "A hug: the two pictures with arms wrapped around them",
        "640×360, `avatar` on the left, `avatar2` on the right. Both come through the avatar's fetcher and caches, fetched at the same time (the second decoded once the job holds a slot for it) and the request costs two images; either animated gives an animated image, aligned by time.",
    ),
    pair_meme(
        "/canvas/meme/fuse",
        "The two pictures fused: blended half and half",
        "512×512: `avatar2` at half opacity over `avatar`, each scaled to cover the square, under a violet swirl. Both come through the avatar's fetcher and caches, fetched at the same time (the second decoded once the job holds a slot for it) and the request costs two images; either animated gives an animated image, aligned by time.",
    ),
    pair_meme(
        "/canvas/meme/vs",
        "Who would win: the two pictures in framed panels with a VS badge",
        "700×350: `avatar` in the blue panel, `avatar2` in the red one, under \"WHO WOULD WIN?\". Both come through the avatar's fetcher and caches, fetched at the same time (the second decoded once the job holds a slot for it) and the request costs two images; either animated gives an animated image, aligned by time.",
    ),
    pair_meme(
        "/canvas/meme/heart-locket",
        "A gold heart locket swings open on the two pictures (animated)",
        "390×312, 24 frames of 70 ms, always animated: absent `format` gives a GIF (png: the first frame, the locket closed). The closed locket hangs for 4 frames, swings open in 6, and the open locket holds for the last 14 with its twinkles; identical frames in a row are one frame of the GIF. `avatar` is in the left half, `avatar2` in the right one, which unfolds as the front swings open. Both come through the avatar's fetcher and caches, fetched at the same time (the second decoded once the job holds a slot for it) and the request costs two images; an animated picture keeps its own motion, aligned by time.",
    ),
    // --- canvas overlays ---
    overlay(
        "/canvas/overlay/comrade",
        "The avatar under a Soviet red wash with the gold hammer and sickle in its upper corner, as on the flag",
    ),
    overlay("/canvas/overlay/gay", "The avatar under rainbow stripes"),
    overlay("/canvas/overlay/glass", "The avatar behind cracked glass"),
    overlay(
        "/canvas/overlay/jail",
        "The avatar, grey, behind steel bars",
    ),
    overlay(
        "/canvas/overlay/passed",
        "The avatar, grey and dimmed, under a dark band with MISSION PASSED and RESPECT +",
    ),
    Endpoint {
        path: "/canvas/overlay/triggered",
        tag: "canvas: overlays",
        summary: "The avatar shaking under a red tint above a steady TRIGGERED banner (animated)",
        description: "512×512, 12 frames of 40 ms, always animated, every pixel of every frame opaque: the tinted avatar at the canvas's size, its middle 488 px in a thin dark edge, jumps between 12 places (up to 12 px from the centre) above the TRIGGERED banner, which stays still across the foot; around it the first frame shows, on a deep red board. Absent `format` gives a GIF (png: the first frame). An animated avatar keeps its own motion, aligned by time.",
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    },
    overlay(
        "/canvas/overlay/wasted",
        "The avatar, grey and dimmed, under a dark band with a red WASTED",
    ),
    Endpoint {
        path: "/canvas/overlays/{name}",
        tag: "canvas: overlays",
        summary: "The overlays again, under the plural spelling",
        description: "The same images as `/canvas/overlay/{name}`, byte for byte.",
        params: &[
            Param {
                name: "name",
                location: In::Path,
                required: true,
                kind: Kind::Enum(OVERLAY_NAMES),
                description: "the overlay",
                example: "jail",
                default: None,
            },
            AVATAR,
        ],
        ok: Success::CanvasImage,
        errors: OVERLAY_ERRORS,
    },
    // --- animated templates ---
    Endpoint {
        path: "/premium/petpet",
        tag: "canvas: animated",
        summary: "A hand pats the avatar, which squashes under it (animated)",
        description: "256×256, 10 frames, always animated: absent `format` gives a GIF (png: the first frame). An animated avatar keeps its own motion under the hand, aligned by time (the pat repeats to cover the avatar's loop, at most 256 frames). Open to everyone.",
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    },
    Endpoint {
        path: "/premium/amongus",
        tag: "canvas: animated",
        summary: "The avatar drifts through space while a sentence types out (animated)",
        description: "600×300, 30 frames of 80 ms, always animated. The sentence is \"<username> was not the impostor.\" (\"was the impostor.\" with `impostor=true`), or `custom` when it is given. Open to everyone.",
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    },
    // --- memes ---
    meme(
        "/canvas/meme/wanted",
        "An old-west wanted poster with the avatar as its sepia portrait",
        "450×600: aged paper, \"WANTED\", \"DEAD OR ALIVE\", the avatar greyed and toned sepia, `name` in capitals (an ornament in its place when blank) and \"REWARD $`reward`\" written with thousands separators (`reward=1500000` gives \"REWARD $1,500,000\"). A still avatar gives a PNG (or `format`); an animated avatar gives an animated poster, aligned by time.",
    ),
    meme(
        "/canvas/meme/rip",
        "A gravestone with the avatar greyed in an oval, RIP, an epitaph and years",
        "700×800: a gravestone on a grassy hill at dusk, the avatar greyed in an oval on the stone, \"R I P\" engraved under it, then `text` (wraps and shrinks to fit) and `years` (free text). A still avatar gives a PNG (or `format`); an animated avatar gives an animated image, aligned by time.",
    ),
    meme(
        "/canvas/meme/trash",
        "The avatar thrown into a metal bin in an alley",
        "560×560: the avatar, tilted, sticking out of a dented metal bin in a brick alley, with flies and a banana peel. A still avatar gives a PNG (or `format`); an animated avatar gives an animated image, aligned by time.",
    ),
    meme(
        "/canvas/meme/delete",
        "A \"Delete this file?\" dialog with the avatar as the file's icon",
        "800×480: a desktop dialog asking to delete a file whose icon is the avatar, `filename` under the question, the pointer on \"Delete\". A still avatar gives a PNG (or `format`); an animated avatar gives an animated image, aligned by time.",
    ),
    meme(
        "/canvas/meme/beautiful",
        "The avatar as a painting in a gilded frame on a museum wall",
        "560×560: the avatar in a gilded frame under a spotlight, `title` on the brass plaque under it, a velvet rope in front. A still avatar gives a PNG (or `format`); an animated avatar gives an animated image, aligned by time.",
    ),
    meme(
        "/canvas/meme/stonks",
        "The round avatar before a rising market chart, captioned STONKS",
        "640×480: a trading screen with climbing candles and a green arrow shooting up from behind the round avatar, `text` in outlined capitals (default \"STONKS\"). A still avatar gives a PNG (or `format`); an animated avatar gives an animated image, aligned by time.",
    ),
    // --- captions over any picture ---
    caption(
        "/canvas/caption/caption",
        "A white band above the picture with the text in black",
        caption_doc!(
            "The band is as tall as `text` needs (up to about four lines at its largest size, then the text shrinks to fit). "
        ),
    ),
    caption(
        "/canvas/caption/impact",
        "White outlined capitals over the top and bottom of the picture",
        caption_doc!(
            "`top` and `bottom` are upper-cased, in a bold condensed face with a black outline, each shrinking to fit its half. "
        ),
    ),
    caption(
        "/canvas/caption/motivate",
        "The black motivational poster: the picture in a thin white frame, a big serif title and a smaller line",
        caption_doc!(
            "The poster is 1.22 times as wide as the picture and 0.51 of its width taller. "
        ),
    ),
    caption(
        "/canvas/caption/speechbubble",
        "A speech bubble cut out of the top of the picture",
        caption_doc!(
            "The bubble and its tail are transparent, so a chat shows the picture as a reply bubble (a PNG, WebP or GIF keeps the transparency). "
        ),
    ),
    // --- animated effects ---
    effect(
        "/canvas/effect/spin",
        "The avatar, cut round, spinning (also at `/canvas/misc/spin`) (animated)",
    ),
    effect("/canvas/effect/shake", "The avatar shaking (animated)"),
    effect(
        "/canvas/effect/zoom",
        "Zooming into the avatar and back out (animated)",
    ),
    effect(
        "/canvas/effect/rainbow",
        "The avatar's colours cycling around the colour wheel (animated)",
    ),
    effect(
        "/canvas/effect/wave",
        "The avatar's rows waving sideways (animated)",
    ),
    effect(
        "/canvas/effect/ripple",
        "Rings rippling out from the avatar's centre (animated)",
    ),
    effect(
        "/canvas/effect/wiggle",
        "The avatar wiggling both ways (animated)",
    ),
    effect(
        "/canvas/effect/swirl",
        "The avatar twisting around its centre and back (animated)",
    ),
    effect(
        "/canvas/effect/melt",
        "The avatar melting down and back up (animated)",
    ),
    effect(
        "/canvas/effect/bounce",
        "The avatar bouncing, squashing as it lands (animated)",
    ),
    effect(
        "/canvas/effect/shear",
        "The avatar slanting left and right (animated)",
    ),
    effect(
        "/canvas/effect/roll",
        "The avatar, cut round, rolling across and around (animated)",
    ),
    effect(
        "/canvas/effect/boil",
        "The avatar wobbling all over, boiling (animated)",
    ),
    effect(
        "/canvas/effect/glitch",
        "Bands of the avatar torn sideways, colour channels split (animated)",
    ),
    effect(
        "/canvas/effect/globe",
        "The avatar wrapped on a turning, shaded sphere (animated)",
    ),
    effect(
        "/canvas/effect/magik",
        "A liquid distortion of the avatar growing and settling (animated)",
    ),
    Endpoint {
        path: "/canvas/effect/deepfry",
        tag: "canvas: effects",
        summary: "The avatar deep-fried: over-saturated, blocky, posterised, a red-orange cast",
        description: "256×256 by default (`size` 64–512), a still: PNG by default. An animated avatar gives an animated image (every frame fried).",
        params: &[AVATAR],
        ok: Success::CanvasImage,
        errors: CANVAS_ERRORS,
    },
    // --- welcome cards ---
    Endpoint {
        path: "/welcome/img/{template}/{background}",
        tag: "canvas: welcome",
        summary: "A welcome (or goodbye) card: one of 7 designs over one of 13 backgrounds",
        description: WELCOME_DESCRIPTION,
        params: WELCOME_PARAMS,
        ok: Success::CanvasImage,
        errors: OVERLAY_ERRORS,
    },
    Endpoint {
        path: "/canvas/welcome/img/{template}/{background}",
        tag: "canvas: welcome",
        summary: "The welcome cards again, under the /canvas prefix",
        description: "The same images as `/welcome/img/{template}/{background}`, byte for byte.",
        params: WELCOME_PARAMS,
        ok: Success::CanvasImage,
        errors: OVERLAY_ERRORS,
    },
    Endpoint {
        path: "/premium/welcome/{template}",
        tag: "canvas: welcome",
        summary: "A welcome card over your own background image",
        description: "The cards of `/welcome/img/{template}/{background}`, 1200×600, with the image at `bg` scaled and cropped to cover the card instead of a built-in background. `bg` is fetched like `avatar` (same URL rules, size, pixel and frame caps, caches and decode budget; its errors name `bg`), and the request costs two images. An animated avatar or `bg` gives an animated card, both aligned by time (every moment either changes frame, over the longer loop). Open to everyone.",
        params: &[
            WELCOME_TEMPLATE,
            AVATAR,
            Param {
                name: "bg",
                description: "URL of the background image, fetched like `avatar` (http or https; PNG or APNG, JPEG, GIF or WebP, still or animated); scaled and centre-cropped to 1200×600",
                example: "https://example.com/background.png",
                ..AVATAR
            },
        ],
        ok: Success::CanvasImage,
        errors: OVERLAY_ERRORS,
    },
    // --- rank cards ---
    Endpoint {
        path: "/premium/rankcard/{template}",
        tag: "canvas: cards",
        summary: "A rank card: avatar, name, level, rank and an XP bar (nine designs)",
        description: "900×300, nine designs (`template` 1 to 9), each with its own layout and default colours (the book's endpoint guide, Rank cards). Only `avatar` is required: an absent `username` is \"Member\", absent `level`, `cxp` and `nxp` are 0, and `discriminator` and `rank` are hidden when absent or 0. The bar shows `cxp`/`nxp` clamped to 0–100 %; without `nxp` (or 0) it has no goal: full when `cxp` is above 0, and the counter reads `cxp XP`. Counts are written compactly (12.3K); once `cxp` or `nxp` is 10,000 or more, both are in thousands alike (3.4K / 10K). A still avatar gives a PNG (or `format`); an animated avatar gives an animated card, aligned by time. Open to everyone.",
        params: &[
            Param {
                name: "template",
                location: In::Path,
                required: true,
                kind: Kind::Enum(RANKCARD_TEMPLATES),
                description: "the design, 1 to 9",
                example: "1",
                default: None,
            },
            AVATAR,
        ],
        ok: Success::CanvasImage,
        errors: OVERLAY_ERRORS,
    },
    // --- canvas filters ---
    filter("/canvas/filter/blue", "Blue tint", &[AVATAR]),
    filter("/canvas/filter/blurple", "Blurple tint", &[AVATAR]),
    filter(
        "/canvas/filter/blurple2",
        "Blurple tint, second variant",
        &[AVATAR],
    ),
    filter("/canvas/filter/blur", "Gaussian blur", &[AVATAR]),
    filter("/canvas/filter/pixelate", "Pixelate", &[AVATAR]),
    filter(
        "/canvas/filter/brightness",
        "Brighten: every channel moved towards white by a percentage (0 unchanged, 50 halfway to white, 100 white)",
        &[
            AVATAR,
            level(
                "brightness",
                (
                    canvas_render::Brightness::MIN as f64,
                    canvas_render::Brightness::MAX as f64,
                ),
                "percentage of the way to white, decimals allowed: 0 leaves the image unchanged, 50 moves every channel halfway to white, 100 gives white (alpha kept)",
                "30",
            ),
        ],
    ),
    filter(
        "/canvas/filter/color",
        "Tint with a colour",
        &[
            AVATAR,
            Param {
                name: "color",
                location: In::Query,
                required: false,
                kind: Kind::Hex,
                description: "the tint as six hexadecimal digits `RRGGBB`",
                example: "4B007D",
                default: Some("5865F2"),
            },
        ],
    ),
    filter("/canvas/filter/green", "Green tint", &[AVATAR]),
    filter("/canvas/filter/greyscale", "Greyscale", &[AVATAR]),
    filter("/canvas/filter/invert", "Invert colours", &[AVATAR]),
    filter(
        "/canvas/filter/invertgreyscale",
        "Invert, then greyscale",
        &[AVATAR],
    ),
    filter("/canvas/filter/red", "Red tint", &[AVATAR]),
    filter("/canvas/filter/sepia", "Sepia tone", &[AVATAR]),
    filter(
        "/canvas/filter/threshold",
        "Black and white at a threshold",
        &[
            AVATAR,
            level(
                "threshold",
                (
                    canvas_render::Threshold::MIN as f64,
                    canvas_render::Threshold::MAX as f64,
                ),
                "luminance level 0–255 below which pixels turn black",
                "128",
            ),
        ],
    ),
    // --- operators' templates ---
    CUSTOM,
    // --- previews ---
    Endpoint {
        path: "/previews/{group}/{file}",
        tag: "previews",
        summary: "An image endpoint's preview: its answer to built-in sample inputs",
        description: "Every image endpoint (the colour square, filters, misc images and scenes, overlays, the `/premium` images) has one preview, named in its operation's `x-preview`: `/previews/<group>/<name>.png`, or `.gif` for an image that is always animated (`/previews/misc/circle.png`, `/previews/overlay/triggered.gif`, `/previews/premium/petpet.gif`, `/previews/canvas/colorviewer.png`). The cards, whose operations pick the design by path parameter, list theirs in the operation's `x-previews`: one per rank template (`/previews/rankcard/3.png`), one per welcome template over the `space` background (`/previews/welcome/3.png`) and one per welcome background under template 6 (`/previews/welcome-background/sunset.png`). It is the endpoint's default answer drawn from a built-in sample avatar (a fox drawn in code; no avatar is fetched) and sample text. Each preview is rendered once per server process, the first time it is asked for (under the job limits of any image: 503 when they are full), then served from memory.",
        params: &[
            Param {
                name: "group",
                location: In::Path,
                required: true,
                kind: Kind::Enum(PREVIEW_PATH_GROUPS),
                description: "the endpoint's group: `canvas` (the colour square), `filter`, `misc`, `overlay`, `premium`, `rankcard`, `meme` (the memes), `caption` (the captions), `welcome` (the welcome templates), `welcome-background`, or `custom` (an operator's template)",
                example: "misc",
                default: None,
            },
            Param {
                name: "file",
                location: In::Path,
                required: true,
                kind: Kind::Name(80),
                description: "the endpoint's name (a card's template number, a background's name) and the preview's extension (`circle.png`, `petpet.gif`, `3.png`, `sunset.png`)",
                example: "circle.png",
                default: None,
            },
        ],
        ok: Success::Image,
        errors: NOT_FOUND_OR_BUSY,
    },
    // --- anime ---
    json(
        "/animu",
        "anime",
        "List the anime gif types",
        &[],
        "AnimuTypes",
        NONE,
    ),
    json(
        "/animu/quote",
        "anime",
        "A random anime quote",
        &[],
        "AnimuQuote",
        NONE,
    ),
    json(
        "/animu/{type}",
        "anime",
        "A random anime reaction gif of a type",
        &[type_param(ANIMU_TYPES, "the reaction")],
        "AnimuLink",
        NOT_FOUND,
    ),
    // --- creature reference ---
    lookup(
        "/creature/dex",
        "A creature's dex record by number or name",
        &[name_param(
            "id",
            "dex number (`25`, `025`) or name (`pikachu`, `raichu-alola`)",
            "25",
        )],
        "DexRecord",
        ErrorKind::CreatureNotFound,
    ),
    lookup(
        "/creature/moves",
        "A move record, with suggestions on a miss",
        &[name_param("move", "move name or slug", "karate-chop")],
        "Move",
        ErrorKind::MoveNotFound,
    ),
    lookup(
        "/creature/abilities",
        "An ability record, with suggestions on a miss",
        &[name_param("ability", "ability name or slug", "stench")],
        "Ability",
        ErrorKind::AbilityNotFound,
    ),
    lookup(
        "/creature/items",
        "An item record, with suggestions on a miss",
        &[name_param("item", "item name or slug", "master-ball")],
        "Item",
        ErrorKind::ItemNotFound,
    ),
    // --- animals, facts, images ---
    json(
        "/animal",
        "animals",
        "List the animal types",
        &[],
        "Endpoints",
        NONE,
    ),
    json(
        "/animal/{type}",
        "animals",
        "A random picture and fact of an animal",
        &[type_param(
            ANIMAL_TYPES,
            "the animal (`raccoon` is also accepted, as an alias of `racoon`)",
        )],
        "AnimalPick",
        NOT_FOUND,
    ),
    json(
        "/facts",
        "facts",
        "List the fact types",
        &[],
        "Endpoints",
        NONE,
    ),
    json(
        "/facts/{type}",
        "facts",
        "A random fact",
        &[type_param(
            FACT_TYPES,
            "the subject (`raccoon` is also accepted, as an alias of `racoon`)",
        )],
        "Fact",
        NOT_FOUND,
    ),
    json(
        "/img",
        "images",
        "List the image types",
        &[],
        "Endpoints",
        NONE,
    ),
    json(
        "/img/{type}",
        "images",
        "A random image link",
        &[type_param(
            IMG_TYPES,
            "the subject (`raccoon` is also accepted, as an alias of `racoon`)",
        )],
        "ImageLink",
        NOT_FOUND,
    ),
    Endpoint {
        path: "/media/{group}/{type}/{file}",
        tag: "images",
        summary: "A self-hosted picture (only with `--media-dir`)",
        description: "Files under `DIR/<group>/<type>/` of `--media-dir`, also listed among that type's links.",
        params: &[
            Param {
                name: "group",
                location: In::Path,
                required: true,
                kind: Kind::Enum(&["img", "animal", "animu"]),
                description: "the endpoint group",
                example: "img",
                default: None,
            },
            Param {
                name: "type",
                location: In::Path,
                required: true,
                kind: Kind::Text(64),
                description: "a type of that group",
                example: "cat",
                default: None,
            },
            Param {
                name: "file",
                location: In::Path,
                required: true,
                kind: Kind::Text(100),
                description: "the file name",
                example: "1.png",
                default: None,
            },
        ],
        ok: Success::Image,
        errors: NOT_FOUND,
    },
    // --- the service itself ---
    json(
        "/health",
        "service",
        "Liveness and version",
        &[],
        "Health",
        NONE,
    ),
    Endpoint {
        path: "/metrics",
        tag: "service",
        summary: "Prometheus metrics (text exposition format 0.0.4)",
        description: "",
        params: &[],
        ok: Success::Metrics,
        errors: NONE,
    },
    Endpoint {
        path: "/openapi.json",
        tag: "service",
        summary: "This document",
        description: "",
        params: &[],
        ok: Success::Json("OpenApiDocument"),
        errors: NONE,
    },
    Endpoint {
        path: "/",
        tag: "service",
        summary: "The playground page",
        description: "",
        params: &[],
        ok: Success::Html,
        errors: NONE,
    },
    Endpoint {
        path: "/playground/{asset}",
        tag: "service",
        summary: "The playground's script and style sheet",
        description: "",
        params: &[Param {
            name: "asset",
            location: In::Path,
            required: true,
            kind: Kind::Enum(&["app.js", "style.css"]),
            description: "the asset",
            example: "app.js",
            default: None,
        }],
        ok: Success::Asset,
        errors: NOT_FOUND,
    },
];
