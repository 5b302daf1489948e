//! The nearest palette colour to a pixel, by [`distance`]: the palette
//! ordered by green (the channel the distance weighs most) and cut into
//! blocks of 8 colours, one vector of `i32` lanes per channel. A search
//! takes the whole block of the pixel's green at once (the compiler turns
//! each block into a few vector instructions: AVX2 with the workspace's
//! `x86-64-v3`), then the blocks on either side, nearest green first,
//! until the green difference alone costs more than the best colour found.
//!
//! Searches over many colours that lie near each other (a k-means step
//! over a sample, the lookup table's cells) go through [`Candidates`]
//! instead: for each box of colour space 16 levels a side, the few palette
//! colours that can be nearest to any colour inside it, found once, so a
//! search compares the colour with that short list only. The lookup
//! table's 64 cells in a box are filled all at once from its list
//! ([`Candidates::fill_cells`]), the first time a pixel lands in one.

use super::distance;

/// Colours compared at once.
const LANES: usize = 8;

/// One channel of a block of colours.
type Lanes = [i32; LANES];

/// A palette ready for nearest-colour searches.
pub(super) struct Planes {
    /// Red, green and blue of the colours by green then index, 8 a block;
    /// the last block padded with copies of its last colour.
    r: Vec<Lanes>,
    g: Vec<Lanes>,
    b: Vec<Lanes>,
    /// The palette index of each lane.
    index: Vec<Lanes>,
    /// Every colour, by index.
    by_index: Vec<[u8; 3]>,
}

impl Planes {
    pub(super) fn new(colours: &[[u8; 3]]) -> Self {
        debug_assert!(colours.len() <= 256);
        let mut order: Vec<(i32, i32, i32, i32)> = colours
            .iter()
            .zip(0..)
            .map(|(c, i)| (i32::from(c[1]), i, i32::from(c[0]), i32::from(c[2])))
            .collect();
        order.sort_unstable_by_key(|&(g, i, _, _)| (g, i));
        if let Some(&last) = order.last() {
            order.resize(order.len().next_multiple_of(LANES), last);
        }
        let blocks = |f: fn(&(i32, i32, i32, i32)) -> i32| -> Vec<Lanes> {
            order
                .chunks_exact(LANES)
                .map(|c| std::array::from_fn(|l| f(&c[l])))
                .collect()
        };
        Self {
            r: blocks(|c| c.2),
            g: blocks(|c| c.0),
            b: blocks(|c| c.3),
            index: blocks(|c| c.1),
            by_index: colours.to_vec(),
        }
    }

    /// The index of the colour nearest to `rgb` (by [`distance`]; the
    /// first of equally near ones).
    #[cfg(test)]
    pub(super) fn nearest(&self, rgb: [u8; 3]) -> u8 {
        self.nearest_from(rgb, None)
    }

    /// [`Planes::nearest`], starting from the colour `hint` (a neighbour's):
    /// its distance bounds the search from the start, so fewer blocks may
    /// be visited; the answer is the same.
    ///
    /// Each distance (below 2²³) is kept with its index in the low 8 bits,
    /// so one minimum finds both.
    pub(super) fn nearest_from(&self, rgb: [u8; 3], hint: Option<u8>) -> u8 {
        let blocks = self.g.len();
        if blocks == 0 {
            return 0;
        }
        let [r, g, b] = rgb.map(i32::from);
        let mut best = match hint.and_then(|h| Some((h, self.by_index.get(usize::from(h))?))) {
            Some((h, &c)) => (distance(rgb, c) as i32) << 8 | i32::from(h),
            None => i32::MAX,
        };
        // The block holding the first colour with at least the pixel's green.
        let start = self
            .g
            .partition_point(|lanes| lanes[LANES - 1] < g)
            .min(blocks - 1);
        best = best.min(self.block_min(start, r, g, b));
        // Blocks `below..start` and `above..` are left.
        let (mut below, mut above) = (start, start + 1);
        loop {
            // The green gap to the nearest colour of each next block.
            let down = below.checked_sub(1).map(|k| g - self.g[k][LANES - 1]);
            let up = self.g.get(above).map(|lanes| lanes[0] - g);
            let (k, gap) = match (down, up) {
                (Some(d), Some(u)) if d < u => (below - 1, d),
                (_, Some(u)) => (above, u),
                (Some(d), None) => (below - 1, d),
                (None, None) => break,
            };
            if 4 * gap * gap > best >> 8 {
                break;
            }
            if k == above {
                above += 1;
            } else {
                below -= 1;
            }
            best = best.min(self.block_min(k, r, g, b));
        }
        (best & 0xff) as u8
    }

