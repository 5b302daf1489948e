//! The output format of a canvas image (`format=png|gif|webp`) and the
//! animated path: every frame of an animated avatar through a filter or
//! shape, encoded as an animated GIF or WebP.
//!
//! - No `format`: a still avatar gives PNG, exactly as before; an animated
//!   avatar gives an animated GIF (filters, shapes, and the scenes that
//!   draw the avatar, whose whole card is drawn once per frame), and so
//!   does an animated template (`triggered`, `petpet`, `amongus`) for any
//!   avatar, its frames aligned with the avatar's by time.
//! - `format=png`: always a still PNG (the first frame of an animation).
//! - `format=gif`: an animated GIF, or a one-frame GIF of a still image.
//! - `format=webp`: an animated WebP, or a still WebP (both lossy colour
//!   at quality 85 with an exact alpha plane, from libwebp).
//!
//! An animated job holds job slots in proportion to its pixels
//! ([`weight`]), and its rendering and encoding stop after
//! `--animation-render-ms` (422 naming `render_time`).

use std::time::Duration;

use canvas_render::animation::{AnimationError, Deadline, render_frames};
use canvas_render::template::{plan_frames, render_template_frames};
use canvas_render::{Loops, RenderError, RgbaImage};
use remote_image::{Avatar, LoopCount};

use super::Job;
use crate::error::ApiError;

/// Pixels of an animation's frames one job slot stands for: an animated
/// job holds one slot per started 1 Mi pixels of its larger side, source or
/// rendered frames (4 MiB of RGBA, plus the palette indices and the
/// encoded image: within the 8 MiB a slot is budgeted in the README's
/// memory bound). A still job holds one.
pub const PIXELS_PER_SLOT: u64 = 1 << 20;

/// What `format` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requested {
    /// Absent: PNG for still images, GIF for animated filters and shapes.
    Auto,
    /// `png`.
    Png,
    /// `gif`.
    Gif,
    /// `webp`.
    WebP,
}

/// Parses the `format` parameter (absent or blank: [`Requested::Auto`]).
pub fn requested(value: Option<&str>) -> Result<Requested, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Requested::Auto),
        Some(v) if v.eq_ignore_ascii_case("png") => Ok(Requested::Png),
        Some(v) if v.eq_ignore_ascii_case("gif") => Ok(Requested::Gif),
        Some(v) if v.eq_ignore_ascii_case("webp") => Ok(Requested::WebP),
        Some(_) => Err(ApiError::InvalidParam {
            name: "format",
            reason: "format must be one of png, gif, webp".to_owned(),
        }),
    }
}

/// The image a job will produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// A still PNG (today's output).
    Png,
    /// A still WebP (lossy colour, exact alpha).
    WebP,
    /// A GIF: animated when the avatar is, else one frame.
    Gif,
    /// An animated WebP (lossy colour, exact alpha).
    AnimatedWebP,
}

impl Output {
    /// Chooses the output of `job` on `avatar` for what was asked.
    pub fn choose(requested: Requested, job: &Job, avatar: Option<&Avatar>) -> Self {
        let animated =
            (avatar.is_some_and(|a| a.animation.is_some()) && animates(job)) || job.is_animated();
        match (requested, animated) {
            (Requested::Auto, true) | (Requested::Gif, _) => Output::Gif,
            (Requested::Auto | Requested::Png, _) => Output::Png,
            (Requested::WebP, true) => Output::AnimatedWebP,
            (Requested::WebP, false) => Output::WebP,
        }
    }

    /// The `Content-Type` of the answer.
    pub fn content_type(self) -> &'static str {
        match self {
            Output::Png => "image/png",
            Output::Gif => "image/gif",
            Output::WebP | Output::AnimatedWebP => "image/webp",
        }
    }

    /// The output-cache and ETag key of `job_key` in this format. PNG keeps
    /// the key it always had, so still PNG answers keep their tags.
    pub fn key(self, job_key: String) -> String {
        match self {
            Output::Png => job_key,
            Output::WebP => job_key + " as webp",
            Output::Gif => job_key + " as gif",
            Output::AnimatedWebP => job_key + " as animated webp",
        }
    }
}

