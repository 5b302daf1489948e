//! The crate's error type.

/// Everything that can go wrong while rendering.
///
/// Every variant's message is written for the end user of an image API
/// ("brightness must be between 0 and 100, got 101"), so a server can pass it on
/// unchanged. The enum is `#[non_exhaustive]`: new variants may be added in
/// minor releases.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// A width or height of zero was given or produced.
    #[error("image has no pixels")]
    EmptyImage,
    /// The requested canvas is larger than the crate allows.
    #[error("image of {width}x{height} pixels is larger than allowed")]
    TooLarge {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
    /// A numeric parameter was NaN or infinite.
    #[error("{name} must be a finite number")]
    ParameterNotFinite {
        /// The parameter's name, as in the documentation (`brightness`, `threshold`).
        name: &'static str,
    },
    /// A numeric parameter was outside its documented range.
    #[error("{name} must be between {min} and {max}, got {value}")]
    ParameterOutOfRange {
        /// The parameter's name, as in the documentation (`brightness`, `threshold`).
        name: &'static str,
        /// The rejected value.
        value: f32,
        /// The smallest accepted value.
        min: f32,
        /// The largest accepted value.
        max: f32,
    },
    /// A parameter given as text was not a number.
    #[error("{name} must be a number")]
    ParameterNotNumber {
        /// The parameter's name, as in the documentation (`brightness`, `threshold`).
        name: &'static str,
    },
    // --- text and scene errors ---
    /// A font size was NaN, infinite, or outside
    /// `text::MIN_FONT_SIZE..=text::MAX_FONT_SIZE`.
    #[error("font size must be a finite number of pixels within the supported range")]
    InvalidFontSize,
    /// A text box had a NaN, infinite, negative or oversized coordinate.
    #[error("text box must have finite coordinates and a positive size")]
    InvalidTextBox,
    /// A text style parameter (line spacing, outline width) was out of range.
    #[error("invalid text style: {0}")]
    InvalidTextStyle(&'static str),
    /// A text parameter was longer than its documented cap.
    #[error("{field} is too long: {len} characters, at most {max} allowed")]
    TextTooLong {
        /// Name of the parameter (e.g. `comment`).
        field: &'static str,
        /// The cap, in characters.
        max: usize,
        /// The length given, in characters.
        len: usize,
    },
    /// Text was laid out while the font database was empty: the crate was
    /// built without its bundled fonts (`default-features = false`, no
    /// `font-*` feature) and no font was added with `text::add_font`.
    #[error(
        "no fonts: enable canvas-render's `bundled-fonts` feature or add a font with text::add_font"
    )]
    NoFonts,
    /// `text::add_font` was given bytes in which no TrueType or OpenType face
    /// could be read.
    #[error("font data holds no readable TrueType or OpenType face")]
    InvalidFont,
    /// `text::add_font` would have made the font database hold more than
    /// `text::MAX_FONTS` faces.
    #[error("the font database holds at most {max} faces")]
    TooManyFonts {
        /// The cap, `text::MAX_FONTS`.
        max: usize,
    },
    /// A scene parameter had a value outside its documented set.
    #[error("invalid {field}: {reason}")]
    InvalidParameter {
        /// Name of the parameter (e.g. `theme`).
        field: &'static str,
        /// What is accepted.
        reason: &'static str,
    },
}
