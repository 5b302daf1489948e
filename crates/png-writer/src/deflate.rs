//! The compressed image data of a PNG (its `IDAT` stream): filtered
//! scanlines (Paeth, unless a sample shows another way cheaper; see
//! [`Plan`]) in one zlib stream, coded by a fast encoder made for this data.
//!
//! PNG filtering leaves mostly small values and stretches of zeros. A full
//! LZ77 search finds little more in such data and costs most of the time,
//! so, like [fdeflate](https://crates.io/crates/fdeflate) (which the `png`
//! crate's fast mode uses), this encoder writes every byte as a literal and
//! only runs of zeros as copies (distance 1). Unlike fdeflate it builds its
//! Huffman code for the image at hand, from the byte counts of a sample of
//! its scanlines (every eighth of a tall image), which makes the output
//! about a tenth smaller; it looks codes up two bytes at a time; it keeps
//! the zero bytes that filtered image data has every few bytes (the alpha
//! channel of a mostly opaque image) as literals rather than breaking off
//! a run for each; and its hot loops are compiled for the running CPU's
//! vector and bit-manipulation extensions (AVX2, BMI2) where present. On
//! the outputs of the benchmark avatar's 14 filters it writes 10 % fewer
//! bytes in total than the `png` crate's fast mode, in less time (the
//! crate's README has the criterion figures).
//!
//! When a quarter or more of the sampled bytes lie in all-zero 8-byte
//! chunks (a smooth image, filtered, where which chunks are zero cannot be
//! predicted), the scanlines are written by a second row writer that does
//! not branch on the data ([`emit_row_sparse`]); the bits are the same.
//!
//! Every symbol has a code whether it was counted or not, so the stream is
//! valid whatever the unsampled scanlines hold; when it would come out
//! larger than the data itself, the data is stored uncompressed instead.

/// Longest code: four literal codes (48 bits) then always fit in the 64-bit
/// buffer beside the at most 7 bits left over from the last store.
const MAX_CODE_LEN: u8 = 12;
/// Literal/length alphabet: literals 0–255, end of block, lengths 257–285.
const LITLEN: usize = 286;
const END_OF_BLOCK: usize = 256;
/// Runs of zeros shorter than this after the first are sent as literals.
const MIN_COPY: u32 = 5;
/// The PNG filter types.
const NONE: u8 = 0;
const SUB: u8 = 1;
const UP: u8 = 2;
const AVG: u8 = 3;
const PAETH: u8 = 4;
/// Scanlines looked at to decide how an image is filtered (spread evenly
/// over the image; see [`Plan`]).
const GATE_ROWS: usize = 16;
/// How much lower (in hundredths) the sampled scanlines' entropy must come
/// out filtered another way than with Paeth (or than with one filter, for
/// a choice per scanline) for that way to be taken.
const GATE_MARGIN: u64 = 3;

/// Deflate's length codes 257–285: `(base length, extra bits)`.
const LENGTH_BASE: [(u16, u8); 29] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (9, 0),
    (10, 0),
    (11, 1),
    (13, 1),
    (15, 1),
    (17, 1),
    (19, 2),
    (23, 2),
    (27, 2),
    (31, 2),
    (35, 3),
    (43, 3),
    (51, 3),
    (59, 3),
    (67, 4),
    (83, 4),
    (99, 4),
    (115, 4),
    (131, 5),
    (163, 5),
    (195, 5),
    (227, 5),
    (258, 0),
];

/// For each copy length 3–258, its index in [`LENGTH_BASE`].
const LENGTH_INDEX: [u8; 259] = {
    let mut table = [0u8; 259];
    let mut code = 0;
    while code < 29 {
        let (base, extra) = LENGTH_BASE[code];
        let mut len = base as usize;
        let end = if code == 28 { 259 } else { len + (1 << extra) };
        while len < end {
            table[len] = code as u8;
            len += 1;
        }
        code += 1;
    }
    table
};

/// The order in which the code length code's lengths are sent.
const CLEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];
/// Extra bits of the code length symbols (16: repeat, 17/18: zeros).
const CLEN_EXTRA: [u8; 19] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7];

/// Appends the zlib stream of `raw`'s scanlines (`stride` bytes each,
/// `bpp` bytes a pixel, 1–4), to `out`: each Paeth-filtered, unless
/// `may_choose` and a sample of them shows that a filter chosen per
/// scanline pays (see [`Filterer`]).
pub(crate) fn png_image_data(
    raw: &[u8],
    stride: usize,
    bpp: usize,
    may_choose: bool,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) {
    debug_assert!((1..=4).contains(&bpp) && stride > 0 && raw.len().is_multiple_of(stride));
    let plan = if may_choose {
        Plan::for_image(raw, stride, bpp)
    } else {
        Plan::Paeth
    };
    encode(raw, stride, bpp, plan, &mut scratch.pairs, out);
}

/// Working memory of the deflate kept from one image to the next: the
/// 256 KiB table of pairs of literal codes, which a fresh allocation for
/// each image would fault in again (and, freed, could be handed back to
/// the system at once).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pairs: Vec<u32>,
}

impl Scratch {
    pub(crate) const fn new() -> Self {
        Self { pairs: Vec::new() }
    }

    /// Bytes held.
    pub(crate) fn retained_bytes(&self) -> usize {
        self.pairs.capacity() * size_of::<u32>()
    }
}

#[multiversion::multiversion(targets(
    "x86_64+avx2+bmi1+bmi2+lzcnt+popcnt",
    "x86_64+sse4.1",
    "aarch64+neon",
))]
fn encode(
    raw: &[u8],
    stride: usize,
    bpp: usize,
    plan: Plan,
    pairs: &mut Vec<u32>,
    out: &mut Vec<u8>,
) {
    let rows = raw.len() / stride;
    let line = stride + 1;
    let mut filtered = vec![0u8; line];
    let mut filter = Filterer::new(stride, plan);

    // Pass 1: byte counts over every eighth scanline of a tall image, every
    // fourth of a shorter one, all of a short one.
    let step = match rows {
        0..64 => 1,
        64..256 => 4,
        _ => 8,
    };
    let mut counts = Counts::new();
    for y in (0..rows).step_by(step) {
        filter.row(raw, stride, bpp, y, &mut filtered);
        counts.add(&filtered);
    }
    let freq = counts.frequencies();
    let sparse = counts.sparse();
    let lens = code_lengths(&freq, MAX_CODE_LEN);
    let codes = canonical_codes(&lens);
    // Code and length of every symbol: the code (bit-reversed, as deflate
    // sends Huffman codes most significant bit first into an LSB-first
    // stream) above the length in the low 4 bits.
    let mut table = [0u32; LITLEN];
    for (t, (&c, &l)) in table.iter_mut().zip(codes.iter().zip(&lens)) {
        *t = u32::from(c) << 4 | u32::from(l);
    }
    pair_table(&table, pairs);
    let pairs: &[u32; 65536] = pairs[..].try_into().expect("65536 entries");
    let runs = RunCodes::new(&table);
    let estimate = freq
        .iter()
        .zip(&lens)
        .map(|(&f, &l)| u64::from(f) * u64::from(l))
        .sum::<u64>()
        / 8
        * step as u64;
    let start = out.len();
    let stored = stored_size(rows * line);
    out.reserve(usize::try_from(estimate).unwrap_or(stored).min(stored) + 1024);
    out.extend_from_slice(&[0x78, 0x01]);

    // Pass 2: the block, one scanline at a time into `scratch`, whole bytes
    // then moved to `out`. A scanline writes at most 12 bits a byte, plus
    // the run of zeros carried in from the one before. Only a row filtered
    // with None starts with a zero, so only then may a run cross from one
    // scanline into the next; one carried past a scanline is written out
    // once it is longer than a scanline, so no scanline writes more than
    // three scanlines' worth of zeros as runs, at most 13 bits per 258
    // zeros and 30 more each, which `line / 32` and 1 KiB of slack cover.
    let mut bits = Bits {
        scratch: vec![0u8; line * usize::from(MAX_CODE_LEN) / 8 + line / 32 + 1024],
        at: At {
            pos: 0,
            acc: 0,
            n: 0,
        },
    };
    write_header(&mut bits, &lens);
    bits.drain_into(out);
    let mut adler = simd_adler32::Adler32::new();
    let mut zeros = 0;
    for y in 0..rows {
        filter.row(raw, stride, bpp, y, &mut filtered);
        adler.write(&filtered);
        zeros = if sparse {
            emit_row_sparse(&mut bits, &table, pairs, &runs, &filtered, zeros)
        } else {
            emit_row(&mut bits, &table, pairs, &runs, &filtered, zeros)
        };
        if zeros as usize > stride {
            bits.at = emit_run(bits.at, &mut bits.scratch, &table, zeros);
            zeros = 0;
        }
        bits.drain_into(out);
    }
    if zeros > 0 {
        bits.at = emit_run(bits.at, &mut bits.scratch, &table, zeros);
    }
    let eob = table[END_OF_BLOCK];
    bits.put(u64::from(eob >> 4), eob & 15);
    bits.pad();
    bits.drain_into(out);
    out.extend_from_slice(&adler.finish().to_be_bytes());

    if out.len() - start > stored {
        out.truncate(start);
        write_stored(raw, stride, bpp, out, &mut filter, &mut filtered);
    }
}

