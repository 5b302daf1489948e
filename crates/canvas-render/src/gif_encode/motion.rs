//! What the frames share: moved pictures, shifted frames, equal frames,
//! the rectangles that changed, and the frames indexed with all of it.

use super::*;

/// How far (in pixels, either way on each axis) [`find_shift`] looks.
pub(super) const SHIFT_REACH: isize = 48;
/// Pixels in a row that [`find_shift`] looks for in the frame before.
pub(super) const PROBE: usize = 16;

/// The offset `(dx, dy)` by which `cur` shows `prev` moved, if a probe finds
/// one: a run of [`PROBE`] pixels of `cur` (at the centre, else at the
/// centre of a quarter) that differs from `prev` at its own place, is not
/// one flat colour, and is found in `prev` at most [`SHIFT_REACH`] away.
/// Only where pixels are equal is anything copied, so a wrong offset costs
/// nothing but the search (about 10⁴ pixel comparisons per probe).
pub(super) fn find_shift(cur: &RgbaImage, prev: &RgbaImage) -> Option<(isize, isize)> {
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
    pub(super) fn run(px: &[u8], w: isize, x: isize, y: isize) -> &[u8] {
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
pub(super) const BLOCK: usize = 64;

/// The index of the first byte where `a` and `b` (of one length) differ,
/// or their length.
pub(super) fn first_difference(a: &[u8], b: &[u8]) -> usize {
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
pub(super) fn last_difference(a: &[u8], b: &[u8]) -> usize {
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

pub(super) fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    let d = |i: usize| {
        let v = i32::from(a[i]) - i32::from(b[i]);
        (v * v) as u32
    };
    2 * d(0) + 4 * d(1) + 3 * d(2)
}

/// Every picture as palette indices, row by row.
pub(super) type IndexedFrames = Vec<Vec<u8>>;

/// A frame's rectangle: left, top, width, height.
pub(super) type Rect = (usize, usize, usize, usize);

/// What a frame shows: one of the pictures mapped, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Shows {
    /// Index into the pictures (and their indices).
    pub(super) picture: usize,
    /// `None`: the picture is the whole frame. `Some(rect)`: the picture
    /// is the frame's pixels in `rect` and every pixel outside it is
    /// transparent; the same picture shows elsewhere in another frame.
    pub(super) placed: Option<Rect>,
}

/// The palette, every distinct picture as palette indices, and what each
/// frame shows.
pub(super) type Indexed = (Vec<[u8; 3]>, IndexedFrames, Vec<Shows>);

/// A palette for every frame and the distinct pictures the frames show
/// ([`pictures`]) as palette indices, each mapped once.
pub(super) fn index_frames(
    frames: &[RgbaImage],
    sample_size: Option<usize>,
    deadline: &Deadline,
) -> Result<Indexed, AnimationError> {
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
    let sample = match sample_size {
        Some(size) => sample_all(frames, size),
        None => match shows.iter().any(|s| s.placed.is_some()) {
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
        },
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
pub(super) enum Source {
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
pub(super) fn pictures(frames: &[RgbaImage]) -> (Vec<RgbaImage>, Vec<Source>, Vec<Shows>) {
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
pub(super) fn cut_out(frame: &RgbaImage, (x, y, w, h): Rect) -> RgbaImage {
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
pub(super) fn opaque_bounds(frame: &RgbaImage) -> Option<Rect> {
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
pub(super) const ALPHA_TOPS: u64 = 0x8000_0000_8000_0000;
const _: () = assert!(ALPHA_CUTOFF == 128);

/// Whether any of 8 pixels (RGBA) is not transparent: their alphas' top
/// bits tested at once, in four words, rather than one branch each.
#[inline(always)]
pub(super) fn any_seen(eight: &[u8]) -> bool {
    let word = |i: usize| u64::from_le_bytes(eight[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
    (word(0) | word(1) | word(2) | word(3)) & ALPHA_TOPS != 0
}

/// The first pixel of `pixels` (RGBA) that is not transparent, looked for
/// 8 pixels at a time.
pub(super) fn first_seen(pixels: &[u8]) -> Option<usize> {
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
pub(super) fn last_seen(pixels: &[u8]) -> Option<usize> {
    let seen = |px: &[u8]| px[3] >= ALPHA_CUTOFF;
    let n = pixels.len() / 4;
    let skip = pixels.rchunks_exact(32).position(any_seen).unwrap_or(n / 8);
    let end = n - skip * 8;
    pixels[..end * 4].chunks_exact(4).rposition(seen)
}

/// The most bytes of pictures cut out of an animation's frames
/// ([`pictures`]), kept while it is encoded: two 1024² pictures (a picture
/// shaking on a transparent canvas cuts one). Contents past it stay in
/// their whole frames, so a crafted animation of many moving pictures costs
/// no more memory than the stated bound allows for it.
pub(super) const MAX_CUT_BYTES: usize = 8 << 20;

/// For each frame whose content (the pixels in its [`opaque_bounds`],
/// everything outside transparent) shows at another place in another
/// frame, its rectangle and the first frame with that content; `None` for
/// the others, and for contents past `budget` bytes of RGBA cut-outs
/// (counted in the order of their first frames). Contents are compared only
/// when their sizes and a sample of their pixels agree.
pub(super) fn moved_contents(frames: &[RgbaImage], budget: usize) -> Vec<Option<(Rect, usize)>> {
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
pub(super) fn content_fingerprint<'a>(rows: impl Iterator<Item = &'a [u8]>, r: Rect) -> u64 {
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
pub(super) fn first_equal_frames(frames: &[RgbaImage]) -> Vec<usize> {
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
pub(super) fn fingerprint(pixels: &[u8]) -> u64 {
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
pub(super) struct Change {
    /// The rectangle of the pixels that differ, if any does.
    pub(super) rect: Option<Rect>,
    /// How many pixels are the same in both.
    pub(super) unchanged: usize,
    /// Whether the frame is transparent anywhere the previous one is not
    /// (so the previous one must be cleared away).
    pub(super) uncovers: bool,
}

/// How many indices of the row `c` equal `p`'s. A plain pass the compiler
/// vectorises: a count in bytes per 255 indices, not one with a tuple.
#[inline]
pub(super) fn same_indices(c: &[u8], p: &[u8]) -> usize {
    c.chunks(255)
        .zip(p.chunks(255))
        .map(|(c, p)| usize::from(c.iter().zip(p).fold(0u8, |n, (c, p)| n + u8::from(c == p))))
        .sum()
}

/// Whether the row `c` is transparent anywhere `p` is not: a fold rather
/// than `any`, whose early exit goes byte by byte.
#[inline]
pub(super) fn uncovers_any(c: &[u8], p: &[u8]) -> bool {
    c.iter().zip(p).fold(false, |u, (&c, &p)| {
        u | ((c == TRANSPARENT) & (p != TRANSPARENT))
    })
}

/// How `cur` differs from `prev` (one pass over both).
pub(super) fn compare(prev: &[u8], cur: &[u8], width: usize) -> Change {
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
pub(super) fn crop(cur: &[u8], prev: Option<&[u8]>, width: usize, rect: Rect, buf: &mut Vec<u8>) {
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
