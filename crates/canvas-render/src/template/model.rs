//! The template model: a template, its layers and slots, its typed
//! parameters and the arguments given to them.

use super::*;

/// Most frames an animated template renders for one animated avatar.
pub const MAX_TEMPLATE_FRAMES: usize = 256;

/// Which template. [`TemplateKind::ALL`] lists them; URL names belong to
/// the caller. New templates may come in minor releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TemplateKind {
    /// A Soviet red wash over the avatar, the gold hammer and sickle in its
    /// upper corner as on the flag.
    Comrade,
    /// Six translucent rainbow stripes over the avatar.
    Gay,
    /// The avatar behind a pane of cracked glass.
    Glass,
    /// The avatar, greyed, behind steel bars.
    Jail,
    /// The avatar, dimmed, under a dark band with a gold "MISSION PASSED"
    /// and "RESPECT +" beneath.
    Passed,
    /// The avatar shaking under a red tint with a "TRIGGERED" banner
    /// (always animated).
    Triggered,
    /// The avatar, greyed, under a dark band with a red "WASTED".
    Wasted,
    /// A hand pats the avatar, which squashes under it (animated).
    Petpet,
    /// The avatar drifts through space while a sentence types out (animated).
    Amongus,
    /// Welcome card 1 (1200×600): a centred glass panel, the round avatar
    /// on top. Every welcome card takes `type`, `textcolor`, `username`,
    /// `guildName`, `memberCount` and `background`, and draws the image
    /// source `bg` over the background when it is given.
    Welcome1,
    /// Welcome card 2: a wide pill card, the avatar at its left end.
    Welcome2,
    /// Welcome card 3: a dark angled panel, the avatar in a rounded frame.
    Welcome3,
    /// Welcome card 4: a huge title and a ribbon the avatar breaks through.
    Welcome4,
    /// Welcome card 5: the avatar in a tilted instant photo.
    Welcome5,
    /// Welcome card 6: a big title and a dark card along the bottom under
    /// the lines of text, the avatar at its left end.
    Welcome6,
    /// Welcome card 7: a gold-bordered badge among confetti.
    Welcome7,
    /// Rank card 1, 900×300: "Classic": a dark rounded card, a round ringed avatar, level and rank columns, a wide round bar.
    Rank1,
    /// Rank card 2, 900×300: "Panel": a coloured left panel with a rounded-square avatar and the level, the name and a segmented bar on the right.
    Rank2,
    /// Rank card 3, 900×300: "Neon": a horizon grid, a hexagonal avatar in a neon ring, a big level, a thin bar.
    Rank3,
    /// Rank card 4, 900×300: "Paper": a light card, a soft square avatar, dark text and a slim bar.
    Rank4,
    /// Rank card 5, 900×300: "Honeycomb": a hexagonal avatar and level badge over a honeycomb, a bar of hexagon-like blocks.
    Rank5,
    /// Rank card 6, 900×300: "Gauge": the bar is a ring around the round avatar; level, XP and rank in columns.
    Rank6,
    /// Rank card 7, 900×300: "Banner": a coloured top band the round avatar overlaps, a level badge, a bar at the foot.
    Rank7,
    /// Rank card 8, 900×300: "Arcade": a striped sunset, a square framed avatar, condensed type and chunky blocks.
    Rank8,
    /// Rank card 9, 900×300: "Glass": a frosted panel over soft lights, a round avatar, level and rank in pills.
    Rank9,
    /// `sage`, 1200×630: the wise old turtle beside `quote` on a warm
    /// landscape card. Draws no avatar.
    Sage,
    /// `sage2`, 800×800: the wise old turtle under a night sky, saying
    /// `quote` in a speech bubble. Draws no avatar.
    Sage2,
    /// `horny`, 900×560: a pink "horny licence" ID card with the avatar as
    /// its photo.
    Horny,
    /// `simpcard`, 900×560: a lilac "simp card" membership card with the
    /// avatar as its photo.
    Simpcard,
    /// `namecard`, 1680×800: a profile card with the round avatar,
    /// `username`, `birthday` ("Birthday not set" when blank) and
    /// `description`.
    Namecard,
    /// `nobitches`, 800×800: a smug cartoon face with the meme captions
    /// `no` on top and `bottomtext` below, upper-cased. Draws no avatar.
    NoBitches,
    /// `its-so-stupid`, 800×800: a four-panel comic whose last panel holds
    /// the avatar up on a tilted sign, the caption `dog` above it.
    ItsSoStupid,
    /// `lolice`, 900×600: a police mugshot of the avatar in front of a
    /// height chart, with red-and-blue siren glow.
    Lolice,
    /// `series`, 700×800: the avatar as the cover of a disc case held up
    /// in two hands.
    Series,
    /// `lied`, 600×600: the avatar, grey and rounded, under a vignette,
    /// captioned "`username` lied." ("You lied." when absent or blank).
    Lied,
    /// A microblog post card, 1200 × 471–1400: the round avatar, the
    /// display name and `@username`, the comment (the card grows with it,
    /// [`Layer::Grow`]), the date, counters and actions; `theme` light,
    /// dim or dark. Its size depends on its arguments
    /// ([`Template::size_for`]).
    Post,
    /// A dark video-site comment, 1200 × 227–800: the round avatar,
    /// `@username`, the comment (the card grows with it), the likes and
    /// the reply button.
    VideoComment,
    /// `wanted`, 450×600: an old-west wanted poster with the avatar as its
    /// sepia portrait, `name` and `reward`.
    Wanted,
    /// `rip`, 700×800: a gravestone on grass with the avatar greyed in an
    /// oval, "RIP", `text` and `years`.
    Rip,
    /// `trash`, 560×560: the avatar thrown into a metal bin in an alley.
    Trash,
    /// `delete`, 800×480: a "Delete this file?" dialog with the avatar as
    /// the file's icon and `filename`.
    Delete,
    /// `beautiful`, 560×560: the avatar as a painting in a gilded frame on
    /// a museum wall, `title` on its plaque.
    Beautiful,
    /// `stonks`, 640×480: the round avatar before a rising market chart,
    /// captioned `text`.
    Stonks,
    /// `ship`, 720×352: the avatar and the second picture (the image
    /// source `avatar2`) in round frames, a heart with a match percentage
    /// (`percent`, 0–100), a meter of ten hearts and a verdict.
    Ship,
    /// `kiss`, 640×360: the two pictures cheek to cheek, hearts rising.
    Kiss,
    /// `slap`, 640×360: the avatar's hand slaps the second picture.
    Slap,
    /// `hug`, 640×360: the two pictures with arms wrapped around them.
    Hug,
    /// `fuse`, 512×512: the two pictures blended half and half.
    Fuse,
    /// `vs`, 700×350: "who would win", the two pictures in framed panels
    /// with a VS badge.
    Vs,
    /// `heart-locket`, 390×312 (animated): a gold locket swings open on
    /// the two pictures.
    HeartLocket,
    /// `caption`: a white band above the picture with `text` in black, the
    /// band as tall as the text. Its canvas follows the picture
    /// ([`Layer::Fit`], [`Template::size_for_picture`]), as do the three
    /// below.
    Caption,
    /// `impact`: `top` and `bottom` in white outlined capitals over the
    /// picture.
    Impact,
    /// `motivate`: the black poster: the picture in a thin white frame, a
    /// big serif `title` and a smaller `text`.
    Motivate,
    /// `speechbubble`: a speech bubble cut out of the top of the picture
    /// (transparent there).
    SpeechBubble,
    /// The avatar, cut round, spinning (animated; the effects take `size`, and `strength` and `speed` where they apply: [`EffectSlot`]).
    Spin,
    /// The avatar shaking (animated).
    Shake,
    /// Zooming into the avatar and back out (animated).
    Zoom,
    /// The avatar's hue cycling around the colour wheel (animated).
    Rainbow,
    /// The avatar's rows waving sideways (animated).
    Wave,
    /// Rings rippling out from the avatar's centre (animated).
    Ripple,
    /// The avatar wiggling both ways (animated).
    Wiggle,
    /// The avatar twisting around its centre and back (animated).
    Swirl,
    /// The avatar melting down and back up (animated).
    Melt,
    /// The avatar bouncing and squashing as it lands (animated).
    Bounce,
    /// The avatar slanting left and right (animated).
    Shear,
    /// The avatar, cut round, rolling across and around (animated).
    Roll,
    /// The avatar wobbling everywhere, boiling (animated).
    Boil,
    /// Bands of the avatar torn sideways, colour channels split (animated).
    Glitch,
    /// The avatar wrapped on a turning, shaded sphere (animated).
    Globe,
    /// A liquid distortion of the avatar growing and settling (animated).
    Magik,
    /// The avatar deep-fried: over-saturated, blocky, posterised, a red-orange cast (a still).
    Deepfry,
    /// A chat message card, 1000 × 152–1200: the round avatar, the name in
    /// its colour, a bot tag, the timestamp, an optional reply line above
    /// and the text in chat markup (the card grows with it, [`Layer::Grow`]);
    /// `theme` dark or light.
    Message,
}