/// The codes of every two literals `lo, hi` at index `hi << 8 | lo`: the
/// code of `lo`, then that of `hi`, above their total length in the low
/// 5 bits (at most 24 bits of code, since no code is longer than 12);
/// written over `pairs`.
fn pair_table(table: &[u32; LITLEN], pairs: &mut Vec<u32>) {
    let lo_codes: [u32; 256] = std::array::from_fn(|i| table[i] >> 4);
    let lo_lens: [u32; 256] = std::array::from_fn(|i| table[i] & 15);
    pairs.clear();
    pairs.reserve_exact(65536);
    for &hi in &table[..256] {
        let (code_hi, len_hi) = (hi >> 4, hi & 15);
        pairs.extend(
            lo_codes
                .iter()
                .zip(&lo_lens)
                .map(|(&c, &n)| (c | code_hi << n) << 5 | (n + len_hi)),
        );
    }
}

/// The size of a zlib stream of `len` bytes in stored blocks.
fn stored_size(len: usize) -> usize {
    2 + len + 5 * len.div_ceil(65535).max(1) + 4
}

/// Data that does not compress (noise): the filtered scanlines in stored
/// blocks.
fn write_stored(
    raw: &[u8],
    stride: usize,
    bpp: usize,
    out: &mut Vec<u8>,
    filter: &mut Filterer,
    filtered: &mut [u8],
) {
    let rows = raw.len() / stride;
    let mut data = Vec::with_capacity(rows * filtered.len());
    for y in 0..rows {
        filter.row(raw, stride, bpp, y, filtered);
        data.extend_from_slice(filtered);
    }
    out.extend_from_slice(&[0x78, 0x01]);
    let mut blocks = data.chunks(65535).peekable();
    if data.is_empty() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(block) = blocks.next() {
        let n = u16::try_from(block.len()).expect("block of at most 65535 bytes");
        out.push(u8::from(blocks.peek().is_none()));
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&(!n).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&simd_adler32::adler32(&data.as_slice()).to_be_bytes());
}

/// The scanline filters, in the order a tie between them is settled.
const FILTERS: [u8; 5] = [PAETH, AVG, UP, SUB, NONE];

/// How an image's scanlines are filtered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    /// Paeth on every scanline.
    Paeth,
    /// One filter (an index into [`FILTERS`]) on every scanline.
    One(usize),
    /// A filter chosen per scanline.
    Choose,
}

impl Plan {
    /// The plan for `raw`, from [`GATE_ROWS`] of its scanlines spread over
    /// the image. Each is filtered with every filter and the bytes of each
    /// way (each filter on all of them, or each one's best filter by the
    /// sum of magnitudes) are counted. The way of least entropy is taken
    /// if it is at least [`GATE_MARGIN`] % below Paeth's, a single filter
    /// over the choice unless the choice is [`GATE_MARGIN`] % lower still
    /// (a single filter costs no more than Paeth to apply); else Paeth.
    fn for_image(raw: &[u8], stride: usize, bpp: usize) -> Plan {
        let rows = raw.len() / stride;
        if rows < 2 {
            return Plan::Paeth;
        }
        let mut candidates = vec![0u8; 4 * stride];
        let mut each: [Counts; 5] = std::array::from_fn(|_| Counts::new());
        let mut chosen = Counts::new();
        // Row 0 has nothing above it, which favours Sub whatever the image;
        // the sample starts at row 1.
        let gap = ((rows - 1) / GATE_ROWS).max(1);
        for y in (1..rows).step_by(gap).take(GATE_ROWS) {
            let row = &raw[y * stride..][..stride];
            let prev = &raw[(y - 1) * stride..][..stride];
            let best = best_of(&filter_all(row, prev, bpp, &mut candidates));
            for (f, counts) in each.iter_mut().enumerate() {
                counts.add(if f < 4 {
                    &candidates[f * stride..][..stride]
                } else {
                    row
                });
            }
            chosen.add(if best < 4 {
                &candidates[best * stride..][..stride]
            } else {
                row
            });
        }
        let costs = each.map(|c| c.cost());
        let (one, one_cost) = costs
            .iter()
            .copied()
            .enumerate()
            .fold((0, f64::MAX), |b, (f, c)| if c < b.1 { (f, c) } else { b });
        let chosen_cost = chosen.cost();
        let below = |a: f64, b: f64| a * 100.0 < b * ((100 - GATE_MARGIN) as f64);
        if below(chosen_cost, one_cost) && below(chosen_cost, costs[0]) {
            Plan::Choose
        } else if one != 0 && below(one_cost, costs[0]) {
            Plan::One(one)
        } else {
            Plan::Paeth
        }
    }
}

/// Filters scanlines as a [`Plan`] says.
///
/// Paeth on every scanline suits drawn pictures (cards, text, flat art,
/// cut-out shapes) and most photographs: it is the cheapest way, and on
/// such images choosing a filter per scanline by the usual heuristic makes
/// the file no smaller, or larger. On smooth images (greyscale
/// photographs, gradients) Average does markedly better. When choosing,
/// each even scanline is filtered with every PNG filter, keeping the one
/// whose bytes, read as signed values, have the smallest sum of magnitudes
/// (the PNG specification's suggested heuristic, libpng's choice too), and
/// the odd one after it with the same filter; a scanline that repeats the
/// one above is filtered with Up (all zeros) without comparing.
struct Filterer {
    plan: Plan,
    /// The row above the first: zeros (unless the plan is Paeth).
    zero: Vec<u8>,
    /// One scanline for each filter but None, without the type byte (only
    /// when choosing).
    candidates: Vec<u8>,
    /// The scanline whose filter was last chosen, and the filter (an index
    /// into [`FILTERS`]).
    chosen: (usize, usize),
}

