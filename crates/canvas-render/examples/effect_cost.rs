//! Per-answer CPU cost of every effect (render + GIF at 256 px, 16 frames,
//! from a 512 px avatar) against circle on the same avatar (render + PNG).
use canvas_render::animation::{Deadline, Loops};
use canvas_render::template::{Layer, TemplateKind, plan_frames, render_template_gif};
use std::time::Instant;
fn main() {
    let small = canvas_render::sample::avatar();
    let a = image::imageops::resize(&small, 512, 512, image::imageops::FilterType::Triangle);
    let d = Deadline::after(std::time::Duration::from_secs(600));
    let reps = 20;
    let best = |f: &mut dyn FnMut() -> usize| {
        let mut times = Vec::new();
        let mut bytes = 0;
        for _ in 0..reps {
            let t = Instant::now();
            bytes = f();
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(|x, y| x.partial_cmp(y).unwrap());
        (times[reps / 2], bytes)
    };
    let (circle, cb) = best(&mut || {
        let img = canvas_render::circle(&a).unwrap();
        canvas_render::encode_png(&img).unwrap().len()
    });
    println!("circle512: {circle:.2} ms, {cb} bytes");
    for kind in [TemplateKind::Triggered, TemplateKind::Petpet] {
        let t = kind.template();
        let args = t.args(|_| None).unwrap();
        let plan = plan_frames(t, &args, &[0]);
        let (ms, bytes) = best(&mut || {
            render_template_gif(t, &args, &[(&a, 0)], &[], &plan, Loops::Infinite, &d)
                .unwrap()
                .len()
        });
        println!(
            "{:?}: {ms:.2} ms, {bytes} bytes, {:.3}x circle512",
            kind,
            circle / ms
        );
    }
    for kind in TemplateKind::ALL
        .into_iter()
        .filter(|k| matches!(k.template().layers, [Layer::Effect(_)]))
    {
        let t = kind.template();
        let args = t.args(|_| None).unwrap();
        let plan = plan_frames(t, &args, &[0]);
        let (ms, bytes) = best(&mut || {
            render_template_gif(t, &args, &[(&a, 0)], &[], &plan, Loops::Infinite, &d)
                .unwrap()
                .len()
        });
        let (render, _) = best(&mut || {
            canvas_render::template::render_template_frames(t, &args, &[(&a, 0)], None)
                .unwrap()
                .len()
        });
        println!(
            "{:?}: {ms:.2} ms ({render:.2} ms drawing), {bytes} bytes, {:.3}x circle512",
            kind,
            circle / ms
        );
    }
}
