//! A built-in sample avatar, drawn in code: a fox in a mustard jumper on
//! a mint-to-blue backdrop. It stands in for a user's avatar wherever an
//! image must be shown without fetching one (previews of every endpoint,
//! examples, tests): opaque, [`SIDE`] pixels square, with flat areas, soft
//! gradients, fine detail and a face, so filters and overlays all show.
//!
//! ```
//! let fox = canvas_render::sample::avatar();
//! assert_eq!(fox.dimensions(), (256, 256));
//! let round = canvas_render::circle(&fox).unwrap();
//! assert_eq!(round.dimensions(), (512, 512));
//! ```

use tiny_skia::{Path, PathBuilder, Rect};

use crate::RgbaImage;
use crate::paint::{Canvas, circle_path, linear, radial, rgba, shader_paint};

/// Width and height of the sample avatar, in pixels.
pub const SIDE: u32 = 256;

/// The sample avatar ([module docs](self)); the same pixels on every call.
pub fn avatar() -> RgbaImage {
    let mut c = Canvas::new(SIDE, SIDE).expect("fixed sample size");
    backdrop(&mut c);
    jumper(&mut c);
    ears(&mut c);
    head(&mut c);
    face(&mut c);
    c.into_image()
}

/// A second sample, for the images that draw two pictures: a grey cat in
/// a teal scarf on a coral-to-violet backdrop, as large as [`avatar`] and
/// as opaque; the same pixels on every call.
///
/// ```
/// let cat = canvas_render::sample::avatar2();
/// assert_eq!(cat.dimensions(), (256, 256));
/// assert_ne!(cat, canvas_render::sample::avatar());
/// ```
pub fn avatar2() -> RgbaImage {
    let mut c = Canvas::new(SIDE, SIDE).expect("fixed sample size");
    c.fill_all(linear(
        0.0,
        0.0,
        256.0,
        256.0,
        &[(0.0, rgba(0xffa07a, 255)), (1.0, rgba(0x7b4fc9, 255))],
    ));
    c.fill_all(radial(
        128.0,
        120.0,
        150.0,
        &[(0.0, rgba(0xffffff, 60)), (1.0, rgba(0xffffff, 0))],
    ));
    // Shoulders and the scarf.
    let mut pb = PathBuilder::new();
    pb.move_to(30.0, 256.0);
    pb.cubic_to(34.0, 210.0, 76.0, 196.0, 128.0, 196.0);
    pb.cubic_to(180.0, 196.0, 222.0, 210.0, 226.0, 256.0);
    pb.close();
    c.color(&pb.finish().expect("body"), rgba(0x8d939e, 255));
    c.color(&oval(128.0, 204.0, 70.0, 18.0), rgba(0x1fa3a0, 255));
    c.color(
        &Rect::from_xywh(146.0, 204.0, 22.0, 46.0)
            .map(PathBuilder::from_rect)
            .expect("scarf end"),
        rgba(0x168582, 255),
    );
    // Ears, then the head over their roots.
    for flip in [false, true] {
        let m = |x: f32| if flip { 256.0 - x } else { x };
        let mut pb = PathBuilder::new();
        pb.move_to(m(62.0), 120.0);
        pb.line_to(m(70.0), 40.0);
        pb.line_to(m(122.0), 82.0);
        pb.close();
        let ear = pb.finish().expect("ear");
        c.color(&ear, rgba(0x9aa1ad, 255));
        c.stroke(&ear, rgba(0x4d525c, 255), 2.2);
        let mut pb = PathBuilder::new();
        pb.move_to(m(76.0), 104.0);
        pb.line_to(m(80.0), 60.0);
        pb.line_to(m(108.0), 84.0);
        pb.close();
        c.color(&pb.finish().expect("inner ear"), rgba(0xffb3c1, 255));
    }
    let head = oval(128.0, 134.0, 76.0, 64.0);
    c.shadow(&head, 5.0, 7.0, 60);
    c.fill(
        &head,
        &shader_paint(linear(
            0.0,
            70.0,
            0.0,
            198.0,
            &[(0.0, rgba(0xb4bac4, 255)), (1.0, rgba(0x8a909b, 255))],
        )),
    );
    // Tabby stripes on the forehead.
    for dx in [-16.0, 0.0, 16.0] {
        c.color(&oval(128.0 + dx, 86.0, 4.0, 12.0), rgba(0x5c626d, 200));
    }
    c.color(&oval(128.0, 160.0, 36.0, 24.0), rgba(0xeef0f3, 255));
    c.stroke(&head, rgba(0x4d525c, 255), 2.2);
    const INK: u32 = 0x1d2026;
    for x in [100.0, 156.0] {
        c.color(&oval(x, 130.0, 12.0, 13.0), rgba(0x8fd14f, 255));
        c.color(&oval(x, 130.0, 3.5, 11.0), rgba(INK, 255));
        c.color(&circle_path(x + 4.0, 125.0, 2.6), rgba(0xffffff, 230));
    }
    let mut pb = PathBuilder::new();
    pb.move_to(121.0, 150.0);
    pb.line_to(135.0, 150.0);
    pb.line_to(128.0, 158.0);
    pb.close();
    c.color(&pb.finish().expect("nose"), rgba(0xff8fa3, 255));
    let mut pb = PathBuilder::new();
    pb.move_to(128.0, 158.0);
    pb.line_to(128.0, 164.0);
    pb.move_to(116.0, 164.0);
    pb.quad_to(122.0, 171.0, 128.0, 164.0);
    pb.quad_to(134.0, 171.0, 140.0, 164.0);
    // Whiskers.
    for (y, dy) in [(156.0, -6.0), (162.0, 0.0), (168.0, 6.0)] {
        pb.move_to(104.0, y);
        pb.line_to(60.0, y + dy);
        pb.move_to(152.0, y);
        pb.line_to(196.0, y + dy);
    }
    c.stroke(&pb.finish().expect("mouth"), rgba(INK, 255), 2.0);
    c.into_image()
}