/// Whether `job` draws every frame of an animated avatar: every job that
/// draws the avatar does (a scene draws the whole card once per frame).
fn animates(job: &Job) -> bool {
    job.uses_avatar()
}

/// One frame of a filter or shape job.
fn render_frame(job: &Job, frame: &RgbaImage) -> Result<RgbaImage, RenderError> {
    match job {
        Job::Filter(f) => canvas_render::apply(f, frame),
        Job::Circle => canvas_render::circle(frame),
        Job::Heart => canvas_render::heart(frame),
        Job::Pride(flag) => canvas_render::pride(frame, *flag),
        Job::Scene(scene) => canvas_render::scene::render_scene(scene, Some(frame)),
        Job::Template(kind, args) => {
            canvas_render::template::render_template(kind.template(), args, Some(frame))
        }
    }
}

fn loops(l: LoopCount) -> Loops {
    match l {
        LoopCount::Infinite => Loops::Infinite,
        LoopCount::Times(n) => Loops::Times(n),
    }
}

fn animation_error(e: AnimationError) -> ApiError {
    match e {
        AnimationError::Render(r) => ApiError::Render(r),
        other => ApiError::Animation(other),
    }
}

/// Renders `job` and encodes it as `output`.
pub fn render(
    job: &Job,
    avatar: Option<&Avatar>,
    output: Output,
    budget: Duration,
) -> Result<Vec<u8>, ApiError> {
    let still = |job: &Job| job.render(avatar.map(|a| a.image.as_ref()));
    let deadline = Deadline::after(budget);
    let animation = match output {
        Output::Gif | Output::AnimatedWebP => render_animation(job, avatar, &deadline)?,
        Output::Png | Output::WebP => None,
    };
    match (output, animation) {
        (Output::Png, _) => Ok(canvas_render::encode_png(&still(job)?)?),
        (Output::WebP, _) => Ok(canvas_render::encode_webp(&still(job)?)?),
        (Output::Gif, None) => {
            let image = still(job)?;
            canvas_render::encode_gif(&[image], &[0], Loops::Times(1), &deadline)
                .map_err(animation_error)
        }
        (Output::Gif | Output::AnimatedWebP, Some((frames, delays, loops))) => {
            let encoded = if output == Output::Gif {
                canvas_render::encode_gif(&frames, &delays, loops, &deadline)
            } else {
                canvas_render::encode_webp_animation(&frames, &delays, loops, &deadline)
            };
            encoded.map_err(animation_error)
        }
        (Output::AnimatedWebP, None) => Ok(canvas_render::encode_webp(&still(job)?)?),
    }
}

/// The avatar's frames with their delays (one frame for a still avatar,
/// none without an avatar).
fn source_frames(avatar: Option<&Avatar>) -> Vec<(&RgbaImage, u32)> {
    match avatar {
        Some(a) => match a.animation.as_deref() {
            Some(anim) => anim.frames.iter().map(|f| (&f.image, f.delay_ms)).collect(),
            None => vec![(a.image.as_ref(), 0)],
        },
        None => Vec::new(),
    }
}

/// The frames of an animation, their delays and its loop count.
type Frames = (Vec<RgbaImage>, Vec<u32>, Loops);

/// Every frame of an animated answer with its delay and the loop count,
/// or `None` when the answer is a still: the avatar's frames through the
/// job, or a template's own frames aligned with the avatar's by time.
fn render_animation(
    job: &Job,
    avatar: Option<&Avatar>,
    deadline: &Deadline,
) -> Result<Option<Frames>, ApiError> {
    let anim = avatar
        .and_then(|a| a.animation.as_deref())
        .filter(|_| animates(job));
    if let Job::Template(kind, args) = job {
        let template = kind.template();
        if !template.is_animated() && anim.is_none() {
            return Ok(None);
        }
        let frames = render_template_frames(template, args, &source_frames(avatar), Some(deadline))
            .map_err(animation_error)?;
        let loops = match anim {
            Some(a) if !template.is_animated() => loops(a.loops),
            _ => Loops::Infinite,
        };
        let (frames, delays) = frames.into_iter().unzip();
        return Ok(Some((frames, delays, loops)));
    }
    let Some(anim) = anim else {
        return Ok(None);
    };
    let frames = render_frames(anim.frames.iter().map(|f| &f.image), deadline, |f| {
        render_frame(job, f)
    })
    .map_err(animation_error)?;
    let delays = anim.frames.iter().map(|f| f.delay_ms).collect();
    Ok(Some((frames, delays, loops(anim.loops))))
}