    /// The least, over the palette's colours, of the largest [`distance`]
    /// from a colour to any point of the box `lo..=hi` (per channel): no
    /// point of the box is further than this from its nearest colour. The
    /// blocks are visited from the box's green outwards, until a block's
    /// green alone puts its colours further than the least found.
    fn farthest_bound(&self, lo: [i32; 3], hi: [i32; 3]) -> i32 {
        let blocks = self.g.len();
        let mid = (lo[1] + hi[1]) / 2;
        let start = self
            .g
            .partition_point(|lanes| lanes[LANES - 1] < mid)
            .min(blocks - 1);
        let mut bound = self.block_far(start, lo, hi);
        // Blocks `below..start` and `above..` are left. A colour of green
        // `v` is at least `4 (hi - v)²` from the box's far side when below
        // it, `4 (v - lo)²` when above: the nearest green of the next block
        // each way bounds all of that way.
        let (mut below, mut above) = (start, start + 1);
        loop {
            let far = |d: i32| 4 * d.max(0) * d.max(0);
            let down = below
                .checked_sub(1)
                .map(|k| far(hi[1] - self.g[k][LANES - 1]));
            let up = self.g.get(above).map(|lanes| far(lanes[0] - lo[1]));
            let k = match (down, up) {
                (Some(d), Some(u)) if d < u => (d < bound).then(|| below - 1),
                (_, Some(u)) => (u < bound).then_some(above),
                (Some(d), None) => (d < bound).then(|| below - 1),
                (None, None) => None,
            };
            let Some(k) = k else { break };
            if k == above {
                above += 1;
            } else {
                below -= 1;
            }
            bound = bound.min(self.block_far(k, lo, hi));
        }
        bound
    }

    /// The least, over block `k`'s colours, of the largest [`distance`]
    /// to a point of the box `lo..=hi`.
    #[inline]
    fn block_far(&self, k: usize, lo: [i32; 3], hi: [i32; 3]) -> i32 {
        let (pr, pg, pb) = (&self.r[k], &self.g[k], &self.b[k]);
        let mut far = [0i32; LANES];
        for l in 0..LANES {
            let dr = (pr[l] - lo[0]).max(hi[0] - pr[l]);
            let dg = (pg[l] - lo[1]).max(hi[1] - pg[l]);
            let db = (pb[l] - lo[2]).max(hi[2] - pb[l]);
            far[l] = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
        }
        far.into_iter().fold(i32::MAX, i32::min)
    }

    /// The colours whose least [`distance`] to the box `lo..=hi` is at
    /// most `bound`, as `[r, g, b, index]`, into `out`; returns their
    /// number. Only the blocks whose greens can be that near are looked at.
    /// Each lane of a block is written at the end of the list, which grows
    /// past it only when the colour is near enough: no branch per colour
    /// for the processor to guess.
    fn within(
        &self,
        lo: [i32; 3],
        hi: [i32; 3],
        bound: i32,
        out: &mut [[u8; 4]; LIST_ROOM],
    ) -> usize {
        let mut len = 0;
        let colours = self.by_index.len();
        // 4 g² ≤ bound: the green gap may be at most `reach`.
        let reach = ((bound / 4) as f64).sqrt() as i32 + 1;
        let first = self
            .g
            .partition_point(|lanes| lanes[LANES - 1] < lo[1] - reach);
        for k in first..self.g.len() {
            let (pr, pg, pb, pi) = (&self.r[k], &self.g[k], &self.b[k], &self.index[k]);
            if pg[0] > hi[1] + reach {
                break;
            }
            let mut near = [0i32; LANES];
            for l in 0..LANES {
                let dr = (lo[0] - pr[l]).max(pr[l] - hi[0]).max(0);
                let dg = (lo[1] - pg[l]).max(pg[l] - hi[1]).max(0);
                let db = (lo[2] - pb[l]).max(pb[l] - hi[2]).max(0);
                near[l] = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
            }
            for l in 0..LANES.min(colours - k * LANES) {
                out[len] = [pr[l], pg[l], pb[l], pi[l]].map(|v| v as u8);
                len += usize::from(near[l] <= bound);
            }
        }
        len
    }

