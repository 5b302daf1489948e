//! The animated decode path of remote-image: container walking (frame and
//! loop counts), the frame and pixel caps and frame compositing never
//! panic, and never hand back frames over the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use remote_image::{ImageLimits, animation_header, decode_avatar};

fuzz_target!(|data: &[u8]| {
    let _ = animation_header(data);
    let limits = ImageLimits {
        max_side: 512,
        normalize_side: 128,
        max_frames: 32,
        max_animation_pixels: 1 << 20,
    };
    if let Ok(decoded) = decode_avatar(data, &limits) {
        let fits = |w: u32, h: u32| w <= limits.normalize_side && h <= limits.normalize_side;
        assert!(fits(decoded.still.width(), decoded.still.height()));
        if let Some(anim) = decoded.animation {
            assert!(anim.frames.len() >= 2);
            assert!(anim.frames.len() <= limits.max_frames as usize);
            let size = anim.frames[0].image.dimensions();
            assert!(size.0 > 0 && size.1 > 0);
            for f in &anim.frames {
                assert_eq!(f.image.dimensions(), size);
                assert!(fits(size.0, size.1));
            }
        }
    }
});
