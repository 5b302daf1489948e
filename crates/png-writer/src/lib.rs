//! A fast PNG encoder for 8-bit RGBA pixels.
//!
//! One function, [`encode_rgba`]: width, height and the pixels as RGBA bytes
//! (row by row, four bytes a pixel, straight alpha, as `image::RgbaImage`
//! holds them) in, a complete PNG file out. No `unsafe`, no IO, three small
//! dependencies (`crc32fast`, `simd-adler32`, `multiversion`). [`Encoder`]
//! writes the same bytes into a buffer of the caller's, keeping its working
//! buffers from one image to the next.
//!
//! ```
//! // A 64 × 64 gradient.
//! let (w, h) = (64u32, 64u32);
//! let mut rgba = Vec::with_capacity((w * h * 4) as usize);
//! for y in 0..h {
//!     for x in 0..w {
//!         rgba.extend_from_slice(&[(x * 4) as u8, (y * 4) as u8, 128, 255]);
//!     }
//! }
//! let png = png_writer::encode_rgba(w, h, &rgba).unwrap();
//! assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
//! assert_eq!(png[25], 2, "colour type 2: RGB, since every pixel is opaque");
//! ```
//!
//! With the `image` crate: `png_writer::encode_rgba(img.width(),
//! img.height(), img.as_raw())` for an `RgbaImage` `img`.
//!
//! # What it writes
//!
//! The smallest colour type that holds the pixels, one byte a pixel
//! whenever it can be:
//!
//! - greyscale when every visible pixel is grey and every pixel is opaque
//!   (greyscale + alpha when grey but not opaque);
//! - indexed (a palette, with a `tRNS` chunk when some pixel is not opaque)
//!   when one colour channel determines the whole pixel, as in an image
//!   that uses only the red channel: the palette is indexed by that
//!   channel's value;
//! - otherwise, unless the image is opaque grey, indexed when it has at
//!   most 256 colours (fully transparent pixels counting as one), at 1, 2, 4
//!   or 8 bits a pixel for at most 2, 4, 16 or 256 colours, the palette in
//!   the order the colours are first met (every eighth row first, then the
//!   rest), as a thresholded picture with an anti-aliased edge or flat art
//!   has;
//! - otherwise RGB when every pixel is opaque, else RGBA.
//!
//! One byte a pixel instead of three or four makes the file both smaller
//! and several times faster to compress. Every scanline is Paeth-filtered
//! (on a greyscale image, one filter for the whole image, or one chosen per
//! scanline, when a sample of its scanlines shows that cheaper) and
//! compressed by the crate's own deflate: a Huffman code made for the
//! image, literals, and runs of zeros as copies, in the manner of
//! [fdeflate](https://crates.io/crates/fdeflate) (the `png` crate's fast
//! mode) but faster and about a tenth smaller on photographs; its hot loops
//! are compiled for AVX2/BMI2 (x86-64) or NEON (aarch64) and chosen at run
//! time. The output is an ordinary PNG that every decoder reads.
//!
//! # Lossless, except for invisible colour
//!
//! Every pixel with a non-zero alpha decodes exactly as given. A fully
//! transparent pixel (alpha 0) is written as transparent black
//! `[0, 0, 0, 0]`, whatever its colour channels held: they are invisible,
//! but they would still take space in the file and could be recovered by
//! anyone who drops the alpha channel (a circle cut out of a square photo
//! would otherwise still carry the whole square).
#![warn(missing_docs)]

mod deflate;

/// The README's example, compiled and run as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

use std::fmt;

/// Why an image could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The width or the height is zero.
    EmptyImage,
    /// The pixel buffer's length is not `width × height × 4`.
    BufferSize {
        /// `width × height × 4`.
        expected: u64,
        /// The length given.
        actual: usize,
    },
    /// The image is larger than one PNG can hold (a side over 2³¹ − 1, or
    /// compressed data over 2³¹ − 1 bytes).
    TooLarge {
        /// Width of the image.
        width: u32,
        /// Height of the image.
        height: u32,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::EmptyImage => f.write_str("image has no pixels"),
            EncodeError::BufferSize { expected, actual } => write!(
                f,
                "pixel buffer holds {actual} bytes, width × height × 4 is {expected}"
            ),
            EncodeError::TooLarge { width, height } => {
                write!(f, "image of {width}x{height} pixels is too large for a PNG")
            }
        }
    }
}

impl std::error::Error for EncodeError {}

/// The largest width or height, and chunk length, a PNG allows.
const PNG_MAX: u32 = (1 << 31) - 1;

/// Encodes `width` × `height` RGBA pixels (`rgba`: four bytes a pixel, row
/// by row, straight alpha) as a PNG file.
///
/// See the [crate documentation](crate) for the colour type chosen and for
/// what happens to fully transparent pixels.
///
/// ```
/// use png_writer::{encode_rgba, EncodeError};
///
/// // Grey: stored as one byte a pixel.
/// let grey = [[90u8, 90, 90, 255]; 16].concat();
/// assert_eq!(encode_rgba(4, 4, &grey).unwrap()[25], 0, "colour type 0: greyscale");
/// // Only the red channel varies: a palette indexed by it.
/// let red: Vec<u8> = (0..16u8).flat_map(|i| [i * 16, 0, 0, 255]).collect();
/// assert_eq!(encode_rgba(4, 4, &red).unwrap()[25], 3, "colour type 3: indexed");
///
/// assert_eq!(encode_rgba(0, 4, &[]), Err(EncodeError::EmptyImage));
/// assert!(matches!(encode_rgba(4, 4, &grey[..60]), Err(EncodeError::BufferSize { .. })));
/// ```
pub fn encode_rgba(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    Encoder::new().encode_rgba_into(width, height, rgba, &mut out)?;
    Ok(out)
}