impl Filterer {
    fn new(stride: usize, plan: Plan) -> Self {
        Self {
            plan,
            zero: if plan == Plan::Paeth {
                Vec::new()
            } else {
                vec![0; stride]
            },
            candidates: if plan == Plan::Choose {
                vec![0; 4 * stride]
            } else {
                Vec::new()
            },
            chosen: (usize::MAX, 0),
        }
    }

    /// Scanline `y` of `raw` after its filter type byte, into `out`.
    #[inline(always)]
    fn row(&mut self, raw: &[u8], stride: usize, bpp: usize, y: usize, out: &mut [u8]) {
        if self.plan == Plan::Paeth {
            filter_row(raw, stride, bpp, y, out);
            return;
        }
        let row = &raw[y * stride..][..stride];
        let prev = if y == 0 {
            &self.zero[..]
        } else {
            &raw[(y - 1) * stride..][..stride]
        };
        if let Plan::One(f) = self.plan {
            out[0] = FILTERS[f];
            apply_filter(FILTERS[f], row, prev, bpp, &mut out[1..]);
            return;
        }
        if row == prev {
            // A repeated row (flat art, pixelated blocks): Up leaves all
            // zeros, with nothing to compare.
            out[0] = UP;
            out[1..].fill(0);
            return;
        }
        if y % 2 == 1 && self.chosen.0 == y - 1 {
            let best = self.chosen.1;
            out[0] = FILTERS[best];
            apply_filter(FILTERS[best], row, prev, bpp, &mut out[1..]);
            return;
        }
        let best = best_of(&filter_all(row, prev, bpp, &mut self.candidates));
        out[0] = FILTERS[best];
        let from = if best < 4 {
            &self.candidates[best * stride..][..stride]
        } else {
            row
        };
        out[1..].copy_from_slice(from);
        self.chosen = (y, best);
    }
}

/// `row` filtered with PNG filter `kind` into `out`.
#[inline(always)]
fn apply_filter(kind: u8, row: &[u8], prev: &[u8], bpp: usize, out: &mut [u8]) {
    match kind {
        PAETH => filter_paeth(row, prev, bpp, out),
        AVG => filter_avg(row, prev, bpp, out),
        UP => filter_up(row, prev, out),
        SUB => filter_sub(row, bpp, out),
        _ => out.copy_from_slice(row),
    }
}

/// `row` filtered with Paeth, Average, Up and Sub into the four scanlines
/// of `candidates`, and the sums of magnitudes of the five filters' bytes,
/// in the order of [`FILTERS`].
#[inline(always)]
fn filter_all(row: &[u8], prev: &[u8], bpp: usize, candidates: &mut [u8]) -> [u64; 5] {
    let stride = row.len();
    let (paeth_row, rest) = candidates.split_at_mut(stride);
    let (avg_row, rest) = rest.split_at_mut(stride);
    let (up_row, sub_row) = rest.split_at_mut(stride);
    filter_paeth(row, prev, bpp, paeth_row);
    filter_avg(row, prev, bpp, avg_row);
    filter_up(row, prev, up_row);
    filter_sub(row, bpp, sub_row);
    [
        magnitude(paeth_row),
        magnitude(avg_row),
        magnitude(up_row),
        magnitude(sub_row),
        magnitude(row),
    ]
}

/// The index of the smallest of `sums`, the first of equal ones.
#[inline(always)]
fn best_of(sums: &[u64; 5]) -> usize {
    let mut best = 0;
    for (i, &sum) in sums.iter().enumerate() {
        if sum < sums[best] {
            best = i;
        }
    }
    best
}

/// The sum of the bytes' magnitudes as signed values (|−1| for 255).
#[inline(always)]
fn magnitude(bytes: &[u8]) -> u64 {
    // Added up in 32 lanes of 16 bits, which a vector unit does a register
    // at a time, over pieces short enough (256 × 32 bytes of at most 128)
    // that no lane overflows.
    let mut sum = 0u64;
    for piece in bytes.chunks(8192) {
        let mut lanes = [0u16; 32];
        let mut blocks = piece.chunks_exact(32);
        for block in &mut blocks {
            for (l, &b) in lanes.iter_mut().zip(block) {
                *l += u16::from((b as i8).unsigned_abs());
            }
        }
        sum += lanes.iter().map(|&l| u64::from(l)).sum::<u64>();
        sum += blocks
            .remainder()
            .iter()
            .map(|&b| u64::from((b as i8).unsigned_abs()))
            .sum::<u64>();
    }
    sum
}

/// Sub: each byte less the one `bpp` to its left.
#[inline(always)]
fn filter_sub(row: &[u8], bpp: usize, out: &mut [u8]) {
    out[..bpp].copy_from_slice(&row[..bpp]);
    for ((o, &x), &a) in out[bpp..].iter_mut().zip(&row[bpp..]).zip(row) {
        *o = x.wrapping_sub(a);
    }
}

/// Up: each byte less the one above.
#[inline(always)]
fn filter_up(row: &[u8], prev: &[u8], out: &mut [u8]) {
    for ((o, &x), &b) in out.iter_mut().zip(row).zip(prev) {
        *o = x.wrapping_sub(b);
    }
}

/// Average: each byte less the floor of the mean of the left and upper
/// ones, as `(a & b) + ((a ^ b) >> 1)`, which stays in bytes.
#[inline(always)]
fn filter_avg(row: &[u8], prev: &[u8], bpp: usize, out: &mut [u8]) {
    for ((o, &x), &b) in out[..bpp].iter_mut().zip(row).zip(prev) {
        *o = x.wrapping_sub(b >> 1);
    }
    for (((o, &x), &a), &b) in out[bpp..]
        .iter_mut()
        .zip(&row[bpp..])
        .zip(row)
        .zip(&prev[bpp..])
    {
        *o = x.wrapping_sub((a & b) + ((a ^ b) >> 1));
    }
}

/// Paeth: each byte less the Paeth predictor of its left, upper and
/// upper-left neighbours.
#[inline(always)]
fn filter_paeth(row: &[u8], prev: &[u8], bpp: usize, out: &mut [u8]) {
    // Left of the row is zero: Paeth predicts the upper neighbour.
    for ((o, &x), &b) in out[..bpp].iter_mut().zip(row).zip(prev) {
        *o = x.wrapping_sub(b);
    }
    let n = row.len() - bpp;
    for ((((o, &x), &a), &b), &c) in out[bpp..]
        .iter_mut()
        .zip(&row[bpp..])
        .zip(&row[..n])
        .zip(&prev[bpp..])
        .zip(&prev[..n])
    {
        *o = x.wrapping_sub(paeth(a, b, c));
    }
}

/// Scanline `y` of `raw`, Paeth-filtered, after its filter type byte.
#[inline(always)]
fn filter_row(raw: &[u8], stride: usize, bpp: usize, y: usize, out: &mut [u8]) {
    let row = &raw[y * stride..][..stride];
    out[0] = PAETH;
    let out = &mut out[1..];
    if y == 0 {
        // Above the image is zero: Paeth predicts the left neighbour.
        out[..bpp].copy_from_slice(&row[..bpp]);
        for ((o, &x), &a) in out[bpp..].iter_mut().zip(&row[bpp..]).zip(row) {
            *o = x.wrapping_sub(a);
        }
        return;
    }
    let prev = &raw[(y - 1) * stride..][..stride];
    filter_paeth(row, prev, bpp, out);
}

