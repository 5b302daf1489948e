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
//!   ([`When`], [`Args::is_set`]);
//! * [`Layer::Picture`]: art given as pixels ([`Picture`], a template
//!   file's SVG, PNG or WebP, rasterised once when loaded), placed per frame
//!   like [`Layer::Art`].
//! * [`Layer::Row`]: single lines of text, art and shapes side by side,
//!   each starting where the one before ends (a name and the time beside
//!   it, counters and their labels);
//! * [`Layer::Grow`]: a text that sets the canvas's height, within
//!   bounds, and the layers below it that move down with it (a post's
//!   comment, the card ending right below it): such a template's size
//!   depends on its arguments ([`Template::size_for`]);
//! * [`Layer::Fit`]: the avatar as the main picture, whole, the canvas
//!   following its aspect and size ([`FitSlot`], a caption over any
//!   picture: [`Template::size_for_picture`]);
//! * [`Layer::Cut`]: a shape cut out of what is under it (transparent
//!   there).
//!
//! A template may also have a [`Camera`]: the layers then draw a picture
//! smaller than the canvas, which each frame shows at a place of its own,
//! transparent around it or over a backdrop drawn once (triggered's shake
//! is the avatar jumping between 12 places above a steady banner); the
//! picture is drawn once when it does not change.
//!
//! Templates are data rather than code so that a new one is a table, not a
//! new function: the interpreter ([`render_template`],
//! [`render_template_frames`]) is the only drawing code, and the tests walk
//! every template's tables (every parameter bounded and documented, every
//! per-frame placement list one entry or one per frame, every camera
//! place inside the canvas). The built-ins are Rust statics: the compiler
//! checks them, they cost nothing to load, and art stays code or SVG next
//! to them. Templates can also be written as files (`file`, feature
//! `files`): TOML read into the same model, with their own art
//! ([`Layer::Picture`]) and fonts; every built-in can be written as one
//! and reads back equal.
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
mod captions;
mod cards;
mod cards_misc;
mod catalog;
mod contrast;
mod memes;
mod memes_one;
mod message;
mod pairs;
mod rank;
mod reuse;
mod rng;
mod sample;
mod social;
mod stored;
mod welcome;

mod draw;
mod effects;
#[cfg(feature = "files")]
pub mod file;
mod fit;
mod flow;
mod gif;
mod markup;
mod model;
mod patch;
mod plan;
mod render;
mod slot_text;
mod time;

use std::sync::{Arc, Mutex};

use tiny_skia::{FilterQuality, PathBuilder, Pixmap, PixmapPaint, Transform};
use unicode_segmentation::UnicodeSegmentation;

pub use art::Art;
pub use captions::CAPTION_PICTURE_SIDES;
pub use cards_misc::{MAX_BIRTHDAY_CHARS, MAX_DESCRIPTION_CHARS, MAX_QUOTE_CHARS};
pub use memes::MAX_CAPTION_CHARS;
pub use memes_one::{MAX_EPITAPH_CHARS, MAX_WANTED_REWARD, MAX_YEARS_CHARS};
pub use pairs::{SECOND_AVATAR, SHIP_PERCENT, ship_percent};
pub use rank::{MAX_DISCRIMINATOR_CHARS, MAX_RANK_NUMBER, MAX_RANK_USERNAME_CHARS, RANK_CARD_SIZE};
pub use social::{
    MAX_COMMENT_CHARS, MAX_COUNTER, POST_MAX_HEIGHT, POST_WIDTH, VIDEO_COMMENT_MAX_HEIGHT,
    VIDEO_COMMENT_WIDTH,
};
pub use welcome::{
    BACKGROUNDS as WELCOME_BACKGROUNDS, MAX_GUILD_CHARS, MAX_MEMBER_COUNT,
    MAX_USERNAME_CHARS as MAX_WELCOME_USERNAME_CHARS, TEXT_COLOR_NAMES,
};

use crate::animation::{AnimationError, Deadline, Patch, PatchedFrames, PlacedFrames};
use crate::paint::{Avatar, Canvas, circle_path, rect_path, rrect_path};
use crate::text::{self, Align, FontFace, TextBox, TextLayout, TextStyle, VAlign, check_length};
use crate::{RenderError, RgbaImage};

use self::{draw::*, patch::*, slot_text::*};
pub use draw::bar_fraction;
pub use effects::{
    EFFECT_FRAMES, EFFECT_SIZE, EFFECT_SPEED, EFFECT_STRENGTH, EffectSlot, MAX_EFFECT_SIDE, Tone,
    Warp,
};
pub use fit::fitted_picture_size;
pub use gif::render_template_gif;
pub use markup::{Marks, parse_markup};
pub use message::{MAX_MESSAGE_CHARS, MESSAGE_MAX_HEIGHT, MESSAGE_WIDTH};
#[cfg(test)]
use model::grouped;
pub use model::{
    Args, AvatarSlot, BarSlot, BarStyle, Camera, FitSlot, Grow, Layer, Lead, MAX_TEMPLATE_FRAMES,
    Markup, Mask, Paint, Palette, ParamKind, ParamSpec, Picture, Piece, Place, Reveal, Row,
    RowItem, Shape, ShapeSlot, Template, TemplateKind, TextSlot, Timeline, Tint, Value, When,
};
pub use plan::{FramePlan, plan_frames, plan_frames_with};
pub use render::{
    render_patched_frames, render_placed_frames, render_planned_frames, render_planned_frames_with,
    render_template, render_template_frames, render_template_with,
};
pub use time::{MAX_TIMESTAMP_CHARS, format_timestamp};

#[cfg(test)]
mod bidi_tests;
#[cfg(test)]
mod captions_tests;
#[cfg(test)]
mod cards_misc_tests;
#[cfg(test)]
mod contrast_tests;
#[cfg(test)]
mod effects_tests;
#[cfg(test)]
mod memes_one_tests;
#[cfg(test)]
mod memes_tests;
#[cfg(test)]
mod message_tests;
#[cfg(test)]
mod overlay_tests;
#[cfg(test)]
mod pairs_tests;
#[cfg(test)]
mod rank_tests;
#[cfg(test)]
mod social_tests;
#[cfg(test)]
mod still_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
