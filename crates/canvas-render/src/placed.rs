//! An animation whose every frame shows one picture at a place of its own
//! (a template with a camera over a still avatar: triggered's shake), given
//! as the picture and its places rather than as whole frames: on a
//! transparent canvas, or over a backdrop that fills it.
//!
//! The GIF encoder takes it as it is ([`crate::animation::encode_gif_placed`]):
//! the picture is stored once and written at each frame's place, with no
//! canvas-sized frame composed, scanned or compared but, over a backdrop,
//! the first. Any other consumer (the WebP encoder, a still of the first
//! frame) composes the frames it needs ([`PlacedFrames::frame`]).

use image::RgbaImage;

/// One picture shown by every frame of an animation, each frame placing
/// it at its own offset on a transparent canvas.
#[derive(Debug)]
pub struct PlacedFrames {
    /// The canvas's width and height.
    pub canvas: (u32, u32),
    /// The picture (straight alpha).
    pub picture: RgbaImage,
    /// Each frame in order: the picture's top-left corner on the canvas
    /// and the frame's delay in ms.
    pub frames: Vec<((u32, u32), u32)>,
    /// What the canvas shows under the picture (straight alpha, the
    /// canvas's size), if anything. With a backdrop each frame is the
    /// backdrop, the picture at the first frame's place and the picture at
    /// the frame's own place over both ([`PlacedFrames::frame`]): around a
    /// picture that moved, the first frame shows, as a GIF whose later
    /// frames each restore the first one draws it. `None`: a transparent
    /// canvas.
    pub backdrop: Option<RgbaImage>,
}

impl PlacedFrames {
    /// Whether the picture lies wholly inside the canvas in every frame
    /// (else a frame shows only part of it).
    pub fn fits(&self) -> bool {
        let (pw, ph) = self.picture.dimensions();
        self.frames.iter().all(|&((x, y), _)| {
            u64::from(x) + u64::from(pw) <= u64::from(self.canvas.0)
                && u64::from(y) + u64::from(ph) <= u64::from(self.canvas.1)
        })
    }

    /// Frame `i` as shown: the picture at its place on a transparent
    /// canvas, clipped to it (a transparent canvas past the last frame);
    /// over a backdrop, the backdrop with the picture at the first frame's
    /// place and at frame `i`'s over it (the backdrop and the first place
    /// past the last frame).
    pub fn frame(&self, i: usize) -> RgbaImage {
        let at = self.frames.get(i).map_or(self.canvas, |&(at, _)| at);
        match &self.backdrop {
            None => on_canvas(self.canvas, &self.picture, at),
            Some(backdrop) => {
                let first = self.frames.first().map_or(self.canvas, |&(at, _)| at);
                over_backdrop(backdrop, &self.picture, first, at)
            }
        }
    }

    /// Every frame composed ([`PlacedFrames::frame`]), with its delay.
    pub fn composed(&self) -> Vec<(RgbaImage, u32)> {
        (0..self.frames.len())
            .map(|i| (self.frame(i), self.frames[i].1))
            .collect()
    }
}

/// `picture` with its top-left corner at `(x, y)` on a transparent canvas
/// of `canvas` size, clipped to it, in a buffer from the store
/// ([`crate::buffers`]).
pub(crate) fn on_canvas(canvas: (u32, u32), picture: &RgbaImage, (x, y): (u32, u32)) -> RgbaImage {
    let (w, h) = (canvas.0 as usize, canvas.1 as usize);
    let (x, y) = ((x as usize).min(w), (y as usize).min(h));
    let (pw, ph) = (picture.width() as usize, picture.height() as usize);
    let (cols, rows) = (pw.min(w - x), ph.min(h - y));
    let row_bytes = w * 4;
    let mut data = crate::buffers::take_empty(row_bytes * h);
    data.resize(row_bytes * y, 0);
    if pw > 0 {
        for row in picture.as_raw().chunks_exact(pw * 4).take(rows) {
            data.resize(data.len() + x * 4, 0);
            data.extend_from_slice(&row[..cols * 4]);
            data.resize(data.len() + (w - x - cols) * 4, 0);
        }
    }
    data.resize(row_bytes * h, 0);
    RgbaImage::from_raw(w as u32, h as u32, data).expect("the canvas's own size")
}

