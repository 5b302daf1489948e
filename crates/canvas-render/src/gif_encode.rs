//! Animated GIF output.
//!
//! - One global palette for every frame (no 768-byte local tables), with
//!   index 255 kept for transparency: pixels with alpha below 128 are
//!   transparent (GIF has one bit of alpha), so a circle keeps its corners.
//! - Up to 255 distinct colours (a greyscale or threshold output, flat art)
//!   are kept exactly, with no dithering. Otherwise the palette comes from
//!   NeuQuant (our own, `gif_encode/neuquant.rs`) trained on a sample of
//!   every frame and refined by k-means, and pixels are mapped with 8×8
//!   ordered (Bayer) dithering sized to the palette's spacing (nearest
//!   colours found by `gif_encode/palette.rs`), so gradients do not band.
//!   Ordered dithering is the same from frame to frame where the picture
//!   is, which keeps the frame differences below small. A picture placed
//!   in several frames (below) is sampled once.
//! - A frame whose visible pixels (their bounding rectangle, everything
//!   outside it transparent) are those of another frame at another place
//!   (a picture shaking on a transparent canvas) shows one picture cut out
//!   once: it is mapped once, its LZW stream encoded once and written for
//!   each such frame at that frame's place, over a canvas cleared to the
//!   background (frames disposed to the background). A caller that knows
//!   its frames are one picture at several places (a template's camera)
//!   hands over the picture and its places instead ([`encode_gif_placed`]):
//!   the same file, with no frame composed, scanned or compared.
//! - A frame with the pixels of an earlier one takes that one's indices; a
//!   frame that shows the one before moved (found by a probe,
//!   `find_shift`) copies the indices of the pixels that moved unchanged,
//!   so a shaking picture is mapped once.
//! - After the first frame, a frame only stores the rectangle that changed
//!   and marks unchanged pixels transparent; identical consecutive frames
//!   merge into one with their delays added, and a frame stored whole
//!   whose pixels come again later keeps its LZW stream for them. A frame
//!   whose successor uncovers transparency is disposed to the background.
//! - LZW is our own (`gif_encode/lzw.rs`: the `gif` crate's rules with a
//!   faster dictionary); the file structure comes from the `gif` crate.

use std::borrow::{Borrow, Cow};

use image::RgbaImage;

use crate::frames::{AnimationError, Deadline, Loops, check_frames};
use crate::patched::{PatchedFrames, copied};
use crate::placed::PlacedFrames;

mod lzw;
mod neuquant;
mod palette;

use lzw::Lzw;
use palette::{Candidates, Planes};

/// The palette index of transparent pixels.
const TRANSPARENT: u8 = 255;
/// Pixels with less alpha than this are transparent.
const ALPHA_CUTOFF: u8 = 128;
/// A lookup table cell not yet filled in (no palette index: there are at
/// most 255 colours).
const UNKNOWN: u8 = TRANSPARENT;
/// Pixels sampled from all frames to train the palette.
const PALETTE_SAMPLE: usize = 48 * 1024;
/// Pixels sampled from all frames when they mostly repeat the frame before
/// ([`palette_sample`]).
const STILL_SAMPLE: usize = 16 * 1024;
/// Fewest pixels sampled when the frames show a placed picture (sampled
/// once, not once a frame; [`placed_sample`]): triggered's picture, 488²
/// pixels, gives about 17 Ki, which `gif_quality` puts 0.06 level of block
/// mean behind a sample of 59 Ki, at a third of the training's time.
const PLACED_SAMPLE: usize = 16 * 1024;
/// Pixels of that sample the palette's k-means steps look at.
const REFINE_SAMPLE: usize = 12 * 1024;

/// Slots (as bits) of the table of colours already placed in a k-means
/// step of [`Quantised::train_on`].
const SEEN_BITS: u32 = 12;
const SEEN_SLOTS: usize = 1 << SEEN_BITS;
/// An empty slot of that table (`colour << 8 | index` holds no such value:
/// an index is at most 254).
const NOT_SEEN: u32 = u32::MAX;

/// The 8×8 Bayer matrix (values 0..64).
const BAYER: [[u8; 8]; 8] = [
    [0, 32, 8, 40, 2, 34, 10, 42],
    [48, 16, 56, 24, 50, 18, 58, 26],
    [12, 44, 4, 36, 14, 46, 6, 38],
    [60, 28, 52, 20, 62, 30, 54, 22],
    [3, 35, 11, 43, 1, 33, 9, 41],
    [51, 19, 59, 27, 49, 17, 57, 25],
    [15, 47, 7, 39, 13, 45, 5, 37],
    [63, 31, 55, 23, 61, 29, 53, 21],
];

fn rgb_key(p: &[u8]) -> u32 {
    u32::from_le_bytes([p[0], p[1], p[2], 0])
}

/// A small open-addressing set of up to 255 colours, each with its index.
struct ExactColours {
    /// `colour << 8 | index`, or `EMPTY`.
    slots: Box<[u64; Self::SLOTS]>,
    colours: Vec<[u8; 3]>,
}

impl ExactColours {
    const EMPTY: u64 = u64::MAX;
    const SLOTS: usize = 1024;

    fn slot(&self, key: u32) -> usize {
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 22) as usize;
        loop {
            let v = self.slots[i];
            if v == Self::EMPTY || v >> 8 == u64::from(key) {
                return i;
            }
            i = (i + 1) & (Self::SLOTS - 1);
        }
    }

    /// The colours and every frame as indices, when `frames` hold at most
    /// 256 opaque colours (else `None`). With exactly 256 (a full
    /// greyscale), the two nearest share one entry, so that index 255 stays
    /// free for transparency: one colour moves by about one level instead
    /// of every pixel being dithered.
    ///
    /// One pass over the pixels collects the colours and writes each one's
    /// index in order of appearance; the merges below then renumber the
    /// indices through a 256-entry table.
    fn index(
        frames: &[&RgbaImage],
        deadline: &Deadline,
    ) -> Result<Option<(Self, IndexedFrames)>, AnimationError> {
        let mut set = Self {
            slots: Box::new([Self::EMPTY; Self::SLOTS]),
            colours: Vec::new(),
        };
        let mut indexed = Vec::with_capacity(frames.len());
        let mut transparent = false;
        for frame in frames {
            let mut out = vec![TRANSPARENT; frame.as_raw().len() / 4];
            for (p, index) in frame.as_raw().chunks_exact(4).zip(&mut out) {
                if p[3] < ALPHA_CUTOFF {
                    transparent = true;
                    continue;
                }
                // No shortcut for a run of one colour: in a photograph the
                // colour changes at most pixels, and a mispredicted branch
                // costs more than the lookup.
                let key = rgb_key(p);
                let i = set.slot(key);
                if set.slots[i] == Self::EMPTY {
                    if set.colours.len() == 256 {
                        return Ok(None);
                    }
                    set.slots[i] = u64::from(key) << 8 | set.colours.len() as u64;
                    set.colours.push([p[0], p[1], p[2]]);
                }
                *index = set.slots[i] as u8;
            }
            indexed.push(out);
            deadline.check()?;
        }
        let seen: Vec<u32> = set.colours.iter().map(|c| rgb_key(c)).collect();
        set.merge_within_one_level();
        if set.colours.len() > usize::from(TRANSPARENT) {
            set.merge_nearest_pair();
        }
        if seen.len() > usize::from(TRANSPARENT) && transparent {
            // Index 255 was both a colour and transparency: look again.
            for (frame, out) in frames.iter().zip(&mut indexed) {
                out.clear();
                set.index_frame(frame, out);
                deadline.check()?;
            }
        } else {
            let mut renumber = [TRANSPARENT; 256];
            for (to, &key) in renumber.iter_mut().zip(&seen) {
                *to = (set.slots[set.slot(key)] & 0xff) as u8;
            }
            if renumber
                .iter()
                .enumerate()
                .any(|(i, &to)| usize::from(to) != i)
            {
                for out in &mut indexed {
                    for index in out.iter_mut() {
                        *index = renumber[usize::from(*index)];
                    }
                }
            }
        }
        Ok(Some((set, indexed)))
    }

    /// Colours at most one level apart on every channel share one entry
    /// (the first seen): an error no one can see, for fewer distinct
    /// indices and so a smaller LZW stream (a greyscale of 200 levels
    /// keeps about 100).
    fn merge_within_one_level(&mut self) {
        let n = self.colours.len();
        let mut to: Vec<usize> = (0..n).collect();
        let mut kept = Vec::with_capacity(n);
        let mut new_index = vec![0usize; n];
        for i in 0..n {
            if to[i] != i {
                continue;
            }
            new_index[i] = kept.len();
            kept.push(self.colours[i]);
            let a = self.colours[i];
            for (j, target) in to.iter_mut().enumerate().skip(i + 1) {
                let b = self.colours[j];
                if *target == j && (0..3).all(|c| a[c].abs_diff(b[c]) <= 1) {
                    *target = i;
                }
            }
        }
        if kept.len() == n {
            return;
        }
        for slot in self.slots.iter_mut() {
            if *slot != Self::EMPTY {
                let index = (*slot & 0xff) as usize;
                *slot = (*slot & !0xff) | new_index[to[index]] as u64;
            }
        }
        self.colours = kept;
    }

    fn merge_nearest_pair(&mut self) {
        let mut best = (u32::MAX, 0usize, 1usize);
        for i in 0..self.colours.len() {
            for j in i + 1..self.colours.len() {
                let d = distance(self.colours[i], self.colours[j]);
                if d < best.0 {
                    best = (d, i, j);
                }
            }
        }
        let (_, keep, gone) = best;
        let last = self.colours.len() - 1;
        for slot in self.slots.iter_mut() {
            if *slot == Self::EMPTY {
                continue;
            }
            let index = (*slot & 0xff) as usize;
            let to = if index == gone {
                keep
            } else if index == last {
                gone
            } else {
                index
            };
            *slot = (*slot & !0xff) | to as u64;
        }
        self.colours.swap_remove(gone);
    }

    fn index_frame(&self, frame: &RgbaImage, out: &mut Vec<u8>) {
        let (mut last, mut last_index) = (u32::MAX, 0u8);
        out.extend(frame.as_raw().chunks_exact(4).map(|p| {
            if p[3] < ALPHA_CUTOFF {
                return TRANSPARENT;
            }
            let key = rgb_key(p);
            if key != last {
                last = key;
                last_index = (self.slots[self.slot(key)] & 0xff) as u8;
            }
            last_index
        }));
    }
}

/// A trained palette of up to 255 colours with a lazily filled lookup
/// table (6 bits per channel) and the dither amplitude.
struct Quantised {
    colours: Vec<[u8; 3]>,
    planes: Planes,
    /// Candidate lists of the palette for the lookup table's cells.
    candidates: Candidates,
    /// The index for each cell, or `UNKNOWN` until it is first needed;
    /// then the entry of [`CLEAR_CELL`].
    lut: Vec<u8>,
    /// Half the dither spread, in levels.
    amplitude: i32,
}

impl Quantised {
    /// A palette trained on a sample of about `size` pixels of `frames`
    /// ([`sample_all`]).
    #[cfg(test)]
    fn train(frames: &[&RgbaImage], size: usize) -> Self {
        Self::train_on(&sample_all(frames, size))
    }

    /// A palette trained on `sample` (opaque colours).
    fn train_on(sample: &[[u8; 3]]) -> Self {
        let mut colours = neuquant::palette(sample);
        // NeuQuant pulls its colours in from the edges of the colour
        // cloud, which dithering cannot reach past: three k-means (Lloyd)
        // steps on part of the sample move each colour to the mean of the
        // pixels nearest to it.
        // Each pixel's nearest colour of the step before starts its search
        // (and, in the first step, the pixel before's): the colours move
        // little, so the search is soon bounded; the answer is the same.
        // A colour met again in a step (a still scene's sample repeats its
        // few colours) takes its answer from a small table of the step's
        // answers.
        // The searches go through candidate lists of the step's palette
        // ([`Candidates`]: the same answers).
        let every = (sample.len() / REFINE_SAMPLE).max(1);
        let mut nearest: Vec<u8> = Vec::with_capacity(sample.len().div_ceil(every));
        let mut seen = vec![NOT_SEEN; SEEN_SLOTS];
        let mut candidates = Candidates::new((0, 15));
        for step in 0..3 {
            let planes = Planes::new(&colours);
            candidates.clear();
            let mut sums = vec![[0u32; 4]; colours.len()];
            seen.fill(NOT_SEEN);
            for (n, &rgb) in sample.iter().step_by(every).enumerate() {
                let key = u32::from_le_bytes([rgb[0], rgb[1], rgb[2], 0]);
                let slot = (key.wrapping_mul(0x9E37_79B1) >> (32 - SEEN_BITS)) as usize;
                let index = match seen[slot] {
                    known if known != NOT_SEEN && known >> 8 == key => known as u8,
                    _ => {
                        let hint = match step {
                            0 => nearest.last().copied(),
                            _ => Some(nearest[n]),
                        };
                        let index = candidates.nearest(&planes, rgb, hint);
                        seen[slot] = key << 8 | u32::from(index);
                        index
                    }
                };
                match step {
                    0 => nearest.push(index),
                    _ => nearest[n] = index,
                }
                let s = &mut sums[usize::from(index)];
                for c in 0..3 {
                    s[c] += u32::from(rgb[c]);
                }
                s[3] += 1;
            }
            for (c, s) in colours.iter_mut().zip(&sums) {
                if s[3] > 0 {
                    *c = [0, 1, 2].map(|i| ((s[i] + s[3] / 2) / s[3]) as u8);
                }
            }
        }
        let amplitude = dither_amplitude(&colours);
        Self {
            planes: Planes::new(&colours),
            colours,
            candidates: Candidates::new((2, 14)),
            lut: vec![UNKNOWN; CLEAR_CELL + 1],
            amplitude,
        }
    }

