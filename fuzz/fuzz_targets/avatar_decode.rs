//! The avatar decode path of remote-image: format sniffing, the header
//! pixel cap and bounded decoding never panic, and never hand back an image
//! over the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use remote_image::{ImageLimits, decode_image, normalize, sniff_format};

fuzz_target!(|data: &[u8]| {
    let _ = sniff_format(data);
    let limits = ImageLimits {
        max_side: 512,
        normalize_side: 128,
        ..ImageLimits::default()
    };
    if let Ok(img) = decode_image(data, &limits) {
        assert!(img.width() <= limits.max_side && img.height() <= limits.max_side);
        let small = normalize(img, limits.normalize_side);
        assert!(small.width() <= limits.normalize_side && small.height() <= limits.normalize_side);
    }
});