impl TemplateKind {
    /// Every template, in declaration order.
    pub const ALL: [TemplateKind; 72] = [
        TemplateKind::Comrade,
        TemplateKind::Gay,
        TemplateKind::Glass,
        TemplateKind::Jail,
        TemplateKind::Passed,
        TemplateKind::Triggered,
        TemplateKind::Wasted,
        TemplateKind::Petpet,
        TemplateKind::Amongus,
        TemplateKind::Welcome1,
        TemplateKind::Welcome2,
        TemplateKind::Welcome3,
        TemplateKind::Welcome4,
        TemplateKind::Welcome5,
        TemplateKind::Welcome6,
        TemplateKind::Welcome7,
        TemplateKind::Rank1,
        TemplateKind::Rank2,
        TemplateKind::Rank3,
        TemplateKind::Rank4,
        TemplateKind::Rank5,
        TemplateKind::Rank6,
        TemplateKind::Rank7,
        TemplateKind::Rank8,
        TemplateKind::Rank9,
        TemplateKind::Sage,
        TemplateKind::Sage2,
        TemplateKind::Horny,
        TemplateKind::Simpcard,
        TemplateKind::Namecard,
        TemplateKind::NoBitches,
        TemplateKind::ItsSoStupid,
        TemplateKind::Lolice,
        TemplateKind::Series,
        TemplateKind::Lied,
        TemplateKind::Post,
        TemplateKind::VideoComment,
        TemplateKind::Wanted,
        TemplateKind::Rip,
        TemplateKind::Trash,
        TemplateKind::Delete,
        TemplateKind::Beautiful,
        TemplateKind::Stonks,
        TemplateKind::Ship,
        TemplateKind::Kiss,
        TemplateKind::Slap,
        TemplateKind::Hug,
        TemplateKind::Fuse,
        TemplateKind::Vs,
        TemplateKind::HeartLocket,
        TemplateKind::Caption,
        TemplateKind::Impact,
        TemplateKind::Motivate,
        TemplateKind::SpeechBubble,
        TemplateKind::Spin,
        TemplateKind::Shake,
        TemplateKind::Zoom,
        TemplateKind::Rainbow,
        TemplateKind::Wave,
        TemplateKind::Ripple,
        TemplateKind::Wiggle,
        TemplateKind::Swirl,
        TemplateKind::Melt,
        TemplateKind::Bounce,
        TemplateKind::Shear,
        TemplateKind::Roll,
        TemplateKind::Boil,
        TemplateKind::Glitch,
        TemplateKind::Globe,
        TemplateKind::Magik,
        TemplateKind::Deepfry,
        TemplateKind::Message,
    ];

    /// The welcome cards, 1 to 7.
    pub const WELCOME: [TemplateKind; 7] = [
        TemplateKind::Welcome1,
        TemplateKind::Welcome2,
        TemplateKind::Welcome3,
        TemplateKind::Welcome4,
        TemplateKind::Welcome5,
        TemplateKind::Welcome6,
        TemplateKind::Welcome7,
    ];

