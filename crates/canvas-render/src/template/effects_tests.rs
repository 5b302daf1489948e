//! The effect layer: loops that close, frames that move, transparency
//! kept, knobs bounded.

use super::effects::draw_phase;
use super::*;

/// The effect templates.
fn effects() -> Vec<(TemplateKind, &'static EffectSlot)> {
    TemplateKind::ALL
        .iter()
        .filter_map(|k| match k.template().layers {
            [Layer::Effect(slot)] => Some((*k, slot)),
            _ => None,
        })
        .collect()
}

/// A square test avatar: quadrants of colour with a grey gradient, so
/// every warp moves something visible.
fn avatar(side: u32) -> RgbaImage {
    RgbaImage::from_fn(side, side, |x, y| {
        let q = (x * 2 / side) + 2 * (y * 2 / side);
        let g = ((x + y) * 255 / (2 * side)) as u8;
        let c = match q {
            0 => [230, 40, 40],
            1 => [40, 200, 60],
            2 => [40, 80, 230],
            _ => [g, g, g],
        };
        image::Rgba([c[0], c[1], c[2], 255])
    })
}

/// The frame of `slot` at phase `t` over a prepared avatar of `side`.
fn at_phase(kind: TemplateKind, slot: &EffectSlot, args: &Args, t: f32) -> Pixmap {
    let t_ = kind.template();
    let prepared = Prepared::new(t_, args, Some(&avatar(96))).unwrap();
    let src = prepared.slots[0].as_ref().unwrap();
    let (w, h) = t_.size_for(args);
    let mut canvas = Canvas::new(w, h).unwrap();
    draw_phase(&mut canvas, slot, src, args, t);
    canvas.pixmap
}

fn max_diff(a: &Pixmap, b: &Pixmap) -> u8 {
    a.data()
        .iter()
        .zip(b.data())
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0)
}

fn small(kind: TemplateKind) -> Args {
    kind.template()
        .args(|n| (n == "size").then_some("64"))
        .unwrap()
}

#[test]
fn there_are_seventeen_effects_each_one_layer_looping_over_its_frames() {
    let all = effects();
    assert_eq!(all.len(), 17);
    for (kind, slot) in all {
        let t = kind.template();
        assert_eq!(slot.period, t.timeline.frames, "{kind:?}");
        assert!(t.uses_avatar(), "{kind:?}");
        if kind == TemplateKind::Deepfry {
            assert!(!t.is_animated());
        } else {
            assert!(t.timeline.frames >= 12, "{kind:?}");
        }
        let args = t.args(|_| None).unwrap();
        assert_eq!(t.size_for(&args), (256, 256), "{kind:?}");
        let args = t.args(|n| (n == "size").then_some("512")).unwrap();
        assert_eq!(t.size_for(&args), (512, 512), "{kind:?}");
    }
}

#[test]
fn every_loop_closes_and_every_frame_moves() {
    for (kind, slot) in effects() {
        if kind == TemplateKind::Deepfry {
            continue;
        }
        for speed in ["1", "3"] {
            let args = kind
                .template()
                .args(|n| match n {
                    "size" => Some("64"),
                    "speed" => Some(speed),
                    "strength" => Some("10"),
                    _ => None,
                })
                .unwrap();
            // The frame after the last, drawn at phase 1, is the first.
            let first = at_phase(kind, slot, &args, 0.0);
            let after_last = at_phase(kind, slot, &args, 1.0);
            assert!(
                max_diff(&first, &after_last) <= 2,
                "{kind:?} at speed {speed}: {}",
                max_diff(&first, &after_last)
            );
            // Some frame differs from the first.
            let moved = (1..slot.period).any(|i| {
                let f = at_phase(kind, slot, &args, i as f32 / slot.period as f32);
                max_diff(&first, &f) > 40
            });
            assert!(moved, "{kind:?} never moves");
        }
    }
}

#[test]
fn a_spin_keeps_its_corners_transparent_and_its_middle_opaque() {
    let kind = TemplateKind::Spin;
    let args = small(kind);
    let [(_, slot)] = effects()
        .into_iter()
        .filter(|(k, _)| *k == kind)
        .collect::<Vec<_>>()[..]
    else {
        panic!("one spin")
    };
    for i in 0..slot.period {
        let f = at_phase(kind, slot, &args, i as f32 / slot.period as f32);
        assert_eq!(f.pixel(0, 0).unwrap().alpha(), 0);
        assert_eq!(f.pixel(63, 63).unwrap().alpha(), 0);
        assert_eq!(f.pixel(32, 32).unwrap().alpha(), 255);
    }
}

#[test]
fn a_transparent_avatar_stays_transparent_through_every_effect() {
    let clear = RgbaImage::from_pixel(40, 40, image::Rgba([200, 10, 10, 0]));
    for (kind, _) in effects() {
        let t = kind.template();
        let args = small(kind);
        let frames = render_template_frames(t, &args, &[(&clear, 0)], None).unwrap();
        for (f, _) in frames {
            assert_eq!(f.dimensions(), (64, 64));
            assert!(f.pixels().all(|p| p[3] == 0), "{kind:?}");
        }
    }
}

