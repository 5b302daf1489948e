//! How text looks and where it goes: faces, alignment, outline, boxes.

use crate::RenderError;

use super::{MAX_OUTLINE_WIDTH, check_font_size};

/// A typeface bundled with the crate: the first font of a fallback chain
/// (see [`super`] for the chain).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FontFace {
    /// Noto Sans Regular: body text.
    Regular,
    /// Noto Sans Bold: names, headings.
    Bold,
    /// DejaVu Sans Condensed Bold: heavy, narrow meme captions.
    Meme,
    /// Noto Serif Italic: quotations.
    SerifItalic,
    /// A family of the font database by name (one added with
    /// [`super::add_font`], such as a template file's font), at its
    /// regular weight; characters it lacks fall back as for every face.
    Family(&'static str),
}

/// Horizontal alignment of each line inside its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Align {
    /// Flush left.
    #[default]
    Left,
    /// Centred.
    Center,
    /// Flush right.
    Right,
}

/// Vertical placement of the whole text block inside its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum VAlign {
    /// At the top of the box.
    #[default]
    Top,
    /// Centred vertically.
    Middle,
    /// At the bottom of the box.
    Bottom,
}

/// An outline drawn around every glyph (meme text).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outline {
    /// Outline colour, straight (non-premultiplied) RGBA.
    pub color: [u8; 4],
    /// Outline width in pixels at the style's nominal size; it scales with
    /// the size chosen by [`super::fit_text`]. `0 < width <= MAX_OUTLINE_WIDTH`.
    pub width: f32,
}

/// How text looks: face, size, colour, alignment and optional outline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextStyle {
    /// The first font of the fallback chain.
    pub face: FontFace,
    /// Font size in pixels (the em size), `MIN_FONT_SIZE..=MAX_FONT_SIZE`.
    pub size: f32,
    /// Fill colour, straight RGBA. Colour emoji keep their own colours and
    /// take only the alpha of this colour.
    pub color: [u8; 4],
    /// Horizontal alignment.
    pub align: Align,
    /// Vertical alignment of the block within its box.
    pub valign: VAlign,
    /// Line height as a multiple of the font's natural line height, `0.5..=3`.
    pub line_spacing: f32,
    /// Optional outline.
    pub outline: Option<Outline>,
}

impl TextStyle {
    /// Black, left/top-aligned text of `face` at `size` pixels.
    pub fn new(face: FontFace, size: f32) -> Self {
        TextStyle {
            face,
            size,
            color: [0, 0, 0, 255],
            align: Align::Left,
            valign: VAlign::Top,
            line_spacing: 1.0,
            outline: None,
        }
    }
    /// Sets the fill colour.
    pub fn color(mut self, color: [u8; 4]) -> Self {
        self.color = color;
        self
    }
    /// Sets the horizontal alignment.
    pub fn align(mut self, align: Align) -> Self {
        self.align = align;
        self
    }
    /// Sets the vertical alignment.
    pub fn valign(mut self, valign: VAlign) -> Self {
        self.valign = valign;
        self
    }
    /// Sets the line spacing multiplier.
    pub fn line_spacing(mut self, spacing: f32) -> Self {
        self.line_spacing = spacing;
        self
    }
    /// Adds an outline.
    pub fn outline(mut self, color: [u8; 4], width: f32) -> Self {
        self.outline = Some(Outline { color, width });
        self
    }
    /// White text with a black outline of `size / 12` pixels in the meme face,
    /// centred: the classic meme caption.
    pub fn meme(size: f32) -> Self {
        TextStyle::new(FontFace::Meme, size)
            .color([255, 255, 255, 255])
            .align(Align::Center)
            .outline([0, 0, 0, 255], (size / 12.0).clamp(1.0, MAX_OUTLINE_WIDTH))
    }

    pub(super) fn validate(&self) -> Result<(), RenderError> {
        check_font_size(self.size)?;
        if !(self.line_spacing.is_finite() && (0.5..=3.0).contains(&self.line_spacing)) {
            return Err(RenderError::InvalidTextStyle(
                "line spacing must be within 0.5..=3",
            ));
        }
        if let Some(o) = self.outline
            && !(o.width.is_finite() && o.width > 0.0 && o.width <= MAX_OUTLINE_WIDTH)
        {
            return Err(RenderError::InvalidTextStyle(
                "outline width must be within (0, 24]",
            ));
        }
        Ok(())
    }

    /// Pixels the outline adds on each side at the nominal size.
    pub(crate) fn outline_extent(&self) -> f32 {
        self.outline.map(|o| o.width).unwrap_or(0.0)
    }
}

/// A rectangle text is laid out in, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextBox {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width (finite, > 0, at most [`crate::MAX_DIMENSION`]).
    pub width: f32,
    /// Height (finite, > 0, at most [`crate::MAX_DIMENSION`]).
    pub height: f32,
}

impl TextBox {
    /// A box at `(x, y)` of `width` × `height` pixels.
    pub fn new(x: f32, y: f32, width: f32, height: f32) -> Self {
        TextBox {
            x,
            y,
            width,
            height,
        }
    }

    pub(super) fn validate(&self) -> Result<(), RenderError> {
        let max = crate::limits::MAX_DIMENSION as f32;
        let ok = |v: f32| v.is_finite() && v.abs() <= max;
        if ok(self.x)
            && ok(self.y)
            && ok(self.width)
            && ok(self.height)
            && self.width > 0.0
            && self.height > 0.0
        {
            Ok(())
        } else {
            Err(RenderError::InvalidTextBox)
        }
    }
}

/// Checks a wrapping width: finite, > 0, at most [`crate::MAX_DIMENSION`].
pub(super) fn check_width(max_width: f32) -> Result<(), RenderError> {
    if max_width.is_finite() && max_width > 0.0 && max_width <= crate::limits::MAX_DIMENSION as f32
    {
        Ok(())
    } else {
        Err(RenderError::InvalidTextBox)
    }
}
