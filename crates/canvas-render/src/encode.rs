//! PNG output.

use crate::{RenderError, RgbaImage};

/// Encodes an RGBA image as PNG with fast compression.
///
/// Uses the `png` crate's fastest deflate setting with adaptive filtering,
/// which is several times faster than zlib level 6 for a modest size cost.
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let (w, h) = img.dimensions();
    let mut out = Vec::with_capacity((w as usize * h as usize) / 2 + 1024);
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        enc.set_filter(png::FilterType::Paeth);
        enc.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
        let mut writer = enc
            .write_header()
            .map_err(|e| RenderError::Encode(e.to_string()))?;
        writer
            .write_image_data(img.as_raw())
            .map_err(|e| RenderError::Encode(e.to_string()))?;
        writer
            .finish()
            .map_err(|e| RenderError::Encode(e.to_string()))?;
    }
    Ok(out)
}
