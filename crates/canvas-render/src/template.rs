//! Templates: compositions described as data and drawn by one interpreter,
//! still or animated.
//!
//! A [`Template`] is a `static` value: its canvas size, its [`Timeline`]
//! (frame count and delay), its [`Layer`]s from back to front and its typed
//! [`ParamSpec`]s. Layers are:
//!
//! * [`Layer::Art`]: a static piece of our own art ([`Art`], drawn in code
//!   or from our SVG once per process and kept), placed per frame;
//! * [`Layer::Avatar`]: the avatar, placed per frame (position, size — a
//!   width different from the height squashes it —, rotation and opacity),
//!   cut by a [`Mask`], optionally greyed and tinted;
//! * [`Layer::Text`]: a text slot whose text is assembled from literal
//!   pieces and parameters ([`Piece`]: numbers written compactly, pieces
//!   shown only when a parameter is set), shrunk to fit its box and
//!   optionally typed out over a range of frames ([`Reveal`]);
//!   [`Layer::PaintedText`] is one in a [`Paint`] that may be a colour
//!   parameter's;
//! * [`Layer::Shape`]: a rectangle, rounded rectangle, ellipse or hexagon,
//!   filled or outlined in a [`Paint`];
//! * [`Layer::Bar`]: a progress bar of two whole-number parameters
//!   (`value / max`, clamped), rounded, in blocks or as a ring ([`BarStyle`]);
//! * [`Layer::When`]: another layer, drawn only when a parameter is set
//!   ([`When`], [`Args::is_set`]).
//!
//! A template may also have a [`Camera`]: the layers then draw a picture
//! smaller than the canvas, which each frame shows at a place of its own,
//! transparent around it (triggered's shake is the whole picture jumping
//! between 12 places); the picture is drawn once when it does not change.
//!
//! Templates are data rather than code so that a new one is a table, not a
//! new function: the interpreter ([`render_template`],
//! [`render_template_frames`]) is the only drawing code, and the tests walk
//! every template's tables (every parameter bounded and documented, every
//! per-frame placement list one entry or one per frame, every camera
//! place inside the canvas). They are Rust
//! statics rather than an embedded file format: the compiler checks them,
//! they cost nothing to load, and art stays code or SVG next to them.
//!
//! **Time.** An animated template has `frames` frames of `delay` ms (the
//! delay may be a parameter). With an animated avatar, frames are aligned by
//! time, not by index ([`plan_frames`]): a still template takes the avatar's
//! frames and delays; an animated one keeps its own frame rate and, at each
//! of its frames, shows the avatar frame on screen at that moment, playing
//! its own loop as many times as needed to cover the avatar's whole
//! animation (at most [`MAX_TEMPLATE_FRAMES`] frames).
//!
//! ```
//! use canvas_render::template::{TemplateKind, render_template, render_template_frames};
//!
//! let avatar = canvas_render::solid(64, 64, [200, 40, 90]).unwrap();
//! let jail = TemplateKind::Jail.template();
//! let args = jail.args(|_| None).unwrap();
//! let img = render_template(jail, &args, Some(&avatar)).unwrap();
//! assert_eq!(img.dimensions(), (512, 512));
//!
//! let pet = TemplateKind::Petpet.template();
//! let args = pet.args(|name| (name == "delay").then_some("60")).unwrap();
//! let frames = render_template_frames(pet, &args, &[(&avatar, 0)], None).unwrap();
//! assert_eq!(frames.len(), 10);
//! assert!(frames.iter().all(|(f, delay)| f.dimensions() == (256, 256) && *delay == 60));
//! assert!(pet.args(|name| (name == "delay").then_some("5")).is_err());
//!
//! // A rank card: colours are parameters, the rank shows only when set.
//! let rank = TemplateKind::Rank1.template();
//! let args = rank
//!     .args(|name| match name {
//!         "username" => Some("Ferris"),
//!         "cxp" => Some("340"),
//!         "nxp" => Some("1000"),
//!         "cbar" => Some("5865f2"),
//!         _ => None,
//!     })
//!     .unwrap();
//! assert!(!args.is_set("rank"));
//! let card = render_template(rank, &args, Some(&avatar)).unwrap();
//! assert_eq!(card.dimensions(), (900, 300));
//! ```

mod art;
mod backdrops;
mod cards;
mod catalog;
mod rank;
mod reuse;
mod sample;
mod welcome;

use std::sync::{Arc, Mutex, OnceLock};

use tiny_skia::{FilterQuality, PathBuilder, Pattern, Pixmap, PixmapPaint, SpreadMode, Transform};
use unicode_segmentation::UnicodeSegmentation;

pub use art::Art;
pub(crate) use catalog::LIED;
pub use rank::{MAX_DISCRIMINATOR_CHARS, MAX_RANK_NUMBER, MAX_RANK_USERNAME_CHARS, RANK_CARD_SIZE};
pub use welcome::{
    BACKGROUNDS as WELCOME_BACKGROUNDS, MAX_GUILD_CHARS, MAX_MEMBER_COUNT,
    MAX_USERNAME_CHARS as MAX_WELCOME_USERNAME_CHARS, TEXT_COLOR_NAMES,
};

use crate::animation::{AnimationError, Deadline, Patch, PatchedFrames, PlacedFrames};
use crate::paint::{Avatar, Canvas, circle_path, rect_path, rrect_path, shader_paint};
use crate::text::{self, Align, FontFace, TextBox, TextLayout, TextStyle, VAlign, check_length};
use crate::{RenderError, RgbaImage};

/// Most frames an animated template renders for one animated avatar.
pub const MAX_TEMPLATE_FRAMES: usize = 256;

/// Which template. [`TemplateKind::ALL`] lists them; URL names belong to
/// the caller. New templates may come in minor releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TemplateKind {
    /// A red banner wash with a gold star over the avatar.
    Comrade,
    /// Six translucent rainbow stripes over the avatar.
    Gay,
    /// The avatar behind a pane of cracked glass.
    Glass,
    /// The avatar, greyed, behind steel bars.
    Jail,
    /// The avatar, dimmed, under a gold "PASSED" banner.
    Passed,
    /// The avatar shaking under a red tint with a "TRIGGERED" banner
    /// (always animated).
    Triggered,
    /// The avatar, greyed, under a red "WASTED" banner.
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
    /// Welcome card 6: a big title and a bottom bar with the avatar.
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
}

impl TemplateKind {
    /// Every template, in declaration order.
    pub const ALL: [TemplateKind; 25] = [
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
        }
    }
}

/// A composition as data. See the [module docs](self).
#[derive(Debug)]
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
#[derive(Debug, Clone, Copy)]
pub struct Timeline {
    /// Frame count (1 for a still template).
    pub frames: u32,
    /// Delay of each frame, in ms, unless the parameter `delay_param` sets it.
    pub delay_ms: u32,
    /// The [`ParamKind::Int`] parameter that sets the delay, if any.
    pub delay_param: Option<&'static str>,
}

/// The whole picture moving on the canvas: the layers draw a picture of
/// `content` pixels (their placements are in its coordinates), and each
/// frame shows it with its top-left corner at that frame's entry of
/// `offsets` (whole pixels; one entry for all frames, or one per frame),
/// transparent around it. A picture that stays the same while it moves is
/// drawn once per render, and the GIF encoder stores it once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Camera {
    /// The picture's width and height, at most the canvas's.
    pub content: (u32, u32),
    /// The picture's top-left corner on the canvas, per frame; the picture
    /// lies inside the canvas at each.
    pub offsets: &'static [(u32, u32)],
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
#[derive(Debug, Clone, Copy)]
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
#[derive(Debug, Clone, Copy)]
pub enum Piece {
    /// Literal text.
    Lit(&'static str),
    /// The value of a [`ParamKind::Text`] parameter.
    Param(&'static str),
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
#[derive(Debug, Clone, Copy)]
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
#[derive(Debug, Clone, Copy)]
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
}

/// A shape layer.
#[derive(Debug, Clone, Copy)]
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
#[derive(Debug, Clone, Copy)]
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
}

impl When {
    /// Whether the condition holds for these arguments.
    pub fn holds(self, args: &Args) -> bool {
        match self {
            When::Set(p) => args.is_set(p),
            When::Unset(p) => !args.is_set(p),
        }
    }
}

/// Colours chosen by a [`ParamKind::Choice`] parameter: option `i` is
/// `colors[i]`. When the slot has an outline and the chosen colour is
/// dark, the outline is drawn light (`light_outline`) so the text keeps
/// its contrast.
#[derive(Debug, Clone, Copy)]
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
        min: u32,
        /// Largest accepted value.
        max: u32,
        /// The value when absent or blank.
        default: u32,
    },
    /// A colour: six hexadecimal digits `RRGGBB` as [`Template::args`]
    /// reads it, or any form the parser given to [`Template::args_with`]
    /// accepts; absent or blank is `default`.
    Colour {
        /// The value when absent or blank, `0xRRGGBB`.
        default: u32,
    },
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
#[derive(Debug, Clone, Copy)]
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
    Int(u32),
    /// A colour, `[r, g, b]`.
    Colour([u8; 3]),
    /// The index of a [`ParamKind::Choice`] option.
    Choice(usize),
}

/// A template's parameter values, checked against its [`ParamSpec`]s
/// ([`Template::args`]), defaults filled in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Args {
    values: Vec<(&'static str, Value)>,
    /// The parameters given (not absent, not blank), by name.
    given: Vec<&'static str>,
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

    fn int(&self, name: &str) -> u32 {
        match self.get(name) {
            Some(Value::Int(n)) => *n,
            _ => 0,
        }
    }

    fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Some(Value::Text(t)) => t,
            _ => "",
        }
    }

    fn flag(&self, name: &str) -> bool {
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
    fn display(&self, name: &str) -> String {
        match self.get(name) {
            Some(Value::Text(t)) => t.clone(),
            Some(Value::Int(n)) => grouped(*n),
            _ => String::new(),
        }
    }
}

/// `n` with its thousands grouped by commas.
fn grouped(n: u32) -> String {
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

    /// Whether a layer draws the avatar.
    pub fn uses_avatar(&self) -> bool {
        self.layers.iter().any(|l| matches!(l, Layer::Avatar(_)))
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
                    Some(v) => match v.parse::<u32>() {
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
            Some(Value::Int(d)) => *d,
            _ => self.timeline.delay_ms,
        }
    }
}

