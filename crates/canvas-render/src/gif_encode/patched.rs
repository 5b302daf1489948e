//! Frames given as changed rectangles ([`PatchedFrames`]): their changes
//! found rectangle by rectangle and their pixels indexed.

use super::*;

/// A frame's change over the frame before, found from its [`Patch`]
/// (`crate::patched::Patch`): each row's [`Span`] and the rectangle of the
/// pixels that differ; `None` when none does.
pub(super) type PatchChange = Option<(Vec<Span>, Rect)>;

/// Each frame's [`PatchChange`] over the frame before (`None` for the
/// first), found by comparing each rectangle with the frame before it in
/// one canvas updated rectangle by rectangle; and, taken on the way, the
/// two samples [`palette_sample`] may take of the composed frames (of
/// [`STILL_SAMPLE`] and of [`PALETTE_SAMPLE`] pixels).
pub(super) fn patch_changes(patched: &PatchedFrames) -> (Vec<PatchChange>, [Vec<[u8; 3]>; 2]) {
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
pub(super) fn index_patched(
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
            let count = repeated_sample_size(distinct, frames * per_frame);
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
pub(super) fn rect_union(a: Option<Rect>, b: Option<Rect>) -> Option<Rect> {
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
pub(super) fn compare_within(
    prev: &[u8],
    cur: &[u8],
    width: usize,
    within: Option<Rect>,
) -> Change {
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
