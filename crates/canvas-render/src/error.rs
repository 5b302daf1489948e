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
}