/// One output frame: the template frame, the avatar frame and the delay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FramePlan {
    /// Index into the template's frames.
    pub template_frame: u32,
    /// Index into the avatar's frames.
    pub avatar_frame: usize,
    /// Index into the second image's frames ([`Layer::Image`]; 0 without
    /// one).
    pub image_frame: usize,
    /// How long the frame shows, in ms.
    pub delay_ms: u32,
}

/// A source frame's delay as players show it: browsers show delays under
/// 20 ms as 100 ms.
fn shown_delay(ms: u32) -> u32 {
    if ms < 20 { 100 } else { ms }
}

/// The output frames of `template` over an avatar whose frames last
/// `avatar_delays` ms (one entry: a still avatar), aligned by time.
///
/// * A still template: the avatar's frames and delays.
/// * An animated template over a still avatar: its own frames.
/// * Both animated: the template's frame rate; its loop repeats until it
///   covers the avatar's loop, and each output frame shows the avatar frame
///   on screen at its start time. At most [`MAX_TEMPLATE_FRAMES`] frames
///   (whole template loops when it has to cut).
pub fn plan_frames(template: &Template, args: &Args, avatar_delays: &[u32]) -> Vec<FramePlan> {
    plan_frames_with(template, args, avatar_delays, &[])
}

/// The frame on screen at `t` ms in a loop of frames shown for `shown` ms
/// (`total` their sum, not 0).
fn frame_at(shown: &[u64], total: u64, t: u64) -> usize {
    let t = t % total;
    let mut end = 0;
    shown
        .iter()
        .position(|&d| {
            end += d;
            t < end
        })
        .unwrap_or(0)
}

/// The output frames of `template` over an avatar whose frames last
/// `avatar_delays` ms and a second image ([`Layer::Image`]) whose frames
/// last `image_delays` ms (empty or one entry: still), all aligned by time.
/// With a still image this is [`plan_frames`]. With an animated image:
///
/// * a still template: one output frame from each moment either source
///   changes frame, over the longer of the two loops (the shorter one
///   repeats), each showing both frames on screen at its start; at most
///   [`MAX_TEMPLATE_FRAMES`] frames (sampled evenly in time past it);
/// * an animated template: its own frame rate, its loop repeated to cover
///   the longer source loop, as in [`plan_frames`].
pub fn plan_frames_with(
    template: &Template,
    args: &Args,
    avatar_delays: &[u32],
    image_delays: &[u32],
) -> Vec<FramePlan> {
    if image_delays.len() <= 1 {
        return plan_avatar_frames(template, args, avatar_delays);
    }
    let shown = |delays: &[u32]| -> Vec<u64> {
        delays.iter().map(|&d| u64::from(shown_delay(d))).collect()
    };
    let image = shown(image_delays);
    let image_loop: u64 = image.iter().sum();
    let avatar_animated = avatar_delays.len() > 1;
    let avatar = if avatar_animated {
        shown(avatar_delays)
    } else {
        vec![1]
    };
    let avatar_loop: u64 = avatar.iter().sum();
    let longest = if avatar_animated {
        image_loop.max(avatar_loop)
    } else {
        image_loop
    };
    let n = template.timeline.frames.max(1);
    if n > 1 {
        let delay = template.delay_ms(args).max(1);
        let template_loop = u64::from(n) * u64::from(delay);
        let loops = longest.div_ceil(template_loop).max(1);
        let max_loops = (MAX_TEMPLATE_FRAMES as u64 / u64::from(n)).max(1);
        let total = (loops.min(max_loops) * u64::from(n)) as u32;
        return (0..total)
            .map(|k| {
                let t = u64::from(k) * u64::from(delay);
                FramePlan {
                    template_frame: k % n,
                    avatar_frame: if avatar_animated {
                        frame_at(&avatar, avatar_loop, t)
                    } else {
                        0
                    },
                    image_frame: frame_at(&image, image_loop, t),
                    delay_ms: delay,
                }
            })
            .collect();
    }
    // A still template: every moment either source changes frame.
    let starts = |shown: &[u64], total: u64| -> Vec<u64> {
        let mut out = Vec::new();
        let mut t = 0;
        'outer: loop {
            for &d in shown {
                if t >= longest {
                    break 'outer;
                }
                out.push(t);
                t += d;
            }
            if total == 0 {
                break;
            }
        }
        out
    };
    let mut cuts = starts(&image, image_loop);
    if avatar_animated {
        cuts.extend(starts(&avatar, avatar_loop));
        cuts.sort_unstable();
        cuts.dedup();
    }
    if cuts.len() > MAX_TEMPLATE_FRAMES {
        let m = MAX_TEMPLATE_FRAMES as u64;
        cuts = (0..m).map(|k| k * longest / m).collect();
        cuts.dedup();
    }
    let ends: Vec<u64> = cuts.iter().skip(1).copied().chain([longest]).collect();
    cuts.iter()
        .zip(ends)
        .map(|(&t, end)| FramePlan {
            template_frame: 0,
            avatar_frame: if avatar_animated {
                frame_at(&avatar, avatar_loop, t)
            } else {
                0
            },
            image_frame: frame_at(&image, image_loop, t),
            delay_ms: u32::try_from(end - t).unwrap_or(u32::MAX),
        })
        .collect()
}

/// [`plan_frames`] proper: a still or no second image.
fn plan_avatar_frames(template: &Template, args: &Args, avatar_delays: &[u32]) -> Vec<FramePlan> {
    let n = template.timeline.frames.max(1);
    let delay = template.delay_ms(args).max(1);
    let avatar_animated = avatar_delays.len() > 1;
    if n == 1 {
        if !avatar_animated {
            return vec![FramePlan {
                template_frame: 0,
                avatar_frame: 0,
                image_frame: 0,
                delay_ms: avatar_delays.first().copied().unwrap_or(0),
            }];
        }
        return avatar_delays
            .iter()
            .enumerate()
            .take(MAX_TEMPLATE_FRAMES)
            .map(|(i, &d)| FramePlan {
                template_frame: 0,
                avatar_frame: i,
                image_frame: 0,
                delay_ms: d,
            })
            .collect();
    }
    let own = |k: u32| FramePlan {
        template_frame: k,
        avatar_frame: 0,
        image_frame: 0,
        delay_ms: delay,
    };
    if !avatar_animated {
        return (0..n).map(own).collect();
    }
    let shown: Vec<u64> = avatar_delays
        .iter()
        .map(|&d| u64::from(shown_delay(d)))
        .collect();
    let avatar_loop: u64 = shown.iter().sum();
    let template_loop = u64::from(n) * u64::from(delay);
    let loops = avatar_loop.div_ceil(template_loop).max(1);
    let max_loops = (MAX_TEMPLATE_FRAMES as u64 / u64::from(n)).max(1);
    let total = (loops.min(max_loops) * u64::from(n)) as u32;
    (0..total)
        .map(|k| {
            let t = (u64::from(k) * u64::from(delay)) % avatar_loop;
            let mut end = 0;
            let avatar_frame = shown
                .iter()
                .position(|&d| {
                    end += d;
                    t < end
                })
                .unwrap_or(0);
            FramePlan {
                avatar_frame,
                ..own(k % n)
            }
        })
        .collect()
}

/// Renders a still image of `template`: its first frame over `avatar`
/// (`None`: a grey silhouette).
pub fn render_template(
    template: &Template,
    args: &Args,
    avatar: Option<&RgbaImage>,
) -> Result<RgbaImage, RenderError> {
    render_template_with(template, args, avatar, None)
}

/// Renders a still image of `template` over `avatar` (`None`: a grey
/// silhouette) and the second image `image` that its [`Layer::Image`]
/// draws (`None`: that layer draws nothing).
pub fn render_template_with(
    template: &Template,
    args: &Args,
    avatar: Option<&RgbaImage>,
    image: Option<&RgbaImage>,
) -> Result<RgbaImage, RenderError> {
    let picture = render_picture(template, args, avatar, image)?;
    Ok(match template.camera {
        Some(_) => {
            let framed = on_canvas(template, 0, &picture);
            crate::buffers::recycle_image(picture);
            framed
        }
        None => picture,
    })
}

/// The picture of the first frame ([`render_template_with`]), before the
/// [`Camera`] places it.
fn render_picture(
    template: &Template,
    args: &Args,
    avatar: Option<&RgbaImage>,
    image: Option<&RgbaImage>,
) -> Result<RgbaImage, RenderError> {
    let mut prepared = Prepared::new(template, avatar)?;
    let images = PreparedImages::new(template, image)?;
    let mut texts = TextCache::new(template);
    // Without a second image its layer draws nothing, so the layers under
    // the avatar are the same for every avatar and can be kept.
    let Some(first) = under_cached_slot(template, image.is_some()).filter(|&i| i > 0) else {
        if let Some(mut canvas) = start_from_avatar(template, &mut prepared) {
            for (i, layer) in template.layers.iter().enumerate().skip(1) {
                let source = layer_source(layer, i, &prepared, &images);
                draw_layer(&mut canvas, layer, source, args, 0, texts.slot(i))?;
            }
            return Ok(canvas.into_image());
        }
        return Ok(draw_frame(template, args, 0, &prepared, &images, &mut texts)?.into_image());
    };
    // The layers under the avatar come from the cache; the rest is drawn.
    let (under, opaque) = under_layers(template, args, first)?;
    let mut canvas = Canvas::from_layer(&under);
    for (i, layer) in template.layers.iter().enumerate().skip(first) {
        let source = layer_source(layer, i, &prepared, &images);
        draw_layer(&mut canvas, layer, source, args, 0, texts.slot(i))?;
    }
    // Drawn over an opaque canvas (a welcome card's background), every
    // pixel stays opaque: nothing to un-premultiply.
    Ok(canvas.into_image_known(opaque))
}

/// Renders every output frame of `template` over an avatar given as its
/// frames with their delays (one frame: a still avatar), aligned by time
/// ([`plan_frames`]). Gives each frame with its delay. `deadline`, when
/// given, is checked between frames.
pub fn render_template_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    deadline: Option<&Deadline>,
) -> Result<Vec<(RgbaImage, u32)>, AnimationError> {
    let delays: Vec<u32> = avatar.iter().map(|(_, d)| *d).collect();
    let plan = plan_frames(template, args, &delays);
    let mut out = Vec::with_capacity(plan.len());
    render_planned_frames(template, args, avatar, &plan, deadline, |frame, delay| {
        out.push((frame, delay));
        Ok(())
    })?;
    Ok(out)
}

