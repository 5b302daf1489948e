//! The canvas engine: parsed avatar → fetch → cache → job bound → render
//! pool → output cache.
//!
//! A route parses every parameter into a [`Job`] and the avatar into an
//! [`AvatarUrl`] (cheap: a bad parameter is a 400 before any network or CPU
//! work), then calls [`CanvasEngine::start`], which takes a job slot
//! ([`JobSlots`]: a bounded wait, fair across clients, with a per-client
//! cap; 503 with `Retry-After` only beyond the queue cap or deadline), and
//! gets the avatar. The job then runs in up to three steps, and holds its
//! slot until the last one ends, even if the client has gone:
//!
//! 1. the avatar: from the decoded-avatar cache on the async worker (about a
//!    microsecond), or else fetched and decoded on the blocking pool with
//!    `web::block`, where a slow avatar host costs a parked thread, never an
//!    HTTP worker or a core; a decoded avatar weighs its job by its decode
//!    cost ([`JobPermit::weigh`]); a job that draws a second image (a
//!    welcome card's `bg`, a meme's `avatar2`) fetches its body at the
//!    same time, and decodes it once charged for it
//!    ([`CanvasEngine::start_with_image`]);
//! 2. the [`Ticket`] names the image by a strong entity tag (the job, the
//!    avatar's content digest and the server version), so the route can
//!    answer a matching `If-None-Match` or a HEAD without rendering, and
//!    [`Ticket::cached_image`] looks in the cache of encoded images;
//! 3. [`Ticket::render`]: render and encode (PNG, or GIF/WebP, still or
//!    animated: [`output`]) on the [`RenderPool`]: one
//!    thread per core, first come first served within a lane, so the cores
//!    are not time-sliced between dozens of images and the JSON endpoints
//!    keep room to answer; still images have a lane (and a thread) of their
//!    own, so they never wait behind a client's animations.
//!
//! The engine owns the one job counter (read by `/metrics` at scrape time)
//! and reports avatar cache hits and misses, fetch outcomes, refused jobs
//! and output cache hits to the metrics registry, each from one place.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web;
use actix_web::web::Bytes;
use canvas_render::template::{Args, Template, TemplateKind, render_template_with};
use canvas_render::{Filter, PrideFlag, RgbaImage};
use moka::sync::Cache;
use remote_image::{Avatar, AvatarFetcher, AvatarUrl, FetchConfig, FetchError, ImageLimits};

use super::job_slots::{ExtraSlots, JobPermit, JobSlots, SlotLimits};
use super::render_pool::{Lane, RenderPool};
use super::templates::FileTemplate;
use crate::conditional;
use crate::config::Settings;
use crate::error::ApiError;
use crate::metrics::{FetchOutcome, Metrics};
use crate::ratelimit::ClientKey;

pub mod output;
pub mod preview;

use output::{Output, Plan, Requested};

/// What a valid `avatar` looks like (used in error messages).
pub const AVATAR_EXPECTED: &str =
    "an http(s) URL of a PNG, JPEG, GIF or WebP image, at most 2048 bytes long";

/// Seconds a client is told to wait when the canvas queue is full or its
/// deadline passed.
pub const RETRY_AFTER_SECS: u32 = 1;

/// Decode buffers that weigh one unit of a client's canvas job cap: a job
/// whose avatar was decoded weighs its decode cost in these (at least 1).
pub const DECODE_BYTES_PER_UNIT: u64 = 16 << 20;

/// One image to make.
#[derive(Debug, Clone)]
pub enum Job {
    /// A filter of the avatar.
    Filter(Filter),
    /// The avatar cropped to a circle.
    Circle,
    /// The avatar cropped to a heart.
    Heart,
    /// The avatar in a pride ring.
    Pride(PrideFlag),
    /// A template (an overlay, an animated image, a card, an operator's
    /// template) with its parameters.
    Template(TemplateRef, Args),
}

/// A template a job draws: a built-in, or an operator's template file.
#[derive(Clone)]
pub enum TemplateRef {
    /// A built-in template.
    Builtin(TemplateKind),
    /// An operator's template (`--templates`).
    File(Arc<FileTemplate>),
}

impl TemplateRef {
    /// The template.
    pub fn template(&self) -> &'static Template {
        match self {
            TemplateRef::Builtin(kind) => kind.template(),
            TemplateRef::File(t) => t.template,
        }
    }
}

impl From<TemplateKind> for TemplateRef {
    fn from(kind: TemplateKind) -> TemplateRef {
        TemplateRef::Builtin(kind)
    }
}

/// A built-in by its kind; a file template by its name and its files'
/// digest, the same on every replica and another after an edit: the output
/// cache key and the `ETag` (made from a job's `Debug` form) follow a
/// template file's edits.
impl std::fmt::Debug for TemplateRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateRef::Builtin(kind) => write!(f, "{kind:?}"),
            TemplateRef::File(t) => write!(f, "File({}#{:016x})", t.name, t.digest),
        }
    }
}

impl Job {
    /// Whether the job draws the avatar (every job but the templates that
    /// draw none: `nobitches`, `sage`, `sage2`).
    pub fn uses_avatar(&self) -> bool {
        match self {
            Job::Template(kind, _) => kind.template().uses_avatar(),
            _ => true,
        }
    }

    /// Whether the job's image moves even for a still avatar (`triggered`,
    /// `petpet`, `amongus`).
    pub fn is_animated(&self) -> bool {
        matches!(self, Job::Template(kind, _) if kind.template().is_animated())
    }

