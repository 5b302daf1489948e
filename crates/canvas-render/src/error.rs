//! The crate's error type.

/// Everything that can go wrong while rendering.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
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
    // --- canvas-scenes: text and scene errors ---
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
    /// A scene parameter had a value outside its documented set.
    #[error("invalid {field}: {reason}")]
    InvalidParameter {
        /// Name of the parameter (e.g. `theme`).
        field: &'static str,
        /// What is accepted.
        reason: &'static str,
    },
}