    /// The least `distance << 8 | index` in block `k`.
    #[inline]
    fn block_min(&self, k: usize, r: i32, g: i32, b: i32) -> i32 {
        let (pr, pg, pb, pi) = (&self.r[k], &self.g[k], &self.b[k], &self.index[k]);
        let mut keys = [0i32; LANES];
        for l in 0..LANES {
            let (dr, dg, db) = (pr[l] - r, pg[l] - g, pb[l] - b);
            keys[l] = (2 * dr * dr + 4 * dg * dg + 3 * db * db) << 8 | pi[l];
        }
        keys.into_iter().fold(i32::MAX, i32::min)
    }
}

/// Room for a list being made ([`Planes::within`]): every colour of a
/// palette (at most 256), and the lane written past the last.
const LIST_ROOM: usize = 256 + 1;

/// Boxes of colour space 16 levels a side (the high 4 bits of each
/// channel).
const BOXES: usize = 1 << 12;
/// Most colours kept for a box: a box with more (a palette spread thin
/// around it) is searched by [`Planes::nearest_from`], which is then about
/// as quick. Bounds the lists' memory: at most 4096 × 64 × 4 bytes.
const MOST_CANDIDATES: usize = 64;
/// [`Candidates::boxes`]: the box's list is not made yet.
const NOT_MADE: u32 = u32::MAX;
/// [`Candidates::boxes`]: the box has more than [`MOST_CANDIDATES`].
const TOO_MANY: u32 = u32::MAX - 1;

/// 8 colours of a candidate list, one array per channel (widened to `i32`
/// lanes when compared), and their palette indices.
#[derive(Clone, Copy)]
struct Block {
    r: [u8; LANES],
    g: [u8; LANES],
    b: [u8; LANES],
    index: [u8; LANES],
}

/// For each box of colour space 16 levels a side, made when a colour in it
/// is first looked up: the palette colours that can be nearest to some
/// point of the box (those whose least distance to the box is at most the
/// least, over all colours, of the largest distance to it). The nearest
/// colour to any point of the box is among them, and so is every colour
/// equally near, so [`Candidates::nearest`] gives [`Planes::nearest_from`]'s
/// answer (the first of equally near colours) from a list of a few dozen.
pub(super) struct Candidates {
    /// For each box, its list's first block in `blocks` and their number
    /// (`first << 4 | count`), or [`NOT_MADE`] or [`TOO_MANY`].
    boxes: Vec<u32>,
    blocks: Vec<Block>,
    /// The least and the most offset, within a box, of the colours looked
    /// up on each channel: `(0, 15)` for any colour, `(2, 14)` for the
    /// centres of the lookup table's cells (a tighter box, shorter lists).
    span: (i32, i32),
    /// A list being made.
    list: Box<[[u8; 4]; LIST_ROOM]>,
}

impl Candidates {
    /// No list made yet, for colours whose offsets within their box lie in
    /// `span` on every channel.
    pub(super) fn new(span: (i32, i32)) -> Self {
        Self {
            boxes: vec![NOT_MADE; BOXES],
            blocks: Vec::new(),
            span,
            list: Box::new([[0; 4]; LIST_ROOM]),
        }
    }

    /// Forgets every list (for a new palette).
    pub(super) fn clear(&mut self) {
        self.boxes.fill(NOT_MADE);
        self.blocks.clear();
    }

    /// [`Planes::nearest_from`] of `planes` (the palette these lists are
    /// made for, since the last [`Candidates::clear`]): the same answer.
    pub(super) fn nearest(&mut self, planes: &Planes, rgb: [u8; 3], hint: Option<u8>) -> u8 {
        let key = usize::from(rgb[0] >> 4) << 8
            | usize::from(rgb[1] >> 4) << 4
            | usize::from(rgb[2] >> 4);
        let mut entry = self.boxes[key];
        if entry == NOT_MADE {
            entry = self.make(planes, key);
            self.boxes[key] = entry;
        }
        if entry == TOO_MANY {
            return planes.nearest_from(rgb, hint);
        }
        let first = (entry >> 4) as usize;
        let list = &self.blocks[first..first + (entry & 15) as usize];
        let [r, g, b] = rgb.map(i32::from);
        // Each lane keeps its own least key over the blocks, and the lanes
        // are brought together once at the end: a minimum across the lanes
        // for every block would chain each block's work to the one before.
        let mut best: Lanes = [i32::MAX; LANES];
        for block in list {
            for (l, best) in best.iter_mut().enumerate() {
                let dr = i32::from(block.r[l]) - r;
                let dg = i32::from(block.g[l]) - g;
                let db = i32::from(block.b[l]) - b;
                let key =
                    (2 * dr * dr + 4 * dg * dg + 3 * db * db) << 8 | i32::from(block.index[l]);
                *best = (*best).min(key);
            }
        }
        (best.into_iter().fold(i32::MAX, i32::min) & 0xff) as u8
    }

