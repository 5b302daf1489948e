//! Image-sized buffers kept for reuse, so a program rendering one image
//! after another does not map, fault in and zero fresh memory for each.
//!
//! The filters, the shapes, [`encode_png_into`](crate::encode_png_into),
//! the scenes' and templates' canvases and an animated template's frames
//! take their output and scratch buffers from one store shared by every
//! thread. Buffers come back to it when the crate is done with its own
//! scratch, and when the caller gives a finished image or encoded file
//! back with [`recycle`] or [`recycle_image`] (from any thread). The store
//! holds at most [`KEEP_BYTES`] of buffers by default ([`set_keep_bytes`]
//! changes it; 0 turns reuse off); beyond that the ones given back longest
//! ago are freed. A buffer that is never given back is simply freed as
//! usual.
//!
//! ```
//! use canvas_render::{Filter, apply, buffers};
//!
//! let avatar = canvas_render::solid(256, 256, [40, 90, 200]).unwrap();
//! let grey = apply(&Filter::Greyscale, &avatar).unwrap();
//! assert_eq!(grey.get_pixel(0, 0).0, [87, 87, 87, 255]);
//! // Done with it: the next image of this size reuses its memory.
//! buffers::recycle_image(grey);
//! let inverted = apply(&Filter::Invert, &avatar).unwrap();
//! assert_eq!(inverted.get_pixel(0, 0).0, [215, 165, 55, 255]);
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::RgbaImage;

/// The most bytes (buffer capacities) the store keeps by default: one
/// 1024 × 1024 RGBA image, its encoding and scratch for each of a few
/// render threads.
pub const KEEP_BYTES: usize = 32 << 20;

/// The most bytes the store keeps now (see [`set_keep_bytes`]).
static KEEP: AtomicUsize = AtomicUsize::new(KEEP_BYTES);

/// Sets the most bytes (buffer capacities) the store keeps, for the whole
/// process; 0 turns reuse off. Buffers kept beyond a lowered cap are freed
/// now.
pub fn set_keep_bytes(bytes: usize) {
    KEEP.store(bytes, Ordering::Relaxed);
    let mut store = STORE.lock().unwrap_or_else(PoisonError::into_inner);
    let mut kept: usize = store.iter().map(Vec::capacity).sum();
    let mut evict = 0;
    while kept > bytes {
        kept -= store[evict].capacity();
        evict += 1;
    }
    let freed: Vec<Vec<u8>> = store.drain(..evict).collect();
    drop(store);
    drop(freed);
}

/// The most bytes the store keeps now: [`KEEP_BYTES`] unless
/// [`set_keep_bytes`] was called.
pub fn keep_bytes() -> usize {
    KEEP.load(Ordering::Relaxed)
}

/// Buffers smaller than this are left to the allocator, which serves them
/// from its own free lists quickly.
const MIN_BYTES: usize = 64 << 10;

/// At most this many buffers are kept (each lookup scans them): the frames
/// of one animated template (amongus's 30) and its scratch.
const MAX_BUFFERS: usize = 48;

/// The store: buffers in the order they were given back, oldest first.
static STORE: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// Gives a buffer back for reuse (its contents are irrelevant). Buffers of
/// under 64 KiB are simply freed.
pub fn recycle(buffer: Vec<u8>) {
    let keep = keep_bytes();
    if buffer.capacity() < MIN_BYTES || buffer.capacity() > keep {
        return;
    }
    let mut store = STORE.lock().unwrap_or_else(PoisonError::into_inner);
    store.push(buffer);
    let mut kept: usize = store.iter().map(Vec::capacity).sum();
    // Free the oldest first; the newest always stays (it fits the cap).
    let mut evict = 0;
    while kept > keep || store.len() - evict > MAX_BUFFERS {
        kept -= store[evict].capacity();
        evict += 1;
    }
    let freed: Vec<Vec<u8>> = store.drain(..evict).collect();
    drop(store);
    drop(freed);
}

/// Gives an image's buffer back for reuse.
pub fn recycle_image(image: RgbaImage) {
    recycle(image.into_raw());
}