    /// The template's description.
    pub fn template(self) -> &'static Template {
        match self {
            TemplateKind::Comrade => &catalog::COMRADE,
            TemplateKind::Gay => &catalog::GAY,
            TemplateKind::Glass => &catalog::GLASS,
            TemplateKind::Jail => &catalog::JAIL,
            TemplateKind::Passed => &catalog::PASSED,
            TemplateKind::Triggered => &catalog::TRIGGERED,
            TemplateKind::Wasted => &catalog::WASTED,
            TemplateKind::Petpet => &catalog::PETPET,
            TemplateKind::Amongus => &catalog::AMONGUS,
            TemplateKind::Welcome1 => &welcome::WELCOME_1,
            TemplateKind::Welcome2 => &welcome::WELCOME_2,
            TemplateKind::Welcome3 => &welcome::WELCOME_3,
            TemplateKind::Welcome4 => &welcome::WELCOME_4,
            TemplateKind::Welcome5 => &welcome::WELCOME_5,
            TemplateKind::Welcome6 => &welcome::WELCOME_6,
            TemplateKind::Welcome7 => &welcome::WELCOME_7,
            TemplateKind::Rank1 => &rank::RANK_1,
            TemplateKind::Rank2 => &rank::RANK_2,
            TemplateKind::Rank3 => &rank::RANK_3,
            TemplateKind::Rank4 => &rank::RANK_4,
            TemplateKind::Rank5 => &rank::RANK_5,
            TemplateKind::Rank6 => &rank::RANK_6,
            TemplateKind::Rank7 => &rank::RANK_7,
            TemplateKind::Rank8 => &rank::RANK_8,
            TemplateKind::Rank9 => &rank::RANK_9,
            TemplateKind::Sage => &cards_misc::SAGE,
            TemplateKind::Sage2 => &cards_misc::SAGE2,
            TemplateKind::Horny => &cards_misc::HORNY,
            TemplateKind::Simpcard => &cards_misc::SIMPCARD,
            TemplateKind::Namecard => &cards_misc::NAMECARD,
            TemplateKind::NoBitches => &memes::NOBITCHES,
            TemplateKind::ItsSoStupid => &memes::ITS_SO_STUPID,
            TemplateKind::Lolice => &memes::LOLICE,
            TemplateKind::Series => &memes::SERIES,
            TemplateKind::Lied => &memes::LIED,
            TemplateKind::Post => &social::POST,
            TemplateKind::VideoComment => &social::VIDEO_COMMENT,
            TemplateKind::Wanted => &memes_one::WANTED,
            TemplateKind::Rip => &memes_one::RIP,
            TemplateKind::Trash => &memes_one::TRASH,
            TemplateKind::Delete => &memes_one::DELETE,
            TemplateKind::Beautiful => &memes_one::BEAUTIFUL,
            TemplateKind::Stonks => &memes_one::STONKS,
            TemplateKind::Caption => &captions::CAPTION,
            TemplateKind::Impact => &captions::IMPACT,
            TemplateKind::Motivate => &captions::MOTIVATE,
            TemplateKind::SpeechBubble => &captions::SPEECHBUBBLE,
            TemplateKind::Ship => &pairs::SHIP,
            TemplateKind::Kiss => &pairs::KISS,
            TemplateKind::Slap => &pairs::SLAP,
            TemplateKind::Hug => &pairs::HUG,
            TemplateKind::Fuse => &pairs::FUSE,
            TemplateKind::Vs => &pairs::VS,
            TemplateKind::HeartLocket => &pairs::HEART_LOCKET,
            TemplateKind::Spin => &effects::SPIN,
            TemplateKind::Shake => &effects::SHAKE,
            TemplateKind::Zoom => &effects::ZOOM,
            TemplateKind::Rainbow => &effects::RAINBOW,
            TemplateKind::Wave => &effects::WAVE,
            TemplateKind::Ripple => &effects::RIPPLE,
            TemplateKind::Wiggle => &effects::WIGGLE,
            TemplateKind::Swirl => &effects::SWIRL,
            TemplateKind::Melt => &effects::MELT,
            TemplateKind::Bounce => &effects::BOUNCE,
            TemplateKind::Shear => &effects::SHEAR,
            TemplateKind::Roll => &effects::ROLL,
            TemplateKind::Boil => &effects::BOIL,
            TemplateKind::Glitch => &effects::GLITCH,
            TemplateKind::Globe => &effects::GLOBE,
            TemplateKind::Magik => &effects::MAGIK,
            TemplateKind::Deepfry => &effects::DEEPFRY,
            TemplateKind::Message => &message::MESSAGE,
        }
    }
}

/// A composition as data. See the [module docs](super).
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub struct Template {
    /// Canvas width and height in pixels.
    pub size: (u32, u32),
    /// Where the picture the layers draw sits on the canvas in each frame
    /// (`None`: the picture is the canvas).
    pub camera: Option<Camera>,
    /// Frames and their delay.
    pub timeline: Timeline,
    /// Layers from back to front.
    pub layers: &'static [Layer],
    /// Typed parameters, with defaults and caps.
    pub params: &'static [ParamSpec],
}

/// A template's frames: `frames` of `delay_ms` each (1 frame: a still).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeline {
    /// Frame count (1 for a still template).
    pub frames: u32,
    /// Delay of each frame, in ms, unless the parameter `delay_param` sets it.
    pub delay_ms: u32,
    /// The [`ParamKind::Int`] parameter that sets the delay, if any.
    pub delay_param: Option<&'static str>,
}

impl Timeline {
    /// One frame: a still template.
    pub const STILL: Timeline = Timeline {
        frames: 1,
        delay_ms: 0,
        delay_param: None,
    };
}

/// The whole picture moving on the canvas: the layers draw a picture of
/// `content` pixels (their placements are in its coordinates), and each
/// frame shows it with its top-left corner at that frame's entry of
/// `offsets` (whole pixels; one entry for all frames, or one per frame).
/// A picture that stays the same while it moves is drawn once per render,
/// and the GIF encoder stores it once.
///
/// Without a `backdrop` the picture moves on a transparent canvas. With
/// one, its layers are drawn on the whole canvas (in canvas coordinates,
/// as in the first frame) and every frame is full: the backdrop, the
/// picture at the first frame's place, and the picture at the frame's own
/// place over both (in the first frame the two places are one). The
/// picture left at the first place is what shows around a picture that
/// moved, which is what a GIF restoring each frame to the first one draws
/// (triggered's shake under its steady banner).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// The picture's width and height, at most the canvas's.
    pub content: (u32, u32),
    /// The picture's top-left corner on the canvas, per frame; the picture
    /// lies inside the canvas at each.
    pub offsets: &'static [(u32, u32)],
    /// Layers drawn once on the whole canvas under the picture, back to
    /// front (empty: a transparent canvas around the picture): art,
    /// shapes and the avatar.
    pub backdrop: &'static [Layer],
}

/// Where a layer is in one frame: its box (a width different from its
/// height squashes a square avatar), its rotation in degrees around the
/// box's centre, and its opacity (0–1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
    /// Clockwise rotation in degrees around the box's centre.
    pub rotation: f32,
    /// Opacity, 0 (invisible) to 1.
    pub opacity: f32,
}

impl Place {
    /// A placement.
    pub const fn new(x: f32, y: f32, w: f32, h: f32, rotation: f32, opacity: f32) -> Place {
        Place {
            x,
            y,
            w,
            h,
            rotation,
            opacity,
        }
    }

    /// An upright, opaque box.
    pub const fn rect(x: f32, y: f32, w: f32, h: f32) -> Place {
        Place::new(x, y, w, h, 0.0, 1.0)
    }
}

/// The shape the avatar is cut to, in its box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mask {
    /// The whole box.
    Square,
    /// The ellipse inscribed in the box.
    Circle,
    /// The box with corners rounded by this fraction of its side (0–0.5).
    Rounded(f32),
    /// The regular hexagon inscribed in the box, flat sides left and right.
    Hexagon,
}