/// An encoder that keeps its working buffers (the copy without hidden
/// colour and the repacked pixels, up to one image's size each, and the
/// deflate's 256 KiB code table) from one image to the next, so a program encoding many images does not allocate
/// and fault in fresh image-sized buffers for each.
/// [`encode_rgba_into`](Encoder::encode_rgba_into) writes exactly the bytes
/// [`encode_rgba`] returns.
///
/// ```
/// let mut encoder = png_writer::Encoder::new();
/// let mut png = Vec::new();
/// for shade in [0u8, 128, 255] {
///     let rgba = [shade, 40, 90, 255].repeat(16 * 16);
///     encoder.encode_rgba_into(16, 16, &rgba, &mut png).unwrap();
///     assert_eq!(png, png_writer::encode_rgba(16, 16, &rgba).unwrap());
/// }
/// assert!(encoder.retained_bytes() > 0);
/// ```
#[derive(Debug, Default)]
pub struct Encoder {
    /// The pixels with the colour of fully transparent pixels cleared.
    visible: Vec<u8>,
    /// The pixels in the chosen colour type.
    packed: Vec<u8>,
    /// The deflate's working memory.
    deflate: deflate::Scratch,
}

impl Encoder {
    /// An encoder with no buffers yet.
    pub const fn new() -> Self {
        Self {
            visible: Vec::new(),
            packed: Vec::new(),
            deflate: deflate::Scratch::new(),
        }
    }

    /// Bytes of working buffers the encoder holds between images.
    pub fn retained_bytes(&self) -> usize {
        self.visible.capacity() + self.packed.capacity() + self.deflate.retained_bytes()
    }

    /// Encodes like [`encode_rgba`], replacing the contents of `out` by the
    /// PNG file (`out`'s capacity is reused). On an error `out` is left
    /// empty.
    pub fn encode_rgba_into(
        &mut self,
        width: u32,
        height: u32,
        rgba: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        out.clear();
        check_size(width, height, rgba.len())?;
        let (grey, opaque) = classify(rgba);
        // Opaque pixels hide nothing; otherwise fully transparent pixels
        // become transparent black before any colour type is chosen.
        let raw: &[u8] = if opaque || !without_hidden_colour(rgba, &mut self.visible) {
            rgba
        } else {
            &self.visible
        };
        let (packed, deflate) = (&mut self.packed, &mut self.deflate);
        encode_visible((width, height), raw, (grey, opaque), packed, deflate, out)
    }

    /// Encodes like [`encode_rgba_into`](Encoder::encode_rgba_into) (the
    /// same bytes), but clears the colour of fully transparent pixels in
    /// `rgba` itself rather than in a copy: for a caller that owns the
    /// pixels and has no further use for what alpha 0 hides, one pass over
    /// the image fewer and no image-sized copy. Visible pixels are left as
    /// they are.
    ///
    /// ```
    /// let mut rgba = [[200u8, 10, 30, 0], [1, 2, 3, 255]].concat();
    /// let mut png = Vec::new();
    /// png_writer::Encoder::new()
    ///     .encode_rgba_in_place_into(2, 1, &mut rgba, &mut png)
    ///     .unwrap();
    /// assert_eq!(rgba, [0, 0, 0, 0, 1, 2, 3, 255]);
    /// assert_eq!(png, png_writer::encode_rgba(2, 1, &[[200u8, 10, 30, 0], [1, 2, 3, 255]].concat()).unwrap());
    /// ```
    pub fn encode_rgba_in_place_into(
        &mut self,
        width: u32,
        height: u32,
        rgba: &mut [u8],
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        out.clear();
        check_size(width, height, rgba.len())?;
        let (grey, opaque) = classify(rgba);
        if !opaque {
            clear_hidden_colour(rgba);
        }
        let (packed, deflate) = (&mut self.packed, &mut self.deflate);
        encode_visible((width, height), rgba, (grey, opaque), packed, deflate, out)
    }
}

/// Checks the size of an image of `len` bytes of RGBA pixels.
fn check_size(w: u32, h: u32, len: usize) -> Result<(), EncodeError> {
    if w == 0 || h == 0 {
        return Err(EncodeError::EmptyImage);
    }
    // Saturates only for sizes no buffer can have.
    let expected = (u64::from(w) * u64::from(h)).saturating_mul(4);
    if usize::try_from(expected).ok() != Some(len) {
        return Err(EncodeError::BufferSize {
            expected,
            actual: len,
        });
    }
    if w > PNG_MAX || h > PNG_MAX {
        return Err(EncodeError::TooLarge {
            width: w,
            height: h,
        });
    }
    Ok(())
}