#[test]
fn every_knob_is_bounded_and_named_when_out_of_range() {
    for (kind, _) in effects() {
        let t = kind.template();
        for spec in t.params {
            let ParamKind::Int { min, max, .. } = spec.kind else {
                panic!("{kind:?}: {} is not a number", spec.name)
            };
            for bad in [
                (max + 1).to_string(),
                min.saturating_sub(1).to_string(),
                "x".into(),
            ] {
                if bad == min.to_string() {
                    continue;
                }
                let err = t
                    .args(|n| (n == spec.name).then_some(bad.as_str()))
                    .unwrap_err();
                assert!(
                    matches!(err, RenderError::InvalidParameter { field, .. } if field == spec.name),
                    "{kind:?} {}={bad}: {err:?}",
                    spec.name
                );
            }
        }
    }
}

#[test]
fn an_animated_avatar_is_followed_by_time_under_an_effect() {
    let a = avatar(48);
    let b = RgbaImage::from_pixel(48, 48, image::Rgba([20, 20, 220, 255]));
    let kind = TemplateKind::Zoom;
    let t = kind.template();
    let args = small(kind);
    // Two avatar frames of 480 ms each: the effect's 16 frames of 60 ms
    // show the first for 8 frames, then the second.
    let frames = render_template_frames(t, &args, &[(&a, 480), (&b, 480)], None).unwrap();
    assert_eq!(frames.len(), 16);
    let centre = |f: &RgbaImage| f.get_pixel(32, 32).0;
    assert_ne!(centre(&frames[0].0), [20, 20, 220, 255]);
    assert_eq!(centre(&frames[8].0), [20, 20, 220, 255]);
}

#[test]
fn a_deepfried_avatar_is_posterised_and_warmer() {
    let kind = TemplateKind::Deepfry;
    let t = kind.template();
    let args = small(kind);
    let grey = RgbaImage::from_pixel(64, 64, image::Rgba([128, 128, 128, 255]));
    let out = render_template(t, &args, Some(&grey)).unwrap();
    let p = out.get_pixel(10, 10).0;
    assert!(p[0] > p[1] && p[1] > p[2], "{p:?}");
    let colours: std::collections::HashSet<[u8; 4]> = render_template(t, &args, Some(&avatar(64)))
        .unwrap()
        .pixels()
        .map(|p| p.0)
        .collect();
    assert!(colours.len() < 80, "{}", colours.len());
}

/// A template file's effect: the guide's example reads, spins and closes
/// its loop; an effect over a canvas larger than 512 px, an unknown warp
/// and a knob that is not a whole-number parameter are refused, naming
/// the field.
#[cfg(feature = "files")]
#[test]
fn a_template_file_takes_an_effect_layer_within_bounds() {
    use std::path::Path;
    let file = |size: u32, layer: &str| {
        format!(
            "format = 1\nname = \"slow-spin\"\nsize = [{size}, {size}]\n\n[timeline]\nframes = 24\ndelay_ms = 50\n\n\
             [[param]]\nname = \"side\"\ntype = \"int\"\nmin = 64\nmax = 512\ndefault = 256\ndoc = \"Width and height in pixels.\"\n\n\
             [[param]]\nname = \"caption\"\ntype = \"text\"\nmax_chars = 10\ndoc = \"Text.\"\n\n\
             [[layer]]\nkind = \"effect\"\n{layer}\n"
        )
    };
    let parse = |text: &str| file::parse(Path::new("t.toml"), text, Path::new("."));
    let loaded = parse(&file(512, "warp = \"spin\"\nside = \"side\"")).unwrap();
    let t = loaded.template;
    let [Layer::Effect(slot)] = t.layers else {
        panic!("one effect layer")
    };
    assert_eq!(
        (slot.warp, slot.tone, slot.period),
        (Warp::Spin, Tone::None, 24)
    );
    let args = t.args(|_| None).unwrap();
    assert_eq!(t.size_for(&args), (256, 256));
    let frames = render_template_frames(t, &args, &[(&avatar(64), 0)], None).unwrap();
    assert_eq!(frames.len(), 24);
    assert_eq!(frames[0].0.get_pixel(0, 0)[3], 0);
    for (text, field) in [
        (file(513, "warp = \"spin\""), "layer[0].kind"),
        (file(256, "warp = \"twirl\""), "layer[0].warp"),
        (file(256, "tone = \"sepia\""), "layer[0].tone"),
        (file(256, "strength = \"caption\""), "layer[0].strength"),
        (file(256, "speed = \"nothing\""), "layer[0].speed"),
    ] {
        let err = parse(&text).unwrap_err();
        assert_eq!(err.field, field, "{err}");
    }
}
