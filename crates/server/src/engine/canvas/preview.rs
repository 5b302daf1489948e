//! Previews: each image endpoint's answer to built-in sample inputs, drawn
//! with no fetch and kept for the process.
//!
//! The route builds the job from the endpoint's sample parameters (the same
//! parsing as the endpoint itself) and asks [`CanvasEngine::preview`]. The
//! avatar is canvas-render's [sample avatar](canvas_render::sample), and
//! the job goes through the one output path ([`output`]):
//! the format the endpoint answers by default (PNG, or GIF for an animated
//! template), its [`Plan`], its job slots and the render pool. Each
//! preview is rendered once per process and kept: the set is the
//! catalogue's image endpoints, a fixed list, and one per operator's
//! template name (an edited template's new preview replaces the old), so
//! the store is bounded and no request can make more than that amount of
//! work.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use actix_web::web::Bytes;
use remote_image::Avatar;

use super::output::{self, Output, Plan, Requested};
use super::{CanvasEngine, Job, RETRY_AFTER_SECS};
use crate::error::ApiError;

/// The least render time a preview is given.
const PREVIEW_BUDGET: std::time::Duration = std::time::Duration::from_secs(60);

/// The sample avatar as a decoded avatar (still, never fetched).
static SAMPLE: LazyLock<Avatar> = LazyLock::new(|| Avatar {
    image: Arc::new(canvas_render::sample::avatar()),
    digest: 0,
    animation: None,
    decode_cost: 0,
});

/// The second sample picture, for the images that draw two
/// ([`catalogue::SECOND_AVATAR`](crate::catalogue::SECOND_AVATAR)).
static SAMPLE2: LazyLock<Avatar> = LazyLock::new(|| Avatar {
    image: Arc::new(canvas_render::sample::avatar2()),
    digest: 0,
    animation: None,
    decode_cost: 0,
});

/// Rendered previews by preview path, for the process.
static RENDERED: LazyLock<Mutex<HashMap<String, (Bytes, &'static str)>>> =
    LazyLock::new(Mutex::default);

fn rendered(key: &str) -> Option<(Bytes, &'static str)> {
    RENDERED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(key)
        .cloned()
}

/// Forgets the previews whose key starts with `prefix` but is not `keep`:
/// the previews of an operator's template's earlier versions, so the store
/// holds one preview per template name.
pub fn forget_others(prefix: &str, keep: &str) {
    RENDERED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|k, _| k == keep || !k.starts_with(prefix));
}

/// Bytes and entries held by the previews rendered so far.
pub fn rendered_size() -> (usize, usize) {
    let store = RENDERED.lock().unwrap_or_else(PoisonError::into_inner);
    (store.values().map(|(b, _)| b.len()).sum(), store.len())
}

impl CanvasEngine {
    /// The preview stored under `key` (the preview's path): `job` over the
    /// sample avatar in the endpoint's default format, with its content
    /// type. Rendered on the render pool the first time, under the job
    /// slots its plan holds (503 when they are taken, like any image), then
    /// served from memory. A render queued behind another of the same
    /// preview finds it done and draws nothing.
    pub async fn preview(
        self: &Arc<Self>,
        key: String,
        job: Job,
    ) -> Result<(Bytes, &'static str), ApiError> {
        if let Some(done) = rendered(&key) {
            return Ok(done);
        }
        let avatar: &'static Avatar = &SAMPLE;
        // The two-avatar memes draw the second sample as their second
        // picture; a welcome card's optional `bg` stays empty.
        let image: Option<&'static Avatar> =
            (job.image_source() == Some(crate::catalogue::SECOND_AVATAR)).then_some(&*SAMPLE2);
        let format = Output::choose_with(Requested::Auto, &job, Some(avatar), image);
        let plan = Plan::with_image(
            &job,
            Some(avatar),
            image,
            format,
            self.slots.limits().max_jobs,
        );
        let Some(slots) = self.slots.try_acquire_extra(plan.slots()) else {
            self.metrics.job_rejected();
            return Err(ApiError::Busy {
                retry_after: RETRY_AFTER_SECS,
            });
        };
        // A preview is one fixed input drawn once per process: its cost is
        // known, so it is not held to the per-request budget (meant for
        // hostile avatars), which a slow machine could miss on amongus.
        let budget = self.animation_budget.max(PREVIEW_BUDGET);
        self.pool
            .run(move || -> Result<(Bytes, &'static str), ApiError> {
                let _slots = slots;
                if let Some(done) = rendered(&key) {
                    return Ok(done);
                }
                let encoded = output::render(&job, Some(avatar), image, format, &plan, budget)?;
                let done = (Bytes::copy_from_slice(&encoded), format.content_type());
                canvas_render::buffers::recycle(encoded);
                RENDERED
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key, done.clone());
                Ok(done)
            })
            .await
            .map_err(|_| ApiError::JobFailed)?
    }
}
