//! The nearest palette colour to a pixel, by [`distance`]: the palette
//! ordered by green (the channel the distance weighs most) and cut into
//! blocks of 8 colours, one vector of `i32` lanes per channel. A search
//! takes the whole block of the pixel's green at once (the compiler turns
//! each block into a few vector instructions: AVX2 with the workspace's
//! `x86-64-v3`), then the blocks on either side, nearest green first,
//! until the green difference alone costs more than the best colour found.

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
