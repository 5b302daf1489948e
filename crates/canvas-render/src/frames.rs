//! What an animation is made of, below the encoders and [`crate::animation`]
//! (which re-exports it): the loop count, the errors, the render-time
//! budget, and the check that frames and delays describe one animation.

use std::time::{Duration, Instant};

use image::RgbaImage;

use crate::RenderError;

/// How many times an animation plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loops {
    /// Forever.
    Infinite,
    /// This many times in all (1 = play once).
    Times(u32),
}

/// Why an animation could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnimationError {
    /// Rendering a frame failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// Rendering and encoding every frame took longer than the budget.
    #[error(
        "the animation took longer than the {max_ms} ms allowed to render (render_time); use a shorter or smaller avatar"
    )]
    TimeLimit {
        /// The budget in milliseconds.
        max_ms: u64,
    },
    /// The frames and delays do not match (different sizes or counts, or
    /// no frame at all).
    #[error("invalid animation: {0}")]
    Invalid(&'static str),
}

/// The end of a render-time budget, checked between frames.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    end: Instant,
    budget: Duration,
}

impl Deadline {
    /// A deadline `budget` from now.
    pub fn after(budget: Duration) -> Self {
        Self {
            end: Instant::now() + budget,
            budget,
        }
    }

    /// `Err(TimeLimit)` once the deadline has passed.
    pub fn check(&self) -> Result<(), AnimationError> {
        if Instant::now() > self.end {
            Err(AnimationError::TimeLimit {
                max_ms: u64::try_from(self.budget.as_millis()).unwrap_or(u64::MAX),
            })
        } else {
            Ok(())
        }
    }
}

/// Checks that `frames` and `delays_ms` describe one animation: at least
/// one frame, one delay per frame, every frame of one size within the
/// crate's limits. Gives the size.
pub(crate) fn check_frames(
    frames: &[RgbaImage],
    delays_ms: &[u32],
) -> Result<(u32, u32), AnimationError> {
    let first = frames.first().ok_or(AnimationError::Invalid("no frames"))?;
    if frames.len() != delays_ms.len() {
        return Err(AnimationError::Invalid("one delay per frame is needed"));
    }
    let size = first.dimensions();
    if frames.iter().any(|f| f.dimensions() != size) {
        return Err(AnimationError::Invalid("frames differ in size"));
    }
    crate::limits::check_size(size.0, size.1)?;
    Ok(size)
}