/// `backdrop` with `picture` drawn over it (source-over, straight alpha)
/// with its top-left corner at `first`, and again at `at` (once when they
/// are one), clipped to it, in a buffer from the store ([`crate::buffers`]).
pub(crate) fn over_backdrop(
    backdrop: &RgbaImage,
    picture: &RgbaImage,
    first: (u32, u32),
    at: (u32, u32),
) -> RgbaImage {
    let data = crate::buffers::copy_of(backdrop.as_raw());
    let mut canvas = RgbaImage::from_raw(backdrop.width(), backdrop.height(), data)
        .expect("the backdrop's size");
    let over = |canvas: &mut RgbaImage, (x, y): (u32, u32)| {
        crate::resize::draw_over(canvas, picture, i64::from(x), i64::from(y));
    };
    over(&mut canvas, first);
    if at != first {
        over(&mut canvas, at);
    }
    canvas
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::PlacedFrames;

    #[test]
    fn frames_place_the_picture_and_clip_it() {
        let picture = RgbaImage::from_fn(3, 2, |x, y| Rgba([x as u8 * 50, y as u8 * 90, 7, 255]));
        let placed = PlacedFrames {
            canvas: (5, 4),
            picture: picture.clone(),
            frames: vec![((1, 2), 40), ((3, 3), 60)],
            backdrop: None,
        };
        assert!(!placed.fits());
        let first = placed.frame(0);
        assert_eq!(first.dimensions(), (5, 4));
        for (x, y, p) in first.enumerate_pixels() {
            let inside = (1..4).contains(&x) && (2..4).contains(&y);
            let want = match inside {
                true => *picture.get_pixel(x - 1, y - 2),
                false => Rgba([0, 0, 0, 0]),
            };
            assert_eq!(*p, want, "({x}, {y})");
        }
        // Clipped at the canvas's edge.
        let second = placed.frame(1);
        assert_eq!(*second.get_pixel(3, 3), *picture.get_pixel(0, 0));
        assert_eq!(*second.get_pixel(4, 3), *picture.get_pixel(1, 0));
        assert_eq!(*second.get_pixel(2, 3), Rgba([0, 0, 0, 0]));
        let composed = placed.composed();
        assert_eq!(composed.len(), 2);
        assert_eq!(composed[1].1, 60);
        let inside = PlacedFrames {
            frames: vec![((2, 2), 40), ((0, 0), 40)],
            ..placed
        };
        assert!(inside.fits());
    }

    #[test]
    fn over_a_backdrop_every_frame_is_full_and_keeps_the_first_place() {
        let backdrop = RgbaImage::from_pixel(6, 5, Rgba([10, 20, 30, 255]));
        // Opaque but for one half-transparent and one clear pixel.
        let mut picture = RgbaImage::from_pixel(3, 2, Rgba([200, 100, 0, 255]));
        picture.put_pixel(1, 0, Rgba([0, 0, 250, 128]));
        picture.put_pixel(2, 1, Rgba([9, 9, 9, 0]));
        let placed = PlacedFrames {
            canvas: (6, 5),
            picture: picture.clone(),
            frames: vec![((0, 0), 40), ((3, 3), 40)],
            backdrop: Some(backdrop.clone()),
        };
        let first = placed.frame(0);
        assert!(first.pixels().all(|p| p[3] == 255));
        assert_eq!(*first.get_pixel(0, 0), Rgba([200, 100, 0, 255]));
        // Half of the blue over the backdrop.
        let half = first.get_pixel(1, 0);
        assert!((i32::from(half[2]) - (250 + 30) / 2).abs() <= 1, "{half:?}");
        assert_eq!(*first.get_pixel(2, 1), Rgba([10, 20, 30, 255]));
        assert_eq!(*first.get_pixel(5, 4), Rgba([10, 20, 30, 255]));
        // The second frame: the picture at its place, and at the first
        // place still, clipped at the canvas's edge.
        let second = placed.frame(1);
        assert!(second.pixels().all(|p| p[3] == 255));
        assert_eq!(*second.get_pixel(0, 0), Rgba([200, 100, 0, 255]));
        assert_eq!(*second.get_pixel(3, 3), Rgba([200, 100, 0, 255]));
        assert_eq!(*second.get_pixel(5, 4), Rgba([10, 20, 30, 255]));
        assert_eq!(*second.get_pixel(3, 4), Rgba([200, 100, 0, 255]));
        assert_eq!(*second.get_pixel(4, 3), *half);
    }
}
