//! Image filters, avatar shapes, templates and text for avatar-based images.
//!
//! `canvas-render` does no IO (but for [`template::file`], which reads a
//! folder of template files when asked) and never reads system fonts:
//! images in, images out, typed errors. Every size is checked before any allocation.
//! Images are [`RgbaImage`]s of the [`image`] crate (0.25), re-exported here;
//! decode files with it (this crate's `png`, `jpeg`, `gif` and `webp`
//! features turn its decoders on).
//!
//! * [`filter`]: fourteen colour and blur filters ([`Filter`], [`apply`]).
//! * [`shape`]: the avatar cropped to a circle or a heart, or framed by a
//!   pride-flag ring ([`circle`], [`heart`], [`pride`]).
//! * [`template`]: every composed picture (overlays, memes, welcome, rank
//!   and profile cards) as data, one interpreter
//!   ([`template::TemplateKind`], [`template::render_template`]), and
//!   templates read from files ([`template::file`]).
//! * [`sample`]: a built-in sample avatar drawn in code ([`sample::avatar`]),
//!   and each template's sample arguments
//!   ([`template::TemplateKind::sample_args`]), for previews.
//! * [`text`]: text laid out and drawn with the bundled fonts
//!   ([`text::fit_text`], [`text::draw_layout`]).
//! * [`encode_png`]: fast PNG output (the `png-writer` crate).
//! * [`animation`]: every frame of an animated avatar through a filter or
//!   shape, and animated GIF ([`encode_gif`]) and WebP output.
//!
//! ```
//! use canvas_render::template::{render_template, TemplateKind};
//! use canvas_render::{apply, circle, encode_png, Filter};
//!
//! // Any RGBA image: `canvas_render::image::open(path)?.to_rgba8()` with
//! // the `png` feature, or made in code.
//! let avatar = canvas_render::solid(64, 64, [75, 0, 125]).unwrap();
//! let sepia = apply(&Filter::Sepia, &avatar).unwrap();
//! let round = circle(&sepia).unwrap();
//! let sage = TemplateKind::Sage.template();
//! let quote = sage.args(|_| Some("Slow and steady.")).unwrap();
//! let card = render_template(sage, &quote, None).unwrap();
//! assert_eq!((round.dimensions(), card.dimensions()), ((512, 512), (1200, 630)));
//! let png = encode_png(&round).unwrap();
//! assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
//! ```
#![warn(missing_docs)]

pub mod buffers;
mod encode;
mod error;
pub mod filter;
mod resize;
pub mod sample;
pub mod shape;
pub mod template;
pub mod text;

pub mod animation;
mod frames;
mod gif_encode;
mod limits;
mod paint;
mod patched;
mod placed;
mod scaled;
mod turned;
mod webp_encode;

pub use encode::{encode_png, encode_png_in_place_into, encode_png_into};
pub use error::RenderError;
pub use filter::{Brightness, Filter, Threshold, apply, apply_in_place};
/// The `image` crate (0.25) whose [`RgbaImage`] this crate takes and returns;
/// its decoders are behind this crate's `png`, `jpeg`, `gif` and `webp`
/// features.
pub use image;
pub use image::RgbaImage;
pub use limits::{MAX_DIMENSION, MAX_PIXELS, check_size, solid};
pub use shape::{PrideFlag, circle, heart, pride};

pub use animation::{AnimationError, Loops, encode_gif, encode_webp, encode_webp_animation};
pub use webp_encode::{WebpQuality, encode_webp_at, encode_webp_lossless};

/// The README's example, compiled and run as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