/// The Paeth predictor (PNG spec 9.4) on bytes, without widening, so that
/// it vectorises in byte lanes: |p − a| = |b − c|, |p − b| = |a − c| and
/// |p − c| = |(b − c) + (a − c)|, which is the sum of the first two when
/// their signs agree (capped at 255, which changes no comparison since
/// both are at most 255) and their difference otherwise.
#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (bc_hi, bc_lo) = (b.max(c), b.min(c));
    let (ac_hi, ac_lo) = (a.max(c), a.min(c));
    let pa = bc_hi - bc_lo;
    let pb = ac_hi - ac_lo;
    let pc = if (bc_hi == b) == (ac_hi == a) {
        pa.saturating_add(pb)
    } else {
        pa.max(pb) - pa.min(pb)
    };
    let b_or_c = if pb.min(pc) == pb { b } else { c };
    if pa.min(pb).min(pc) == pa { a } else { b_or_c }
}

/// Whether the eight bytes of `data` from `k` are all zero (false when
/// fewer than eight remain). Zero bytes at the end of a chunk start a run
/// only when this holds for the next chunk: otherwise they are cheaper as
/// literals (a zero byte every few is the normal case in filtered image
/// data: the alpha channel of a mostly opaque image, for one).
#[inline(always)]
fn next_is_zero(data: &[u8], k: usize) -> bool {
    data.get(k..k + 8)
        .is_some_and(|n| u64::from_le_bytes(n.try_into().expect("8 bytes")) == 0)
}

/// Symbol counts of the sampled scanlines: bytes in four tables (so that
/// neighbouring equal bytes do not wait on each other's increments), and
/// the copies that runs of all-zero 8-byte chunks will mostly become.
struct Counts {
    bytes: [[u32; 256]; 4],
    lengths: [u32; 29],
    /// Bytes counted, and of them those in all-zero 8-byte chunks.
    total: u64,
    zero_chunk_bytes: u64,
}

impl Counts {
    fn new() -> Self {
        Self {
            bytes: [[0; 256]; 4],
            lengths: [0; 29],
            total: 0,
            zero_chunk_bytes: 0,
        }
    }

    /// The bits the counted symbols would take in a code made for them
    /// (their entropy), a close estimate of what the block's code spends.
    fn cost(&self) -> f64 {
        let freq = self.frequencies();
        let total: f64 = freq.iter().map(|&f| f64::from(f)).sum();
        freq.iter()
            .map(|&f| f64::from(f) * (total / f64::from(f)).log2())
            .sum()
    }

    /// Whether at least a quarter of the counted bytes are in all-zero
    /// 8-byte chunks (a smooth image, filtered), so that the scanlines are
    /// written by [`emit_row_sparse`].
    fn sparse(&self) -> bool {
        self.zero_chunk_bytes * 4 >= self.total
    }

    #[inline(always)]
    fn add(&mut self, data: &[u8]) {
        self.total += data.len() as u64;
        let mut zero_chunks = 0;
        let mut chunks = data.chunks_exact(8);
        for chunk in &mut chunks {
            if u64::from_le_bytes(chunk.try_into().expect("8 bytes")) == 0 {
                zero_chunks += 1;
                self.zero_chunk_bytes += 8;
                continue;
            }
            if zero_chunks > 0 {
                self.run(zero_chunks * 8);
                zero_chunks = 0;
            }
            for (i, &b) in chunk.iter().enumerate() {
                self.bytes[i & 3][usize::from(b)] += 1;
            }
        }
        if zero_chunks > 0 {
            self.run(zero_chunks * 8);
        }
        for &b in chunks.remainder() {
            self.bytes[0][usize::from(b)] += 1;
        }
    }

    /// A run of `n` zeros, in the pieces it is sent as.
    fn run(&mut self, n: u32) {
        for piece in run_pieces(n) {
            match piece {
                0 => self.bytes[0][0] += 1,
                len => self.lengths[usize::from(LENGTH_INDEX[len as usize])] += 1,
            }
        }
    }

    /// Every literal/length symbol's count, at least 1 so that every symbol
    /// has a code.
    fn frequencies(&self) -> [u32; LITLEN] {
        let mut f = [1u32; LITLEN];
        for (s, f) in f.iter_mut().take(256).enumerate() {
            *f = self.bytes.iter().map(|t| t[s]).sum::<u32>().max(1);
        }
        for (f, &n) in f[257..].iter_mut().zip(&self.lengths) {
            *f = n.max(1);
        }
        f
    }
}

/// A bit buffer that stores eight bytes at a time into `scratch`, least
/// significant bit first.
struct Bits {
    scratch: Vec<u8>,
    at: At,
}

/// Where a [`Bits`] stands: a small `Copy` value, kept in registers
/// through the hot loop.
#[derive(Clone, Copy)]
struct At {
    /// Whole bytes written to the scratch buffer.
    pos: usize,
    acc: u64,
    /// Bits in `acc`, at most 7 between calls.
    n: u32,
}

impl At {
    /// Adds `len` bits (`len` ≤ 56) and stores the whole bytes.
    #[inline(always)]
    fn put(&mut self, scratch: &mut [u8], value: u64, len: u32) {
        self.acc |= value << self.n;
        self.n += len;
        scratch[self.pos..self.pos + 8].copy_from_slice(&self.acc.to_le_bytes());
        let bytes = self.n / 8;
        self.pos += bytes as usize;
        // `n` ≤ 63 here, so the shift is at most 56.
        self.acc >>= bytes * 8;
        self.n &= 7;
    }
}

impl Bits {
    fn put(&mut self, value: u64, len: u32) {
        self.at.put(&mut self.scratch, value, len);
    }

    /// Pads the last byte with zero bits.
    fn pad(&mut self) {
        if self.at.n > 0 {
            self.put(0, 8 - self.at.n);
        }
    }

    /// Moves the whole bytes written so far to `out`.
    #[inline(always)]
    fn drain_into(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.scratch[..self.at.pos]);
        self.at.pos = 0;
    }
}

/// How a run of `n` zeros (`n` ≤ 258) that ends at a literal is sent, as
/// [`emit_run`] writes it, in one store: its bits and their count, for
/// every `n` (nothing for `n = 0`). A run whose pieces take more than 56
/// bits (a few literal zeros of long codes) has the count [`LONG_RUN`] and
/// is left to [`emit_run`].
struct RunCodes {
    bits: [u64; 259],
    lens: [u32; 259],
}

/// The count of a run in [`RunCodes`] that does not fit one store.
const LONG_RUN: u32 = u32::MAX;

impl RunCodes {
    /// Writes a run of `n` zeros (`n` ≥ 1) as [`emit_run`] does.
    #[inline(always)]
    fn emit(&self, mut at: At, scratch: &mut [u8], table: &[u32; LITLEN], n: u32) -> At {
        let len = self.lens.get(n as usize).copied().unwrap_or(LONG_RUN);
        if len == LONG_RUN {
            return emit_run(at, scratch, table, n);
        }
        at.put(scratch, self.bits[n as usize], len);
        at
    }

    fn new(table: &[u32; LITLEN]) -> Self {
        let zero = table[0];
        let (zero_code, zero_len) = (u64::from(zero >> 4), zero & 15);
        let mut codes = Self {
            bits: [0; 259],
            lens: [0; 259],
        };
        for n in 1..259u32 {
            let rest = n - 1;
            let (bits, len) = if rest >= MIN_COPY {
                let index = usize::from(LENGTH_INDEX[rest as usize]);
                let (base, extra) = LENGTH_BASE[index];
                let c = table[257 + index];
                let l = c & 15;
                let copy = u64::from(c >> 4) | u64::from(rest - u32::from(base)) << l;
                (
                    zero_code | copy << zero_len,
                    zero_len + l + u32::from(extra) + 1,
                )
            } else if n * zero_len <= 56 {
                let bits = (0..n).fold(0, |b, i| b | zero_code << (i * zero_len));
                (bits, n * zero_len)
            } else {
                (0, LONG_RUN)
            };
            codes.bits[n as usize] = bits;
            codes.lens[n as usize] = len;
        }
        codes
    }
}

