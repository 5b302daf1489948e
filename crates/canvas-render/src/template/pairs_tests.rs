//! The two-avatar memes: the pair's percentage, the meter and verdict
//! conditions, and the locket's opening.

use super::*;

const PAIRS: [TemplateKind; 7] = [
    TemplateKind::Ship,
    TemplateKind::Kiss,
    TemplateKind::Slap,
    TemplateKind::Hug,
    TemplateKind::Fuse,
    TemplateKind::Vs,
    TemplateKind::HeartLocket,
];

#[test]
fn every_pair_meme_draws_the_avatar_and_the_second_picture() {
    for kind in PAIRS {
        let t = kind.template();
        assert!(t.uses_avatar(), "{kind:?}");
        assert_eq!(t.image_source(), Some(SECOND_AVATAR), "{kind:?}");
    }
    assert!(TemplateKind::HeartLocket.template().is_animated());
    assert!(PAIRS[..6].iter().all(|k| !k.template().is_animated()));
}

#[test]
fn the_ship_percentage_is_stable_order_free_and_spread() {
    let a = "https://cdn.example/avatars/1.png";
    let b = "https://cdn.example/avatars/2.png";
    assert_eq!(ship_percent(a, b), ship_percent(b, a));
    assert_eq!(ship_percent(a, b), ship_percent(&format!(" {a} "), b));
    // Fixed for good: a stored pair keeps its percentage across releases.
    assert_eq!(ship_percent(a, b), ship_percent(a, b));
    let mut seen = [0u32; 101];
    for i in 0..2000 {
        let p = ship_percent(&format!("https://x.example/{i}.png"), b);
        assert!(p <= 100);
        seen[p as usize] += 1;
    }
    // 2000 pairs over 101 values: every value drawn, none hogging.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    assert!(seen.iter().all(|&n| n < 60), "{seen:?}");
    assert_ne!(
        ship_percent(a, b),
        ship_percent(a, "https://cdn.example/avatars/3.png")
    );
}

/// The layers of `ship` drawn for `percent`, conditions unwrapped.
fn drawn(percent: u64) -> Vec<&'static Layer> {
    let t = TemplateKind::Ship.template();
    let value = percent.to_string();
    let args = t
        .args(|n| (n == SHIP_PERCENT).then_some(value.as_str()))
        .unwrap();
    fn open<'a>(layer: &'a Layer, args: &Args) -> Option<&'a Layer> {
        match layer {
            Layer::When { when, layer } => when.holds(args).then(|| open(layer, args)).flatten(),
            other => Some(other),
        }
    }
    t.layers.iter().filter_map(|l| open(l, &args)).collect()
}

#[test]
fn ship_lights_a_heart_per_ten_percent_and_gives_one_verdict() {
    for percent in 0..=100u64 {
        let layers = drawn(percent);
        let lit = layers
            .iter()
            .filter(|l| {
                matches!(
                    l,
                    Layer::Art {
                        art: Art::HeartPip,
                        ..
                    }
                )
            })
            .count() as u64;
        assert_eq!(lit, (percent + 5) / 10, "{percent}");
        let verdicts: Vec<&str> = layers
            .iter()
            .filter_map(|l| match l {
                Layer::Text(slot) => match slot.pieces {
                    [Piece::Lit(t)] => Some(*t),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(verdicts.len(), 1, "{percent}: {verdicts:?}");
    }
    assert_eq!(drawn(100).len(), drawn(0).len() + 10);
}

#[test]
fn ship_refuses_a_percentage_over_100() {
    let t = TemplateKind::Ship.template();
    for bad in ["101", "-1", "50.5", "lots"] {
        let err = t.args(|n| (n == SHIP_PERCENT).then_some(bad)).unwrap_err();
        assert!(
            matches!(
                err,
                RenderError::InvalidParameter {
                    field: "percent",
                    ..
                }
            ),
            "{bad}: {err:?}"
        );
    }
}

fn solid(rgb: [u8; 3]) -> RgbaImage {
    RgbaImage::from_pixel(64, 64, image::Rgba([rgb[0], rgb[1], rgb[2], 255]))
}

#[test]
fn the_locket_opens_on_the_second_picture() {
    let t = TemplateKind::HeartLocket.template();
    let args = t.args(|_| None).unwrap();
    let (red, blue) = (solid([220, 20, 20]), solid([20, 20, 220]));
    let plan = plan_frames_with(t, &args, &[0], &[0]);
    assert_eq!(plan.len(), 24);
    let mut frames = Vec::new();
    render_planned_frames_with(
        t,
        &args,
        &[(&red, 0)],
        &[(&blue, 0)],
        &plan,
        None,
        |f, d| {
            frames.push((f, d));
            Ok(())
        },
    )
    .unwrap();
    let is = |f: &RgbaImage, (x, y): (u32, u32), rgb: [u8; 3]| {
        let p = f.get_pixel(x, y);
        (0..3).all(|i| p[i].abs_diff(rgb[i]) < 12)
    };
    // The windows' centres once open, at design (182, 252) and (422, 252).
    let k = super::art::pairs::LOCKET_STORED;
    let at = |x: f32, y: f32| ((x * k) as u32, (y * k) as u32);
    let (left, right) = (at(182.0, 252.0), at(422.0, 252.0));
    assert_eq!(t.size, (390, 312));
    // Closed: the front hides the first picture, the second is not shown.
    assert!(!is(&frames[0].0, left, [220, 20, 20]));
    assert!(!is(&frames[0].0, right, [20, 20, 220]));
    // Open: both pictures in their windows.
    let last = &frames[23].0;
    assert!(is(last, left, [220, 20, 20]));
    assert!(is(last, right, [20, 20, 220]));
    assert!(frames.iter().all(|(_, d)| *d == 70));
}

#[test]
fn a_pair_meme_without_its_second_picture_still_renders() {
    // The library draws nothing for a missing source (the server refuses
    // the request before): no panic, the canvas's size.
    for kind in PAIRS {
        let t = kind.template();
        let args = t.args(|_| None).unwrap();
        let img = render_template(t, &args, Some(&solid([200, 120, 40]))).unwrap();
        assert_eq!(img.dimensions(), t.size, "{kind:?}");
    }
}
