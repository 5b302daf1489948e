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

/// Every template.
fn all() -> Vec<(String, &'static Template)> {
    TemplateKind::ALL
        .iter()
        .map(|k| (format!("{k:?}"), k.template()))
        .collect()
}

#[test]
fn every_placement_list_has_one_entry_or_one_per_frame() {
    for (kind, t) in all() {
        let frames = t.timeline.frames as usize;
        assert!((1..=MAX_TEMPLATE_FRAMES).contains(&frames), "{kind:?}");
        for layer in t.layers.iter().map(unwrap_when) {
            let motion = match layer {
                Layer::Art { motion, .. }
                | Layer::Picture { motion, .. }
                | Layer::ArtChoice { motion, .. }
                | Layer::Image { motion, .. } => *motion,
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
        // A camera: one place or one per frame, the picture inside the
        // canvas at each.
        if let Some(camera) = t.camera {
            let n = camera.offsets.len();
            assert!(n == 1 || n == frames, "{kind:?}: {n} camera places");
            let (pw, ph) = camera.content;
            assert!(pw >= 1 && ph >= 1, "{kind:?}");
            for &(x, y) in camera.offsets {
                assert!(
                    x + pw <= t.size.0 && y + ph <= t.size.1,
                    "{kind:?}: ({x}, {y})"
                );
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
            Piece::Param(p)
            | Piece::Upper(p)
            | Piece::Plain(p)
            | Piece::Compact(p)
            | Piece::Handle(p)
            | Piece::Flag { param: p, .. }
            | Piece::Pick { param: p, .. } => used.push(p),
            Piece::CompactWith { param, with } => used.extend([param, with]),
            Piece::IfSet { param, pieces } | Piece::IfGiven { param, pieces } => {
                used.push(param);
                pieces_use(pieces, used);
            }
            Piece::Lit(_) => {}
        }
    }
}

fn paint_use(paint: &Paint, used: &mut Vec<&'static str>) {
    if let Paint::Param { param, .. } | Paint::Pick { param, .. } = paint {
        used.push(param);
    }
}

#[test]
fn every_parameter_is_bounded_documented_and_used() {
    for (kind, t) in all() {
        let mut used: Vec<&str> = t.timeline.delay_param.into_iter().collect();
        for layer in t.layers {
            if let Layer::When {
                when: When::Set(p) | When::Unset(p) | When::Given(p) | When::Absent(p),
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
                Layer::PaletteText(slot, palette) => {
                    used.extend(slot.replaced_by);
                    pieces_use(slot.pieces, &mut used);
                    used.push(palette.param);
                }
                Layer::ArtChoice { param, .. } => used.push(param),
                Layer::Shape(slot) => paint_use(&slot.paint, &mut used),
                inner @ (Layer::Row(_) | Layer::Grow(_) | Layer::Effect(_)) => {
                    layer_params(inner, &mut used)
                }
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
                    assert!(
                        (1..=MAX_MESSAGE_CHARS).contains(&max_chars),
                        "{}",
                        spec.name
                    );
                    assert!(default.chars().count() <= max_chars);
                    let long = "x".repeat(max_chars + 1);
                    let err = t.args(|n| (n == spec.name).then_some(long.as_str()));
                    assert!(
                        matches!(err, Err(RenderError::TextTooLong { field, .. }) if field == spec.name)
                    );
                }
                ParamKind::Int { min, max, default } => {
                    assert!(
                        min <= default && default <= max && max < u64::MAX,
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
                ParamKind::Time => {
                    for bad in ["soon", "2026-11-29", "2026-11-29T25:00Z"] {
                        let err = t.args(|n| (n == spec.name).then_some(bad));
                        assert_eq!(
                            err,
                            Err(RenderError::InvalidParameter {
                                field: spec.name,
                                reason: spec.expected
                            })
                        );
                    }
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
                ParamKind::Choice { options, default } => {
                    assert!(default < options.len() && !options.is_empty());
                    for (i, option) in options.iter().enumerate() {
                        assert_eq!(option.to_lowercase(), *option);
                        let upper = option.to_uppercase();
                        let args = t.args(|n| (n == spec.name).then_some(upper.as_str()));
                        assert_eq!(args.unwrap().choice(spec.name), i);
                    }
                    let err = t.args(|n| (n == spec.name).then_some("no-such-option"));
                    assert_eq!(
                        err,
                        Err(RenderError::InvalidParameter {
                            field: spec.name,
                            reason: spec.expected
                        })
                    );
                }
            }
        }
        // Every choice a layer reads has one entry per option.
        let options = |name: &str| match t.params.iter().find(|s| s.name == name).map(|s| s.kind) {
            Some(ParamKind::Choice { options, .. }) => options.len(),
            other => panic!("{kind:?}: {name} is no choice: {other:?}"),
        };
        fn picks(pieces: &[Piece], out: &mut Vec<(&'static str, usize)>) {
            for piece in pieces {
                match *piece {
                    Piece::Pick { param, texts } => out.push((param, texts.len())),
                    Piece::IfGiven { pieces, .. } => picks(pieces, out),
                    _ => {}
                }
            }
        }
        let mut choices = Vec::new();
        for layer in t.layers {
            match unwrap_when(layer) {
                Layer::Text(slot) => picks(slot.pieces, &mut choices),
                Layer::PaletteText(slot, palette) => {
                    picks(slot.pieces, &mut choices);
                    choices.push((palette.param, palette.colors.len()));
                }
                Layer::ArtChoice { param, arts, .. } => choices.push((param, arts.len())),
                _ => {}
            }
        }
        for (param, n) in choices {
            assert_eq!(options(param), n, "{kind:?}: {param}");
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
        assert_eq!(
            img.dimensions(),
            t.size_for_picture(&args, a.dimensions()),
            "{kind:?}"
        );
        let frames = render_template_frames(t, &args, &[(&a, 0)], None).unwrap();
        assert_eq!(frames.len(), t.timeline.frames as usize, "{kind:?}");
        assert!(frames[0].0 == img, "{kind:?}: the still is the first frame");
        let none = render_template_frames(t, &args, &[], None).unwrap();
        let mid = frames.len() / 2;
        assert_eq!(
            frames[mid].0 != none[mid].0,
            t.uses_avatar(),
            "{kind:?} draws the avatar when it has an avatar slot"
        );
        if t.is_animated() {
            assert!(frames[0].0 != frames[mid].0, "{kind:?} moves");
        }
    }
}

#[test]
fn art_is_drawn_at_its_size() {
    for art in Art::ALL {
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
    let (a, b) = (
        avatar(),
        crate::limits::solid(96, 96, [20, 200, 60]).unwrap(),
    );
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

/// Typed text is drawn where the whole text puts it: on a clear canvas,
/// each typed frame covers no pixel more than the whole sentence does (its
/// alpha at most the whole text's, everywhere), and covers more as it
/// types; with one line and with a sentence wrapped onto lines of
/// different widths (each centred on its own).
#[test]
fn typed_text_lands_where_the_whole_text_is() {
    let t = TemplateKind::Amongus.template();
    let Some((index, slot)) = t.layers.iter().enumerate().find_map(|(i, l)| match l {
        Layer::Text(slot) => Some((i, slot)),
        _ => None,
    }) else {
        panic!("amongus has a text slot")
    };
    let Reveal::Typed { from, to } = slot.reveal else {
        panic!("amongus types its text")
    };
    let (w, h) = t.size;
    for custom in [
        "Ferris was not The Impostor.",
        "A much longer sentence that cannot fit on one line, so it wraps onto a second, shorter one",
    ] {
        let args = t.args(|n| (n == "custom").then_some(custom)).unwrap();
        let mut texts = TextCache::new(t);
        let draw = |frame: u32, texts: &mut TextCache| {
            let mut canvas = Canvas::new(w, h).unwrap();
            draw_text(
                &mut canvas,
                None,
                slot,
                (slot.color, slot.outline),
                &args,
                frame,
                texts.slot(index),
            )
            .unwrap();
            canvas.into_image()
        };
        let whole = draw(to, &mut texts);
        let lines = texts.slots[index].as_ref().map(|(_, l)| l.line_count());
        let wraps = custom.len() > 40;
        assert_eq!(lines, Some(1 + usize::from(wraps)), "{custom:?}");
        let mut covered = 0;
        for frame in from..to {
            let typed = draw(frame, &mut texts);
            let mut n = 0;
            for (p, q) in typed.pixels().zip(whole.pixels()) {
                assert!(
                    p.0[3] <= q.0[3],
                    "{custom:?}, frame {frame}: {p:?} over {q:?}"
                );
                n += usize::from(p.0[3] > 0);
            }
            // (A space typed adds no pixel.)
            assert!(n >= covered, "{custom:?}, frame {frame}: {n} pixels");
            covered = n;
        }
        assert!(covered > 0);
    }
}

#[test]
fn tint_and_grey_apply_to_the_avatar() {
    let t = TemplateKind::Triggered.template();
    let white = crate::limits::solid(64, 64, [255, 255, 255]).unwrap();
    let img = render_template(t, &defaults(t), Some(&white)).unwrap();
    let px = img.get_pixel(256, 200).0;
    assert!(px[0] > 240 && px[1] < 180 && px[2] < 180, "{px:?}");
    let jail = TemplateKind::Jail.template();
    let red = crate::limits::solid(64, 64, [255, 0, 0]).unwrap();
    let img = render_template(jail, &defaults(jail), Some(&red)).unwrap();
    let px = img.get_pixel(256, 256).0;
    assert!(
        px[0].abs_diff(px[1]) < 4 && px[1].abs_diff(px[2]) < 4,
        "{px:?}"
    );
}

fn welcome_args(t: &Template, pairs: &[(&str, &str)]) -> Args {
    t.args(|n| pairs.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap()
}

#[test]
fn welcome_cards_place_their_art_at_its_region() {
    for kind in TemplateKind::WELCOME {
        let t = kind.template();
        assert_eq!(t.size, (1200, 600));
        assert_eq!(t.image_source(), Some("bg"));
        for layer in t.layers {
            if let Layer::Art { art, motion } = layer {
                let (x, y, w, h) = art.card().expect("a card's art").region();
                assert_eq!(motion, &[Place::rect(x, y, w, h)], "{kind:?}");
            }
        }
    }
}

#[test]
fn welcome_text_follows_type_and_given_parameters() {
    let t = TemplateKind::Welcome1.template();
    let slot = |i: usize, args: &Args| match &t.layers[i] {
        Layer::Text(s) | Layer::PaletteText(s, _) => slot_text(s, args),
        _ => unreachable!(),
    };
    let none = defaults(t);
    assert_eq!(slot(4, &none), "WELCOME");
    assert_eq!(slot(5, &none), "New member");
    // The guild's name (here its default) is isolated from our words.
    assert_eq!(slot(6, &none), "to \u{2068}the server\u{2069}");
    assert_eq!(slot(7, &none), "", "no member line without memberCount");
    let leave = welcome_args(
        t,
        &[
            ("type", "Leave"),
            ("username", "Ferris"),
            ("guildName", "Crabs"),
            ("memberCount", "1234567"),
        ],
    );
    assert_eq!(slot(4, &leave), "GOODBYE");
    assert_eq!(slot(5, &leave), "Ferris");
    assert_eq!(slot(6, &leave), "has left \u{2068}Crabs\u{2069}");
    assert_eq!(slot(7, &leave), "1,234,567 members remain");
    let join = welcome_args(t, &[("memberCount", "5")]);
    assert_eq!(slot(7, &join), "Member #5");
    assert_eq!(grouped(999_999_999), "999,999,999");
    assert_eq!(grouped(1000), "1,000");
    assert_eq!(grouped(999), "999");
    for bad in [
        ("memberCount", "0"),
        ("memberCount", "1e3"),
        ("type", "joined"),
        ("textcolor", "teal"),
        ("background", "x"),
    ] {
        assert!(
            t.args(|n| (n == bad.0).then_some(bad.1)).is_err(),
            "{bad:?}"
        );
    }
}

#[test]
fn welcome_backgrounds_and_text_colours_change_the_card() {
    let t = TemplateKind::Welcome2.template();
    let a = avatar();
    let render =
        |pairs: &[(&str, &str)]| render_template(t, &welcome_args(t, pairs), Some(&a)).unwrap();
    let base = render(&[]);
    let mut seen = vec![base.get_pixel(5, 5).0];
    for bg in welcome::BACKGROUNDS.iter().skip(1) {
        let img = render(&[("background", bg)]);
        let px = img.get_pixel(5, 5).0;
        assert!(!seen.contains(&px), "{bg} has its own corner");
        seen.push(px);
    }
    // The title (at 440..1060, 158..212) takes the colour.
    let red = render(&[("textcolor", "red")]);
    let reddest = red
        .enumerate_pixels()
        .filter(|(x, y, _)| (440..700).contains(x) && (160..210).contains(y))
        .map(|(_, _, p)| i32::from(p.0[0]) - i32::from(p.0[1]))
        .max()
        .unwrap();
    assert!(reddest > 150, "{reddest}");
}

#[test]
fn a_custom_background_covers_the_card() {
    let t = TemplateKind::Welcome1.template();
    let args = defaults(t);
    let a = avatar();
    // A wide image, cropped to cover: its centre colour fills the corners.
    let bg = RgbaImage::from_fn(300, 100, |x, _| {
        if (50..250).contains(&x) {
            image::Rgba([10, 200, 30, 255])
        } else {
            image::Rgba([250, 0, 0, 255])
        }
    });
    let img = render_template_with(t, &args, Some(&a), Some(&bg)).unwrap();
    assert_eq!(img.get_pixel(3, 3).0, [10, 200, 30, 255]);
    assert_eq!(img.get_pixel(1196, 596).0, [10, 200, 30, 255]);
    let plain = render_template(t, &args, Some(&a)).unwrap();
    assert_ne!(plain.get_pixel(3, 3).0, [10, 200, 30, 255]);
}

#[test]
fn an_animated_background_and_avatar_align_by_time() {
    let t = TemplateKind::Welcome3.template();
    let args = defaults(t);
    // A still avatar: the background's frames and delays.
    let plan = plan_frames_with(t, &args, &[0], &[100, 50, 150]);
    let got: Vec<(usize, usize, u32)> = plan
        .iter()
        .map(|f| (f.avatar_frame, f.image_frame, f.delay_ms))
        .collect();
    assert_eq!(got, [(0, 0, 100), (0, 1, 50), (0, 2, 150)]);
    // Both animated: every change of either, over the longer loop (400 ms
    // of background, the 200 ms avatar loop played twice).
    let plan = plan_frames_with(t, &args, &[100, 100], &[300, 100]);
    let got: Vec<(usize, usize, u32)> = plan
        .iter()
        .map(|f| (f.avatar_frame, f.image_frame, f.delay_ms))
        .collect();
    assert_eq!(got, [(0, 0, 100), (1, 0, 100), (0, 0, 100), (1, 1, 100)]);
    let total: u32 = plan.iter().map(|f| f.delay_ms).sum();
    assert_eq!(total, 400);
    // Many changes: at most the cap, the time kept.
    let plan = plan_frames_with(t, &args, &[30; 200], &[70; 150]);
    assert!(plan.len() <= MAX_TEMPLATE_FRAMES);
    let total: u64 = plan.iter().map(|f| u64::from(f.delay_ms)).sum();
    assert_eq!(total, 150 * 70);
    // An animated template keeps its rate and covers the longer loop.
    let pet = TemplateKind::Petpet.template();
    let plan = plan_frames_with(pet, &defaults(pet), &[0], &[500, 500]);
    assert_eq!(plan.len(), 30);
    assert_eq!(plan[13].image_frame, 1);
    // The frames render, each with both sources.
    let (a, b) = (
        avatar(),
        crate::limits::solid(64, 64, [20, 200, 60]).unwrap(),
    );
    let plan = plan_frames_with(t, &args, &[100, 100], &[300, 100]);
    let mut frames = Vec::new();
    render_planned_frames_with(
        t,
        &args,
        &[(&a, 100), (&b, 100)],
        &[(&b, 300), (&a, 100)],
        &plan,
        None,
        |f, d| {
            frames.push((f, d));
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[0].0.get_pixel(5, 5).0, [20, 200, 60, 255]);
    assert_ne!(frames[3].0.get_pixel(5, 5).0, [20, 200, 60, 255]);
    assert_ne!(frames[0].0, frames[1].0, "the avatar moved");
}

#[test]
fn the_exact_blend_matches_tiny_skia_within_a_level() {
    // Art with every alpha over a busy background, placed inside.
    let mut art = Pixmap::new(64, 48).unwrap();
    for (i, px) in art.data_mut().chunks_exact_mut(4).enumerate() {
        let a = (i * 7 % 256) as u8;
        let c = |k: usize| ((i * k % 256) as u32 * u32::from(a) / 255) as u8;
        px.copy_from_slice(&[c(3), c(5), c(11), a]);
    }
    let mut base = Pixmap::new(100, 80).unwrap();
    for (i, px) in base.data_mut().chunks_exact_mut(4).enumerate() {
        px.copy_from_slice(&[(i % 256) as u8, (i * 3 % 256) as u8, 90, 255]);
    }
    let mut ours = base.clone();
    blit_exact(&mut ours, &art, 20, 16, 1.0);
    let mut theirs = base;
    theirs.draw_pixmap(
        20,
        16,
        art.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    let worst = ours
        .data()
        .iter()
        .zip(theirs.data())
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap();
    assert!(worst <= 1, "{worst}");
}

/// Every template with a camera, over a still avatar, gives its frames as
/// one picture and its places: composed, they are the frames drawn one by
/// one, with their delays. Over an animated avatar, or without a camera,
/// the frames are drawn instead.
#[test]
fn placed_frames_compose_to_the_frames_drawn() {
    let a = avatar();
    let mut cameras = 0;
    for kind in TemplateKind::ALL {
        let t = kind.template();
        let args = defaults(t);
        let plan = plan_frames(t, &args, &[0]);
        let placed = render_placed_frames(t, &args, &[(&a, 0)], &[], &plan, None).unwrap();
        let Some(placed) = placed else {
            assert!(t.camera.is_none(), "{kind:?}");
            continue;
        };
        cameras += 1;
        assert!(placed.fits(), "{kind:?}");
        assert_eq!(placed.canvas, t.size);
        let drawn = render_template_frames(t, &args, &[(&a, 0)], None).unwrap();
        assert_eq!(placed.frames.len(), drawn.len(), "{kind:?}");
        for (k, (frame, delay)) in drawn.iter().enumerate() {
            let (composed, d) = (placed.frame(k), placed.frames[k].1);
            assert!(composed == *frame, "{kind:?}: frame {k}");
            assert_eq!(d, *delay);
        }
        let b = crate::limits::solid(96, 96, [20, 200, 40]).unwrap();
        let moving = plan_frames(t, &args, &[40, 40]);
        let two = [(&a, 40), (&b, 40)];
        assert!(
            render_placed_frames(t, &args, &two, &[], &moving, None)
                .unwrap()
                .is_none()
        );
    }
    assert!(cameras >= 1);
}

/// Every template that gives its frames as changed rectangles (amongus,
/// heart-locket) gives, composed, the frames drawn one by one, with their delays, and the
/// GIF of them: by default, with a text of its own, and over an avatar with
/// transparent pixels or none. Templates with a camera, or whose frames
/// come back to an earlier look (petpet), and plans over an animated
/// avatar, draw their frames instead.
#[test]
fn patched_frames_compose_to_the_frames_drawn() {
    let a = avatar();
    let deadline = Deadline::after(std::time::Duration::from_secs(3600));
    let mut patched_kinds = Vec::new();
    for (kind, t) in all() {
        if !t.is_animated() {
            continue;
        }
        let texts: [&[(&str, &str)]; 2] = [
            &[],
            &[
                ("username", "Ferris"),
                ("impostor", "true"),
                ("custom", "gone fishing"),
            ],
        ];
        for given in texts {
            let Ok(args) = t.args(|n| given.iter().find(|(k, _)| *k == n).map(|(_, v)| *v)) else {
                continue;
            };
            for source in [Some(&a), None] {
                let avatar: Vec<(&RgbaImage, u32)> = source.map(|a| (a, 0)).into_iter().collect();
                let plan = plan_frames(t, &args, &[0]);
                let patched = render_patched_frames(t, &args, &avatar, &[], &plan, None).unwrap();
                let Some(patched) = patched else {
                    continue;
                };
                if !patched_kinds.contains(&kind) {
                    patched_kinds.push(kind.clone());
                }
                assert!(patched.fits(), "{kind}");
                let drawn = render_template_frames(t, &args, &avatar, None).unwrap();
                let composed = patched.composed();
                assert_eq!(composed.len(), drawn.len(), "{kind}");
                for (k, ((frame, delay), (c, d))) in drawn.iter().zip(&composed).enumerate() {
                    assert!(c == frame, "{kind} {given:?}: frame {k}");
                    assert_eq!(d, delay);
                }
                // Some frames are the frame before again; amongus's
                // rectangles are under half the canvas (the locket's
                // twinkles are art as large as the canvas).
                assert!(patched.frames.iter().skip(1).any(|(p, _)| p.is_none()));
                for p in patched.frames.iter().filter_map(|(p, _)| p.as_ref()) {
                    let area = p.pixels.width() * p.pixels.height();
                    assert!(kind != "Amongus" || area < t.size.0 * t.size.1 / 2);
                }
                let (frames, delays): (Vec<RgbaImage>, Vec<u32>) = drawn.into_iter().unzip();
                let whole =
                    crate::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
                let gif = crate::animation::encode_gif_patched(
                    &patched,
                    crate::Loops::Infinite,
                    &deadline,
                )
                .unwrap();
                assert!(
                    gif == whole,
                    "{kind}: {} bytes, {} drawn",
                    gif.len(),
                    whole.len()
                );
                let b = crate::limits::solid(96, 96, [20, 200, 40]).unwrap();
                let moving = plan_frames(t, &args, &[40, 40]);
                let two = [(&a, 40), (&b, 40)];
                assert!(
                    render_patched_frames(t, &args, &two, &[], &moving, None)
                        .unwrap()
                        .is_none()
                );
            }
        }
    }
    assert_eq!(patched_kinds, ["Amongus", "HeartLocket"]);
}

/// A render's prepared avatar and second picture go back to the buffer
/// store when it is done with them: the next take of their size gets the
/// same memory (the sizes of kiss's two portraits, which no other test's
/// image has).
#[test]
fn prepared_pictures_go_back_to_the_buffer_store() {
    let t = TemplateKind::Kiss.template();
    let args = t.args(|_| None).unwrap();
    let (a, b) = (
        avatar(),
        crate::limits::solid(300, 300, [40, 90, 200]).unwrap(),
    );
    let images = draw::PreparedImages::new(t, Some(&b)).unwrap();
    let prepared = draw::Prepared::new(t, &args, Some(&a)).unwrap();
    let buffers = |slots: &[Option<tiny_skia::Pixmap>]| -> Vec<(usize, usize)> {
        slots
            .iter()
            .flatten()
            .map(|p| (p.data().as_ptr() as usize, p.data().len()))
            .collect()
    };
    let kept = [buffers(&images.slots), buffers(&prepared.slots)];
    assert!(kept.iter().all(|k| k.len() == 1), "{kept:?}");
    drop(images);
    drop(prepared);
    for (ptr, len) in kept.into_iter().flatten() {
        let again = crate::buffers::take(len);
        assert_eq!(again.as_ptr() as usize, ptr, "a buffer of {len} bytes");
        crate::buffers::recycle(again);
    }
}