    /// The name of the second image the job draws (a welcome card's
    /// custom `bg`), if it takes one.
    pub fn image_source(&self) -> Option<&'static str> {
        match self {
            Job::Template(kind, _) => kind.template().image_source(),
            _ => None,
        }
    }

    fn render(
        &self,
        avatar: Option<&RgbaImage>,
        image: Option<&RgbaImage>,
    ) -> Result<RgbaImage, ApiError> {
        let need = || {
            avatar.ok_or(ApiError::MissingParam {
                name: "avatar",
                expected: AVATAR_EXPECTED,
            })
        };
        Ok(match self {
            Job::Filter(f) => canvas_render::apply(f, need()?)?,
            Job::Circle => canvas_render::circle(need()?)?,
            Job::Heart => canvas_render::heart(need()?)?,
            Job::Pride(flag) => canvas_render::pride(need()?, *flag)?,
            Job::Template(kind, args) => {
                let template = kind.template();
                let avatar = match template.uses_avatar() {
                    true => Some(need()?),
                    false => None,
                };
                render_template_with(template, args, avatar, image)?
            }
        })
    }
}

/// Encoded images by job (its `Debug` form, which holds every parameter)
/// and avatar content digest.
type OutputKey = (String, Option<u64>);
type OutputCache = Cache<OutputKey, Bytes>;

/// The avatar fetcher, the render threads, the cache of encoded images and
/// the bound on concurrent canvas jobs, built once from the settings.
pub struct CanvasEngine {
    fetcher: AvatarFetcher,
    pool: RenderPool,
    outputs: Option<OutputCache>,
    slots: Arc<JobSlots>,
    max_age: u64,
    metrics: Arc<Metrics>,
    animation_budget: Duration,
}

impl std::fmt::Debug for CanvasEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CanvasEngine")
            .field("fetcher", &self.fetcher)
            .field("pool", &self.pool)
            .field(
                "output_cache",
                &self.outputs.as_ref().map(|c| c.entry_count()),
            )
            .field("slots", &self.slots.limits())
            .finish_non_exhaustive()
    }
}

