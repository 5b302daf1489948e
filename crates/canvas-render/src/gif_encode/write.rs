//! Writing the file: each frame's changed rectangle, its disposal and
//! its LZW stream (kept for frames that come again).

use super::*;

/// The LZW stream of a whole frame (`pixels`, whose first equal frame is
/// `origin`) into `out`: a copy of the stream kept for `origin`, or encoded
/// and kept when a later frame will want it (`repeats[origin] > 1`).
pub(super) fn encode_whole(
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

/// The GIF's loop count for `loops` (`None`: played once, no extension).
pub(super) fn repeat_of(loops: Loops) -> Option<gif_codec::Repeat> {
    match loops {
        Loops::Infinite => Some(gif_codec::Repeat::Infinite),
        Loops::Times(n) if n > 1 => Some(gif_codec::Repeat::Finite(
            u16::try_from(n - 1).unwrap_or(u16::MAX),
        )),
        Loops::Times(_) => None,
    }
}

/// Writes the GIF of frames indexed by [`index_frames`] (or laid out as
/// it does), each shown for its `delays_ms`, on a `w` × `h` canvas.
pub(super) fn write_gif(
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
pub(super) fn write_gif_known(
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
        if let Some(r) = repeat_of(loops) {
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