    /// The palette indices of `frame`, appended to `out`. With `prev` (the
    /// frame before and its indices), the pixels of a row before the first
    /// and after the last that differ from it copy its indices (the dither
    /// depends only on place and colour): a card drawn around an animated
    /// avatar maps only the avatar again. When the frame shows the frame
    /// before moved ([`find_shift`]: a shaking picture), each pixel equal to
    /// the one it moved from copies that one's index, so the picture keeps
    /// the dither it had (which moves with it) and is mapped once.
    ///
    /// A row is dithered whole at once ([`Dither::row`]), then each pixel
    /// mapped takes its lookup cell from its dithered bytes; pixels that
    /// moved unchanged are compared and copied 8 at a time.
    #[cfg(test)]
    fn index_frame(
        &mut self,
        frame: &RgbaImage,
        prev: Option<(&RgbaImage, &[u8])>,
        out: &mut Vec<u8>,
    ) {
        let spans = prev.map(|(img, _)| changed_spans(frame, img));
        self.index_frame_spans(frame, prev.zip(spans.as_deref()), out);
    }

    /// [`Quantised::index_frame`] with the frame before's [`changed_spans`]
    /// of `frame` given.
    fn index_frame_spans(
        &mut self,
        frame: &RgbaImage,
        prev: Option<Before<'_>>,
        out: &mut Vec<u8>,
    ) {
        let (prev, spans) = (prev.map(|(p, _)| p), prev.map(|(_, s)| s));
        let width = frame.width() as usize;
        let height = frame.height() as usize;
        let dither = Dither::new(self.amplitude);
        let shift = prev.and_then(|(img, _)| find_shift(frame, img));
        let start = out.len();
        // Over the frame before, its indices to start with: the pixels that
        // changed (each row's span) are all written below.
        match prev {
            Some((_, prev_idx)) => out.extend_from_slice(prev_idx),
            None => out.resize(start + width * height, TRANSPARENT),
        }
        let rows = frame
            .as_raw()
            .chunks_exact(width * 4)
            .zip(out[start..].chunks_exact_mut(width));
        let mut dithered = vec![0u8; width * 4];
        let mut cells = vec![0u32; width];
        for (y, (row, out)) in rows.enumerate() {
            // Pixels `lo..hi` of the row are mapped; those before and after
            // (the same as in the frame before) keep its indices.
            let (lo, hi) = spans.map_or((0, width), |s| s[y]);
            if lo == hi {
                continue;
            }
            // Only the span is dithered, from the 8-pixel column of the
            // pattern it starts in (the pattern repeats every 8 pixels).
            let (from, to) = (lo / 8 * 8, hi.next_multiple_of(8).min(width));
            dither.row(&row[from * 4..to * 4], y, &mut dithered[from * 4..to * 4]);
            // The row of the frame before that this one shows moved by
            // `shift`, and the columns of this row that it covers (within
            // `lo..hi`).
            let moved = shift.zip(prev).and_then(|((dx, dy), (img, idx))| {
                let sy = usize::try_from(y as isize - dy)
                    .ok()
                    .filter(|&sy| sy < height)?;
                let from = (dx.max(0) as usize).clamp(lo, hi);
                let to = ((width as isize + dx.min(0)) as usize).clamp(from, hi);
                Some((
                    &img.as_raw()[sy * width * 4..(sy + 1) * width * 4],
                    &idx[sy * width..(sy + 1) * width],
                    dx,
                    from..to,
                ))
            });
            let Some((src, src_idx, dx, cover)) = moved else {
                self.map(&dithered, lo..hi, out, &mut cells);
                continue;
            };
            self.map(&dithered, lo..cover.start, out, &mut cells);
            self.map(&dithered, cover.end..hi, out, &mut cells);
            let pixel = |px: &[u8], x: usize| {
                u32::from_le_bytes([px[x * 4], px[x * 4 + 1], px[x * 4 + 2], px[x * 4 + 3]])
            };
            let eight = |px: &[u8], x: usize| -> [u8; 32] {
                px[x * 4..x * 4 + 32].try_into().expect("8 pixels")
            };
            let mut x = cover.start;
            while x < cover.end {
                let sx = (x as isize - dx) as usize;
                if x + 8 <= cover.end && eight(row, x) == eight(src, sx) {
                    out[x..x + 8].copy_from_slice(&src_idx[sx..sx + 8]);
                    x += 8;
                    continue;
                }
                for x in x..(x + 8).min(cover.end) {
                    let sx = (x as isize - dx) as usize;
                    if pixel(row, x) == pixel(src, sx) {
                        out[x] = src_idx[sx];
                    } else {
                        self.map(&dithered, x..x + 1, out, &mut cells);
                    }
                }
                x = (x + 8).min(cover.end);
            }
        }
    }

    /// Maps the pixels `span` of a row dithered by [`Dither::row`] into
    /// `out`, with `cells` (as long as the row) to work in.
    ///
    /// Three passes: every pixel's lookup cell ([`CLEAR_CELL`] when
    /// transparent), without a branch, so in vector lanes; then every
    /// cell's entry, the loads independent of each other; then, only when
    /// an entry was not filled in yet, those pixels again, each looked up
    /// ([`Quantised::lookup`] fills the cells of its box, so the pixels
    /// after it in that box find theirs in the table).
    #[inline(always)]
    fn map(
        &mut self,
        dithered: &[u8],
        span: std::ops::Range<usize>,
        out: &mut [u8],
        cells: &mut [u32],
    ) {
        let (lo, hi) = (span.start, span.end);
        if lo >= hi {
            return;
        }
        let pixels = dithered[lo * 4..hi * 4].chunks_exact(4);
        for (cell, d) in cells[lo..hi].iter_mut().zip(pixels) {
            let d = u32::from_le_bytes(d.try_into().expect("a pixel"));
            *cell = if d >> 24 < u32::from(ALPHA_CUTOFF) {
                CLEAR_CELL as u32
            } else {
                cell_of(d) as u32
            };
        }
        let mut missed = false;
        for (o, &cell) in out[lo..hi].iter_mut().zip(&cells[lo..hi]) {
            let index = self.lut[cell as usize];
            *o = index;
            missed |= index == UNKNOWN;
        }
        if !missed {
            return;
        }
        for x in lo..hi {
            let cell = cells[x] as usize;
            if out[x] == UNKNOWN && cell != CLEAR_CELL {
                out[x] = match self.lut[cell] {
                    // The pixel before (mapped or copied): a start for the
                    // search, neighbours having near colours.
                    UNKNOWN => self.lookup(cell, x.checked_sub(1).map_or(UNKNOWN, |p| out[p])),
                    index => index,
                };
            }
        }
    }

    /// The palette index for a cell of the lookup table not yet filled in,
    /// found and kept: with the other cells of its box of colour space
    /// (one 64-byte line of the table, [`Candidates::fill_cells`]) when the
    /// box has a candidate list, else alone.
    #[cold]
    #[inline(never)]
    fn lookup(&mut self, cell: usize, hint: u8) -> u8 {
        let key = cell >> 6;
        let line: &mut [u8; 64] = (&mut self.lut[key << 6..(key + 1) << 6])
            .try_into()
            .expect("a box's 64 cells");
        if self.candidates.fill_cells(&self.planes, key, line) {
            return self.lut[cell];
        }
        self.lut[cell] = self.candidates.nearest(
            &self.planes,
            cell_centre(cell),
            (hint != UNKNOWN).then_some(hint),
        );
        self.lut[cell]
    }
}

/// Half the dither spread, in levels, for a palette: half the mean
/// distance (the square root of [`distance`]) from a colour to its nearest
/// other colour, about one palette step. The distances are taken from one
/// array per channel, every colour against all at once (vector lanes), the
/// colour itself counted as far.
fn dither_amplitude(colours: &[[u8; 3]]) -> i32 {
    let channel = |c: usize| -> Vec<i32> { colours.iter().map(|p| i32::from(p[c])).collect() };
    let (r, g, b) = (channel(0), channel(1), channel(2));
    let mut sum = 0.0f64;
    for (i, a) in colours.iter().enumerate() {
        let [ar, ag, ab] = a.map(i32::from);
        let mut nearest = i32::MAX;
        for (j, ((&br, &bg), &bb)) in r.iter().zip(&g).zip(&b).enumerate() {
            let (dr, dg, db) = (br - ar, bg - ag, bb - ab);
            let d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
            nearest = nearest.min(if j == i { i32::MAX } else { d });
        }
        if nearest == i32::MAX {
            nearest = 0;
        }
        sum += f64::from(nearest).sqrt();
    }
    let mean = sum / colours.len().max(1) as f64;
    ((mean / 2.0).round() as i32).clamp(2, 16)
}

/// The frame before a frame, its indices, and the frame's
/// [`changed_spans`] over it.
type Before<'a> = ((&'a RgbaImage, &'a [u8]), &'a [Span]);

/// Pixels `lo..hi` of a row: those that differ from the frame before lie
/// within (`(width, width)` when none does).
type Span = (usize, usize);

/// Each row's [`Span`] of `frame` over `prev` (of one size): the pixels
/// before the first and after the last that differ are the same in both.
fn changed_spans(frame: &RgbaImage, prev: &RgbaImage) -> Vec<Span> {
    let width = frame.width() as usize;
    frame
        .as_raw()
        .chunks_exact(width * 4)
        .zip(prev.as_raw().chunks_exact(width * 4))
        .map(
            |(row, prev_row)| match first_difference(row, prev_row) / 4 {
                lo if lo == width => (width, width),
                lo => (lo, width - last_difference(row, prev_row) / 4),
            },
        )
        .collect()
}

/// Opaque pixels of `pixels` (RGBA) into `sample`: the last of each `step`,
/// counting on from `*seen` pixels already passed (which grows by their
/// number), skipping to each rather than counting every pixel.
fn sample_every(pixels: &[u8], step: usize, seen: &mut usize, sample: &mut Vec<[u8; 3]>) {
    let first = (step - (*seen + 1) % step) % step;
    for p in pixels.chunks_exact(4).skip(first).step_by(step) {
        if p[3] >= ALPHA_CUTOFF {
            sample.push([p[0], p[1], p[2]]);
        }
    }
    *seen += pixels.len() / 4;
}

/// Every `step`th pixel of all the frames in turn, about `count` of them.
fn sample_all<F: Borrow<RgbaImage>>(frames: &[F], count: usize) -> Vec<[u8; 3]> {
    let total: usize = frames.iter().map(|f| f.borrow().as_raw().len() / 4).sum();
    let step = (total / count).max(1);
    let mut sample: Vec<[u8; 3]> = Vec::with_capacity(count + 1);
    let mut seen = 0;
    for frame in frames {
        sample_every(frame.borrow().as_raw(), step, &mut seen, &mut sample);
    }
    sample
}

/// The sample a palette is trained on when every frame is a whole picture:
/// [`sample_all`] of the frames, of [`PALETTE_SAMPLE`] pixels, or of
/// [`STILL_SAMPLE`] when the distinct pictures mostly repeat the one before
/// (a still scene where an avatar moves and text types: at most half their
/// pixels lie in the [`Span`]s `spans` gives for each picture mapped over
/// the one before, `None` for the first). The sample is as many pixels of
/// the same few colours again and again there, and a third of it trains as
/// good a palette (`gif_quality`).
fn palette_sample(frames: &[RgbaImage], spans: &[Option<Vec<Span>>]) -> Vec<[u8; 3]> {
    match changes_everywhere(frames, spans) {
        true => sample_all(frames, PALETTE_SAMPLE),
        false => sample_all(frames, STILL_SAMPLE),
    }
}

/// Whether more than half of the distinct pictures' pixels are new (the
/// first picture, and the [`Span`]s of each mapped over the one before):
/// when not, [`palette_sample`] takes the smaller sample.
fn changes_everywhere(frames: &[RgbaImage], spans: &[Option<Vec<Span>>]) -> bool {
    changes_everywhere_of(frames[0].as_raw().len() / 4, spans)
}

/// [`changes_everywhere`] of pictures of `per_frame` pixels each.
fn changes_everywhere_of(per_frame: usize, spans: &[Option<Vec<Span>>]) -> bool {
    let mapped = per_frame * (1 + spans.iter().flatten().count());
    let new: usize = per_frame
        + spans
            .iter()
            .flatten()
            .flatten()
            .map(|&(lo, hi)| hi - lo)
            .sum::<usize>();
    new * 2 > mapped
}

/// The sample a palette is trained on when some frames show an earlier
/// frame's pixels again (a pat's way back up), no picture is placed and
/// the pictures change everywhere: each distinct picture once, at the rate
/// [`palette_sample`] takes the frames ([`PALETTE_SAMPLE`] pixels of all
/// of them). The same pixels twice only weighed the repeated poses double
/// and cost their training twice: `petpet`'s 6 distinct pictures of its 10
/// frames give 29 Ki pixels for the 48 Ki before. Only when the distinct
/// pictures hold at least [`PALETTE_SAMPLE`] pixels: a smaller picture
/// taken once gives the palette's training fewer steps than its repeats
/// did (a 256 × 64 gradient shown twice bands: `gradients_do_not_band`).
fn repeated_sample(frames: &[RgbaImage], pictures: &[&RgbaImage]) -> Vec<[u8; 3]> {
    let pixels = |f: &RgbaImage| f.as_raw().len() / 4;
    let all: usize = frames.iter().map(pixels).sum();
    let distinct: usize = pictures.iter().map(|p| pixels(p)).sum();
    sample_all(pictures, (PALETTE_SAMPLE * distinct).div_ceil(all.max(1)))
}

/// The sample a palette is trained on when some frames show a placed
/// picture ([`Shows::placed`]): whole frames each time they show, as
/// [`sample_all`] takes them, and a placed picture once, not once a frame,
/// at the rate of the frames as they show (its repeats cost nothing) but
/// at least [`PLACED_SAMPLE`] pixels.
fn placed_sample(frames: &[RgbaImage], pictures: &[&RgbaImage], shows: &[Shows]) -> Vec<[u8; 3]> {
    let mut sampled = vec![false; pictures.len()];
    let sample: Vec<&RgbaImage> = shows
        .iter()
        .enumerate()
        .filter_map(|(i, show)| match show.placed {
            None => Some(&frames[i]),
            Some(_) if !sampled[show.picture] => {
                sampled[show.picture] = true;
                Some(pictures[show.picture])
            }
            Some(_) => None,
        })
        .collect();
    let frame_pixels = frames[0].as_raw().len() / 4;
    let sampled: usize = sample.iter().map(|p| p.as_raw().len() / 4).sum();
    let size = placed_sample_size(sampled, frame_pixels, frames.len());
    sample_all(&sample, size)
}