/// Writes one scanline's symbols; `zeros` is the run of zeros carried in,
/// the result the run carried out.
#[inline(always)]
fn emit_row(
    bits: &mut Bits,
    table: &[u32; LITLEN],
    pairs: &[u32; 65536],
    runs: &RunCodes,
    data: &[u8],
    mut zeros: u32,
) -> u32 {
    let scratch = &mut bits.scratch[..];
    let mut at = bits.at;
    let mut chunks = data.chunks_exact(8);
    let mut k = 0;
    for chunk in &mut chunks {
        k += 8;
        let v = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        if v == 0 {
            zeros += 8;
            continue;
        }
        let mut lead = 0;
        if zeros > 0 {
            lead = v.trailing_zeros() / 8;
            at = runs.emit(at, scratch, table, zeros + lead);
        }
        let lz = v.leading_zeros() / 8;
        let trail = if lz > 0 && next_is_zero(data, k) {
            lz
        } else {
            0
        };
        if lead == 0 && trail == 0 {
            // The common case: eight literals, two codes a lookup, four
            // codes a store.
            let p0 = pairs[(v & 0xffff) as usize];
            let p1 = pairs[(v >> 16 & 0xffff) as usize];
            let p2 = pairs[(v >> 32 & 0xffff) as usize];
            let p3 = pairs[(v >> 48) as usize];
            let (n0, n2) = (p0 & 31, p2 & 31);
            at.put(
                scratch,
                u64::from(p0 >> 5) | u64::from(p1 >> 5) << n0,
                n0 + (p1 & 31),
            );
            at.put(
                scratch,
                u64::from(p2 >> 5) | u64::from(p3 >> 5) << n2,
                n2 + (p3 & 31),
            );
        } else {
            // The literals between the run's end and the zeros left for
            // the next: two codes a lookup here too, and four a store
            // while four or more remain.
            let mut w = v >> (lead * 8);
            let mut m = 8 - lead - trail;
            if m >= 4 {
                let (p0, p1) = (
                    pairs[(w & 0xffff) as usize],
                    pairs[(w >> 16 & 0xffff) as usize],
                );
                let n0 = p0 & 31;
                at.put(
                    scratch,
                    u64::from(p0 >> 5) | u64::from(p1 >> 5) << n0,
                    n0 + (p1 & 31),
                );
                w >>= 32;
                m -= 4;
            }
            if m >= 2 {
                let p = pairs[(w & 0xffff) as usize];
                at.put(scratch, u64::from(p >> 5), p & 31);
                w >>= 16;
                m -= 2;
            }
            if m == 1 {
                let c = table[(w & 0xff) as usize];
                at.put(scratch, u64::from(c >> 4), c & 15);
            }
        }
        zeros = trail;
    }
    let (at, zeros) = emit_tail(at, scratch, table, chunks.remainder(), zeros);
    bits.at = at;
    zeros
}

/// Writes one scanline's symbols as [`emit_row`] does, for data that is
/// mostly zeros (a smooth image, filtered): the same bits, with no branch
/// on whether a chunk is all zeros, ends a run or leaves zeros for the
/// next one, which such data makes unpredictable. The all-zero chunks of
/// each stretch of 64 are found first, as a bit mask, and skipped; each
/// other chunk writes the run it ends (from [`RunCodes`]) and its literals
/// (the codes of its eight bytes from the run's end, looked up two at a
/// time and cut to the bits of those it sends) in one store, unless they
/// take more than 56 bits. On busy data (photographs) [`emit_row`]'s
/// branches are predictable and it is the faster.
#[inline(always)]
fn emit_row_sparse(
    bits: &mut Bits,
    table: &[u32; LITLEN],
    pairs: &[u32; 65536],
    runs: &RunCodes,
    data: &[u8],
    mut zeros: u32,
) -> u32 {
    let scratch = &mut bits.scratch[..];
    let mut at = bits.at;
    let whole = data.len() / 8 * 8;
    let remainder = &data[whole..];
    for (b, block) in data[..whole].chunks(8 * 64).enumerate() {
        // Bit `i`: chunk `i` of the block holds a byte that is not zero.
        let mut mask = block.chunks_exact(8).enumerate().fold(0u64, |m, (i, c)| {
            let v = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            m | u64::from(v != 0) << i
        });
        let mut next = 0;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            // The all-zero chunks before this one lengthen the run.
            zeros += 8 * (i - next) as u32;
            next = i + 1;
            let k = b * 8 * 64 + 8 * next;
            let v = u64::from_le_bytes(block[8 * i..8 * next].try_into().expect("8 bytes"));
            // Zeros that open the chunk after a run join the run, which
            // ends here.
            let lead = if zeros > 0 { v.trailing_zeros() / 8 } else { 0 };
            let run = zeros + lead;
            let run_len = runs.lens.get(run as usize).copied().unwrap_or(LONG_RUN);
            // Zeros that close it start a run if the next chunk is all
            // zeros; otherwise they are cheaper as literals.
            let lz = v.leading_zeros() / 8;
            let trail = if (lz > 0) & next_is_zero(data, k) {
                lz
            } else {
                0
            };
            zeros = trail;
            // The literals between: the codes of all eight bytes from the
            // run's end, two a lookup, cut to the bits of the first `m`.
            let w = v >> (lead * 8);
            let m = 8 - lead - trail;
            let p0 = pairs[(w & 0xffff) as usize];
            let p1 = pairs[(w >> 16 & 0xffff) as usize];
            let p2 = pairs[(w >> 32 & 0xffff) as usize];
            let p3 = pairs[(w >> 48) as usize];
            let (n0, n1, n2, n3) = (p0 & 31, p1 & 31, p2 & 31, p3 & 31);
            let first = u64::from(p0 >> 5) | u64::from(p1 >> 5) << n0;
            let second = u64::from(p2 >> 5) | u64::from(p3 >> 5) << n2;
            let upto = [0, n0, n0 + n1, n0 + n1 + n2, n0 + n1 + n2 + n3];
            let pair = (m / 2) as usize;
            let odd = table[(w.wrapping_shr(16 * pair as u32) & 0xff) as usize] & 15;
            let len = upto[pair] + if m % 2 == 1 { odd } else { 0 };
            let len_first = len.min(n0 + n1);
            let len_second = len - len_first;
            let keep = |x: u64, n: u32| x & ((1u64 << n) - 1);
            let (first, second) = (keep(first, len_first), keep(second, len_second));
            if run_len.saturating_add(len) <= 56 {
                // The usual case: the run and the literals in one store.
                let literals = first | second << len_first;
                at.put(
                    scratch,
                    runs.bits[run as usize] | literals << run_len,
                    run_len + len,
                );
                continue;
            }
            if run_len == LONG_RUN {
                at = emit_run(at, scratch, table, run);
            } else {
                at.put(scratch, runs.bits[run as usize], run_len);
            }
            at.put(scratch, first, len_first);
            at.put(scratch, second, len_second);
        }
        zeros += 8 * (block.len() / 8 - next) as u32;
    }
    let (at, zeros) = emit_tail(at, scratch, table, remainder, zeros);
    bits.at = at;
    zeros
}