/// A colour laid over the avatar: each pixel moves `strength` (0–1) of the
/// way to `rgb`, keeping its alpha.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tint {
    /// The colour, `0xRRGGBB`.
    pub rgb: u32,
    /// How far towards it, 0–1.
    pub strength: f32,
}

/// An avatar slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AvatarSlot {
    /// One placement for every frame, or a single one for all.
    pub motion: &'static [Place],
    /// Its shape.
    pub mask: Mask,
    /// Drawn in grey.
    pub grey: bool,
    /// A colour over it.
    pub tint: Option<Tint>,
}

/// One piece of a text slot's text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Piece {
    /// Literal text.
    Lit(&'static str),
    /// The value of a [`ParamKind::Text`] parameter.
    Param(&'static str),
    /// The value of a [`ParamKind::Text`] parameter in upper case (a meme
    /// caption).
    Upper(&'static str),
    /// The value of a [`ParamKind::Text`] parameter written in chat markup
    /// ([`Markup`]), as plain text: its markers left out (a quoted
    /// message's one-line preview).
    Plain(&'static str),
    /// The value of a [`ParamKind::Int`] parameter, written compactly:
    /// `987`, `1,234`, `12.3K`, `4.5M`, `1.2B` (cut, never rounded up).
    Compact(&'static str),
    /// The value of the [`ParamKind::Int`] parameter `param` written as
    /// [`Piece::Compact`] writes it, but in thousands from 1,000 (`3.4K`)
    /// when it or the parameter `with` is 10,000 or more, so that two counts
    /// shown together are written alike: `3.4K / 10K`, never `3,420 / 10K`.
    CompactWith {
        /// The parameter written.
        param: &'static str,
        /// The count shown beside it.
        with: &'static str,
    },
    /// `pieces`, only when the parameter is set ([`Args::is_set`]: given,
    /// not blank and not zero).
    IfSet {
        /// The parameter.
        param: &'static str,
        /// The text then.
        pieces: &'static [Piece],
    },
    /// `yes` when the [`ParamKind::Bool`] parameter is true, else `no`.
    Flag {
        /// The parameter.
        param: &'static str,
        /// Text when true.
        yes: &'static str,
        /// Text when false.
        no: &'static str,
    },
    /// The text of the option chosen in a [`ParamKind::Choice`] parameter:
    /// option `i` gives `texts[i]`.
    Pick {
        /// The choice parameter.
        param: &'static str,
        /// One text per option, in the options' order.
        texts: &'static [&'static str],
    },
    /// A handle: "@" and the [`ParamKind::Text`] parameter's value
    /// without the "@"s it may start with (`ferris` and `@ferris` both
    /// give `@ferris`), the name isolated so a right-to-left one keeps the
    /// "@" in front.
    Handle(&'static str),
    /// `pieces` when the parameter `param` was given (its value is not its
    /// default), else nothing: a line that only makes sense with a value.
    IfGiven {
        /// The parameter.
        param: &'static str,
        /// What is shown when it was given.
        pieces: &'static [Piece],
    },
}

/// How a text slot appears over the frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reveal {
    /// Whole in every frame.
    All,
    /// Typed out, grapheme by grapheme: nothing before frame `from`, all of
    /// it from frame `to` on.
    Typed {
        /// First frame with text.
        from: u32,
        /// First frame with all of it.
        to: u32,
    },
}

/// A text slot: its text, look, box and fitting rules.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextSlot {
    /// When this [`ParamKind::Text`] parameter is not blank, it is the whole
    /// text, replacing `pieces`.
    pub replaced_by: Option<&'static str>,
    /// The text, assembled from its pieces.
    pub pieces: &'static [Piece],
    /// Font face.
    pub face: FontFace,
    /// Largest font size.
    pub size: f32,
    /// Smallest font size it shrinks to before it is cut with "…".
    pub min_size: f32,
    /// Colour, straight RGBA.
    pub color: [u8; 4],
    /// Outline colour and width, if any.
    pub outline: Option<([u8; 4], f32)>,
    /// Horizontal alignment.
    pub align: Align,
    /// Vertical alignment.
    pub valign: VAlign,
    /// The box, `(x, y, width, height)`.
    pub area: (f32, f32, f32, f32),
    /// How it appears over the frames.
    pub reveal: Reveal,
}

/// A layer, back to front.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Layer {
    /// Static art, drawn once per process, placed per frame (one placement,
    /// or one per frame).
    Art {
        /// Which art.
        art: Art,
        /// Its placements.
        motion: &'static [Place],
    },
    /// The avatar.
    Avatar(AvatarSlot),
    /// Text.
    Text(TextSlot),
    /// Text in a colour that may come from a parameter; `slot.color` is
    /// ignored.
    PaintedText {
        /// Its colour.
        paint: Paint,
        /// The slot.
        slot: TextSlot,
    },
    /// A filled or stroked shape in a colour that may come from a parameter.
    Shape(ShapeSlot),
    /// A progress bar: the fraction `value / max` of two [`ParamKind::Int`]
    /// parameters, clamped to 0–1.
    Bar(BarSlot),
    /// `layer`, drawn only when the condition holds.
    When {
        /// The condition.
        when: When,
        /// The layer.
        layer: &'static Layer,
    },
    /// Static art chosen by a [`ParamKind::Choice`] parameter: option `i`
    /// draws `arts[i]` (a background picked by name), placed per frame.
    ArtChoice {
        /// The choice parameter.
        param: &'static str,
        /// One piece of art per option, in the options' order.
        arts: &'static [Art],
        /// Its placements.
        motion: &'static [Place],
    },
    /// A second image, from the named source `source` (not the avatar: a
    /// custom background), scaled and centre-cropped to cover its box, cut
    /// by a [`Mask`]. An animated source is aligned by time like the
    /// avatar. Without that source the layer draws nothing.
    Image {
        /// The source's name (the caller's: the server's query parameter).
        source: &'static str,
        /// Its placements.
        motion: &'static [Place],
        /// Its shape.
        mask: Mask,
    },
    /// A text slot whose colour is chosen by a [`ParamKind::Choice`]
    /// parameter ([`Palette`]) instead of [`TextSlot::color`].
    PaletteText(TextSlot, Palette),
    /// Art loaded at run time (a template file's SVG, PNG or WebP,
    /// rasterised once when loaded), placed per frame like [`Layer::Art`].
    Picture {
        /// The pixels.
        art: &'static Picture,
        /// Its placements.
        motion: &'static [Place],
    },
    /// Text that sets the canvas's height ([`Grow`]), with the layers
    /// under it that move down with it.
    Grow(Grow),
    /// Items on one line, each after the one before ([`Row`]).
    Row(Row),
    /// The avatar as the template's main picture, whole and unmasked: the
    /// canvas follows its aspect ([`FitSlot`]).
    Fit(FitSlot),
    /// A shape cut out of what is drawn under it: where the shape covers,
    /// the canvas is left transparent (partly so where its paint's alpha is
    /// below 255, or at its antialiased edge).
    Cut(ShapeSlot),
    /// The avatar drawn through a per-frame warp and colour operation
    /// over the whole canvas ([`EffectSlot`]).
    Effect(EffectSlot),
}

impl Layer {
    /// A piece of art at its placement in each frame ([`Layer::Art`]).
    pub const fn art(art: Art, motion: &'static [Place]) -> Layer {
        Layer::Art { art, motion }
    }
}

/// The main picture of a template whose canvas follows the picture's
/// aspect (a caption over any picture): [`Layer::Fit`].
///
/// The layers are placed as for a square picture in `area` (its width and
/// height equal) on a canvas of [`Template::size`]. For a picture of
/// another aspect, the box keeps its width and takes the picture's aspect,
/// and the canvas grows or shrinks by as much as the box did: every
/// coordinate from the upper half of the box up stays, every one in its
/// lower half or below moves with the box's bottom edge (a caption above
/// the picture stays, a line under it follows it, a box around the
/// picture stretches with it). The whole canvas is then scaled so that the
/// picture shows at its own size, its long side at least `min_side` and at
/// most `max_side` pixels (a larger picture is shrunk, a smaller one
/// enlarged to `min_side`): fonts, outlines and margins scale with it, so a
/// template looks the same over any picture. A [`Layer::Grow`] above the
/// picture moves it and everything below up as a text shorter than its box
/// leaves room ([`Template::size_for_picture`]).
///
/// At most one per template, at the top level, in a still template without
/// a [`Camera`]; its layers may be art, shapes, cuts, text, a growing text
/// and conditions on those.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitSlot {
    /// The picture's box for a square picture, `(x, y, side, side)`.
    pub area: (f32, f32, f32, f32),
    /// The shortest the picture's long side is drawn, in pixels.
    pub min_side: u32,
    /// The longest the picture's long side is drawn, in pixels.
    pub max_side: u32,
}

