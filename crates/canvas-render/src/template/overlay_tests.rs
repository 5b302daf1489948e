//! The game-quoting overlays (`wasted`, `passed`, `comrade`), petpet's
//! hand and welcome card 6's panel: what a viewer must see in them.

use super::*;

fn solid(v: u8) -> RgbaImage {
    RgbaImage::from_pixel(256, 256, image::Rgba([v, v, v, 255]))
}

fn render(kind: TemplateKind, avatar: &RgbaImage) -> RgbaImage {
    let t = kind.template();
    let args = t.args(|_| None).unwrap();
    render_template(t, &args, Some(avatar)).unwrap()
}

fn luma(p: &image::Rgba<u8>) -> f32 {
    0.2126 * p[0] as f32 + 0.7152 * p[1] as f32 + 0.0722 * p[2] as f32
}

/// The mean luma of the rows `y0..y1` across the middle half.
fn rows_luma(img: &RgbaImage, y0: u32, y1: u32) -> f32 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for y in y0..y1 {
        for x in 128..384 {
            sum += luma(img.get_pixel(x, y));
            n += 1.0;
        }
    }
    sum / n
}

fn count(img: &RgbaImage, f: impl Fn(&image::Rgba<u8>) -> bool) -> usize {
    img.pixels().filter(|p| f(p)).count()
}

#[test]
fn the_banners_band_shows_on_dark_and_light_pictures() {
    // (template, band top, band bottom)
    for (kind, top, bottom) in [
        (TemplateKind::Wasted, 198, 314),
        (TemplateKind::Passed, 172, 340),
    ] {
        for v in [0u8, 40, 128, 255] {
            let img = render(kind, &solid(v));
            let above = rows_luma(&img, top - 12, top - 4);
            let rim = rows_luma(&img, top - 1, top + 2);
            let inside = rows_luma(&img, top + 4, top + 8);
            let below = rows_luma(&img, bottom + 4, bottom + 12);
            // The band stands out from the picture above and below it: on
            // a dark picture by its light rims, on a lighter one by its
            // dark body.
            if v <= 40 {
                assert!(
                    rim - above > 30.0 && rim - inside > 60.0,
                    "{kind:?} on {v}: rim {rim}, above {above}, inside {inside}"
                );
            } else {
                assert!(above - inside > 60.0, "{kind:?} on {v}: {above} {inside}");
                assert!(below - inside > 60.0, "{kind:?} on {v}: {below} {inside}");
            }
        }
    }
}

#[test]
fn wasted_is_red_and_passed_is_gold_over_respect_in_white() {
    let img = render(TemplateKind::Wasted, &solid(255));
    let red = count(&img, |p| p[0] > 170 && p[1] < 60 && p[2] < 60);
    assert!(red > 6000, "{red} red pixels");
    let img = render(TemplateKind::Passed, &solid(0));
    let gold = count(&img, |p| {
        p[0] > 200 && p[1] > 150 && p[1] < 215 && p[2] < 80
    });
    assert!(gold > 5000, "{gold} gold pixels");
    // "RESPECT +" in white, beneath "MISSION PASSED".
    let white_rows: Vec<u32> = (0..512)
        .filter(|&y| (0..512).any(|x| img.get_pixel(x, y)[2] > 240))
        .collect();
    let gold_rows: Vec<u32> = (0..512)
        .filter(|&y| {
            (0..512).any(|x| {
                let p = img.get_pixel(x, y);
                p[0] > 200 && p[1] > 150 && p[1] < 215 && p[2] < 80
            })
        })
        .collect();
    let (w0, g1) = (white_rows[0], *gold_rows.last().unwrap());
    assert!(w0 > g1, "white from row {w0}, gold to row {g1}");
}

