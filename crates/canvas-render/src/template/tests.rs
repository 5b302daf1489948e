use super::*;

fn avatar() -> RgbaImage {
    RgbaImage::from_fn(96, 96, |x, y| {
        image::Rgba([
            (x * 2) as u8,
            (y * 2) as u8,
            180,
            if x < 4 { 0 } else { 255 },
        ])
    })
}

fn defaults(t: &Template) -> Args {
    t.args(|_| None).unwrap()
}

/// Every template: the public kinds and the scenes drawn by the engine.
fn all() -> Vec<(String, &'static Template)> {
    TemplateKind::ALL
        .iter()
        .map(|k| (format!("{k:?}"), k.template()))
        .chain([("lied".to_owned(), &LIED)])
        .collect()
}

#[test]
fn every_placement_list_has_one_entry_or_one_per_frame() {
    for (kind, t) in all() {
        let frames = t.timeline.frames as usize;
        assert!((1..=MAX_TEMPLATE_FRAMES).contains(&frames), "{kind:?}");
        for layer in t.layers.iter().map(unwrap_when) {
            let motion = match layer {
                Layer::Art { motion, .. } => *motion,
                Layer::Avatar(slot) => slot.motion,
                _ => continue,
            };
            assert!(
                motion.len() == 1 || motion.len() == frames,
                "{kind:?}: {} placements for {frames} frames",
                motion.len()
            );
            for p in motion {
                assert!(p.w > 0.0 && p.h > 0.0 && (0.0..=1.0).contains(&p.opacity));
            }
        }
    }
}

/// The layer inside any [`Layer::When`].
fn unwrap_when(layer: &Layer) -> &Layer {
    match layer {
        Layer::When { layer, .. } => unwrap_when(layer),
        other => other,
    }
}

fn pieces_use<'a>(pieces: &'a [Piece], used: &mut Vec<&'a str>) {
    for piece in pieces {
        match piece {
            Piece::Param(p) | Piece::Compact(p) | Piece::Flag { param: p, .. } => used.push(p),
            Piece::IfSet { param, pieces } => {
                used.push(param);
                pieces_use(pieces, used);
            }
            Piece::Lit(_) => {}
        }
    }
}

fn paint_use(paint: &Paint, used: &mut Vec<&'static str>) {
    if let Paint::Param { param, .. } = paint {
        used.push(param);
    }
}

#[test]
fn every_parameter_is_bounded_documented_and_used() {
    for (kind, t) in all() {
        let mut used: Vec<&str> = t.timeline.delay_param.into_iter().collect();
        for layer in t.layers {
            if let Layer::When {
                when: When::Set(p) | When::Unset(p),
                ..
            } = layer
            {
                used.push(p);
            }
            match unwrap_when(layer) {
                Layer::Text(slot) => {
                    used.extend(slot.replaced_by);
                    pieces_use(slot.pieces, &mut used);
                }
                Layer::PaintedText { paint, slot } => {
                    paint_use(paint, &mut used);
                    used.extend(slot.replaced_by);
                    pieces_use(slot.pieces, &mut used);
                }
                Layer::Shape(slot) => paint_use(&slot.paint, &mut used),
                Layer::Bar(slot) => {
                    used.extend([slot.value, slot.max]);
                    paint_use(&slot.track, &mut used);
                    paint_use(&slot.fill, &mut used);
                }
                _ => {}
            }
        }
        for spec in t.params {
            assert!(
                !spec.doc.is_empty() && !spec.expected.is_empty(),
                "{}",
                spec.name
            );
            assert!(used.contains(&spec.name), "{kind:?}: {} unused", spec.name);
            match spec.kind {
                ParamKind::Text { max_chars, default } => {
                    assert!((1..=1000).contains(&max_chars), "{}", spec.name);
                    assert!(default.chars().count() <= max_chars);
                    let long = "x".repeat(max_chars + 1);
                    let err = t.args(|n| (n == spec.name).then_some(long.as_str()));
                    assert!(
                        matches!(err, Err(RenderError::TextTooLong { field, .. }) if field == spec.name)
                    );
                }
                ParamKind::Int { min, max, default } => {
                    assert!(
                        min <= default && default <= max && max < u32::MAX,
                        "{}",
                        spec.name
                    );
                    for bad in [(max + 1).to_string(), "-1".into(), "1.5".into(), "x".into()] {
                        let err = t.args(|n| (n == spec.name).then_some(bad.as_str()));
                        assert_eq!(
                            err,
                            Err(RenderError::InvalidParameter {
                                field: spec.name,
                                reason: spec.expected
                            })
                        );
                    }
                }
                ParamKind::Bool { .. } => {
                    let err = t.args(|n| (n == spec.name).then_some("maybe"));
                    assert!(err.is_err());
                }
                ParamKind::Colour { default } => {
                    assert!(default <= 0xff_ffff, "{}", spec.name);
                    for bad in ["12345", "1234567", "ggg000", "#12345", "red"] {
                        let err = t.args(|n| (n == spec.name).then_some(bad));
                        assert_eq!(
                            err,
                            Err(RenderError::InvalidParameter {
                                field: spec.name,
                                reason: spec.expected
                            }),
                            "{kind:?}: {} = {bad:?}",
                            spec.name
                        );
                    }
                    let ok = t.args(|n| (n == spec.name).then_some("0a0B0c")).unwrap();
                    assert_eq!(ok.get(spec.name), Some(&Value::Colour([10, 11, 12])));
                }
            }
        }
        // Every parameter a layer names is declared.
        for name in used {
            assert!(t.params.iter().any(|s| s.name == name), "{kind:?}: {name}");
        }
    }
}