/// Encodes `raw`, pixels of which none fully transparent carries colour,
/// classified as `(grey, opaque)`, into `out`.
fn encode_visible(
    (w, h): (u32, u32),
    raw: &[u8],
    (grey, opaque): (bool, bool),
    packed: &mut Vec<u8>,
    deflate: &mut deflate::Scratch,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let keyed = if grey { None } else { keyed_palette(raw) };
    // Few colours (a thresholded or flat picture with an anti-aliased
    // edge): indices, 1 to 8 bits a pixel. An opaque grey picture is
    // already one byte a pixel and keeps its type.
    if keyed.is_none()
        && !(grey && opaque)
        && let Some(table) = small_palette(raw, w as usize, packed)
    {
        let bits = table.bits;
        out.reserve(packed.len() / 2 + 1024);
        let stride = (w as usize * usize::from(bits)).div_ceil(8);
        let written = write_png(
            out,
            w,
            h,
            (ColourType::Indexed, bits),
            (packed, stride, 1),
            &table,
            deflate,
        );
        if written.is_none() {
            out.clear();
            return Err(EncodeError::TooLarge {
                width: w,
                height: h,
            });
        }
        return Ok(());
    }
    let (colour, data, palette): (ColourType, &[u8], _) = match (grey, opaque, keyed) {
        (true, true, _) => (ColourType::Grey, repack::<1>(raw, [0], packed), None),
        (true, false, _) => (
            ColourType::GreyAlpha,
            repack::<2>(raw, [0, 3], packed),
            None,
        ),
        (false, _, Some((key, table))) => {
            let indices = match table.spare {
                Some(spare) => {
                    packed.clear();
                    packed.extend(
                        raw.chunks_exact(4)
                            .map(|p| if p[3] == 0 { spare } else { p[key] }),
                    );
                    &packed[..]
                }
                None => repack::<1>(raw, [key], packed),
            };
            (ColourType::Indexed, indices, Some(table))
        }
        (false, true, None) => (ColourType::Rgb, repack_rgb(raw, packed), None),
        (false, false, None) => (ColourType::Rgba, raw, None),
    };
    let bpp = match colour {
        ColourType::Grey | ColourType::Indexed => 1,
        ColourType::GreyAlpha => 2,
        ColourType::Rgb => 3,
        ColourType::Rgba => 4,
    };
    let too_large = EncodeError::TooLarge {
        width: w,
        height: h,
    };
    out.reserve(data.len() / 2 + 1024);
    let palette = palette.map(|p| p.entries);
    let written = write_png(
        out,
        w,
        h,
        (colour, 8),
        (data, w as usize * bpp, bpp),
        palette.as_deref().unwrap_or(&[]),
        deflate,
    );
    if written.is_none() {
        out.clear();
        return Err(too_large);
    }
    Ok(())
}

/// Writes the PNG file's chunks (`PLTE` and `tRNS` from `palette` when
/// it is not empty) for `data`, scanlines of `stride` bytes, `bpp` bytes
/// a pixel; `None` when one is longer than a chunk may be.
fn write_png(
    out: &mut Vec<u8>,
    w: u32,
    h: u32,
    (colour, depth): (ColourType, u8),
    (data, stride, bpp): (&[u8], usize, usize),
    palette: &[[u8; 4]],
    scratch: &mut deflate::Scratch,
) -> Option<()> {
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&w.to_be_bytes());
    ihdr[4..8].copy_from_slice(&h.to_be_bytes());
    // The bit depth, the colour type, deflate, adaptive filtering, no
    // interlace.
    ihdr[8..].copy_from_slice(&[depth, colour as u8, 0, 0, 0]);
    chunk(out, b"IHDR", |c| c.extend_from_slice(&ihdr))?;
    if !palette.is_empty() {
        chunk(out, b"PLTE", |c| {
            c.extend(palette.iter().flat_map(|e| [e[0], e[1], e[2]]));
        })?;
        // Alpha values up to the last entry that is not opaque.
        if let Some(last) = palette.iter().rposition(|e| e[3] != 255) {
            chunk(out, b"tRNS", |c| {
                c.extend(palette[..=last].iter().map(|e| e[3]));
            })?;
        }
    }
    chunk(out, b"IDAT", |c| {
        // Grey images are photographs or made from them, where a filter
        // chosen per scanline may pay; colour ones include drawn cards,
        // where it costs time and bytes, and a sample of scanlines does not
        // tell the two apart reliably enough.
        let may_choose = matches!(colour, ColourType::Grey | ColourType::GreyAlpha);
        deflate::png_image_data(data, stride, bpp, may_choose, scratch, c);
    })?;
    chunk(out, b"IEND", |_| ())
}

