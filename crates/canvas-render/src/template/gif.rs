//! A template's animation as a GIF, through the cheapest path that writes
//! the same file.

use super::*;
use crate::frames::Loops;
use crate::gif_encode::{encode_gif, encode_gif_effect, encode_gif_patched, encode_gif_placed};

/// Renders the output frames `plan` lists (as [`render_planned_frames_with`]
/// draws them) and encodes them as an animated GIF played `loops` times,
/// checking `deadline` between frames. Of three ways to the same file it
/// takes the first that fits:
///
/// 1. one picture placed anew in each frame ([`render_placed_frames`], a
///    [`Camera`] over a still avatar and image): the picture is mapped and
///    encoded once, no frame is composed (over a backdrop, but the first:
///    a file of its own, which shows the same frames);
/// 2. still layers under a moving avatar or typed text
///    ([`render_patched_frames`]): the first frame and each later frame's
///    changed rectangle;
/// 3. otherwise every frame composed and encoded with
///    [`crate::encode_gif`], or, for a template of effect layers only
///    (every frame the avatar's colours drawn anew), with a palette
///    trained on a smaller sample of the frames.
///
/// Image-sized buffers go back to [`crate::buffers`] when it is done.
pub fn render_template_gif(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    if let Some(placed) = render_placed_frames(template, args, avatar, image, plan, Some(deadline))?
    {
        let encoded = encode_gif_placed(&placed, loops, deadline);
        crate::buffers::recycle_image(placed.picture);
        return encoded;
    }
    if let Some(patched) =
        render_patched_frames(template, args, avatar, image, plan, Some(deadline))?
    {
        let encoded = encode_gif_patched(&patched, loops, deadline);
        patched.recycle();
        return encoded;
    }
    let mut frames = Vec::new();
    let mut delays = Vec::new();
    render_planned_frames_with(
        template,
        args,
        avatar,
        image,
        plan,
        Some(deadline),
        &mut |f, d| {
            frames.push(f);
            delays.push(d);
            Ok(())
        },
    )?;
    deadline.check()?;
    let encoded = match shows_effects_only(template) {
        true => encode_gif_effect(&frames, &delays, loops, deadline),
        false => encode_gif(&frames, &delays, loops, deadline),
    };
    frames.into_iter().for_each(crate::buffers::recycle_image);
    encoded
}

/// Whether every layer of `template` is an effect ([`Layer::Effect`]).
fn shows_effects_only(template: &Template) -> bool {
    !template.layers.is_empty()
        && template
            .layers
            .iter()
            .all(|l| matches!(l, Layer::Effect(_)))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::limits::solid;

    /// The frames of `gif` as a viewer shows them.
    pub(crate) fn decoded(gif: &[u8]) -> Vec<RgbaImage> {
        use image::AnimationDecoder;
        image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif))
            .unwrap()
            .into_frames()
            .collect_frames()
            .unwrap()
            .into_iter()
            .map(|f| f.into_buffer())
            .collect()
    }

    /// `shown` is `drawn` through a GIF: the same pixels visible (alpha at
    /// least half), within a palette's dither of their colour.
    pub(crate) fn assert_close(drawn: &RgbaImage, shown: &RgbaImage, what: &str) {
        assert_eq!(drawn.dimensions(), shown.dimensions(), "{what}");
        let mut sum = 0u64;
        for (p, q) in drawn.pixels().zip(shown.pixels()) {
            assert_eq!(p[3] >= 128, q[3] == 255, "{what}: {p:?} shown as {q:?}");
            if p[3] >= 128 {
                let far = (0..3).map(|c| p[c].abs_diff(q[c])).max().unwrap();
                assert!(far <= 64, "{what}: {p:?} shown as {q:?}");
                sum += u64::from(far);
            }
        }
        let mean = sum as f64 / f64::from(drawn.width() * drawn.height());
        assert!(mean < 8.0, "{what}: mean difference {mean:.1}");
    }

    /// The GIF of every animated template over a still avatar, and of one
    /// over an animated avatar, is the GIF of its frames drawn one by one:
    /// through each of the three paths (placed, patched, composed).
    #[test]
    fn the_gif_of_a_template_is_the_gif_of_its_frames() {
        let deadline = Deadline::after(Duration::from_secs(3600));
        let a = RgbaImage::from_fn(64, 64, |x, y| {
            image::Rgba([
                (x * 3) as u8,
                (y * 3) as u8,
                180,
                if x < 3 { 0 } else { 255 },
            ])
        });
        let b = solid(64, 64, [20, 200, 40]).unwrap();
        let (mut placed, mut patched, mut composed) = (0, 0, 0);
        let mut cases: Vec<(TemplateKind, Vec<(&RgbaImage, u32)>)> = TemplateKind::ALL
            .iter()
            .filter(|k| k.template().is_animated())
            .map(|k| (*k, vec![(&a, 0)]))
            .collect();
        cases.push((TemplateKind::Triggered, vec![(&a, 60), (&b, 60)]));
        for (kind, avatar) in cases {
            let t = kind.template();
            let args = t.args(|_| None).unwrap();
            let delays: Vec<u32> = avatar.iter().map(|(_, d)| *d).collect();
            let plan = plan_frames(t, &args, &delays);
            let gif =
                render_template_gif(t, &args, &avatar, &[], &plan, Loops::Infinite, &deadline)
                    .unwrap();
            let mut frames = Vec::new();
            let mut delays = Vec::new();
            render_planned_frames_with(t, &args, &avatar, &[], &plan, None, |f, d| {
                frames.push(f);
                delays.push(d);
                Ok(())
            })
            .unwrap();
            // Over a backdrop, a still avatar's frames are the first frame
            // and the picture over it, each restoring the first: a file of
            // its own, showing the frames drawn.
            if avatar.len() == 1 && t.backdrop().is_some() {
                let shown = decoded(&gif);
                assert_eq!(shown.len(), frames.len(), "{kind:?}");
                for (k, (drawn, shown)) in frames.iter().zip(&shown).enumerate() {
                    assert_close(drawn, shown, &format!("{kind:?} frame {k}"));
                }
            } else {
                let whole = match shows_effects_only(t) {
                    true => encode_gif_effect(&frames, &delays, Loops::Infinite, &deadline),
                    false => encode_gif(&frames, &delays, Loops::Infinite, &deadline),
                }
                .unwrap();
                assert!(
                    gif == whole,
                    "{kind:?}: {} bytes, {} drawn",
                    gif.len(),
                    whole.len()
                );
            }
            if render_placed_frames(t, &args, &avatar, &[], &plan, None)
                .unwrap()
                .is_some()
            {
                placed += 1;
            } else if render_patched_frames(t, &args, &avatar, &[], &plan, None)
                .unwrap()
                .is_some()
            {
                patched += 1;
            } else {
                composed += 1;
            }
        }
        assert!(
            placed > 0 && patched > 0 && composed > 0,
            "{placed} {patched} {composed}"
        );
    }
}