#[test]
fn every_template_renders_at_its_size_with_and_without_an_avatar() {
    let a = avatar();
    for kind in TemplateKind::ALL {
        let t = kind.template();
        let args = defaults(t);
        let img = render_template(t, &args, Some(&a)).unwrap();
        assert_eq!(img.dimensions(), t.size, "{kind:?}");
        let frames = render_template_frames(t, &args, &[(&a, 0)], None).unwrap();
        assert_eq!(frames.len(), t.timeline.frames as usize, "{kind:?}");
        assert!(frames[0].0 == img, "{kind:?}: the still is the first frame");
        let none = render_template_frames(t, &args, &[], None).unwrap();
        let mid = frames.len() / 2;
        assert!(frames[mid].0 != none[mid].0, "{kind:?} draws the avatar");
        if t.is_animated() {
            assert!(frames[0].0 != frames[mid].0, "{kind:?} moves");
        }
    }
}

#[test]
fn art_is_drawn_at_its_size() {
    for art in [
        Art::ComradeWash,
        Art::Rainbow,
        Art::GlassCracks,
        Art::JailBars,
        Art::PassedBanner,
        Art::TriggeredBanner,
        Art::WastedBanner,
        Art::Hand,
        Art::Space,
        Art::LiedBackdrop,
        Art::LiedVignette,
    ] {
        let p = art::cached(art);
        assert_eq!((p.width(), p.height()), art.size(), "{art:?}");
    }
}

#[test]
fn frames_align_by_time() {
    let pet = TemplateKind::Petpet.template();
    let args = defaults(pet); // 10 frames of 40 ms: a 400 ms loop
    // A still avatar: the template's own frames.
    let plan = plan_frames(pet, &args, &[0]);
    assert_eq!(plan.len(), 10);
    assert!(plan.iter().all(|f| f.avatar_frame == 0 && f.delay_ms == 40));
    // Three avatar frames of 100 ms (300 ms): one template loop covers it;
    // frame k starts at 40k ms and shows the avatar frame on screen then.
    let plan = plan_frames(pet, &args, &[100, 100, 100]);
    let shown: Vec<usize> = plan.iter().map(|f| f.avatar_frame).collect();
    assert_eq!(shown, [0, 0, 0, 1, 1, 2, 2, 2, 0, 0]);
    // A 1 s avatar loop: three template loops (1.2 s).
    let plan = plan_frames(pet, &args, &[500, 500]);
    assert_eq!(plan.len(), 30);
    assert_eq!(plan[12].avatar_frame, 0);
    assert_eq!(plan[13].avatar_frame, 1);
    assert_eq!(plan[29].template_frame, 9);
    // Not by index: a slower template shows fewer avatar frames per loop.
    let slow = pet.args(|n| (n == "delay").then_some("200")).unwrap();
    let plan = plan_frames(pet, &slow, &[100; 4]);
    let shown: Vec<usize> = plan.iter().map(|f| f.avatar_frame).collect();
    assert_eq!(&shown[..4], [0, 2, 0, 2]);
    // Tiny delays count as players show them (100 ms).
    let plan = plan_frames(pet, &args, &[0, 0]);
    assert_eq!(plan.len(), 10);
    assert_eq!(plan[3].avatar_frame, 1);
    // A still template takes the avatar's frames and delays.
    let jail = TemplateKind::Jail.template();
    let plan = plan_frames(jail, &defaults(jail), &[30, 70, 50]);
    let delays: Vec<u32> = plan.iter().map(|f| f.delay_ms).collect();
    assert_eq!(delays, [30, 70, 50]);
    // Never more than the cap, in whole template loops.
    let plan = plan_frames(pet, &slow, &[1000; 200]);
    assert_eq!(plan.len(), 250);
}

