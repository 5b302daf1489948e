//! Safe fetching, decoding and caching of user-supplied remote images
//! (avatars).
//!
//! Knows nothing of HTTP servers: it is a blocking client (ureq) that
//! refuses private addresses and bounds bytes, pixels, redirects and time,
//! plus a bounded in-memory cache of decoded avatars with single flight.
//!
//! - [`AvatarFetcher`] is the entry point: [`AvatarFetcher::get`] returns a
//!   cached, decoded, normalised [`Avatar`] or a [`FetchError`].
//! - Addresses are checked inside the resolver, on every redirect hop, by
//!   [`is_public_ip`] (never by looking at host names).
//! - [`decode_image`] sniffs the format from magic bytes (PNG, JPEG, GIF
//!   first frame, WebP) and checks the pixel cap from the header before
//!   decoding; [`decode_avatar`] also gives every frame of an animated
//!   GIF, WebP or APNG, under frame and total-pixel caps.
//!
//! Everything here blocks: a server calls it from a blocking thread pool.
#![forbid(unsafe_code)]

mod address;
mod animation;
mod cost;
mod decode;
mod error;
mod fetch;
mod resolver;
mod url;

pub use address::is_public_ip;
pub use animation::{
    Animation, AnimationFrame, AnimationHeader, DecodedAvatar, LoopCount, animation_header,
    decode_avatar,
};
pub use cost::decode_cost;
pub use decode::{AvatarFormat, ImageLimits, decode_image, normalize, sniff_format};
pub use error::FetchError;
pub use fetch::{Avatar, AvatarFetcher, FetchConfig};
pub use image::RgbaImage;
/// The ureq resolver trait and its address list, re-exported so callers can
/// plug a resolver of their own into [`AvatarFetcher::with_resolver`].
pub use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
pub use url::AvatarUrl;