/// The palette of an image of at most 256 colours (fully transparent
/// pixels, already transparent black, count as one of them) and its
/// indices written to `indices`: `bits` (1, 2, 4 or 8) a pixel, each row of
/// `width` pixels starting on a byte, as PNG packs them. `None`, with
/// `indices` left holding anything, when there are more colours: every
/// eighth row is looked at first, so a photograph is ruled out within a
/// few hundred of its pixels wherever its colours vary.
fn small_palette(raw: &[u8], width: usize, indices: &mut Vec<u8>) -> Option<SmallPalette> {
    let mut table = ColourTable::new();
    // Runs of each colour in the sample: the colours met most often.
    let mut runs = [0u32; 256];
    let row = width * 4;
    for sample in raw.chunks(row).step_by(8) {
        let mut last = None;
        for p in sample.chunks_exact(4) {
            let key = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            if last != Some(key) {
                runs[usize::from(table.index(key)?)] += 1;
                last = Some(key);
            }
        }
    }
    let common = CommonColours::new(&table, &runs);
    indices.clear();
    indices.resize(raw.len() / 4, 0);
    let mut blocks = raw.chunks_exact(4 * COMMON_BLOCK);
    let mut outs = indices.chunks_exact_mut(COMMON_BLOCK);
    let mut last = None;
    for (p, o) in (&mut blocks).zip(&mut outs) {
        let block = (
            p.try_into().expect("a block"),
            o.try_into().expect("a block"),
        );
        if !common.block(block.0, block.1) {
            indices_by_table(&mut table, &mut last, p, o)?;
        }
    }
    indices_by_table(
        &mut table,
        &mut last,
        blocks.remainder(),
        outs.into_remainder(),
    )?;
    let entries = table.entries;
    let bits: u8 = match entries.len() {
        0..=2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        _ => 8,
    };
    if bits < 8 {
        // Packed in place: each packed row is shorter than the row it is
        // made from, and starts no later.
        let per_byte = 8 / usize::from(bits);
        let stride = width.div_ceil(per_byte);
        let rows = indices.len() / width;
        for y in 0..rows {
            for x in 0..stride {
                let mut byte = 0u8;
                for k in 0..per_byte {
                    let i = y * width + x * per_byte + k;
                    let v = if x * per_byte + k < width {
                        indices[i]
                    } else {
                        0
                    };
                    byte |= v << (8 - usize::from(bits) * (k + 1));
                }
                indices[y * stride + x] = byte;
            }
        }
        indices.truncate(rows * stride);
    }
    Some(SmallPalette { entries, bits })
}

/// The colours of an image (RGBA as a `u32`) and their indices, in the
/// order they were first looked up: open addressing in 1024 slots.
struct ColourTable {
    keys: [u32; 1024],
    values: [u8; 1024],
    used: [bool; 1024],
    entries: Vec<[u8; 4]>,
}

impl ColourTable {
    fn new() -> ColourTable {
        ColourTable {
            keys: [0; 1024],
            values: [0; 1024],
            used: [false; 1024],
            entries: Vec::with_capacity(256),
        }
    }

    /// The index of `key`, given one if it is new; `None` for a 257th.
    #[inline]
    fn index(&mut self, key: u32) -> Option<u8> {
        let mut slot = (key.wrapping_mul(0x9E37_79B1) >> 22) as usize;
        loop {
            if !self.used[slot] {
                let i = u8::try_from(self.entries.len()).ok()?;
                self.used[slot] = true;
                self.keys[slot] = key;
                self.values[slot] = i;
                self.entries.push(key.to_le_bytes());
                return Some(i);
            }
            if self.keys[slot] == key {
                return Some(self.values[slot]);
            }
            slot = (slot + 1) % 1024;
        }
    }
}

/// Pixels looked up together by [`CommonColours::block`].
const COMMON_BLOCK: usize = 16;

/// The indices of the pixels `p` into `out` from `table`, a lookup only
/// where the colour changes (`last`: the last colour and its index);
/// `None` for a 257th colour.
fn indices_by_table(
    table: &mut ColourTable,
    last: &mut Option<(u32, u8)>,
    p: &[u8],
    out: &mut [u8],
) -> Option<()> {
    for (q, slot) in p.chunks_exact(4).zip(out) {
        let key = u32::from_le_bytes([q[0], q[1], q[2], q[3]]);
        *slot = match *last {
            Some((k, i)) if k == key => i,
            _ => {
                let i = table.index(key)?;
                *last = Some((key, i));
                i
            }
        };
    }
    Some(())
}

/// The four colours met in the most runs of the sampled rows (fewer when
/// there are fewer, the first repeated in the spare places) and their
/// indices: in a thresholded picture black, white and transparent black
/// hold nearly every pixel, but alternate too often for a lookup at each
/// change of colour to be cheap.
struct CommonColours {
    keys: [u32; 4],
    indices: [u8; 4],
}

impl CommonColours {
    fn new(table: &ColourTable, runs: &[u32; 256]) -> Self {
        let mut order: Vec<usize> = (0..table.entries.len()).collect();
        // Most runs first; the earlier colour first among equals.
        order.sort_by_key(|&i| (std::cmp::Reverse(runs[i]), i));
        let pick = |k: usize| order.get(k).or(order.first()).copied().unwrap_or(0);
        let at = |i: usize| table.entries.get(i).map_or(0, |e| u32::from_le_bytes(*e));
        Self {
            keys: std::array::from_fn(|k| at(pick(k))),
            // At most 256 entries: every index fits a byte.
            indices: std::array::from_fn(|k| pick(k) as u8),
        }
    }