impl CanvasEngine {
    /// Builds the fetcher, render threads, output cache and job limit from
    /// the canvas settings; events are reported to `metrics`. Fails only if
    /// the render threads cannot start.
    pub fn new(settings: &Settings, metrics: Arc<Metrics>) -> std::io::Result<Self> {
        if settings.allow_private_avatars {
            tracing::warn!(
                "--allow-private-avatars is on: avatar URLs may reach loopback and private networks"
            );
        }
        let config = FetchConfig {
            allow_private: settings.allow_private_avatars,
            connect_timeout: Duration::from_millis(settings.avatar_connect_timeout_ms),
            overall_timeout: Duration::from_millis(settings.avatar_timeout_ms),
            max_bytes: settings.avatar_max_bytes,
            image: ImageLimits {
                max_side: settings.avatar_max_side,
                ..ImageLimits::default()
            },
            cache_bytes: settings.avatar_cache_mb.saturating_mul(1 << 20),
            cache_ttl: Duration::from_secs(settings.avatar_cache_ttl_secs.max(1)),
            decode_budget_bytes: settings.decode_budget_mb.saturating_mul(1 << 20),
            ..FetchConfig::default()
        };
        // The buffer store is the process's, as the server is.
        canvas_render::buffers::set_keep_bytes(
            usize::try_from(settings.buffer_keep_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        );
        let threads = settings.render_threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
        });
        let outputs = (settings.output_cache_mb > 0).then(|| {
            Cache::builder()
                .max_capacity(settings.output_cache_mb.saturating_mul(1 << 20))
                .time_to_live(Duration::from_secs(settings.avatar_cache_ttl_secs.max(1)))
                .weigher(|key: &OutputKey, png: &Bytes| {
                    u32::try_from(png.len() + key.0.len() + 64).unwrap_or(u32::MAX)
                })
                .build()
        });
        Ok(Self {
            fetcher: AvatarFetcher::new(config),
            pool: RenderPool::new(threads)?,
            outputs,
            slots: JobSlots::new(SlotLimits {
                max_jobs: settings.canvas_jobs,
                per_client: settings.canvas_jobs_per_client,
                queue_cap: settings.canvas_queue,
                deadline: Duration::from_millis(settings.canvas_queue_ms),
            }),
            max_age: settings.avatar_cache_ttl_secs,
            metrics,
            animation_budget: Duration::from_millis(settings.animation_render_ms),
        })
    }

    /// Checks an `avatar` parameter once; the result is what [`start`]
    /// takes.
    ///
    /// [`start`]: CanvasEngine::start
    pub fn parse_avatar(&self, url: &str) -> Result<AvatarUrl, FetchError> {
        self.fetcher.parse_url(url)
    }

    /// Seconds an image may be cached (the avatar cache's TTL).
    pub fn max_age(&self) -> u64 {
        self.max_age
    }

    /// Canvas jobs running now: the one job counter.
    pub fn running_jobs(&self) -> usize {
        self.slots.running()
    }

    /// Canvas jobs waiting for a slot now.
    pub fn queued_jobs(&self) -> usize {
        self.slots.queued()
    }

    /// Encoded images in the output cache (0 when it is off), after its
    /// pending bookkeeping has run.
    pub fn cached_outputs(&self) -> u64 {
        self.output_cache_size().1
    }

    /// The output cache's weight in bytes and its entry count (both 0 when
    /// it is off), after its pending bookkeeping has run.
    pub fn output_cache_size(&self) -> (u64, u64) {
        self.outputs.as_ref().map_or((0, 0), |c| {
            c.run_pending_tasks();
            (c.weighted_size(), c.entry_count())
        })
    }

    /// The avatar cache's weight in bytes and its entry count.
    pub fn avatar_cache_size(&self) -> (u64, u64) {
        (self.fetcher.cached_bytes(), self.fetcher.cached_entries())
    }

    /// Takes a job slot for `client` (waiting fairly, up to the queue
    /// deadline) and gets the avatar (when `avatar` is given): the first
    /// two steps of a job; then chooses the output for `format` and takes
    /// the extra slots an animated job holds (waiting for them, first come
    /// first served, within the same deadline, when its source frames are
    /// small: [`Plan::may_wait_for_slots`]). `Busy` when the queue is full
    /// or the deadline passed, or when a job holding a large animation
    /// finds its extra slots taken.
    pub async fn start(
        self: &Arc<Self>,
        client: ClientKey,
        job: Job,
        avatar: Option<AvatarUrl>,
        format: Requested,
    ) -> Result<Ticket, ApiError> {
        self.start_with_image(client, job, avatar, None, format)
            .await
    }

    /// [`start`](CanvasEngine::start) for a job that also draws a second
    /// image (`image`: its parameter's name and URL, a welcome card's
    /// `bg`, a two-avatar meme's `avatar2`). The image comes through the
    /// same fetcher as the avatar (SSRF rules, size and pixel caps, caches,
    /// decode gate and budget), and costs as much: the job weighs the sum
    /// of both images' weights (each its decode weight when this job
    /// decoded it, else 1) and holds one job slot per image at least.
    ///
    /// The two pictures are fetched concurrently: once the job has its
    /// slot, when the cache lacks the image and a second slot is free at
    /// once, the image's body is fetched on the blocking pool alongside
    /// the avatar's fetch, holding that slot (the body is at most the
    /// fetcher's byte cap); it is decoded only after the charge below,
    /// through the decode gate. Without a free slot the image is fetched
    /// after the charge, as it is decoded. Either way its slots are taken
    /// before it is decoded: one for it, and one per started 1 Mi pixels of
    /// the avatar's frames, so a job never holds a decoded image beyond its
    /// slots (a job holding a large animation does not wait for them: it is
    /// `Busy` at once, having decoded nothing more; a body fetched early is
    /// dropped, its slot held until its fetch ends). Errors name the
    /// parameter, the avatar's first: when both pictures fail, the answer
    /// names `avatar`. Once both are
    /// in, an animated card keeps what it holds within half the pool: the
    /// image's frames, then the avatar's, merged by time
    /// ([`output::fit_two_images`]), and its slots cover both images and
    /// its rendered frames to the byte.
    pub async fn start_with_image(
        self: &Arc<Self>,
        client: ClientKey,
        job: Job,
        avatar: Option<AvatarUrl>,
        image: Option<(&'static str, AvatarUrl)>,
        format: Requested,
    ) -> Result<Ticket, ApiError> {
        // The queue deadline covers the wait for a job slot and the wait
        // for a turn at the decode gate together.
        let queue_end = Instant::now() + self.slots.limits().deadline;
        let Ok(permit) = self.slots.acquire(client).await else {
            self.metrics.job_rejected();
            return Err(ApiError::Busy {
                retry_after: RETRY_AFTER_SECS,
            });
        };
        let permit = Slot {
            permit,
            engine: Arc::clone(self),
        };
        // The second image's body is fetched from now on, alongside the
        // avatar, when the cache lacks it and a slot for it is free.
        let image = image.map(|(param, url)| {
            let early = self.fetch_body_early(&url);
            (param, url, early)
        });
        let (mut permit, avatar, avatar_weight) = match avatar {
            Some(url) => {
                let (permit, avatar, weight) = permit.avatar(url, queue_end).await?;
                (permit, Some(avatar), weight)
            }
            None => (permit, None, None),
        };
        // A PNG answer is still whatever the images are: it keeps only the
        // avatar's first frame (the other frames stay in the avatar cache
        // and its bound, not in the job).
        let avatar = avatar.map(|mut a| {
            if format == Requested::Png {
                a.animation = None;
            }
            a
        });
        // What the job holds beyond its first slot.
        let mut extra: Option<ExtraSlots> = None;
        let mut held = 1;
        let image = match image {
            Some((param, url, early)) => {
                // Before the second image is decoded (and, when it was not
                // fetched early, before it is fetched), the job is charged
                // for what it holds and will hold: the avatar's decode
                // weight against the client's cap, and a slot per started
                // 1 Mi pixels of the avatar's frames plus one for the
                // image's body and pixels (the early fetch's, when it has
                // one). Refused here (503), it has decoded nothing of the
                // image, and an early fetch keeps its slot until it ends.
                if let Some(weight) = avatar_weight {
                    permit.permit.weigh(weight);
                }
                let want = (avatar.as_ref().map_or(1, output::source_slots) + 1)
                    .min(self.slots.limits().max_jobs / 2)
                    .max(1);
                let small = avatar.as_ref().is_none_or(|a| output::source_slots(a) <= 1);
                let have = if early.is_some() { 2 } else { 1 };
                if want > have {
                    extra = Some(self.more_slots(want - have, have, small, queue_end).await?);
                }
                held = want.max(have);
                let body = match early {
                    Some(early) => {
                        let (slot, body) = early.await.map_err(|_| ApiError::JobFailed)?;
                        match &mut extra {
                            Some(e) => e.absorb(slot),
                            None => extra = Some(slot),
                        }
                        Some(body)
                    }
                    None => None,
                };
                let (mut permit_back, image, weight) = permit
                    .load(url, body, queue_end)
                    .await
                    .map_err(|e| match e {
                        ApiError::Avatar(source) => ApiError::Image { param, source },
                        other => other,
                    })?;
                // Two images cost two: each its decode weight, or 1.
                permit_back.permit.weigh(
                    avatar_weight
                        .unwrap_or(1)
                        .saturating_add(weight.unwrap_or(1)),
                );
                permit = permit_back;
                Some(image)
            }
            None => {
                if let Some(weight) = avatar_weight {
                    permit.permit.weigh(weight);
                }
                None
            }
        };
        let output = Output::choose_with(format, &job, avatar.as_ref(), image.as_ref());
        let max_jobs = self.slots.limits().max_jobs;
        // An animated card of two images keeps what both hold within half
        // the pool: past it, the `bg`'s frames (then the avatar's) are
        // merged by time, so the card still answers within its slots.
        let (avatar, image) = match image {
            Some(i) if matches!(output, Output::Gif | Output::AnimatedWebP(_)) => {
                let (a, i) = output::fit_two_images(avatar, i, max_jobs);
                (a, Some(i))
            }
            other => (avatar, other),
        };
        let plan = Plan::with_image(&job, avatar.as_ref(), image.as_ref(), output, max_jobs);
        if plan.over_the_pool() {
            // Only with a pool too small for one frame of each image.
            let held = avatar.as_ref().map_or(0, output::held_pixels)
                + image.as_ref().map_or(0, output::held_pixels);
            return Err(ApiError::Image {
                param: job.image_source().unwrap_or("bg"),
                source: FetchError::AnimationTooLarge {
                    pixels: held,
                    max: output::two_image_budget(max_jobs),
                },
            });
        }
        // A still answer keeps only the first frame: an animation's other
        // frames stay in the avatar cache (and its bound), not in the job.
        let still = |mut a: Avatar| {
            if !plan.animated() {
                a.animation = None;
            }
            a
        };
        let avatar = avatar.map(still);
        let image = image.map(still);
        // The slots the plan needs beyond those held: waited for (first
        // come first served, within the deadline) only when every image
        // the job holds is within the slots it holds already, else taken
        // at once or refused.
        let more = plan.slots().saturating_sub(held);
        if more > 0 {
            let may_wait = match &image {
                Some(i) => output::source_slots(i) <= 1,
                None => plan.may_wait_for_slots(),
            };
            let slots = self.more_slots(more, held, may_wait, queue_end).await?;
            match &mut extra {
                Some(e) => e.absorb(slots),
                None => extra = Some(slots),
            }
        }
        let job_key = match &image {
            Some(i) => format!("{job:?} over {:x}", i.digest),
            None => format!("{job:?}"),
        };
        let key = (output.key(job_key), avatar.as_ref().map(|a| a.digest));
        let etag = image_tag(&key);
        Ok(Ticket {
            permit,
            extra,
            job,
            avatar,
            image,
            key,
            etag,
            output,
            plan,
            queue_end,
        })
    }

    /// `count` more job slots for a job holding `held`: waited for (first
    /// come first served, until `queue_end`) when `may_wait`, else taken at
    /// once; `Busy` when they cannot be had.
    async fn more_slots(
        &self,
        count: usize,
        held: usize,
        may_wait: bool,
        queue_end: Instant,
    ) -> Result<ExtraSlots, ApiError> {
        let slots = if may_wait {
            self.slots
                .acquire_extra_holding(count, held, queue_end)
                .await
                .ok()
        } else {
            self.slots.try_acquire_extra(count)
        };
        slots.ok_or_else(|| {
            self.metrics.job_rejected();
            ApiError::Busy {
                retry_after: RETRY_AFTER_SECS,
            }
        })
    }

    /// Starts fetching a second image's body on the blocking pool, when the
    /// avatar cache lacks it and one job slot is free for it now (the
    /// image's: it covers the body, at most the fetcher's byte cap, and
    /// moves with the fetch, so a fetch that outlives its job, or its
    /// client, still holds it until it ends). `None` otherwise: the image
    /// is then fetched where it is decoded. The body is fetched under every
    /// network rule of the fetcher and decoded by [`Slot::load`].
    fn fetch_body_early(self: &Arc<Self>, url: &AvatarUrl) -> Option<EarlyBody> {
        if self.fetcher.cached(url).is_some() {
            return None;
        }
        let slot = self.slots.try_acquire_extra(1)?;
        let (engine, url) = (Arc::clone(self), url.clone());
        Some(tokio::task::spawn_blocking(move || {
            (slot, engine.fetcher.fetch_body(&url))
        }))
    }

    /// Gets an avatar through the fetcher's cache on the calling (blocking)
    /// thread, reporting the miss and the fetch outcome when this call went
    /// to the network (or decoded `body`, a body fetched early: its failure
    /// is this fetch's outcome), and a hit otherwise. A decode still
    /// waiting for its turn at `queue_end` gives up
    /// ([`FetchError::DecodeQueueTimeout`], reported as a refused job, not
    /// as a fetch outcome).
    fn fetch_avatar(
        &self,
        url: &AvatarUrl,
        body: Option<Result<Vec<u8>, FetchError>>,
        queue_end: Instant,
    ) -> (Result<Avatar, FetchError>, bool) {
        let (result, fetched) = match body {
            Some(body) => self.fetcher.fetch_traced_from(url, body, Some(queue_end)),
            None => self.fetcher.fetch_traced_until(url, Some(queue_end)),
        };
        if matches!(result, Err(FetchError::DecodeQueueTimeout)) {
            self.metrics.job_rejected();
        } else if fetched {
            self.metrics.avatar_cache_miss();
            self.metrics.record_fetch(FetchOutcome::of(&result));
        } else if result.is_ok() {
            self.metrics.avatar_cache_hit();
        }
        (result, fetched)
    }
}