/// The size of [`placed_sample`]'s sample: `sampled` pixels taken from
/// `frames` frames of `frame_pixels` each, at the rate of the frames as
/// they show, at least [`PLACED_SAMPLE`].
fn placed_sample_size(sampled: usize, frame_pixels: usize, frames: usize) -> usize {
    (PALETTE_SAMPLE * sampled / (frame_pixels * frames).max(1)).clamp(PLACED_SAMPLE, PALETTE_SAMPLE)
}

/// The lookup table cell of a pixel (`r | g << 8 | b << 16`, alpha above
/// ignored): 6 bits per channel, the cells of each 4 × 4 × 4 block of them
/// (16 levels a side) in one 64-byte line, so that the colours a dithered
/// patch of one colour takes share a few lines. (Red, green, blue one after
/// the other, each cell of a row of a dithered patch was on a line of its
/// own, and the lookups waited on the memory.)
#[inline(always)]
fn cell_of(rgb: u32) -> usize {
    let (r, g, b) = (rgb & 255, rgb >> 8 & 255, rgb >> 16 & 255);
    ((r >> 4) << 14
        | (g >> 4) << 10
        | (b >> 4) << 6
        | (r >> 2 & 3) << 4
        | (g >> 2 & 3) << 2
        | (b >> 2 & 3)) as usize
}

/// The lookup table's entry for transparent pixels, after every cell of
/// [`cell_of`]: it holds [`TRANSPARENT`] (which is [`UNKNOWN`] too, so
/// [`Quantised::map`] tells it from a cell not yet looked up by the cell).
const CLEAR_CELL: usize = 1 << 18;

/// The colour at the centre of a cell of [`cell_of`].
fn cell_centre(cell: usize) -> [u8; 3] {
    let channel =
        |high: usize, low: usize| ((cell >> high & 15) << 4 | (cell >> low & 3) << 2 | 2) as u8;
    [channel(14, 4), channel(10, 2), channel(6, 0)]
}

/// 8×8 ordered (Bayer) dithering as bytes: offsets in `[-amp, amp)`, a
/// differently ordered threshold per channel, so that pixels dither in
/// every direction of colour (not only along the grey axis); alpha is left
/// as it is.
struct Dither {
    /// For each row of the matrix, what 8 pixels (32 bytes) gain: the
    /// positive offsets.
    add: [[u8; 32]; 8],
    /// And what they lose: the negative offsets, negated.
    sub: [[u8; 32]; 8],
}

impl Dither {
    fn new(amp: i32) -> Self {
        let off = |t: u8| (i32::from(t) * 2 - 63) * amp / 64;
        let (mut add, mut sub) = ([[0u8; 32]; 8], [[0u8; 32]; 8]);
        for y in 0..8 {
            for x in 0..8 {
                let o = [off(BAYER[y][x]), off(63 - BAYER[y][x]), off(BAYER[x][y])];
                for c in 0..3 {
                    add[y][x * 4 + c] = o[c].max(0) as u8;
                    sub[y][x * 4 + c] = (-o[c]).max(0) as u8;
                }
            }
        }
        Self { add, sub }
    }

    /// Row `y` (RGBA) dithered into `out` (of the same length): each
    /// channel plus its offset, clamped to 0..=255 (saturating byte
    /// arithmetic, 32 bytes at a time).
    fn row(&self, row: &[u8], y: usize, out: &mut [u8]) {
        let (add, sub) = (&self.add[y & 7], &self.sub[y & 7]);
        let whole = row.len() / 32 * 32;
        for (d, s) in out[..whole]
            .chunks_exact_mut(32)
            .zip(row[..whole].chunks_exact(32))
        {
            for i in 0..32 {
                d[i] = s[i].saturating_add(add[i]).saturating_sub(sub[i]);
            }
        }
        for (i, (d, s)) in out[whole..].iter_mut().zip(&row[whole..]).enumerate() {
            *d = s.saturating_add(add[i]).saturating_sub(sub[i]);
        }
    }
}

/// How far (in pixels, either way on each axis) [`find_shift`] looks.
const SHIFT_REACH: isize = 48;
/// Pixels in a row that [`find_shift`] looks for in the frame before.
const PROBE: usize = 16;

/// The offset `(dx, dy)` by which `cur` shows `prev` moved, if a probe finds
/// one: a run of [`PROBE`] pixels of `cur` (at the centre, else at the
/// centre of a quarter) that differs from `prev` at its own place, is not
/// one flat colour, and is found in `prev` at most [`SHIFT_REACH`] away.
/// Only where pixels are equal is anything copied, so a wrong offset costs
/// nothing but the search (about 10⁴ pixel comparisons per probe).
fn find_shift(cur: &RgbaImage, prev: &RgbaImage) -> Option<(isize, isize)> {
    let (w, h) = (cur.width() as isize, cur.height() as isize);
    if w < PROBE as isize * 2 || h < 4 {
        return None;
    }
    let probes = [(2, 2), (1, 1), (3, 1), (1, 3), (3, 3)].map(|(fx, fy)| {
        (
            ((w * fx / 4) - PROBE as isize / 2).clamp(0, w - PROBE as isize),
            h * fy / 4,
        )
    });
    let (cur_px, prev_px) = (cur.as_raw(), prev.as_raw());
    fn run(px: &[u8], w: isize, x: isize, y: isize) -> &[u8] {
        let at = (y * w + x) as usize * 4;
        &px[at..at + PROBE * 4]
    }
    for (px, py) in probes {
        let want = run(cur_px, w, px, py);
        if want == run(prev_px, w, px, py) || want.chunks_exact(4).all(|p| *p == want[..4]) {
            continue;
        }
        let head = u32::from_ne_bytes([want[0], want[1], want[2], want[3]]);
        // The offsets whose run lies within the row (never empty: `px`
        // is one of the run's places), searched as `dx` rises.
        let (low, high) = (
            (px + PROBE as isize - w).max(-SHIFT_REACH),
            px.min(SHIFT_REACH),
        );
        for dy in -SHIFT_REACH..=SHIFT_REACH {
            let sy = py - dy;
            if !(0..h).contains(&sy) {
                continue;
            }
            let row = &prev_px[(sy * w) as usize * 4..((sy + 1) * w) as usize * 4];
            // Each pixel where a run may start, as one word, `sx` falling.
            let starts = row[(px - high) as usize * 4..(px - low + 1) as usize * 4]
                .chunks_exact(4)
                .map(|p| u32::from_ne_bytes([p[0], p[1], p[2], p[3]]))
                .rev();
            for (dx, first) in (low..=high).zip(starts) {
                if first == head && (dx, dy) != (0, 0) && run(prev_px, w, px - dx, sy) == want {
                    return Some((dx, dy));
                }
            }
        }
    }
    None
}

/// Bytes compared at once when looking for a difference.
const BLOCK: usize = 64;

/// The index of the first byte where `a` and `b` (of one length) differ,
/// or their length.
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    let mut at = 0;
    while at + BLOCK <= a.len() && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..]
        .iter()
        .zip(&b[at..])
        .position(|(x, y)| x != y)
        .unwrap_or(a.len() - at)
}

/// How many bytes at the end of `a` and `b` (of one length) are the same.
fn last_difference(a: &[u8], b: &[u8]) -> usize {
    let mut end = a.len();
    while end >= BLOCK && a[end - BLOCK..end] == b[end - BLOCK..end] {
        end -= BLOCK;
    }
    a.len() - end
        + a[..end]
            .iter()
            .rev()
            .zip(b[..end].iter().rev())
            .position(|(x, y)| x != y)
            .unwrap_or(end)
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    let d = |i: usize| {
        let v = i32::from(a[i]) - i32::from(b[i]);
        (v * v) as u32
    };
    2 * d(0) + 4 * d(1) + 3 * d(2)
}

/// Every picture as palette indices, row by row.
type IndexedFrames = Vec<Vec<u8>>;

/// A frame's rectangle: left, top, width, height.
type Rect = (usize, usize, usize, usize);

/// What a frame shows: one of the pictures mapped, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shows {
    /// Index into the pictures (and their indices).
    picture: usize,
    /// `None`: the picture is the whole frame. `Some(rect)`: the picture
    /// is the frame's pixels in `rect` and every pixel outside it is
    /// transparent; the same picture shows elsewhere in another frame.
    placed: Option<Rect>,
}

/// The palette, every distinct picture as palette indices, and what each
/// frame shows.
type Indexed = (Vec<[u8; 3]>, IndexedFrames, Vec<Shows>);

/// A palette for every frame and the distinct pictures the frames show
/// ([`pictures`]) as palette indices, each mapped once.
fn index_frames(frames: &[RgbaImage], deadline: &Deadline) -> Result<Indexed, AnimationError> {
    let (cut, sources, shows) = pictures(frames);
    let pictures: Vec<&RgbaImage> = sources
        .iter()
        .map(|s| match *s {
            Source::Frame(i) => &frames[i],
            Source::Cut(c) => &cut[c],
        })
        .collect();
    let mut indexed: IndexedFrames = Vec::with_capacity(pictures.len());
    if let Some((exact, indexed)) = ExactColours::index(&pictures, deadline)? {
        return Ok((exact.colours, indexed, shows));
    }
    // Where each picture mapped over the one before it (a picture of the
    // same size) differs from it, found once for the palette's sample and
    // the mapping.
    let spans: Vec<Option<Vec<Span>>> = pictures
        .iter()
        .enumerate()
        .map(|(i, picture)| {
            let prev = pictures[i.checked_sub(1)?];
            (prev.dimensions() == picture.dimensions()).then(|| changed_spans(picture, prev))
        })
        .collect();
    let sample = match shows.iter().any(|s| s.placed.is_some()) {
        false
            if pictures.len() < frames.len()
                && pictures.iter().map(|p| p.as_raw().len() / 4).sum::<usize>()
                    >= PALETTE_SAMPLE
                && changes_everywhere(frames, &spans) =>
        {
            repeated_sample(frames, &pictures)
        }
        false => palette_sample(frames, &spans),
        true => placed_sample(frames, &pictures, &shows),
    };
    let mut q = Quantised::train_on(&sample);
    deadline.check()?;
    for (i, picture) in pictures.iter().enumerate() {
        let mut out = Vec::with_capacity(picture.as_raw().len() / 4);
        // The picture before, when it is a frame of the same size: what
        // did not change or only moved copies its indices.
        let prev = spans[i]
            .as_deref()
            .map(|spans| ((pictures[i - 1], indexed[i - 1].as_slice()), spans));
        q.index_frame_spans(picture, prev, &mut out);
        indexed.push(out);
        deadline.check()?;
    }
    let colours = q.colours;
    Ok((colours, indexed, shows))
}

/// Where a picture's pixels are: a whole frame, or a rectangle cut out of
/// one (in the list of cuts).
#[derive(Debug, Clone, Copy)]
enum Source {
    Frame(usize),
    Cut(usize),
}

/// The distinct pictures `frames` show, in order of first appearance, and
/// what each frame shows. A frame whose pixels that are not transparent
/// (their bounding rectangle, [`opaque_bounds`]) are those of another
/// frame at another place shows that content as a picture of its own, cut
/// out once ([`Shows::placed`]): a picture shaking on a transparent canvas
/// is one picture. Any other frame is a whole picture, shared with the
/// first frame with exactly its pixels.
fn pictures(frames: &[RgbaImage]) -> (Vec<RgbaImage>, Vec<Source>, Vec<Shows>) {
    let contents = moved_contents(frames, MAX_CUT_BYTES);
    let origins = first_equal_frames(frames);
    let (mut cut, mut sources) = (Vec::new(), Vec::new());
    let mut picture_of: Vec<Option<usize>> = vec![None; frames.len()];
    let shows = (0..frames.len())
        .map(|i| {
            let (origin, placed) = match contents[i] {
                Some((rect, origin)) => (origin, Some(rect)),
                None => (origins[i], None),
            };
            let picture = *picture_of[origin].get_or_insert_with(|| {
                sources.push(match contents[origin] {
                    Some((rect, _)) => {
                        cut.push(cut_out(&frames[origin], rect));
                        Source::Cut(cut.len() - 1)
                    }
                    None => Source::Frame(origin),
                });
                sources.len() - 1
            });
            Shows { picture, placed }
        })
        .collect();
    (cut, sources, shows)
}

/// The pixels of `frame` in `rect`, as an image of their own.
fn cut_out(frame: &RgbaImage, (x, y, w, h): Rect) -> RgbaImage {
    let width = frame.width() as usize;
    let mut data = Vec::with_capacity(w * h * 4);
    for row in frame.as_raw().chunks_exact(width * 4).skip(y).take(h) {
        data.extend_from_slice(&row[x * 4..(x + w) * 4]);
    }
    RgbaImage::from_raw(w as u32, h as u32, data).expect("the rectangle's own size")
}

/// The bounding rectangle of the pixels of `frame` that are not
/// transparent (alpha [`ALPHA_CUTOFF`] or more), if any: rows are looked
/// at from the top and the bottom until one has such a pixel, and each row
/// between only as far in from either side as the rectangle found so far,
/// so a frame opaque to its edges costs a few pixels a row.
fn opaque_bounds(frame: &RgbaImage) -> Option<Rect> {
    let width = frame.width() as usize;
    if width == 0 {
        return None;
    }
    let rows: Vec<&[u8]> = frame.as_raw().chunks_exact(width * 4).collect();
    let any = |row: &[u8]| first_seen(row).is_some();
    let top = rows.iter().position(|r| any(r))?;
    let bottom = rows.iter().rposition(|r| any(r))?;
    let (mut left, mut right) = (width, 0);
    for row in &rows[top..=bottom] {
        if let Some(x) = first_seen(&row[..left * 4]) {
            left = x;
        }
        if let Some(x) = last_seen(&row[right * 4..]) {
            right += x + 1;
        }
    }
    Some((left, top, right - left, bottom - top + 1))
}

