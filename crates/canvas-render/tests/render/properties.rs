//! Filter invariants on random images (proptest).

use canvas_render::{Brightness, Filter, RenderError, RgbaImage, Threshold, apply, apply_in_place};
use proptest::prelude::*;

/// Random images up to 24 × 24 with random colour and alpha.
fn any_image() -> impl Strategy<Value = RgbaImage> {
    (1u32..24, 1u32..24).prop_flat_map(|(w, h)| {
        proptest::collection::vec(any::<u8>(), (w * h * 4) as usize)
            .prop_map(move |v| RgbaImage::from_raw(w, h, v).unwrap())
    })
}

/// Random opaque images.
fn any_opaque_image() -> impl Strategy<Value = RgbaImage> {
    any_image().prop_map(|mut img| {
        img.pixels_mut().for_each(|p| p.0[3] = 255);
        img
    })
}

/// Every filter, with random valid parameters.
fn any_filter() -> impl Strategy<Value = Filter> {
    prop_oneof![
        proptest::sample::select(Filter::ALL.to_vec()),
        (Brightness::MIN..=Brightness::MAX)
            .prop_map(|b| Filter::Brightness(Brightness::new(b).unwrap())),
        (Threshold::MIN..=Threshold::MAX)
            .prop_map(|t| Filter::Threshold(Threshold::new(t).unwrap())),
        any::<[u8; 3]>().prop_map(Filter::Color),
    ]
}

