//! The palette and the mapping of pixels to it: exact colours when there
//! are few, otherwise NeuQuant trained on a sample and refined by k-means,
//! with ordered dithering.

use super::*;

/// Pixels sampled from all frames to train the palette.
pub(super) const PALETTE_SAMPLE: usize = 48 * 1024;
/// Pixels sampled from all frames when they mostly repeat the frame before
/// ([`palette_sample`]): the same still art again and again, with an
/// avatar or two moving over it. `gif_quality` put 8 Ki against 16 Ki at
/// 0.77 against 0.82 level of block mean for `amongus` and 0.91 against
/// 0.84 for `heart-locket`, for half the palette's training (about 0.5 ms a
/// GIF).
pub(super) const STILL_SAMPLE: usize = 8 * 1024;
/// Fewest pixels sampled when the frames show a placed picture (sampled
/// once, not once a frame; [`placed_sample`]): a 488² picture shaking on a
/// transparent canvas gives about 17 Ki, which `gif_quality` put 0.06 level
/// of block mean behind a sample of 59 Ki, at a third of the training's
/// time.
pub(super) const PLACED_SAMPLE: usize = 16 * 1024;
/// Pixels sampled for the palette of a picture placed over a backdrop
/// (the first frame whole and the picture, [`super::encode_gif_placed`]):
/// the two hold one avatar's colours, and half of [`PLACED_SAMPLE`] trains
/// as good a palette for triggered (`gif_quality`: block mean 0.57 either
/// way, pixel mean 2.09 against 2.03) in half the training's time.
pub(super) const BACKDROP_SAMPLE: usize = 8 * 1024;
/// Pixels sampled from all frames when they show one picture's colours
/// drawn anew (an effect on an avatar: [`super::encode_gif_effect`]): as
/// many as a placed picture's.
pub(super) const EFFECT_SAMPLE: usize = PLACED_SAMPLE;
/// Most pixels sampled from the distinct pictures of frames that come back
/// to earlier poses ([`repeated_sample`]): one avatar redrawn under the same
/// art. `gif_quality` puts petpet's GIF, 6 pictures of 10 frames, at 0.65
/// level of block mean and 5.4 of block max with 16 Ki pixels, against 0.66
/// and 9.0 with the 29 Ki the rate of its frames gave, in two thirds of the
/// encoding time.
pub(super) const REPEATED_SAMPLE: usize = 16 * 1024;
/// Pixels of that sample the palette's k-means steps look at.
pub(super) const REFINE_SAMPLE: usize = 12 * 1024;

/// Slots (as bits) of the table of colours already placed in a k-means
/// step of [`Quantised::train_on`].
pub(super) const SEEN_BITS: u32 = 12;
pub(super) const SEEN_SLOTS: usize = 1 << SEEN_BITS;
/// An empty slot of that table (`colour << 8 | index` holds no such value:
/// an index is at most 254).
pub(super) const NOT_SEEN: u32 = u32::MAX;

/// The 8×8 Bayer matrix (values 0..64).
pub(super) const BAYER: [[u8; 8]; 8] = [
    [0, 32, 8, 40, 2, 34, 10, 42],
    [48, 16, 56, 24, 50, 18, 58, 26],
    [12, 44, 4, 36, 14, 46, 6, 38],
    [60, 28, 52, 20, 62, 30, 54, 22],
    [3, 35, 11, 43, 1, 33, 9, 41],
    [51, 19, 59, 27, 49, 17, 57, 25],
    [15, 47, 7, 39, 13, 45, 5, 37],
    [63, 31, 55, 23, 61, 29, 53, 21],
];

pub(super) fn rgb_key(p: &[u8]) -> u32 {
    u32::from_le_bytes([p[0], p[1], p[2], 0])
}

/// A small open-addressing set of up to 255 colours, each with its index.
pub(super) struct ExactColours {
    /// `colour << 8 | index`, or `EMPTY`.
    pub(super) slots: Box<[u64; Self::SLOTS]>,
    pub(super) colours: Vec<[u8; 3]>,
}

impl ExactColours {
    const EMPTY: u64 = u64::MAX;
    const SLOTS: usize = 1024;