#[test]
fn an_animated_avatar_moves_under_the_hand() {
    let pet = TemplateKind::Petpet.template();
    let args = defaults(pet);
    let (a, b) = (avatar(), crate::solid(96, 96, [20, 200, 60]).unwrap());
    let frames = render_template_frames(pet, &args, &[(&a, 200), (&b, 200)], None).unwrap();
    assert_eq!(frames.len(), 10);
    // Frames 0 and 5 differ in squash; frames 0 and 10 would be the same
    // pose, so compare the avatar's centre pixel instead: a, then b.
    let centre = |img: &RgbaImage| *img.get_pixel(140, 200);
    assert_ne!(centre(&frames[0].0), centre(&frames[5].0));
    assert_eq!(centre(&frames[5].0).0[..3], [20, 200, 60]);
}

#[test]
fn amongus_text_follows_its_parameters_and_types_out() {
    let t = TemplateKind::Amongus.template();
    let a = avatar();
    let text_area = |img: &RgbaImage| {
        let mut n = 0;
        for y in 175..265 {
            for x in 40..560 {
                if img.get_pixel(x, y).0[0] > 240 {
                    n += 1;
                }
            }
        }
        n
    };
    let render = |pairs: &[(&str, &str)]| {
        let args = t
            .args(|n| pairs.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
            .unwrap();
        render_template_frames(t, &args, &[(&a, 0)], None).unwrap()
    };
    let not = render(&[("username", "Ferris")]);
    let yes = render(&[("username", "Ferris"), ("impostor", "TRUE")]);
    assert_eq!(
        text_area(&not[0].0),
        text_area(&not[2].0),
        "nothing typed yet"
    );
    assert!(text_area(&not[2].0) < text_area(&not[10].0));
    assert!(text_area(&not[10].0) < text_area(&not[25].0));
    assert!(not[25].0 != yes[25].0);
    let custom = render(&[("custom", "Ferris was not The Impostor.")]);
    let custom_and_name = render(&[
        ("custom", "Ferris was not The Impostor."),
        ("username", "x"),
    ]);
    assert!(
        custom[25].0 == custom_and_name[25].0,
        "custom replaces the sentence"
    );
    assert!(t.args(|n| (n == "impostor").then_some("yes")).is_err());
}

#[test]
fn tint_and_grey_apply_to_the_avatar() {
    let t = TemplateKind::Triggered.template();
    let white = crate::solid(64, 64, [255, 255, 255]).unwrap();
    let img = render_template(t, &defaults(t), Some(&white)).unwrap();
    let px = img.get_pixel(256, 200).0;
    assert!(px[0] > 240 && px[1] < 180 && px[2] < 180, "{px:?}");
    let jail = TemplateKind::Jail.template();
    let red = crate::solid(64, 64, [255, 0, 0]).unwrap();
    let img = render_template(jail, &defaults(jail), Some(&red)).unwrap();
    let px = img.get_pixel(256, 256).0;
    assert!(
        px[0].abs_diff(px[1]) < 4 && px[1].abs_diff(px[2]) < 4,
        "{px:?}"
    );
}
