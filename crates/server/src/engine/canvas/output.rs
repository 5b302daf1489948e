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
//!   at `quality`, 85 unless asked, with an exact alpha plane, from
//!   libwebp). `quality` (1–100) applies to WebP answers only: PNG and
//!   GIF are lossless of their kind and ignore it, but a bad value is
//!   refused whatever the format.
//! - No `format`, and an `Accept` header naming `image/webp` itself (not
//!   only `image/*` or `*/*`, and not with `q=0`): as `format=webp`
//!   ([`negotiated`]), so browsers get WebP and bots keep PNG or GIF. The
//!   header is reduced to that one choice, so it adds at most one variant
//!   of each image to the output cache and its ETags; every answer says
//!   `Vary: Accept`.
//!
//! Every animated answer follows one rule, whatever draws its frames:
//! [`Plan::new`] counts what will be *rendered*, output frames × output
//! size. When that is over the rendered-pixel cap ([`rendered_cap`],
//! [`MAX_RENDERED_PIXELS`] with the default job pool), frames are merged by
//! time ([`by_time`]): fewer frames, each shown for longer, the animation's
//! total duration kept. The job holds job slots for those pixels (and for
//! the source frames it holds), so what one job holds is charged against
//! the memory bound (a card of two animations keeps both images within half
//! the pool, its `bg`'s frames and then its avatar's merged by time:
//! [`fit_two_images`]); WebP frames are rendered and handed to the encoder one
//! at a time, GIF frames are held for the one-palette encode. Rendering and
//! encoding stop after `--animation-render-ms` (422 naming `render_time`).

use std::time::Duration;

use canvas_render::animation::{AnimationError, Deadline, WebpAnimationWriter};
use canvas_render::template::{
    Args, FramePlan, Template, plan_frames_with, render_planned_frames_with, render_template_gif,
};
use canvas_render::{Loops, RenderError, RgbaImage, WebpQuality};
use remote_image::{Avatar, LoopCount};

use super::Job;
use crate::error::ApiError;

/// Pixels of an animation's frames one job slot stands for: an animated
/// job holds one slot per started 1 Mi pixels of its larger side, source
/// frames or rendered frames (4 MiB of RGBA, plus the palette indices and
/// the encoded image: within the 8 MiB a slot is budgeted in the book's (Limits)
/// memory bound). A still job holds one.
pub const PIXELS_PER_SLOT: u64 = 1 << 20;

/// The most pixels an animated answer renders in all (output frames ×
/// output width × height) with the default pool of 64 job slots: 32 Mi,
/// the decode cap's size, e.g. 128 frames of a 512² circle or 24 frames of
/// a 1680×800 namecard. Beyond it frames are merged by time.
pub const MAX_RENDERED_PIXELS: u64 = 32 << 20;

/// The rendered-pixel cap of an animated answer with `max_jobs` job slots:
/// [`MAX_RENDERED_PIXELS`], or less when half the pool stands for fewer
/// pixels ([`PIXELS_PER_SLOT`] a slot), so an animation's slots always
/// cover what it renders. One frame is always allowed.
pub fn rendered_cap(max_jobs: usize) -> u64 {
    let half = u64::try_from((max_jobs / 2).max(1)).unwrap_or(u64::MAX);
    MAX_RENDERED_PIXELS.min(half.saturating_mul(PIXELS_PER_SLOT))
}

/// Job slots an image's own pixels stand for: one per started
/// [`PIXELS_PER_SLOT`] of its animation's frames, or 1 for a still image
/// (at most 1024² pixels, within one slot).
pub fn source_slots(image: &Avatar) -> usize {
    let frames: u64 = image.animation.as_ref().map_or(0, |a| {
        a.frames.iter().map(|f| pixels(f.image.dimensions())).sum()
    });
    usize::try_from(frames.div_ceil(PIXELS_PER_SLOT))
        .unwrap_or(usize::MAX)
        .max(1)
}

/// Pixels an image holds while a job has it: its still (at most 1024²)
/// and, when it is animated, every frame.
pub fn held_pixels(image: &Avatar) -> u64 {
    pixels(image.image.dimensions())
        + image.animation.as_ref().map_or(0, |a| {
            a.frames.iter().map(|f| pixels(f.image.dimensions())).sum()
        })
}

/// Source pixels a job with two images may hold with `max_jobs` job slots:
/// half the pool's [`PIXELS_PER_SLOT`] (32 Mi with the default pool), the
/// same as its rendered frames ([`rendered_cap`]).
pub fn two_image_budget(max_jobs: usize) -> u64 {
    u64::try_from((max_jobs / 2).max(1))
        .unwrap_or(u64::MAX)
        .saturating_mul(PIXELS_PER_SLOT)
}

/// `image` with its animation merged by time ([`by_time`]) to at most
/// `most` frames (at least one; the total duration and the loop count
/// kept), or as it is when it has that few. The kept frames are moved out
/// when the job is the animation's only holder, else copied (the original
/// stays in the avatar cache, within its bound), so the job no longer
/// holds the others.
pub fn merged(image: Avatar, most: usize) -> Avatar {
    let Avatar {
        image: still,
        digest,
        animation,
        decode_cost,
    } = image;
    let anim = match animation {
        Some(anim) if anim.frames.len() > most.max(1) => anim,
        animation => {
            return Avatar {
                image: still,
                digest,
                animation,
                decode_cost,
            };
        }
    };
    let delays: Vec<u32> = anim.frames.iter().map(|f| f.delay_ms).collect();
    // Distinct frames in order (`by_time`), so each is taken once.
    let picks = by_time(&delays, most);
    let loops = anim.loops;
    let frames = match std::sync::Arc::try_unwrap(anim) {
        Ok(owned) => {
            let mut all: Vec<Option<RgbaImage>> =
                owned.frames.into_iter().map(|f| Some(f.image)).collect();
            picks
                .into_iter()
                .map(|(i, delay_ms)| remote_image::AnimationFrame {
                    image: all[i].take().unwrap_or_default(),
                    delay_ms,
                })
                .collect()
        }
        Err(shared) => picks
            .into_iter()
            .map(|(i, delay_ms)| remote_image::AnimationFrame {
                image: shared.frames[i].image.clone(),
                delay_ms,
            })
            .collect(),
    };
    Avatar {
        image: still,
        digest,
        animation: Some(std::sync::Arc::new(remote_image::Animation {
            frames,
            loops,
        })),
        decode_cost,
    }
}