/// The strong entity tag of an image: its output key (the job's `Debug`
/// form, which holds every parameter, and the avatar's content digest) and
/// the server version (stable for a given build).
fn image_tag((job, avatar_digest): &OutputKey) -> String {
    conditional::strong_tag_of(&(env!("CARGO_PKG_VERSION"), job, avatar_digest))
}

/// A canvas job's slot and the engine it runs on. It moves with the job
/// into each blocking step, so it is given back when the last step ends,
/// even if the client has gone.
struct Slot {
    permit: JobPermit,
    engine: Arc<CanvasEngine>,
}

impl Slot {
    /// The avatar of a job: from the cache without leaving the async worker
    /// (a hit), or fetched on the blocking pool. The slot travels with the
    /// fetch and comes back with its result, so a fetch that outlives its
    /// client keeps its slot; an avatar this job decoded weighs the job by
    /// its decode cost. A decode that has not had its turn by `queue_end`
    /// is a 503 like a job that found no slot. Gives the weight the image
    /// adds when this job decoded it (the caller weighs the job).
    async fn avatar(
        self,
        url: AvatarUrl,
        queue_end: Instant,
    ) -> Result<(Slot, Avatar, Option<u32>), ApiError> {
        self.load(url, None, queue_end).await
    }

    /// [`avatar`](Slot::avatar), decoding `body` when it is given (a body
    /// fetched early, [`CanvasEngine::fetch_body_early`]) instead of
    /// fetching; a cached image is taken as it is and `body` dropped.
    async fn load(
        self,
        url: AvatarUrl,
        body: Option<Result<Vec<u8>, FetchError>>,
        queue_end: Instant,
    ) -> Result<(Slot, Avatar, Option<u32>), ApiError> {
        if let Some(avatar) = self.engine.fetcher.cached(&url) {
            self.engine.metrics.avatar_cache_hit();
            return Ok((self, avatar, None));
        }
        let (slot, avatar) = web::block(move || {
            let avatar = self.engine.fetch_avatar(&url, body, queue_end);
            (self, avatar)
        })
        .await
        .map_err(|_| ApiError::JobFailed)?;
        let (avatar, decoded) = avatar;
        let avatar = match avatar {
            Err(FetchError::DecodeQueueTimeout) => {
                return Err(ApiError::Busy {
                    retry_after: RETRY_AFTER_SECS,
                });
            }
            other => other?,
        };
        let weight = decoded.then(|| decode_weight(avatar.decode_cost));
        Ok((slot, avatar, weight))
    }
}