/// The last bytes of a scanline (fewer than a chunk) one at a time, after
/// either row writer's chunks: gives where the bits end and the run of
/// zeros carried out.
#[inline(always)]
fn emit_tail(
    mut at: At,
    scratch: &mut [u8],
    table: &[u32; LITLEN],
    tail: &[u8],
    mut zeros: u32,
) -> (At, u32) {
    for &b in tail {
        if b == 0 {
            zeros += 1;
        } else {
            if zeros > 0 {
                at = emit_run(at, scratch, table, zeros);
                zeros = 0;
            }
            let c = table[usize::from(b)];
            at.put(scratch, u64::from(c >> 4), c & 15);
        }
    }
    (at, zeros)
}

/// How a run of `n` zeros (n ≥ 1) is sent: a literal zero, then copies of
/// it (distance 1) of 258 bytes, then the rest as one copy, or as literal
/// zeros when it is shorter than [`MIN_COPY`]. Each item is a copy length,
/// or 0 for a literal zero. The one definition both the counts and the
/// writer follow.
fn run_pieces(n: u32) -> impl Iterator<Item = u32> {
    let rest = n - 1;
    let (full, tail) = (rest / 258, rest % 258);
    let (tail_piece, tail_count) = if tail >= MIN_COPY {
        (tail, 1)
    } else {
        (0, tail)
    };
    std::iter::once(0)
        .chain(std::iter::repeat_n(258, full as usize))
        .chain(std::iter::repeat_n(tail_piece, tail_count as usize))
}

/// Writes a run of `n` zeros as [`run_pieces`] splits it.
#[inline(never)]
fn emit_run(mut at: At, scratch: &mut [u8], table: &[u32; LITLEN], n: u32) -> At {
    let zero = table[0];
    let (zero_code, zero_len) = (u64::from(zero >> 4), zero & 15);
    let rest = n - 1;
    if rest < 258 {
        // The common run, the pieces written without the iterator: the
        // literal zero, then one copy in the same store, or up to
        // `MIN_COPY − 1` more literal zeros.
        if rest >= MIN_COPY {
            let index = usize::from(LENGTH_INDEX[rest as usize]);
            let (base, extra) = LENGTH_BASE[index];
            let c = table[257 + index];
            let n = c & 15;
            let copy = u64::from(c >> 4) | u64::from(rest - u32::from(base)) << n;
            at.put(
                scratch,
                zero_code | copy << zero_len,
                zero_len + n + u32::from(extra) + 1,
            );
        } else {
            for _ in 0..=rest {
                at.put(scratch, zero_code, zero_len);
            }
        }
        return at;
    }
    for piece in run_pieces(n) {
        match piece {
            0 => at.put(scratch, u64::from(zero >> 4), zero & 15),
            len => copy(&mut at, scratch, table, len),
        }
    }
    at
}

/// A copy of `len` (3–258) bytes from distance 1: the length code, its extra
/// bits, then distance code 0, whose code is the single bit 0.
#[inline(always)]
fn copy(at: &mut At, scratch: &mut [u8], table: &[u32; LITLEN], len: u32) {
    let index = usize::from(LENGTH_INDEX[len as usize]);
    let (base, extra) = LENGTH_BASE[index];
    let c = table[257 + index];
    let n = c & 15;
    let value = u64::from(c >> 4) | u64::from(len - u32::from(base)) << n;
    at.put(scratch, value, n + u32::from(extra) + 1);
}

/// The dynamic block header (RFC 1951 3.2.7): final block, the code lengths
/// of the literal/length code and of the single distance code (length 1),
/// themselves coded.
fn write_header(bits: &mut Bits, lens: &[u8]) {
    let nlit = lens
        .iter()
        .rposition(|&l| l > 0)
        .map_or(0, |i| i + 1)
        .max(257);
    let mut all = lens[..nlit].to_vec();
    all.push(1);
    let rle = rle_lengths(&all);
    let mut freq = [0u32; 19];
    for &(s, _) in &rle {
        freq[usize::from(s)] += 1;
    }
    let clen = code_lengths(&freq, 7);
    let ccodes = canonical_codes(&clen);
    let nclen = CLEN_ORDER
        .iter()
        .rposition(|&s| clen[s] > 0)
        .map_or(0, |i| i + 1)
        .max(4);
    // BFINAL = 1, BTYPE = 2 (dynamic), HLIT, HDIST = 0 (one code), HCLEN.
    bits.put(0b101, 3);
    bits.put((nlit - 257) as u64 | ((nclen - 4) as u64) << 10, 14);
    for &s in &CLEN_ORDER[..nclen] {
        bits.put(u64::from(clen[s]), 3);
    }
    for &(s, extra) in &rle {
        let s = usize::from(s);
        bits.put(u64::from(ccodes[s]), u32::from(clen[s]));
        bits.put(u64::from(extra), u32::from(CLEN_EXTRA[s]));
    }
}

/// Run-length codes a sequence of code lengths: `(symbol, extra value)`,
/// symbols 0–15 a length, 16 the previous length 3–6 more times, 17 3–10
/// zeros, 18 11–138 zeros.
fn rle_lengths(lens: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lens.len() {
        let l = lens[i];
        let same = lens[i..].iter().take_while(|&&x| x == l).count();
        let mut left = same;
        if l == 0 {
            while left >= 11 {
                let k = left.min(138);
                out.push((18, (k - 11) as u8));
                left -= k;
            }
            if left >= 3 {
                out.push((17, (left - 3) as u8));
                left = 0;
            }
        } else {
            out.push((l, 0));
            left -= 1;
            while left >= 3 {
                let k = left.min(6);
                out.push((16, (k - 3) as u8));
                left -= k;
            }
        }
        out.extend(std::iter::repeat_n((l, 0), left));
        i += same;
    }
    out
}

/// Huffman code lengths for the counts `freq`, none longer than `limit`
/// (`2^limit` ≥ the number of symbols). Uncounted symbols get no code;
/// at least two symbols get one, so that the code is complete, as inflate
/// requires of the code length code.
fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let mut f: Vec<u64> = freq.iter().map(|&x| u64::from(x)).collect();
    if f.iter().filter(|&&x| x > 0).count() < 2 {
        for x in f.iter_mut().take(2) {
            *x = (*x).max(1);
        }
    }
    loop {
        let lens = huffman(&f);
        if lens.iter().all(|&l| l <= limit) {
            return lens;
        }
        // Flatten the counts and build again: at worst all become equal,
        // giving a balanced tree.
        for x in f.iter_mut().filter(|x| **x > 0) {
            *x = (*x >> 1).max(1);
        }
    }
}

/// Unlimited Huffman code lengths (two-queue construction; ties go to
/// the lower symbol, so the result is deterministic).
fn huffman(f: &[u64]) -> Vec<u8> {
    let mut leaves: Vec<(u64, usize)> = f
        .iter()
        .enumerate()
        .filter(|(_, x)| **x > 0)
        .map(|(i, &x)| (x, i))
        .collect();
    leaves.sort_unstable();
    let n = leaves.len();
    // Nodes 0..n are the leaves in order, n.. the inner nodes as made.
    let mut weight: Vec<u64> = leaves.iter().map(|l| l.0).collect();
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut leaf, mut inner) = (0, n);
    for node in n..2 * n - 1 {
        let mut take = || {
            if leaf < n && (inner >= weight.len() || weight[leaf] <= weight[inner]) {
                leaf += 1;
                leaf - 1
            } else {
                inner += 1;
                inner - 1
            }
        };
        let (a, b) = (take(), take());
        weight.push(weight[a] + weight[b]);
        parent[a] = node;
        parent[b] = node;
    }
    let mut depth = vec![0u8; 2 * n - 1];
    for i in (0..2 * n - 2).rev() {
        depth[i] = depth[parent[i]] + 1;
    }
    let mut lens = vec![0u8; f.len()];
    for (k, &(_, symbol)) in leaves.iter().enumerate() {
        lens[symbol] = depth[k];
    }
    lens
}

