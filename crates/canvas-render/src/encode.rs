//! PNG output.

use crate::{RenderError, RgbaImage, check_size};

/// Encodes an RGBA image as PNG with fast compression.
///
/// The PNG decodes to the input's pixels, and is stored in the
/// smallest colour type that holds them losslessly, with one byte per pixel
/// whenever it can be:
///
/// - greyscale when every pixel is grey and opaque (greyscale + alpha when
///   grey but not opaque);
/// - indexed (a palette, with a `tRNS` chunk when some pixel is not opaque)
///   when one colour channel determines the whole pixel, as it does in the
///   output of the `red`, `green` and `blue` filters: the palette is
///   indexed by that channel's value. This is the one case where the decoded
///   pixels may differ from the input's: every fully transparent pixel
///   (alpha 0) comes back as transparent black, whatever its colour
///   channels held (they are invisible, and premultiplied they are equal);
/// - otherwise RGB when every pixel is opaque, else RGBA.
///
/// One byte per pixel instead of three or four makes the file both smaller
/// and several times faster to compress. Every scanline is Paeth-filtered
/// (the filter chosen by measurement, see `BENCHMARKS.md`) and compressed
/// by this crate's own fast deflate: a Huffman code made for the image,
/// literals, and runs of zeros as copies, in the manner of
/// [fdeflate](https://crates.io/crates/fdeflate) but faster and about a
/// tenth smaller on a 512 px avatar. The output is an ordinary PNG that
/// any decoder reads.
///
/// ```
/// use canvas_render::{apply, encode_png, Filter, RgbaImage};
///
/// let img = RgbaImage::from_fn(64, 64, |x, y| {
///     image::Rgba([(x * 4) as u8, (y * 4) as u8, (x + y) as u8, 255])
/// });
/// let colour = encode_png(&img).unwrap();
/// let grey = encode_png(&apply(&Filter::Greyscale, &img).unwrap()).unwrap();
/// let red = encode_png(&apply(&Filter::Red, &img).unwrap()).unwrap();
/// assert_eq!(&grey[..8], b"\x89PNG\r\n\x1a\n");
/// assert_eq!(grey[25], 0, "colour type 0: greyscale");
/// assert_eq!(red[25], 3, "colour type 3: indexed by the red channel");
/// assert_eq!(colour[25], 2, "colour type 2: RGB (opaque)");
/// ```
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let (w, h) = img.dimensions();
    check_size(w, h)?;
    let raw = img.as_raw();
    let (grey, opaque) = classify(raw);
    let keyed = if grey { None } else { keyed_palette(raw) };
    let (colour, data, palette): (ColourType, std::borrow::Cow<'_, [u8]>, _) =
        match (grey, opaque, keyed) {
            (true, true, _) => (ColourType::Grey, repack::<1>(raw, [0]).into(), None),
            (true, false, _) => (ColourType::GreyAlpha, repack::<2>(raw, [0, 3]).into(), None),
            (false, _, Some((key, table))) => {
                let indices = match table.spare {
                    Some(spare) => raw
                        .chunks_exact(4)
                        .map(|p| if p[3] == 0 { spare } else { p[key] })
                        .collect(),
                    None => repack::<1>(raw, [key]),
                };
                (ColourType::Indexed, indices.into(), Some(table))
            }
            (false, true, None) => (ColourType::Rgb, repack::<3>(raw, [0, 1, 2]).into(), None),
            (false, false, None) => (ColourType::Rgba, raw.as_slice().into(), None),
        };
    let bpp = match colour {
        ColourType::Grey | ColourType::Indexed => 1,
        ColourType::GreyAlpha => 2,
        ColourType::Rgb => 3,
        ColourType::Rgba => 4,
    };
    let mut out = Vec::with_capacity(data.len() / 2 + 1024);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&w.to_be_bytes());
    ihdr[4..8].copy_from_slice(&h.to_be_bytes());
    // Bit depth 8, the colour type, deflate, adaptive filtering, no
    // interlace.
    ihdr[8..].copy_from_slice(&[8, colour as u8, 0, 0, 0]);
    chunk(&mut out, b"IHDR", |c| c.extend_from_slice(&ihdr))?;
    if let Some(table) = &palette {
        chunk(&mut out, b"PLTE", |c| c.extend_from_slice(&table.rgb()))?;
        if let Some(alpha) = table.trns() {
            chunk(&mut out, b"tRNS", |c| c.extend_from_slice(&alpha))?;
        }
    }
    let stride = w as usize * bpp;
    chunk(&mut out, b"IDAT", |c| {
        crate::deflate::png_image_data(&data, stride, bpp, c);
    })?;
    chunk(&mut out, b"IEND", |_| ())?;
    Ok(out)
}