    /// The indices of a block of pixels into `out`, without branches, so
    /// that it runs in vector lanes; `false` when some pixel is none of the
    /// four colours (`out` then holds anything).
    #[inline(always)]
    fn block(&self, p: &[u8; 4 * COMMON_BLOCK], out: &mut [u8; COMMON_BLOCK]) -> bool {
        let mut all = true;
        for (q, slot) in p.chunks_exact(4).zip(out.iter_mut()) {
            let key = u32::from_le_bytes([q[0], q[1], q[2], q[3]]);
            let mut index = 0u8;
            let mut hit = false;
            for (&k, &i) in self.keys.iter().zip(&self.indices) {
                let same = key == k;
                // A colour repeated in a spare place has the same index.
                index |= i & 0u8.wrapping_sub(u8::from(same));
                hit |= same;
            }
            *slot = index;
            all &= hit;
        }
        all
    }
}

/// A palette of at most 256 colours and the bits an index takes.
#[derive(Debug)]
struct SmallPalette {
    entries: Vec<[u8; 4]>,
    bits: u8,
}

impl std::ops::Deref for SmallPalette {
    type Target = [[u8; 4]];
    fn deref(&self) -> &[[u8; 4]] {
        &self.entries
    }
}

/// Whether a fully transparent pixel carries colour: `|`-combined a
/// pixel at a time without branches, so that the loop runs in vector
/// lanes.
#[inline(always)]
fn hides_colour(pixels: &[u8]) -> bool {
    let mut hidden = false;
    for p in pixels.chunks_exact(4) {
        hidden |= (p[3] == 0) & ((p[0] | p[1] | p[2]) != 0);
    }
    hidden
}

/// Makes every fully transparent pixel of `pixels` transparent black.
#[inline(always)]
fn clear_colour_under_alpha_0(pixels: &mut [u8]) {
    for p in pixels.chunks_exact_mut(4) {
        // Branch-free, so the loop vectorises: keep the colour where
        // alpha is not zero.
        let keep = if p[3] == 0 { 0 } else { 0xff };
        p[0] &= keep;
        p[1] &= keep;
        p[2] &= keep;
    }
}

/// Pieces of an image looked at by [`clear_hidden_colour`] and
/// [`without_hidden_colour`] (1024 pixels).
const HIDDEN_PIECE: usize = 4 * 1024;

/// Makes every fully transparent pixel of `rgba` transparent black, in
/// place; only the pieces where one carries colour are written.
fn clear_hidden_colour(rgba: &mut [u8]) {
    for piece in rgba.chunks_mut(HIDDEN_PIECE) {
        if hides_colour(piece) {
            clear_colour_under_alpha_0(piece);
        }
    }
}

/// When some fully transparent pixel of `raw` carries colour, copies `raw`
/// into `visible` with every such pixel made transparent black and returns
/// `true`; else returns `false` and leaves `visible` as it was.
fn without_hidden_colour(raw: &[u8], visible: &mut Vec<u8>) -> bool {
    let Some(first) = raw.chunks(HIDDEN_PIECE).position(hides_colour) else {
        return false;
    };
    visible.clear();
    visible.extend_from_slice(raw);
    clear_hidden_colour(&mut visible[first * HIDDEN_PIECE..]);
    true
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
/// `None` when the data is longer than a chunk may be.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], fill: impl FnOnce(&mut Vec<u8>)) -> Option<()> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(kind);
    fill(out);
    // At most 2^31 − 1 bytes (the PNG spec).
    let len = u32::try_from(out.len() - start - 8)
        .ok()
        .filter(|&n| n <= PNG_MAX)?;
    out[start..start + 4].copy_from_slice(&len.to_be_bytes());
    let crc = crc32fast::hash(&out[start + 4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    Some(())
}

/// A palette indexed by one channel's value: `entries[v]` is the whole
/// pixel (RGBA) of every pixel whose key channel is `v`.
#[derive(Debug)]
struct KeyedPalette {
    entries: Vec<[u8; 4]>,
    /// The index of every fully transparent pixel, if there are any.
    spare: Option<u8>,
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

/// The channels `pick` of every RGBA pixel, `N` bytes a pixel, into `out`,
/// sized up front (a `flat_map(..).collect()` grows by doubling and does
/// not vectorise); every byte is overwritten, so a reused buffer needs no
/// zeroing.
fn repack<'a, const N: usize>(raw: &[u8], pick: [usize; N], out: &'a mut Vec<u8>) -> &'a [u8] {
    out.resize(raw.len() / 4 * N, 0);
    for (d, p) in out.chunks_exact_mut(N).zip(raw.chunks_exact(4)) {
        for (slot, &c) in d.iter_mut().zip(&pick) {
            *slot = p[c];
        }
    }
    out
}

/// The colour channels of every RGBA pixel, three bytes a pixel, into
/// `out`, as [`repack`] with `[0, 1, 2]` but four pixels (three `u32`s) at
/// a time, several times faster than a byte at a time.
fn repack_rgb<'a>(raw: &[u8], out: &'a mut Vec<u8>) -> &'a [u8] {
    out.resize(raw.len() / 4 * 3, 0);
    let mut dst = out.chunks_exact_mut(12);
    let mut src = raw.chunks_exact(16);
    for (d, s) in (&mut dst).zip(&mut src) {
        let px = |i: usize| u32::from_le_bytes([s[i], s[i + 1], s[i + 2], s[i + 3]]);
        let (p0, p1, p2, p3) = (px(0), px(4), px(8), px(12));
        let words = [
            p0 & 0x00ff_ffff | p1 << 24,
            (p1 >> 8) & 0xffff | p2 << 16,
            (p2 >> 16) & 0xff | p3 << 8,
        ];
        for (d, w) in d.chunks_exact_mut(4).zip(words) {
            d.copy_from_slice(&w.to_le_bytes());
        }
    }
    for (d, s) in dst
        .into_remainder()
        .chunks_exact_mut(3)
        .zip(src.remainder().chunks_exact(4))
    {
        d.copy_from_slice(&s[..3]);
    }
    out
}

