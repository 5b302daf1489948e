//! `encode_rgba` against the `png` crate, on the same pixels in the same
//! colour type, in one process.
//!
//! The picture is a 512 × 512 avatar read at run time from
//! `$MENAGERIE_BENCH_AVATAR`, else drawn in code: a noisy gradient with a
//! face, transparent outside a circle with an anti-aliased rim, with more
//! than 256 grey and alpha pairs, so the writer keeps every case's colour
//! type (it would choose a palette for fewer colours).
//!
//! Three images are made from it: its colours inverted (RGBA), its BT.601
//! luma (grey + alpha) and the avatar made opaque (RGB). The `png` crate
//! encodes each in its fast mode (fdeflate, the Paeth filter on every row,
//! as `encode_rgba` filters) and at its default level; the sizes of all
//! outputs are printed first.
//!
//! Run: `cargo bench -p png-writer` (release; only when measuring).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use png_writer::encode_rgba;

#[path = "support/decode.rs"]
mod decode;
use decode::decode;

/// RGBA pixels of the benchmark picture, and where they came from.
fn avatar() -> (u32, u32, Vec<u8>, String) {
    if let Some(path) = std::env::var_os("MENAGERIE_BENCH_AVATAR") {
        let (w, h, px) = std::fs::read(&path)
            .ok()
            .and_then(|b| decode(&b))
            .unwrap_or_else(|| panic!("MENAGERIE_BENCH_AVATAR {}: not a PNG", path.display()));
        return (w, h, px, path.display().to_string());
    }
    // A gradient over the full range with a face and pseudo-random noise,
    // transparent outside a circle whose rim fades over 12 pixels.
    let mut seed = 0x2545_F491_u32;
    let mut px = Vec::with_capacity(512 * 512 * 4);
    for y in 0..512u32 {
        for x in 0..512u32 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let n = (seed % 24) as u8;
            let (dx, dy) = (x as i32 - 256, y as i32 - 230);
            let base = if dx * dx + dy * dy < 120 * 120 {
                [225, 180, 150]
            } else {
                [(x / 2) as u8, ((x + y) / 4) as u8, (y / 2) as u8]
            };
            px.extend(base.map(|c: u8| c.saturating_add(n)));
            let (cx, cy) = (f64::from(x) - 255.5, f64::from(y) - 255.5);
            let inside = 250.0 - (cx * cx + cy * cy).sqrt();
            px.push((inside / 12.0 * 255.0).clamp(0.0, 255.0) as u8);
        }
    }
    (512, 512, px, "drawn".into())
}

/// The `png` crate on pixels already in `colour`'s layout.
fn png_crate(
    data: &[u8],
    (width, height): (u32, u32),
    colour: png::ColorType,
    fast: bool,
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(colour);
    if fast {
        enc.set_compression(png::Compression::Fast);
        enc.set_filter(png::FilterType::Paeth);
        enc.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
    }
    let mut writer = enc.write_header().unwrap();
    writer.write_image_data(data).unwrap();
    writer.finish().unwrap();
    out
}

/// The channels `pick` of every RGBA pixel.
fn repack(rgba: &[u8], pick: &[usize]) -> Vec<u8> {
    rgba.chunks_exact(4)
        .flat_map(|p| pick.iter().map(move |&c| p[c]))
        .collect()
}

fn benches(c: &mut Criterion) {
    let (w, h, px, source) = avatar();
    // Fully transparent pixels are transparent black in every case, so both
    // encoders get the same pixels to store (`encode_rgba` would clear them).
    let inverted: Vec<u8> = px
        .chunks_exact(4)
        .flat_map(|p| match p[3] {
            0 => [0; 4],
            a => [255 - p[0], 255 - p[1], 255 - p[2], a],
        })
        .collect();
    let grey: Vec<u8> = px
        .chunks_exact(4)
        .flat_map(|p| {
            let l = (299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2]) + 500)
                / 1000;
            let l = if p[3] == 0 { 0 } else { l as u8 };
            [l, l, l, p[3]]
        })
        .collect();
    let opaque: Vec<u8> = px
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let cases = [
        ("rgba", inverted, png::ColorType::Rgba, &[0, 1, 2, 3][..]),
        (
            "grey_alpha",
            grey,
            png::ColorType::GrayscaleAlpha,
            &[0, 3][..],
        ),
        ("rgb", opaque, png::ColorType::Rgb, &[0, 1, 2][..]),
    ];

    eprintln!("picture: {source} ({w}x{h})");
    eprintln!("output bytes: image, encode_rgba, png fast, png default");
    for (name, rgba, colour, pick) in &cases {
        let ours = encode_rgba(w, h, rgba).unwrap();
        assert_eq!(ours[25], *colour as u8, "{name}: same colour type");
        let packed = repack(rgba, pick);
        eprintln!(
            "  {name}: {}, {}, {}",
            ours.len(),
            png_crate(&packed, (w, h), *colour, true).len(),
            png_crate(&packed, (w, h), *colour, false).len()
        );
    }

    let mut group = c.benchmark_group("encode");
    for (name, rgba, colour, pick) in &cases {
        group.bench_function(format!("{name}/encode_rgba"), |b| {
            b.iter(|| encode_rgba(w, h, black_box(rgba)).unwrap())
        });
        // The `png` crate takes the colour type's layout: repacking from
        // RGBA is part of its work, as it is part of `encode_rgba`'s.
        group.bench_function(format!("{name}/png_crate_fast"), |b| {
            b.iter(|| png_crate(&repack(black_box(rgba), pick), (w, h), *colour, true))
        });
        group.bench_function(format!("{name}/png_crate_default"), |b| {
            b.iter(|| png_crate(&repack(black_box(rgba), pick), (w, h), *colour, false))
        });
    }
    group.finish();
}

criterion_group! {
    name = encode;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40);
    targets = benches
}
criterion_main!(encode);