    /// The nearest colours of `planes` (as [`Candidates::nearest`] gives
    /// them) to the 64 centres of the lookup cells of box `key`, into
    /// `cells` in the order of `cell_of`'s low 6 bits (red, green, blue,
    /// 2 bits each), when the box's list is kept; else `false`, with
    /// `cells` untouched. Lists for the cells' centres
    /// ([`Candidates::new`] with `(2, 14)`) only.
    ///
    /// The cells are the vector lanes, each colour of the list compared
    /// with all 64 at once: a box's cells cost about what a handful of
    /// them did one search each.
    pub(super) fn fill_cells(&mut self, planes: &Planes, key: usize, cells: &mut [u8; 64]) -> bool {
        debug_assert_eq!(self.span, (2, 14));
        let mut entry = self.boxes[key];
        if entry == NOT_MADE {
            entry = self.make(planes, key);
            self.boxes[key] = entry;
        }
        if entry == TOO_MANY {
            return false;
        }
        let first = (entry >> 4) as usize;
        let list = &self.blocks[first..first + (entry & 15) as usize];
        // Each cell's centre: the box's corner plus 2, plus 4 per step of
        // the cell's 2 bits on each channel.
        let base = [key >> 8, key >> 4 & 15, key & 15].map(|c| c as i32 * 16 + 2);
        let centres = |c: usize, shift: i32| -> [i32; 64] {
            std::array::from_fn(|l| base[c] + (l as i32 >> shift & 3) * 4)
        };
        let (cr, cg, cb) = (centres(0, 4), centres(1, 2), centres(2, 0));
        let mut best = [i32::MAX; 64];
        for block in list {
            for l in 0..LANES {
                let (r, g, b) = (
                    i32::from(block.r[l]),
                    i32::from(block.g[l]),
                    i32::from(block.b[l]),
                );
                let index = i32::from(block.index[l]);
                for c in 0..64 {
                    let (dr, dg, db) = (cr[c] - r, cg[c] - g, cb[c] - b);
                    let key = (2 * dr * dr + 4 * dg * dg + 3 * db * db) << 8 | index;
                    best[c] = best[c].min(key);
                }
            }
        }
        for (cell, best) in cells.iter_mut().zip(best) {
            *cell = (best & 0xff) as u8;
        }
        true
    }

    /// Makes the list of box `key`; returns its entry in `boxes`.
    #[cold]
    #[inline(never)]
    fn make(&mut self, planes: &Planes, key: usize) -> u32 {
        if planes.g.is_empty() {
            return TOO_MANY;
        }
        let base = [key >> 8, key >> 4 & 15, key & 15].map(|c| c as i32 * 16);
        let lo = base.map(|c| c + self.span.0);
        let hi = base.map(|c| c + self.span.1);
        let bound = planes.farthest_bound(lo, hi);
        let len = planes.within(lo, hi, bound, &mut self.list);
        if len > MOST_CANDIDATES {
            return TOO_MANY;
        }
        let first = self.blocks.len();
        for chunk in self.list[..len].chunks(LANES) {
            // The last block padded with copies of its last colour.
            let at = |l: usize| chunk[l.min(chunk.len() - 1)];
            self.blocks.push(Block {
                r: std::array::from_fn(|l| at(l)[0]),
                g: std::array::from_fn(|l| at(l)[1]),
                b: std::array::from_fn(|l| at(l)[2]),
                index: std::array::from_fn(|l| at(l)[3]),
            });
        }
        (first as u32) << 4 | (self.blocks.len() - first) as u32
    }
}
