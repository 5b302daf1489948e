//! Animated images: a still operation applied to every frame under a time
//! budget, and the animated encoders ([`encode_gif`], [`encode_webp_animation`];
//! [`encode_gif_placed`] for one picture placed anew in each frame,
//! [`PlacedFrames`]; [`encode_gif_patched`] for a first frame and each
//! later frame's changed rectangle, [`PatchedFrames`]).
//!
//! ```
//! use std::time::Duration;
//! use canvas_render::{Filter, Loops, apply, animation::{Deadline, render_frames}, encode_gif, solid};
//!
//! let frames = [solid(8, 8, [200, 10, 10]).unwrap(), solid(8, 8, [10, 10, 200]).unwrap()];
//! let deadline = Deadline::after(Duration::from_secs(5));
//! let grey = render_frames(frames.iter(), &deadline, |f| apply(&Filter::Greyscale, f)).unwrap();
//! let gif = encode_gif(&grey, &[100, 100], Loops::Infinite, &deadline).unwrap();
//! assert_eq!(&gif[..6], b"GIF89a");
//! ```

use image::RgbaImage;

use crate::RenderError;

pub use crate::frames::{AnimationError, Deadline, Loops};
pub use crate::gif_encode::{encode_gif, encode_gif_patched, encode_gif_placed};
pub use crate::patched::{Patch, PatchedFrames};
pub use crate::placed::PlacedFrames;
pub use crate::webp_encode::{
    WebpAnimationWriter, WebpQuality, encode_webp, encode_webp_animation, encode_webp_at,
};

/// `render` applied to every frame, in order, stopping with
/// [`AnimationError::TimeLimit`] once `deadline` has passed.
pub fn render_frames<'a>(
    frames: impl Iterator<Item = &'a RgbaImage>,
    deadline: &Deadline,
    mut render: impl FnMut(&RgbaImage) -> Result<RgbaImage, RenderError>,
) -> Result<Vec<RgbaImage>, AnimationError> {
    let mut out = Vec::with_capacity(frames.size_hint().0);
    for frame in frames {
        deadline.check()?;
        out.push(render(frame)?);
    }
    deadline.check()?;
    Ok(out)
}