/// The top bit of each alpha in a word of two RGBA pixels: alpha at least
/// [`ALPHA_CUTOFF`] (128) is that bit set.
const ALPHA_TOPS: u64 = 0x8000_0000_8000_0000;
const _: () = assert!(ALPHA_CUTOFF == 128);

/// Whether any of 8 pixels (RGBA) is not transparent: their alphas' top
/// bits tested at once, in four words, rather than one branch each.
#[inline(always)]
fn any_seen(eight: &[u8]) -> bool {
    let word = |i: usize| u64::from_le_bytes(eight[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
    (word(0) | word(1) | word(2) | word(3)) & ALPHA_TOPS != 0
}

/// The first pixel of `pixels` (RGBA) that is not transparent, looked for
/// 8 pixels at a time.
fn first_seen(pixels: &[u8]) -> Option<usize> {
    let seen = |px: &[u8]| px[3] >= ALPHA_CUTOFF;
    let skip = pixels
        .chunks_exact(32)
        .position(any_seen)
        .unwrap_or(pixels.len() / 32);
    let x = skip * 8;
    pixels[x * 4..]
        .chunks_exact(4)
        .position(seen)
        .map(|p| x + p)
}

/// The last pixel of `pixels` (RGBA) that is not transparent, looked for
/// 8 pixels at a time from the end.
fn last_seen(pixels: &[u8]) -> Option<usize> {
    let seen = |px: &[u8]| px[3] >= ALPHA_CUTOFF;
    let n = pixels.len() / 4;
    let skip = pixels.rchunks_exact(32).position(any_seen).unwrap_or(n / 8);
    let end = n - skip * 8;
    pixels[..end * 4].chunks_exact(4).rposition(seen)
}

/// The most bytes of pictures cut out of an animation's frames
/// ([`pictures`]), kept while it is encoded: two 1024² pictures (a
/// triggered shake cuts one of 488²). Contents past it stay in their whole
/// frames, so a crafted animation of many moving pictures costs no more
/// memory than the stated bound allows for it.
const MAX_CUT_BYTES: usize = 8 << 20;

/// For each frame whose content (the pixels in its [`opaque_bounds`],
/// everything outside transparent) shows at another place in another
/// frame, its rectangle and the first frame with that content; `None` for
/// the others, and for contents past `budget` bytes of RGBA cut-outs
/// (counted in the order of their first frames). Contents are compared only
/// when their sizes and a sample of their pixels agree.
fn moved_contents(frames: &[RgbaImage], budget: usize) -> Vec<Option<(Rect, usize)>> {
    let bounds: Vec<Option<Rect>> = frames.iter().map(opaque_bounds).collect();
    let content = |i: usize, r: Rect| {
        let width = frames[i].width() as usize;
        let (x, y, w, h) = r;
        frames[i]
            .as_raw()
            .chunks_exact(width * 4)
            .skip(y)
            .take(h)
            .map(move |row| &row[x * 4..(x + w) * 4])
    };
    let mut seen: Vec<(Rect, u64, usize)> = Vec::new();
    // The first frame with each frame's content, and whether that content
    // shows at more than one place.
    let mut origin = vec![None; frames.len()];
    let mut moves = vec![false; frames.len()];
    for (i, b) in bounds.iter().enumerate() {
        let Some(r) = *b else { continue };
        // A frame that fills itself cannot show its content elsewhere.
        if (r.2, r.3) == (frames[i].width() as usize, frames[i].height() as usize) {
            continue;
        }
        let key = content_fingerprint(content(i, r), r);
        let same = seen.iter().find(|&&(s, k, j)| {
            (s.2, s.3) == (r.2, r.3) && k == key && content(j, s).eq(content(i, r))
        });
        match same {
            Some(&(s, _, j)) => {
                origin[i] = Some(j);
                if (s.0, s.1) != (r.0, r.1) {
                    moves[j] = true;
                }
            }
            None => {
                seen.push((r, key, i));
                origin[i] = Some(i);
            }
        }
    }
    let mut left = budget;
    for (j, moved) in moves.iter_mut().enumerate() {
        if *moved {
            let (_, _, w, h) = bounds[j].expect("a content");
            match left.checked_sub(w * h * 4) {
                Some(rest) => left = rest,
                None => *moved = false,
            }
        }
    }
    (0..frames.len())
        .map(|i| {
            let j = origin[i]?;
            moves[j].then(|| (bounds[i].expect("a content"), j))
        })
        .collect()
}

/// A hash of the size of a content and of about 1024 of its pixels.
fn content_fingerprint<'a>(rows: impl Iterator<Item = &'a [u8]>, r: Rect) -> u64 {
    let (w, h) = (r.2, r.3);
    let every = (w * h / 1024).max(1);
    let mut hash = (w as u64) << 32 | h as u64;
    let mut at = 0usize;
    for row in rows {
        // The pixels of the row whose place in the whole is a multiple of
        // `every`.
        let first = (every - at % every) % every;
        for p in row.chunks_exact(4).skip(first).step_by(every) {
            hash = (hash ^ u64::from(u32::from_le_bytes([p[0], p[1], p[2], p[3]])))
                .wrapping_mul(0x0100_0000_01b3);
        }
        at += w;
    }
    hash
}

/// For each frame, the first frame with exactly its pixels (itself when
/// none before it has them). Frames are compared only when a sample of
/// their pixels agrees, so frames that all differ cost one sample each.
fn first_equal_frames(frames: &[RgbaImage]) -> Vec<usize> {
    let mut seen: Vec<(u64, usize)> = Vec::new();
    frames
        .iter()
        .enumerate()
        .map(|(i, frame)| {
            let key = fingerprint(frame.as_raw());
            let same = seen
                .iter()
                .find(|&&(k, j)| k == key && frames[j].as_raw() == frame.as_raw())
                .map(|&(_, j)| j);
            same.unwrap_or_else(|| {
                seen.push((key, i));
                i
            })
        })
        .collect()
}

/// A hash of about 1024 pixels spread over `pixels`.
fn fingerprint(pixels: &[u8]) -> u64 {
    let step = (pixels.len() / 4 / 1024).max(1) * 4;
    pixels
        .chunks_exact(4)
        .step_by(step / 4)
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, p| {
            (h ^ u64::from(u32::from_le_bytes([p[0], p[1], p[2], p[3]])))
                .wrapping_mul(0x0100_0000_01b3)
        })
}

/// How a frame differs from the frame shown before it.
#[derive(Debug, Clone, Copy)]
struct Change {
    /// The rectangle of the pixels that differ, if any does.
    rect: Option<Rect>,
    /// How many pixels are the same in both.
    unchanged: usize,
    /// Whether the frame is transparent anywhere the previous one is not
    /// (so the previous one must be cleared away).
    uncovers: bool,
}

/// How many indices of the row `c` equal `p`'s. A plain pass the compiler
/// vectorises: a count in bytes per 255 indices, not one with a tuple.
#[inline]
fn same_indices(c: &[u8], p: &[u8]) -> usize {
    c.chunks(255)
        .zip(p.chunks(255))
        .map(|(c, p)| usize::from(c.iter().zip(p).fold(0u8, |n, (c, p)| n + u8::from(c == p))))
        .sum()
}

/// Whether the row `c` is transparent anywhere `p` is not: a fold rather
/// than `any`, whose early exit goes byte by byte.
#[inline]
fn uncovers_any(c: &[u8], p: &[u8]) -> bool {
    c.iter().zip(p).fold(false, |u, (&c, &p)| {
        u | ((c == TRANSPARENT) & (p != TRANSPARENT))
    })
}

/// How `cur` differs from `prev` (one pass over both).
fn compare(prev: &[u8], cur: &[u8], width: usize) -> Change {
    let height = cur.len() / width;
    let (mut x0, mut y0, mut x1, mut y1) = (width, height, 0, 0);
    let (mut unchanged, mut uncovers) = (0, false);
    for (y, (c, p)) in cur
        .chunks_exact(width)
        .zip(prev.chunks_exact(width))
        .enumerate()
    {
        if c == p {
            unchanged += width;
            continue;
        }
        let first = first_difference(c, p);
        let last = width - 1 - last_difference(c, p);
        unchanged += same_indices(c, p);
        uncovers = uncovers || uncovers_any(c, p);
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y;
    }
    Change {
        rect: (x0 <= x1).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1)),
        unchanged,
        uncovers,
    }
}

/// The pixels of `cur` in `rect`, into `buf`; with `prev`, those equal to
/// it become transparent (so the previous frame shows through).
fn crop(cur: &[u8], prev: Option<&[u8]>, width: usize, rect: Rect, buf: &mut Vec<u8>) {
    let (x0, y0, w, h) = rect;
    buf.clear();
    for y in y0..y0 + h {
        let row = y * width + x0..y * width + x0 + w;
        match prev {
            Some(prev) => buf.extend(
                cur[row.clone()]
                    .iter()
                    .zip(&prev[row])
                    .map(|(&c, &p)| if c == p { TRANSPARENT } else { c }),
            ),
            None => buf.extend_from_slice(&cur[row]),
        }
    }
}

/// The LZW stream of a whole frame (`pixels`, whose first equal frame is
/// `origin`) into `out`: a copy of the stream kept for `origin`, or encoded
/// and kept when a later frame will want it (`repeats[origin] > 1`).
fn encode_whole(
    lzw: &mut Lzw,
    whole: &mut [Option<Vec<u8>>],
    repeats: &[usize],
    origin: usize,
    pixels: &[u8],
    out: &mut Vec<u8>,
) {
    match &whole[origin] {
        Some(stream) => {
            out.clear();
            out.extend_from_slice(stream);
        }
        None => {
            lzw.encode(pixels, out);
            if repeats[origin] > 1 {
                whole[origin] = Some(out.clone());
            }
        }
    }
}

fn encode_error(e: gif_codec::EncodingError) -> AnimationError {
    AnimationError::Render(crate::RenderError::Encode(e.to_string()))
}

/// Encodes `frames` (all of one size, at most 65535 on a side) as an
/// animated GIF, each shown for its `delays_ms` (rounded to the GIF's
/// hundredths of a second), played `loops` times. Checks `deadline`
/// between frames.
pub fn encode_gif(
    frames: &[RgbaImage],
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = check_frames(frames, delays_ms)?;
    gif_size(w, h)?;
    let indexed = index_frames(frames, deadline)?;
    write_gif((w, h), indexed, delays_ms, loops, deadline)
}

/// The canvas's sides as a GIF stores them.
fn gif_size(w: u32, h: u32) -> Result<(u16, u16), AnimationError> {
    let too_big = || AnimationError::Invalid("a GIF is at most 65535 pixels on a side");
    Ok((
        u16::try_from(w).map_err(|_| too_big())?,
        u16::try_from(h).map_err(|_| too_big())?,
    ))
}

/// Encodes an animation of one picture at a place of its own in each frame
/// ([`PlacedFrames`]) as an animated GIF, as [`encode_gif`] does the
/// composed frames: the picture is mapped and its LZW stream encoded once,
/// written at each frame's place over a canvas cleared to the background.
/// Nothing of canvas size is composed, scanned or compared. A picture that
/// does not lie inside the canvas in every frame is encoded from its
/// composed frames.
pub fn encode_gif_placed(
    placed: &PlacedFrames,
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = placed.canvas;
    let (pw, ph) = placed.picture.dimensions();
    if placed.frames.is_empty() {
        return Err(AnimationError::Invalid("no frames"));
    }
    crate::check_size(w, h)?;
    gif_size(w, h)?;
    if !placed.fits() || pw == 0 || ph == 0 {
        let (frames, delays): (Vec<RgbaImage>, Vec<u32>) = placed.composed().into_iter().unzip();
        let encoded = encode_gif(&frames, &delays, loops, deadline);
        frames.into_iter().for_each(crate::buffers::recycle_image);
        return encoded;
    }
    let shows: Vec<Shows> = placed
        .frames
        .iter()
        .map(|&((x, y), _)| Shows {
            picture: 0,
            placed: Some((x as usize, y as usize, pw as usize, ph as usize)),
        })
        .collect();
    let picture = [&placed.picture];
    let (colours, indexed) = match ExactColours::index(&picture, deadline)? {
        Some((exact, indexed)) => (exact.colours, indexed),
        None => {
            let frame_pixels = w as usize * h as usize;
            let size = placed_sample_size(pw as usize * ph as usize, frame_pixels, shows.len());
            let mut q = Quantised::train_on(&sample_all(&picture, size));
            deadline.check()?;
            let mut out = Vec::with_capacity(pw as usize * ph as usize);
            q.index_frame_spans(&placed.picture, None, &mut out);
            (q.colours, vec![out])
        }
    };
    deadline.check()?;
    let delays: Vec<u32> = placed.frames.iter().map(|&(_, d)| d).collect();
    write_gif((w, h), (colours, indexed, shows), &delays, loops, deadline)
}

/// Encodes an animation given as its first frame and each later frame's
/// changed rectangle ([`PatchedFrames`]) as an animated GIF, as
/// [`encode_gif`] does the composed frames when each frame shows no earlier
/// frame's pixels but the one before's and no picture moved on a
/// transparent canvas (a still scene under a moving avatar and typed text):
/// the same palette, indices and file. The frames are followed in canvases
/// updated rectangle by rectangle; only the rectangles are compared, with
/// the frame before, and nothing is fingerprinted. Frames that hold at
/// most 256 colours, or rectangles that do not lie inside the canvas, are
/// encoded from the composed frames.
pub fn encode_gif_patched(
    patched: &PatchedFrames,
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = patched.canvas();
    if patched.frames.is_empty() {
        return Err(AnimationError::Invalid("no frames"));
    }
    crate::check_size(w, h)?;
    gif_size(w, h)?;
    let delays: Vec<u32> = patched.frames.iter().map(|&(_, d)| d).collect();
    // A first frame of few colours may take the exact palette, which wants
    // every picture at once.
    if !patched.fits() || ExactColours::index(&[&patched.first], deadline)?.is_some() {
        let (frames, delays): (Vec<RgbaImage>, Vec<u32>) = patched.composed().into_iter().unzip();
        let encoded = encode_gif(&frames, &delays, loops, deadline);
        frames.into_iter().for_each(crate::buffers::recycle_image);
        return encoded;
    }
    let (indexed, changes) = index_patched(patched, deadline)?;
    let gif = write_gif_known((w, h), &indexed, &delays, loops, deadline, Some(&changes));
    // The pictures' indices, from the store, go back to it.
    indexed.1.into_iter().for_each(crate::buffers::recycle);
    gif
}