/// Bytes (capacities) the store holds now.
pub fn kept_bytes() -> usize {
    let store = STORE.lock().unwrap_or_else(PoisonError::into_inner);
    store.iter().map(Vec::capacity).sum()
}

/// An empty buffer with room for at least `capacity` bytes: the smallest
/// kept one that fits, else a new one.
pub fn take_empty(capacity: usize) -> Vec<u8> {
    let mut buffer = take_fitting(capacity).unwrap_or_default();
    buffer.clear();
    buffer.reserve(capacity);
    buffer
}

/// A copy of `bytes`, in a kept buffer when one fits.
pub(crate) fn copy_of(bytes: &[u8]) -> Vec<u8> {
    let mut buffer = take_empty(bytes.len());
    buffer.extend_from_slice(bytes);
    buffer
}

/// A buffer of exactly `len` bytes whose contents are unspecified (left
/// over from an earlier image, or zero): only for outputs that overwrite
/// every byte.
pub(crate) fn take(len: usize) -> Vec<u8> {
    match take_fitting(len) {
        Some(mut buffer) => {
            // Only bytes beyond the old length are written (zeroed).
            buffer.resize(len, 0);
            buffer
        }
        None => vec![0; len],
    }
}

/// The kept buffer of the smallest capacity at least `len`, taken out of
/// the store; of several, the one given back last, whose memory is the
/// likeliest to be still in the CPU's caches.
fn take_fitting(len: usize) -> Option<Vec<u8>> {
    if len < MIN_BYTES {
        return None;
    }
    let mut store = STORE.lock().unwrap_or_else(PoisonError::into_inner);
    // `min_by_key` keeps the first of equal keys: newest first.
    let best = store
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, b)| b.capacity() >= len)
        .min_by_key(|(_, b)| b.capacity())
        .map(|(i, _)| i)?;
    Some(store.remove(best))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The store is process-wide, so its tests run as one test (others in
    /// this crate only add to it, which the checks below allow for).
    #[test]
    fn buffers_are_reused_and_the_store_stays_capped() {
        let big = vec![7u8; 3 << 20];
        let ptr = big.as_ptr();
        recycle(big);
        // The best fit comes back, cut to the asked length, old bytes kept.
        let again = take(2 << 20);
        assert_eq!(again.as_ptr(), ptr);
        assert_eq!(again.len(), 2 << 20);
        assert!(again.iter().all(|&b| b == 7));
        recycle(again);
        // Of two that fit equally, the one given back last (a size no
        // other test's image has).
        let odd = (3 << 20) + 4093;
        let (older, newer) = (vec![1u8; odd], vec![2u8; odd]);
        let newer_ptr = newer.as_ptr();
        recycle(older);
        recycle(newer);
        let taken = take(odd);
        assert_eq!(taken.as_ptr(), newer_ptr);
        recycle(taken);
        let empty = take_empty(1 << 20);
        assert!(empty.is_empty() && empty.capacity() >= 1 << 20);
        recycle(empty);

        // Small buffers are not kept; nothing beyond the cap is.
        recycle(vec![0u8; 1024]);
        for _ in 0..3 * KEEP_BYTES / (4 << 20) {
            recycle(vec![0u8; 4 << 20]);
            assert!(kept_bytes() <= KEEP_BYTES);
        }
        recycle(vec![0u8; KEEP_BYTES + 1]);
        assert!(kept_bytes() <= KEEP_BYTES);
        for _ in 0..4 * MAX_BUFFERS {
            recycle(vec![0u8; MIN_BYTES]);
        }
        assert!(STORE.lock().unwrap().len() <= MAX_BUFFERS);

        // A lowered cap frees what is over it at once; 0 keeps nothing.
        set_keep_bytes(MIN_BYTES);
        assert!(kept_bytes() <= MIN_BYTES);
        set_keep_bytes(0);
        assert_eq!(kept_bytes(), 0);
        recycle(vec![0u8; 1 << 20]);
        assert_eq!(kept_bytes(), 0);
        assert!(take_fitting(1 << 20).is_none());
        set_keep_bytes(KEEP_BYTES);
        recycle(vec![0u8; 1 << 20]);
        assert!(kept_bytes() >= 1 << 20);
    }
}
