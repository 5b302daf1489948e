//! What the benches share: the avatar they run on, and the animation of the
//! sharp comparison made from it.
//!
//! The avatar is drawn in code ([`drawn`]): canvas-render's sample fox
//! enlarged to 512 px with a fixed photographic grain, so filters, the PNG
//! writer and the GIF encoder see the noise a photo has. Set
//! `$MENAGERIE_BENCH_AVATAR` to a PNG to measure on another picture (for
//! example the photo avatar the peer comparison uses).

#![allow(dead_code)] // each bench uses part of it

use canvas_render::image::imageops::{self, FilterType};
use canvas_render::{RgbaImage, encode_png};

/// The avatar as PNG bytes, and where it came from.
pub fn avatar_png() -> (Vec<u8>, String) {
    if let Some(path) = std::env::var_os("MENAGERIE_BENCH_AVATAR") {
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("MENAGERIE_BENCH_AVATAR {}: {e}", path.display()));
        return (bytes, path.display().to_string());
    }
    (encode_png(&drawn(512)).expect("encodable"), "drawn".into())
}

/// The sample fox at `side` × `side` pixels with a fixed grain of up to ±12
/// levels a channel (a seeded xorshift): the same pixels on every call.
pub fn drawn(side: u32) -> RgbaImage {
    let fox = canvas_render::sample::avatar();
    let mut img = imageops::resize(&fox, side, side, FilterType::Lanczos3);
    let mut seed = 0x2545_F491_u32;
    for p in img.pixels_mut() {
        for c in &mut p.0[..3] {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let grain = (seed % 25) as i16 - 12;
            *c = (i16::from(*c) + grain).clamp(0, 255) as u8;
        }
    }
    img
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