/// Job slots a job stands for: 1 for a still image, one per started
/// [`PIXELS_PER_SLOT`] frame pixels for an animated one (each frame counted
/// at the larger of its source size and its rendered size: shapes render
/// 512×512; a template counts the frames it renders, its own aligned with
/// the avatar's, even for a still avatar), at most half the pool, so one
/// huge GIF cannot hold every slot.
pub fn weight(job: &Job, avatar: Option<&Avatar>, output: Output, max_jobs: usize) -> usize {
    if matches!(output, Output::Png | Output::WebP) {
        return 1;
    }
    let rendered = match job {
        Job::Filter(_) => 0,
        Job::Scene(scene) => {
            let (w, h) = scene.size();
            u64::from(w) * u64::from(h)
        }
        Job::Circle | Job::Heart | Job::Pride(_) => {
            u64::from(canvas_render::shape::SIZE) * u64::from(canvas_render::shape::SIZE)
        }
        Job::Template(kind, _) => {
            let (w, h) = kind.template().size;
            u64::from(w) * u64::from(h)
        }
    };
    let area = |img: &RgbaImage| u64::from(img.width()) * u64::from(img.height());
    let pixels: u64 = if let Job::Template(kind, args) = job {
        // The frames the template will render: its own, aligned with the
        // avatar's by time.
        let source = source_frames(avatar);
        let delays: Vec<u32> = source.iter().map(|(_, d)| *d).collect();
        plan_frames(kind.template(), args, &delays)
            .iter()
            .map(|f| {
                source
                    .get(f.avatar_frame)
                    .map_or(0, |(img, _)| area(img))
                    .max(rendered)
            })
            .sum()
    } else {
        let Some(anim) = avatar
            .and_then(|a| a.animation.as_deref())
            .filter(|_| animates(job))
        else {
            return 1;
        };
        anim.frames
            .iter()
            .map(|f| area(&f.image).max(rendered))
            .sum()
    };
    let slots = usize::try_from(pixels.div_ceil(PIXELS_PER_SLOT)).unwrap_or(usize::MAX);
    slots.clamp(1, (max_jobs / 2).max(1))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use canvas_render::{Filter, PrideFlag};
    use remote_image::{Animation, AnimationFrame};

    fn avatar(frames: usize, side: u32) -> Avatar {
        let image = RgbaImage::new(side, side);
        let animation = (frames > 1).then(|| {
            Arc::new(Animation {
                frames: vec![
                    AnimationFrame {
                        image: image.clone(),
                        delay_ms: 40,
                    };
                    frames
                ],
                loops: LoopCount::Infinite,
            })
        });
        Avatar {
            image: Arc::new(image),
            digest: 1,
            animation,
            decode_cost: 0,
        }
    }

    #[test]
    fn animated_jobs_weigh_by_their_pixels() {
        let grey = Job::Filter(Filter::Greyscale);
        let still = avatar(1, 1024);
        assert_eq!(weight(&grey, Some(&still), Output::Png, 64), 1);
        // 60 frames of 128x128: under 1 Mi pixels.
        let small = avatar(60, 128);
        assert_eq!(weight(&grey, Some(&small), Output::Gif, 64), 1);
        // The same as circles: 60 frames of 512x512 rendered.
        assert_eq!(weight(&Job::Circle, Some(&small), Output::Gif, 64), 15);
        assert_eq!(
            weight(
                &Job::Pride(PrideFlag::Lgbt),
                Some(&small),
                Output::AnimatedWebP,
                64
            ),
            15
        );
        // A still output of an animated avatar renders one frame.
        assert_eq!(weight(&Job::Circle, Some(&small), Output::Png, 64), 1);
        // A scene counts its card's size per frame.
        let card = Job::Scene(canvas_render::scene::Scene::Simpcard);
        let (w, h) = canvas_render::scene::Scene::Simpcard.size();
        let expected = (60 * u64::from(w) * u64::from(h)).div_ceil(PIXELS_PER_SLOT);
        assert_eq!(
            weight(&card, Some(&small), Output::Gif, 64) as u64,
            expected
        );
        // At most half the pool.
        let big = avatar(200, 1024);
        assert_eq!(weight(&grey, Some(&big), Output::Gif, 64), 32);
        assert_eq!(weight(&grey, Some(&big), Output::Gif, 1), 1);
        assert_eq!(weight(&grey, None, Output::Gif, 64), 1);
    }

    #[test]
    fn templates_weigh_by_the_frames_they_render() {
        use canvas_render::template::TemplateKind;
        let job = |kind: TemplateKind| Job::Template(kind, kind.template().args(|_| None).unwrap());
        let still = avatar(1, 512);
        // triggered: 12 frames of 512×512 (3 Mi pixels), even for a still avatar.
        let triggered = job(TemplateKind::Triggered);
        assert_eq!(
            Output::choose(Requested::Auto, &triggered, Some(&still)),
            Output::Gif
        );
        assert_eq!(weight(&triggered, Some(&still), Output::Gif, 64), 3);
        assert_eq!(weight(&triggered, Some(&still), Output::Png, 64), 1);
        // petpet over 60 frames of 40 ms (2.4 s): six pats of 10 frames of
        // 256×256 (60 × 64 Ki pixels), not 10.
        let pet = job(TemplateKind::Petpet);
        let anim = avatar(60, 128);
        assert_eq!(weight(&pet, Some(&anim), Output::Gif, 64), 4);
        // A still overlay over a still avatar is a still.
        let jail = job(TemplateKind::Jail);
        assert_eq!(
            Output::choose(Requested::Auto, &jail, Some(&still)),
            Output::Png
        );
        assert_eq!(weight(&jail, Some(&still), Output::Gif, 64), 1);
        assert_eq!(weight(&jail, Some(&anim), Output::Gif, 64), 15);
    }

    #[test]
    fn outputs_follow_the_format_and_the_avatar() {
        let grey = Job::Filter(Filter::Greyscale);
        let scene = Job::Scene(canvas_render::scene::Scene::Simpcard);
        let (still, anim) = (avatar(1, 8), avatar(3, 8));
        let choose = |r, job: &Job, a: &Avatar| Output::choose(r, job, Some(a));
        assert_eq!(choose(Requested::Auto, &grey, &still), Output::Png);
        assert_eq!(choose(Requested::Auto, &grey, &anim), Output::Gif);
        assert_eq!(choose(Requested::Auto, &scene, &anim), Output::Gif);
        let sage = Job::Scene(canvas_render::scene::Scene::sage(""));
        assert_eq!(choose(Requested::Auto, &sage, &anim), Output::Png);
        assert_eq!(choose(Requested::Png, &grey, &anim), Output::Png);
        assert_eq!(choose(Requested::WebP, &grey, &anim), Output::AnimatedWebP);
        assert_eq!(choose(Requested::WebP, &grey, &still), Output::WebP);
        assert_eq!(choose(Requested::Gif, &grey, &still), Output::Gif);
        assert_eq!(Output::Png.key("k".into()), "k");
        assert_ne!(
            Output::Gif.key("k".into()),
            Output::AnimatedWebP.key("k".into())
        );
        assert_eq!(requested(Some(" WebP ")).unwrap(), Requested::WebP);
        assert_eq!(requested(Some("")).unwrap(), Requested::Auto);
        assert!(requested(Some("jpeg")).is_err());
    }
}
