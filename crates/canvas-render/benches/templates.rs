//! Criterion benchmarks of the templates against `circle`, each the whole
//! work of one request after the avatar is decoded: render and PNG for
//! `circle` and the still overlays, render every frame and GIF for the
//! animated templates. The bounds are ratios of throughput against
//! `circle` in the same run: still overlays ≥ 0.5×, `triggered` and
//! `petpet` ≥ 0.15×, `amongus` ≥ 0.05×; a still rank card (issue 28, here
//! with every parameter given) ≥ 0.3×.
//!
//! The avatar: `$MENAGERIE_BENCH_AVATAR`, else the sample fox drawn at
//! 512 px with a photographic grain (`support`).
//!
//! Run: `cargo bench -p canvas-render --bench templates` (release; only when measuring).

mod support;

use std::hint::black_box;
use std::time::Duration;

use canvas_render::animation::{Deadline, encode_gif_patched, encode_gif_placed};
use canvas_render::template::{
    TemplateKind, plan_frames, render_patched_frames, render_placed_frames, render_template,
    render_template_frames,
};
use canvas_render::{Loops, buffers, circle, encode_gif, encode_png};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench_templates(c: &mut Criterion) {
    let (avatar, _) = support::avatar();
    let mut group = c.benchmark_group("template");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("circle", |b| {
        b.iter(|| encode_png(&circle(black_box(&avatar)).unwrap()).unwrap())
    });
    for kind in TemplateKind::ALL {
        let t = kind.template();
        let args = t.args(support::rank_card_call).unwrap();
        let label = format!("{kind:?}").to_lowercase();
        if t.is_animated() {
            group.bench_function(label, |b| {
                b.iter(|| {
                    let deadline = Deadline::after(Duration::from_secs(60));
                    // As the server does: one picture placed in each frame
                    // (a camera) goes to the GIF encoder as it is.
                    let plan = plan_frames(t, &args, &[0]);
                    let source = [(black_box(&avatar), 0)];
                    if let Some(placed) =
                        render_placed_frames(t, &args, &source, &[], &plan, None).unwrap()
                    {
                        let gif = encode_gif_placed(&placed, Loops::Infinite, &deadline).unwrap();
                        buffers::recycle_image(placed.picture);
                        return gif;
                    }
                    // Still layers under what moves: the first frame and
                    // each later frame's changed rectangle.
                    if let Some(patched) =
                        render_patched_frames(t, &args, &source, &[], &plan, None).unwrap()
                    {
                        let gif = encode_gif_patched(&patched, Loops::Infinite, &deadline).unwrap();
                        patched.recycle();
                        return gif;
                    }
                    let frames =
                        render_template_frames(t, &args, &[(black_box(&avatar), 0)], None).unwrap();
                    let (frames, delays): (Vec<_>, Vec<_>) = frames.into_iter().unzip();
                    encode_gif(&frames, &delays, Loops::Infinite, &deadline).unwrap()
                })
            });
        } else {
            group.bench_function(label, |b| {
                b.iter(|| {
                    encode_png(&render_template(t, &args, Some(black_box(&avatar))).unwrap())
                        .unwrap()
                })
            });
        }
    }
    group.finish();
}

/// The animated templates' two stages apart, on the same avatar: drawing
/// every frame (`render`: the frames dropped; `render-reused`: their
/// buffers given back, as the server does once it has encoded them), and encoding the drawn frames as a GIF (palette, mapping,
/// LZW), so a change can be weighed against the stage it touches.
fn bench_animated_stages(c: &mut Criterion) {
    let (avatar, _) = support::avatar();
    let mut group = c.benchmark_group("template-stage");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    // Without `--bench` (a smoke test under `cargo test`), the stages run
    // for the first animated template with a camera and the first without:
    // the `template` group above has drawn and encoded every template once.
    let measuring = std::env::args().any(|a| a == "--bench");
    let mut smoke_kinds = (false, false);
    for kind in TemplateKind::ALL {
        let t = kind.template();
        if !t.is_animated() {
            continue;
        }
        if !measuring {
            let camera = if t.camera.is_some() {
                &mut smoke_kinds.0
            } else {
                &mut smoke_kinds.1
            };
            if std::mem::replace(camera, true) {
                continue;
            }
        }
        let args = t.args(|_| None).unwrap();
        let label = format!("{kind:?}").to_lowercase();
        group.bench_function(format!("{label}/render"), |b| {
            b.iter(|| render_template_frames(t, &args, &[(black_box(&avatar), 0)], None).unwrap())
        });
        // As the server runs it: the frames' buffers given back once they
        // are encoded, so the next render draws into them.
        group.bench_function(format!("{label}/render-reused"), |b| {
            b.iter(|| {
                let frames =
                    render_template_frames(t, &args, &[(black_box(&avatar), 0)], None).unwrap();
                for (frame, _) in frames {
                    buffers::recycle_image(frame);
                }
            })
        });
        // A camera's picture and its places, drawn and encoded as they are.
        let plan = plan_frames(t, &args, &[0]);
        if let Some(placed) =
            render_placed_frames(t, &args, &[(&avatar, 0)], &[], &plan, None).unwrap()
        {
            group.bench_function(format!("{label}/render-placed"), |b| {
                b.iter(|| {
                    let placed = render_placed_frames(
                        t,
                        &args,
                        &[(black_box(&avatar), 0)],
                        &[],
                        &plan,
                        None,
                    )
                    .unwrap()
                    .unwrap();
                    buffers::recycle_image(placed.picture);
                })
            });
            group.bench_function(format!("{label}/gif-placed"), |b| {
                b.iter(|| {
                    let deadline = Deadline::after(Duration::from_secs(60));
                    encode_gif_placed(black_box(&placed), Loops::Infinite, &deadline).unwrap()
                })
            });
        }
        // The first frame and each later frame's changed rectangle, drawn
        // and encoded as they are.
        if let Some(patched) =
            render_patched_frames(t, &args, &[(&avatar, 0)], &[], &plan, None).unwrap()
        {
            group.bench_function(format!("{label}/render-patched"), |b| {
                b.iter(|| {
                    render_patched_frames(t, &args, &[(black_box(&avatar), 0)], &[], &plan, None)
                        .unwrap()
                        .unwrap()
                        .recycle()
                })
            });
            group.bench_function(format!("{label}/gif-patched"), |b| {
                b.iter(|| {
                    let deadline = Deadline::after(Duration::from_secs(60));
                    encode_gif_patched(black_box(&patched), Loops::Infinite, &deadline).unwrap()
                })
            });
        }
        let frames = render_template_frames(t, &args, &[(&avatar, 0)], None).unwrap();
        let (frames, delays): (Vec<_>, Vec<_>) = frames.into_iter().unzip();
        group.bench_function(format!("{label}/gif"), |b| {
            b.iter(|| {
                let deadline = Deadline::after(Duration::from_secs(60));
                encode_gif(black_box(&frames), &delays, Loops::Infinite, &deadline).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_templates, bench_animated_stages);
criterion_main!(benches);