/// Renders the output frames `plan` lists (from [`plan_frames`], or a
/// subset of it with merged delays) over an avatar given as its frames with
/// their delays, handing each frame and its delay to `sink` as soon as it
/// is drawn, so a caller that encodes frame by frame never holds them all.
/// `deadline`, when given, is checked between frames.
pub fn render_planned_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
    sink: impl FnMut(RgbaImage, u32) -> Result<(), AnimationError>,
) -> Result<(), AnimationError> {
    render_planned_frames_with(template, args, avatar, &[], plan, deadline, sink)
}

/// [`render_planned_frames`] with a second image for the template's
/// [`Layer::Image`], given as its frames with their delays (none: that
/// layer draws nothing); `plan` comes from [`plan_frames_with`].
pub fn render_planned_frames_with(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
    mut sink: impl FnMut(RgbaImage, u32) -> Result<(), AnimationError>,
) -> Result<(), AnimationError> {
    let mut prepared: Option<(usize, Prepared)> = None;
    let mut images: Option<(usize, PreparedImages)> = None;
    let mut texts = TextCache::new(template);
    // A still template over several avatar frames: what lies under and over
    // its one avatar slot is the same in every frame, so it is drawn once.
    let split = match plan.len() > 1 {
        true => Split::new(template, args)?,
        false => None,
    };
    // Over a still avatar and image, a template frame that looks like an
    // earlier one (a pat's way back up; with a camera, the same picture at
    // another place) is a copy of it: those wanted later are kept.
    let still_sources = avatar.len() <= 1 && image.len() <= 1 && split.is_none();
    let earlier = match still_sources {
        true => {
            let frames: Vec<u32> = plan.iter().map(|s| s.template_frame).collect();
            reuse::earlier_same(template, &frames)
        }
        false => vec![None; plan.len()],
    };
    // The last step that shows each kept frame takes it; the others get
    // copies.
    let mut last_use = vec![None; plan.len()];
    for (k, j) in earlier.iter().enumerate() {
        if let Some(j) = *j {
            last_use[j] = Some(k);
        }
    }
    // With a camera, what is drawn and kept is the picture, placed on the
    // canvas for each frame.
    let camera = template.camera.is_some();
    let mut kept: Vec<Option<RgbaImage>> = vec![None; plan.len()];
    for (k, step) in plan.iter().enumerate() {
        if let Some(j) = earlier[k]
            && kept[j].is_some()
        {
            if let Some(d) = deadline {
                d.check()?;
            }
            let last = last_use[j] == Some(k);
            let image = match (camera, last) {
                // The same picture at this frame's place.
                (true, _) => {
                    let framed = kept[j]
                        .as_ref()
                        .map(|p| on_canvas(template, step.template_frame, p));
                    if last && let Some(picture) = kept[j].take() {
                        crate::buffers::recycle_image(picture);
                    }
                    framed
                }
                (false, true) => kept[j].take(),
                (false, false) => kept[j].as_ref().map(copied),
            };
            sink(image.expect("kept above"), step.delay_ms)?;
            continue;
        }
        if let Some(d) = deadline {
            d.check()?;
        }
        let source = avatar.get(step.avatar_frame).map(|(img, _)| *img);
        let reuse = matches!(&prepared, Some((i, _)) if *i == step.avatar_frame);
        if !reuse {
            prepared = Some((step.avatar_frame, Prepared::new(template, source)?));
        }
        let second = image.get(step.image_frame).map(|(img, _)| *img);
        let reuse = matches!(&images, Some((i, _)) if *i == step.image_frame);
        if !reuse {
            images = Some((step.image_frame, PreparedImages::new(template, second)?));
        }
        let (Some((_, p)), Some((_, q))) = (prepared.as_ref(), images.as_ref()) else {
            unreachable!("prepared above")
        };
        let frame = match &split {
            Some(split) => split.draw(template, args, p)?.into_image(),
            None => draw_frame(template, args, step.template_frame, p, q, &mut texts)?.into_image(),
        };
        if camera {
            // The picture goes to its place; it is kept while a later
            // frame shows it again.
            sink(
                on_canvas(template, step.template_frame, &frame),
                step.delay_ms,
            )?;
            match last_use[k] {
                Some(_) => kept[k] = Some(frame),
                None => crate::buffers::recycle_image(frame),
            }
        } else if last_use[k].is_some() {
            sink(copied(&frame), step.delay_ms)?;
            kept[k] = Some(frame);
        } else {
            sink(frame, step.delay_ms)?;
        }
    }
    for frame in kept.into_iter().flatten() {
        crate::buffers::recycle_image(frame);
    }
    if let Some(d) = deadline {
        d.check()?;
    }
    Ok(())
}

/// What a render over a still avatar and image draws from, prepared once:
/// the avatar, the image (each its first frame) and the text layouts.
fn prepare_still(
    template: &Template,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
) -> Result<(Prepared, PreparedImages, TextCache), RenderError> {
    let prepared = Prepared::new(template, avatar.first().map(|(img, _)| *img))?;
    let images = PreparedImages::new(template, image.first().map(|(img, _)| *img))?;
    Ok((prepared, images, TextCache::new(template)))
}

/// The output frames `plan` lists, as [`render_planned_frames_with`] draws
/// them, given as one picture and its place in each frame
/// ([`PlacedFrames`]) when every frame shows the same picture at a place
/// of its own: a template with a [`Camera`] over a still avatar and image
/// whose frames all draw the same picture. The picture is drawn once and
/// no frame is composed; the GIF encoder takes it as it is
/// ([`crate::animation::encode_gif_placed`]). `None` for any other
/// template or plan (render its frames instead).
pub fn render_placed_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
) -> Result<Option<PlacedFrames>, AnimationError> {
    let Some(first) = plan.first() else {
        return Ok(None);
    };
    if template.camera.is_none() || avatar.len() > 1 || image.len() > 1 {
        return Ok(None);
    }
    let frames: Vec<u32> = plan.iter().map(|s| s.template_frame).collect();
    let earlier = reuse::earlier_same(template, &frames);
    if earlier.iter().skip(1).any(|e| *e != Some(0)) {
        return Ok(None);
    }
    if let Some(d) = deadline {
        d.check()?;
    }
    let (prepared, images, mut texts) = prepare_still(template, avatar, image)?;
    let picture = draw_frame(
        template,
        args,
        first.template_frame,
        &prepared,
        &images,
        &mut texts,
    )?
    .into_image();
    if let Some(d) = deadline {
        d.check()?;
    }
    Ok(Some(PlacedFrames {
        canvas: template.size,
        picture,
        frames: plan
            .iter()
            .map(|s| (template.offset(s.template_frame), s.delay_ms))
            .collect(),
    }))
}

/// The output frames `plan` lists, as [`render_planned_frames_with`] draws
/// them, given as the first frame and, for each later frame, the rectangle
/// in which it differs from the frame before ([`PatchedFrames`]): for a
/// template without a [`Camera`] over a still avatar and image whose layers
/// under the first one that changes from frame to frame stay still (a
/// space scene under a drifting avatar and typed text), and whose frames
/// look like no earlier frame but the one before. Those still layers are
/// drawn once; each later frame puts them back, in one canvas kept from
/// frame to frame, only where a layer over them that changed is drawn in it
/// or in the frame before (each layer's box), and where any layer meeting
/// those boxes is drawn, draws those layers again, and hands over the box
/// of what changed (a moving layer's box before and after, the
/// newly typed letters): the same pixels as drawing every frame whole. The
/// GIF encoder takes it as it is ([`crate::animation::encode_gif_patched`]).
/// `None` for any other template or plan (render its frames instead).
pub fn render_patched_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
) -> Result<Option<PatchedFrames>, AnimationError> {
    let Some(moving) = patched_layers(template, avatar, image, plan) else {
        return Ok(None);
    };
    if let Some(d) = deadline {
        d.check()?;
    }
    let (prepared, images, mut texts) = prepare_still(template, avatar, image)?;
    let size = template.content_size();
    let f0 = plan[0].template_frame;
    // The still layers, started as `draw_frame` starts a frame.
    let (mut canvas, skip, opaque) = match start_from_placed_avatar(template, f0, &prepared) {
        Some(canvas) if moving >= 1 => (canvas, 1, false),
        _ => match start_canvas(template, args, f0)? {
            (canvas, skip, opaque) if skip <= moving => (canvas, skip, opaque),
            (canvas, _, _) => {
                crate::buffers::recycle(canvas.pixmap.take());
                (Canvas::new(size.0, size.1)?, 0, false)
            }
        },
    };
    for (i, layer) in template.layers.iter().enumerate().take(moving).skip(skip) {
        let source = layer_source(layer, i, &prepared, &images);
        draw_layer(&mut canvas, layer, source, args, f0, texts.slot(i))?;
    }
    let still = Canvas::from_layer(&canvas.pixmap);
    for (i, layer) in template.layers.iter().enumerate().skip(moving) {
        let source = layer_source(layer, i, &prepared, &images);
        draw_layer(&mut canvas, layer, source, args, f0, texts.slot(i))?;
    }
    let first = cut_area(&canvas.pixmap, (0, 0, size.0, size.1), opaque);
    let mut frames = Vec::with_capacity(plan.len());
    frames.push((None, plan[0].delay_ms));
    let over = template.layers.len() - moving;
    let (mut restore, mut redraw) = (Vec::new(), vec![false; over]);
    let mut boxes: Vec<(Option<Area>, Option<Area>)> = vec![(None, None); over];
    for pair in plan.windows(2) {
        let (before, now) = (pair[0].template_frame, pair[1].template_frame);
        if reuse::same_look(template, before, now) {
            frames.push((None, pair[1].delay_ms));
            continue;
        }
        if let Some(d) = deadline {
            d.check()?;
        }
        // Each layer from the first moving one on: where it is drawn before
        // and now, and whether it changed (then what changed is kept).
        restore.clear();
        redraw.fill(false);
        let mut changed: Option<Area> = None;
        for (k, (i, layer)) in template.layers.iter().enumerate().skip(moving).enumerate() {
            let source = layer_source(layer, i, &prepared, &images);
            let text = texts.slot(i);
            let was = footprint(layer, source, args, before, text, size)?;
            let is = footprint(layer, source, args, now, text, size)?;
            boxes[k] = (was, is);
            if !reuse::layer_same(layer, before, now) {
                redraw[k] = true;
                cover(was, is, &mut restore);
                let change = match text_ink(layer, args) {
                    Some((slot, ink)) => typed_change(slot, ink, args, (before, now), text, size)?,
                    None => union(was, is),
                };
                changed = union(changed, change);
            }
        }
        // The still layers come back where a changed layer is drawn, before
        // or now; a layer drawn anywhere there is drawn again (and they
        // come back where it is drawn), until none is left.
        let mut grew = true;
        while grew {
            grew = false;
            for (k, &(was, is)) in boxes.iter().enumerate() {
                let meets =
                    |b: Option<Area>| b.is_some_and(|b| restore.iter().any(|&r| meet(b, r)));
                if !redraw[k] && (meets(was) || meets(is)) {
                    redraw[k] = true;
                    cover(was, is, &mut restore);
                    grew = true;
                }
            }
        }
        for &area in &restore {
            copy_area(&still.pixmap, &mut canvas.pixmap, area);
        }
        for (k, (i, layer)) in template.layers.iter().enumerate().skip(moving).enumerate() {
            if redraw[k] {
                let source = layer_source(layer, i, &prepared, &images);
                draw_layer(&mut canvas, layer, source, args, now, texts.slot(i))?;
            }
        }
        let patch = changed.map(|area| Patch {
            at: (area.0, area.1),
            pixels: cut_area(&canvas.pixmap, area, opaque),
        });
        frames.push((patch, pair[1].delay_ms));
    }
    crate::buffers::recycle(still.pixmap.take());
    crate::buffers::recycle(canvas.pixmap.take());
    if let Some(d) = deadline {
        d.check()?;
    }
    Ok(Some(PatchedFrames { first, frames }))
}