/// A frame's change over the frame before, found from its [`Patch`]
/// (`crate::patched::Patch`): each row's [`Span`] and the rectangle of the
/// pixels that differ; `None` when none does.
type PatchChange = Option<(Vec<Span>, Rect)>;

/// Each frame's [`PatchChange`] over the frame before (`None` for the
/// first), found by comparing each rectangle with the frame before it in
/// one canvas updated rectangle by rectangle; and, taken on the way, the
/// two samples [`palette_sample`] may take of the composed frames (of
/// [`STILL_SAMPLE`] and of [`PALETTE_SAMPLE`] pixels).
fn patch_changes(patched: &PatchedFrames) -> (Vec<PatchChange>, [Vec<[u8; 3]>; 2]) {
    let (width, height) = (
        patched.first.width() as usize,
        patched.first.height() as usize,
    );
    let total = width * height * patched.frames.len();
    let sizes = [STILL_SAMPLE, PALETTE_SAMPLE];
    let steps = sizes.map(|count| (total / count).max(1));
    let mut samples = sizes.map(|count| Vec::with_capacity(count + 1));
    let mut seen = [0usize; 2];
    let mut canvas = copied(&patched.first);
    let changes = patched
        .frames
        .iter()
        .enumerate()
        .map(|(i, (patch, _))| {
            let change = patch.as_ref().filter(|_| i > 0).and_then(|patch| {
                let (x, y) = (patch.at.0 as usize, patch.at.1 as usize);
                let pw = patch.pixels.width() as usize;
                let mut spans = vec![(width, width); height];
                let (mut x0, mut y0, mut x1, mut y1) = (width, height, 0, 0);
                if pw > 0 {
                    let rows = patch.pixels.as_raw().chunks_exact(pw * 4);
                    for (r, row) in rows.enumerate() {
                        let at = ((y + r) * width + x) * 4;
                        let before = &canvas.as_raw()[at..at + pw * 4];
                        let lo = first_difference(row, before) / 4;
                        if lo == pw {
                            continue;
                        }
                        let hi = pw - last_difference(row, before) / 4;
                        spans[y + r] = (x + lo, x + hi);
                        (x0, x1) = (x0.min(x + lo), x1.max(x + hi));
                        (y0, y1) = (y0.min(y + r), y + r + 1);
                    }
                }
                patch.apply(&mut canvas);
                (x0 < x1).then(|| (spans, (x0, y0, x1 - x0, y1 - y0)))
            });
            for k in 0..2 {
                sample_every(canvas.as_raw(), steps[k], &mut seen[k], &mut samples[k]);
            }
            change
        })
        .collect();
    crate::buffers::recycle_image(canvas);
    (changes, samples)
}

/// [`index_frames`] for [`PatchedFrames`]: the distinct pictures are the
/// first frame and each frame that differs from the one before; the
/// palette is trained on the sample [`index_frames`] takes of the composed
/// frames, and each picture is mapped over the one before within its
/// changed spans. Also gives, for each frame, the rectangle in which its
/// indices may differ from the frame before's.
fn index_patched(
    patched: &PatchedFrames,
    deadline: &Deadline,
) -> Result<(Indexed, Vec<Option<Rect>>), AnimationError> {
    let first = &patched.first;
    let per_frame = first.as_raw().len() / 4;
    let (changes, [still, everywhere_sample]) = patch_changes(patched);
    deadline.check()?;
    let frames = changes.len();
    // The frame of each picture, and what each frame shows.
    let mut starts = vec![0usize];
    let shows: Vec<Shows> = changes
        .iter()
        .enumerate()
        .map(|(i, change)| {
            if i > 0 && change.is_some() {
                starts.push(i);
            }
            Shows {
                picture: starts.len() - 1,
                placed: None,
            }
        })
        .collect();
    let spans: Vec<Option<Vec<Span>>> = starts
        .iter()
        .map(|&i| changes[i].as_ref().map(|(s, _)| s.clone()))
        .collect();
    // The sample `index_frames` takes ([`repeated_sample`] or
    // [`palette_sample`]) of the frames composed one after the other.
    let pictures = starts.len();
    let distinct = pictures * per_frame;
    let everywhere = changes_everywhere_of(per_frame, &spans);
    let sample = match pictures < frames && distinct >= PALETTE_SAMPLE && everywhere {
        // Each picture once: the pictures composed again.
        true => {
            let count = (PALETTE_SAMPLE * distinct).div_ceil(frames * per_frame);
            let step = (distinct / count).max(1);
            let mut sample = Vec::with_capacity(count + 1);
            let mut seen = 0;
            let mut canvas = copied(first);
            for (i, (patch, _)) in patched.frames.iter().enumerate() {
                if let Some(patch) = patch.as_ref().filter(|_| i > 0) {
                    patch.apply(&mut canvas);
                }
                if i == 0 || changes[i].is_some() {
                    sample_every(canvas.as_raw(), step, &mut seen, &mut sample);
                }
            }
            crate::buffers::recycle_image(canvas);
            sample
        }
        false if everywhere => everywhere_sample,
        false => still,
    };
    let mut q = Quantised::train_on(&sample);
    deadline.check()?;
    // Each picture over the one before (`prev`); `canvas` becomes each
    // picture in turn.
    let mut canvas = copied(first);
    let mut prev = copied(first);
    let mut indexed: IndexedFrames = Vec::with_capacity(pictures);
    let mut out = crate::buffers::take_empty(per_frame);
    q.index_frame_spans(first, None, &mut out);
    indexed.push(out);
    for (p, &i) in starts.iter().enumerate().skip(1) {
        let (Some(patch), Some(spans)) = (patched.frames[i].0.as_ref(), spans[p].as_deref()) else {
            unreachable!("a picture starts at a changed frame")
        };
        patch.apply(&mut canvas);
        let mut out = crate::buffers::take_empty(per_frame);
        q.index_frame_spans(&canvas, Some(((&prev, &indexed[p - 1]), spans)), &mut out);
        indexed.push(out);
        patch.apply(&mut prev);
        deadline.check()?;
    }
    crate::buffers::recycle_image(canvas);
    crate::buffers::recycle_image(prev);
    let rects = changes
        .iter()
        .map(|c| c.as_ref().map(|&(_, r)| r))
        .collect();
    Ok(((q.colours, indexed, shows), rects))
}

/// The smallest rectangle holding `a` and `b`, if either is given.
fn rect_union(a: Option<Rect>, b: Option<Rect>) -> Option<Rect> {
    match (a, b) {
        (Some(a), Some(b)) => {
            let (x0, y0) = (a.0.min(b.0), a.1.min(b.1));
            let (x1, y1) = ((a.0 + a.2).max(b.0 + b.2), (a.1 + a.3).max(b.1 + b.3));
            Some((x0, y0, x1 - x0, y1 - y0))
        }
        (a, b) => a.or(b),
    }
}

/// [`compare`] when every index that differs lies in `within` (`None`:
/// none does): the same answer, looking only there.
fn compare_within(prev: &[u8], cur: &[u8], width: usize, within: Option<Rect>) -> Change {
    let Some((x, y, w, h)) = within else {
        return Change {
            rect: None,
            unchanged: cur.len(),
            uncovers: false,
        };
    };
    let (mut x0, mut y0, mut x1, mut y1) = (width, usize::MAX, 0, 0);
    let (mut unchanged, mut uncovers) = (cur.len() - w * h, false);
    for row in y..y + h {
        let (c, p) = (&cur[row * width + x..][..w], &prev[row * width + x..][..w]);
        if c == p {
            unchanged += w;
            continue;
        }
        x0 = x0.min(x + first_difference(c, p));
        x1 = x1.max(x + w - 1 - last_difference(c, p));
        y0 = y0.min(row);
        y1 = row;
        unchanged += same_indices(c, p);
        uncovers = uncovers || uncovers_any(c, p);
    }
    Change {
        rect: (x0 <= x1 && y0 != usize::MAX).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1)),
        unchanged,
        uncovers,
    }
}

/// Writes the GIF of frames indexed by [`index_frames`] (or laid out as
/// it does), each shown for its `delays_ms`, on a `w` × `h` canvas.
fn write_gif(
    size: (u32, u32),
    indexed: Indexed,
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    write_gif_known(size, &indexed, delays_ms, loops, deadline, None)
}

