//! GIF's variable-length LZW, as `gif::Encoder::write_lzw_pre_encoded_frame`
//! takes it: the minimum code size byte, then the code stream (least
//! significant bit first, not yet cut into sub-blocks).
//!
//! The rules are those of the `gif` crate's own encoder (`weezl`): the
//! minimum code size is the fewest bits that hold the largest index (at
//! least 2), codes grow by a bit when the decoder's table reaches the next
//! power of two, and a full table (4096 codes) is followed by a clear code
//! and a fresh table. The dictionary differs: a flat open-addressing table
//! of 2¹⁵ slots, each holding a code (0 for none), at most an eighth full,
//! with each code's (prefix code, byte) in a table beside it; the table is
//! emptied with one fill per clear, and codes are gathered in a 64-bit
//! buffer and written four bytes at a time. A lookup is one load of the
//! slot (the next lookup's hash needs only the code) and one of the code's
//! key to check it; so sparse a table seldom probes a second slot, whose
//! mispredicted branch costs more than filling the larger table. The loop
//! that extends a string holds the lookup and little else: runs are looked
//! for once per string, in the loop around it, and whether a new string is
//! one byte repeated is one load, not a branch on whether its prefix is a
//! byte alone (random bytes, a code at nearly every pixel, and long runs
//! encode about a tenth faster so; dithered pictures as fast as before).
//! On dithered pictures (strings of two or three pixels) the time is the
//! chain of slot loads, each waiting for the code before it, and the
//! mispredicted branch that ends each string; none of these was faster
//! there: keys in the slots (one 32-bit load, a table twice the size),
//! emptying only the slots used instead of the fill, no branch on whether
//! a string ends (every pixel then does a miss's work), looking up the pair
//! a new string would begin with ahead of time, smaller tables. It also
//! keeps every string it adds (weezl cannot find a prefix's 17th
//! continuation again, so it spends a code on it for nothing): the codes
//! are the same up to the first such string, and the stream is then
//! usually a little shorter (by about 0.02 % on the animated avatars of the
//! benchmark; a fuller table can also be cleared at a worse moment, so now
//! and then a frame comes out a few bytes longer).

/// Codes are at most 12 bits, so a table holds at most 4096 of them.
const MAX_CODES: u16 = 4096;
const MAX_CODE_SIZE: u32 = 12;
/// Slots of the dictionary: a power of two, at most an eighth full. With
/// 2¹³ slots (half full) the templates' frames took about a quarter longer
/// to encode, for the second probes; 2¹⁶ was no faster than 2¹⁵.
const SLOT_BITS: u32 = 15;
const SLOTS: usize = 1 << SLOT_BITS;

/// An LZW encoder whose dictionary is kept between frames (so it is
/// allocated once per animation).
#[derive(Debug)]
pub(crate) struct Lzw {
    /// The code of a string, or 0 (no string has code 0: codes of strings
    /// come after the clear and end codes).
    slots: Box<[u16; SLOTS]>,
    /// `prefix << 8 | byte` of each code's string (read only for codes
    /// found in `slots`).
    keys: Box<[u32; MAX_CODES as usize]>,
    /// For each code whose string is one byte repeated (a byte's own code
    /// included, set per stream), that byte; else [`NOT_A_RUN`] (read only
    /// for codes in the table).
    run_byte: Box<[u16; MAX_CODES as usize]>,
    /// For each byte `b`, the codes of `b b`, `b b b`… in the table, in
    /// that order (a run's string is added only after the one a byte
    /// shorter): the code of `b` repeated `k` times is `runs[b][k - 2]`.
    runs: Vec<Vec<u16>>,
}

/// Pixels after a string's first that must repeat it for the run to be
/// followed by its codes.
const RUN_WORD: usize = 8;

/// [`Lzw::run_byte`] of a code whose string is not one byte repeated.
const NOT_A_RUN: u16 = u16::MAX;

/// Codes packed least significant bit first.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    bits: u64,
    count: u32,
}

