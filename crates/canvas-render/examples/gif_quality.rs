//! How close the GIF encoder's frames come to the frames it was given, and
//! how long it takes: for `triggered`, `petpet`, `amongus`, `heart-locket`
//! (its second picture the avatar mirrored in other hues) and the
//! `animation` bench's colour frames (60 frames of 128 px panning over the
//! avatar), the GIF is encoded, decoded, and each frame compared with its
//! source. Ordered dithering moves single pixels by about a palette step on
//! purpose, so the figures that matter are those of 8 × 8 block means (the
//! Bayer matrix's period: what the eye sees), per channel in levels: their
//! mean and their maximum over every block of every frame. The per-pixel
//! mean is printed too.
//!
//! A template whose frames come as changed rectangles (amongus,
//! heart-locket) is encoded from them too (`encode_gif_patched`, the
//! server's path): the same bytes, timed on a row of its own.
//!
//! Run: `cargo run -p canvas-render --example gif_quality --profile dev
//! --config 'profile.dev.package.canvas-render.opt-level=3' [-- OUT_DIR]`;
//! with `OUT_DIR`, frames 0 and 1 of each GIF are written there as PNG, and
//! each GIF whole.
//!
//! The avatar: the benches' (`$MENAGERIE_BENCH_AVATAR`, else the sample fox
//! at 512 px with a photographic grain).

// The benches' avatar and the animation of the sharp comparison
// (`pan_and_zoom`).
#[path = "../benches/support/mod.rs"]
mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use canvas_render::animation::{Deadline, PatchedFrames, encode_gif_patched};
use canvas_render::image::AnimationDecoder;
use canvas_render::image::codecs::gif::GifDecoder;
use canvas_render::image::imageops;
use canvas_render::template::{
    TemplateKind, plan_frames_with, render_patched_frames, render_planned_frames_with,
    render_template_gif,
};
use canvas_render::{Loops, RgbaImage, encode_gif, encode_png};

fn avatar() -> RgbaImage {
    support::avatar().0
}

/// (per-pixel mean, 8×8 block mean error, its maximum), in levels.
fn errors(source: &[RgbaImage], decoded: &[RgbaImage]) -> (f64, f64, f64) {
    let (mut pixel_sum, mut pixels) = (0.0, 0usize);
    let (mut block_sum, mut blocks, mut block_max) = (0.0, 0usize, 0.0f64);
    for (a, b) in source.iter().zip(decoded) {
        let (w, h) = a.dimensions();
        for by in (0..h).step_by(8) {
            for bx in (0..w).step_by(8) {
                let (mut sa, mut sb, mut n) = ([0.0f64; 3], [0.0f64; 3], 0usize);
                for y in by..(by + 8).min(h) {
                    for x in bx..(bx + 8).min(w) {
                        let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
                        if p[3] < 128 {
                            continue;
                        }
                        for c in 0..3 {
                            sa[c] += f64::from(p[c]);
                            sb[c] += f64::from(q[c]);
                            pixel_sum += f64::from(p[c].abs_diff(q[c])) / 3.0;
                        }
                        pixels += 1;
                        n += 1;
                    }
                }
                if n == 64 {
                    for c in 0..3 {
                        let e = (sa[c] - sb[c]).abs() / 64.0;
                        block_sum += e / 3.0;
                        block_max = block_max.max(e);
                    }
                    blocks += 1;
                }
            }
        }
    }
    (
        pixel_sum / pixels.max(1) as f64,
        block_sum / blocks.max(1) as f64,
        block_max,
    )
}