/// A text that makes the canvas as tall as it needs, within bounds: a
/// post's comment, the card ending right below it.
///
/// The text ([`Grow::slot`]) is laid out at its size, wrapped to its box's
/// width. Its box's height is the most it may take: a taller text shrinks
/// (down to the slot's `min_size`) to fit it, then is cut with "…". The
/// canvas is as tall as the box's top, the text's height (the whole box
/// when it had to shrink) and [`Grow::margin`], rounded up: from the
/// canvas of one line of text to [`Template::size`], the tallest, where
/// the text takes its whole box ([`Template::size_for`]).
///
/// The layers of [`Grow::below`] are placed as on that tallest canvas and
/// drawn moved up by as many whole pixels as this canvas is shorter, so
/// they end the card right below the text and stay on whole pixels. They
/// may be art, shapes, rows, text and conditions on those (not the
/// avatar). At most one per template, at the top level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grow {
    /// The text, its look and its largest box.
    pub slot: TextSlot,
    /// The text's line spacing, a multiple of the font size (1: the
    /// font's own).
    pub line_spacing: f32,
    /// The colour of the text: fixed or a parameter's; `slot.color` is
    /// ignored.
    pub paint: Paint,
    /// Room under the text to the canvas's bottom edge, in pixels.
    pub margin: f32,
    /// The layers under the text, back to front, placed as on the tallest
    /// canvas.
    pub below: &'static [Layer],
    /// Room above the text that only some arguments take (a reply line
    /// over a chat message), if any.
    pub lead: Option<Lead>,
    /// The chat markup the text is read in (bold, italic, strike-through,
    /// inline code, mentions), if any; else it is plain text.
    pub markup: Option<Markup>,
}

/// Room above a growing text that only some arguments take: when `when`
/// holds, the text's box starts `by` pixels lower and the canvas is as
/// much taller (the layers of [`Grow::below`] follow). [`Template::size`]
/// is the tallest canvas, the lead taken. The layers above the text that
/// move with it are given twice, each under its condition ([`When`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lead {
    /// When the room is taken.
    pub when: When,
    /// Its height, pixels.
    pub by: f32,
}

/// A growing text read as chat markup ([`Grow::markup`]): `**bold**`,
/// `*italic*` and `_italic_` (slanted), `~~strike-through~~`,
/// `` `inline code` `` (monospaced on a chip) and `@mentions` (on a
/// chip, in their own colour). A marker without its closing one is
/// literal text, `\` before a marker makes it literal, and code holds no
/// other markup ([`super::parse_markup`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Markup {
    /// The colour of a mention's text.
    pub mention: Paint,
    /// The chip behind a mention.
    pub mention_chip: Paint,
    /// The chip behind inline code.
    pub code_chip: Paint,
}

/// Items drawn left to right on one line from `(x, y)`, each starting
/// where the one before ends: a name and the time beside it, counters and
/// their labels, an icon after a number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// Left edge of the first item.
    pub x: f32,
    /// Top of the row; each item is placed `dy` below it.
    pub y: f32,
    /// No text reaches past this x (`None`: only each text's own
    /// `max_width` bounds it).
    pub right: Option<f32>,
    /// The items.
    pub items: &'static [RowItem],
}

/// One item of a [`Row`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowItem {
    /// One line of text, cut with "…" when wider than `max_width` (or
    /// than the room left before the row's `right`, but never narrower
    /// than 40 px), then `gap` pixels.
    Text {
        /// When this [`ParamKind::Text`] parameter is not blank, it is the
        /// whole text, replacing `pieces`.
        replaced_by: Option<&'static str>,
        /// The text, assembled from its pieces.
        pieces: &'static [Piece],
        /// Font face.
        face: FontFace,
        /// Font size.
        size: f32,
        /// Its colour.
        paint: Paint,
        /// Widest it may be, in pixels.
        max_width: f32,
        /// Its top, below the row's.
        dy: f32,
        /// Room after it, in pixels.
        gap: f32,
    },
    /// Art at its natural size, its top-left `at` from where the item
    /// starts and the row's top (rounded to whole pixels), then `advance`
    /// pixels.
    Art {
        /// Which art.
        art: Art,
        /// Its top-left corner, from where the item starts and the row's top.
        at: (f32, f32),
        /// Where the next item starts, from where this one starts.
        advance: f32,
    },
    /// Art chosen by a [`ParamKind::Choice`] parameter (option `i` draws
    /// `arts[i]`), as [`RowItem::Art`].
    ArtChoice {
        /// The choice parameter.
        param: &'static str,
        /// One piece of art per option, in the options' order.
        arts: &'static [Art],
        /// Its top-left corner, from where the item starts and the row's top.
        at: (f32, f32),
        /// Where the next item starts, from where this one starts.
        advance: f32,
    },
    /// A filled shape whose box is `(dx, dy, w, h)` from where the item
    /// starts and the row's top, then `advance` pixels (a shape behind the
    /// next item advances by 0).
    Shape {
        /// The shape.
        shape: Shape,
        /// Its box, from where the item starts and the row's top.
        area: (f32, f32, f32, f32),
        /// Its colour.
        paint: Paint,
        /// Where the next item starts.
        advance: f32,
    },
    /// The items, only when the condition holds.
    When(When, &'static [RowItem]),
}