/// PNG colour types (the `IHDR` field's values).
#[derive(Debug, Clone, Copy)]
enum ColourType {
    Grey = 0,
    Rgb = 2,
    Indexed = 3,
    GreyAlpha = 4,
    Rgba = 6,
}

/// Appends a PNG chunk: its length, type, the data `fill` appends, and the
/// CRC of type and data.
fn chunk(
    out: &mut Vec<u8>,
    kind: &[u8; 4],
    fill: impl FnOnce(&mut Vec<u8>),
) -> Result<(), RenderError> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(kind);
    fill(out);
    // At most 2^31 − 1 bytes (the PNG spec); MAX_PIXELS keeps images far
    // below that.
    let len = u32::try_from(out.len() - start - 8)
        .ok()
        .filter(|&n| n < 1 << 31)
        .ok_or_else(|| RenderError::Encode("image data too large for one PNG chunk".into()))?;
    out[start..start + 4].copy_from_slice(&len.to_be_bytes());
    let crc = crc32fast::hash(&out[start + 4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    Ok(())
}

/// A palette indexed by one channel's value: `entries[v]` is the whole
/// pixel (RGBA) of every pixel whose key channel is `v`.
#[derive(Debug)]
struct KeyedPalette {
    entries: Vec<[u8; 4]>,
    /// The index of every fully transparent pixel, if there are any.
    spare: Option<u8>,
}

impl KeyedPalette {
    /// The `PLTE` chunk: RGB triples up to the highest index used.
    fn rgb(&self) -> Vec<u8> {
        self.entries
            .iter()
            .flat_map(|e| [e[0], e[1], e[2]])
            .collect()
    }

    /// The `tRNS` chunk, when some entry is not opaque: alpha values up to
    /// the last non-opaque entry.
    fn trns(&self) -> Option<Vec<u8>> {
        let last = self.entries.iter().rposition(|e| e[3] != 255)?;
        Some(self.entries[..=last].iter().map(|e| e[3]).collect())
    }
}

/// Finds a colour channel whose value determines the whole visible pixel
/// (the other two channels and alpha), and the palette that maps each of
/// its values to that pixel. Fully transparent pixels take no part in the
/// choice: they all share one spare index whose entry is transparent black.
/// `None` when no channel does (a full-colour image is usually ruled out
/// within its first few thousand pixels) or when transparent pixels leave
/// no spare index.
fn keyed_palette(raw: &[u8]) -> Option<(usize, KeyedPalette)> {
    // One table per candidate key channel: the packed RGBA first seen for
    // each key value (`seen` tells which slots were written).
    let mut tables = [[0u32; 256]; 3];
    let mut seen = [[false; 256]; 3];
    let mut alive = [true; 3];
    let mut transparent = false;
    for chunk in raw.chunks(4 * 1024) {
        for p in chunk.chunks_exact(4) {
            if p[3] == 0 {
                transparent = true;
                continue;
            }
            let packed = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            for key in 0..3 {
                if !alive[key] {
                    continue;
                }
                let v = usize::from(p[key]);
                if seen[key][v] {
                    alive[key] &= tables[key][v] == packed;
                } else {
                    seen[key][v] = true;
                    tables[key][v] = packed;
                }
            }
        }
        if alive == [false; 3] {
            return None;
        }
    }
    let key = alive.iter().position(|&a| a)?;
    let spare = if transparent {
        Some(seen[key].iter().position(|&s| !s)?)
    } else {
        None
    };
    let used = seen[key]
        .iter()
        .rposition(|&s| s)
        .max(spare)
        .map_or(1, |i| i + 1);
    let entries = (0..used)
        .map(|v| match (seen[key][v], Some(v) == spare) {
            (true, _) => tables[key][v].to_le_bytes(),
            (false, true) => [0, 0, 0, 0],
            (false, false) => [0, 0, 0, 255],
        })
        .collect();
    Some((
        key,
        KeyedPalette {
            entries,
            // Below 256: a key value.
            spare: spare.and_then(|i| u8::try_from(i).ok()),
        },
    ))
}

/// The channels `pick` of every RGBA pixel, `N` bytes a pixel, into a
/// buffer sized up front (a `flat_map(..).collect()` grows by doubling and
/// does not vectorise).
fn repack<const N: usize>(raw: &[u8], pick: [usize; N]) -> Vec<u8> {
    let mut out = vec![0u8; raw.len() / 4 * N];
    for (d, p) in out.chunks_exact_mut(N).zip(raw.chunks_exact(4)) {
        for (slot, &c) in d.iter_mut().zip(&pick) {
            *slot = p[c];
        }
    }
    out
}

/// Whether every pixel is grey (r = g = b) and whether every pixel is opaque.
fn classify(raw: &[u8]) -> (bool, bool) {
    let mut grey = true;
    let mut opaque = true;
    // Chunked so the common "neither" case stops early.
    for chunk in raw.chunks(4 * 1024) {
        for p in chunk.chunks_exact(4) {
            // `&`, not `&&`: no branch, so the loop vectorises.
            grey &= (p[0] == p[1]) & (p[1] == p[2]);
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
    fn one_channel_images_are_indexed_and_transparent_pixels_become_transparent_black() {
        // The `red` filter's shape: the value in one channel, the others 0,
        // some pixels semi-transparent with their own palette entry, some
        // fully transparent with leftover colour.
        let img = RgbaImage::from_fn(40, 30, |x, y| {
            let v = ((x * 5 + y * 3) % 200) as u8;
            match (x, y) {
                (0, _) => image::Rgba([v, 0, 0, 0]),
                _ => image::Rgba([v, 0, 0, 255]),
            }
        });
        let bytes = encode_png(&img).unwrap();
        assert_eq!(bytes[25], 3, "colour type 3: indexed");
        let back = decode(&bytes);
        for (x, y, p) in back.enumerate_pixels() {
            let want = if x == 0 {
                [0, 0, 0, 0]
            } else {
                img.get_pixel(x, y).0
            };
            assert_eq!(p.0, want, "pixel {x},{y}");
        }
        // Opaque and keyed by the green channel: no tRNS, exact.
        let green = RgbaImage::from_fn(16, 16, |x, y| image::Rgba([0, (x * 16 + y) as u8, 0, 255]));
        let bytes = encode_png(&green).unwrap();
        assert_eq!(bytes[25], 3);
        assert_eq!(decode(&bytes), green);
        // Two colours sharing every channel's value: not keyable, RGB.
        let mixed = RgbaImage::from_fn(2, 1, |x, _| {
            image::Rgba(if x == 0 {
                [1, 2, 3, 255]
            } else {
                [1, 2, 4, 255]
            })
        });
        let mixed2 = RgbaImage::from_fn(3, 1, |x, _| {
            image::Rgba([[1, 2, 3, 255], [1, 5, 4, 255], [7, 2, 4, 255]][x as usize])
        });
        assert_eq!(encode_png(&mixed).unwrap()[25], 3, "keyed by blue");
        assert_eq!(encode_png(&mixed2).unwrap()[25], 2, "no channel keys it");
        assert_eq!(decode(&encode_png(&mixed2).unwrap()), mixed2);
    }

    #[test]
    fn empty_images_are_rejected() {
        assert_eq!(
            encode_png(&RgbaImage::new(0, 0)),
            Err(RenderError::EmptyImage)
        );
    }
}
