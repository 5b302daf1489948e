//! Criterion benchmarks of the GIF encoder's LZW step alone
//! (`src/gif_encode/lzw.rs`, included by path), on the index streams the
//! encoder hands it:
//!
//! * `lzw/petpet`: the frames of the `petpet` template's GIF (ordered
//!   dithered photo content with transparent areas), each distinct frame
//!   once, as the encoder encodes them;
//! * `lzw/animation`: the frames of the animation bench's GIF (60 frames of
//!   128 × 128 panning over the avatar);
//! * `lzw/runs`: 256 × 256 of one index, and of short stripes;
//! * `lzw/few_colours`: 256 × 256 of random indices below 4;
//! * `lzw/noise`: 256 × 256 of random bytes (a code for nearly every pixel,
//!   the table filled and cleared about sixteen times).
//!
//! The index streams are read back from the GIFs the public encoder makes,
//! so they are those its LZW step sees.
//!
//! The avatar: `$MENAGERIE_BENCH_AVATAR`, else the sample fox drawn at
//! 512 px with a photographic grain (`support`).
//!
//! Run: `cargo bench -p canvas-render --bench lzw` (release; only when
//! measuring). Without `--bench` (as `cargo test --all-targets` runs it)
//! each benchmark runs once, on the first few animation frames.

mod support;

#[allow(dead_code)]
#[path = "../src/gif_encode/lzw.rs"]
mod lzw;

use std::hint::black_box;
use std::time::Duration;

use canvas_render::animation::{Deadline, encode_gif_patched, encode_gif_placed};
use canvas_render::template::{
    TemplateKind, plan_frames, render_patched_frames, render_placed_frames, render_template_frames,
};
use canvas_render::{Loops, RgbaImage, encode_gif};
use criterion::{Criterion, criterion_group, criterion_main};
use lzw::Lzw;

/// The GIF of a template's frames, drawn and encoded as the server does.
fn template_gif(kind: TemplateKind, avatar: &RgbaImage) -> Vec<u8> {
    let t = kind.template();
    let args = t.args(support::rank_card_call).unwrap();
    let deadline = Deadline::after(Duration::from_secs(60));
    let plan = plan_frames(t, &args, &[0]);
    let source = [(avatar, 0)];
    if let Some(placed) = render_placed_frames(t, &args, &source, &[], &plan, None).unwrap() {
        return encode_gif_placed(&placed, Loops::Infinite, &deadline).unwrap();
    }
    if let Some(patched) = render_patched_frames(t, &args, &source, &[], &plan, None).unwrap() {
        return encode_gif_patched(&patched, Loops::Infinite, &deadline).unwrap();
    }
    let frames = render_template_frames(t, &args, &source, None).unwrap();
    let (frames, delays): (Vec<_>, Vec<_>) = frames.into_iter().unzip();
    encode_gif(&frames, &delays, Loops::Infinite, &deadline).unwrap()
}

/// The index stream of each frame of `gif` (its rectangle, as LZW encoded
/// it), each distinct stream once.
fn index_streams(gif: &[u8]) -> Vec<Vec<u8>> {
    let mut options = gif_codec::DecodeOptions::new();
    options.set_color_output(gif_codec::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif).unwrap();
    let mut streams: Vec<Vec<u8>> = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        if !streams.iter().any(|s| s[..] == frame.buffer[..]) {
            streams.push(frame.buffer.to_vec());
        }
    }
    streams
}

/// Random bytes below `modulo` (a seeded xorshift).
fn noise(len: usize, mut seed: u32, modulo: u32) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed % modulo) as u8
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let (avatar, source) = support::avatar();
    let measuring = std::env::args().any(|a| a == "--bench");
    let petpet = index_streams(&template_gif(TemplateKind::Petpet, &avatar));
    let frames = support::pan_and_zoom(&avatar, if measuring { 60 } else { 4 });
    let delays = vec![40u32; frames.len()];
    let deadline = Deadline::after(Duration::from_secs(60));
    let animation =
        index_streams(&encode_gif(&frames, &delays, Loops::Infinite, &deadline).unwrap());
    let runs = vec![
        vec![7u8; 65_536],
        (0..65_536usize).map(|i| (i / 37 % 9) as u8 * 17).collect(),
    ];
    let few = vec![noise(65_536, 11, 4)];
    let random = vec![noise(65_536, 5, 256)];
    if measuring {
        let pixels = |s: &[Vec<u8>]| s.iter().map(Vec::len).sum::<usize>();
        eprintln!(
            "avatar: {source}; petpet: {} streams, {} pixels; animation: {} streams, {} pixels",
            petpet.len(),
            pixels(&petpet),
            animation.len(),
            pixels(&animation),
        );
    }

    let mut g = c.benchmark_group("lzw");
    g.sample_size(20);
    let mut lzw = Lzw::new();
    let mut out = Vec::new();
    for (name, streams) in [
        ("petpet", &petpet),
        ("animation", &animation),
        ("runs", &runs),
        ("few_colours", &few),
        ("noise", &random),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut bytes = 0;
                for s in streams {
                    lzw.encode(black_box(s), &mut out);
                    bytes += out.len();
                }
                bytes
            })
        });
    }
    g.finish();
}

criterion_group!(lzw_benches, benches);
criterion_main!(lzw_benches);
