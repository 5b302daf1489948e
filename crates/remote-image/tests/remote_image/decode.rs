//! Hostile headers, made by hand in the test: the refusal states the size the
//! image really declares.

use remote_image::{FetchError, ImageLimits, decode_image};

/// A PNG whose `IHDR` declares `width`×`height` (its CRC right), over the
/// data of a 1×1 image.
fn png_declaring(width: u32, height: u32) -> Vec<u8> {
    fixture_host::png_announcing(width, height)
}

/// A GIF89a with a logical screen of size `screen` (a 2-colour global
/// table), a graphic control extension, and one frame of size `frame` at
/// (`left`, `top`) with a token of image data.
fn gif_with_frame(screen: (u16, u16), left: u16, top: u16, frame: (u16, u16)) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&screen.0.to_le_bytes());
    out.extend_from_slice(&screen.1.to_le_bytes());
    out.extend_from_slice(&[0x80, 0, 0]); // global table of 2 colours
    out.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
    out.extend_from_slice(&[0x21, 0xf9, 4, 0, 0, 0, 0, 0]); // graphic control extension
    out.push(0x2c);
    for v in [left, top, frame.0, frame.1] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.push(0); // no local table
    out.extend_from_slice(&[2, 2, 0x4c, 0x01, 0]); // LZW size 2, one sub-block
    out.push(0x3b);
    out
}

fn limits() -> ImageLimits {
    ImageLimits::default()
}

#[test]
fn a_png_declaring_2147483647_squared_says_so() {
    let side = 2_147_483_647;
    let err = decode_image(&png_declaring(side, side), &limits()).unwrap_err();
    assert_eq!(
        err,
        FetchError::TooManyPixels {
            width: side,
            height: side,
            max_side: 4096
        }
    );
    assert_eq!(
        err.to_string(),
        "avatar is 2147483647x2147483647 pixels, more than the 4096x4096 allowed"
    );
}

#[test]
fn a_png_too_wide_or_too_tall_states_both_sides() {
    for (w, h) in [(4097, 1), (1, 70_000), (5000, 5000), (u32::MAX, 3)] {
        let err = decode_image(&png_declaring(w, h), &limits()).unwrap_err();
        assert_eq!(
            err,
            FetchError::TooManyPixels {
                width: w,
                height: h,
                max_side: 4096
            },
            "{w}x{h}"
        );
    }
}

#[test]
fn a_gif_with_a_small_screen_and_a_huge_frame_states_the_frame() {
    let err = decode_image(&gif_with_frame((1, 1), 0, 0, (65535, 65535)), &limits()).unwrap_err();
    assert_eq!(
        err,
        FetchError::TooManyPixels {
            width: 65535,
            height: 65535,
            max_side: 4096
        }
    );
    assert!(err.to_string().contains("65535x65535"), "{err}");
    // A frame placed far from the origin needs a canvas that large too.
    let err = decode_image(&gif_with_frame((10, 10), 5000, 2, (3, 4)), &limits()).unwrap_err();
    assert_eq!(
        err,
        FetchError::TooManyPixels {
            width: 5003,
            height: 10,
            max_side: 4096
        }
    );
    // A huge screen with a small frame is refused by the screen's size.
    let err = decode_image(&gif_with_frame((9000, 20), 0, 0, (1, 1)), &limits()).unwrap_err();
    assert_eq!(
        err,
        FetchError::TooManyPixels {
            width: 9000,
            height: 20,
            max_side: 4096
        }
    );
}

#[test]
fn small_hand_made_images_still_decode_or_fail_as_corrupt() {
    // Within the limits, the header check lets the decoder judge the data.
    let gif = decode_image(&gif_with_frame((2, 2), 0, 0, (2, 2)), &limits());
    assert!(
        matches!(gif, Ok(ref img) if img.dimensions() == (2, 2)) || gif == Err(FetchError::Corrupt),
        "{gif:?}"
    );
    let png = decode_image(&png_declaring(2, 2), &limits());
    assert_eq!(
        png.unwrap_err(),
        FetchError::Corrupt,
        "an empty IDAT is no image"
    );
}