/// The index of the first layer of `template` that the frames of `plan`
/// do not all draw alike, when [`render_patched_frames`] can give the
/// frames as changed rectangles: no camera, a still avatar and image, more
/// than one step, and no step that looks like an earlier one but not like
/// the one right before it (a pat's way back up: those frames are shared
/// whole).
fn patched_layers(
    template: &Template,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
) -> Option<usize> {
    if template.camera.is_some() || avatar.len() > 1 || image.len() > 1 || plan.len() < 2 {
        return None;
    }
    let frames: Vec<u32> = plan.iter().map(|s| s.template_frame).collect();
    let earlier = reuse::earlier_same(template, &frames);
    let only_the_one_before = (1..frames.len())
        .all(|k| earlier[k].is_none() || reuse::same_look(template, frames[k - 1], frames[k]));
    if !only_the_one_before {
        return None;
    }
    template.layers.iter().position(|layer| {
        frames
            .iter()
            .any(|&f| !reuse::layer_same(layer, frames[0], f))
    })
}

/// A rectangle of the canvas: left, top, right and bottom (the last two
/// past it), never empty.
type Area = (u32, u32, u32, u32);

/// `(left, top, right, bottom)` clipped to a canvas of `size`, if anything
/// of it is left.
fn clipped((l, t, r, b): (i64, i64, i64, i64), size: (u32, u32)) -> Option<Area> {
    let (w, h) = (i64::from(size.0), i64::from(size.1));
    let (l, t, r, b) = (l.clamp(0, w), t.clamp(0, h), r.clamp(0, w), b.clamp(0, h));
    (l < r && t < b).then_some((l as u32, t as u32, r as u32, b as u32))
}

/// Adds where a layer is drawn before (`was`) and now (`is`) to `areas`:
/// the one rectangle holding both when it is no larger than the two apart
/// (a layer that moved a little), else each.
fn cover(was: Option<Area>, is: Option<Area>, areas: &mut Vec<Area>) {
    let size = |a: Area| u64::from(a.2 - a.0) * u64::from(a.3 - a.1);
    match (was, is) {
        (Some(a), Some(b)) if size(union(was, is).unwrap_or(a)) > size(a) + size(b) => {
            areas.extend([a, b]);
        }
        (a, b) => areas.extend(union(a, b)),
    }
}

/// Whether two rectangles share a pixel.
fn meet(a: Area, b: Area) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The smallest rectangle holding both, if either is given.
fn union(a: Option<Area>, b: Option<Area>) -> Option<Area> {
    match (a, b) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))),
        (a, b) => a.or(b),
    }
}

/// Where a `sw` × `sh` source drawn at `place` may change the canvas: its
/// box exactly when it is copied pixel for pixel ([`is_exact`]), else the
/// box of its turned and scaled corners and two pixels around (the
/// filter's and the edges' anti-aliasing reach one).
fn placed_area(place: &Place, sw: u32, sh: u32, size: (u32, u32)) -> Option<Area> {
    if is_exact(place, sw, sh) {
        let (x, y) = (place.x as i64, place.y as i64);
        return clipped((x, y, x + i64::from(sw), y + i64::from(sh)), size);
    }
    let t = place_transform(place, sw as f32, sh as f32);
    let (w, h) = (sw as f32, sh as f32);
    let corners = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
        .map(|(x, y)| (t.sx * x + t.kx * y + t.tx, t.ky * x + t.sy * y + t.ty));
    let (mut l, mut t, mut r, mut b) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (x, y) in corners {
        (l, t, r, b) = (l.min(x), t.min(y), r.max(x), b.max(y));
    }
    if !(l.is_finite() && t.is_finite() && r.is_finite() && b.is_finite()) {
        return clipped((0, 0, i64::from(size.0), i64::from(size.1)), size);
    }
    let edge = |v: f32, by: i64| (v as f64).floor() as i64 + by;
    clipped(
        (
            edge(l, -2),
            edge(t, -2),
            (r as f64).ceil() as i64 + 2,
            (b as f64).ceil() as i64 + 2,
        ),
        size,
    )
}

/// Where drawing `layer` in `frame` ([`draw_layer`]) may change a canvas of
/// `size`, `None` when it draws nothing there; a shape or a bar, the whole
/// canvas. `text` is its text slot's layout, laid out here when not yet.
fn footprint(
    layer: &Layer,
    source: Option<&Pixmap>,
    args: &Args,
    frame: u32,
    text: &mut Option<(String, TextLayout)>,
    size: (u32, u32),
) -> Result<Option<Area>, RenderError> {
    let placed = |motion: &[Place], pix: Option<&Pixmap>| match (place_at(motion, frame), pix) {
        (Some(place), Some(pix)) => placed_area(&place, pix.width(), pix.height(), size),
        _ => None,
    };
    Ok(match layer {
        Layer::Art { art, motion } => placed(motion, Some(art::cached(*art))),
        Layer::ArtChoice {
            param,
            arts,
            motion,
        } => placed(
            motion,
            arts.get(args.choice(param)).map(|a| art::cached(*a)),
        ),
        Layer::Avatar(slot) => placed(slot.motion, source),
        Layer::Image { motion, .. } => placed(motion, source),
        Layer::Text(_) | Layer::PaintedText { .. } | Layer::PaletteText(..) => {
            let Some((slot, ink)) = text_ink(layer, args) else {
                return Ok(None);
            };
            let (area, style) = text_box_style(slot, ink);
            match text_shown(slot, &style, area, args, frame, text)? {
                Some(shown) => text_area(text, &style, area, 0..shown, size),
                None => None,
            }
        }
        Layer::When { when, layer } => match when.holds(args) {
            true => footprint(layer, source, args, frame, text, size)?,
            false => None,
        },
        Layer::Shape(_) | Layer::Bar(_) => {
            clipped((0, 0, i64::from(size.0), i64::from(size.1)), size)
        }
    })
}

/// Where a text layer drawn in frame `before` and then in frame `now`
/// differs: the letters typed between them (the glyphs of the graphemes
/// one shows and the other does not).
fn typed_change(
    slot: &TextSlot,
    ink: Ink,
    args: &Args,
    (before, now): (u32, u32),
    text: &mut Option<(String, TextLayout)>,
    size: (u32, u32),
) -> Result<Option<Area>, RenderError> {
    let (area, style) = text_box_style(slot, ink);
    let was = text_shown(slot, &style, area, args, before, text)?.unwrap_or(0);
    let is = text_shown(slot, &style, area, args, now, text)?.unwrap_or(0);
    Ok(text_area(
        text,
        &style,
        area,
        was.min(is)..was.max(is),
        size,
    ))
}

/// The box of the glyphs of the graphemes `graphemes` of a laid-out text
/// ([`text::glyph_bounds`]) on a canvas of `size`.
fn text_area(
    text: &Option<(String, TextLayout)>,
    style: &TextStyle,
    area: TextBox,
    graphemes: std::ops::Range<usize>,
    size: (u32, u32),
) -> Option<Area> {
    let (_, layout) = text.as_ref()?;
    let (l, t, r, b) = text::glyph_bounds(layout, style, area, graphemes)?;
    clipped((l.into(), t.into(), r.into(), b.into()), size)
}

/// Copies the pixels of `area` from `from` into `to` (of one size).
fn copy_area(from: &Pixmap, to: &mut Pixmap, (l, t, r, b): Area) {
    let stride = from.width() as usize * 4;
    let (l, r) = (l as usize * 4, r as usize * 4);
    let (src, dst) = (from.data(), to.data_mut());
    for y in t as usize..b as usize {
        let row = y * stride;
        dst[row + l..row + r].copy_from_slice(&src[row + l..row + r]);
    }
}

/// The pixels of `area` of a canvas as a straight-alpha image of their own,
/// in a buffer from the store; `opaque` says every pixel of the canvas is.
fn cut_area(pixmap: &Pixmap, (l, t, r, b): Area, opaque: bool) -> RgbaImage {
    let stride = pixmap.width() as usize * 4;
    let (l4, r4) = (l as usize * 4, r as usize * 4);
    let mut data = crate::buffers::take_empty((r4 - l4) * (b - t) as usize);
    for y in t as usize..b as usize {
        data.extend_from_slice(&pixmap.data()[y * stride + l4..y * stride + r4]);
    }
    if !opaque {
        crate::paint::unpremultiply(&mut data);
    }
    RgbaImage::from_raw(r - l, b - t, data).expect("the area's own size")
}