fn main() {
    let out = std::env::args().nth(1).map(PathBuf::from);
    let avatar = avatar();
    let mut jobs: Vec<(String, Vec<RgbaImage>, Vec<u32>)> = Vec::new();
    let mut patched: Vec<(String, PatchedFrames)> = Vec::new();
    // What the server answers for a still avatar (`render_template_gif`:
    // for triggered, the picture placed over its backdrop).
    let mut served: Vec<(String, Vec<u8>, f64)> = Vec::new();
    // heart-locket's second picture: the avatar mirrored, in other hues.
    let second = imageops::huerotate(&imageops::flip_horizontal(&avatar), 140);
    for kind in [
        TemplateKind::Triggered,
        TemplateKind::Petpet,
        TemplateKind::Amongus,
        TemplateKind::HeartLocket,
    ] {
        let t = kind.template();
        let args = t.args(|_| None).unwrap();
        let image: &[(&RgbaImage, u32)] = match kind {
            TemplateKind::HeartLocket => &[(&second, 0)],
            _ => &[],
        };
        let plan = plan_frames_with(t, &args, &[0], &[0]);
        let (mut frames, mut delays) = (Vec::new(), Vec::new());
        render_planned_frames_with(t, &args, &[(&avatar, 0)], image, &plan, None, |f, d| {
            frames.push(f);
            delays.push(d);
            Ok(())
        })
        .unwrap();
        let name = format!("{kind:?}").to_lowercase();
        if let Some(p) =
            render_patched_frames(t, &args, &[(&avatar, 0)], image, &plan, None).unwrap()
        {
            patched.push((name.clone(), p));
        }
        let mut best = f64::MAX;
        let mut gif = Vec::new();
        for _ in 0..5 {
            let start = Instant::now();
            let deadline = Deadline::after(Duration::from_secs(60));
            gif = render_template_gif(
                t,
                &args,
                &[(&avatar, 0)],
                image,
                &plan,
                Loops::Infinite,
                &deadline,
            )
            .unwrap();
            best = best.min(start.elapsed().as_secs_f64() * 1e3);
        }
        served.push((name.clone(), gif, best));
        jobs.push((name, frames, delays));
    }
    let pan = support::pan_and_zoom(&avatar, 60);
    jobs.push(("animation-colour".into(), pan, vec![40; 60]));
    println!("job | bytes | pixel mean | block mean | block max | encode ms (best of 5)");
    for (name, frames, delays) in &jobs {
        let encode = || {
            let deadline = Deadline::after(Duration::from_secs(60));
            encode_gif(frames, delays, Loops::Infinite, &deadline).unwrap()
        };
        let mut best = f64::MAX;
        let mut gif = Vec::new();
        for _ in 0..5 {
            let start = Instant::now();
            gif = encode();
            best = best.min(start.elapsed().as_secs_f64() * 1e3);
        }
        let decoded: Vec<RgbaImage> = GifDecoder::new(std::io::Cursor::new(&gif))
            .unwrap()
            .into_frames()
            .map(|f| f.unwrap().into_buffer())
            .collect();
        // Identical consecutive frames come back merged into one.
        let mut distinct: Vec<RgbaImage> = frames.clone();
        distinct.dedup();
        assert_eq!(decoded.len(), distinct.len(), "{name}: frames");
        let (pixel, block, max) = errors(&distinct, &decoded);
        println!(
            "{name} | {} | {pixel:.2} | {block:.2} | {max:.1} | {best:.1}",
            gif.len()
        );
        if let Some((_, served, best)) = served.iter().find(|(n, _, _)| n == name) {
            let decoded: Vec<RgbaImage> = GifDecoder::new(std::io::Cursor::new(served))
                .unwrap()
                .into_frames()
                .map(|f| f.unwrap().into_buffer())
                .collect();
            let (pixel, block, max) = errors(&distinct, &decoded);
            println!(
                "{name} (served, render and encode) | {} | {pixel:.2} | {block:.2} | {max:.1} | {best:.1}",
                served.len()
            );
        }
        if let Some((_, p)) = patched.iter().find(|(n, _)| n == name) {
            let mut best = f64::MAX;
            for _ in 0..5 {
                let start = Instant::now();
                let deadline = Deadline::after(Duration::from_secs(60));
                let from_patches = encode_gif_patched(p, Loops::Infinite, &deadline).unwrap();
                best = best.min(start.elapsed().as_secs_f64() * 1e3);
                assert!(
                    from_patches == gif,
                    "{name}: the patched frames' GIF differs"
                );
            }
            println!(
                "{name} (changed rectangles) | {} | {pixel:.2} | {block:.2} | {max:.1} | {best:.1}",
                gif.len()
            );
        }
        if let Some(dir) = &out {
            std::fs::create_dir_all(dir).unwrap();
            for i in [0, 1] {
                std::fs::write(
                    dir.join(format!("{name}-{i}.png")),
                    encode_png(&decoded[i]).unwrap(),
                )
                .unwrap();
            }
            std::fs::write(dir.join(format!("{name}.gif")), &gif).unwrap();
            std::fs::write(
                dir.join(format!("{name}-src-0.png")),
                encode_png(&frames[0]).unwrap(),
            )
            .unwrap();
        }
    }
}