fn luma(p: [u8; 4]) -> u8 {
    canvas_render::apply(
        &Filter::Greyscale,
        &RgbaImage::from_raw(1, 1, p.to_vec()).unwrap(),
    )
    .unwrap()
    .get_pixel(0, 0)
    .0[0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn size_and_alpha_are_kept_and_in_place_agrees_except_pixelate_alpha(img in any_image(), filter in any_filter()) {
        let out = apply(&filter, &img).unwrap();
        prop_assert_eq!(out.dimensions(), img.dimensions());
        if filter != Filter::Pixelate {
            for (o, i) in out.pixels().zip(img.pixels()) {
                prop_assert_eq!(o.0[3], i.0[3], "{} changed alpha", filter);
            }
        }
        let mut copy = img.clone();
        apply_in_place(&filter, &mut copy).unwrap();
        prop_assert_eq!(copy, out);
    }

    #[test]
    fn invert_twice_is_identity(img in any_image()) {
        let twice = apply(&Filter::Invert, &apply(&Filter::Invert, &img).unwrap()).unwrap();
        prop_assert_eq!(twice, img);
    }

    #[test]
    fn grey_filters_are_grey(img in any_image()) {
        let grey = apply(&Filter::Greyscale, &img).unwrap();
        let inv = apply(&Filter::InvertGreyscale, &img).unwrap();
        let [red, green, blue] = [Filter::Red, Filter::Green, Filter::Blue].map(|f| apply(&f, &img).unwrap());
        for (i, g) in grey.pixels().enumerate() {
            let [r, gg, b, _] = g.0;
            prop_assert!(r == gg && gg == b);
            let x = (i as u32 % img.width(), i as u32 / img.width());
            prop_assert_eq!(&inv.get_pixel(x.0, x.1).0[..3], [255 - r; 3]);
            prop_assert_eq!(&red.get_pixel(x.0, x.1).0[..3], [r, 0, 0]);
            prop_assert_eq!(&green.get_pixel(x.0, x.1).0[..3], [0, r, 0]);
            prop_assert_eq!(&blue.get_pixel(x.0, x.1).0[..3], [0, 0, r]);
        }
    }

    #[test]
    fn threshold_gives_black_or_white_by_luma(img in any_image(), level in 0.0f32..=255.0) {
        let out = apply(&Filter::Threshold(Threshold::new(level).unwrap()), &img).unwrap();
        for (o, i) in out.pixels().zip(img.pixels()) {
            let want = if f32::from(luma(i.0)) >= level { 255 } else { 0 };
            prop_assert_eq!(&o.0[..3], [want; 3]);
        }
    }

    #[test]
    fn brightness_zero_is_identity_hundred_is_white_and_higher_is_brighter(img in any_image(), a in 0.0f32..=100.0, b in 0.0f32..=100.0) {
        let zero = apply(&Filter::Brightness(Brightness::new(0.0).unwrap()), &img).unwrap();
        prop_assert_eq!(&zero, &img);
        let white = apply(&Filter::Brightness(Brightness::new(100.0).unwrap()), &img).unwrap();
        for (w, i) in white.pixels().zip(img.pixels()) {
            prop_assert_eq!(w.0, [255, 255, 255, i.0[3]]);
        }
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let dim = apply(&Filter::Brightness(Brightness::new(lo).unwrap()), &img).unwrap();
        let bright = apply(&Filter::Brightness(Brightness::new(hi).unwrap()), &img).unwrap();
        for ((d, b), i) in dim.pixels().zip(bright.pixels()).zip(img.pixels()) {
            prop_assert!(d.0.iter().zip(b.0).all(|(x, y)| *x <= y));
            // Never darker than the input.
            prop_assert!(i.0.iter().zip(d.0).all(|(x, y)| *x <= y));
        }
    }

    #[test]
    fn white_tint_is_identity_and_black_tint_is_black(img in any_image()) {
        prop_assert_eq!(&apply(&Filter::Color([255; 3]), &img).unwrap(), &img);
        let black = apply(&Filter::Color([0; 3]), &img).unwrap();
        prop_assert!(black.pixels().all(|p| p.0[..3] == [0, 0, 0]));
    }

    #[test]
    fn blur_and_pixelate_keep_a_flat_colour(w in 1u32..40, h in 1u32..40, c in any::<[u8; 4]>()) {
        let img = RgbaImage::from_pixel(w, h, image::Rgba(c));
        for f in [Filter::Blur, Filter::Pixelate] {
            let out = apply(&f, &img).unwrap();
            for p in out.pixels() {
                prop_assert_eq!(p.0[3], c[3]);
                if let Some(steps) = 255u8.checked_div(c[3]) {
                    // Alpha weighting may round a faint pixel's colour by one step per 1/alpha.
                    let slack = steps.max(1);
                    for ch in 0..3 {
                        prop_assert!(p.0[ch].abs_diff(c[ch]) <= slack, "{}: {:?} vs {:?}", f, p.0, c);
                    }
                }
            }
        }
    }

    #[test]
    fn blur_and_pixelate_stay_within_the_input_range(img in any_opaque_image()) {
        for f in [Filter::Blur, Filter::Pixelate] {
            let out = apply(&f, &img).unwrap();
            for ch in 0..3 {
                let lo = img.pixels().map(|p| p.0[ch]).min().unwrap();
                let hi = img.pixels().map(|p| p.0[ch]).max().unwrap();
                prop_assert!(out.pixels().all(|p| (lo..=hi).contains(&p.0[ch])), "{}", f);
            }
        }
    }

    #[test]
    fn parameters_accept_exactly_their_range(v in any::<f32>()) {
        match Brightness::new(v) {
            Ok(b) => prop_assert!((0.0..=100.0).contains(&b.level())),
            Err(RenderError::ParameterNotFinite { .. }) => prop_assert!(!v.is_finite()),
            Err(RenderError::ParameterOutOfRange { .. }) => prop_assert!(v.is_finite() && !(0.0..=100.0).contains(&v)),
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
        match Threshold::new(v) {
            Ok(t) => prop_assert!((0.0..=255.0).contains(&t.level())),
            Err(RenderError::ParameterNotFinite { .. }) => prop_assert!(!v.is_finite()),
            Err(RenderError::ParameterOutOfRange { .. }) => prop_assert!(v.is_finite() && !(0.0..=255.0).contains(&v)),
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    #[test]
    fn parameter_text_never_panics(s in "\\PC{0,12}") {
        let _ = s.parse::<Brightness>();
        let _ = s.parse::<Threshold>();
    }
}

#[test]
fn parameter_text_is_parsed_and_checked() {
    assert_eq!(" 2.5 ".parse::<Brightness>().unwrap().level(), 2.5);
    assert_eq!("100".parse::<Brightness>().unwrap().level(), 100.0);
    assert_eq!(
        "101".parse::<Brightness>().unwrap_err().to_string(),
        "brightness must be between 0 and 100, got 101"
    );
    assert!(matches!(
        "-0.5".parse::<Brightness>(),
        Err(RenderError::ParameterOutOfRange { .. })
    ));
    assert_eq!(
        "NaN".parse::<Threshold>(),
        Err(RenderError::ParameterNotFinite { name: "threshold" })
    );
    assert_eq!(
        "inf".parse::<Brightness>(),
        Err(RenderError::ParameterNotFinite { name: "brightness" })
    );
    let err = "300".parse::<Threshold>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "threshold must be between 0 and 255, got 300"
    );
    assert_eq!(
        "".parse::<Brightness>(),
        Err(RenderError::ParameterNotNumber { name: "brightness" })
    );
}

/// The 0–100 scale that clients send: every integer is accepted, 0 leaves
/// the image alone, 50 goes halfway to white, 100 is white, and the default
/// visibly brightens.
#[test]
fn brightness_is_a_percentage_towards_white() {
    let img = RgbaImage::from_raw(
        4,
        1,
        vec![
            0, 0, 0, 255, 100, 100, 100, 255, 200, 60, 10, 128, 255, 255, 255, 0,
        ],
    )
    .unwrap();
    let at = |level: f32| {
        let out = apply(&Filter::Brightness(Brightness::new(level).unwrap()), &img).unwrap();
        out.pixels().map(|p| p.0).collect::<Vec<_>>()
    };
    for level in 0..=100u8 {
        assert!(Brightness::new(f32::from(level)).is_ok(), "{level}");
    }
    assert_eq!(at(0.0), img.pixels().map(|p| p.0).collect::<Vec<_>>());
    assert_eq!(
        at(50.0),
        [
            [128, 128, 128, 255],
            [178, 178, 178, 255],
            [228, 158, 133, 128],
            [255, 255, 255, 0]
        ]
    );
    assert_eq!(
        at(100.0),
        [
            [255, 255, 255, 255],
            [255, 255, 255, 255],
            [255, 255, 255, 128],
            [255, 255, 255, 0]
        ]
    );
    // Decimals are accepted and land between their neighbours.
    let (lo, mid, hi) = (at(12.0), at(12.5), at(13.0));
    for ((l, m), h) in lo.iter().zip(&mid).zip(&hi) {
        assert!(l.iter().zip(m).zip(h).all(|((l, m), h)| l <= m && m <= h));
    }
    // The default visibly brightens: a mid-dark channel gains over 40 levels.
    let default = apply(&Filter::Brightness(Brightness::DEFAULT), &img).unwrap();
    assert_eq!(default.get_pixel(1, 0).0, [147, 147, 147, 255]);
    assert!(Brightness::DEFAULT.level() > 0.0);
}

#[test]
fn filter_names_round_trip() {
    let names: Vec<_> = Filter::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(
        names,
        [
            "blue",
            "blur",
            "blurple",
            "blurple2",
            "brightness",
            "color",
            "green",
            "greyscale",
            "invert",
            "invertgreyscale",
            "pixelate",
            "red",
            "sepia",
            "threshold"
        ]
    );
    for f in Filter::ALL {
        assert_eq!(Filter::from_name(f.name()), Some(f));
        assert_eq!(f.to_string(), f.name());
    }
    assert_eq!(Filter::from_name("grayscale"), None);
}

#[test]
fn oversized_or_empty_images_are_typed_errors() {
    let empty = RgbaImage::new(0, 5);
    assert_eq!(apply(&Filter::Sepia, &empty), Err(RenderError::EmptyImage));
    assert_eq!(canvas_render::circle(&empty), Err(RenderError::EmptyImage));
    // A very long, thin image: within memory, beyond MAX_DIMENSION.
    let long = RgbaImage::new(canvas_render::MAX_DIMENSION + 1, 1);
    assert!(matches!(
        apply(&Filter::Blur, &long),
        Err(RenderError::TooLarge { .. })
    ));
    assert!(matches!(
        canvas_render::heart(&long),
        Err(RenderError::TooLarge { .. })
    ));
    assert!(matches!(
        canvas_render::pride(&long, canvas_render::PrideFlag::Lgbt),
        Err(RenderError::TooLarge { .. })
    ));
}

#[test]
fn known_colours() {
    let px = |f: Filter, c: [u8; 4]| {
        apply(&f, &RgbaImage::from_raw(1, 1, c.to_vec()).unwrap())
            .unwrap()
            .get_pixel(0, 0)
            .0
    };
    assert_eq!(px(Filter::Sepia, [255, 255, 255, 9]), [255, 255, 239, 9]);
    assert_eq!(px(Filter::Sepia, [100, 50, 20, 255]), [82, 73, 57, 255]);
    assert_eq!(
        px(Filter::Blurple, [128, 128, 128, 255]),
        [0x58, 0x65, 0xF2, 255]
    );
    assert_eq!(
        px(Filter::Blurple2, [128, 128, 128, 7]),
        [0x72, 0x89, 0xDA, 7]
    );
    assert_eq!(
        px(Filter::Blurple, [255, 255, 255, 255]),
        [255, 255, 255, 255]
    );
    assert_eq!(
        px(Filter::Color([0x58, 0x65, 0xF2]), [255, 128, 0, 255]),
        [0x58, 0x33, 0, 255]
    );
    assert_eq!(
        px(
            Filter::Brightness(Brightness::new(50.0).unwrap()),
            [100, 200, 3, 1]
        ),
        [178, 228, 129, 1]
    );
}