/// Frame `frame` of `template` as shown: `picture` (the layers drawn) at
/// the frame's place on a transparent canvas ([`Camera`]), clipped to it.
fn on_canvas(template: &Template, frame: u32, picture: &RgbaImage) -> RgbaImage {
    crate::placed::on_canvas(template.size, picture, template.offset(frame))
}

/// A copy of a frame, in a buffer from the store ([`crate::buffers`]) when
/// the caller gave one back.
fn copied(frame: &RgbaImage) -> RgbaImage {
    let data = crate::buffers::copy_of(frame.as_raw());
    RgbaImage::from_raw(frame.width(), frame.height(), data).expect("the frame's own size")
}

/// A still template with one avatar slot, its other layers drawn once: those
/// under the avatar and those over it, each on a canvas of its own.
struct Split {
    under: Arc<Pixmap>,
    over: Canvas,
    avatar: usize,
}

impl Split {
    /// `None` when the template moves, has no single top-level avatar slot
    /// or draws a second image ([`under_cached_slot`]).
    fn new(template: &Template, args: &Args) -> Result<Option<Split>, RenderError> {
        let Some(avatar) = under_cached_slot(template, true) else {
            return Ok(None);
        };
        let (w, h) = template.content_size();
        let mut over = Canvas::new(w, h)?;
        for layer in &template.layers[avatar + 1..] {
            draw_layer(&mut over, layer, None, args, 0, &mut None)?;
        }
        Ok(Some(Split {
            under: under_layers(template, args, avatar)?.0,
            over,
            avatar,
        }))
    }

    fn draw(&self, template: &Template, args: &Args, p: &Prepared) -> Result<Canvas, RenderError> {
        let mut canvas = Canvas::from_layer(&self.under);
        let layer = &template.layers[self.avatar];
        let avatar = p.slots.get(self.avatar).and_then(Option::as_ref);
        draw_layer(&mut canvas, layer, avatar, args, 0, &mut None)?;
        blit_exact(&mut canvas.pixmap, &self.over.pixmap, 0, 0, 1.0);
        Ok(canvas)
    }
}