impl BitWriter<'_> {
    #[inline(always)]
    fn put(&mut self, code: impl Into<u64>, size: u32) {
        self.bits |= code.into() << self.count;
        self.count += size;
        if self.count >= 32 {
            self.out
                .extend_from_slice(&(self.bits as u32).to_le_bytes());
            self.bits >>= 32;
            self.count -= 32;
        }
    }

    /// Writes what is left, the last byte padded with zero bits.
    fn finish(self) {
        let bytes = self.count.div_ceil(8) as usize;
        self.out
            .extend_from_slice(&self.bits.to_le_bytes()[..bytes]);
    }
}

/// The minimum code size of a stream of `pixels`: bits for the largest
/// index, at least 2 (so at least 4 colours).
fn min_code_size(pixels: &[u8]) -> u32 {
    let largest = pixels.iter().fold(0u8, |m, &p| m.max(p));
    (u32::from(largest) + 1)
        .max(4)
        .next_power_of_two()
        .trailing_zeros()
}

impl Lzw {
    pub(crate) fn new() -> Self {
        Self {
            slots: Box::new([0; SLOTS]),
            keys: Box::new([0; MAX_CODES as usize]),
            run_byte: Box::new([NOT_A_RUN; MAX_CODES as usize]),
            runs: vec![Vec::new(); 256],
        }
    }

