//! The captions over any picture and the canvas that follows its picture
//! ([`Layer::Fit`]): sizes for every aspect, the band that grows with its
//! text, the cut bubble, animated pictures, and the rules of the layer.

use super::*;
use crate::limits::solid;

const CAPTIONS: [TemplateKind; 4] = [
    TemplateKind::Caption,
    TemplateKind::Impact,
    TemplateKind::Motivate,
    TemplateKind::SpeechBubble,
];

fn with(t: &Template, params: &[(&str, &str)]) -> Args {
    super::test_support::args_from(t, params).unwrap()
}

fn picture(w: u32, h: u32) -> RgbaImage {
    solid(w, h, [200, 40, 90]).unwrap()
}

#[test]
fn the_picture_keeps_its_aspect_its_long_side_within_the_bounds() {
    let slot = FitSlot {
        area: (0.0, 0.0, 1000.0, 1000.0),
        min_side: 320,
        max_side: 1024,
    };
    assert_eq!(fitted_picture_size(&slot, (512, 512)), (512, 512));
    assert_eq!(fitted_picture_size(&slot, (2048, 1024)), (1024, 512));
    assert_eq!(fitted_picture_size(&slot, (600, 3000)), (205, 1024));
    // A tiny picture is enlarged to the shortest long side.
    assert_eq!(fitted_picture_size(&slot, (32, 16)), (320, 160));
    assert_eq!(fitted_picture_size(&slot, (1, 4000)), (1, 1024));
    assert_eq!(fitted_picture_size(&slot, (0, 0)), (320, 320));
}

#[test]
fn impact_and_speechbubble_are_the_picture_itself() {
    for kind in [TemplateKind::Impact, TemplateKind::SpeechBubble] {
        let t = kind.template();
        let args = with(t, &[("top", "top"), ("bottom", "bottom")]);
        for (w, h, want) in [
            (512, 512, (512, 512)),
            (900, 300, (900, 300)),
            (300, 900, (300, 900)),
            (3000, 1500, (1024, 512)),
            (100, 50, (320, 160)),
        ] {
            assert_eq!(t.size_for_picture(&args, (w, h)), want, "{kind:?} {w}×{h}");
            let img = render_template(t, &args, Some(&picture(w, h))).unwrap();
            assert_eq!(img.dimensions(), want, "{kind:?} {w}×{h}");
        }
        assert_eq!(t.size_for(&args), (1024, 1024));
    }
}

#[test]
fn every_caption_renders_at_the_size_it_announces() {
    for kind in CAPTIONS {
        let t = kind.template();
        let args = with(
            t,
            &[("text", "when the build is green 🎉"), ("title", "Hope")],
        );
        for (w, h) in [(512, 512), (800, 300), (300, 800), (40, 40)] {
            let size = t.size_for_picture(&args, (w, h));
            let img = render_template(t, &args, Some(&picture(w, h))).unwrap();
            assert_eq!(img.dimensions(), size, "{kind:?} {w}×{h}");
        }
        // Without a picture: the grey silhouette, square.
        let img = render_template(t, &args, None).unwrap();
        assert_eq!(img.dimensions(), t.size_for_picture(&args, (512, 512)));
    }
}

#[test]
fn the_caption_band_grows_with_its_text_within_bounds() {
    let t = TemplateKind::Caption.template();
    let band = |text: &str| {
        t.size_for_picture(&with(t, &[("text", text)]), (500, 500))
            .1
            - 500
    };
    let one = band("hello");
    let two = band("hello\nworld");
    let many = band(&"words that wrap ".repeat(12));
    let most = band(&"x".repeat(200));
    assert!((70..=100).contains(&one), "{one}");
    assert!(two > one + 30, "{one} {two}");
    assert!(many > two && many <= 280, "{many}");
    assert!(most <= 280, "{most}");
    // The band is white, the picture under it untouched.
    let img = render_template(t, &with(t, &[("text", "hello")]), Some(&picture(500, 500))).unwrap();
    assert_eq!(img.get_pixel(2, 2).0, [255, 255, 255, 255]);
    assert_eq!(img.get_pixel(250, one + 10).0, [200, 40, 90, 255]);
    assert_eq!(img.get_pixel(250, one + 499).0, [200, 40, 90, 255]);
}