/// A second image's body being fetched early, with the job slot it holds.
type EarlyBody = tokio::task::JoinHandle<(ExtraSlots, Result<Vec<u8>, FetchError>)>;

/// The weight of a job whose avatar it decoded: one unit per
/// [`DECODE_BYTES_PER_UNIT`] of decode buffers, at least 1.
fn decode_weight(decode_cost: u64) -> u32 {
    u32::try_from(decode_cost / DECODE_BYTES_PER_UNIT)
        .unwrap_or(u32::MAX)
        .max(1)
}

/// A started job: its slot, its avatar and the tag of the image it makes.
pub struct Ticket {
    permit: Slot,
    extra: Option<ExtraSlots>,
    job: Job,
    avatar: Option<Avatar>,
    image: Option<Avatar>,
    key: OutputKey,
    etag: String,
    output: Output,
    plan: Plan,
    /// The end of the job's queue deadline: a render still waiting for a
    /// render thread then is given up.
    queue_end: Instant,
}

impl std::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ticket")
            .field("job", &self.job)
            .field("etag", &self.etag)
            .finish_non_exhaustive()
    }
}

impl Ticket {
    /// The image's strong entity tag: the job, the avatar's content digest
    /// and the server version (stable for a given build).
    pub fn etag(&self) -> &str {
        &self.etag
    }

    /// The `Content-Type` of the image.
    pub fn content_type(&self) -> &'static str {
        self.output.content_type()
    }

    /// The encoded image from the output cache, if it holds it (a hit is
    /// reported to the metrics).
    pub fn cached_image(&self) -> Option<Bytes> {
        let engine = &self.permit.engine;
        let png = engine.outputs.as_ref()?.get(&self.key)?;
        engine.metrics.output_cache_hit();
        Some(png)
    }

    /// Renders and encodes the image on the render pool and keeps it in
    /// the output cache; the job slot is given back when the render ends.
    /// A job whose queue deadline passed while it waited for a render
    /// thread is not rendered: it is `Busy`, like one that found no slot,
    /// so no request waits past the deadline in any queue.
    pub async fn render(self) -> Result<Bytes, ApiError> {
        let Ticket {
            permit,
            extra,
            job,
            avatar,
            image,
            key,
            output,
            plan,
            queue_end,
            ..
        } = self;
        let engine = Arc::clone(&permit.engine);
        let budget = engine.animation_budget;
        let cached = engine.outputs.is_some();
        // Still images and animations wait in lanes of their own, so a
        // still image never waits behind an animation (see `render_pool`).
        let lane = if plan.animated() {
            Lane::Animation
        } else {
            Lane::Still
        };
        let png = engine
            .pool
            .run_in(lane, move || -> Result<Bytes, ApiError> {
                if Instant::now() >= queue_end {
                    permit.engine.metrics.job_rejected();
                    return Err(ApiError::Busy {
                        retry_after: RETRY_AFTER_SECS,
                    });
                }
                let _permit = (permit, extra);
                let encoded =
                    output::render(&job, avatar.as_ref(), image.as_ref(), output, &plan, budget)?;
                Ok(body(encoded, cached))
            })
            .await
            .map_err(|_| ApiError::JobFailed)??;
        if let Some(cache) = &engine.outputs {
            cache.insert(key, png.clone());
        }
        Ok(png)
    }
}

/// The encoded image as an answer body. Its buffer may be far larger than
/// the image (the PNG path writes into a reused one), and the output cache
/// weighs entries by length: so for the cache the bytes are copied out and
/// the buffer goes back to `canvas_render::buffers` at once; without a
/// cache the buffer itself is sent and goes back once the answer is written.
fn body(encoded: Vec<u8>, cached: bool) -> Bytes {
    if cached {
        let bytes = Bytes::copy_from_slice(&encoded);
        canvas_render::buffers::recycle(encoded);
        bytes
    } else {
        Bytes::from_owner(Recycled(encoded))
    }
}

/// A body buffer given back to `canvas_render::buffers` when dropped.
struct Recycled(Vec<u8>);