    /// The minimum code size byte and LZW stream of `pixels`, in place of
    /// what `out` held.
    pub(crate) fn encode(&mut self, pixels: &[u8], out: &mut Vec<u8>) {
        let min_size = min_code_size(pixels);
        let clear = 1u16 << min_size;
        let end = clear + 1;

        out.clear();
        out.reserve(pixels.len() / 2 + 16);
        out.push(min_size as u8);
        let mut w = BitWriter {
            out,
            bits: 0,
            count: 0,
        };
        let mut size = min_size + 1;
        w.put(clear, size);
        let Some((&first, rest)) = pixels.split_first() else {
            w.put(end, size);
            w.finish();
            return;
        };

        let slots = &mut *self.slots;
        let keys = &mut *self.keys;
        let run_byte = &mut *self.run_byte;
        let runs = &mut self.runs;
        slots.fill(0);
        runs.iter_mut().for_each(Vec::clear);
        // A byte alone is that byte repeated once.
        for c in 0..clear {
            run_byte[usize::from(c)] = c;
        }
        let mut next = clear + 2;
        // `current` is the code of the string being matched; at the top of
        // this loop it is `rest[i - 1]` alone, a string just begun.
        let mut current = u32::from(first);
        let mut i = 0;
        'strings: while let Some(&byte) = rest.get(i) {
            // Runs of at least 8, looked for once per string (the short
            // runs of a dithered picture, often one or two pixels, go pixel
            // by pixel below): 8 pixels checked as one word.
            let run_ahead = rest.get(i..i + RUN_WORD).is_some_and(|ahead| {
                u64::from_le_bytes(ahead.try_into().expect("8 bytes"))
                    == u64::from(byte) * 0x0101_0101_0101_0101
            }) && u32::from(byte) == current;
            if run_ahead {
                // A run of one byte at the start of a string: the codes of
                // the byte repeated are known without a lookup for each
                // pixel. The strings matched, the codes written and the
                // entries added are those of the loop below, pixel by
                // pixel.
                let run = 1 + run_length(&rest[i..], byte);
                let mut left = run;
                let mut reset_runs = false;
                let codes = &mut runs[usize::from(byte)];
                loop {
                    // The longest run of `byte` in the table.
                    let longest = codes.len() + 1;
                    let code_of = |codes: &[u16], k: usize| match k {
                        1 => u32::from(byte),
                        k => u32::from(codes[k - 2]),
                    };
                    if left <= longest {
                        current = code_of(codes, left);
                        break;
                    }
                    // That longest run, then the same byte: not in the
                    // table. Its code is written and the run a byte longer
                    // added; a string begins again with the byte.
                    let prefix = code_of(codes, longest);
                    w.put(prefix, size);
                    if next == MAX_CODES {
                        w.put(clear, size);
                        slots.fill(0);
                        codes.clear();
                        reset_runs = true;
                        size = min_size + 1;
                        next = clear + 2;
                    } else {
                        let mut slot = slot_of(prefix, u32::from(byte));
                        while slots[slot] != 0 {
                            slot = (slot + 1) & (SLOTS - 1);
                        }
                        slots[slot] = next;
                        keys[usize::from(next)] = prefix << 8 | u32::from(byte);
                        run_byte[usize::from(next)] = u16::from(byte);
                        codes.push(next);
                        next += 1;
                        if u32::from(next) > 1 << size && size < MAX_CODE_SIZE {
                            size += 1;
                        }
                    }
                    left -= longest;
                }
                if reset_runs {
                    // A clear empties the table: the runs of other bytes
                    // are gone too.
                    for (b, codes) in runs.iter_mut().enumerate() {
                        if b != usize::from(byte) {
                            codes.clear();
                        }
                    }
                }
                i += run - 1;
            }
            // The string grows pixel by pixel while the table has it.
            loop {
                let Some(&byte) = rest.get(i) else {
                    break 'strings;
                };
                let byte = u32::from(byte);
                let key = current << 8 | byte;
                let mut s = slot_of(current, byte);
                let code = loop {
                    let code = slots[s];
                    if code == 0 || keys[usize::from(code) & (MAX_CODES as usize - 1)] == key {
                        break code;
                    }
                    s = (s + 1) & (SLOTS - 1);
                };
                i += 1;
                if code != 0 {
                    current = u32::from(code);
                    continue;
                }
                w.put(current, size);
                if next == MAX_CODES {
                    // A full table: start again, as the decoder will.
                    w.put(clear, size);
                    slots.fill(0);
                    runs.iter_mut().for_each(Vec::clear);
                    size = min_size + 1;
                    next = clear + 2;
                } else {
                    slots[s] = next;
                    keys[usize::from(next)] = key;
                    // The string is one byte repeated when its prefix is
                    // that byte repeated (or that byte alone).
                    let repeated =
                        u32::from(run_byte[current as usize & (MAX_CODES as usize - 1)]) == byte;
                    run_byte[usize::from(next)] = if repeated {
                        runs[byte as usize].push(next);
                        byte as u16
                    } else {
                        NOT_A_RUN
                    };
                    next += 1;
                    // The decoder adds its entry one code later, and widens
                    // its codes once its next entry needs another bit.
                    if u32::from(next) > 1 << size && size < MAX_CODE_SIZE {
                        size += 1;
                    }
                }
                current = byte;
                continue 'strings;
            }
        }
        w.put(current, size);
        // Reading that last code, the decoder adds one more entry.
        if u32::from(next) >= 1 << size && size < MAX_CODE_SIZE {
            size += 1;
        }
        w.put(end, size);
        w.finish();
    }
}

/// The first slot to look at for the string `prefix` then `byte`. A few
/// cycles after the previous lookup (no multiplication of the code: the
/// byte's part does not wait for it); the code spread over the slots by 8,
/// so that consecutive codes do not make runs of full slots.
#[inline(always)]
fn slot_of(prefix: u32, byte: u32) -> usize {
    (prefix << (SLOT_BITS - 12) ^ byte.wrapping_mul(0x9E37_79B1) >> (32 - SLOT_BITS)) as usize
        & (SLOTS - 1)
}