fn oval(cx: f32, cy: f32, rx: f32, ry: f32) -> Path {
    PathBuilder::from_oval(Rect::from_xywh(cx - rx, cy - ry, rx * 2.0, ry * 2.0).expect("finite"))
        .expect("positive radii")
}

fn backdrop(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        256.0,
        256.0,
        &[(0.0, rgba(0x8be0cf, 255)), (1.0, rgba(0x4b5fc4, 255))],
    ));
    c.fill_all(radial(
        128.0,
        118.0,
        150.0,
        &[(0.0, rgba(0xffffff, 70)), (1.0, rgba(0xffffff, 0))],
    ));
    // A few soft bubbles for texture.
    for (x, y, r, a) in [
        (34.0, 44.0, 14.0, 46),
        (222.0, 60.0, 9.0, 40),
        (210.0, 206.0, 18.0, 30),
        (30.0, 200.0, 8.0, 36),
    ] {
        c.color(&circle_path(x, y, r), rgba(0xffffff, a));
    }
}

fn jumper(c: &mut Canvas) {
    let mut pb = PathBuilder::new();
    pb.move_to(22.0, 256.0);
    pb.cubic_to(24.0, 214.0, 66.0, 192.0, 128.0, 192.0);
    pb.cubic_to(190.0, 192.0, 232.0, 214.0, 234.0, 256.0);
    pb.close();
    let body = pb.finish().expect("jumper");
    c.fill(
        &body,
        &shader_paint(linear(
            0.0,
            192.0,
            0.0,
            256.0,
            &[(0.0, rgba(0xf7c948, 255)), (1.0, rgba(0xe0a525, 255))],
        )),
    );
    // Ribbed collar.
    let collar = oval(128.0, 200.0, 46.0, 14.0);
    c.color(&collar, rgba(0xd9951c, 255));
    for i in 0..7 {
        let x = 96.0 + i as f32 * 10.7;
        let mut pb = PathBuilder::new();
        pb.move_to(x, 192.0);
        pb.line_to(x, 210.0);
        c.stroke(&pb.finish().expect("rib"), rgba(0xc27f12, 150), 1.6);
    }
}

fn ear(flip: bool) -> (Path, Path) {
    let m = |x: f32| if flip { 256.0 - x } else { x };
    let mut outer = PathBuilder::new();
    outer.move_to(m(64.0), 118.0);
    outer.cubic_to(m(58.0), 84.0, m(62.0), 50.0, m(78.0), 34.0);
    outer.cubic_to(m(96.0), 42.0, m(114.0), 58.0, m(124.0), 82.0);
    outer.close();
    let mut inner = PathBuilder::new();
    inner.move_to(m(74.0), 106.0);
    inner.cubic_to(m(71.0), 84.0, m(73.0), 62.0, m(81.0), 50.0);
    inner.cubic_to(m(93.0), 58.0, m(104.0), 70.0, m(112.0), 86.0);
    inner.close();
    (
        outer.finish().expect("ear"),
        inner.finish().expect("inner ear"),
    )
}

fn ears(c: &mut Canvas) {
    for flip in [false, true] {
        let (outer, inner) = ear(flip);
        c.fill(
            &outer,
            &shader_paint(linear(
                0.0,
                34.0,
                0.0,
                118.0,
                &[(0.0, rgba(0x9a4416, 255)), (0.45, rgba(0xe9812f, 255))],
            )),
        );
        c.stroke(&outer, rgba(0x8a3c12, 255), 2.0);
        c.color(&inner, rgba(0x4a2416, 235));
        c.color(&inner, rgba(0xffd9c2, 60));
    }
}