impl AsRef<[u8]> for Recycled {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for Recycled {
    fn drop(&mut self) {
        canvas_render::buffers::recycle(std::mem::take(&mut self.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn etag(job: &Job, avatar_digest: Option<u64>) -> String {
        image_tag(&(format!("{job:?}"), avatar_digest))
    }

    /// A job that got its slot but waited for a render thread past its
    /// queue deadline is given up (`Busy`), not rendered late; one whose
    /// deadline holds is rendered.
    #[actix_rt::test]
    async fn a_render_waiting_past_the_queue_deadline_is_busy() {
        let mut settings = Settings::for_tests("unused");
        settings.render_threads = Some(1);
        settings.canvas_queue_ms = 100;
        let metrics = Arc::new(Metrics::default());
        let engine = Arc::new(CanvasEngine::new(&settings, Arc::clone(&metrics)).unwrap());
        let client = ClientKey::Ip(std::net::Ipv4Addr::LOCALHOST.into());
        let start = || engine.start(client.clone(), Job::Circle, None, Requested::Png);

        // The render thread and the still lane's own are busy for longer
        // than the deadline.
        let busy: Vec<_> = (0..2)
            .map(|_| {
                let pool = engine.pool.clone();
                actix_rt::spawn(async move {
                    pool.run_in(Lane::Still, || {
                        std::thread::sleep(Duration::from_millis(400));
                    })
                    .await
                })
            })
            .collect();
        actix_rt::time::sleep(Duration::from_millis(20)).await;
        let late = start().await.unwrap().render().await;
        assert!(
            matches!(late, Err(ApiError::Busy { retry_after: 1 })),
            "{late:?}"
        );
        for b in busy {
            b.await.unwrap().unwrap();
        }

        // With the thread free, the same job is rendered (and, having no
        // avatar, refused for that).
        let on_time = start().await.unwrap().render().await;
        assert!(
            matches!(on_time, Err(ApiError::MissingParam { name: "avatar", .. })),
            "{on_time:?}"
        );
    }

    /// A burst of animations larger than the pool: the one whose extra
    /// slots are taken waits for them (first come first served) instead of
    /// a 503 at once, and gets them when a running one ends.
    #[actix_rt::test]
    async fn an_animation_waits_for_its_extra_slots() {
        use canvas_render::template::TemplateKind;
        let mut settings = Settings::for_tests("unused");
        settings.canvas_jobs = 4;
        let metrics = Arc::new(Metrics::default());
        let engine = Arc::new(CanvasEngine::new(&settings, Arc::clone(&metrics)).unwrap());
        let triggered = Job::Template(
            TemplateKind::Triggered.into(),
            TemplateKind::Triggered.sample_args(),
        );
        let start = |c: u8| {
            let (engine, job) = (Arc::clone(&engine), triggered.clone());
            async move {
                let client = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, c).into());
                engine.start(client, job, None, Requested::Auto).await
            }
        };
        // 12 frames of 512²: more than two slots' pixels, so half the pool.
        let first = start(1).await.unwrap();
        assert_eq!(first.plan.slots(), 2);
        let client = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 9).into());
        let still = engine
            .start(client, Job::Circle, None, Requested::Png)
            .await
            .unwrap();
        assert_eq!(engine.slots.running(), 3);
        // The second animation gets its first slot, and waits for the other.
        let second = actix_rt::spawn(start(2));
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            (engine.slots.running(), engine.slots.waiting_for_extra()),
            (4, 1)
        );
        drop(still);
        let second = second.await.unwrap();
        assert!(second.is_ok(), "{:?}", second.err());
        assert_eq!(
            (engine.slots.running(), engine.slots.waiting_for_extra()),
            (4, 0)
        );
        drop((first, second));
        assert_eq!(engine.slots.running(), 0);
    }

    fn welcome_on(engine: &Arc<CanvasEngine>) -> Job {
        let _ = engine;
        let kind = crate::catalogue::template(crate::catalogue::PREMIUM_WELCOME, "1").unwrap();
        let args = kind.template().args(|_| None).unwrap();
        Job::Template(kind.into(), args)
    }

    /// The two-image welcome flood at a small scale: custom-background
    /// cards whose avatar is an animation of more than a slot's pixels and
    /// whose `bg` is a fresh animation, from three clients at once, while
    /// the pool has one slot free. Each job gets its avatar, finds no slots
    /// for it and the background, and is refused before the background is
    /// fetched or decoded (no job holds two images it has no slots for);
    /// every slot comes back. With the slots free, the job holds a slot per
    /// image and per started 1 Mi pixels of the avatar while the background
    /// is fetched, and the plan's slots in the end.
    #[actix_rt::test]
    async fn a_second_image_is_fetched_only_with_its_slots_held() {
        let host = fixture_host::FixtureHost::start();
        let mut settings = Settings::for_tests("unused");
        settings.canvas_jobs = 8;
        settings.canvas_queue_ms = 30_000;
        settings.allow_private_avatars = true;
        let metrics = Arc::new(Metrics::default());
        let engine = Arc::new(CanvasEngine::new(&settings, Arc::clone(&metrics)).unwrap());
        // 6 frames of 420²: 1.01 Mi pixels, two slots' worth.
        let avatar = |n: u32| host.url(&format!("/anim/420x420x6.gif?a={n}"));
        let bg = |n: u32| host.url(&format!("/anim/256x256x2.gif?b={n}"));
        let start = |c: u8, n: u32| {
            let engine = Arc::clone(&engine);
            let job = welcome_on(&engine);
            let (a, b) = (avatar(n), bg(n));
            async move {
                let client = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, c).into());
                let a = engine.parse_avatar(&a).unwrap();
                let b = engine.parse_avatar(&b).unwrap();
                engine
                    .start_with_image(client, job, Some(a), Some(("bg", b)), Requested::Auto)
                    .await
            }
        };
        // Seven of the eight slots are held by another client's jobs.
        let other = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 9).into());
        let held = engine.slots.acquire(other).await.unwrap();
        let held_extra = engine.slots.try_acquire_extra(6).unwrap();
        assert_eq!(engine.slots.running(), 7);

        let mut flood = Vec::new();
        for n in 0..12u32 {
            flood.push(actix_rt::spawn(start(1 + (n % 3) as u8, n)));
        }
        for job in flood {
            let refused = job.await.unwrap();
            assert!(
                matches!(refused, Err(ApiError::Busy { retry_after: 1 })),
                "{refused:?}"
            );
        }
        assert!(host.hits("/anim/420x420x6.gif") >= 1);
        assert_eq!(
            host.hits("/anim/256x256x2.gif"),
            0,
            "no background was fetched for a job refused its slots"
        );
        assert_eq!(
            engine.slots.running(),
            7,
            "every refused job gave its slots back"
        );

        // With the slots free, the card runs: while the background is
        // fetched the job holds the avatar's two slots and one for the
        // background; in the end the plan's slots.
        drop((held, held_extra));
        assert_eq!(engine.slots.running(), 0);
        let ticket = start(1, 100).await.unwrap();
        assert_eq!(host.hits("/anim/256x256x2.gif"), 1);
        let holds = 1 + ticket.extra.as_ref().map_or(0, ExtraSlots::count);
        assert_eq!(holds, ticket.plan.slots().max(3));
        assert_eq!(engine.slots.running(), holds);
        drop(ticket);
        assert_eq!(engine.slots.running(), 0);
    }

    /// A card whose avatar and `bg` are both animations too large to hold
    /// together in half the pool (4 slots of 8 here, 4 Mi pixels): the
    /// `bg` and then the avatar are merged by time, so the slots the job
    /// holds cover every byte it holds (both images, stills and frames,
    /// and every rendered frame at 4 bytes a pixel), and the card answers.
    #[actix_rt::test]
    async fn two_animations_past_half_the_pool_are_held_within_their_slots() {
        let host = fixture_host::FixtureHost::start();
        let mut settings = Settings::for_tests("unused");
        settings.canvas_jobs = 8;
        settings.allow_private_avatars = true;
        // Room for a debug build's decode and encode on a busy machine.
        settings.animation_render_ms = 120_000;
        settings.canvas_queue_ms = 120_000;
        let engine = Arc::new(CanvasEngine::new(&settings, Arc::new(Metrics::default())).unwrap());
        let client = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 1).into());
        // 12 frames of 512² (3 Mi pixels) and 3 of 1024² (3 Mi, and its
        // 1 Mi still): 7.25 Mi pixels, 29 MiB, against 4 slots' 32 MiB
        // that must hold the rendered frames too.
        let a = engine
            .parse_avatar(&host.url("/anim/512x512x12.gif"))
            .unwrap();
        let b = engine
            .parse_avatar(&host.url("/anim/1024x1024x3.gif"))
            .unwrap();
        for format in [
            Requested::Auto,
            Requested::WebP(canvas_render::WebpQuality::DEFAULT),
        ] {
            let ticket = engine
                .start_with_image(
                    client.clone(),
                    welcome_on(&engine),
                    Some(a.clone()),
                    Some(("bg", b.clone())),
                    format,
                )
                .await
                .unwrap();
            let holds = 1 + ticket.extra.as_ref().map_or(0, ExtraSlots::count);
            assert!(holds <= 4, "at most half the pool");
            assert_eq!(engine.slots.running(), holds);
            let (avatar, image) = (
                ticket.avatar.as_ref().unwrap(),
                ticket.image.as_ref().unwrap(),
            );
            let bytes = 4
                * (output::held_pixels(avatar)
                    + output::held_pixels(image)
                    + ticket.plan.rendered_pixels());
            assert!(
                holds as u64 * (8 << 20) >= bytes,
                "{holds} slots for {bytes} bytes"
            );
            // The backdrop went to one frame, the avatar to what fits.
            assert_eq!(image.animation.as_ref().unwrap().frames.len(), 1);
            let frames = avatar.animation.as_ref().unwrap().frames.len();
            assert!((1..12).contains(&frames), "{frames}");
            assert!(ticket.plan.animated());
            let answer = ticket.render().await.unwrap();
            let magic: &[u8] = if matches!(format, Requested::WebP(_)) {
                b"RIFF"
            } else {
                b"GIF89a"
            };
            assert!(answer.starts_with(magic));
            assert_eq!(engine.slots.running(), 0, "every slot given back");
        }
    }

    /// A still avatar's card waits (within the queue deadline) for the
    /// background's slot before fetching it, and is refused without having
    /// fetched it when none frees up.
    #[actix_rt::test]
    async fn a_still_avatars_card_waits_for_the_backgrounds_slot() {
        let host = fixture_host::FixtureHost::start();
        let mut settings = Settings::for_tests("unused");
        settings.canvas_jobs = 4;
        settings.canvas_queue_ms = 200;
        settings.allow_private_avatars = true;
        let engine = Arc::new(CanvasEngine::new(&settings, Arc::new(Metrics::default())).unwrap());
        let other = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 9).into());
        let held = engine.slots.acquire(other).await.unwrap();
        let held_extra = engine.slots.try_acquire_extra(2).unwrap();
        let client = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 1).into());
        let a = engine.parse_avatar(&host.url("/ok.png")).unwrap();
        let b = engine.parse_avatar(&host.url("/avatar512.png")).unwrap();
        let refused = engine
            .start_with_image(
                client.clone(),
                welcome_on(&engine),
                Some(a.clone()),
                Some(("bg", b.clone())),
                Requested::Png,
            )
            .await;
        assert!(matches!(refused, Err(ApiError::Busy { .. })), "{refused:?}");
        assert_eq!(host.hits("/avatar512.png"), 0);
        assert_eq!(engine.slots.running(), 3);
        drop((held, held_extra));
        let ticket = engine
            .start_with_image(
                client,
                welcome_on(&engine),
                Some(a),
                Some(("bg", b)),
                Requested::Png,
            )
            .await
            .unwrap();
        assert_eq!(host.hits("/avatar512.png"), 1);
        assert_eq!(engine.slots.running(), 2);
        drop(ticket);
    }

    /// An engine whose fetcher refuses private addresses (the production
    /// default) but trusts `trusted`, as an operator's internal image host
    /// would be: the loopback fixture host serving the good picture.
    fn strict_engine(trusted: std::net::IpAddr, jobs: usize) -> Arc<CanvasEngine> {
        let mut settings = Settings::for_tests("unused");
        settings.canvas_jobs = jobs;
        assert!(!settings.allow_private_avatars);
        let mut engine = CanvasEngine::new(&settings, Arc::new(Metrics::default())).unwrap();
        engine.fetcher = AvatarFetcher::new(FetchConfig {
            allowed_addresses: vec![trusted],
            ..engine.fetcher.config().clone()
        });
        Arc::new(engine)
    }

    fn hug() -> Job {
        Job::Template(TemplateKind::Hug.into(), TemplateKind::Hug.sample_args())
    }

    /// Waits (a few seconds at most) until the engine's slots are back to
    /// `n`: a body fetched early gives its slot back when its fetch ends,
    /// which may be just after the job's answer.
    async fn until_running(engine: &CanvasEngine, n: usize) {
        for _ in 0..500 {
            if engine.slots.running() == n {
                return;
            }
            actix_rt::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(engine.slots.running(), n);
    }

    /// The second picture goes through the avatar's address guard: with
    /// private addresses refused, an `avatar2` (or `bg`) at a loopback or
    /// private address is a 400 naming it, and the address is never
    /// contacted, though the avatar came from the trusted host; when both
    /// are refused the answer names `avatar`, the first parameter.
    #[actix_rt::test]
    async fn a_private_second_picture_is_a_400_naming_it() {
        use actix_web::ResponseError;
        let trusted = fixture_host::FixtureHost::start();
        let internal = fixture_host::FixtureHost::start_on("127.0.0.2".parse().unwrap());
        let engine = strict_engine(trusted.addr().ip(), 8);
        let client = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 1).into());
        let good = engine.parse_avatar(&trusted.url("/ok.png")).unwrap();
        let start = |avatar: &AvatarUrl, job: Job, param: &'static str, image: &AvatarUrl| {
            engine.start_with_image(
                client.clone(),
                job,
                Some(avatar.clone()),
                Some((param, image.clone())),
                Requested::Png,
            )
        };
        for private in [
            internal.url("/ok.png"),
            "http://10.0.0.1/a.png".to_owned(),
            "http://[::1]/a.png".to_owned(),
        ] {
            let bad = engine.parse_avatar(&private).unwrap();
            for (job, param) in [(hug(), "avatar2"), (welcome_on(&engine), "bg")] {
                assert_eq!(job.image_source(), Some(param));
                let err = start(&good, job.clone(), param, &bad).await.unwrap_err();
                assert!(
                    matches!(
                        err,
                        ApiError::Image { param: p, source: FetchError::RefusedAddress } if p == param
                    ),
                    "{private}: {err:?}"
                );
                assert_eq!(err.status_code(), 400);
                let msg = err.to_string();
                assert!(msg.contains(param) && msg.contains("private"), "{msg}");
                // Both refused: the avatar is named.
                let err = start(&bad, job, param, &bad).await.unwrap_err();
                assert!(
                    matches!(err, ApiError::Avatar(FetchError::RefusedAddress)),
                    "{private}: {err:?}"
                );
                assert_eq!(err.status_code(), 400);
                assert!(!err.to_string().contains(param), "{err}");
            }
        }
        assert_eq!(internal.connections(), 0, "never contacted");
        // The trusted host served the avatar, and still does for both.
        let ticket = start(&good, hug(), "avatar2", &good).await.unwrap();
        assert!(ticket.image.is_some());
        assert_eq!(trusted.hits("/ok.png"), 1);
        drop(ticket);
        until_running(&engine, 0).await;
    }

    /// A pair meme whose avatar is an animation of two slots' pixels, with
    /// a slot free for `avatar2` at the start but none for the avatar's
    /// frames after: `avatar2` was fetched alongside the avatar, yet the
    /// job is refused (503) at the charge without decoding it (it is not
    /// in the cache), and its slot comes back when that fetch ends. With
    /// room, both are fetched at once and the job holds its slots.
    #[actix_rt::test]
    async fn a_job_refused_at_the_charge_decodes_no_early_body() {
        let host = fixture_host::FixtureHost::start();
        let engine = strict_engine(host.addr().ip(), 8);
        let other = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 9).into());
        let held = engine.slots.acquire(other).await.unwrap();
        let held_extra = engine.slots.try_acquire_extra(5).unwrap();
        let client = ClientKey::Ip(std::net::Ipv4Addr::new(10, 0, 0, 1).into());
        // 6 frames of 420²: 1.01 Mi pixels, two slots' worth.
        let a = engine
            .parse_avatar(&host.url("/anim/420x420x6.gif"))
            .unwrap();
        let b = engine.parse_avatar(&host.url("/delayed.png?300")).unwrap();
        let start = || {
            engine.start_with_image(
                client.clone(),
                hug(),
                Some(a.clone()),
                Some(("avatar2", b.clone())),
                Requested::Auto,
            )
        };
        let refused = start().await;
        assert!(matches!(refused, Err(ApiError::Busy { .. })), "{refused:?}");
        until_running(&engine, 6).await;
        assert_eq!(host.hits("/delayed.png"), 1, "fetched early");
        assert!(engine.fetcher.cached(&b).is_none(), "and never decoded");
        assert!(engine.fetcher.cached(&a).is_some());

        drop((held, held_extra));
        let ticket = start().await.unwrap();
        assert_eq!(host.hits("/delayed.png"), 2);
        assert!(engine.fetcher.cached(&b).is_some());
        let holds = 1 + ticket.extra.as_ref().map_or(0, ExtraSlots::count);
        assert_eq!(holds, ticket.plan.slots().max(3));
        assert_eq!(engine.slots.running(), holds);
        drop(ticket);
        assert_eq!(engine.slots.running(), 0);
    }

    #[test]
    fn etags_differ_by_job_and_avatar() {
        let a = etag(&Job::Filter(Filter::Sepia), Some(1));
        assert_eq!(a, etag(&Job::Filter(Filter::Sepia), Some(1)));
        assert_ne!(a, etag(&Job::Filter(Filter::Sepia), Some(2)));
        assert_ne!(a, etag(&Job::Filter(Filter::Invert), Some(1)));
        assert!(a.starts_with('"') && a.ends_with('"') && !a.starts_with("W/"));
    }
}