/// Art given as pixels rather than drawn by the crate: a template file's
/// picture, rasterised once when the file is loaded and kept premultiplied,
/// ready to draw. [`Layer::Picture`] places it.
#[derive(Clone, PartialEq)]
pub struct Picture {
    name: String,
    pixmap: Pixmap,
    opaque: bool,
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Picture")
            .field("name", &self.name)
            .field("size", &self.size())
            .finish_non_exhaustive()
    }
}

impl Picture {
    /// A picture of these straight-alpha pixels, named `name` (the file it
    /// came from, for messages and for writing the template back).
    ///
    /// Errors: [`RenderError::EmptyImage`] for an image without pixels,
    /// [`RenderError::TooLarge`] over the crate's size limits.
    pub fn from_rgba(name: &str, image: &RgbaImage) -> Result<Picture, RenderError> {
        let (w, h) = image.dimensions();
        crate::limits::check_size(w, h)?;
        let size = tiny_skia::IntSize::from_wh(w, h).ok_or(RenderError::EmptyImage)?;
        let mut data = image.as_raw().clone();
        for px in data.chunks_exact_mut(4) {
            let a = u16::from(px[3]);
            for c in &mut px[..3] {
                *c = ((u16::from(*c) * a + 127) / 255) as u8;
            }
        }
        let pixmap = Pixmap::from_vec(data, size).ok_or(RenderError::EmptyImage)?;
        Ok(Picture::from_pixmap(name, pixmap))
    }

    pub(crate) fn from_pixmap(name: &str, pixmap: Pixmap) -> Picture {
        let opaque = crate::paint::is_opaque(&pixmap);
        Picture {
            name: name.to_owned(),
            pixmap,
            opaque,
        }
    }

    /// Its name: the file it came from, relative to its template's folder.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.pixmap.width(), self.pixmap.height())
    }

    /// The premultiplied pixels.
    pub(crate) fn pixmap(&self) -> &Pixmap {
        &self.pixmap
    }

    /// Whether every pixel is opaque.
    pub(crate) fn is_opaque(&self) -> bool {
        self.opaque
    }
}

/// A colour: fixed, or a [`ParamKind::Colour`] parameter's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    /// Straight RGBA.
    Fixed([u8; 4]),
    /// The colour parameter `param`, at opacity `alpha` (0–255).
    Param {
        /// The parameter.
        param: &'static str,
        /// Its opacity.
        alpha: u8,
    },
    /// One colour per option of the [`ParamKind::Choice`] parameter
    /// `param` (a theme), straight RGBA, in the options' order.
    Pick {
        /// The choice parameter.
        param: &'static str,
        /// One colour per option.
        colors: &'static [[u8; 4]],
    },
}

impl Paint {
    /// The colour parameter at full opacity.
    pub const fn param(param: &'static str) -> Paint {
        Paint::Param { param, alpha: 255 }
    }

    /// The straight RGBA colour for these arguments.
    pub fn rgba(self, args: &Args) -> [u8; 4] {
        match self {
            Paint::Fixed(c) => c,
            Paint::Param { param, alpha } => match args.get(param) {
                Some(Value::Colour([r, g, b])) => [*r, *g, *b, alpha],
                _ => [0, 0, 0, 0],
            },
            Paint::Pick { param, colors } => colors
                .get(args.choice(param))
                .copied()
                .unwrap_or([0, 0, 0, 0]),
        }
    }
}

/// A geometric shape in its box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// The box.
    Rect,
    /// The box with corners of this radius in pixels.
    Rounded(f32),
    /// The ellipse inscribed in the box.
    Ellipse,
    /// The regular hexagon inscribed in the box (as [`Mask::Hexagon`]).
    Hexagon,
    /// The triangle whose base is the box's top edge and whose tip is on
    /// its bottom edge, this fraction (0–1) of the way from its left (a
    /// speech bubble's tail).
    Wedge(f32),
}

/// A shape layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeSlot {
    /// The shape.
    pub shape: Shape,
    /// Its box, `(x, y, width, height)`.
    pub area: (f32, f32, f32, f32),
    /// Its colour.
    pub paint: Paint,
    /// `None`: filled; `Some(width)`: its outline, this many pixels wide.
    pub stroke: Option<f32>,
}

/// How a [`BarSlot`] draws its fraction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BarStyle {
    /// A bar with round ends filling from the left, its track the whole box.
    Rounded,
    /// `count` blocks separated by `gap` pixels (corner radius `radius`),
    /// each lit when the fraction reaches it (the partly reached one lit in
    /// proportion).
    Segments {
        /// How many blocks.
        count: u32,
        /// Space between blocks, in pixels.
        gap: f32,
        /// Corner radius of a block, in pixels.
        radius: f32,
    },
    /// An arc around the ellipse inscribed in the box, `width` pixels wide,
    /// clockwise from the top; its track the whole ring.
    Ring {
        /// Width of the ring, in pixels.
        width: f32,
    },
}

/// A progress bar layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BarSlot {
    /// The [`ParamKind::Int`] parameter of the progress.
    pub value: &'static str,
    /// The [`ParamKind::Int`] parameter of the goal. When it is 0 the bar is
    /// full if `value` is above 0, else empty.
    pub max: &'static str,
    /// Its box, `(x, y, width, height)`.
    pub area: (f32, f32, f32, f32),
    /// How it is drawn.
    pub style: BarStyle,
    /// The colour of the track (the unreached part).
    pub track: Paint,
    /// The colour of the reached part.
    pub fill: Paint,
}