#[test]
fn comrade_washes_the_picture_red_with_the_gold_emblem_in_its_upper_corner() {
    let gold = |p: &image::Rgba<u8>| p[0] > 200 && p[1] > 140 && p[2] < 90;
    for v in [0u8, 255] {
        let img = render(TemplateKind::Comrade, &solid(v));
        // The corners and the middle: red, whatever the picture's own
        // colour; the face stays in view.
        for (x, y) in [
            (490, 20),
            (20, 490),
            (490, 490),
            (256, 300),
            (256, 470),
            (330, 256),
        ] {
            let p = img.get_pixel(x, y);
            assert!(
                p[0] > 70 && u16::from(p[0]) > 2 * u16::from(p[1]).max(u16::from(p[2])),
                "on {v} at ({x}, {y}): {p:?}"
            );
        }
        // The emblem: a good size, in the upper left quarter and a bit
        // beyond, as on the flag.
        let n = count(&img, gold);
        assert!(n > 4_000, "on {v}: {n} gold pixels");
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for (x, y, p) in img.enumerate_pixels() {
            if gold(p) {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
        assert!(
            x1 - x0 > 140 && y1 - y0 > 140,
            "on {v}: {x0}..{x1} × {y0}..{y1}"
        );
        assert!(x1 < 300 && y1 < 300, "on {v}: {x0}..{x1} × {y0}..{y1}");
    }
}

/// The pixels of `pixmap` whose alpha is above half, and how many of them
/// a flood from the first one reaches (4-connected).
fn solid_and_reached(pixmap: &Pixmap) -> (usize, usize) {
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let solid: Vec<bool> = pixmap.pixels().iter().map(|p| p.alpha() > 128).collect();
    let total = solid.iter().filter(|&&s| s).count();
    let Some(start) = solid.iter().position(|&s| s) else {
        return (0, 0);
    };
    let mut seen = vec![false; w * h];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(i) = stack.pop() {
        reached += 1;
        let (x, y) = (i % w, i / w);
        let mut next = Vec::with_capacity(4);
        if x > 0 {
            next.push(i - 1);
        }
        if x + 1 < w {
            next.push(i + 1);
        }
        if y > 0 {
            next.push(i - w);
        }
        if y + 1 < h {
            next.push(i + w);
        }
        for j in next {
            if solid[j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    (total, reached)
}

#[test]
fn petpets_hand_is_one_piece_with_its_sleeve_out_of_the_picture() {
    let hand = art::cached(Art::Hand);
    // Sleeve, cuff, hand, thumb and fingers: one shape, nothing floating.
    let (total, reached) = solid_and_reached(hand);
    assert!(total > 8000, "{total} solid pixels");
    assert_eq!(reached, total, "parts of the hand stand apart");
    // The sleeve runs to the art's top edge, and every frame places that
    // edge above the picture, so its end never shows.
    let w = hand.width() as usize;
    let top: Vec<usize> = (0..w).filter(|&x| hand.pixels()[x].alpha() > 128).collect();
    assert!(
        top.len() > 40,
        "the sleeve is {} px wide at the top",
        top.len()
    );
    let Some(Layer::Art { motion, .. }) = TemplateKind::Petpet.template().layers.get(1) else {
        panic!("petpet's second layer is the hand");
    };
    let (aw, _) = Art::Hand.size();
    for place in *motion {
        // The top corners of the sleeve, rotated around the box's centre.
        let sx = place.w / aw as f32;
        let (cx, cy) = (place.x + place.w / 2.0, place.y + place.h / 2.0);
        let (sin, cos) = place.rotation.to_radians().sin_cos();
        for x in [top[0], *top.last().unwrap()] {
            let (dx, dy) = (place.x + x as f32 * sx - cx, place.y - cy);
            let y = cy + dx * sin + dy * cos;
            assert!(y < -1.0, "{place:?}: the sleeve ends at y = {y}");
        }
    }
}

#[test]
fn welcome_6_leaves_the_rainbows_clouds_as_they_are() {
    let t = TemplateKind::Welcome6.template();
    let args = t
        .args(|n| (n == "background").then_some("rainbow"))
        .unwrap();
    let avatar = solid(128);
    let img = render_template(t, &args, Some(&avatar)).unwrap();
    let bg = art::cached(Art::BgRainbow);
    let bg_at = |x: u32, y: u32| {
        let p = bg.pixels()[(y * bg.width() + x) as usize];
        [p.red(), p.green(), p.blue()]
    };
    // The lower clouds at both corners, outside the text's card and the
    // avatar's ring: the background's own pixels.
    let mut checked = 0;
    for y in 440..600 {
        for x in (0..1200).step_by(3) {
            let left = x < 50 && y > 545;
            let right = x >= 1186;
            let below = y >= 592;
            if !(left || right || below) {
                continue;
            }
            let got = img.get_pixel(x, y);
            let want = bg_at(x, y);
            for c in 0..3 {
                assert!(
                    got[c].abs_diff(want[c]) <= 1,
                    "({x}, {y}): {:?} over {want:?}",
                    got.0
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}
