//! An animation given as its first frame and, for each later frame, only
//! the rectangle in which it differs from the frame before, with that
//! rectangle's pixels: a template whose static layers stay still while an
//! avatar moves and text types over them (amongus).
//!
//! The GIF encoder takes it as it is ([`crate::animation::encode_gif_patched`]):
//! it follows the frames in one canvas it updates rectangle by rectangle,
//! with no canvas-sized frame per frame, no whole-frame comparison and no
//! fingerprints. Any other consumer (the WebP encoder, a still of the first
//! frame) composes the frames it needs ([`PatchedFrames::composed`]).

use image::RgbaImage;

/// The pixels of one frame in a rectangle: everything outside it is as in
/// the frame before.
#[derive(Debug)]
pub struct Patch {
    /// The rectangle's top-left corner on the canvas.
    pub at: (u32, u32),
    /// Its pixels (straight alpha); its size is the rectangle's.
    pub pixels: RgbaImage,
}

impl Patch {
    /// Whether the rectangle lies wholly inside a canvas of `size`.
    pub fn fits(&self, (w, h): (u32, u32)) -> bool {
        let (pw, ph) = self.pixels.dimensions();
        u64::from(self.at.0) + u64::from(pw) <= u64::from(w)
            && u64::from(self.at.1) + u64::from(ph) <= u64::from(h)
    }

    /// Writes the rectangle's pixels into `frame` (of the canvas's size;
    /// the rectangle lies inside it: [`Patch::fits`]).
    pub(crate) fn apply(&self, frame: &mut RgbaImage) {
        let width = frame.width() as usize;
        let (x, y) = (self.at.0 as usize, self.at.1 as usize);
        let pw = self.pixels.width() as usize;
        if pw == 0 {
            return;
        }
        let data: &mut [u8] = frame;
        for (row, src) in self.pixels.as_raw().chunks_exact(pw * 4).enumerate() {
            let start = ((y + row) * width + x) * 4;
            data[start..start + pw * 4].copy_from_slice(src);
        }
    }
}

/// An animation as its first frame and, for each later frame, what changed
/// since the frame before.
#[derive(Debug)]
pub struct PatchedFrames {
    /// The first frame (straight alpha); its size is the canvas's.
    pub first: RgbaImage,
    /// Each frame in order, with its delay in ms: for any frame that shows
    /// the frame before again, `None`; for any other, the rectangle holding
    /// every pixel that differs from the frame before (it may hold
    /// unchanged pixels too). The first frame's is `None` (any rectangle
    /// there is not looked at).
    pub frames: Vec<(Option<Patch>, u32)>,
}

impl PatchedFrames {
    /// The canvas's width and height.
    pub fn canvas(&self) -> (u32, u32) {
        self.first.dimensions()
    }

    /// Whether every rectangle lies inside the canvas.
    pub fn fits(&self) -> bool {
        let size = self.canvas();
        self.frames
            .iter()
            .all(|(patch, _)| patch.as_ref().is_none_or(|p| p.fits(size)))
    }

    /// Every frame composed, with its delay, in buffers from the store
    /// ([`crate::buffers`]). A rectangle outside the canvas is clipped.
    pub fn composed(&self) -> Vec<(RgbaImage, u32)> {
        let size = self.canvas();
        let mut out: Vec<(RgbaImage, u32)> = Vec::with_capacity(self.frames.len());
        for (patch, delay) in &self.frames {
            let mut frame = match out.last() {
                Some((before, _)) => copied(before),
                None => copied(&self.first),
            };
            if let Some(patch) = patch.as_ref().filter(|_| !out.is_empty()) {
                match patch.fits(size) {
                    true => patch.apply(&mut frame),
                    false => apply_clipped(patch, &mut frame),
                }
            }
            out.push((frame, *delay));
        }
        out
    }

    /// Gives the frames' buffers back to the store ([`crate::buffers`]).
    pub fn recycle(self) {
        crate::buffers::recycle_image(self.first);
        for (patch, _) in self.frames {
            if let Some(patch) = patch {
                crate::buffers::recycle_image(patch.pixels);
            }
        }
    }
}

/// A copy of `frame` in a buffer from the store.
pub(crate) fn copied(frame: &RgbaImage) -> RgbaImage {
    let data = crate::buffers::copy_of(frame.as_raw());
    RgbaImage::from_raw(frame.width(), frame.height(), data).expect("the frame's own size")
}

/// [`Patch::apply`] for a rectangle reaching past the canvas: the part
/// inside it.
fn apply_clipped(patch: &Patch, frame: &mut RgbaImage) {
    let (w, h) = frame.dimensions();
    let (x, y) = patch.at;
    for (px, py, p) in patch.pixels.enumerate_pixels() {
        let (fx, fy) = (u64::from(x) + u64::from(px), u64::from(y) + u64::from(py));
        if fx < u64::from(w) && fy < u64::from(h) {
            frame.put_pixel(fx as u32, fy as u32, *p);
        }
    }
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::{Patch, PatchedFrames};

    #[test]
    fn frames_compose_from_the_first_and_each_rectangle() {
        let first = RgbaImage::from_fn(6, 4, |x, y| Rgba([x as u8 * 40, y as u8 * 60, 9, 255]));
        let red = RgbaImage::from_pixel(2, 2, Rgba([255, 0, 0, 255]));
        let blue = RgbaImage::from_pixel(3, 1, Rgba([0, 0, 255, 128]));
        let patched = PatchedFrames {
            first: first.clone(),
            frames: vec![
                (None, 50),
                (
                    Some(Patch {
                        at: (1, 1),
                        pixels: red,
                    }),
                    60,
                ),
                (None, 70),
                (
                    Some(Patch {
                        at: (4, 3),
                        pixels: blue,
                    }),
                    80,
                ),
            ],
        };
        assert!(!patched.fits());
        let frames = patched.composed();
        assert_eq!(
            frames.iter().map(|f| f.1).collect::<Vec<_>>(),
            [50, 60, 70, 80]
        );
        assert_eq!(frames[0].0, first);
        for (x, y, p) in frames[1].0.enumerate_pixels() {
            let inside = (1..3).contains(&x) && (1..3).contains(&y);
            let want = if inside {
                Rgba([255, 0, 0, 255])
            } else {
                *first.get_pixel(x, y)
            };
            assert_eq!(*p, want, "({x}, {y})");
        }
        assert_eq!(frames[2].0, frames[1].0);
        // Clipped at the canvas's edge; the frame before shows elsewhere.
        let last = &frames[3].0;
        assert_eq!(*last.get_pixel(4, 3), Rgba([0, 0, 255, 128]));
        assert_eq!(*last.get_pixel(5, 3), Rgba([0, 0, 255, 128]));
        assert_eq!(*last.get_pixel(1, 1), Rgba([255, 0, 0, 255]));
        assert_eq!(*last.get_pixel(3, 3), *first.get_pixel(3, 3));
    }
}