/// The index of the one top-level avatar slot of a still template whose
/// other layers can be drawn apart from it and kept ([`Split`],
/// [`under_layers`]): `None` when the template is animated, has no single
/// avatar slot, or has a [`Layer::Image`] (a custom background, not among
/// the arguments that key the kept canvases) and `with_image` says it is
/// given (without it that layer draws nothing).
fn under_cached_slot(template: &Template, with_image: bool) -> Option<usize> {
    fn draws_image(layer: &Layer) -> bool {
        match layer {
            Layer::Image { .. } => true,
            Layer::When { layer, .. } => draws_image(layer),
            _ => false,
        }
    }
    if template.is_animated() || (with_image && template.layers.iter().any(draws_image)) {
        return None;
    }
    let mut slots = template
        .layers
        .iter()
        .enumerate()
        .filter(|(_, l)| matches!(l, Layer::Avatar(_)));
    match (slots.next(), slots.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// Most canvases of the layers under an avatar kept ([`under_layers`]).
const UNDER_CACHE_ENTRIES: usize = 8;
/// Most bytes of those canvases together: eight of the largest cards
/// (1200×600), so that the seven welcome cards, each over a background of
/// its own, are all kept; the most recently used one is always kept.
const UNDER_CACHE_BYTES: usize = 8 * 1200 * 600 * 4;

/// A template (by address) and the arguments its layers under the avatar
/// read: each parameter's value and whether it was given.
type UnderKey = (usize, Vec<(Option<Value>, bool)>);

/// The canvases of the layers under the avatar, most recently used first,
/// each with whether its every pixel is opaque.
static UNDER_CACHE: Mutex<Vec<(UnderKey, Arc<Pixmap>, bool)>> = Mutex::new(Vec::new());

/// The layers of `template` under its avatar slot `first`, drawn on a
/// blank canvas, and whether its every pixel is opaque. They read only a
/// few parameters (a rank card's: its colours), so the canvas is kept for
/// the last [`UNDER_CACHE_ENTRIES`] combinations of their values (at most
/// 8 canvases) and copied per request: the same pixels as drawing them
/// again.
fn under_layers(
    template: &Template,
    args: &Args,
    first: usize,
) -> Result<(Arc<Pixmap>, bool), RenderError> {
    let under = &template.layers[..first];
    let (w, h) = template.content_size();
    if under.is_empty() {
        return Ok((Arc::new(Canvas::new(w, h)?.pixmap), false));
    }
    let mut names = Vec::new();
    for layer in under {
        layer_params(layer, &mut names);
    }
    let key: UnderKey = (
        std::ptr::from_ref(template) as usize,
        names
            .iter()
            .map(|n| (args.get(n).cloned(), args.given.contains(n)))
            .collect(),
    );
    let lock = || UNDER_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    {
        let mut cache = lock();
        if let Some(i) = cache.iter().position(|(k, _, _)| *k == key) {
            let entry = cache.remove(i);
            let found = (entry.1.clone(), entry.2);
            cache.insert(0, entry);
            return Ok(found);
        }
    }
    let (mut canvas, skip, _) = start_canvas(template, args, 0)?;
    for layer in &under[skip..] {
        draw_layer(&mut canvas, layer, None, args, 0, &mut None)?;
    }
    let opaque = crate::paint::is_opaque(&canvas.pixmap);
    let pixmap = Arc::new(canvas.pixmap);
    let mut cache = lock();
    cache.insert(0, (key, pixmap.clone(), opaque));
    let mut bytes = 0;
    let kept = cache
        .iter()
        .take_while(|(_, p, _)| {
            bytes += p.data().len();
            bytes <= UNDER_CACHE_BYTES
        })
        .count();
    let evicted: Vec<_> = cache.drain(kept.clamp(1, UNDER_CACHE_ENTRIES)..).collect();
    drop(cache);
    // A canvas no render is copying any more goes to the buffer store: the
    // next canvas of its size is copied into memory already mapped.
    for (_, canvas, _) in evicted {
        if let Ok(canvas) = Arc::try_unwrap(canvas) {
            crate::buffers::recycle(canvas.take());
        }
    }
    Ok((pixmap, opaque))
}

/// Every parameter a layer reads, appended to `out`.
fn layer_params(layer: &Layer, out: &mut Vec<&'static str>) {
    fn pieces(list: &[Piece], out: &mut Vec<&'static str>) {
        for piece in list {
            match piece {
                Piece::Lit(_) => {}
                Piece::Param(p) | Piece::Compact(p) | Piece::Flag { param: p, .. } => out.push(p),
                Piece::CompactWith { param, with } => out.extend([param, with]),
                Piece::IfSet {
                    param,
                    pieces: inner,
                }
                | Piece::IfGiven {
                    param,
                    pieces: inner,
                } => {
                    out.push(param);
                    pieces(inner, out);
                }
                Piece::Pick { param, .. } => out.push(param),
            }
        }
    }
    fn paint(p: &Paint, out: &mut Vec<&'static str>) {
        if let Paint::Param { param, .. } = p {
            out.push(param);
        }
    }
    match layer {
        Layer::Art { .. } | Layer::Avatar(_) | Layer::Image { .. } => {}
        Layer::ArtChoice { param, .. } => out.push(param),
        Layer::PaletteText(slot, palette) => {
            out.push(palette.param);
            out.extend(slot.replaced_by);
            pieces(slot.pieces, out);
        }
        Layer::Text(slot) => {
            out.extend(slot.replaced_by);
            pieces(slot.pieces, out);
        }
        Layer::PaintedText { paint: p, slot } => {
            paint(p, out);
            out.extend(slot.replaced_by);
            pieces(slot.pieces, out);
        }
        Layer::Shape(slot) => paint(&slot.paint, out),
        Layer::Bar(slot) => {
            out.extend([slot.value, slot.max]);
            paint(&slot.track, out);
            paint(&slot.fill, out);
        }
        Layer::When { when, layer } => {
            let (When::Set(p) | When::Unset(p)) = when;
            out.push(p);
            layer_params(layer, out);
        }
    }
}

/// The avatar of one source frame, prepared once for every slot that
/// draws it (scaled to the slot's largest box, greyed and tinted; a slot
/// whose every placement is the same upright square gets the avatar at
/// exactly that size, so each frame draws it as a copy).
struct Prepared {
    slots: Vec<Option<Pixmap>>,
}

/// The one size of a slot placed upright at the same whole-pixel square in
/// every frame, if it is.
fn constant_side(motion: &[Place]) -> Option<u32> {
    let first = motion.first()?;
    let side = first.w;
    let same = motion
        .iter()
        .all(|p| p.w == side && p.h == side && p.rotation == 0.0);
    (same && side.fract() == 0.0 && side >= 1.0).then_some(side as u32)
}

/// `pix` resampled to `side` × `side` with the sampler a scaled placement
/// draws it with (bilinear), so drawing the result at a whole-pixel offset
/// gives the pixels drawing `pix` scaled there would.
fn scaled(pix: &Pixmap, side: u32) -> Option<Pixmap> {
    let mut out = Pixmap::new(side, side)?;
    let paint = PixmapPaint {
        quality: FilterQuality::Bilinear,
        ..PixmapPaint::default()
    };
    let t = Transform::from_scale(
        side as f32 / pix.width() as f32,
        side as f32 / pix.height() as f32,
    );
    out.draw_pixmap(0, 0, pix.as_ref(), &paint, t, None);
    Some(out)
}

impl Prepared {
    fn new(template: &Template, avatar: Option<&RgbaImage>) -> Result<Prepared, RenderError> {
        crate::check_size(template.size.0, template.size.1)?;
        if let Some(a) = avatar {
            crate::check_size(a.width(), a.height())?;
        }
        let slots = template
            .layers
            .iter()
            .map(|layer| match layer {
                Layer::Avatar(slot) => {
                    let side = slot
                        .motion
                        .iter()
                        .map(|p| p.w.max(p.h))
                        .fold(1.0f32, f32::max)
                        .ceil() as u32;
                    // A slot that always shows the avatar at one size larger
                    // than it is gets it enlarged once, with the SIMD resizer
                    // (the raster pipeline's bilinear costs ~100 ns a pixel).
                    let tint = slot.tint.map(|t| (t.rgb, t.strength));
                    let a = match (avatar, constant_side(slot.motion)) {
                        (Some(img), Some(exact)) if img.width().min(img.height()) < exact => {
                            let big = crate::resize::cover(img, exact, exact)?;
                            let a = Avatar::prepare_tinted(Some(&big), exact, slot.grey, tint)?;
                            crate::buffers::recycle_image(big);
                            a
                        }
                        _ => Avatar::prepare_tinted(avatar, side, slot.grey, tint)?,
                    };
                    let pix = a.into_pixmap();
                    Ok(Some(match constant_side(slot.motion) {
                        Some(exact) if exact != pix.width() || exact != pix.height() => {
                            scaled(&pix, exact).ok_or(RenderError::EmptyImage)?
                        }
                        _ => pix,
                    }))
                }
                _ => Ok(None),
            })
            .collect::<Result<_, RenderError>>()?;
        Ok(Prepared { slots })
    }
}

/// A render's prepared avatars go back to the buffer store for the next
/// render's (the same sizes come back: no fresh pages to fault in).
impl Drop for Prepared {
    fn drop(&mut self) {
        for pix in std::mem::take(&mut self.slots).into_iter().flatten() {
            crate::buffers::recycle(pix.take());
        }
    }
}

/// The second image of one source frame, prepared once for every
/// [`Layer::Image`] that draws it (covering the layer's largest box).
struct PreparedImages {
    slots: Vec<Option<Pixmap>>,
}

impl PreparedImages {
    fn new(template: &Template, image: Option<&RgbaImage>) -> Result<PreparedImages, RenderError> {
        let Some(img) = image else {
            return Ok(PreparedImages { slots: Vec::new() });
        };
        crate::check_size(img.width(), img.height())?;
        let slots = template
            .layers
            .iter()
            .map(|layer| match layer {
                Layer::Image { motion, .. } => {
                    let (w, h) = motion
                        .iter()
                        .fold((1.0f32, 1.0f32), |(w, h), p| (w.max(p.w), h.max(p.h)));
                    let covered = crate::resize::cover(img, w.ceil() as u32, h.ceil() as u32)?;
                    Ok(Some(premultiplied(covered)?))
                }
                _ => Ok(None),
            })
            .collect::<Result<_, RenderError>>()?;
        Ok(PreparedImages { slots })
    }
}

/// A straight-alpha image as a premultiplied pixmap (its buffer reused).
fn premultiplied(img: RgbaImage) -> Result<Pixmap, RenderError> {
    let (w, h) = img.dimensions();
    let mut data = img.into_raw();
    for px in data.chunks_exact_mut(4) {
        let a = u32::from(px[3]);
        if a != 255 {
            for c in &mut px[..3] {
                *c = ((u32::from(*c) * a + 127) / 255) as u8;
            }
        }
    }
    let size = tiny_skia::IntSize::from_wh(w, h).ok_or(RenderError::EmptyImage)?;
    Pixmap::from_vec(data, size).ok_or(RenderError::EmptyImage)
}

fn place_at(motion: &[Place], frame: u32) -> Option<Place> {
    match motion.len() {
        0 => None,
        n => Some(motion[frame as usize % n]),
    }
}

/// The transform mapping a `sw` × `sh` source onto `place`.
fn place_transform(place: &Place, sw: f32, sh: f32) -> Transform {
    Transform::from_row(place.w / sw, 0.0, 0.0, place.h / sh, place.x, place.y).post_rotate_at(
        place.rotation,
        place.x + place.w / 2.0,
        place.y + place.h / 2.0,
    )
}

/// Whether `place` maps a `sw` × `sh` source pixel for pixel.
fn is_exact(place: &Place, sw: u32, sh: u32) -> bool {
    place.rotation == 0.0
        && place.w == sw as f32
        && place.h == sh as f32
        && place.x.fract() == 0.0
        && place.y.fract() == 0.0
}

/// A drawn frame, and whether its every pixel is opaque.
struct Drawn {
    canvas: Canvas,
    opaque: bool,
}

impl Drawn {
    fn into_image(self) -> RgbaImage {
        self.canvas.into_image_known(self.opaque)
    }
}

fn draw_frame(
    template: &Template,
    args: &Args,
    frame: u32,
    prepared: &Prepared,
    images: &PreparedImages,
    texts: &mut TextCache,
) -> Result<Drawn, RenderError> {
    let (mut canvas, skip, opaque) = match start_from_placed_avatar(template, frame, prepared) {
        Some(canvas) => (canvas, 1, false),
        None => start_canvas(template, args, frame)?,
    };
    // Every layer blends source-over, which keeps an opaque canvas opaque.
    for (i, layer) in template.layers.iter().enumerate().skip(skip) {
        let source = layer_source(layer, i, prepared, images);
        draw_layer(&mut canvas, layer, source, args, frame, texts.slot(i))?;
    }
    Ok(Drawn { canvas, opaque })
}

/// A blank canvas for `template`, or, when its first layer is art covering
/// the canvas exactly, a copy of that art: the same pixels as drawing it
/// over nothing, without the blend. Gives the canvas and how many layers
/// it already holds (0 or 1), and whether it is opaque (art with no
/// transparent pixel).
fn start_canvas(
    template: &Template,
    args: &Args,
    frame: u32,
) -> Result<(Canvas, usize, bool), RenderError> {
    let (w, h) = template.content_size();
    let base = template.layers.first().and_then(|layer| {
        let (art, motion) = match layer {
            Layer::Art { art, motion } => (*art, *motion),
            Layer::ArtChoice {
                param,
                arts,
                motion,
            } => (*arts.get(args.choice(param))?, *motion),
            _ => return None,
        };
        let place = place_at(motion, frame)?;
        (art.size() == (w, h)
            && place.x == 0.0
            && place.y == 0.0
            && place.opacity >= 1.0
            && is_exact(&place, w, h))
        .then_some(art)
    });
    Ok(match base {
        Some(art) => (Canvas::from_layer(art::cached(art)), 1, art::is_opaque(art)),
        None => (Canvas::new(w, h)?, 0, false),
    })
}

/// When the first layer is the avatar drawn square, upright and opaque over
/// exactly the whole canvas, the canvas as that prepared avatar, taken
/// from `prepared`: the pixels drawing it over nothing gives, without the
/// blank canvas and the copy.
fn start_from_avatar(template: &Template, prepared: &mut Prepared) -> Option<Canvas> {
    let Some(Layer::Avatar(slot)) = template.layers.first() else {
        return None;
    };
    let (w, h) = template.content_size();
    let place = match slot.motion {
        [place] => place,
        _ => return None,
    };
    let pix = prepared.slots.first()?.as_ref()?;
    let fits = slot.mask == Mask::Square
        && place.opacity >= 1.0
        && place.x == 0.0
        && place.y == 0.0
        && (pix.width(), pix.height()) == (w, h)
        && is_exact(place, w, h);
    fits.then(|| Canvas {
        pixmap: prepared.slots[0].take().expect("checked above"),
    })
}

/// When the first layer is the avatar drawn square, upright, opaque and
/// unscaled in `frame` (triggered's shake), the canvas as a copy of the
/// prepared avatar at its place, transparent where it does not reach: the
/// pixels drawing it over nothing gives, without the blank canvas and the
/// blend.
fn start_from_placed_avatar(
    template: &Template,
    frame: u32,
    prepared: &Prepared,
) -> Option<Canvas> {
    let Some(Layer::Avatar(slot)) = template.layers.first() else {
        return None;
    };
    let place = place_at(slot.motion, frame)?;
    let pix = prepared.slots.first()?.as_ref()?;
    let fits = slot.mask == Mask::Square
        && place.opacity >= 1.0
        && is_exact(&place, pix.width(), pix.height());
    if !fits {
        return None;
    }
    let (w, h) = template.content_size();
    crate::check_size(w, h).ok()?;
    let (x, y) = (place.x as i64, place.y as i64);
    let (sw, sh) = (i64::from(pix.width()), i64::from(pix.height()));
    let (x0, x1) = (x.clamp(0, i64::from(w)), (x + sw).clamp(0, i64::from(w)));
    let row_bytes = w as usize * 4;
    let mut data = crate::buffers::take_empty(row_bytes * h as usize);
    let src = pix.data();
    for row in 0..i64::from(h) {
        let sy = row - y;
        if !(0..sh).contains(&sy) || x0 >= x1 {
            data.resize(data.len() + row_bytes, 0);
            continue;
        }
        data.resize(data.len() + x0 as usize * 4, 0);
        let start = (sy * sw + (x0 - x)) as usize * 4;
        data.extend_from_slice(&src[start..start + (x1 - x0) as usize * 4]);
        data.resize(data.len() + (i64::from(w) - x1) as usize * 4, 0);
    }
    let size = tiny_skia::IntSize::from_wh(w, h)?;
    Some(Canvas {
        pixmap: Pixmap::from_vec(data, size)?,
    })
}

/// The prepared image layer `i` draws: the avatar for an avatar slot, the
/// second image for a [`Layer::Image`], if any.
fn layer_source<'a>(
    layer: &Layer,
    i: usize,
    prepared: &'a Prepared,
    images: &'a PreparedImages,
) -> Option<&'a Pixmap> {
    let slots = match layer {
        Layer::Image { .. } => &images.slots,
        _ => &prepared.slots,
    };
    slots.get(i).and_then(Option::as_ref)
}