/// Canonical codes for `lens` (RFC 1951 3.2.2), bit-reversed.
fn canonical_codes(lens: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for &l in lens {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lens.iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn inflate(zlib: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(zlib)
            .read_to_end(&mut out)
            .expect("a valid zlib stream with a matching checksum");
        out
    }

    /// The textbook predictor of PNG filter `kind` for a byte whose left,
    /// upper and upper-left neighbours are `a`, `b` and `c`.
    fn predict(kind: u8, a: u8, b: u8, c: u8) -> u8 {
        let (a, b, c) = (i16::from(a), i16::from(b), i16::from(c));
        let p = match kind {
            0 => 0,
            1 => a,
            2 => b,
            3 => (a + b) / 2,
            4 => {
                let p = a + b - c;
                let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                if pa <= pb && pa <= pc {
                    a
                } else if pb <= pc {
                    b
                } else {
                    c
                }
            }
            _ => panic!("filter type {kind}"),
        };
        p as u8
    }

    /// The neighbours `(a, b, c)` of byte `i` of row `y`.
    fn neighbours(raw: &[u8], stride: usize, bpp: usize, y: usize, i: usize) -> (u8, u8, u8) {
        let at = |y: usize, i: usize| raw[y * stride + i];
        let a = if i >= bpp { at(y, i - bpp) } else { 0 };
        let b = if y > 0 { at(y - 1, i) } else { 0 };
        let c = if y > 0 && i >= bpp {
            at(y - 1, i - bpp)
        } else {
            0
        };
        (a, b, c)
    }

    /// Undoes the filters of the scanlines in `stream` (each a filter type
    /// and `stride` bytes) by the textbook predictors. Unless the plan is to
    /// choose, checks that every scanline has the plan's filter; else that each row
    /// that repeats the one above is filtered with Up, each odd row after a
    /// row whose filter was chosen with that row's filter, and every other
    /// row with one whose bytes have the smallest sum of magnitudes.
    fn unfilter(stream: &[u8], stride: usize, bpp: usize, plan: Plan) -> Vec<u8> {
        assert!(stream.len().is_multiple_of(stride + 1));
        let mut raw = vec![0u8; stream.len() / (stride + 1) * stride];
        for (y, line) in stream.chunks_exact(stride + 1).enumerate() {
            for i in 0..stride {
                let (a, b, c) = neighbours(&raw, stride, bpp, y, i);
                raw[y * stride + i] = line[1 + i].wrapping_add(predict(line[0], a, b, c));
            }
            match plan {
                Plan::Paeth => {
                    assert_eq!(line[0], PAETH, "row {y}");
                    continue;
                }
                Plan::One(f) => {
                    assert_eq!(line[0], FILTERS[f], "row {y}");
                    continue;
                }
                Plan::Choose => {}
            }
            let magnitude = |kind: u8| -> u32 {
                (0..stride)
                    .map(|i| {
                        let (a, b, c) = neighbours(&raw, stride, bpp, y, i);
                        let v = raw[y * stride + i].wrapping_sub(predict(kind, a, b, c));
                        u32::from((v as i8).unsigned_abs())
                    })
                    .sum()
            };
            let repeats = |y: usize| {
                let row = &raw[y * stride..][..stride];
                match y {
                    0 => row.iter().all(|&b| b == 0),
                    _ => row == &raw[(y - 1) * stride..][..stride],
                }
            };
            if repeats(y) {
                assert_eq!(line[0], UP, "row {y} repeats the one above");
                continue;
            }
            if y % 2 == 1 && !repeats(y - 1) {
                assert_eq!(line[0], stream[(y - 1) * (stride + 1)], "row {y}");
                continue;
            }
            let best = (0..5).map(magnitude).min().unwrap();
            assert_eq!(magnitude(line[0]), best, "row {y}: filter {}", line[0]);
        }
        raw
    }

    fn round_trip(raw: &[u8], stride: usize, bpp: usize) -> usize {
        let mut out = vec![0xAA];
        png_image_data(raw, stride, bpp, true, &mut Scratch::new(), &mut out);
        assert_eq!(out[0], 0xAA, "appends");
        let plan = Plan::for_image(raw, stride, bpp);
        assert_eq!(unfilter(&inflate(&out[1..]), stride, bpp, plan), raw);
        out.len() - 1
    }

    #[test]
    fn byte_paeth_matches_the_textbook_predictor() {
        for a in (0..=255u8).step_by(3) {
            for b in 0..=255u8 {
                for c in (0..=255u8).step_by(5) {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    let want = if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    };
                    assert_eq!(paeth(a, b, c), want, "{a} {b} {c}");
                }
            }
        }
    }

    /// A small deterministic generator (no dependency needed).
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut s = seed;
        (0..len)
            .map(|_| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (s >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn streams_inflate_to_the_filtered_scanlines() {
        for bpp in 1..=4 {
            for (w, h) in [(1, 1), (1, 7), (5, 3), (37, 23), (300, 70), (8, 200)] {
                let stride = w * bpp;
                let len = stride * h;
                // Smooth, with long zero stretches, and sparse noise.
                let smooth: Vec<u8> = (0..len).map(|i| ((i / 3) % 251) as u8).collect();
                let mut sparse = noise(w as u64 * 31 + bpp as u64, len);
                for (i, v) in sparse.iter_mut().enumerate() {
                    if (i / 97) % 3 != 0 || *v > 40 {
                        *v = 0;
                    }
                }
                round_trip(&smooth, stride, bpp);
                round_trip(&sparse, stride, bpp);
                round_trip(&vec![0; len], stride, bpp);
                round_trip(&vec![255; len], stride, bpp);
            }
        }
    }

    #[test]
    fn noise_is_stored_not_inflated() {
        let raw = noise(7, 200 * 150 * 4);
        let size = round_trip(&raw, 200 * 4, 4);
        assert_eq!(size, stored_size(raw.len() + 150), "stored blocks");
    }

    #[test]
    fn both_row_writers_write_the_same_bits() {
        // Mostly zeros with a small value every few bytes, runs of every
        // length across chunk, stretch (64 chunks) and scanline ends, long
        // runs, and busy data; lines of several lengths, and runs carried
        // in from the scanline before.
        let mut freq = [3u32; LITLEN];
        freq[0] = 5000;
        freq[1] = 800;
        freq[255] = 700;
        let lens = code_lengths(&freq, MAX_CODE_LEN);
        let codes = canonical_codes(&lens);
        let mut table = [0u32; LITLEN];
        for (t, (&c, &l)) in table.iter_mut().zip(codes.iter().zip(&lens)) {
            *t = u32::from(c) << 4 | u32::from(l);
        }
        let mut pairs = Vec::new();
        pair_table(&table, &mut pairs);
        let pairs: &[u32; 65536] = pairs[..].try_into().expect("65536 entries");
        let runs = RunCodes::new(&table);
        let noise = noise(7, 1 << 16);
        for (case, line) in [
            (0usize, 2049usize),
            (1, 1537),
            (2, 8),
            (3, 7),
            (4, 513),
            (5, 4097),
        ]
        .into_iter()
        .flat_map(|(c, l)| (0..12).map(move |k| (c * 12 + k, l)))
        {
            let density = [1, 2, 3, 5, 8, 13, 40, 200, 900, 5000, 1 << 20, 0][case % 12];
            let data: Vec<u8> = (0..line)
                .map(|i| {
                    let r = usize::from(noise[(case * 977 + i * 13) % noise.len()]);
                    let keep = density != 0 && (density == 1 << 20 || r * density % 1000 < 255);
                    if (keep && i % 4 != 3) || density == 1 {
                        [1, 255, 2, 254, 9][r % 5]
                    } else {
                        0
                    }
                })
                .collect();
            for carried in [0u32, 1, 3, 7, 8, 250, 300, 5000] {
                let mut out = [Vec::new(), Vec::new()];
                let mut left = [0u32; 2];
                for (sparse, (out, left)) in out.iter_mut().zip(&mut left).enumerate() {
                    let mut bits = Bits {
                        scratch: vec![0u8; line * 2 + 4096],
                        at: At {
                            pos: 0,
                            acc: 0b11,
                            n: 2,
                        },
                    };
                    *left = if sparse == 1 {
                        emit_row_sparse(&mut bits, &table, pairs, &runs, &data, carried)
                    } else {
                        emit_row(&mut bits, &table, pairs, &runs, &data, carried)
                    };
                    bits.pad();
                    bits.drain_into(out);
                }
                assert_eq!(
                    left[0], left[1],
                    "case {case}, line {line}, carried {carried}"
                );
                assert!(
                    out[0] == out[1],
                    "case {case}, line {line}, carried {carried}"
                );
            }
        }
    }

    #[test]
    fn run_codes_write_what_emit_run_writes() {
        // Codes where the zero is short (a smooth image's), long (an image
        // with few zeros: a run of a few literal zeros no longer fits one
        // store) and in between.
        for zero_count in [1u32 << 20, 40, 1] {
            let mut freq = [50u32; LITLEN];
            freq[0] = zero_count;
            let lens = code_lengths(&freq, MAX_CODE_LEN);
            let codes = canonical_codes(&lens);
            let mut table = [0u32; LITLEN];
            for (t, (&c, &l)) in table.iter_mut().zip(codes.iter().zip(&lens)) {
                *t = u32::from(c) << 4 | u32::from(l);
            }
            let runs = RunCodes::new(&table);
            for n in 1..600 {
                let start = At {
                    pos: 0,
                    acc: 0b101,
                    n: 3,
                };
                let (mut a, mut b) = (vec![0u8; 4096], vec![0u8; 4096]);
                let x = runs.emit(start, &mut a, &table, n);
                let y = emit_run(start, &mut b, &table, n);
                assert_eq!((x.pos, x.acc, x.n), (y.pos, y.acc, y.n), "run of {n}");
                assert_eq!(a[..x.pos], b[..y.pos], "run of {n}");
            }
        }
    }

    #[test]
    fn long_runs_of_zeros_are_copies() {
        // 512 × 512 grey, all zero: a few bytes a scanline (its filter
        // byte, a zero, copies), not 32 KiB of one-bit literals.
        let size = round_trip(&vec![0; 512 * 512], 512, 1);
        assert!(size < 512 * 512 / 150, "{size} bytes");
        // Runs that cross scanline boundaries, of every length around the
        // copy thresholds.
        for run in [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 257, 258, 259, 260, 517,
        ] {
            let mut raw = vec![0u8; 4096];
            for (i, v) in raw.iter_mut().enumerate() {
                if i % (run + 1) == 0 {
                    *v = 1 + (i % 7) as u8;
                }
            }
            round_trip(&raw, 64, 1);
        }
    }

    #[test]
    fn tall_images_of_zeros_round_trip() {
        // A run of zeros spans at most two scanlines' worth (only a None
        // row starts with a zero, and only an odd one may be all zeros), so
        // what one scanline writes fits the scratch buffer (sized for a
        // scanline of longest codes and such a run).
        for (w, h) in [(16, 4000), (1, 70_000), (600, 300)] {
            let mut raw = vec![0u8; w * h];
            *raw.last_mut().unwrap() = 9;
            raw[w / 2] = 3;
            round_trip(&raw, w, 1);
        }
    }

    #[test]
    fn runs_of_zeros_cross_rows_filtered_with_none() {
        // Even rows zero but for two bytes at the end, odd rows noise then
        // zeros: below a noisy row None leaves the fewest residuals, and
        // the odd row after keeps it, so runs of zeros run from the end of
        // one row through the next one's filter type (0) into its start.
        for w in [64, 3000] {
            let h = 41;
            let noise = noise(w as u64, w * h);
            let raw: Vec<u8> = (0..w * h)
                .map(|i| match ((i / w) % 2, i % w) {
                    // 3, 0, 3 at the end: Sub would leave more than None.
                    (0, x) if x == w - 1 || x == w - 3 => 3,
                    (1, x) if x < w / 2 => noise[i] | 1,
                    _ => 0,
                })
                .collect();
            // Filters chosen whatever the sample says.
            let mut out = Vec::new();
            encode(&raw, w, 1, Plan::Choose, &mut Vec::new(), &mut out);
            let stream = inflate(&out);
            assert_eq!(unfilter(&stream, w, 1, Plan::Choose), raw);
            let types: Vec<u8> = stream.chunks_exact(w + 1).map(|l| l[0]).collect();
            assert!(types[2..].iter().all(|&t| t == NONE), "{types:?}");
        }
    }

    #[test]
    fn runs_of_zeros_through_many_rows_filtered_with_none() {
        // A noisy first row, then zeros: filtered with None, every row but
        // the first is one run of zeros from its filter type on, and the
        // run through them must not outgrow the scratch buffer.
        for (w, h) in [(3000, 700), (1, 3_000_000), (64, 64)] {
            let mut raw = vec![0u8; w * h];
            raw[..w].copy_from_slice(&noise(3, w));
            raw[w * h / 2] = 5;
            let mut out = Vec::new();
            encode(&raw, w, 1, Plan::One(4), &mut Vec::new(), &mut out);
            assert_eq!(unfilter(&inflate(&out), w, 1, Plan::One(4)), raw);
        }
    }

    #[test]
    fn drawn_pictures_keep_paeth() {
        // Flat boxes with hard edges and a hatched band, as a drawn card
        // has: every filter leaves mostly zeros, so choosing does not pay.
        let (w, h) = (300, 200);
        let raw: Vec<u8> = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                match (x / 60 + y / 50) % 3 {
                    0 => 30,
                    1 if (x + y) % 7 == 0 => 220,
                    1 => 90,
                    _ => 160,
                }
            })
            .collect();
        assert_eq!(Plan::for_image(&raw, w, 1), Plan::Paeth);
        round_trip(&raw, w, 1);
    }

    #[test]
    fn unsampled_scanlines_may_hold_symbols_the_sample_lacks() {
        // Rows 0, 4, 8… are zero; the others hold every byte value.
        let (w, h) = (256, 80);
        let raw: Vec<u8> = (0..w * h)
            .map(|i| {
                if (i / w) % 4 == 0 {
                    0
                } else {
                    (i * 7 % 256) as u8
                }
            })
            .collect();
        round_trip(&raw, w, 1);
    }

    #[test]
    fn code_lengths_are_limited_and_complete() {
        // Fibonacci counts make the deepest unlimited tree.
        let mut freq = vec![0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freq.iter_mut() {
            *f = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for limit in [7, 12, 15] {
            let lens = code_lengths(&freq, limit);
            assert!(lens.iter().all(|&l| (1..=limit).contains(&l)));
            let kraft: f64 = lens.iter().map(|&l| 0.5f64.powi(i32::from(l))).sum();
            assert!((kraft - 1.0).abs() < 1e-12, "complete: {kraft}");
        }
        // One symbol used: two get codes.
        assert_eq!(code_lengths(&[0, 0, 5], 7), vec![2, 2, 1]);
    }
}