    pub(super) fn slot(&self, key: u32) -> usize {
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
    pub(super) fn index(
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
    pub(super) fn merge_within_one_level(&mut self) {
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

    pub(super) fn merge_nearest_pair(&mut self) {
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

    pub(super) fn index_frame(&self, frame: &RgbaImage, out: &mut Vec<u8>) {
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
pub(super) struct Quantised {
    pub(super) colours: Vec<[u8; 3]>,
    pub(super) planes: Planes,
    /// Candidate lists of the palette for the lookup table's cells.
    pub(super) candidates: Candidates,
    /// The index for each cell, or `UNKNOWN` until it is first needed;
    /// then the entry of [`CLEAR_CELL`].
    pub(super) lut: Vec<u8>,
    /// Half the dither spread, in levels.
    pub(super) amplitude: i32,
}

impl Quantised {
    /// A palette trained on a sample of about `size` pixels of `frames`
    /// ([`sample_all`]).
    #[cfg(test)]
    pub(super) fn train(frames: &[&RgbaImage], size: usize) -> Self {
        Self::train_on(&sample_all(frames, size))
    }

    /// A palette trained on `sample` (opaque colours).
    pub(super) fn train_on(sample: &[[u8; 3]]) -> Self {
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
    pub(super) fn index_frame(
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
    pub(super) fn index_frame_spans(
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

    /// `frame` as palette indices into `out`, given that it shows `picture`
    /// (mapped as `picture_idx`) with its top-left corner at `(px, py)`,
    /// lying inside it: where the picture is opaque the frame's pixel is
    /// the picture's and takes its index (dithered in the picture's own
    /// phase of the pattern); every other pixel is mapped.
    pub(super) fn index_over_picture(
        &mut self,
        frame: &RgbaImage,
        (picture, picture_idx): (&RgbaImage, &[u8]),
        (px, py): (usize, usize),
        out: &mut Vec<u8>,
    ) {
        let width = frame.width() as usize;
        let (pw, ph) = (picture.width() as usize, picture.height() as usize);
        let dither = Dither::new(self.amplitude);
        let start = out.len();
        out.resize(start + width * frame.height() as usize, TRANSPARENT);
        let mut dithered = vec![0u8; width * 4];
        let mut cells = vec![0u32; width];
        let rows = frame
            .as_raw()
            .chunks_exact(width * 4)
            .zip(out[start..].chunks_exact_mut(width));
        for (y, (row, out)) in rows.enumerate() {
            let inside = (py..py + ph).contains(&y);
            let (lo, hi) = if inside {
                (px, px + pw)
            } else {
                (width, width)
            };
            // Left and right of the picture (the whole row outside it),
            // dithered from a column where the pattern starts.
            if lo > 0 {
                let to = lo.next_multiple_of(8).min(width);
                dither.row(&row[..to * 4], y, &mut dithered[..to * 4]);
                self.map(&dithered, 0..lo, out, &mut cells);
            }
            if hi < width {
                let from = hi / 8 * 8;
                dither.row(&row[from * 4..], y, &mut dithered[from * 4..]);
                self.map(&dithered, hi..width, out, &mut cells);
            }
            if !inside {
                continue;
            }
            let sy = y - py;
            let src = &picture.as_raw()[sy * pw * 4..(sy + 1) * pw * 4];
            let src_idx = &picture_idx[sy * pw..(sy + 1) * pw];
            if src.chunks_exact(4).all(|p| p[3] == 255) {
                out[lo..hi].copy_from_slice(src_idx);
                continue;
            }
            let (from, to) = (lo / 8 * 8, hi.next_multiple_of(8).min(width));
            dither.row(&row[from * 4..to * 4], y, &mut dithered[from * 4..to * 4]);
            for x in lo..hi {
                match src[(x - lo) * 4 + 3] {
                    255 => out[x] = src_idx[x - lo],
                    _ => self.map(&dithered, x..x + 1, out, &mut cells),
                }
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
    pub(super) fn map(
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
    pub(super) fn lookup(&mut self, cell: usize, hint: u8) -> u8 {
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
pub(super) fn dither_amplitude(colours: &[[u8; 3]]) -> i32 {
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
pub(super) type Before<'a> = ((&'a RgbaImage, &'a [u8]), &'a [Span]);

/// Pixels `lo..hi` of a row: those that differ from the frame before lie
/// within (`(width, width)` when none does).
pub(super) type Span = (usize, usize);

/// Each row's [`Span`] of `frame` over `prev` (of one size): the pixels
/// before the first and after the last that differ are the same in both.
pub(super) fn changed_spans(frame: &RgbaImage, prev: &RgbaImage) -> Vec<Span> {
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
pub(super) fn sample_every(
    pixels: &[u8],
    step: usize,
    seen: &mut usize,
    sample: &mut Vec<[u8; 3]>,
) {
    let first = (step - (*seen + 1) % step) % step;
    for p in pixels.chunks_exact(4).skip(first).step_by(step) {
        if p[3] >= ALPHA_CUTOFF {
            sample.push([p[0], p[1], p[2]]);
        }
    }
    *seen += pixels.len() / 4;
}

/// Every `step`th pixel of all the frames in turn, about `count` of them.
pub(super) fn sample_all<F: Borrow<RgbaImage>>(frames: &[F], count: usize) -> Vec<[u8; 3]> {
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
pub(super) fn palette_sample(frames: &[RgbaImage], spans: &[Option<Vec<Span>>]) -> Vec<[u8; 3]> {
    match changes_everywhere(frames, spans) {
        true => sample_all(frames, PALETTE_SAMPLE),
        false => sample_all(frames, STILL_SAMPLE),
    }
}

/// Whether more than half of the distinct pictures' pixels are new (the
/// first picture, and the [`Span`]s of each mapped over the one before):
/// when not, [`palette_sample`] takes the smaller sample.
pub(super) fn changes_everywhere(frames: &[RgbaImage], spans: &[Option<Vec<Span>>]) -> bool {
    changes_everywhere_of(frames[0].as_raw().len() / 4, spans)
}

/// [`changes_everywhere`] of pictures of `per_frame` pixels each.
pub(super) fn changes_everywhere_of(per_frame: usize, spans: &[Option<Vec<Span>>]) -> bool {
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
/// of them), at most [`REPEATED_SAMPLE`]. The same pixels twice only weighed the repeated poses double
/// and cost their training twice: `petpet`'s 6 distinct pictures of its 10
/// frames give 29 Ki pixels for the 48 Ki before. Only when the distinct
/// pictures hold at least [`PALETTE_SAMPLE`] pixels: a smaller picture
/// taken once gives the palette's training fewer steps than its repeats
/// did (a 256 × 64 gradient shown twice bands: `gradients_do_not_band`).
pub(super) fn repeated_sample(frames: &[RgbaImage], pictures: &[&RgbaImage]) -> Vec<[u8; 3]> {
    let pixels = |f: &RgbaImage| f.as_raw().len() / 4;
    let all: usize = frames.iter().map(pixels).sum();
    let distinct: usize = pictures.iter().map(|p| pixels(p)).sum();
    sample_all(pictures, repeated_sample_size(distinct, all))
}

/// The size of [`repeated_sample`]'s sample of `distinct` pixels of
/// pictures that `all` pixels of frames show: at the rate of the frames,
/// at most [`REPEATED_SAMPLE`].
pub(super) fn repeated_sample_size(distinct: usize, all: usize) -> usize {
    (PALETTE_SAMPLE * distinct)
        .div_ceil(all.max(1))
        .min(REPEATED_SAMPLE)
}

/// The sample a palette is trained on when some frames show a placed
/// picture ([`Shows::placed`]): whole frames each time they show, as
/// [`sample_all`] takes them, and a placed picture once, not once a frame,
/// at the rate of the frames as they show (its repeats cost nothing) but
/// at least [`PLACED_SAMPLE`] pixels.
pub(super) fn placed_sample(
    frames: &[RgbaImage],
    pictures: &[&RgbaImage],
    shows: &[Shows],
) -> Vec<[u8; 3]> {
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
pub(super) fn placed_sample_size(sampled: usize, frame_pixels: usize, frames: usize) -> usize {
    (PALETTE_SAMPLE * sampled / (frame_pixels * frames).max(1)).clamp(PLACED_SAMPLE, PALETTE_SAMPLE)
}

/// The lookup table cell of a pixel (`r | g << 8 | b << 16`, alpha above
/// ignored): 6 bits per channel, the cells of each 4 × 4 × 4 block of them
/// (16 levels a side) in one 64-byte line, so that the colours a dithered
/// patch of one colour takes share a few lines. (Red, green, blue one after
/// the other, each cell of a row of a dithered patch was on a line of its
/// own, and the lookups waited on the memory.)
#[inline(always)]
pub(super) fn cell_of(rgb: u32) -> usize {
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
pub(super) const CLEAR_CELL: usize = 1 << 18;

/// The colour at the centre of a cell of [`cell_of`].
pub(super) fn cell_centre(cell: usize) -> [u8; 3] {
    let channel =
        |high: usize, low: usize| ((cell >> high & 15) << 4 | (cell >> low & 3) << 2 | 2) as u8;
    [channel(14, 4), channel(10, 2), channel(6, 0)]
}

/// 8×8 ordered (Bayer) dithering as bytes: offsets in `[-amp, amp)`, a
/// differently ordered threshold per channel, so that pixels dither in
/// every direction of colour (not only along the grey axis); alpha is left
/// as it is.
pub(super) struct Dither {
    /// For each row of the matrix, what 8 pixels (32 bytes) gain: the
    /// positive offsets.
    pub(super) add: [[u8; 32]; 8],
    /// And what they lose: the negative offsets, negated.
    pub(super) sub: [[u8; 32]; 8],
}

impl Dither {
    pub(super) fn new(amp: i32) -> Self {
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
    pub(super) fn row(&self, row: &[u8], y: usize, out: &mut [u8]) {
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