/// Draws one layer; `source` is the prepared avatar or second image of its
/// position in the template's layers, if any, and `text` its text slot's
/// layout once laid out.
fn draw_layer(
    canvas: &mut Canvas,
    layer: &Layer,
    source: Option<&Pixmap>,
    args: &Args,
    frame: u32,
    text: &mut Option<(String, TextLayout)>,
) -> Result<(), RenderError> {
    match layer {
        Layer::Art { art, motion } => {
            if let Some(place) = place_at(motion, frame) {
                let pix = art::cached(*art);
                // Moving art at a scaled or turned placement (a hand that
                // pats): drawn there once per process, then copied.
                let placed = (motion.len() > 1 && !is_exact(&place, pix.width(), pix.height()))
                    .then(|| reuse::placed_art(*art, pix, &place))
                    .flatten();
                match placed {
                    Some(p) => blit_exact(&mut canvas.pixmap, &p.2, p.0, p.1, 1.0),
                    None => draw_art(canvas, pix, &place),
                }
            }
        }
        Layer::Avatar(slot) => {
            if let (Some(place), Some(avatar)) = (place_at(slot.motion, frame), source) {
                draw_avatar(canvas, avatar, slot.mask, &place);
            }
        }
        Layer::Text(_) | Layer::PaintedText { .. } | Layer::PaletteText(..) => {
            if let Some((slot, (color, outline))) = text_ink(layer, args) {
                draw_text(canvas, slot, color, outline, args, frame, text)?;
            }
        }
        Layer::Shape(slot) => draw_shape(canvas, slot, args),
        Layer::Bar(slot) => draw_bar(canvas, slot, args),
        Layer::When { when, layer } => {
            if when.holds(args) {
                draw_layer(canvas, layer, source, args, frame, text)?;
            }
        }
        Layer::ArtChoice {
            param,
            arts,
            motion,
        } => {
            if let (Some(place), Some(art)) =
                (place_at(motion, frame), arts.get(args.choice(param)))
            {
                draw_art(canvas, art::cached(*art), &place);
            }
        }
        Layer::Image { motion, mask, .. } => {
            if let (Some(place), Some(image)) = (place_at(motion, frame), source) {
                draw_avatar(canvas, image, *mask, &place);
            }
        }
    }
    Ok(())
}

/// A text layer's slot and the ink it is drawn in for these arguments;
/// `None` for any other layer.
fn text_ink<'a>(layer: &'a Layer, args: &Args) -> Option<(&'a TextSlot, Ink)> {
    match layer {
        Layer::Text(slot) => Some((slot, (slot.color, slot.outline))),
        Layer::PaintedText { paint, slot } => Some((slot, (paint.rgba(args), slot.outline))),
        Layer::PaletteText(slot, palette) => {
            let color = palette
                .colors
                .get(args.choice(palette.param))
                .copied()
                .unwrap_or(slot.color);
            let outline = slot.outline.map(|(c, w)| {
                if is_dark(color) {
                    (palette.light_outline, w)
                } else {
                    (c, w)
                }
            });
            Some((slot, (color, outline)))
        }
        _ => None,
    }
}

/// The path of `shape` in the box `(x, y, w, h)`.
fn shape_path(shape: Shape, (x, y, w, h): (f32, f32, f32, f32)) -> tiny_skia::Path {
    match shape {
        Shape::Rect => rect_path(x, y, w, h),
        Shape::Rounded(r) => rrect_path(x, y, w, h, r.clamp(0.0, w.min(h) / 2.0)),
        Shape::Ellipse => tiny_skia::Rect::from_xywh(x, y, w, h)
            .and_then(PathBuilder::from_oval)
            .unwrap_or_else(|| rect_path(x, y, w, h)),
        Shape::Hexagon => hexagon_path(x, y, w, h),
    }
}

/// The regular hexagon inscribed in a box, pointed top and bottom (flat
/// sides left and right), stretched to the box.
fn hexagon_path(x: f32, y: f32, w: f32, h: f32) -> tiny_skia::Path {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let pts: Vec<(f32, f32)> = (0..6)
        .map(|i| {
            let a = std::f32::consts::FRAC_PI_3 * i as f32 - std::f32::consts::FRAC_PI_2;
            (cx + w / 2.0 * a.cos(), cy + h / 2.0 * a.sin())
        })
        .collect();
    crate::paint::poly(&pts)
}

fn colour(c: [u8; 4]) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c[0], c[1], c[2], c[3])
}

fn draw_shape(canvas: &mut Canvas, slot: &ShapeSlot, args: &Args) {
    let c = slot.paint.rgba(args);
    if c[3] == 0 {
        return;
    }
    let (w, h) = (canvas.pixmap.width() as f32, canvas.pixmap.height() as f32);
    match slot.stroke {
        // An opaque background: a fill of every pixel, no path.
        None if slot.shape == Shape::Rect && slot.area == (0.0, 0.0, w, h) && c[3] == 255 => {
            canvas.pixmap.fill(colour(c));
        }
        None => canvas.color(&shape_path(slot.shape, slot.area), colour(c)),
        Some(width) => canvas.stroke(&shape_path(slot.shape, slot.area), colour(c), width),
    }
}

/// `value / max` clamped to 0–1; a goal of 0 is reached by any progress.
pub fn bar_fraction(value: u32, max: u32) -> f32 {
    if max == 0 {
        return if value > 0 { 1.0 } else { 0.0 };
    }
    (value as f64 / max as f64).clamp(0.0, 1.0) as f32
}

fn draw_bar(canvas: &mut Canvas, slot: &BarSlot, args: &Args) {
    let f = bar_fraction(args.int(slot.value), args.int(slot.max));
    let (track, fill) = (colour(slot.track.rgba(args)), colour(slot.fill.rgba(args)));
    let (x, y, w, h) = slot.area;
    match slot.style {
        BarStyle::Rounded => {
            let r = h / 2.0;
            canvas.color(&rrect_path(x, y, w, h, r), track);
            if f > 0.0 {
                // At least a round dot, so that a little progress shows.
                let fw = (w * f).max(h);
                canvas.color(&rrect_path(x, y, fw, h, r), fill);
            }
        }
        BarStyle::Segments { count, gap, radius } => {
            let n = count.max(1);
            let sw = (w - gap * (n - 1) as f32) / n as f32;
            // One path for the track's blocks and one for the lit ones: a
            // fill has a cost of its own, whatever its size.
            let (mut tracks, mut lits) = (PathBuilder::new(), PathBuilder::new());
            for i in 0..n {
                let sx = x + i as f32 * (sw + gap);
                tracks.push_path(&rrect_path(sx, y, sw, h, radius));
                let lit = (f * n as f32 - i as f32).clamp(0.0, 1.0);
                if lit > 0.0 {
                    lits.push_path(&rrect_path(sx, y, (sw * lit).max(radius * 2.0), h, radius));
                }
            }
            for (blocks, colour) in [(tracks, track), (lits, fill)] {
                if let Some(path) = blocks.finish() {
                    canvas.color(&path, colour);
                }
            }
        }
        BarStyle::Ring { width } => {
            let (cx, cy) = (x + w / 2.0, y + h / 2.0);
            let (rx, ry) = ((w - width) / 2.0, (h - width) / 2.0);
            let ring = |from: f32, to: f32| {
                let steps = ((to - from) * 90.0).ceil().max(2.0) as usize;
                let mut pb = PathBuilder::new();
                for k in 0..=steps {
                    let t = from + (to - from) * k as f32 / steps as f32;
                    let a = std::f32::consts::TAU * t - std::f32::consts::FRAC_PI_2;
                    let p = (cx + rx * a.cos(), cy + ry * a.sin());
                    if k == 0 {
                        pb.move_to(p.0, p.1);
                    } else {
                        pb.line_to(p.0, p.1);
                    }
                }
                pb.finish()
            };
            let whole = shape_path(Shape::Ellipse, (cx - rx, cy - ry, rx * 2.0, ry * 2.0));
            canvas.stroke(&whole, track, width);
            if f > 0.0
                && let Some(p) = ring(0.0, f)
            {
                canvas.stroke(&p, fill, width);
            }
        }
    }
}

fn draw_art(canvas: &mut Canvas, art: &Pixmap, place: &Place) {
    let (aw, ah) = (art.width(), art.height());
    let exact = is_exact(place, aw, ah);
    let paint = PixmapPaint {
        opacity: place.opacity.clamp(0.0, 1.0),
        quality: if exact {
            FilterQuality::Nearest
        } else {
            FilterQuality::Bilinear
        },
        ..PixmapPaint::default()
    };
    if exact {
        blit_exact(
            &mut canvas.pixmap,
            art,
            place.x as i32,
            place.y as i32,
            paint.opacity,
        );
    } else {
        let t = place_transform(place, aw as f32, ah as f32);
        canvas
            .pixmap
            .draw_pixmap(0, 0, art.as_ref(), &paint, t, None);
    }
}

/// Whether a straight-RGBA colour is dark (Rec. 601 luma under 96).
fn is_dark(c: [u8; 4]) -> bool {
    u32::from(c[0]) * 299 + u32::from(c[1]) * 587 + u32::from(c[2]) * 114 < 96_000
}

/// Draws the premultiplied `src` over `dst` with its top-left corner at the
/// whole pixel `(x, y)`, scaled by `opacity`, clipped to `dst`: what an
/// exact placement (nearest sampling at whole-pixel offsets) draws, as a
/// plain source-over loop in integers instead of the raster pipeline.
fn blit_exact(dst: &mut Pixmap, src: &Pixmap, x: i32, y: i32, opacity: f32) {
    let o = (opacity.clamp(0.0, 1.0) * 255.0).round() as u32;
    let (dw, dh) = (dst.width() as i64, dst.height() as i64);
    let (sw, sh) = (src.width() as i64, src.height() as i64);
    let (x, y) = (i64::from(x), i64::from(y));
    let (x0, y0) = (x.max(0), y.max(0));
    let (x1, y1) = ((x + sw).min(dw), (y + sh).min(dh));
    if o == 0 || x0 >= x1 || y0 >= y1 {
        return;
    }
    let len = ((x1 - x0) * 4) as usize;
    let (dstride, sstride) = (dw as usize * 4, sw as usize * 4);
    let src_data = src.data();
    let dst_data = dst.data_mut();
    for row in y0..y1 {
        let d = &mut dst_data[row as usize * dstride + x0 as usize * 4..][..len];
        let s = &src_data[(row - y) as usize * sstride + (x0 - x) as usize * 4..][..len];
        if o == 255 {
            over_row(d, s);
            continue;
        }
        for (dp, sp) in d.chunks_exact_mut(4).zip(s.chunks_exact(4)) {
            if o == 255 {
                match sp[3] {
                    0 => continue,
                    255 => {
                        dp.copy_from_slice(sp);
                        continue;
                    }
                    _ => {}
                }
            }
            let scale = |c: u8| {
                if o == 255 {
                    u32::from(c)
                } else {
                    div255(u32::from(c) * o)
                }
            };
            let inv = 255 - scale(sp[3]);
            for c in 0..4 {
                dp[c] = (scale(sp[c]) + div255(u32::from(dp[c]) * inv)).min(255) as u8;
            }
        }
    }
}