fn head_path() -> Path {
    let mut pb = PathBuilder::new();
    pb.move_to(128.0, 64.0);
    pb.cubic_to(170.0, 64.0, 196.0, 96.0, 198.0, 132.0);
    pb.cubic_to(199.0, 146.0, 205.0, 156.0, 214.0, 164.0);
    pb.cubic_to(192.0, 178.0, 162.0, 198.0, 128.0, 200.0);
    pb.cubic_to(94.0, 198.0, 64.0, 178.0, 42.0, 164.0);
    pb.cubic_to(51.0, 156.0, 57.0, 146.0, 58.0, 132.0);
    pb.cubic_to(60.0, 96.0, 86.0, 64.0, 128.0, 64.0);
    pb.close();
    pb.finish().expect("head")
}

fn head(c: &mut Canvas) {
    let head = head_path();
    c.shadow(&head, 5.0, 7.0, 60);
    c.fill(
        &head,
        &shader_paint(linear(
            0.0,
            64.0,
            0.0,
            200.0,
            &[(0.0, rgba(0xf7a24a, 255)), (1.0, rgba(0xe06f26, 255))],
        )),
    );
    // A lighter blaze down the forehead.
    let mut pb = PathBuilder::new();
    pb.move_to(128.0, 68.0);
    pb.cubic_to(140.0, 86.0, 140.0, 108.0, 128.0, 128.0);
    pb.cubic_to(116.0, 108.0, 116.0, 86.0, 128.0, 68.0);
    pb.close();
    c.color(&pb.finish().expect("blaze"), rgba(0xffc27a, 120));
    // The cream cheeks and muzzle.
    let mut pb = PathBuilder::new();
    pb.move_to(50.0, 160.0);
    pb.cubic_to(72.0, 140.0, 106.0, 140.0, 128.0, 156.0);
    pb.cubic_to(150.0, 140.0, 184.0, 140.0, 206.0, 160.0);
    pb.cubic_to(186.0, 180.0, 158.0, 198.0, 128.0, 199.0);
    pb.cubic_to(98.0, 198.0, 70.0, 180.0, 50.0, 160.0);
    pb.close();
    c.color(&pb.finish().expect("muzzle"), rgba(0xfff3e4, 255));
    c.stroke(&head, rgba(0xa94e17, 255), 2.2);
}

fn face(c: &mut Canvas) {
    const INK: u32 = 0x2b1a12;
    for x in [98.0, 158.0] {
        c.color(&oval(x, 128.0, 9.5, 11.5), rgba(INK, 255));
        c.color(&circle_path(x + 3.0, 123.5, 3.4), rgba(0xffffff, 255));
        c.color(&circle_path(x - 3.0, 133.0, 1.6), rgba(0xffffff, 200));
        // Brows.
        let mut pb = PathBuilder::new();
        pb.move_to(x - 10.0, 110.0);
        pb.quad_to(x, 103.0, x + 10.0, 108.0);
        c.stroke(&pb.finish().expect("brow"), rgba(0x8a3c12, 220), 2.6);
    }
    // Blush.
    for x in [80.0, 176.0] {
        c.fill(
            &circle_path(x, 154.0, 13.0),
            &shader_paint(radial(
                x,
                154.0,
                13.0,
                &[(0.0, rgba(0xff7f8e, 120)), (1.0, rgba(0xff7f8e, 0))],
            )),
        );
    }
    // Nose and smile.
    let mut pb = PathBuilder::new();
    pb.move_to(119.0, 156.0);
    pb.quad_to(128.0, 152.0, 137.0, 156.0);
    pb.quad_to(134.0, 166.0, 128.0, 168.0);
    pb.quad_to(122.0, 166.0, 119.0, 156.0);
    pb.close();
    let nose = pb.finish().expect("nose");
    c.color(&nose, rgba(INK, 255));
    c.color(&circle_path(125.0, 157.5, 2.0), rgba(0xffffff, 150));
    let mut pb = PathBuilder::new();
    pb.move_to(128.0, 167.0);
    pb.line_to(128.0, 173.0);
    pb.move_to(116.0, 172.0);
    pb.quad_to(122.0, 180.0, 128.0, 173.0);
    pb.quad_to(134.0, 180.0, 140.0, 172.0);
    c.stroke(&pb.finish().expect("smile"), rgba(INK, 255), 2.4);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_opaque_square_and_the_same_every_time() {
        let a = avatar();
        assert_eq!(a.dimensions(), (SIDE, SIDE));
        assert!(a.pixels().all(|p| p[3] == 255));
        assert_eq!(a, avatar());
        // Not flat: the face, jumper and backdrop differ.
        let centre = a.get_pixel(128, 150);
        let corner = a.get_pixel(4, 4);
        let jumper = a.get_pixel(60, 248);
        assert_ne!(centre, corner);
        assert_ne!(jumper, corner);
    }

    #[test]
    fn the_second_sample_is_opaque_square_stable_and_not_the_first() {
        let b = avatar2();
        assert_eq!(b.dimensions(), (SIDE, SIDE));
        assert!(b.pixels().all(|p| p[3] == 255));
        assert_eq!(b, avatar2());
        assert_ne!(b, avatar());
    }
}