/// Fits what a job with two images holds (the avatar and `image`, each
/// its still and its frames: [`held_pixels`]) within
/// [`two_image_budget`] when it can: first `image` (a welcome card's
/// `bg`, the backdrop) is merged by time to as many frames as fit beside
/// the avatar, down to one; then, if that is not enough, the avatar's
/// frames too. Two images already within the budget are kept as they are.
/// Two single frames may still pass it (two 4096² frames and their stills
/// are 34 Mi pixels): [`Plan::with_image`] then renders fewer frames, so
/// what the job holds stays within half the pool.
pub fn fit_two_images(
    avatar: Option<Avatar>,
    image: Avatar,
    max_jobs: usize,
) -> (Option<Avatar>, Avatar) {
    let budget = two_image_budget(max_jobs);
    let held = |a: &Option<Avatar>, i: &Avatar| a.as_ref().map_or(0, held_pixels) + held_pixels(i);
    if held(&avatar, &image) <= budget {
        return (avatar, image);
    }
    // As many of the image's frames as fit beside the avatar.
    let frame = |i: &Avatar| {
        i.animation
            .as_ref()
            .and_then(|a| a.frames.first())
            .map_or(1, |f| pixels(f.image.dimensions()).max(1))
    };
    let room = budget
        .saturating_sub(avatar.as_ref().map_or(0, held_pixels))
        .saturating_sub(pixels(image.image.dimensions()));
    let most = usize::try_from(room / frame(&image)).unwrap_or(usize::MAX);
    let image = merged(image, most);
    if held(&avatar, &image) <= budget {
        return (avatar, image);
    }
    // Then the avatar's, beside one frame of the image.
    let avatar = avatar.map(|a| {
        let room = budget
            .saturating_sub(held_pixels(&image))
            .saturating_sub(pixels(a.image.dimensions()));
        let most = usize::try_from(room / frame(&a)).unwrap_or(usize::MAX);
        merged(a, most)
    });
    (avatar, image)
}

/// What `format` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requested {
    /// Absent: PNG for still images, GIF for animated filters and shapes.
    Auto,
    /// `png`.
    Png,
    /// `gif`.
    Gif,
    /// `webp`, with the colour at this quality.
    WebP(WebpQuality),
}

/// Parses the `format` parameter (absent or blank: [`Requested::Auto`]),
/// a WebP at `quality`.
pub fn requested(value: Option<&str>, quality: WebpQuality) -> Result<Requested, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Requested::Auto),
        Some(v) if v.eq_ignore_ascii_case("png") => Ok(Requested::Png),
        Some(v) if v.eq_ignore_ascii_case("gif") => Ok(Requested::Gif),
        Some(v) if v.eq_ignore_ascii_case("webp") => Ok(Requested::WebP(quality)),
        Some(_) => Err(ApiError::InvalidParam {
            name: "format",
            reason: "format must be one of png, gif, webp".to_owned(),
        }),
    }
}

/// Parses the `quality` parameter: a whole number 1–100 (absent or
/// blank: [`WebpQuality::DEFAULT`], 85).
pub fn quality(value: Option<&str>) -> Result<WebpQuality, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(WebpQuality::DEFAULT),
        Some(v) => v
            .parse::<u8>()
            .ok()
            .and_then(WebpQuality::new)
            .ok_or_else(|| ApiError::InvalidParam {
                name: "quality",
                reason: "quality must be a whole number from 1 to 100".to_owned(),
            }),
    }
}

/// The `format` and `quality` parameters, or when `format` is absent the
/// `Accept` header's choice: [`Requested::WebP`] when a value names
/// `image/webp` explicitly with a non-zero quality, else
/// [`Requested::Auto`]. `format` always wins; `quality` is checked
/// whatever the format, and used by WebP answers.
pub fn negotiated<'a>(
    format: Option<&str>,
    quality_param: Option<&str>,
    accept: impl IntoIterator<Item = &'a str>,
) -> Result<Requested, ApiError> {
    let q = quality(quality_param)?;
    let r = requested(format, q)?;
    if r == Requested::Auto && accept.into_iter().any(names_webp) {
        return Ok(Requested::WebP(q));
    }
    Ok(r)
}

/// Whether one `Accept` value lists `image/webp` with `q` above 0 (an
/// unreadable `q` counts as a refusal). At most 64 media ranges are read.
fn names_webp(accept: &str) -> bool {
    accept.split(',').take(64).any(|range| {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or_default().trim();
        media.eq_ignore_ascii_case("image/webp")
            && parts.all(|p| match p.split_once('=') {
                Some((k, v)) if k.trim().eq_ignore_ascii_case("q") => {
                    v.trim().parse::<f32>().is_ok_and(|q| q > 0.0)
                }
                _ => true,
            })
    })
}

/// The image a job will produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// A still PNG (today's output).
    Png,
    /// A still WebP (lossy colour at this quality, exact alpha).
    WebP(WebpQuality),
    /// A GIF: animated when the avatar is, else one frame.
    Gif,
    /// An animated WebP (lossy colour at this quality, exact alpha).
    AnimatedWebP(WebpQuality),
}

impl Output {
    /// Chooses the output of `job` on `avatar` for what was asked.
    pub fn choose(requested: Requested, job: &Job, avatar: Option<&Avatar>) -> Self {
        Self::choose_with(requested, job, avatar, None)
    }

    /// [`Output::choose`] for a job that also draws a second image
    /// (`image`, a welcome card's `bg`): an animated one animates the
    /// answer too.
    pub fn choose_with(
        requested: Requested,
        job: &Job,
        avatar: Option<&Avatar>,
        image: Option<&Avatar>,
    ) -> Self {
        let animated = (avatar.is_some_and(|a| a.animation.is_some()) && animates(job))
            || (image.is_some_and(|i| i.animation.is_some()) && job.image_source().is_some())
            || job.is_animated();
        match (requested, animated) {
            (Requested::Auto, true) | (Requested::Gif, _) => Output::Gif,
            (Requested::Auto | Requested::Png, _) => Output::Png,
            (Requested::WebP(q), true) => Output::AnimatedWebP(q),
            (Requested::WebP(q), false) => Output::WebP(q),
        }
    }