/// A condition on the arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// The parameter is set ([`Args::is_set`]).
    Set(&'static str),
    /// The parameter is not set.
    Unset(&'static str),
    /// The parameter was given, whatever its value (0 included:
    /// [`Args::given`]).
    Given(&'static str),
    /// The parameter was not given (absent or blank): what stands in for
    /// a value that was left out, and for nothing that was given.
    Absent(&'static str),
    /// The [`ParamKind::Int`] parameter's value is at least this (a
    /// default counts).
    AtLeast(&'static str, u64),
    /// The [`ParamKind::Int`] parameter's value is below this (a default
    /// counts).
    Below(&'static str, u64),
}

impl When {
    /// Whether the condition holds for these arguments.
    pub fn holds(self, args: &Args) -> bool {
        match self {
            When::Set(p) => args.is_set(p),
            When::Unset(p) => !args.is_set(p),
            When::Given(p) => args.given(p),
            When::Absent(p) => !args.given(p),
            When::AtLeast(p, n) => args.int(p) >= n,
            When::Below(p, n) => args.int(p) < n,
        }
    }

    /// The parameter the condition reads.
    pub fn param(self) -> &'static str {
        match self {
            When::Set(p)
            | When::Unset(p)
            | When::Given(p)
            | When::Absent(p)
            | When::AtLeast(p, _)
            | When::Below(p, _) => p,
        }
    }
}

/// Colours chosen by a [`ParamKind::Choice`] parameter: option `i` is
/// `colors[i]`. When the slot has an outline and the chosen colour is
/// dark, the outline is drawn light (`light_outline`) so the text keeps
/// its contrast.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// The choice parameter.
    pub param: &'static str,
    /// One straight-RGBA colour per option, in the options' order.
    pub colors: &'static [[u8; 4]],
    /// The outline colour used under a dark chosen colour.
    pub light_outline: [u8; 4],
}

/// A parameter's type, default and bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// Text of at most `max_chars` characters; absent or blank is `default`.
    Text {
        /// The cap, in characters.
        max_chars: usize,
        /// The value when absent or blank.
        default: &'static str,
    },
    /// `true` or `false`, in any case; absent or blank is `default`.
    Bool {
        /// The value when absent or blank.
        default: bool,
    },
    /// A whole number in `min..=max`; absent or blank is `default`.
    Int {
        /// Smallest accepted value.
        min: u64,
        /// Largest accepted value.
        max: u64,
        /// The value when absent or blank.
        default: u64,
    },
    /// A colour: six hexadecimal digits `RRGGBB` as [`Template::args`]
    /// reads it, or any form the parser given to [`Template::args_with`]
    /// accepts; absent or blank is `default`.
    Colour {
        /// The value when absent or blank, `0xRRGGBB`.
        default: u32,
    },
    /// A moment in ISO 8601 (`2026-11-29T08:15:00Z`, an offset such as
    /// `+05:30` instead of `Z`, seconds and fractions optional), at most
    /// 40 characters; its value is the text it is drawn as, in UTC:
    /// `11/29/2026 8:15 AM` ([`super::format_timestamp`]). Absent or blank
    /// is empty text.
    Time,
    /// One of a list of names, in any case; absent or blank is option
    /// `default`. The value is the option's index, which [`Piece::Pick`],
    /// [`Palette`] and [`Layer::ArtChoice`] read.
    Choice {
        /// The accepted names, lower case.
        options: &'static [&'static str],
        /// Index of the option taken when absent or blank.
        default: usize,
    },
}

/// A typed parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamSpec {
    /// Its name (the query parameter's).
    pub name: &'static str,
    /// Type, default and bounds.
    pub kind: ParamKind,
    /// One line for documentation.
    pub doc: &'static str,
    /// What is accepted, for the error message of a bad value.
    pub expected: &'static str,
}

/// A parsed parameter value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// Text.
    Text(String),
    /// A flag.
    Bool(bool),
    /// A whole number.
    Int(u64),
    /// A colour, `[r, g, b]`.
    Colour([u8; 3]),
    /// The index of a [`ParamKind::Choice`] option.
    Choice(usize),
}

/// A template's parameter values, checked against its [`ParamSpec`]s
/// ([`Template::args`]), defaults filled in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Args {
    pub(super) values: Vec<(&'static str, Value)>,
    /// The parameters given (not absent, not blank), by name.
    pub(super) given: Vec<&'static str>,
}

impl Args {
    /// The value of `name`, if the template has that parameter.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Whether `name` was given a value that counts: not absent, not
    /// blank, and neither the number 0 nor the text "0" (a default never
    /// counts).
    pub fn is_set(&self, name: &str) -> bool {
        self.given.contains(&name)
            && match self.get(name) {
                Some(Value::Int(0)) => false,
                Some(Value::Text(t)) => t.trim() != "0",
                Some(_) => true,
                None => false,
            }
    }

    pub(super) fn int(&self, name: &str) -> u64 {
        match self.get(name) {
            Some(Value::Int(n)) => *n,
            _ => 0,
        }
    }

    pub(super) fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Some(Value::Text(t)) => t,
            _ => "",
        }
    }

    pub(super) fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Bool(true)))
    }

    /// The chosen option of a [`ParamKind::Choice`] parameter (0 if none).
    pub fn choice(&self, name: &str) -> usize {
        match self.get(name) {
            Some(Value::Choice(i)) => *i,
            _ => 0,
        }
    }

    /// Whether `name` was given (present and not blank).
    pub fn given(&self, name: &str) -> bool {
        self.given.contains(&name)
    }

    /// A parameter as text: a text's value, a whole number with its
    /// thousands grouped by commas ("1,234").
    pub(super) fn display(&self, name: &str) -> String {
        match self.get(name) {
            Some(Value::Text(t)) => t.clone(),
            Some(Value::Int(n)) => grouped(*n),
            _ => String::new(),
        }
    }
}