/// [`write_gif`], given for each frame (when `known`) the rectangle in
/// which its indices may differ from the frame before's (`None`: they do
/// not), so that frames are compared only there.
fn write_gif_known(
    (w, h): (u32, u32),
    (colours, indexed, shows): &Indexed,
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
    known: Option<&[Option<Rect>]>,
) -> Result<Vec<u8>, AnimationError> {
    // Where frames `a + 1 ..= b` may differ from frame `a`.
    let known_change = |a: usize, b: usize| {
        known.map(|k| k[a + 1..=b].iter().fold(None, |u, r| rect_union(u, *r)))
    };
    let (gw, gh) = gif_size(w, h)?;
    let mut palette: Vec<u8> = colours.iter().flatten().copied().collect();
    palette.resize(256 * 3, 0);

    // With `known`: how each shown frame differs from the one shown before,
    // found while merging them.
    let mut found: Vec<Option<Change>> = vec![None; delays_ms.len()];
    // Identical consecutive frames become one, their delays added.
    let mut shown: Vec<(usize, u64)> = Vec::with_capacity(delays_ms.len());
    for (i, &delay) in delays_ms.iter().enumerate() {
        match shown.last_mut() {
            Some((j, total))
                if shows[*j] == shows[i]
                    || (shows[*j].placed, shows[i].placed) == (None, None)
                        && match known_change(*j, i) {
                            Some(within) => {
                                let (a, b) =
                                    (&indexed[shows[*j].picture], &indexed[shows[i].picture]);
                                let change = compare_within(a, b, w as usize, within);
                                found[i] = Some(change);
                                change.rect.is_none()
                            }
                            None => indexed[shows[*j].picture] == indexed[shows[i].picture],
                        } =>
            {
                *total += u64::from(delay)
            }
            _ => shown.push((i, u64::from(delay))),
        }
    }

    let mut out = Vec::new();
    {
        let mut enc = gif_codec::Encoder::new(&mut out, gw, gh, &palette).map_err(encode_error)?;
        let repeat = match loops {
            Loops::Infinite => Some(gif_codec::Repeat::Infinite),
            Loops::Times(n) if n > 1 => Some(gif_codec::Repeat::Finite(
                u16::try_from(n - 1).unwrap_or(u16::MAX),
            )),
            Loops::Times(_) => None,
        };
        if let Some(r) = repeat {
            enc.set_repeat(r).map_err(encode_error)?;
        }
        let width = w as usize;
        let full = (0, 0, width, h as usize);
        let mut lzw = Lzw::new();
        let (mut pixels, mut encoded) = (Vec::new(), Vec::new());
        // A whole frame's stream, kept when a later frame shown has the same
        // pixels: encoded whole too, it is the same stream (a shake that
        // comes back to a pose costs its LZW once).
        let mut repeats = vec![0usize; indexed.len()];
        for &(i, _) in &shown {
            repeats[shows[i].picture] += 1;
        }
        let mut whole: Vec<Option<Vec<u8>>> = vec![None; indexed.len()];
        let mut cleared = true;
        // How each shown frame differs from the one before it.
        let mut change: Option<Change> = None;
        for (k, &(i, delay)) in shown.iter().enumerate() {
            let picture = shows[i].picture;
            let cur = &indexed[picture];
            let next = shown.get(k + 1).map(|&(j, _)| shows[j]);
            // Frames of whole pictures are compared; a placed picture is
            // drawn on a cleared canvas, and cleared after.
            let next_change = match (shows[i].placed, next) {
                (None, Some(n)) if n.placed.is_none() => {
                    let after = &indexed[n.picture];
                    Some(
                        match (found[shown[k + 1].0], known_change(i, shown[k + 1].0)) {
                            (Some(change), _) => change,
                            (None, Some(within)) => compare_within(cur, after, width, within),
                            (None, None) => compare(cur, after, width),
                        },
                    )
                }
                _ => None,
            };
            // Going on uncovers transparency where this frame is opaque, or
            // shows a placed picture: clear the canvas after it (so it must
            // cover the whole canvas, or be a placed picture itself).
            let clear_after = next_change.is_some_and(|c| c.uncovers)
                || shows[i].placed.is_some()
                || next.is_some_and(|n| n.placed.is_some());
            let base = (!cleared)
                .then(|| &indexed[shows[shown[k - 1].0].picture])
                .zip(change);
            // Over a previous frame, unchanged pixels may be left
            // transparent: that makes long runs where little moves, but
            // scatters noise where nearly everything moves, so it is done
            // only when at least half the rectangle is unchanged.
            // How the frame is stored: whole; as one transparent pixel
            // (nothing changed); or as a rectangle of it, over the previous
            // frame (unchanged pixels transparent) when that is given.
            // A placed picture (on the cleared canvas) is stored at its
            // rectangle, its stream kept for its other places.
            enum Store<'p> {
                Whole,
                Placed(Rect),
                Nothing,
                Rect(Rect, Option<&'p [u8]>),
            }
            let store = match (shows[i].placed, base) {
                (Some(rect), _) => Store::Placed(rect),
                (None, None) => Store::Whole,
                (None, Some((prev, change))) => {
                    match if clear_after { Some(full) } else { change.rect } {
                        None => Store::Nothing,
                        Some(rect) => {
                            // Every pixel outside the rectangle is unchanged.
                            let (_, _, w, h) = rect;
                            let outside = cur.len() - w * h;
                            let unchanged = change.unchanged - outside;
                            // Mostly unchanged: transparent runs pay; else
                            // the plain pixels compress better.
                            let keep_prev = unchanged * 2 >= w * h;
                            if !keep_prev && rect == full {
                                Store::Whole
                            } else {
                                Store::Rect(rect, keep_prev.then_some(&prev[..]))
                            }
                        }
                    }
                }
            };
            let rect = match store {
                Store::Whole | Store::Placed(_) => {
                    encode_whole(&mut lzw, &mut whole, &repeats, picture, cur, &mut encoded);
                    match store {
                        Store::Placed(rect) => rect,
                        _ => full,
                    }
                }
                Store::Nothing => {
                    lzw.encode(&[TRANSPARENT], &mut encoded);
                    (0, 0, 1, 1)
                }
                Store::Rect(rect, over) => {
                    crop(cur, over, width, rect, &mut pixels);
                    lzw.encode(&pixels, &mut encoded);
                    rect
                }
            };
            let (left, top, fw, fh) = rect;
            let frame = gif_codec::Frame {
                left: left as u16,
                top: top as u16,
                width: fw as u16,
                height: fh as u16,
                delay: u16::try_from((delay + 5) / 10).unwrap_or(u16::MAX),
                dispose: if clear_after {
                    gif_codec::DisposalMethod::Background
                } else {
                    gif_codec::DisposalMethod::Keep
                },
                transparent: Some(TRANSPARENT),
                buffer: Cow::Borrowed(&encoded),
                ..gif_codec::Frame::default()
            };
            enc.write_lzw_pre_encoded_frame(&frame)
                .map_err(encode_error)?;
            cleared = clear_after;
            change = next_change;
            deadline.check()?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use image::{Rgba, RgbaImage};

    use super::{
        BAYER, Candidates, Dither, ExactColours, PALETTE_SAMPLE, PROBE, Planes, Quantised,
        SHIFT_REACH, TRANSPARENT, cell_centre, cell_of, distance, find_shift, first_difference,
        first_equal_frames, last_difference,
    };
    use crate::frames::Deadline;

    /// A budget no test run reaches, even on a loaded machine: these tests
    /// check what the encoder writes, not how fast.
    fn no_deadline() -> Deadline {
        Deadline::after(Duration::from_secs(3600))
    }

    /// Frames that change everywhere keep the full sample; frames that
    /// mostly repeat the one before (a small square moving over a still
    /// picture) take the smaller one, still from every frame.
    #[test]
    fn still_scenes_take_the_smaller_sample() {
        use super::{PALETTE_SAMPLE, STILL_SAMPLE, changed_spans, palette_sample, sample_all};
        let spans_of = |frames: &[RgbaImage]| -> Vec<Option<Vec<(usize, usize)>>> {
            (0..frames.len())
                .map(|i| (i > 0).then(|| changed_spans(&frames[i], &frames[i - 1])))
                .collect()
        };
        let moving: Vec<RgbaImage> = (0..8).map(|k| shaken(200, 150, k * 3, k * 2)).collect();
        let sample = palette_sample(&moving, &spans_of(&moving));
        assert!(sample == sample_all(&moving, PALETTE_SAMPLE));
        assert!(sample.len() >= PALETTE_SAMPLE);
        let still: Vec<RgbaImage> = (0..8u32)
            .map(|k| {
                let mut img = shaken(200, 150, 0, 0);
                for y in 50..70 {
                    for x in k * 10..k * 10 + 20 {
                        img.put_pixel(x, y, Rgba([255, 0, 0, 255]));
                    }
                }
                img
            })
            .collect();
        let spans = spans_of(&still);
        // Each frame differs from the one before only in the square's
        // rows, from where it was to where it is.
        assert!(spans[3].as_ref().unwrap()[10] == (200, 200));
        assert!(spans[3].as_ref().unwrap()[55] == (20, 50));
        let sample = palette_sample(&still, &spans);
        assert!(sample == sample_all(&still, STILL_SAMPLE));
        assert!((STILL_SAMPLE..STILL_SAMPLE * 2).contains(&sample.len()));
    }

    /// Frames that change everywhere and come back to earlier poses (a
    /// pat's way back up) sample each distinct picture once, at the rate
    /// the frames were sampled: fewer pixels, none of them a repeat.
    #[test]
    fn repeated_poses_are_sampled_once() {
        use super::{changed_spans, changes_everywhere, repeated_sample, sample_all};
        let poses: Vec<RgbaImage> = (0..6).map(|k| shaken(200, 150, k * 3, k * 2)).collect();
        let order = [0usize, 1, 2, 3, 4, 5, 4, 3, 2, 1];
        let frames: Vec<RgbaImage> = order.iter().map(|&k| poses[k].clone()).collect();
        let pictures: Vec<&RgbaImage> = poses.iter().collect();
        let spans: Vec<Option<Vec<(usize, usize)>>> = (0..pictures.len())
            .map(|i| (i > 0).then(|| changed_spans(pictures[i], pictures[i - 1])))
            .collect();
        assert!(changes_everywhere(&frames, &spans));
        let sample = repeated_sample(&frames, &pictures);
        let want = (PALETTE_SAMPLE * 6).div_ceil(10);
        assert!(sample == sample_all(&pictures, want));
        assert!((want..want * 2).contains(&sample.len()));
        // Mostly still pictures keep the smaller sample's rule.
        let still: Vec<RgbaImage> = (0..6).map(|_| shaken(200, 150, 0, 0)).collect();
        let still_spans: Vec<Option<Vec<(usize, usize)>>> = (0..still.len())
            .map(|i| (i > 0).then(|| changed_spans(&still[i], &still[i - 1])))
            .collect();
        assert!(!changes_everywhere(&still, &still_spans));
    }

    #[test]
    fn differences_are_found_at_every_place() {
        for len in [0usize, 1, 63, 64, 65, 200] {
            let a = vec![7u8; len];
            assert_eq!(
                (first_difference(&a, &a), last_difference(&a, &a)),
                (len, len)
            );
            for at in 0..len {
                let mut b = a.clone();
                b[at] = 8;
                assert_eq!(first_difference(&a, &b), at, "{len} {at}");
                assert_eq!(last_difference(&a, &b), len - 1 - at, "{len} {at}");
            }
        }
    }

    /// Mapping a frame with the one before it copies the indices of equal
    /// pixels; the result is what mapping it alone gives: a many-coloured
    /// card whose middle changes, with transparent holes moving.
    #[test]
    fn indices_copied_from_the_frame_before_are_those_mapped_anew() {
        let frames: Vec<RgbaImage> = (0..4u32)
            .map(|k| {
                RgbaImage::from_fn(61, 43, |x, y| {
                    let inside = (20..40).contains(&x) && (10..30).contains(&y);
                    let alpha = if (x + y + k) % 17 == 0 { 0 } else { 255 };
                    if inside {
                        Rgba([(x * 9 + k * 40) as u8, (y * 5) as u8, (k * 60) as u8, 255])
                    } else {
                        Rgba([(x * 4) as u8, (y * 6) as u8, ((x + y) * 3) as u8, alpha])
                    }
                })
            })
            .collect();
        let mut q = Quantised::train(&frames.iter().collect::<Vec<_>>(), PALETTE_SAMPLE);
        let alone: Vec<Vec<u8>> = frames
            .iter()
            .map(|f| {
                let mut out = Vec::new();
                q.index_frame(f, None, &mut out);
                out
            })
            .collect();
        for k in 1..frames.len() {
            let mut out = Vec::new();
            q.index_frame(&frames[k], Some((&frames[k - 1], &alone[k - 1])), &mut out);
            assert!(out == alone[k], "frame {k}");
        }
        // And something was copied: the card outside the middle is the same
        // in frames 0 and 2 where the holes are not.
        assert!(
            alone[0]
                .iter()
                .zip(&alone[2])
                .filter(|(a, b)| a == b)
                .count()
                > 61 * 43 / 2
        );
    }

    /// The indices written while collecting are those a lookup of every
    /// pixel in the final (merged) set gives.
    fn indices_match_lookups(frames: &[RgbaImage]) -> usize {
        let deadline = no_deadline();
        let (set, indexed) = ExactColours::index(&frames.iter().collect::<Vec<_>>(), &deadline)
            .unwrap()
            .unwrap();
        assert!(set.colours.len() <= usize::from(TRANSPARENT));
        for (frame, got) in frames.iter().zip(&indexed) {
            let mut want = Vec::new();
            set.index_frame(frame, &mut want);
            assert!(got == &want);
        }
        set.colours.len()
    }

    /// Greys `0, step, 2 × step…` (`levels` of them).
    fn grey_frames(levels: u32, step: u32, holes: bool) -> Vec<RgbaImage> {
        (0..4)
            .map(|k| {
                RgbaImage::from_fn(37, 23, |x, y| {
                    let g = ((x * 7 + y * 3 + k * 5) % levels * step) as u8;
                    let alpha = if holes && (x + k) % 9 == 0 { 0 } else { 255 };
                    Rgba([g, g, g, alpha])
                })
            })
            .collect()
    }

    #[test]
    fn one_pass_indices_are_the_merged_colours() {
        // No merge; one level apart (renumbered); a full greyscale with
        // and without transparency (index 255 a colour as it is collected).
        assert_eq!(indices_match_lookups(&grey_frames(3, 100, true)), 3);
        // A kept grey takes in at most the greys on either side of it.
        for (levels, holes) in [(200, true), (256, false), (256, true)] {
            let kept = indices_match_lookups(&grey_frames(levels, 1, holes));
            assert!((levels as usize / 3..levels as usize / 2 + 40).contains(&kept));
        }
        let spaced: Vec<RgbaImage> = (0..3)
            .map(|k| {
                RgbaImage::from_fn(64, 64, |x, y| {
                    let v = ((x + y * 64 + k * 11) % 255) as u8;
                    Rgba([v, v.wrapping_mul(3), 255 - v, 255])
                })
            })
            .collect();
        assert_eq!(indices_match_lookups(&spaced), 255);
        let over = RgbaImage::from_fn(17, 17, |x, y| Rgba([x as u8 * 15, y as u8 * 15, 9, 255]));
        let deadline = no_deadline();
        assert!(ExactColours::index(&[&over], &deadline).unwrap().is_none());
    }

    /// A seeded xorshift generator.
    fn xorshift(mut seed: u32) -> impl FnMut() -> u32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        }
    }

    /// Palettes for the nearest-colour searches: of few levels (ties),
    /// spread over the cube (long lists, some past the most kept), packed
    /// near one colour (short ones), and of one colour.
    fn search_palettes(next: &mut impl FnMut() -> u32) -> Vec<Vec<[u8; 3]>> {
        vec![
            (0..100)
                .map(|_| [0; 3].map(|_: u8| (next() % 4 * 85) as u8))
                .collect(),
            (0..255).map(|_| [0; 3].map(|_: u8| next() as u8)).collect(),
            (0..255)
                .map(|_| [0; 3].map(|_: u8| (96 + next() % 64) as u8))
                .collect(),
            vec![[10, 20, 30]],
        ]
    }

    /// The ordered search picks what a plain scan picks, the first of
    /// equally near colours included.
    #[test]
    fn candidate_lists_give_the_first_closest_colour() {
        let mut next = xorshift(0x1357_9BDF);
        let palettes = search_palettes(&mut next);
        for colours in &palettes {
            let planes = Planes::new(colours);
            for span in [(0, 15), (2, 14)] {
                let mut candidates = Candidates::new(span);
                for k in 0..4000 {
                    let mut rgb = [0; 3].map(|_: u8| next() as u8);
                    if k % 2 == 0 {
                        // Near the palette, where most searches are.
                        let c = colours[next() as usize % colours.len()];
                        rgb = c.map(|v| v.saturating_add((next() % 9) as u8).saturating_sub(4));
                    }
                    if span.0 == 2 {
                        // A lookup cell's centre.
                        rgb = rgb.map(|v| v & !3 | 2);
                    }
                    let hint = Some((next() % colours.len() as u32) as u8);
                    assert_eq!(
                        candidates.nearest(&planes, rgb, hint),
                        planes.nearest(rgb),
                        "{rgb:?} in {} colours",
                        colours.len()
                    );
                }
            }
        }
    }

    /// A box's cells filled at once hold what each cell's own search
    /// gives, for every box of the colour cube.
    #[test]
    fn cells_filled_by_box_are_those_searched_one_by_one() {
        let mut next = xorshift(0x0BAD_5EED);
        let palettes = search_palettes(&mut next);
        for colours in &palettes {
            let planes = Planes::new(colours);
            let mut candidates = Candidates::new((2, 14));
            let mut filled = 0;
            for key in 0..4096 {
                let mut cells = [0u8; 64];
                if !candidates.fill_cells(&planes, key, &mut cells) {
                    continue;
                }
                filled += 1;
                for (low, &index) in cells.iter().enumerate() {
                    let centre = cell_centre(key << 6 | low);
                    assert_eq!(index, planes.nearest(centre), "{centre:?}");
                }
            }
            assert!(filled > 0);
        }
    }

    #[test]
    fn nearest_is_the_first_closest_colour() {
        let mut next = xorshift(0x2468_ACE1);
        for len in [1, 2, 7, 8, 9, 100, 255] {
            // Few levels, so that ties happen.
            let colours: Vec<[u8; 3]> = (0..len)
                .map(|_| [0; 3].map(|_: u8| (next() % 4 * 85) as u8))
                .collect();
            let planes = Planes::new(&colours);
            for _ in 0..500 {
                let rgb = [0; 3].map(|_: u8| next() as u8);
                let mut best = (u32::MAX, 0);
                for (i, &c) in colours.iter().enumerate() {
                    if distance(rgb, c) < best.0 {
                        best = (distance(rgb, c), i);
                    }
                }
                assert_eq!(usize::from(planes.nearest(rgb)), best.1, "{rgb:?} in {len}");
                // Any starting colour gives the same answer.
                let hint = (next() % len as u32) as u8;
                assert_eq!(
                    usize::from(planes.nearest_from(rgb, Some(hint))),
                    best.1,
                    "{rgb:?} from {hint} in {len}"
                );
            }
        }
    }

    /// A photo-like picture: smooth colour with noise, `w` × `h`, seen
    /// through a window moved by `(dx, dy)` over a larger one.
    fn shaken(w: u32, h: u32, dx: i32, dy: i32) -> RgbaImage {
        RgbaImage::from_fn(w, h, |x, y| {
            let (u, v) = ((x as i32 + dx) as u32, (y as i32 + dy) as u32);
            let n = (u.wrapping_mul(2_654_435_761) ^ v.wrapping_mul(40_503)) >> 27;
            Rgba([
                (u * 2 + n) as u8,
                (v * 3 + n) as u8,
                ((u + v) + n * 3) as u8,
                255,
            ])
        })
    }

    /// Every colour of 6 bits a channel has a cell of its own, whose centre
    /// is that colour's (the 8-bit levels `4 × v + 2`).
    #[test]
    fn cells_hold_each_colour_once() {
        let mut seen = vec![false; 1 << 18];
        for r in 0..64u32 {
            for g in 0..64u32 {
                for b in 0..64u32 {
                    // Any of the 4 levels of each 6-bit value, and any alpha.
                    let rgb = (r << 2 | (b & 3))
                        | (g << 2 | (r & 3)) << 8
                        | (b << 2 | (g & 3)) << 16
                        | (r * 4) << 24;
                    let cell = cell_of(rgb);
                    assert!(!seen[cell], "{r} {g} {b}");
                    seen[cell] = true;
                    assert_eq!(cell_centre(cell), [r, g, b].map(|v| (v * 4 + 2) as u8));
                }
            }
        }
    }

    /// The dither as saturating bytes is the offset added and clamped, for
    /// every value, place and amplitude, on rows of every length.
    #[test]
    fn byte_dither_is_the_clamped_offset() {
        for amp in 2..=16 {
            let dither = Dither::new(amp);
            let off = |t: u8| (i32::from(t) * 2 - 63) * amp / 64;
            for width in [1usize, 7, 8, 9, 64, 67] {
                for y in 0..8 {
                    for v in (0..=255u8).step_by(3) {
                        let row: Vec<u8> = (0..width * 4)
                            .map(|i| v.wrapping_add((i * 37) as u8))
                            .collect();
                        let mut out = vec![0u8; row.len()];
                        dither.row(&row, y, &mut out);
                        for x in 0..width {
                            let b = BAYER[y % 8][x % 8];
                            let o = [off(b), off(63 - b), off(BAYER[x % 8][y % 8]), 0];
                            for c in 0..4 {
                                let want = (i32::from(row[x * 4 + c]) + o[c]).clamp(0, 255);
                                assert_eq!(
                                    i32::from(out[x * 4 + c]),
                                    want,
                                    "amp {amp}, width {width}, ({x}, {y}), channel {c}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// A moved frame's pixels equal to the pixel they moved from take its
    /// index, every other pixel the index it has mapped alone: with pixels
    /// changed here and there in the moved picture (so runs of equal pixels
    /// of every length) and transparent holes.
    #[test]
    fn moved_pixels_copy_exactly_those_equal() {
        let a = shaken(77, 50, 20, 20);
        let mut b = shaken(77, 50, 15, 23);
        for (i, p) in b.pixels_mut().enumerate() {
            if i % 13 == 0 || i % 29 < 3 {
                p.0[0] ^= 0x40;
            }
            if i % 31 == 5 {
                p.0[3] = 0;
            }
        }
        // Keep the probe's run (the middle) unchanged, so the move is found.
        for x in 0..77 {
            *b.get_pixel_mut(x, 25) = shaken(77, 50, 15, 23).get_pixel(x, 25).to_owned();
        }
        let (dx, dy) = find_shift(&b, &a).expect("a shift");
        assert_eq!((dx, dy), (5, -3));
        let mut q = Quantised::train(&[&a, &b], PALETTE_SAMPLE);
        let (mut ia, mut ib, mut alone) = (Vec::new(), Vec::new(), Vec::new());
        q.index_frame(&a, None, &mut ia);
        q.index_frame(&b, Some((&a, &ia)), &mut ib);
        q.index_frame(&b, None, &mut alone);
        let mut copied = 0;
        for y in 0..50isize {
            for x in 0..77isize {
                let (sx, sy) = (x - dx, y - dy);
                let at = (y * 77 + x) as usize;
                let p = b.get_pixel(x as u32, y as u32);
                let inside = (0..77).contains(&sx) && (0..50).contains(&sy);
                let want = if inside && a.get_pixel(sx as u32, sy as u32) == p {
                    copied += 1;
                    ia[(sy * 77 + sx) as usize]
                } else {
                    alone[at]
                };
                assert_eq!(ib[at], want, "({x}, {y})");
            }
        }
        assert!(copied > 77 * 50 / 2, "{copied} copied");
    }

    /// The search finds the offset a plain scan of every offset (`dy`, then
    /// `dx`, rising) finds first, also where several match (a repeating
    /// pattern) and near the edges.
    #[test]
    fn the_shift_found_is_the_first_in_order() {
        fn scan(cur: &RgbaImage, prev: &RgbaImage) -> Option<(isize, isize)> {
            let (w, h) = (cur.width() as isize, cur.height() as isize);
            if w < PROBE as isize * 2 || h < 4 {
                return None;
            }
            let run = |img: &RgbaImage, x: isize, y: isize| -> Vec<u8> {
                let at = (y * w + x) as usize * 4;
                img.as_raw()[at..at + PROBE * 4].to_vec()
            };
            for (fx, fy) in [(2, 2), (1, 1), (3, 1), (1, 3), (3, 3)] {
                let (px, py) = (
                    (w * fx / 4 - PROBE as isize / 2).clamp(0, w - PROBE as isize),
                    h * fy / 4,
                );
                let want = run(cur, px, py);
                if want == run(prev, px, py) || want.chunks_exact(4).all(|p| *p == want[..4]) {
                    continue;
                }
                for dy in -SHIFT_REACH..=SHIFT_REACH {
                    for dx in -SHIFT_REACH..=SHIFT_REACH {
                        let (sx, sy) = (px - dx, py - dy);
                        if (0..h).contains(&sy)
                            && sx >= 0
                            && sx + PROBE as isize <= w
                            && (dx, dy) != (0, 0)
                            && run(prev, sx, sy) == want
                        {
                            return Some((dx, dy));
                        }
                    }
                }
            }
            None
        }
        let stripes = |w: u32, h: u32, k: u32| {
            RgbaImage::from_fn(w, h, |x, y| {
                Rgba([((x + k) % 5 * 50) as u8, ((y + k) % 3 * 80) as u8, 7, 255])
            })
        };
        let pairs = [
            (shaken(96, 80, 13, 24), shaken(96, 80, 20, 20)),
            (shaken(96, 80, 20, 20), shaken(96, 80, 13, 24)),
            (shaken(40, 30, 0, 3), shaken(40, 30, 31, 0)),
            (shaken(300, 200, 60, 60), shaken(300, 200, 12, 100)),
            (stripes(64, 48, 1), stripes(64, 48, 0)),
            (stripes(33, 9, 2), stripes(33, 9, 0)),
            (stripes(200, 120, 0), shaken(200, 120, 0, 0)),
        ];
        for (k, (cur, prev)) in pairs.iter().enumerate() {
            assert_eq!(find_shift(cur, prev), scan(cur, prev), "pair {k}");
        }
        assert!(find_shift(&pairs[4].0, &pairs[4].1).is_some());
    }

    /// A frame that shows the frame before moved is found moved, and each of
    /// its pixels that moved from one takes that one's index; the others
    /// (the strip the move uncovers) are mapped, to colours near theirs.
    #[test]
    fn a_moved_picture_keeps_its_indices() {
        let (a, b) = (shaken(96, 80, 20, 20), shaken(96, 80, 13, 24));
        // b at (x, y) is a at (x - 7, y + 4): b shows a moved by (7, -4).
        assert_eq!(find_shift(&b, &a), Some((7, -4)));
        let mut q = Quantised::train(&[&a, &b], PALETTE_SAMPLE);
        let (mut ia, mut ib) = (Vec::new(), Vec::new());
        q.index_frame(&a, None, &mut ia);
        q.index_frame(&b, Some((&a, &ia)), &mut ib);
        for y in 0..80usize {
            for x in 0..96usize {
                let got = ib[y * 96 + x];
                if x >= 7 && y + 4 < 80 {
                    assert_eq!(got, ia[(y + 4) * 96 + x - 7], "({x}, {y})");
                }
                let p = b.get_pixel(x as u32, y as u32).0;
                let c = q.colours[usize::from(got)];
                let far = (0..3).map(|i| p[i].abs_diff(c[i])).max().unwrap();
                assert!(far <= 48, "({x}, {y}): {p:?} as {c:?}");
            }
        }
        // Flat colour and unmoved frames have no shift.
        let flat = RgbaImage::from_pixel(96, 80, Rgba([9, 9, 9, 255]));
        assert_eq!(find_shift(&flat, &a), None);
        assert_eq!(find_shift(&a, &a), None);
    }

    /// Tiny frames of many colours (the palette trained, rows shorter than
    /// the dither's 8 pixels, holes): 300 frames of 1 × 1, each another
    /// colour, and 40 of 5 × 3; each decodes to colours near its own.
    /// (Consecutive frames mapped to the same indices are merged, their
    /// delays added: each source frame is shown for 10 ms, one hundredth.)
    #[test]
    fn tiny_frames_of_many_colours_decode_near() {
        let one: Vec<RgbaImage> = (0..300u32)
            .map(|k| {
                RgbaImage::from_pixel(
                    1,
                    1,
                    Rgba([(k * 7) as u8, (k * 13) as u8, (k * 29) as u8, 255]),
                )
            })
            .collect();
        let small: Vec<RgbaImage> = (0..40u32)
            .map(|k| {
                RgbaImage::from_fn(5, 3, |x, y| {
                    let v = k * 15 + y * 5 + x;
                    let alpha = if (v * 7) % 11 == 0 { 0 } else { 255 };
                    Rgba([(v * 37) as u8, (v * 11) as u8, 255 - (v * 3) as u8, alpha])
                })
            })
            .collect();
        for frames in [small, one] {
            let deadline = no_deadline();
            let delays = vec![10; frames.len()];
            let gif =
                super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
            let (w, h) = frames[0].dimensions();
            let mut k = 0;
            for (screen, delay) in shown_screens(&gif, w as usize, h as usize) {
                for source in &frames[k..k + usize::from(delay)] {
                    for (p, q) in source.as_raw().chunks_exact(4).zip(screen.chunks_exact(4)) {
                        if p[3] < 128 {
                            assert_eq!(q[3], 0, "frame {k}: a hole");
                        } else {
                            let far = (0..3).map(|c| p[c].abs_diff(q[c])).max().unwrap();
                            assert!(q[3] == 255 && far <= 48, "frame {k}: {p:?} as {q:?}");
                        }
                    }
                }
                k += usize::from(delay);
            }
            assert_eq!(k, frames.len());
        }
    }

    /// What a viewer shows for each frame of `gif` (`width` × `height`,
    /// RGBA, a frame drawn over the one before unless that one was disposed
    /// to the background), with the frame's delay in centiseconds.
    fn shown_screens(gif: &[u8], width: usize, height: usize) -> Vec<(Vec<u8>, u16)> {
        let mut options = gif_codec::DecodeOptions::new();
        options.set_color_output(gif_codec::ColorOutput::RGBA);
        let mut decoder = options.read_info(gif).unwrap();
        let mut screen = vec![0u8; width * height * 4];
        let (mut shown, mut disposed) = (Vec::new(), false);
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            if disposed {
                screen.fill(0);
            }
            disposed = frame.dispose == gif_codec::DisposalMethod::Background;
            let (left, top, fw) = (
                usize::from(frame.left),
                usize::from(frame.top),
                usize::from(frame.width),
            );
            for (i, px) in frame.buffer.chunks_exact(4).enumerate() {
                if px[3] != 0 {
                    let at = ((top + i / fw) * width + left + i % fw) * 4;
                    screen[at..at + 4].copy_from_slice(px);
                }
            }
            shown.push((screen.clone(), frame.delay));
        }
        shown
    }

    /// What a viewer shows (`screen`, RGBA) is frame `k` as drawn: its
    /// transparent pixels transparent, the others opaque and within a
    /// palette's dither of their colour.
    fn assert_shows(frame: &RgbaImage, screen: &[u8], k: usize) {
        for (p, q) in frame.as_raw().chunks_exact(4).zip(screen.chunks_exact(4)) {
            if p[3] == 0 {
                assert_eq!(q[3], 0, "frame {k}: a transparent pixel shows");
            } else {
                let far = (0..3).map(|c| p[c].abs_diff(q[c])).max().unwrap();
                assert!(q[3] == 255 && far <= 48, "frame {k}: {p:?} as {q:?}");
            }
        }
    }

    /// `picture` at `(x, y)` on a transparent `w` × `h` canvas.
    fn placed(picture: &RgbaImage, w: u32, h: u32, (x, y): (u32, u32)) -> RgbaImage {
        let mut frame = RgbaImage::new(w, h);
        image::imageops::replace(&mut frame, picture, i64::from(x), i64::from(y));
        frame
    }

    /// A picture that moves on a transparent canvas (a shake) is mapped and
    /// compressed once: every frame is that one stream at the frame's place
    /// (its rectangle inside the screen), disposed to the background; shown
    /// as a viewer shows it, each frame is the picture at its place over
    /// transparency.
    #[test]
    fn a_picture_moving_on_a_transparent_canvas_is_stored_once() {
        let mut picture = shaken(56, 40, 4, 4);
        // A transparent hole inside it, and a corner: kept as they are.
        for (x, y, p) in picture.enumerate_pixels_mut() {
            if (20..26).contains(&x) && (10..14).contains(&y) || x + y < 3 {
                p.0[3] = 0;
            }
        }
        let places = [(0, 0), (10, 2), (4, 10), (10, 10), (0, 6), (6, 0), (2, 8)];
        let frames: Vec<RgbaImage> = places
            .iter()
            .map(|&at| placed(&picture, 66, 50, at))
            .collect();
        let deadline = no_deadline();
        let delays = [40; 7];
        let gif = super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
        // The stored frames: one stream, at each place.
        let mut options = gif_codec::DecodeOptions::new();
        options.skip_frame_decoding(true);
        let mut decoder = options.read_info(&gif[..]).unwrap();
        let mut streams = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            let k = streams.len();
            let (x, y) = places[k];
            assert_eq!(
                (frame.left, frame.top, frame.width, frame.height),
                (x as u16, y as u16, 56, 40),
                "frame {k}"
            );
            assert_eq!(frame.dispose, gif_codec::DisposalMethod::Background);
            streams.push(frame.buffer.to_vec());
        }
        assert_eq!(streams.len(), 7);
        assert!(streams.iter().all(|s| *s == streams[0]));
        // The palette, and the one stream for each frame (a GIF frame holds
        // its own data) with little more.
        let most = 800 + 7 * (streams[0].len() + 40);
        assert!(gif.len() < most, "{} bytes", gif.len());
        // What a viewer shows.
        let shown = shown_screens(&gif, 66, 50);
        assert_eq!(shown.len(), 7);
        for (k, (screen, delay)) in shown.iter().enumerate() {
            assert_eq!(*delay, 4);
            assert_shows(&frames[k], screen, k);
        }
    }

    /// A picture handed over with its places ([`super::encode_gif_placed`])
    /// is the same GIF, byte for byte, as its frames composed and found to
    /// be one picture moved: photo-like (a trained palette) or of a few
    /// colours (kept exactly), with a frame at the same place twice in a
    /// row (merged). One that does not fit the canvas everywhere is encoded
    /// from its composed frames, and shows them.
    #[test]
    fn a_placed_picture_is_the_gif_of_its_composed_frames() {
        use crate::placed::PlacedFrames;
        let mut photo = shaken(56, 40, 4, 4);
        for (x, y, p) in photo.enumerate_pixels_mut() {
            if (20..26).contains(&x) && (10..14).contains(&y) || x + y < 3 {
                p.0[3] = 0;
            }
        }
        let flat = RgbaImage::from_fn(30, 20, |x, y| {
            Rgba([(x / 6 * 40) as u8, 200, (y / 5 * 60) as u8, 255])
        });
        let deadline = no_deadline();
        let places = [(0, 0), (10, 2), (10, 2), (4, 10), (10, 10), (0, 6), (6, 0)];
        for picture in [photo, flat] {
            let handed = PlacedFrames {
                canvas: (66, 50),
                picture: picture.clone(),
                frames: places
                    .iter()
                    .enumerate()
                    .map(|(k, &at)| (at, 30 + k as u32 * 10))
                    .collect(),
            };
            let frames: Vec<RgbaImage> = places
                .iter()
                .map(|&at| placed(&picture, 66, 50, at))
                .collect();
            let delays: Vec<u32> = handed.frames.iter().map(|&(_, d)| d).collect();
            let whole =
                super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
            let gif = super::encode_gif_placed(&handed, crate::Loops::Infinite, &deadline).unwrap();
            assert!(
                gif == whole,
                "{} bytes, {} composed",
                gif.len(),
                whole.len()
            );
            let shown = shown_screens(&gif, 66, 50);
            assert_eq!(shown.len(), 6);
            assert_shows(&frames[0], &shown[0].0, 0);
            assert_shows(&frames[3], &shown[2].0, 3);
        }
        // Partly off the canvas: the frames as composed, clipped.
        let picture = shaken(40, 30, 0, 0);
        let off = PlacedFrames {
            canvas: (50, 40),
            picture: picture.clone(),
            frames: vec![((0, 0), 40), ((20, 15), 40)],
        };
        assert!(!off.fits());
        let gif = super::encode_gif_placed(&off, crate::Loops::Infinite, &deadline).unwrap();
        let shown = shown_screens(&gif, 50, 40);
        assert_eq!(shown.len(), 2);
        for (k, (screen, _)) in shown.iter().enumerate() {
            assert_shows(&off.frame(k), screen, k);
        }
        let empty = PlacedFrames {
            frames: Vec::new(),
            ..off
        };
        assert!(super::encode_gif_placed(&empty, crate::Loops::Infinite, &deadline).is_err());
    }

    /// Frames given as the first and each later frame's changed rectangle
    /// encode to the file their composed frames do: a still photo-like
    /// scene with a square moving over it (rectangles holding unchanged
    /// pixels too, a frame given again with no change, one that is the
    /// frame before again by its pixels, one that uncovers transparency),
    /// frames changing everywhere (each picture sampled once), and few
    /// colours (the exact palette). Rectangles past the canvas are encoded
    /// from the composed frames, clipped.
    #[test]
    fn patched_frames_are_the_gif_of_their_composed_frames() {
        use crate::patched::{Patch, PatchedFrames};
        let deadline = no_deadline();
        let patch = |at: (u32, u32), pixels: RgbaImage| Some(Patch { at, pixels });
        let square = shaken(12, 10, 40, 7);
        let mut holed = square.clone();
        holed.put_pixel(3, 3, Rgba([0, 0, 0, 0]));
        let scene = shaken(90, 70, 0, 0);
        // The square at `at` over the scene, within the box `(x, y, w, h)`.
        let over = |at: (u32, u32), square: &RgbaImage, (x, y, w, h): (u32, u32, u32, u32)| {
            let mut frame = scene.clone();
            image::imageops::replace(&mut frame, square, i64::from(at.0), i64::from(at.1));
            image::imageops::crop_imm(&frame, x, y, w, h).to_image()
        };
        let moving = PatchedFrames {
            first: scene.clone(),
            frames: vec![
                (None, 40),
                (patch((10, 8), over((12, 9), &square, (10, 8, 20, 16))), 40),
                (None, 50),
                (patch((10, 8), over((12, 9), &square, (10, 8, 20, 16))), 60),
                (patch((8, 5), over((30, 12), &square, (8, 5, 40, 20))), 40),
                (
                    patch((28, 10), over((30, 30), &holed, (28, 10, 16, 34))),
                    40,
                ),
                (patch((0, 0), scene.clone()), 70),
            ],
        };
        let everywhere = PatchedFrames {
            first: shaken(240, 210, 0, 0),
            frames: vec![
                (None, 40),
                (patch((0, 0), shaken(240, 210, 3, 1)), 40),
                (None, 40),
                (patch((0, 0), shaken(240, 210, 5, 9)), 40),
            ],
        };
        let flat = |x: u32, y: u32| Rgba([(x / 8 * 40) as u8, 200, (y / 6 * 50) as u8, 255]);
        let few = PatchedFrames {
            first: RgbaImage::from_fn(40, 30, flat),
            frames: vec![
                (None, 40),
                (
                    patch((4, 4), RgbaImage::from_pixel(6, 5, Rgba([9, 9, 9, 255]))),
                    40,
                ),
            ],
        };
        for (name, patched) in [("moving", moving), ("everywhere", everywhere), ("few", few)] {
            assert!(patched.fits(), "{name}");
            let (frames, delays): (Vec<RgbaImage>, Vec<u32>) =
                patched.composed().into_iter().unzip();
            let whole =
                super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
            let gif =
                super::encode_gif_patched(&patched, crate::Loops::Infinite, &deadline).unwrap();
            assert!(
                gif == whole,
                "{name}: {} bytes, {} composed",
                gif.len(),
                whole.len()
            );
        }
        let off = PatchedFrames {
            first: scene.clone(),
            frames: vec![(None, 40), (patch((85, 60), shaken(10, 12, 1, 1)), 40)],
        };
        assert!(!off.fits());
        let gif = super::encode_gif_patched(&off, crate::Loops::Infinite, &deadline).unwrap();
        let shown = shown_screens(&gif, 90, 70);
        assert_eq!(shown.len(), 2);
        for (k, (frame, _)) in off.composed().iter().enumerate() {
            assert_shows(frame, &shown[k].0, k);
        }
        let empty = PatchedFrames {
            frames: Vec::new(),
            ..off
        };
        assert!(super::encode_gif_patched(&empty, crate::Loops::Infinite, &deadline).is_err());
    }

    /// Pictures are cut out only within the byte budget: the first moving
    /// picture (by its first frame) is cut, one past the budget stays in
    /// its whole frames.
    #[test]
    fn moving_pictures_are_cut_out_within_a_budget() {
        let (a, b) = (shaken(20, 10, 1, 2), shaken(16, 12, 5, 3));
        let frames = [
            placed(&a, 40, 30, (0, 0)),
            placed(&b, 40, 30, (2, 2)),
            placed(&a, 40, 30, (6, 4)),
            placed(&b, 40, 30, (8, 10)),
        ];
        let all = super::moved_contents(&frames, 20 * 10 * 4 + 16 * 12 * 4);
        assert_eq!(
            all,
            [
                Some(((0, 0, 20, 10), 0)),
                Some(((2, 2, 16, 12), 1)),
                Some(((6, 4, 20, 10), 0)),
                Some(((8, 10, 16, 12), 1)),
            ]
        );
        let one = super::moved_contents(&frames, 20 * 10 * 4 + 16 * 12 * 4 - 1);
        assert_eq!(one, [all[0], None, all[2], None]);
        assert!(
            super::moved_contents(&frames, 0)
                .iter()
                .all(Option::is_none)
        );
    }

    /// A picture that moves while it changes (an animated avatar shaken)
    /// is stored frame by frame, and still shows each frame's picture at
    /// its place over transparency.
    #[test]
    fn a_changing_picture_moving_on_a_transparent_canvas_shows_each_frame() {
        let places = [(0, 0), (10, 2), (4, 10), (10, 10)];
        let frames: Vec<RgbaImage> = places
            .iter()
            .enumerate()
            .map(|(k, &at)| placed(&shaken(56, 40, k as i32 * 3, 0), 66, 50, at))
            .collect();
        let deadline = no_deadline();
        let gif = super::encode_gif(&frames, &[40; 4], crate::Loops::Infinite, &deadline).unwrap();
        let shown = shown_screens(&gif, 66, 50);
        assert_eq!(shown.len(), 4);
        for (k, (screen, _)) in shown.iter().enumerate() {
            assert_shows(&frames[k], screen, k);
        }
    }

    /// The bounds of what is not transparent, the rest at any alpha under
    /// the cutoff.
    #[test]
    fn opaque_bounds_are_the_rectangle_of_visible_pixels() {
        let mut frame = RgbaImage::from_pixel(30, 20, Rgba([1, 2, 3, 100]));
        assert_eq!(super::opaque_bounds(&frame), None);
        for (x, y) in [(7, 4), (12, 15), (3, 9), (20, 6)] {
            frame.put_pixel(x, y, Rgba([9, 9, 9, 128]));
        }
        assert_eq!(super::opaque_bounds(&frame), Some((3, 4, 18, 12)));
        let full = RgbaImage::from_pixel(5, 4, Rgba([0, 0, 0, 255]));
        assert_eq!(super::opaque_bounds(&full), Some((0, 0, 5, 4)));
        // Pixels scattered over frames of many widths (whole and partial
        // groups of 8): the rectangle of a pixel-by-pixel scan.
        let mut next = xorshift(0x0BAD_F00D);
        for width in [1, 7, 8, 9, 16, 17, 31, 64, 70] {
            for count in [1, 2, 5] {
                let mut frame = RgbaImage::from_pixel(width, 6, Rgba([0, 0, 0, 127]));
                for _ in 0..count {
                    let seed = next();
                    frame.put_pixel(seed % width, seed / width % 6, Rgba([5, 5, 5, 200]));
                }
                let seen: Vec<(u32, u32)> = frame
                    .enumerate_pixels()
                    .filter(|(_, _, p)| p[3] >= 128)
                    .map(|(x, y, _)| (x, y))
                    .collect();
                let (x0, x1) = (
                    seen.iter().map(|p| p.0).min(),
                    seen.iter().map(|p| p.0).max(),
                );
                let (y0, y1) = (
                    seen.iter().map(|p| p.1).min(),
                    seen.iter().map(|p| p.1).max(),
                );
                let want = x0.zip(x1).zip(y0.zip(y1)).map(|((x0, x1), (y0, y1))| {
                    let (x0, y0) = (x0 as usize, y0 as usize);
                    (x0, y0, x1 as usize + 1 - x0, y1 as usize + 1 - y0)
                });
                assert_eq!(super::opaque_bounds(&frame), want, "{width} {count}");
            }
        }
    }

    /// Frames with the same pixels as an earlier one are found (not only
    /// consecutive ones), and the GIF shows every frame as drawn: a shake
    /// between poses that come back decodes to the poses.
    #[test]
    fn frames_that_come_back_are_found_and_shown() {
        let poses = [(0, 0), (9, 5), (3, 11)];
        let order = [0usize, 1, 2, 1, 0, 2];
        let frames: Vec<RgbaImage> = order
            .iter()
            .map(|&k| shaken(64, 48, poses[k].0, poses[k].1))
            .collect();
        assert_eq!(first_equal_frames(&frames), vec![0, 1, 2, 1, 0, 2]);
        let deadline = no_deadline();
        let gif = super::encode_gif(&frames, &[40; 6], crate::Loops::Infinite, &deadline).unwrap();
        let shown: Vec<Vec<u8>> = shown_screens(&gif, 64, 48)
            .into_iter()
            .map(|(screen, _)| screen)
            .collect();
        assert_eq!(shown.len(), 6);
        for (i, j) in [(0, 4), (1, 3), (2, 5)] {
            assert!(shown[i] == shown[j], "frames {i} and {j}");
        }
        for (k, screen) in shown.iter().enumerate() {
            let want = frames[k].as_raw();
            let far = screen
                .iter()
                .zip(want)
                .map(|(a, b)| a.abs_diff(*b))
                .max()
                .unwrap();
            assert!(far <= 48, "frame {k}: {far}");
        }
    }
}