    /// The `Content-Type` of the answer.
    pub fn content_type(self) -> &'static str {
        match self {
            Output::Png => "image/png",
            Output::Gif => "image/gif",
            Output::WebP(_) | Output::AnimatedWebP(_) => "image/webp",
        }
    }

    /// The output-cache and ETag key of `job_key` in this format. PNG keeps
    /// the key it always had, so still PNG answers keep their tags, and a
    /// WebP at the default quality the key it had before `quality` was
    /// offered.
    pub fn key(self, job_key: String) -> String {
        let at = |q: WebpQuality| {
            if q == WebpQuality::DEFAULT {
                String::new()
            } else {
                format!(" at q{}", q.get())
            }
        };
        match self {
            Output::Png => job_key,
            Output::WebP(q) => job_key + " as webp" + &at(q),
            Output::Gif => job_key + " as gif",
            Output::AnimatedWebP(q) => job_key + " as animated webp" + &at(q),
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
        Job::Template(kind, args) => {
            canvas_render::template::render_template_with(kind.template(), args, Some(frame), None)
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

/// What an answer will render: for an animation, which source frame each
/// output frame shows and for how long (frames merged by time when the
/// rendered pixels would pass the cap), and the job slots it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// (source frame, delay in ms) of each output frame; empty for a still
    /// answer.
    frames: Vec<(usize, u32)>,
    /// A template's output frames (its own frame, the avatar frame, the
    /// delay), after merging by time; empty for other jobs.
    template: Vec<FramePlan>,
    /// Output frames × output width × height (one image for a still).
    rendered_pixels: u64,
    /// Job slots the job stands for (see [`Plan::slots`]).
    slots: usize,
    /// Pixels of the source animations' frames the job holds (0 for a
    /// still avatar: its one image is counted in the job's first slot).
    source_pixels: u64,
    /// A job with two images that would hold more than half the pool even
    /// at one frame of each (only with a pool of under 36 slots).
    over: bool,
}

impl Plan {
    /// The plan of `job` on `avatar` as `output` with a pool of `max_jobs`
    /// job slots. A still answer renders one image and holds one slot (the
    /// rendered image lives on a render thread: the memory bound (book, Limits) counts
    /// it there). An animation renders at most [`rendered_cap`] pixels and
    /// holds one slot per started [`PIXELS_PER_SLOT`] of the larger of its
    /// source frames and its rendered frames, at most half the pool.
    pub fn new(job: &Job, avatar: Option<&Avatar>, output: Output, max_jobs: usize) -> Self {
        Self::with_image(job, avatar, None, output, max_jobs)
    }

    /// [`Plan::new`] for a job that may also draw a second image (`image`,
    /// a template's [`Layer::Image`](canvas_render::template::Layer::Image)
    /// source): its frames are aligned with the avatar's by time, and the
    /// job holds at least one slot per image, and one per started 2 Mi
    /// pixels of what it holds at 4 bytes a pixel: both images (each its
    /// still and its frames: [`held_pixels`]) and the rendered frames
    /// together. With the images fitted ([`fit_two_images`]) that is at
    /// most half the pool; the rendered frames are capped so that it stays
    /// so, and a job that would pass it even so is [`over_the_pool`].
    ///
    /// [`over_the_pool`]: Plan::over_the_pool
    pub fn with_image(
        job: &Job,
        avatar: Option<&Avatar>,
        image: Option<&Avatar>,
        output: Output,
        max_jobs: usize,
    ) -> Self {
        if let Job::Template(kind, args) = job {
            let image = image.filter(|_| kind.template().image_source().is_some());
            return Self::template(kind.template(), args, avatar, image, output, max_jobs);
        }
        let animation = avatar
            .and_then(|a| a.animation.as_deref())
            .filter(|_| animates(job) && matches!(output, Output::Gif | Output::AnimatedWebP(_)));
        let Some(anim) = animation else {
            let size = avatar.map_or((0, 0), |a| a.image.dimensions());
            return Self {
                frames: Vec::new(),
                template: Vec::new(),
                rendered_pixels: pixels(rendered_size(job, size)),
                slots: 1,
                source_pixels: 0,
                over: false,
            };
        };
        let size = anim.frames.first().map_or((0, 0), |f| f.image.dimensions());
        let frame_pixels = pixels(rendered_size(job, size)).max(1);
        let cap = rendered_cap(max_jobs);
        let most = usize::try_from((cap / frame_pixels).max(1)).unwrap_or(usize::MAX);
        let delays: Vec<u32> = anim.frames.iter().map(|f| f.delay_ms).collect();
        let frames = by_time(&delays, most);
        let rendered_pixels = frame_pixels * frames.len() as u64;
        let source: u64 = anim
            .frames
            .iter()
            .map(|f| pixels(f.image.dimensions()))
            .sum();
        let slots = usize::try_from(rendered_pixels.max(source).div_ceil(PIXELS_PER_SLOT))
            .unwrap_or(usize::MAX)
            .clamp(1, (max_jobs / 2).max(1));
        Self {
            frames,
            template: Vec::new(),
            rendered_pixels,
            slots,
            source_pixels: source,
            over: false,
        }
    }

    /// The plan of a template: its own frames aligned with the avatar's by
    /// time (`plan_frames`; an animated template is animated even over a
    /// still avatar), merged by time past the rendered-pixel cap like any
    /// other animation, and charged the same way.
    fn template(
        template: &Template,
        args: &Args,
        avatar: Option<&Avatar>,
        image: Option<&Avatar>,
        output: Output,
        max_jobs: usize,
    ) -> Self {
        let anim = avatar.and_then(|a| a.animation.as_deref());
        let image_anim = image.and_then(|a| a.animation.as_deref());
        let images = 1 + usize::from(image.is_some());
        // The canvas for these arguments: a post grows with its comment, a
        // caption follows its picture.
        let size = match avatar {
            Some(a) => template.size_for_picture(args, a.image.dimensions()),
            None => template.size_for(args),
        };
        let frame_pixels = pixels(size).max(1);
        let animated = matches!(output, Output::Gif | Output::AnimatedWebP(_))
            && (template.is_animated()
                || (anim.is_some() && template.uses_avatar())
                || image_anim.is_some());
        if !animated {
            return Self {
                frames: Vec::new(),
                template: Vec::new(),
                rendered_pixels: frame_pixels,
                slots: images.min((max_jobs / 2).max(1)),
                source_pixels: 0,
                over: false,
            };
        }
        let delays: Vec<u32> = source_frames(avatar).iter().map(|(_, d)| *d).collect();
        let image_delays: Vec<u32> = source_frames(image).iter().map(|(_, d)| *d).collect();
        let steps = plan_frames_with(template, args, &delays, &image_delays);
        // With two images, the source pixels the job holds (both images,
        // each its still and its frames) and the rendered ones share the
        // half pool's bytes (`two_image_budget` twice over, at 4 bytes a
        // pixel: 8 MiB a slot); within the budget this is `rendered_cap`.
        let held = image.map(|i| avatar.map_or(0, held_pixels) + held_pixels(i));
        let cap = match held {
            Some(held) => rendered_cap(max_jobs)
                .min((2 * two_image_budget(max_jobs)).saturating_sub(held))
                .max(1),
            None => rendered_cap(max_jobs),
        };
        let most = usize::try_from((cap / frame_pixels).max(1)).unwrap_or(usize::MAX);
        let step_delays: Vec<u32> = steps.iter().map(|s| s.delay_ms).collect();
        let frames = by_time(&step_delays, most);
        let template_frames = frames
            .iter()
            .map(|&(i, delay_ms)| FramePlan {
                delay_ms,
                ..steps[i]
            })
            .collect();
        let rendered_pixels = frame_pixels * frames.len() as u64;
        let source_pixels = |a: Option<&remote_image::Animation>| -> u64 {
            a.map_or(0, |a| {
                a.frames.iter().map(|f| pixels(f.image.dimensions())).sum()
            })
        };
        let source = source_pixels(anim) + source_pixels(image_anim);
        // One slot (8 MiB) per started 2 Mi pixels held at 4 bytes each,
        // source and rendered together, for a job with two images; one per
        // started 1 Mi pixels of the larger of the two for one image.
        let need = match held {
            Some(held) => (held + rendered_pixels).div_ceil(2 * PIXELS_PER_SLOT),
            None => rendered_pixels.max(source).div_ceil(PIXELS_PER_SLOT),
        };
        let slots = usize::try_from(need)
            .unwrap_or(usize::MAX)
            .max(images)
            .clamp(1, (max_jobs / 2).max(1));
        Self {
            frames,
            template: template_frames,
            rendered_pixels,
            slots,
            source_pixels: source,
            over: held.is_some() && need > slots as u64,
        }
    }

    /// Job slots the job holds: 1, or for an animation one per started
    /// [`PIXELS_PER_SLOT`] of its source or rendered frames (at most half
    /// the pool).
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Whether the job may wait for its extra slots holding only its first:
    /// its source frames, if any, fit in one slot's share
    /// ([`PIXELS_PER_SLOT`]), so a waiting job holds no more than a job
    /// that waits for a render thread with one slot. A job holding a larger
    /// animation must find its slots free at once.
    pub fn may_wait_for_slots(&self) -> bool {
        self.source_pixels <= PIXELS_PER_SLOT
    }

    /// Whether a job with two images would hold more than half the pool's
    /// bytes even with one frame of each ([`fit_two_images`]): it is
    /// refused rather than let hold more than its slots.
    pub fn over_the_pool(&self) -> bool {
        self.over
    }

    /// Whether the answer is an animation (else one image is rendered).
    pub fn animated(&self) -> bool {
        !self.frames.is_empty()
    }

    /// Frames the answer will have (1 for a still).
    pub fn frames(&self) -> usize {
        self.frames.len().max(1)
    }

    /// Output frames × output width × height.
    pub fn rendered_pixels(&self) -> u64 {
        self.rendered_pixels
    }
}

fn pixels((w, h): (u32, u32)) -> u64 {
    u64::from(w) * u64::from(h)
}

/// The size `job` renders from an avatar frame of `source` size: a filter
/// keeps it, a shape is [`canvas_render::shape::SIZE`] square, a template
/// its canvas for its arguments.
fn rendered_size(job: &Job, source: (u32, u32)) -> (u32, u32) {
    match job {
        Job::Filter(_) => source,
        Job::Circle | Job::Heart | Job::Pride(_) => {
            (canvas_render::shape::SIZE, canvas_render::shape::SIZE)
        }
        Job::Template(kind, args) => kind.template().size_for_picture(args, source),
    }
}

/// At most `most` (at least one) output frames for source frames shown
/// for `delays_ms`, as (source frame, delay): every frame as it is when
/// there are few enough; else output frame `k` shows the source frame on
/// screen at `k / most` of the total duration, for the time until the next
/// output frame's, so the total duration stays the same and the motion
/// keeps its speed at a lower frame rate (consecutive picks of one source
/// frame are one output frame). Without any delay (all 0 ms), frames are
/// picked evenly by index.
pub fn by_time(delays_ms: &[u32], most: usize) -> Vec<(usize, u32)> {
    let most = most.max(1);
    if delays_ms.len() <= most {
        return delays_ms.iter().copied().enumerate().collect();
    }
    let total: u64 = delays_ms.iter().map(|&d| u64::from(d)).sum();
    let n = most as u64;
    if total == 0 {
        let len = delays_ms.len() as u64;
        return (0..n)
            .map(|k| (usize::try_from(k * len / n).unwrap_or(0), 0))
            .collect();
    }
    // Start time of each source frame.
    let starts: Vec<u64> = delays_ms
        .iter()
        .scan(0u64, |t, &d| {
            let start = *t;
            *t += u64::from(d);
            Some(start)
        })
        .collect();
    let mut out: Vec<(usize, u32)> = Vec::with_capacity(most);
    for k in 0..n {
        let (at, next) = (k * total / n, (k + 1) * total / n);
        // The last frame starting at or before `at` is on screen then.
        let source = starts.partition_point(|&s| s <= at).saturating_sub(1);
        let delay = u32::try_from(next - at).unwrap_or(u32::MAX);
        match out.last_mut() {
            Some((last, d)) if *last == source => *d = d.saturating_add(delay),
            _ => out.push((source, delay)),
        }
    }
    out
}

/// Renders `job` and encodes it as `output`, following `plan` (the frames
/// of an animation).
pub fn render(
    job: &Job,
    avatar: Option<&Avatar>,
    image: Option<&Avatar>,
    output: Output,
    plan: &Plan,
    budget: Duration,
) -> Result<Vec<u8>, ApiError> {
    let still = |job: &Job| {
        job.render(
            avatar.map(|a| a.image.as_ref()),
            image.map(|a| a.image.as_ref()),
        )
    };
    let deadline = Deadline::after(budget);
    if let (Job::Template(kind, args), true) = (job, plan.animated()) {
        // A template's own frames, aligned with the avatar's by time and
        // merged by time past the cap (`Plan::new`).
        let template = kind.template();
        let source = source_frames(avatar);
        let second = source_frames(image);
        let image_anim = image.and_then(|a| a.animation.as_deref());
        let loops = match avatar.and_then(|a| a.animation.as_deref()) {
            Some(anim) if !template.is_animated() && image_anim.is_none() => loops(anim.loops),
            None if !template.is_animated() && image_anim.is_some() => {
                image_anim.map_or(Loops::Infinite, |a| loops(a.loops))
            }
            _ => Loops::Infinite,
        };
        if output == Output::Gif {
            // canvas-render picks the cheapest way to the same file.
            return render_template_gif(
                template,
                args,
                &source,
                &second,
                &plan.template,
                loops,
                &deadline,
            )
            .map_err(animation_error);
        }
        return encode_frames(output, loops, &deadline, |sink| {
            render_planned_frames_with(
                template,
                args,
                &source,
                &second,
                &plan.template,
                Some(&deadline),
                sink,
            )
        });
    }
    let animation = avatar
        .and_then(|a| a.animation.as_deref())
        .filter(|_| animates(job) && plan.animated());
    match (output, animation) {
        (Output::Png, _) => encode_png(still(job)?),
        (Output::WebP(q), _) => Ok(canvas_render::encode_webp_at(&still(job)?, q)?),
        (Output::Gif, None) => {
            let image = still(job)?;
            canvas_render::encode_gif(&[image], &[0], Loops::Times(1), &deadline)
                .map_err(animation_error)
        }
        (Output::Gif | Output::AnimatedWebP(_), Some(anim)) => {
            encode_frames(output, loops(anim.loops), &deadline, |sink| {
                for &(source, delay) in &plan.frames {
                    deadline.check()?;
                    let frame = render_frame(job, &anim.frames[source].image)
                        .map_err(AnimationError::Render)?;
                    sink(frame, delay)?;
                }
                Ok(())
            })
        }
        (Output::AnimatedWebP(q), None) => Ok(canvas_render::encode_webp_at(&still(job)?, q)?),
    }
}

/// Encodes a still PNG into a reused buffer (`canvas_render::buffers`) and
/// gives the image's buffer back for the next render: no image-sized
/// allocation per request (the colour that fully transparent pixels hide
/// is cleared in the image itself, not in a copy).
fn encode_png(mut image: RgbaImage) -> Result<Vec<u8>, ApiError> {
    let mut out = canvas_render::buffers::take_empty(image.as_raw().len() / 2 + 1024);
    let encoded = canvas_render::encode_png_in_place_into(&mut image, &mut out);
    canvas_render::buffers::recycle_image(image);
    encoded?;
    Ok(out)
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

/// A sink for rendered frames and their delays.
type Sink<'a> = &'a mut dyn FnMut(RgbaImage, u32) -> Result<(), AnimationError>;

/// Encodes the frames `produce` hands to its sink as an animated `output`:
/// WebP frames go to the encoder one at a time; GIF frames are held for the
/// one-palette encode (at most the rendered-pixel cap).
fn encode_frames(
    output: Output,
    loops: Loops,
    deadline: &Deadline,
    produce: impl FnOnce(Sink<'_>) -> Result<(), AnimationError>,
) -> Result<Vec<u8>, ApiError> {
    if output == Output::Gif {
        let mut frames = Vec::new();
        let mut delays = Vec::new();
        produce(&mut |frame, delay| {
            frames.push(frame);
            delays.push(delay);
            Ok(())
        })
        .map_err(animation_error)?;
        deadline.check().map_err(animation_error)?;
        let encoded = canvas_render::encode_gif(&frames, &delays, loops, deadline);
        // The frames' buffers go back for the next render's frames.
        frames
            .into_iter()
            .for_each(canvas_render::buffers::recycle_image);
        return encoded.map_err(animation_error);
    }
    let quality = match output {
        Output::WebP(q) | Output::AnimatedWebP(q) => q,
        Output::Png | Output::Gif => WebpQuality::DEFAULT,
    };
    let mut writer: Option<WebpAnimationWriter> = None;
    produce(&mut |frame, delay| {
        let w = match &mut writer {
            Some(w) => w,
            None => writer.insert(WebpAnimationWriter::with_quality(
                frame.width(),
                frame.height(),
                loops,
                quality,
            )?),
        };
        let added = w.add_frame(&frame, delay);
        canvas_render::buffers::recycle_image(frame);
        added
    })
    .map_err(animation_error)?;
    deadline.check().map_err(animation_error)?;
    writer
        .ok_or(AnimationError::Invalid("no frames"))
        .and_then(WebpAnimationWriter::finish)
        .map_err(animation_error)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use canvas_render::template::TemplateKind;
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

    fn weight(job: &Job, avatar: Option<&Avatar>, output: Output, max_jobs: usize) -> usize {
        Plan::new(job, avatar, output, max_jobs).slots()
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
                Output::AnimatedWebP(WebpQuality::DEFAULT),
                64
            ),
            15
        );
        // A still output of an animated avatar renders one frame.
        assert_eq!(weight(&Job::Circle, Some(&small), Output::Png, 64), 1);
        assert_eq!(
            weight(
                &Job::Circle,
                Some(&small),
                Output::WebP(WebpQuality::DEFAULT),
                64
            ),
            1
        );
        // A card counts its size per frame.
        let kind = TemplateKind::Lolice;
        let card = Job::Template(kind.into(), kind.template().args(|_| None).unwrap());
        let (w, h) = kind.template().size;
        let few = avatar(30, 128);
        let expected = (30 * u64::from(w) * u64::from(h)).div_ceil(PIXELS_PER_SLOT);
        assert_eq!(weight(&card, Some(&few), Output::Gif, 64) as u64, expected);
        // At most half the pool.
        let big = avatar(200, 1024);
        assert_eq!(weight(&grey, Some(&big), Output::Gif, 64), 32);
        assert_eq!(weight(&grey, Some(&big), Output::Gif, 1), 1);
        assert_eq!(weight(&grey, None, Output::Gif, 64), 1);
    }

    #[test]
    fn a_post_is_weighed_by_the_height_its_comment_gives_it() {
        use canvas_render::template::TemplateKind;
        let t = TemplateKind::Post.template();
        let job = |comment: &str| {
            let args = t.args(|n| (n == "comment").then_some(comment)).unwrap();
            Job::Template(TemplateKind::Post.into(), args)
        };
        let anim = avatar(10, 8);
        let per_frame = |job: &Job| {
            let plan = Plan::new(job, Some(&anim), Output::Gif, 64);
            plan.rendered_pixels() / plan.frames() as u64
        };
        assert_eq!(per_frame(&job("hi")), 1200 * 471);
        assert_eq!(per_frame(&job(&"word ".repeat(199))), 1200 * 1400);
        let still = avatar(1, 8);
        let tall = Plan::new(&job(&"word ".repeat(199)), Some(&still), Output::Png, 64);
        assert_eq!(tall.rendered_pixels(), 1200 * 1400);
    }

    #[test]
    fn an_animation_is_charged_and_capped_by_the_frames_it_renders() {
        // 256 frames of 8x8 (10 KB as a GIF) through the largest card: the
        // source is tiny, but every frame is a whole card.
        let tiny = avatar(256, 8);
        let kind = TemplateKind::Namecard;
        let namecard = Job::Template(kind.into(), kind.template().args(|_| Some("a")).unwrap());
        let (w, h) = kind.template().size;
        let card = u64::from(w) * u64::from(h);
        for output in [Output::Gif, Output::AnimatedWebP(WebpQuality::DEFAULT)] {
            let plan = Plan::new(&namecard, Some(&tiny), output, 64);
            // Without the cap: 256 cards, over a gigabyte of RGBA.
            assert!(256 * card * 4 > 1 << 30);
            assert_eq!(plan.frames() as u64, MAX_RENDERED_PIXELS / card);
            assert!(plan.rendered_pixels() <= MAX_RENDERED_PIXELS);
            assert_eq!(
                plan.slots() as u64,
                plan.rendered_pixels().div_ceil(PIXELS_PER_SLOT),
                "charged for what it renders"
            );
            assert!(plan.slots() > 1 && plan.slots() <= 32);
            // The whole animation's time is kept.
            let total: u64 = plan.frames.iter().map(|f| u64::from(f.1)).sum();
            assert_eq!(total, 256 * 40);
        }
        // A smaller pool renders less, so its half still covers it.
        let plan = Plan::new(&namecard, Some(&tiny), Output::Gif, 8);
        assert!(plan.rendered_pixels() <= 4 * PIXELS_PER_SLOT);
        assert_eq!(plan.slots(), 4);
        // One frame is always rendered, even when one card is over the cap.
        let plan = Plan::new(&namecard, Some(&tiny), Output::Gif, 1);
        assert_eq!((plan.frames(), plan.slots()), (1, 1));
        // 128 circles of 512x512 are exactly the cap: every frame kept.
        let plan = Plan::new(&Job::Circle, Some(&avatar(128, 8)), Output::Gif, 64);
        assert_eq!((plan.frames(), plan.slots()), (128, 32));
        let plan = Plan::new(&Job::Circle, Some(&avatar(256, 8)), Output::Gif, 64);
        assert_eq!((plan.frames(), plan.slots()), (128, 32));
    }

    #[test]
    fn frames_are_merged_by_time() {
        // Few enough: unchanged.
        assert_eq!(by_time(&[10, 20, 30], 3), [(0, 10), (1, 20), (2, 30)]);
        // Six 100 ms frames into three: every other one, 200 ms each.
        assert_eq!(by_time(&[100; 6], 3), [(0, 200), (2, 200), (4, 200)]);
        // Uneven delays: the frame on screen at each third of 900 ms (the
        // first twice, merged).
        assert_eq!(by_time(&[600, 100, 100, 100], 3), [(0, 600), (1, 300)]);
        // The total stays the same whatever the count.
        let delays: Vec<u32> = (0..256).map(|i| 20 + i % 7 * 10).collect();
        let total: u64 = delays.iter().map(|&d| u64::from(d)).sum();
        for most in [1, 2, 23, 100, 255] {
            let out = by_time(&delays, most);
            assert!(out.len() <= most && !out.is_empty());
            assert_eq!(out.iter().map(|f| u64::from(f.1)).sum::<u64>(), total);
            assert!(out.windows(2).all(|w| w[0].0 < w[1].0), "in order");
        }
        // No delays at all: evenly by index.
        assert_eq!(by_time(&[0; 8], 4), [(0, 0), (2, 0), (4, 0), (6, 0)]);
        assert!(by_time(&[], 4).is_empty());
    }

    #[test]
    fn templates_weigh_by_the_frames_they_render() {
        use canvas_render::template::TemplateKind;
        let job = |kind: TemplateKind| {
            Job::Template(kind.into(), kind.template().args(|_| None).unwrap())
        };
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
        // triggered over 256 frames of 40 ms: its 12-frame loop repeats 21
        // times (252 frames of 512², whole loops within 256 frames: 63 Mi
        // pixels), past the cap, so they are merged by time to 128, the
        // time kept.
        let long = avatar(256, 8);
        let plan = Plan::new(
            &triggered,
            Some(&long),
            Output::AnimatedWebP(WebpQuality::DEFAULT),
            64,
        );
        assert!(plan.rendered_pixels() <= MAX_RENDERED_PIXELS);
        assert_eq!((plan.frames(), plan.slots()), (128, 32));
        let total: u64 = plan.template.iter().map(|f| u64::from(f.delay_ms)).sum();
        assert_eq!(total, 252 * 40);
    }

    /// The two-avatar memes are charged for both pictures as a welcome
    /// card is for its `bg`, and held within their slots at the caps.
    #[test]
    fn the_two_avatar_memes_are_charged_for_both_pictures() {
        let slot_bytes = 8 << 20;
        for (_, name, kind) in crate::catalogue::TEMPLATES
            .into_iter()
            .filter(|(g, _, _)| *g == crate::catalogue::MEME_GROUP)
        {
            let t = kind.template();
            if t.image_source() != Some(crate::catalogue::SECOND_AVATAR) {
                continue;
            }
            let meme = Job::Template(kind.into(), t.args(|_| None).unwrap());
            let (still, anim) = (avatar(1, 512), avatar(60, 128));
            let alone = Plan::new(&meme, Some(&still), Output::Png, 64).slots();
            let plan = Plan::with_image(&meme, Some(&still), Some(&still), Output::Png, 64);
            assert!(plan.slots() >= alone.max(2), "{name}: a slot per picture");
            assert_eq!(
                Output::choose_with(Requested::Auto, &meme, Some(&still), Some(&anim)),
                Output::Gif,
                "{name}: an animated second picture animates the meme"
            );
            let (fa, fb) = fit_two_images(Some(fetched(128, 512)), fetched(128, 512), 64);
            let fa = fa.unwrap();
            let plan = Plan::with_image(&meme, Some(&fa), Some(&fb), Output::Gif, 64);
            assert!(!plan.over_the_pool() && plan.slots() <= 32, "{name}");
            assert!(
                plan.slots() as u64 * slot_bytes >= bytes_held(&fa, &fb, &plan),
                "{name}: {} slots for {} MiB",
                plan.slots(),
                bytes_held(&fa, &fb, &plan) >> 20
            );
        }
    }

    #[test]
    fn a_second_image_is_charged_and_animates_the_card() {
        use canvas_render::template::TemplateKind;
        let kind = TemplateKind::Welcome1;
        let card = Job::Template(kind.into(), kind.template().args(|_| None).unwrap());
        let (still, anim) = (avatar(1, 512), avatar(60, 128));
        // Two still images: a still card holding a slot per image.
        let plan = Plan::with_image(&card, Some(&still), Some(&still), Output::Png, 64);
        assert_eq!((plan.animated(), plan.slots()), (false, 2));
        assert_eq!(Plan::new(&card, Some(&still), Output::Png, 64).slots(), 1);
        // An animated background animates it, charged by its 1200×600
        // frames, at most the rendered cap.
        assert_eq!(
            Output::choose_with(Requested::Auto, &card, Some(&still), Some(&anim)),
            Output::Gif
        );
        assert_eq!(
            Output::choose_with(Requested::Auto, &card, Some(&still), Some(&still)),
            Output::Png
        );
        let plan = Plan::with_image(&card, Some(&still), Some(&anim), Output::Gif, 64);
        assert!(plan.animated());
        assert!(plan.rendered_pixels() <= MAX_RENDERED_PIXELS);
        assert_eq!(plan.frames() as u64, MAX_RENDERED_PIXELS / (1200 * 600));
        // One slot per started 2 Mi pixels held, both images and the
        // rendered frames together (8 MiB at 4 bytes a pixel).
        let held = held_pixels(&still) + held_pixels(&anim) + plan.rendered_pixels();
        assert_eq!(plan.slots() as u64, held.div_ceil(2 * PIXELS_PER_SLOT));
        // Both animated: aligned by time, the same rule.
        let plan = Plan::with_image(
            &card,
            Some(&anim),
            Some(&avatar(3, 64)),
            Output::AnimatedWebP(WebpQuality::DEFAULT),
            64,
        );
        assert!(plan.animated() && plan.rendered_pixels() <= MAX_RENDERED_PIXELS);
        // A job without an image layer ignores one.
        let grey = Job::Filter(Filter::Greyscale);
        assert_eq!(
            Output::choose_with(Requested::Auto, &grey, Some(&still), Some(&anim)),
            Output::Png
        );
    }

    /// An animated image as the fetcher gives it: `frames` frames of
    /// `side`² and its still normalised to at most 1024².
    fn fetched(frames: usize, side: u32) -> Avatar {
        let mut a = avatar(frames, side);
        a.image = Arc::new(RgbaImage::new(side.min(1024), side.min(1024)));
        a
    }

    /// Bytes a two-image job holds: both images (stills and frames) and
    /// every rendered frame, 4 bytes a pixel.
    fn bytes_held(avatar: &Avatar, image: &Avatar, plan: &Plan) -> u64 {
        4 * (held_pixels(avatar) + held_pixels(image) + plan.rendered_pixels())
    }

    fn total_ms(a: &Avatar) -> u64 {
        a.animation
            .as_ref()
            .map_or(0, |a| a.frames.iter().map(|f| u64::from(f.delay_ms)).sum())
    }

    /// Two animations at the caps on one card (the welcome flood: an
    /// avatar of 128 × 512² and a `bg` of 2 × 4096², 64 Mi pixels of
    /// frames): the job's slots cover every byte it holds, within half the
    /// pool, because the `bg` (then the avatar) is merged by time; cards
    /// within the budget are left as they are.
    #[test]
    fn two_animated_images_at_the_caps_are_held_within_their_slots() {
        use canvas_render::template::TemplateKind;
        let kind = TemplateKind::Welcome1;
        let card = Job::Template(kind.into(), kind.template().args(|_| None).unwrap());
        let slot_bytes = 8 << 20;
        for (a, b) in [
            (fetched(128, 512), fetched(2, 4096)),
            (fetched(256, 8), fetched(128, 512)),
            (fetched(2, 4096), fetched(2, 4096)),
            (fetched(128, 512), fetched(128, 512)),
        ] {
            for output in [Output::Gif, Output::AnimatedWebP(WebpQuality::DEFAULT)] {
                // Both images alone are more than half the pool's bytes.
                assert!(held_pixels(&a) + held_pixels(&b) > two_image_budget(64));
                let (fa, fb) = fit_two_images(Some(a.clone()), b.clone(), 64);
                let fa = fa.unwrap();
                let plan = Plan::with_image(&card, Some(&fa), Some(&fb), output, 64);
                assert!(plan.animated() && !plan.over_the_pool());
                assert!(plan.slots() <= 32);
                assert!(
                    plan.slots() as u64 * slot_bytes >= bytes_held(&fa, &fb, &plan),
                    "{} slots for {} MiB",
                    plan.slots(),
                    bytes_held(&fa, &fb, &plan) >> 20
                );
                // Each image keeps a frame at least, and its whole time.
                assert!(fa.animation.is_some() && fb.animation.is_some());
                assert_eq!((total_ms(&fa), total_ms(&fb)), (total_ms(&a), total_ms(&b)));
            }
        }
        // The backdrop goes first: beside the 128 × 512² avatar, one frame
        // of the 4096² background, and the avatar's frames as fit beside it.
        let (fa, fb) = fit_two_images(Some(fetched(128, 512)), fetched(2, 4096), 64);
        assert_eq!(fb.animation.as_ref().unwrap().frames.len(), 1);
        assert_eq!(fa.unwrap().animation.as_ref().unwrap().frames.len(), 59);
        // The 10 KB avatar beside a 128 × 512² background: a few of the
        // background's frames merged, the avatar untouched.
        let (fa, fb) = fit_two_images(Some(fetched(256, 8)), fetched(128, 512), 64);
        assert_eq!(fa.unwrap().animation.as_ref().unwrap().frames.len(), 256);
        assert_eq!(fb.animation.as_ref().unwrap().frames.len(), 126);
        // Within the budget: the same images, the same plan as before.
        let (a, b) = (fetched(60, 128), fetched(30, 512));
        let (fa, fb) = fit_two_images(Some(a.clone()), b.clone(), 64);
        assert!(Arc::ptr_eq(
            fa.as_ref().unwrap().animation.as_ref().unwrap(),
            a.animation.as_ref().unwrap()
        ));
        assert!(Arc::ptr_eq(
            fb.animation.as_ref().unwrap(),
            b.animation.as_ref().unwrap()
        ));
        let plan = Plan::with_image(&card, Some(&a), Some(&b), Output::Gif, 64);
        assert!(plan.slots() as u64 * slot_bytes >= bytes_held(&a, &b, &plan));
        // A pool too small for one frame of each: refused, not over-held.
        let (fa, fb) = fit_two_images(Some(fetched(2, 4096)), fetched(2, 4096), 16);
        let plan = Plan::with_image(&card, fa.as_ref(), Some(&fb), Output::Gif, 16);
        assert!(plan.over_the_pool());
    }

    #[test]
    fn outputs_follow_the_format_and_the_avatar() {
        let grey = Job::Filter(Filter::Greyscale);
        let lolice = TemplateKind::Lolice;
        let scene = Job::Template(lolice.into(), lolice.template().args(|_| None).unwrap());
        let (still, anim) = (avatar(1, 8), avatar(3, 8));
        let choose = |r, job: &Job, a: &Avatar| Output::choose(r, job, Some(a));
        assert_eq!(choose(Requested::Auto, &grey, &still), Output::Png);
        assert_eq!(choose(Requested::Auto, &grey, &anim), Output::Gif);
        assert_eq!(choose(Requested::Auto, &scene, &anim), Output::Gif);
        let sage = Job::Template(
            TemplateKind::Sage.into(),
            TemplateKind::Sage.template().args(|_| None).unwrap(),
        );
        assert_eq!(choose(Requested::Auto, &sage, &anim), Output::Png);
        assert_eq!(choose(Requested::Png, &grey, &anim), Output::Png);
        let q = WebpQuality::new(40).unwrap();
        assert_eq!(
            choose(Requested::WebP(q), &grey, &anim),
            Output::AnimatedWebP(q)
        );
        assert_eq!(choose(Requested::WebP(q), &grey, &still), Output::WebP(q));
        assert_eq!(choose(Requested::Gif, &grey, &still), Output::Gif);
        assert_eq!(Output::Png.key("k".into()), "k");
        let d = WebpQuality::DEFAULT;
        assert_ne!(
            Output::Gif.key("k".into()),
            Output::AnimatedWebP(d).key("k".into())
        );
        // The default quality keeps the key WebP had; another is its own.
        assert_eq!(Output::WebP(d).key("k".into()), "k as webp");
        assert_ne!(Output::WebP(q).key("k".into()), "k as webp");
        assert_ne!(
            Output::WebP(q).key("k".into()),
            Output::AnimatedWebP(q).key("k".into())
        );
        assert_eq!(requested(Some(" WebP "), q).unwrap(), Requested::WebP(q));
        assert_eq!(requested(Some(""), q).unwrap(), Requested::Auto);
        assert!(requested(Some("jpeg"), q).is_err());
    }

    #[test]
    fn quality_is_a_whole_number_from_1_to_100() {
        assert_eq!(quality(None).unwrap(), WebpQuality::DEFAULT);
        assert_eq!(quality(Some(" ")).unwrap(), WebpQuality::DEFAULT);
        assert_eq!(quality(Some(" 1 ")).unwrap().get(), 1);
        assert_eq!(quality(Some("100")).unwrap().get(), 100);
        for bad in [
            "0",
            "101",
            "-5",
            "50.5",
            "1e2",
            "high",
            "256",
            "99999999999",
        ] {
            assert!(quality(Some(bad)).is_err(), "{bad}");
        }
        let webp = ["image/webp,*/*"];
        let q = |v| WebpQuality::new(v).unwrap();
        assert_eq!(
            negotiated(None, Some("30"), webp).unwrap(),
            Requested::WebP(q(30))
        );
        assert_eq!(
            negotiated(Some("png"), Some("30"), webp).unwrap(),
            Requested::Png
        );
        assert_eq!(
            negotiated(None, Some("30"), ["*/*"]).unwrap(),
            Requested::Auto
        );
        assert!(negotiated(Some("png"), Some("0"), ["*/*"]).is_err());
    }
}