/// Whether every visible pixel is grey (r = g = b; fully transparent pixels
/// count as grey, since they are written as transparent black) and whether
/// every pixel is opaque.
fn classify(raw: &[u8]) -> (bool, bool) {
    let mut grey = true;
    let mut opaque = true;
    // Chunked so the common "neither" case stops early.
    for chunk in raw.chunks(4 * 1024) {
        for p in chunk.chunks_exact(4) {
            // `&`, not `&&`: no branch, so the loop vectorises.
            grey &= ((p[0] == p[1]) & (p[1] == p[2])) | (p[3] == 0);
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

    /// An RGBA image for the tests: width, height, pixels.
    struct Img {
        w: u32,
        h: u32,
        px: Vec<[u8; 4]>,
    }

    impl Img {
        fn from_fn(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Img {
            let px = (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .map(|(x, y)| f(x, y));
            Img {
                w,
                h,
                px: px.collect(),
            }
        }

        fn encode(&self) -> Vec<u8> {
            encode_rgba(self.w, self.h, &self.px.concat()).unwrap()
        }
    }

    /// Decodes with the `png` crate, expanded to RGBA.
    fn decode(png_bytes: &[u8]) -> Vec<[u8; 4]> {
        let mut dec = png::Decoder::new(png_bytes);
        dec.set_transformations(png::Transformations::EXPAND);
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let bytes = &buf[..info.buffer_size()];
        match info.color_type {
            png::ColorType::Grayscale => bytes.iter().map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::GrayscaleAlpha => bytes
                .chunks_exact(2)
                .map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
            png::ColorType::Rgb => bytes
                .chunks_exact(3)
                .map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            png::ColorType::Rgba => bytes
                .chunks_exact(4)
                .map(|p| [p[0], p[1], p[2], p[3]])
                .collect(),
            png::ColorType::Indexed => unreachable!("expanded"),
        }
    }

    /// What a pixel decodes as: itself, or transparent black when invisible.
    fn visible(p: [u8; 4]) -> [u8; 4] {
        if p[3] == 0 { [0; 4] } else { p }
    }

    #[test]
    fn every_colour_type_round_trips() {
        let base = |x: u32, y: u32| {
            [
                (x * 7) as u8,
                (y * 11) as u8,
                (x * y) as u8,
                (x + y * 3) as u8,
            ]
        };
        let variants: [fn([u8; 4]) -> [u8; 4]; 4] = [
            |p| [p[0], p[0], p[0], 255],
            |p| [p[0], p[0], p[0], p[3]],
            |p| [p[0], p[1], p[2], 255],
            |p| p,
        ];
        for (i, f) in variants.into_iter().enumerate() {
            let img = Img::from_fn(37, 23, |x, y| f(base(x, y)));
            let bytes = img.encode();
            assert_eq!(bytes[25], [0, 4, 2, 6][i], "colour type of variant {i}");
            let want: Vec<_> = img.px.iter().map(|&p| visible(p)).collect();
            assert_eq!(decode(&bytes), want, "variant {i}");
        }
    }

    /// The filter type of every scanline of a PNG of `bpp` bytes a pixel.
    fn filter_types(png_bytes: &[u8], bpp: usize) -> Vec<u8> {
        use std::io::Read;
        let w = u32::from_be_bytes(png_bytes[16..20].try_into().unwrap()) as usize;
        let mut idat = Vec::new();
        let mut at = 8;
        while at < png_bytes.len() {
            let len = u32::from_be_bytes(png_bytes[at..at + 4].try_into().unwrap()) as usize;
            if &png_bytes[at + 4..at + 8] == b"IDAT" {
                idat.extend_from_slice(&png_bytes[at + 8..at + 8 + len]);
            }
            at += len + 12;
        }
        let mut stream = Vec::new();
        flate2::read::ZlibDecoder::new(&idat[..])
            .read_to_end(&mut stream)
            .unwrap();
        stream.chunks_exact(w * bpp + 1).map(|l| l[0]).collect()
    }

    #[test]
    fn smooth_grey_images_get_a_better_filter_than_paeth_colour_ones_do_not() {
        // A smooth shading with a little grain, as a greyscale photograph
        // has: Average leaves fewer residual bits than Paeth.
        let shade = |x: u32, y: u32| {
            let mut grain = (x << 16 | y).wrapping_mul(0x9E37_79B9);
            grain ^= grain >> 15;
            grain = grain.wrapping_mul(0x85EB_CA6B);
            grain ^= grain >> 13;
            let v = 128.0 + 90.0 * (x as f32 / 23.0).sin() * (y as f32 / 31.0).cos();
            (v as i32 + (grain >> 28) as i32 - 8).clamp(0, 255) as u8
        };
        let grey = Img::from_fn(200, 120, |x, y| {
            let g = shade(x, y);
            [g, g, g, 255]
        });
        let bytes = grey.encode();
        assert_eq!(bytes[25], 0, "greyscale");
        let types = filter_types(&bytes, 1);
        assert!(types.iter().any(|&t| t != 4), "{types:?}");
        let want: Vec<_> = grey.px.iter().map(|&p| visible(p)).collect();
        assert_eq!(decode(&bytes), want);
        // The same picture in colour keeps Paeth on every scanline.
        let colour = Img::from_fn(200, 120, |x, y| {
            let [r, g, b, a] = grey.px[(y * 200 + x) as usize];
            [r, g / 2 + (x / 4) as u8, b / 3 + (y / 2) as u8, a]
        });
        let bytes = colour.encode();
        assert_eq!(bytes[25], 2, "RGB");
        assert!(filter_types(&bytes, 3).iter().all(|&t| t == 4));
        assert_eq!(decode(&bytes), colour.px);
    }

    #[test]
    fn one_channel_images_are_indexed_and_transparent_pixels_become_transparent_black() {
        // Only the red channel varies, the others 0; the first column fully
        // transparent with leftover colour.
        let img = Img::from_fn(40, 30, |x, y| {
            let v = ((x * 5 + y * 3) % 200) as u8;
            match x {
                0 => [v, 0, 0, 0],
                _ => [v, 0, 0, 255],
            }
        });
        let bytes = img.encode();
        assert_eq!(bytes[25], 3, "colour type 3: indexed");
        let want: Vec<_> = img.px.iter().map(|&p| visible(p)).collect();
        assert_eq!(decode(&bytes), want);
        // Opaque and keyed by the green channel: no tRNS, exact.
        let green = Img::from_fn(16, 16, |x, y| [0, (x * 16 + y) as u8, 0, 255]);
        let bytes = green.encode();
        assert_eq!(bytes[25], 3);
        assert_eq!(decode(&bytes), green.px);
        // Two colours sharing every channel's value: not keyable, RGB.
        let mixed = Img::from_fn(2, 1, |x, _| [[1, 2, 3, 255], [1, 2, 4, 255]][x as usize]);
        let mixed2 = Img::from_fn(3, 1, |x, _| {
            [[1, 2, 3, 255], [1, 5, 4, 255], [7, 2, 4, 255]][x as usize]
        });
        assert_eq!(mixed.encode()[25], 3, "keyed by blue");
        assert_eq!(
            mixed2.encode()[24..26],
            [2, 3],
            "no channel keys it: a palette of its three colours, two bits each"
        );
        assert_eq!(decode(&mixed2.encode()), mixed2.px);
    }

    #[test]
    fn hidden_colour_is_not_written() {
        // A photo-like square whose outer ring is fully transparent but
        // still holds its colour, as a crop that only lowers alpha leaves it.
        let photo = |x: u32, y: u32| [((x * 3) ^ y) as u8, (y * 5) as u8, (x * y / 7) as u8];
        let inside = |x: u32, y: u32| {
            let (dx, dy) = (x as i32 - 64, y as i32 - 64);
            dx * dx + dy * dy < 50 * 50
        };
        let cropped = Img::from_fn(128, 128, |x, y| {
            let [r, g, b] = photo(x, y);
            [r, g, b, if inside(x, y) { 255 } else { 0 }]
        });
        let cleared = Img::from_fn(128, 128, |x, y| visible(cropped.px[(y * 128 + x) as usize]));
        let bytes = cropped.encode();
        assert_eq!(
            bytes,
            cleared.encode(),
            "the same file as the cleared image"
        );
        let back = decode(&bytes);
        assert!(back.iter().all(|p| p[3] != 0 || *p == [0; 4]));
        // Visible pixels are exact.
        for (got, want) in back.iter().zip(&cropped.px) {
            if want[3] != 0 {
                assert_eq!(got, want);
            }
        }
        // A grey picture (of more than 256 grey and alpha pairs) with a
        // coloured invisible border is stored as grey.
        let grey = Img::from_fn(29, 16, |x, y| match (x, y) {
            (0, _) => [200, 10, 30, 0],
            _ => [
                (x * 9) as u8,
                (x * 9) as u8,
                (x * 9) as u8,
                100 + y as u8 * 5,
            ],
        });
        assert_eq!(grey.encode()[25], 4, "colour type 4: grey + alpha");
    }

    #[test]
    fn few_colours_are_indexed_with_the_fewest_bits() {
        // A thresholded picture: black and white, an anti-aliased alpha edge
        // and a transparent corner carrying colour; widths that leave part
        // of a byte at the end of each row.
        for (colours, depth) in [(2, 1), (3, 2), (15, 4), (200, 8)] {
            for w in [1, 7, 9, 33] {
                // Colours 2k and 2k + 1 differ only in alpha, so that no
                // channel keys them.
                let img = Img::from_fn(w, 11, |x, y| {
                    let i = ((x * 5 + y * 3) % colours) as u8;
                    let v = i / 2;
                    match (x, y) {
                        (0, 0) if colours > 2 => [200, 10, 30, 0],
                        _ => [v, v, v.wrapping_mul(3), 255 - (i & 1) * 40],
                    }
                });
                let bytes = img.encode();
                assert_eq!(bytes[25], 3, "{colours} colours, width {w}: indexed");
                if w == 33 {
                    // Every colour appears, none keyed by a channel.
                    assert_eq!(bytes[24], depth, "{colours} colours and one transparent");
                }
                let want: Vec<_> = img.px.iter().map(|&p| visible(p)).collect();
                assert_eq!(decode(&bytes), want, "{colours} colours, width {w}");
            }
        }
        // 257 colours: not indexed.
        let many = Img::from_fn(257, 2, |x, y| [x as u8, (x >> 8) as u8, y as u8, 200]);
        assert_eq!(many.encode()[25], 6);
        // An opaque grey picture of few levels stays grey, one byte a pixel.
        let grey = Img::from_fn(9, 9, |x, _| {
            let v = (x % 2 * 255) as u8;
            [v, v, v, 255]
        });
        assert_eq!(&grey.encode()[24..26], [8, 0]);
        // And the encoder reused for an image of many colours after one of
        // few writes the same bytes as a fresh one.
        let mut encoder = Encoder::new();
        let mut out = Vec::new();
        for img in [&grey, &many, &grey] {
            encoder
                .encode_rgba_into(img.w, img.h, &img.px.concat(), &mut out)
                .unwrap();
            assert_eq!(out, img.encode());
        }
    }

    #[test]
    fn thresholded_noise_with_rare_colours_round_trips() {
        // Black and white at random, as a thresholded photograph is, a
        // transparent corner carrying colour, and rare colours only in rows
        // the palette's sample skips (odd rows), met inside blocks of the
        // common colours: 8-bit indices, every pixel exact.
        let img = Img::from_fn(203, 61, |x, y| {
            let mut seed = (x << 16 | y).wrapping_mul(0x9E37_79B9);
            seed ^= seed >> 15;
            seed = seed.wrapping_mul(0x85EB_CA6B);
            let v = if seed & 1 == 0 { 0 } else { 255 };
            match (x, y) {
                (0..5, 0..5) => [9, 80, 7, 0],
                _ if y % 2 == 1 && (x * 7 + y) % 97 == 0 => [(x % 40) as u8, 3, 200, 255],
                _ => [v, v, v, 255 - (x == 202) as u8 * 100],
            }
        });
        let bytes = img.encode();
        assert_eq!(&bytes[24..26], [8, 3], "8-bit indices");
        let want: Vec<_> = img.px.iter().map(|&p| visible(p)).collect();
        assert_eq!(decode(&bytes), want);
    }

    #[test]
    fn encoding_in_place_writes_the_same_file_and_clears_only_hidden_colour() {
        // Hidden colour in several of the pieces looked at, and none in
        // others; colour and grey images.
        for grey in [false, true] {
            let img = Img::from_fn(700, 90, |x, y| {
                let v = (x * 3 + y * 5) as u8;
                let colour = if grey {
                    [v, v, v]
                } else {
                    [v, (y * 2) as u8, 90]
                };
                let a = match (x + y * 700) % 5000 {
                    0..40 => 0,
                    40..60 => 128,
                    _ => 255,
                };
                [colour[0], colour[1], colour[2], a]
            });
            let mut rgba = img.px.concat();
            let mut out = Vec::new();
            Encoder::new()
                .encode_rgba_in_place_into(img.w, img.h, &mut rgba, &mut out)
                .unwrap();
            assert_eq!(out, img.encode(), "grey {grey}");
            let cleared: Vec<_> = img.px.iter().map(|&p| visible(p)).collect();
            assert_eq!(rgba, cleared.concat(), "grey {grey}");
        }
        let mut short = [0u8; 15];
        assert!(matches!(
            Encoder::new().encode_rgba_in_place_into(2, 2, &mut short, &mut Vec::new()),
            Err(EncodeError::BufferSize { .. })
        ));
    }

    #[test]
    fn bad_sizes_are_rejected() {
        assert_eq!(encode_rgba(0, 0, &[]), Err(EncodeError::EmptyImage));
        assert_eq!(encode_rgba(3, 0, &[]), Err(EncodeError::EmptyImage));
        assert_eq!(
            encode_rgba(2, 2, &[0; 15]),
            Err(EncodeError::BufferSize {
                expected: 16,
                actual: 15
            })
        );
        assert!(matches!(
            encode_rgba(u32::MAX, u32::MAX, &[0; 4]),
            Err(EncodeError::BufferSize { .. })
        ));
        assert_eq!(
            EncodeError::EmptyImage.to_string(),
            "image has no pixels",
            "messages are plain sentences"
        );
    }
}