/// Source-over of one row of premultiplied pixels at full opacity: each
/// channel `s + d × (255 − sₐ) / 255`, rounded as [`div255`] does, at most
/// 255 (which only a source that is not premultiplied reaches). Eight
/// pixels at a time in 16-bit lanes (every product fits: 255 × 255 + 255 <
/// 2¹⁶), which the compiler turns into vector code; eight transparent
/// source pixels leave the destination as it is.
fn over_row(d: &mut [u8], s: &[u8]) {
    let mut dc = d.chunks_exact_mut(32);
    let mut sc = s.chunks_exact(32);
    for (dp, sp) in (&mut dc).zip(&mut sc) {
        let sp: &[u8; 32] = sp.try_into().expect("32 bytes");
        if *sp == [0; 32] {
            continue;
        }
        let mut out = [0u8; 32];
        for (i, o) in out.iter_mut().enumerate() {
            let inv = 255 - u16::from(sp[i | 3]);
            let t = u16::from(dp[i]) * inv + 128;
            let r = (t + (t >> 8)) >> 8;
            *o = (u16::from(sp[i]) + r).min(255) as u8;
        }
        dp.copy_from_slice(&out);
    }
    for (dp, sp) in dc
        .into_remainder()
        .chunks_exact_mut(4)
        .zip(sc.remainder().chunks_exact(4))
    {
        let inv = 255 - u32::from(sp[3]);
        for (o, &c) in dp.iter_mut().zip(sp) {
            *o = (u32::from(c) + div255(u32::from(*o) * inv)).min(255) as u8;
        }
    }
}

/// `v / 255`, rounded, for `v` up to 255².
fn div255(v: u32) -> u32 {
    let v = v + 128;
    (v + (v >> 8)) >> 8
}

fn draw_avatar(canvas: &mut Canvas, pix: &Pixmap, mask: Mask, place: &Place) {
    let (side, side_h) = (pix.width() as f32, pix.height() as f32);
    let exact = is_exact(place, pix.width(), pix.height());
    if exact && mask == Mask::Square {
        blit_exact(
            &mut canvas.pixmap,
            pix,
            place.x as i32,
            place.y as i32,
            place.opacity,
        );
        return;
    }
    let path = match mask {
        Mask::Square => rect_path(0.0, 0.0, side, side_h),
        Mask::Circle if side == side_h => circle_path(side / 2.0, side / 2.0, side / 2.0),
        Mask::Circle => ellipse_path(side, side_h),
        Mask::Rounded(r) => {
            rrect_path(0.0, 0.0, side, side_h, side.min(side_h) * r.clamp(0.0, 0.5))
        }
        Mask::Hexagon => hexagon_path(0.0, 0.0, side, side_h),
    };
    if place.rotation == 0.0 && !exact {
        // Scaled but upright (a squashed avatar): sampled in integers.
        crate::scaled::draw_scaled(
            &mut canvas.pixmap,
            pix,
            &path,
            (place.x, place.y, place.w, place.h),
            place.opacity,
        );
        return;
    }
    let shader = Pattern::new(
        pix.as_ref(),
        SpreadMode::Pad,
        if exact {
            FilterQuality::Nearest
        } else {
            FilterQuality::Bilinear
        },
        place.opacity.clamp(0.0, 1.0),
        Transform::identity(),
    );
    let t = place_transform(place, side, side_h);
    canvas.fill_t(&path, &shader_paint(shader), t);
}

/// The ellipse inscribed in a `w` × `h` box at the origin.
fn ellipse_path(w: f32, h: f32) -> tiny_skia::Path {
    tiny_skia::PathBuilder::from_oval(
        tiny_skia::Rect::from_xywh(0.0, 0.0, w, h).expect("positive box"),
    )
    .expect("non-empty ellipse")
}

/// Appends the text of `pieces` for these arguments to `out`; with
/// `isolate`, each text parameter (not a number) in a first-strong
/// isolate ([`crate::text::isolate`]).
fn push_pieces(out: &mut String, pieces: &[Piece], args: &Args, isolate: bool) {
    for piece in pieces {
        match *piece {
            Piece::Lit(s) => out.push_str(s),
            Piece::Param(p) if isolate && matches!(args.get(p), Some(Value::Text(_))) => {
                out.push_str(&crate::text::isolate(&args.display(p)));
            }
            Piece::Param(p) => out.push_str(&args.display(p)),
            Piece::Compact(p) => out.push_str(&crate::text::format_count(u64::from(args.int(p)))),
            Piece::CompactWith { param, with } => {
                let (n, other) = (args.int(param), args.int(with));
                let from = if n.max(other) >= 10_000 {
                    1_000
                } else {
                    10_000
                };
                out.push_str(&crate::text::format_count_from(u64::from(n), from));
            }
            Piece::IfSet { param, pieces } => {
                if args.is_set(param) {
                    push_pieces(out, pieces, args, isolate);
                }
            }
            Piece::Flag { param, yes, no } => out.push_str(if args.flag(param) { yes } else { no }),
            Piece::Pick { param, texts } => {
                out.push_str(texts.get(args.choice(param)).copied().unwrap_or(""));
            }
            Piece::IfGiven { param, pieces } => {
                if args.given(param) {
                    push_pieces(out, pieces, args, isolate);
                }
            }
        }
    }
}

/// The text of a slot for these arguments. A slot that puts a parameter
/// beside anything else (our words, a number, another parameter) isolates
/// each text parameter, so a right-to-left name leaves the rest in its
/// order; a slot that is one parameter alone takes that text's own
/// direction.
fn slot_text(slot: &TextSlot, args: &Args) -> String {
    if let Some(p) = slot.replaced_by {
        let t = args.text(p);
        if !t.trim().is_empty() {
            return t.to_owned();
        }
    }
    let mut out = String::new();
    let alone = matches!(slot.pieces, [Piece::Param(_)]);
    push_pieces(&mut out, slot.pieces, args, !alone);
    out
}

/// A text colour and its optional outline (colour, width).
type Ink = ([u8; 4], Option<([u8; 4], f32)>);

fn slot_style(slot: &TextSlot, (color, outline): Ink, size: f32) -> TextStyle {
    let mut style = TextStyle::new(slot.face, size)
        .color(color)
        .align(slot.align)
        .valign(slot.valign);
    if let Some((c, w)) = outline {
        style = style.outline(c, w);
    }
    style
}

/// Each text slot's whole text, laid out once per render and kept for
/// every frame (the text and its fit do not change from frame to frame).
struct TextCache {
    slots: Vec<Option<(String, TextLayout)>>,
}

impl TextCache {
    fn new(template: &Template) -> TextCache {
        TextCache {
            slots: template.layers.iter().map(|_| None).collect(),
        }
    }

    fn slot(&mut self, layer: usize) -> &mut Option<(String, TextLayout)> {
        &mut self.slots[layer]
    }
}

fn draw_text(
    canvas: &mut Canvas,
    slot: &TextSlot,
    color: [u8; 4],
    outline: Option<([u8; 4], f32)>,
    args: &Args,
    frame: u32,
    cached: &mut Option<(String, TextLayout)>,
) -> Result<(), RenderError> {
    let (area, style) = text_box_style(slot, (color, outline));
    let Some(shown) = text_shown(slot, &style, area, args, frame, cached)? else {
        return Ok(());
    };
    let Some((_, fitted)) = cached.as_ref() else {
        unreachable!("laid out by text_shown")
    };
    match shown {
        ALL_GRAPHEMES => canvas.draw_layout(fitted, &style, area),
        // The whole text's glyphs of its first graphemes, not shaped
        // again, with the whole text's lines (their widths kept) in the
        // same area and style: each typed character is drawn where it
        // is in the whole sentence.
        shown => canvas.draw_layout(&fitted.first_graphemes(shown), &style, area),
    }
    Ok(())
}

/// A text slot's box and style in this ink.
fn text_box_style(slot: &TextSlot, ink: Ink) -> (TextBox, TextStyle) {
    let (x, y, w, h) = slot.area;
    (TextBox::new(x, y, w, h), slot_style(slot, ink, slot.size))
}

/// [`text_shown`]: every grapheme of the text.
const ALL_GRAPHEMES: usize = usize::MAX;

/// How many of a text slot's grapheme clusters frame `frame` draws (the
/// first ones; [`ALL_GRAPHEMES`]: the whole layout), `None` when it draws
/// nothing. Lays the whole text out into `cached` first (kept for every
/// frame: the text and its fit do not change from frame to frame).
fn text_shown(
    slot: &TextSlot,
    style: &TextStyle,
    area: TextBox,
    args: &Args,
    frame: u32,
    cached: &mut Option<(String, TextLayout)>,
) -> Result<Option<usize>, RenderError> {
    if let Reveal::Typed { from, .. } = slot.reveal
        && frame < from
    {
        return Ok(None);
    }
    if cached.is_none() {
        let full = slot_text(slot, args);
        if full.trim().is_empty() {
            return Ok(None);
        }
        // The size the whole text fits at (kept while it types out).
        let fitted = text::fit_text(&full, style, area, slot.min_size)?;
        *cached = Some((full, fitted));
    }
    let Some((full, fitted)) = cached.as_ref() else {
        unreachable!("filled above")
    };
    Ok(Some(match slot.reveal {
        Reveal::All => ALL_GRAPHEMES,
        Reveal::Typed { from, to } => {
            let count = full.graphemes(true).count();
            let shown = if frame >= to {
                count
            } else {
                let span = (to - from).max(1) as usize;
                (count * (frame - from + 1) as usize).div_ceil(span + 1)
            };
            match fitted.is_truncated() || shown >= count {
                true => ALL_GRAPHEMES,
                false => shown,
            }
        }
    }))
}

/// Static art pixmaps, one per [`Art`], drawn on first use.
static ART_CACHE: [OnceLock<Pixmap>; Art::COUNT] = [const { OnceLock::new() }; Art::COUNT];

#[cfg(test)]
mod bidi_tests;
#[cfg(test)]
mod rank_tests;
#[cfg(test)]
mod still_tests;
#[cfg(test)]
mod tests;