#[test]
fn motivate_frames_the_picture_on_black() {
    let t = TemplateKind::Motivate.template();
    let args = with(t, &[("title", "Patience"), ("text", "it compiles")]);
    let img = render_template(t, &args, Some(&picture(400, 200))).unwrap();
    let (w, h) = img.dimensions();
    assert_eq!(w, 400 * 1220 / 1000);
    assert_eq!(img.get_pixel(2, 2).0, [0, 0, 0, 255]);
    assert_eq!(img.get_pixel(w / 2, h - 2).0, [0, 0, 0, 255]);
    // The picture sits at 110 units from the top-left, whole.
    let at = 110 * 400 / 1000;
    assert_eq!(img.get_pixel(at + 2, at + 2).0, [200, 40, 90, 255]);
    assert_eq!(img.get_pixel(at + 397, at + 197).0, [200, 40, 90, 255]);
    // The frame around it is white.
    let frame = (at as f32 - 16.0 * 0.4) as u32;
    assert_eq!(img.get_pixel(w / 2, frame).0, [255, 255, 255, 255]);
}

#[test]
fn the_speech_bubble_is_cut_out_of_the_top() {
    let t = TemplateKind::SpeechBubble.template();
    let args = with(t, &[]);
    let img = render_template(t, &args, Some(&picture(500, 500))).unwrap();
    // Transparent at the top, in the tail, opaque below.
    assert_eq!(img.get_pixel(250, 10).0[3], 0);
    assert_eq!(img.get_pixel(5, 5).0[3], 0);
    assert_eq!(img.get_pixel(130, 150).0[3], 0);
    assert_eq!(img.get_pixel(450, 300).0, [200, 40, 90, 255]);
    assert_eq!(img.get_pixel(250, 490).0, [200, 40, 90, 255]);
}

#[test]
fn an_animated_picture_gives_a_frame_per_picture_frame_with_its_delay() {
    let t = TemplateKind::Impact.template();
    let args = with(t, &[("top", "top"), ("bottom", "bottom")]);
    let (a, b) = (picture(300, 200), solid(300, 200, [20, 200, 90]).unwrap());
    let frames = render_template_frames(t, &args, &[(&a, 40), (&b, 70)], None).unwrap();
    assert_eq!(frames.len(), 2);
    assert_eq!((frames[0].1, frames[1].1), (40, 70));
    assert!(frames.iter().all(|(f, _)| f.dimensions() == (320, 213)));
    assert_eq!(frames[0].0.get_pixel(160, 106).0, [200, 40, 90, 255]);
    assert_eq!(frames[1].0.get_pixel(160, 106).0, [20, 200, 90, 255]);
}

#[test]
fn fitted_templates_hold_only_the_layers_they_map() {
    for kind in TemplateKind::ALL {
        let t = kind.template();
        let fits = t
            .layers
            .iter()
            .filter(|l| matches!(l, Layer::Fit(_)))
            .count();
        if fits == 0 {
            continue;
        }
        assert_eq!(fits, 1, "{kind:?}");
        assert!(!t.is_animated() && t.camera.is_none(), "{kind:?}");
        assert!(t.layers.iter().all(fit::fits), "{kind:?}");
        let Some(Layer::Fit(slot)) = t.layers.iter().find(|l| matches!(l, Layer::Fit(_))) else {
            unreachable!()
        };
        assert_eq!(slot.area.2, slot.area.3, "{kind:?}");
        assert!(slot.min_side <= slot.max_side, "{kind:?}");
    }
}

#[test]
fn captions_shape_every_script_and_refuse_text_over_the_cap() {
    for kind in CAPTIONS {
        let t = kind.template();
        for spec in t.params {
            let long = "a".repeat(201);
            let err = t
                .args(|n| (n == spec.name).then_some(long.as_str()))
                .unwrap_err();
            assert!(
                matches!(err, RenderError::TextTooLong { field, .. } if field == spec.name),
                "{kind:?} {err:?}"
            );
        }
        let args = with(
            t,
            &[
                ("text", "مرحبا 你好 😂"),
                ("top", "مرحبا 😂"),
                ("bottom", "你好"),
                ("title", "你好 😂"),
            ],
        );
        render_template(t, &args, Some(&picture(300, 300))).unwrap();
    }
}

#[test]
fn pictures_of_extreme_aspect_render_at_their_announced_size() {
    for kind in CAPTIONS {
        let t = kind.template();
        let args = with(
            t,
            &[("text", "a caption 😀"), ("top", "top"), ("title", "T")],
        );
        for (w, h) in [(1, 2000), (2000, 1), (3, 900), (4096, 7)] {
            let img = render_template(t, &args, Some(&picture(w, h))).unwrap();
            assert_eq!(
                img.dimensions(),
                t.size_for_picture(&args, (w, h)),
                "{kind:?} {w}×{h}"
            );
        }
    }
}
