//! PNG output.

use crate::{RenderError, RgbaImage, check_size};

/// Encodes an RGBA image as PNG with fast compression.
///
/// The PNG decodes to exactly the input's pixels, but is stored in the
/// smallest of the colour types greyscale, greyscale + alpha, RGB and RGBA
/// that holds them losslessly: a greyscale filter's output, for example, is
/// written with one byte per pixel instead of four, which makes it both
/// smaller and several times faster to compress. Compression is the `png`
/// crate's fast deflate ([fdeflate](https://crates.io/crates/fdeflate)) with
/// the PNG filter chosen by measurement (see `BENCHMARKS.md`): on a 512 px
/// avatar it is about as small as zlib level 1 and much faster.
///
/// ```
/// use canvas_render::{apply, encode_png, Filter};
///
/// let img = canvas_render::solid(64, 64, [200, 40, 90]).unwrap();
/// let colour = encode_png(&img).unwrap();
/// let grey = encode_png(&apply(&Filter::Greyscale, &img).unwrap()).unwrap();
/// assert_eq!(&grey[..8], b"\x89PNG\r\n\x1a\n");
/// assert_eq!(grey[25], 0, "colour type 0: greyscale");
/// assert_eq!(colour[25], 2, "colour type 2: RGB (opaque)");
/// ```
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let (w, h) = img.dimensions();
    check_size(w, h)?;
    let raw = img.as_raw();
    let (grey, opaque) = classify(raw);
    let (colour, data): (png::ColorType, std::borrow::Cow<'_, [u8]>) = match (grey, opaque) {
        (true, true) => (
            png::ColorType::Grayscale,
            raw.chunks_exact(4).map(|p| p[0]).collect(),
        ),
        (true, false) => (
            png::ColorType::GrayscaleAlpha,
            raw.chunks_exact(4).flat_map(|p| [p[0], p[3]]).collect(),
        ),
        (false, true) => (
            png::ColorType::Rgb,
            raw.chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect(),
        ),
        (false, false) => (png::ColorType::Rgba, raw.as_slice().into()),
    };
    let mut out = Vec::with_capacity(data.len() / 2 + 1024);
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(colour);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        enc.set_filter(png::FilterType::Paeth);
        enc.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
        let err = |e: png::EncodingError| RenderError::Encode(e.to_string());
        let mut writer = enc.write_header().map_err(err)?;
        writer.write_image_data(&data).map_err(err)?;
        writer.finish().map_err(err)?;
    }
    Ok(out)
}

/// Whether every pixel is grey (r = g = b) and whether every pixel is opaque.
fn classify(raw: &[u8]) -> (bool, bool) {
    let mut grey = true;
    let mut opaque = true;
    // Chunked so the common "neither" case stops early.
    for chunk in raw.chunks(4 * 1024) {
        for p in chunk.chunks_exact(4) {
            grey &= p[0] == p[1] && p[1] == p[2];
            opaque &= p[3] == 255;
        }
        if !grey && !opaque {
            break;
        }
    }
    (grey, opaque)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png_bytes: &[u8]) -> RgbaImage {
        image::load_from_memory_with_format(png_bytes, image::ImageFormat::Png)
            .unwrap()
            .to_rgba8()
    }

    #[test]
    fn every_colour_type_round_trips() {
        let base = RgbaImage::from_fn(37, 23, |x, y| {
            image::Rgba([
                (x * 7) as u8,
                (y * 11) as u8,
                (x * y) as u8,
                (x + y * 3) as u8,
            ])
        });
        let variants = [
            (|p: &mut image::Rgba<u8>| p.0 = [p.0[0], p.0[0], p.0[0], 255])
                as fn(&mut image::Rgba<u8>),
            |p| p.0 = [p.0[0], p.0[0], p.0[0], p.0[3]],
            |p| p.0[3] = 255,
            |_| {},
        ];
        for (i, f) in variants.into_iter().enumerate() {
            let mut img = base.clone();
            img.pixels_mut().for_each(f);
            let bytes = encode_png(&img).unwrap();
            assert_eq!(bytes[25], [0, 4, 2, 6][i], "colour type of variant {i}");
            assert_eq!(decode(&bytes), img, "variant {i}");
        }
    }

    #[test]
    fn empty_images_are_rejected() {
        assert_eq!(
            encode_png(&RgbaImage::new(0, 0)),
            Err(RenderError::EmptyImage)
        );
    }
}
