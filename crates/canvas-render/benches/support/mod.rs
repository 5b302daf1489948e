//! What the benches share: the avatar they run on, and the animation of the
//! sharp comparison made from it.
//!
//! It is read at run time from `$MENAGERIE_BENCH_AVATAR`, else
//! `shared/bench/avatars/avatar_512.png` in the parent (or grandparent, for
//! a git worktree) of the workspace root; when neither exists a synthetic
//! noisy avatar is drawn, so `cargo bench --no-run` and `cargo test
//! --benches` work anywhere.

#![allow(dead_code)] // each bench uses part of it

use std::path::PathBuf;

use canvas_render::image::imageops::{self, FilterType};
use canvas_render::{RgbaImage, encode_png};

/// The avatar as PNG bytes, and where it came from.
pub fn avatar_png() -> (Vec<u8>, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates = std::env::var_os("MENAGERIE_BENCH_AVATAR")
        .map(PathBuf::from)
        .into_iter()
        .chain(["..", "../.."].map(|up| root.join(up).join("shared/bench/avatars/avatar_512.png")));
    for path in candidates {
        if let Ok(bytes) = std::fs::read(&path) {
            return (bytes, path.display().to_string());
        }
    }
    // Synthetic fallback: a gradient with a disc and pseudo-random noise.
    let mut seed = 0x2545_F491_u32;
    let img = RgbaImage::from_fn(512, 512, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let n = (seed % 24) as u8;
        let (dx, dy) = (x as i32 - 256, y as i32 - 230);
        let face = dx * dx + dy * dy < 120 * 120;
        let base = if face {
            [225, 180, 150]
        } else {
            [(x / 2) as u8, 90, (y / 2) as u8]
        };
        canvas_render::image::Rgba([
            base[0].saturating_add(n),
            base[1].saturating_add(n),
            base[2].saturating_add(n),
            255,
        ])
    });
    (encode_png(&img).expect("encodable"), "generated".into())
}

/// Decodes PNG bytes.
pub fn decode(bytes: &[u8]) -> RgbaImage {
    canvas_render::image::load_from_memory_with_format(
        bytes,
        canvas_render::image::ImageFormat::Png,
    )
    .expect("a PNG")
    .into_rgba8()
}

/// The avatar, decoded, and where it came from.
pub fn avatar() -> (RgbaImage, String) {
    let (png, source) = avatar_png();
    (decode(&png), source)
}

/// A rank card's parameters, all given (no other template has them).
pub fn rank_card_call(name: &str) -> Option<&'static str> {
    match name {
        "discriminator" => Some("1234"),
        "level" => Some("12"),
        "cxp" => Some("340"),
        "nxp" => Some("1000"),
        "rank" => Some("3"),
        "ctext" => Some("ffffff"),
        "cbar" => Some("5865f2"),
        _ => None,
    }
}

/// The first `count` of the 60 frames `make_animated_avatar.js` draws (the
/// sharp comparison's animation): a square of 60–90 % of the avatar's side
/// moving round a circle, scaled to 128 × 128.
pub fn pan_and_zoom(src: &RgbaImage, count: usize) -> Vec<RgbaImage> {
    let (w, h) = src.dimensions();
    (0..60u32)
        .take(count)
        .map(|k| {
            let turn = 2.0 * std::f64::consts::PI * f64::from(k) / 60.0;
            let side = (f64::from(w) * (0.6 + 0.3 * turn.sin())).round() as u32;
            let left = (f64::from(w - side) * (0.5 + 0.5 * turn.cos())).round() as u32;
            let top = (f64::from(h - side) * (0.5 + 0.5 * turn.sin())).round() as u32;
            let part = imageops::crop_imm(src, left, top, side, side).to_image();
            imageops::resize(&part, 128, 128, FilterType::Triangle)
        })
        .collect()
}
