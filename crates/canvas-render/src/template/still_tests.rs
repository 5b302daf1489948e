//! The still render path's shortcuts (the kept layers under the avatar, a
//! canvas started as the avatar itself) give the pixels of drawing every
//! layer in turn.

use super::*;

/// A photo-like avatar with a transparent edge and some half-transparent
/// pixels, larger than every slot, so that it is shrunk for most.
fn avatar() -> RgbaImage {
    RgbaImage::from_fn(640, 600, |x, y| {
        let a = match x {
            0..6 => 0,
            6..12 => 120,
            _ => 255,
        };
        image::Rgba([((x * 3) ^ y) as u8, (y * 5) as u8, (x * y / 9) as u8, a])
    })
}

/// Every layer drawn in turn over a blank canvas: no kept canvas, no
/// shortcut.
fn direct(t: &Template, args: &Args, a: &RgbaImage) -> RgbaImage {
    let prepared = Prepared::new(t, args, Some(a)).unwrap();
    let images = PreparedImages::new(t, None).unwrap();
    let mut texts = TextCache::new(t);
    let (w, h) = t.size_for(args);
    let mut canvas = Canvas::new(w, h).unwrap();
    for (i, layer) in t.layers.iter().enumerate() {
        let source = layer_source(layer, i, &prepared, &images);
        draw_layer(&mut canvas, layer, source, args, 0, texts.slot(i)).unwrap();
    }
    canvas.into_image()
}

#[test]
fn every_still_template_renders_as_its_layers_drawn_in_turn() {
    let a = avatar();
    for kind in TemplateKind::ALL {
        let t = kind.template();
        // A canvas that follows its picture has a renderer of its own
        // (`captions_tests`).
        if t.is_animated() || fit::fit_of(t).is_some() {
            continue;
        }
        let args = t.args(|_| None).unwrap();
        // Twice: drawn into the kept canvases, then from them.
        for round in 0..2 {
            let got = render_template(t, &args, Some(&a)).unwrap();
            assert!(got == direct(t, &args, &a), "{kind:?}, round {round}");
        }
    }
}

#[test]
fn the_welcome_cards_keep_their_background_per_choice_within_the_byte_bound() {
    let t = TemplateKind::Welcome2.template();
    let a = avatar();
    let names = ["blobday", "space", "stars", "sunset", "night", "gaming1"];
    for (i, name) in names.iter().enumerate() {
        let args = t
            .args(|n| (n == "background").then_some(*name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = render_template(t, &args, Some(&a)).unwrap();
        if i % 2 == 0 {
            assert!(got == direct(t, &args, &a), "{name}");
        }
        let cache = UNDER_CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: usize = cache.iter().map(|(_, p, _)| p.data().len()).sum();
        assert!(bytes <= UNDER_CACHE_BYTES, "{bytes} bytes kept");
        assert!(cache.len() <= UNDER_CACHE_ENTRIES);
    }
}

#[test]
fn a_custom_background_is_not_kept() {
    // The same card and arguments over two backgrounds: each shows its own.
    let t = TemplateKind::Welcome1.template();
    let args = t.args(|_| None).unwrap();
    let a = avatar();
    let bg = |c: u8| RgbaImage::from_pixel(60, 30, image::Rgba([c, 40, 200 - c, 255]));
    let first = render_template_with(t, &args, Some(&a), Some(&bg(10))).unwrap();
    let second = render_template_with(t, &args, Some(&a), Some(&bg(150))).unwrap();
    assert_eq!(first.get_pixel(2, 2).0, [10, 40, 190, 255]);
    assert_eq!(second.get_pixel(2, 2).0, [150, 40, 50, 255]);
    let plain = render_template(t, &args, Some(&a)).unwrap();
    assert_ne!(plain.get_pixel(2, 2).0, [150, 40, 50, 255]);
}

#[test]
fn the_row_blend_is_the_pixel_blend() {
    // Every source alpha over a spread of destinations, premultiplied, and
    // a source that is not (saturating; first, in the eight-pixel steps, and
    // last, in the remainder), against the per-channel formula.
    let mut src = vec![250, 9, 200, 100];
    let mut dst = vec![255, 255, 3, 255];
    for a in 0..=255u32 {
        for d in [0u32, 1, 77, 128, 200, 254, 255] {
            let c = |k: u32| ((a * (k * 37 % 256)) / 255) as u8;
            src.extend_from_slice(&[c(1), c(2), c(3), a as u8]);
            dst.extend_from_slice(&[d as u8, (255 - d) as u8, (d * 3 % 256) as u8, d as u8]);
        }
    }
    src.extend_from_slice(&[250, 9, 200, 100]);
    dst.extend_from_slice(&[255, 255, 3, 255]);
    let mut got = dst.clone();
    over_row(&mut got, &src);
    for ((g, s), d) in got.chunks(4).zip(src.chunks(4)).zip(dst.chunks(4)) {
        let inv = 255 - u32::from(s[3]);
        for c in 0..4 {
            let want = (u32::from(s[c]) + div255(u32::from(d[c]) * inv)).min(255);
            assert_eq!(u32::from(g[c]), want, "{s:?} over {d:?}");
        }
    }
}

#[test]
fn the_avatar_is_shrunk_to_the_pixels_of_image_thumbnail() {
    use crate::paint::box_shrink;
    for (w, h) in [(640, 600), (512, 512), (97, 130)] {
        let img = RgbaImage::from_fn(w, h, |x, y| {
            image::Rgba([
                ((x * 7) ^ (y * 3)) as u8,
                (x * y % 251) as u8,
                (y * 5) as u8,
                if x % 17 == 0 {
                    0
                } else {
                    255 - (y % 9) as u8 * 20
                },
            ])
        });
        let side = w.min(h);
        let (x0, y0) = ((w - side) / 2, (h - side) / 2);
        let view = image::imageops::crop_imm(&img, x0, y0, side, side);
        for target in [1, 13, 37, 96, 220, 300, side - 1] {
            if target >= side {
                continue;
            }
            let want = image::imageops::thumbnail(&*view, target, target);
            let got = box_shrink(&img, (x0, y0, side), target).expect("a shrink");
            assert!(got == want, "{w}x{h} to {target}");
        }
    }
}

#[test]
fn the_shrink_reciprocal_divides_exactly() {
    use crate::paint::reciprocal;
    for n in 1..=4096u32 {
        let m = reciprocal(n).expect("a small block");
        // Every multiple of n up to 256 n and its neighbours below.
        for k in 0..=256u32 {
            for x in [k * n, (k * n).saturating_sub(1)] {
                assert_eq!(((u64::from(x) * m) >> 32) as u32, x / n, "{x} / {n}");
            }
        }
    }
    assert_eq!(reciprocal(4097), None);
}
