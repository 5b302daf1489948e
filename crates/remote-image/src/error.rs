//! The one error type of this crate.
//!
//! Messages are written for the caller of the avatar URL: they never contain
//! an upstream body, a header value or a resolved address.

/// Why an avatar could not be fetched or decoded.
///
/// The variants are grouped so that a server can map them to a response:
/// the request was wrong ([`InvalidUrl`](Self::InvalidUrl),
/// [`UrlTooLong`](Self::UrlTooLong), [`RefusedAddress`](Self::RefusedAddress)),
/// the resource is not a usable image ([`NotAnImage`](Self::NotAnImage),
/// [`UnsupportedFormat`](Self::UnsupportedFormat),
/// [`TooManyBytes`](Self::TooManyBytes), [`TooManyPixels`](Self::TooManyPixels),
/// [`TooManyFrames`](Self::TooManyFrames), [`AnimationTooLarge`](Self::AnimationTooLarge),
/// [`Corrupt`](Self::Corrupt), [`UpstreamRejected`](Self::UpstreamRejected),
/// [`TooManyRedirects`](Self::TooManyRedirects)), the avatar host failed
/// ([`Unreachable`](Self::Unreachable), [`UpstreamFailed`](Self::UpstreamFailed)),
/// or it was too slow ([`TooSlow`](Self::TooSlow)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The URL does not parse, is not absolute, has no host, uses a scheme
    /// other than `http`/`https`, or carries user information (`user@host`).
    /// The text says which.
    #[error("invalid avatar URL: {0}")]
    InvalidUrl(&'static str),

    /// The URL is longer than the configured cap.
    #[error("avatar URL is longer than {max} bytes")]
    UrlTooLong {
        /// The cap, in bytes.
        max: usize,
    },

    /// The host (of the URL or of a redirect) resolves to an address that is
    /// not public: loopback, private, link-local, CGNAT, multicast,
    /// documentation, reserved... The address itself is never reported.
    #[error("avatar URL points to a private or reserved network address")]
    RefusedAddress,

    /// The host name does not resolve, the connection was refused or reset,
    /// TLS failed, or the host spoke broken HTTP.
    #[error("avatar host could not be reached")]
    Unreachable,

    /// The host did not answer within the connect or overall timeout.
    #[error("avatar host took too long to answer")]
    TooSlow,

    /// More redirects than allowed (the cap is in the message).
    #[error("avatar URL redirected more than {max} times")]
    TooManyRedirects {
        /// The number of redirects followed before giving up.
        max: u32,
    },

    /// The avatar host answered with a client error (4xx).
    #[error("avatar host answered with status {status}")]
    UpstreamRejected {
        /// The upstream HTTP status.
        status: u16,
    },

    /// The avatar host answered with a server error (5xx) or another status
    /// that is neither success nor a followable redirect.
    #[error("avatar host failed with status {status}")]
    UpstreamFailed {
        /// The upstream HTTP status.
        status: u16,
    },

    /// The body (after content decoding, so compressed transfers count at
    /// their inflated size) is larger than the byte cap.
    #[error("avatar is larger than {max} bytes")]
    TooManyBytes {
        /// The cap, in bytes.
        max: u64,
    },

    /// The body does not start with the signature of any image format (for
    /// example an HTML page, whatever its `Content-Type`).
    #[error("avatar URL did not return an image")]
    NotAnImage,

    /// The body is an image in a format we do not decode (only PNG, JPEG,
    /// GIF and WebP are accepted).
    #[error("avatar image format is not supported (use PNG, JPEG, GIF or WebP)")]
    UnsupportedFormat,

    /// The header announces more pixels than allowed; nothing was decoded.
    #[error("avatar is {width}x{height} pixels, more than the {max_side}x{max_side} allowed")]
    TooManyPixels {
        /// Announced width.
        width: u32,
        /// Announced height.
        height: u32,
        /// The largest width and height accepted.
        max_side: u32,
    },

    /// An animated avatar has more frames than allowed (the cap is in the
    /// message).
    #[error("animated avatar has {frames} frames, more than the {max} allowed (max_frames)")]
    TooManyFrames {
        /// Frames announced or decoded so far.
        frames: u32,
        /// The cap.
        max: u32,
    },

    /// An animated avatar decodes to more pixels in all (frames × width ×
    /// height) than allowed.
    #[error(
        "animated avatar decodes to {pixels} pixels (frames x width x height), more than the {max} allowed (max_animation_pixels)"
    )]
    AnimationTooLarge {
        /// Frames × width × height.
        pixels: u64,
        /// The cap.
        max: u64,
    },

    /// The image signature is right but the data is truncated or malformed.
    #[error("avatar image is corrupt or truncated")]
    Corrupt,

    /// The decode waited for its turn until the caller's deadline passed
    /// ([`AvatarFetcher::fetch_traced_until`](crate::AvatarFetcher::fetch_traced_until)):
    /// the decoder was busy, the avatar is fine.
    #[error("the avatar decoder is busy; try again")]
    DecodeQueueTimeout,
}