/// How many bytes at the start of `bytes` are `byte`.
#[inline]
fn run_length(bytes: &[u8], byte: u8) -> usize {
    let all = u128::from_ne_bytes([byte; 16]);
    let mut n = 0;
    for chunk in bytes.chunks_exact(16) {
        if u128::from_ne_bytes(chunk.try_into().expect("16 bytes")) != all {
            break;
        }
        n += 16;
    }
    n + bytes[n..]
        .iter()
        .position(|&b| b != byte)
        .unwrap_or(bytes.len() - n)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::Lzw;

    impl Lzw {
        fn encoded(&mut self, pixels: &[u8]) -> Vec<u8> {
            let mut out = vec![1, 2, 3];
            self.encode(pixels, &mut out);
            out
        }
    }

    /// The `gif` crate's encoding of `pixels` (weezl's LZW).
    fn reference(pixels: &[u8]) -> Vec<u8> {
        let mut frame = gif_codec::Frame {
            buffer: Cow::Borrowed(pixels),
            ..gif_codec::Frame::default()
        };
        frame.make_lzw_pre_encoded();
        frame.buffer.into_owned()
    }

    /// Decodes with weezl, an independent decoder.
    fn decode(encoded: &[u8]) -> Vec<u8> {
        let (&min_size, data) = encoded.split_first().unwrap();
        weezl::decode::Decoder::new(weezl::BitOrder::Lsb, min_size)
            .decode(data)
            .unwrap()
    }

    /// How many clear codes the stream holds (walking it as a decoder
    /// does, so code sizes follow the table).
    fn clear_codes(encoded: &[u8]) -> usize {
        let (&min_size, data) = encoded.split_first().unwrap();
        let clear = 1u32 << min_size;
        let (mut pos, mut size, mut next, mut fresh, mut clears) =
            (0usize, u32::from(min_size) + 1, clear + 2, true, 0);
        loop {
            let code = (0..size).fold(0u32, |c, b| {
                let bit = pos + b as usize;
                c | u32::from(data[bit / 8] >> (bit % 8) & 1) << b
            });
            pos += size as usize;
            if code == clear {
                clears += 1;
                (size, next, fresh) = (u32::from(min_size) + 1, clear + 2, true);
                continue;
            }
            if code == clear + 1 {
                return clears;
            }
            if !fresh && next < 4096 {
                next += 1;
                if next == 1 << size && size < 12 {
                    size += 1;
                }
            }
            fresh = false;
        }
    }

    /// `pixels` round-trip, with the `gif` crate's code size, and (for
    /// these inputs) in no more bytes than the `gif` crate's encoding.
    fn check(pixels: &[u8]) {
        let encoded = Lzw::new().encoded(pixels);
        assert!(
            decode(&encoded) == pixels,
            "round trip of {} bytes",
            pixels.len()
        );
        let expected = reference(pixels);
        assert_eq!(encoded[0], expected[0], "minimum code size");
        assert!(
            encoded.len() <= expected.len(),
            "{} bytes encode to {}, the gif crate's to {}",
            pixels.len(),
            encoded.len(),
            expected.len(),
        );
    }

    /// A seeded xorshift generator.
    fn noise(len: usize, mut seed: u32, modulo: u32) -> Vec<u8> {
        (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                (seed % modulo) as u8
            })
            .collect()
    }

    #[test]
    fn empty_and_single_pixels() {
        check(&[]);
        for p in [0, 1, 3, 4, 7, 8, 127, 128, 254, 255] {
            check(&[p]);
            check(&[p, p]);
        }
        assert_eq!(Lzw::new().encoded(&[]), [2, 0b0010_1100]);
    }

    #[test]
    fn runs() {
        for len in [2, 3, 4, 5, 10, 100, 1000, 4096, 65_536, 1 << 20] {
            check(&vec![255; len]);
            check(&vec![0; len]);
        }
        let stripes: Vec<u8> = (0..40_000).map(|i| (i / 37 % 9) as u8 * 17).collect();
        check(&stripes);
    }

    #[test]
    fn random_bytes_of_many_sizes() {
        for (k, len) in [
            2, 5, 255, 256, 257, 511, 512, 513, 4093, 4094, 4095, 4096, 4097, 5000,
        ]
        .into_iter()
        .enumerate()
        {
            check(&noise(len, 0x1234_5677 + k as u32, 256));
        }
        for seed in 1..6u32 {
            check(&noise(100_000, seed.wrapping_mul(0x9E37_79B9), 256));
        }
    }

    #[test]
    fn full_tables_are_cleared() {
        // Random bytes add a code for nearly every pixel: 60 000 of them
        // fill the table more than ten times (after the leading clear).
        let pixels = noise(60_000, 7, 256);
        let encoded = Lzw::new().encoded(&pixels);
        let clears = clear_codes(&encoded);
        assert!((12..=16).contains(&clears), "{clears} clear codes");
        check(&pixels);
        // Every length around the first clear.
        for len in 3800..3900 {
            check(&pixels[..len]);
        }
    }

    #[test]
    fn all_256_symbols() {
        let all: Vec<u8> = (0..=255).collect();
        check(&all);
        let twice: Vec<u8> = all.iter().chain(all.iter().rev()).copied().collect();
        check(&twice);
        let pairs: Vec<u8> = (0..65_536u32).map(|i| (i * 7919 % 256) as u8).collect();
        check(&pairs);
    }

    #[test]
    fn small_palettes_use_short_codes() {
        for (colours, min_size) in [(1, 2), (2, 2), (4, 2), (5, 3), (8, 3), (16, 4), (17, 5)] {
            for len in [1, 10, 1000, 20_000] {
                let pixels = noise(len, colours * 31 + len as u32, colours);
                let encoded = Lzw::new().encoded(&pixels);
                // The largest index sets the code size; a short noise may
                // not reach it.
                let largest = pixels.iter().copied().max().unwrap();
                assert!(encoded[0] <= min_size && (1u32 << encoded[0]) > u32::from(largest));
                check(&pixels);
            }
        }
    }

    #[test]
    fn one_encoder_serves_many_frames() {
        let mut lzw = Lzw::new();
        for k in 0..6u32 {
            let pixels = noise(3000 + k as usize * 1500, k + 1, 1 << (k + 1));
            assert!(
                lzw.encoded(&pixels) == Lzw::new().encoded(&pixels),
                "frame {k}"
            );
        }
    }

    /// Whole GIFs of these streams decode, through the `gif` crate's own
    /// decoder, to the indices given: one pixel, one colour, random
    /// indices of every byte, two colours (minimum code size 2) and
    /// diagonal stripes, one encoder for them all.
    #[test]
    fn gif_decoder_reads_the_frames() {
        let stripes: Vec<u8> = (0..64_000usize)
            .map(|i| ((i / 640 + i % 640 / 8) % 256) as u8)
            .collect();
        let cases: Vec<(u16, u16, Vec<u8>)> = vec![
            (1, 1, vec![0]),
            (1, 1, vec![255]),
            (300, 200, vec![7; 60_000]),
            (256, 256, noise(65_536, 3, 256)),
            (64, 64, noise(4096, 9, 2)),
            (640, 100, stripes),
            (1, 1, vec![3]),
        ];
        let palette: Vec<u8> = (0..=255u8)
            .flat_map(|i| [i, i.wrapping_mul(7), 255 - i])
            .collect();
        let mut lzw = Lzw::new();
        for (w, h, pixels) in cases {
            let mut stream = Vec::new();
            lzw.encode(&pixels, &mut stream);
            let mut gif = Vec::new();
            {
                let mut enc = gif_codec::Encoder::new(&mut gif, w, h, &palette).unwrap();
                let frame = gif_codec::Frame {
                    width: w,
                    height: h,
                    buffer: Cow::Borrowed(&stream),
                    ..gif_codec::Frame::default()
                };
                enc.write_lzw_pre_encoded_frame(&frame).unwrap();
            }
            let mut options = gif_codec::DecodeOptions::new();
            options.set_color_output(gif_codec::ColorOutput::Indexed);
            let mut decoder = options.read_info(gif.as_slice()).unwrap();
            let frame = decoder.read_next_frame().unwrap().unwrap();
            assert!(frame.buffer[..] == pixels[..], "{w}×{h}");
        }
    }

    /// With at most 16 colours no string has more than 16 continuations,
    /// so weezl keeps every string too and the streams are the same, bit
    /// for bit: the code sizes and clear codes follow the same rules.
    #[test]
    fn up_to_16_colours_encode_as_the_gif_crate_does() {
        for colours in [1, 2, 3, 4, 7, 8, 15, 16] {
            for len in [0, 1, 2, 100, 5000, 60_000] {
                let pixels = noise(len, colours + 99, colours);
                let encoded = Lzw::new().encoded(&pixels);
                let expected = reference(&pixels);
                let differs = encoded.iter().zip(&expected).position(|(a, b)| a != b);
                assert!(
                    encoded == expected,
                    "{len} bytes of {colours} colours: lengths {} and {}, first difference at {differs:?}",
                    encoded.len(),
                    expected.len()
                );
            }
            // Long runs between the noise.
            let runs: Vec<u8> = noise(3000, colours, colours)
                .iter()
                .flat_map(|&p| std::iter::repeat_n(p, usize::from(p) * 13 + 1))
                .collect();
            assert!(
                Lzw::new().encoded(&runs) == reference(&runs),
                "runs of {colours} colours"
            );
        }
        // Every length up to 3000: the stream ends at every table size, on
        // both sides of each widening of the codes.
        let pixels = noise(3000, 5, 3);
        let mut lzw = Lzw::new();
        for len in 0..pixels.len() {
            let part = &pixels[..len];
            assert!(lzw.encoded(part) == reference(part), "{len} bytes");
        }
    }

    /// The encoder as it was before runs were followed by their codes: a
    /// lookup for every pixel (a map for the dictionary, the same rules for
    /// codes, clears and widths).
    fn pixel_by_pixel(pixels: &[u8]) -> Vec<u8> {
        let min_size = super::min_code_size(pixels);
        let clear = 1u32 << min_size;
        let mut out = vec![min_size as u8];
        let (mut bits, mut count) = (0u64, 0u32);
        let mut put = |out: &mut Vec<u8>, code: u32, size: u32| {
            bits |= u64::from(code) << count;
            count += size;
            while count >= 8 {
                out.push(bits as u8);
                bits >>= 8;
                count -= 8;
            }
        };
        let mut size = min_size + 1;
        put(&mut out, clear, size);
        let mut table = std::collections::HashMap::new();
        let mut next = clear + 2;
        if let Some((&first, rest)) = pixels.split_first() {
            let mut current = u32::from(first);
            for &byte in rest {
                let key = (current, byte);
                if let Some(&code) = table.get(&key) {
                    current = code;
                    continue;
                }
                put(&mut out, current, size);
                if next == 4096 {
                    put(&mut out, clear, size);
                    table.clear();
                    size = min_size + 1;
                    next = clear + 2;
                } else {
                    table.insert(key, next);
                    next += 1;
                    if next > 1 << size && size < 12 {
                        size += 1;
                    }
                }
                current = u32::from(byte);
            }
            put(&mut out, current, size);
            if next >= 1 << size && size < 12 {
                size += 1;
            }
        }
        put(&mut out, clear + 1, size);
        if count > 0 {
            out.push(bits as u8);
        }
        out
    }

    /// A dithered picture with transparent areas, random bytes filling the
    /// table many times, few colours, every byte, empty and one-pixel
    /// streams, one encoder for them all: the stream is the one a lookup
    /// for every pixel gives, bit for bit.
    #[test]
    fn varied_streams_encode_as_pixel_by_pixel() {
        // An ordered dither between two of 255 colours over a gradient,
        // with transparent (255) corners and stripes, as the templates'
        // frames are.
        let bayer = [
            [0u32, 8, 2, 10],
            [12, 4, 14, 6],
            [3, 11, 1, 9],
            [15, 7, 13, 5],
        ];
        let dithered = |w: usize, h: usize, shift: usize| -> Vec<u8> {
            (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    let (dx, dy) = (x.abs_diff(w / 2), y.abs_diff(h / 2));
                    if dx * dx + dy * dy > w * w / 5 || (y + shift) % 50 < 4 {
                        return 255;
                    }
                    let level = ((x + shift) * 7 + y * 3) % 4000;
                    let (base, frac) = (level / 16 % 254, level % 16);
                    (base as u32 + u32::from(frac as u32 > bayer[y % 4][x % 4])) as u8
                })
                .collect()
        };
        let mut cases: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![255],
            vec![9, 9],
            (0..=255).collect(),
            noise(120_000, 17, 256),
            noise(50_000, 23, 255),
            noise(30_000, 29, 6),
            noise(70_000, 31, 2),
        ];
        for shift in 0..4 {
            cases.push(dithered(256, 256, shift * 13));
        }
        cases.push(dithered(97, 61, 5));
        let mut lzw = Lzw::new();
        for (k, pixels) in cases.iter().enumerate() {
            let got = lzw.encoded(pixels);
            assert!(
                got == pixel_by_pixel(pixels),
                "case {k}: {} pixels",
                pixels.len()
            );
            assert!(decode(&got) == *pixels, "case {k}: round trip");
        }
    }

    /// Runs of every length (short, long, past a full table) of one or a
    /// few bytes, between noise, at the ends and across a clear: the
    /// stream is the one a lookup for every pixel gives, bit for bit.
    #[test]
    fn runs_encode_as_pixel_by_pixel() {
        let mut lzw = Lzw::new();
        let mut check_same = |pixels: &[u8], what: &str| {
            let got = lzw.encoded(pixels);
            assert!(
                got == pixel_by_pixel(pixels),
                "{what}: {} bytes, lengths {} and {}",
                pixels.len(),
                got.len(),
                pixel_by_pixel(pixels).len()
            );
        };
        check_same(&[], "empty");
        for len in [
            1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 100, 4096, 5000, 100_000,
        ] {
            for b in [0, 1, 3, 7, 15, 31, 63, 127, 255] {
                check_same(&vec![b; len], "one run");
            }
        }
        // Runs of lengths drawn from noise, of symbols drawn from noise,
        // for every minimum code size, long enough for many clears.
        for colours in [2u32, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129, 256] {
            for (k, longest) in [1u32, 2, 3, 8, 40, 300, 3000].into_iter().enumerate() {
                let symbols = noise(4000, colours * 7 + k as u32, colours);
                let lengths = noise(4000, colours * 13 + k as u32 + 1, longest);
                let pixels: Vec<u8> = symbols
                    .iter()
                    .zip(&lengths)
                    .flat_map(|(&s, &n)| std::iter::repeat_n(s, usize::from(n) + 1))
                    .take(300_000)
                    .collect();
                check_same(&pixels, &format!("{colours} colours, runs up to {longest}"));
                // Ending at many places: inside a run, at its end.
                for cut in [1usize, 2, 17, 999, 4097, 12_345] {
                    if cut < pixels.len() {
                        check_same(&pixels[..cut], "a prefix");
                    }
                }
            }
        }
        // A frame's rectangle over the one before: transparent runs (255)
        // across the ends of rows, with a few changed pixels and a moving
        // block.
        for frame in 0..12usize {
            let (w, h) = (540usize, 250usize);
            let pixels: Vec<u8> = (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    if (x + frame * 7) % 97 < 20 && (y + frame) % 41 < 30 {
                        ((x * 3 + y * 5 + frame) % 200) as u8
                    } else if (x * 31 + y * 17 + frame) % 1009 == 0 {
                        (x % 13) as u8
                    } else {
                        255
                    }
                })
                .collect();
            check_same(&pixels, &format!("rectangle {frame}"));
        }
        // Random bytes (codes added at every pixel) then a long run, so the
        // run meets a full table.
        for len in [3000usize, 3900, 4000, 4050, 4090, 8000] {
            let mut pixels = noise(len, len as u32, 256);
            pixels.extend(std::iter::repeat_n(9, 20_000));
            pixels.extend(noise(5000, 3, 256));
            pixels.extend(std::iter::repeat_n(9, 20_000));
            check_same(&pixels, &format!("noise of {len} then runs"));
        }
    }
}