/// `n` with its thousands grouped by commas.
pub(super) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Template {
    /// Whether the template itself moves (more than one frame): its output
    /// is animated even for a still avatar.
    pub fn is_animated(&self) -> bool {
        self.timeline.frames > 1
    }

    /// The size of the picture the layers draw: the canvas, or the
    /// [`Camera`]'s picture.
    pub fn content_size(&self) -> (u32, u32) {
        self.camera.map_or(self.size, |c| c.content)
    }

    /// The canvas size for these arguments: [`Template::size`], but for a
    /// template with a [`Layer::Grow`], as tall as its text needs (at most
    /// [`Template::size`]). It lays that text out to know. An effect
    /// ([`Layer::Effect`]) is a square of the side its parameter gives.
    pub fn size_for(&self, args: &Args) -> (u32, u32) {
        if let Some(slot) = super::fit::fit_of(self) {
            let side = slot.max_side;
            return self.size_for_picture(args, (side, side));
        }
        if let Some(side) = super::effects::effect_side(self, args) {
            return (side.min(self.size.0), side.min(self.size.1));
        }
        match super::flow::grow_of(self) {
            Some(grow) => (
                self.size.0,
                super::flow::grow_height(grow, args).clamp(1, self.size.1),
            ),
            None => self.size,
        }
    }

    /// The canvas size for these arguments over a main picture of
    /// `picture` pixels: for a template with a [`Layer::Fit`], the picture
    /// at its drawn size ([`FitSlot`]) and the layers around it; for any
    /// other, [`Template::size_for`] (the picture does not change it).
    /// [`Template::size_for`] of a template with a [`Layer::Fit`] is its
    /// size over a square picture of `max_side` pixels.
    pub fn size_for_picture(&self, args: &Args, picture: (u32, u32)) -> (u32, u32) {
        match super::fit::fit_of(self) {
            Some(slot) => super::fit::canvas_size(self, slot, args, picture),
            None => self.size_for(args),
        }
    }

    /// [`Template::content_size`] for these arguments ([`Template::size_for`]).
    pub fn content_size_for(&self, args: &Args) -> (u32, u32) {
        self.camera
            .map_or_else(|| self.size_for(args), |c| c.content)
    }

    /// The [`Camera`]'s backdrop as a still template of the canvas's size
    /// (its layers, this template's parameters), if it has one.
    pub(crate) fn backdrop(&self) -> Option<Template> {
        let camera = self.camera.filter(|c| !c.backdrop.is_empty())?;
        Some(Template {
            size: self.size,
            camera: None,
            timeline: Timeline::STILL,
            layers: camera.backdrop,
            params: self.params,
        })
    }

    /// Where the picture is on the canvas in `frame` ([`Camera`]): its
    /// top-left corner, `(0, 0)` without a camera.
    pub fn offset(&self, frame: u32) -> (u32, u32) {
        match self.camera {
            Some(Camera { offsets, .. }) if !offsets.is_empty() => {
                offsets[frame as usize % offsets.len()]
            }
            _ => (0, 0),
        }
    }

    /// Every text slot, those of conditional layers included, back to
    /// front.
    pub fn text_slots(&self) -> impl Iterator<Item = &'static TextSlot> + use<> {
        fn slot(layer: &'static Layer) -> Option<&'static TextSlot> {
            match layer {
                Layer::Text(slot)
                | Layer::PaintedText { slot, .. }
                | Layer::PaletteText(slot, _) => Some(slot),
                Layer::When { layer, .. } => slot(layer),
                _ => None,
            }
        }
        self.layers.iter().filter_map(slot)
    }

    /// Whether a layer draws the avatar (one under a condition counts).
    pub fn uses_avatar(&self) -> bool {
        fn draws(layer: &Layer) -> bool {
            match layer {
                Layer::Avatar(_) | Layer::Fit(_) | Layer::Effect(_) => true,
                Layer::When { layer, .. } => draws(layer),
                _ => false,
            }
        }
        self.layers.iter().any(draws)
    }

    /// The name of the second image source a [`Layer::Image`] draws, if
    /// any (at most one per template).
    pub fn image_source(&self) -> Option<&'static str> {
        self.layers.iter().find_map(|l| match l {
            Layer::Image { source, .. } => Some(*source),
            _ => None,
        })
    }

    /// Checks and parses every parameter, `value(name)` giving the raw text
    /// of each (absent: `None`). Absent or blank values take their default.
    /// Errors name the parameter: [`RenderError::TextTooLong`] over a
    /// cap, [`RenderError::InvalidParameter`] (with the accepted values)
    /// for anything else.
    ///
    /// A [`ParamKind::Colour`] is read as exactly six hexadecimal digits
    /// `RRGGBB`; [`Template::args_with`] takes a colour parser of the
    /// caller's.
    pub fn args<'a>(&self, value: impl Fn(&str) -> Option<&'a str>) -> Result<Args, RenderError> {
        self.args_with(value, |v| {
            let n = (v.len() == 6 && v.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u32::from_str_radix(v, 16).ok())
                .flatten()?;
            Some([(n >> 16) as u8, (n >> 8) as u8, n as u8])
        })
    }

    /// As [`Template::args`], with `colour` parsing the (trimmed, not blank)
    /// text of every [`ParamKind::Colour`] parameter (`None`: refused).
    pub fn args_with<'a>(
        &self,
        value: impl Fn(&str) -> Option<&'a str>,
        colour: impl Fn(&str) -> Option<[u8; 3]>,
    ) -> Result<Args, RenderError> {
        let mut values = Vec::with_capacity(self.params.len());
        let mut given_names = Vec::new();
        for spec in self.params {
            let raw = value(spec.name);
            let given = raw.map(str::trim).filter(|v| !v.is_empty());
            if given.is_some() {
                given_names.push(spec.name);
            }
            let bad = || RenderError::InvalidParameter {
                field: spec.name,
                reason: spec.expected,
            };
            let v = match spec.kind {
                ParamKind::Text { max_chars, default } => match raw {
                    Some(t) if given.is_some() => {
                        check_length(spec.name, t, max_chars)?;
                        Value::Text(t.to_owned())
                    }
                    _ => Value::Text(default.to_owned()),
                },
                ParamKind::Bool { default } => match given {
                    None => Value::Bool(default),
                    Some(v) if v.eq_ignore_ascii_case("true") => Value::Bool(true),
                    Some(v) if v.eq_ignore_ascii_case("false") => Value::Bool(false),
                    Some(_) => return Err(bad()),
                },
                ParamKind::Int { min, max, default } => match given {
                    None => Value::Int(default),
                    Some(v) => match v.parse::<u64>() {
                        Ok(n) if (min..=max).contains(&n) => Value::Int(n),
                        _ => return Err(bad()),
                    },
                },
                ParamKind::Colour { default } => match given {
                    None => {
                        Value::Colour([(default >> 16) as u8, (default >> 8) as u8, default as u8])
                    }
                    Some(v) => Value::Colour(colour(v).ok_or_else(bad)?),
                },
                ParamKind::Time => match given {
                    None => Value::Text(String::new()),
                    Some(v) => Value::Text(super::time::format_timestamp(v).ok_or_else(bad)?),
                },
                ParamKind::Choice { options, default } => match given {
                    None => Value::Choice(default),
                    Some(v) => match options.iter().position(|o| o.eq_ignore_ascii_case(v)) {
                        Some(i) => Value::Choice(i),
                        None => return Err(bad()),
                    },
                },
            };
            values.push((spec.name, v));
        }
        Ok(Args {
            values,
            given: given_names,
        })
    }

    /// The delay of each of the template's own frames, in ms.
    pub fn delay_ms(&self, args: &Args) -> u32 {
        match self.timeline.delay_param.and_then(|p| args.get(p)) {
            Some(Value::Int(d)) => u32::try_from(*d).unwrap_or(u32::MAX),
            _ => self.timeline.delay_ms,
        }
    }
}
