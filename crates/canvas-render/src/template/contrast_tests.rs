//! Contrast as a rule: every text slot of every welcome design over every
//! welcome background, and of every rank design with the published
//! client's colours and with its own, measured against the pixels under
//! its glyphs.
//!
//! For each slot, the card is drawn without its text layers (the pixels a
//! glyph covers), and the slot alone on a transparent canvas, without its
//! outline (which pixels its glyphs cover). Over every pixel a glyph covers
//! at least half, the slot's colour (at its opacity, over that pixel) is
//! compared with the pixel by the WCAG contrast ratio of relative
//! luminances; an outline counts (the better of fill against the pixel and
//! outline against the pixel) only when it is at least 6 % of the font
//! size wide and at least half opaque: a thinner one edges a glyph but does
//! not carry it. The figure is the 10th percentile over the covered pixels,
//! so a few pixels over a star or a cloud's edge do not decide it. Titles
//! (slots of 40 px and up) need 3:1, body text 4.5:1.

use super::*;

use super::contrast::{floor, over, percentile_10, ratio, readable_ink};

/// The text layer inside `layer` (through [`Layer::When`]), if any.
fn text_layer(layer: &Layer) -> Option<&Layer> {
    match layer {
        Layer::Text(_) | Layer::PaintedText { .. } | Layer::PaletteText(..) => Some(layer),
        Layer::When { layer, .. } => text_layer(layer),
        _ => None,
    }
}

/// `layer` with its slot's outline removed.
fn without_outline(layer: &Layer) -> Layer {
    match *layer {
        Layer::Text(slot) => Layer::Text(TextSlot {
            outline: None,
            ..slot
        }),
        Layer::PaintedText { paint, slot } => Layer::PaintedText {
            paint,
            slot: TextSlot {
                outline: None,
                ..slot
            },
        },
        Layer::PaletteText(slot, palette) => Layer::PaletteText(
            TextSlot {
                outline: None,
                ..slot
            },
            palette,
        ),
        Layer::When { when, layer } => Layer::When {
            when,
            layer: Box::leak(Box::new(without_outline(layer))),
        },
        other => other,
    }
}

fn with_layers(t: &Template, layers: Vec<Layer>) -> Template {
    Template {
        layers: Box::leak(layers.into_boxed_slice()),
        ..*t
    }
}

/// One text slot's measure: its text, the figure and the floor.
#[derive(Debug)]
pub(super) struct Measure {
    pub(super) slot: String,
    pub(super) designed: f64,
    pub(super) ratio: f64,
    pub(super) floor: f64,
}

/// The contrast of every text slot of `t` drawn with `args` (and a grey
/// avatar) against the pixels under it.
pub(super) fn measure(t: &Template, args: &Args) -> Vec<Measure> {
    let avatar = crate::solid(64, 64, [128, 128, 128]).unwrap();
    let bare = with_layers(
        t,
        t.layers
            .iter()
            .filter(|l| text_layer(l).is_none())
            .copied()
            .collect(),
    );
    let under = render_template(&bare, args, Some(&avatar)).unwrap();
    let mut canvas = Canvas::new(under.width(), under.height()).unwrap();
    for (to, p) in canvas.pixmap.pixels_mut().iter_mut().zip(under.pixels()) {
        *to = tiny_skia::ColorU8::from_rgba(p[0], p[1], p[2], p[3]).premultiply();
    }
    let mut out = Vec::new();
    for layer in t.layers.iter() {
        let Some(text) = text_layer(layer) else {
            continue;
        };
        if let Layer::When { when, .. } = layer
            && !when.holds(args)
        {
            continue;
        }
        let Some((slot, (color, outline))) = text_ink(text, args) else {
            continue;
        };
        let alone = with_layers(t, vec![without_outline(layer)]);
        let glyphs = render_template(&alone, args, Some(&avatar)).unwrap();
        let under: Vec<[u8; 3]> = glyphs
            .pixels()
            .zip(under.pixels())
            .filter(|(g, _)| g[3] >= 128)
            .map(|(_, u)| [u[0], u[1], u[2]])
            .collect();
        let Some(designed) = percentile_10((color, outline), slot.size, &under) else {
            continue;
        };
        // The ink the slot is drawn in over the card: the designed one, or
        // the one the rule picks.
        let (area, style) = text_box_style(slot, (color, outline));
        let mut cached = None;
        text_shown(slot, &style, area, args, 0, &mut cached).unwrap();
        let (_, layout) = cached.unwrap();
        let drawn = readable_ink(&canvas.pixmap, slot, (color, outline), &layout);
        let figure = percentile_10(drawn, slot.size, &under).unwrap();
        out.push(Measure {
            slot: slot_text(slot, args),
            designed,
            ratio: figure,
            floor: floor(slot.size),
        });
    }
    out
}

#[path = "rank_args.rs"]
mod rank_args;
use rank_args::{RANK_CLIENT, RANK_FULL};

fn args_of(t: &Template, params: &[(&str, &str)]) -> Args {
    t.args(|name| params.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
        .unwrap()
}

/// Every case: its name and its measures.
fn cases() -> Vec<(String, Vec<Measure>)> {
    let mut out = Vec::new();
    for kind in TemplateKind::WELCOME {
        let t = kind.template();
        for bg in WELCOME_BACKGROUNDS {
            let params = [
                ("background", bg),
                ("username", "Ferris"),
                ("guildName", "Rustaceans"),
                ("memberCount", "1234"),
            ];
            out.push((format!("{kind:?} {bg}"), measure(t, &args_of(t, &params))));
        }
    }
    for kind in super::rank_tests::RANKS {
        let t = kind.template();
        for (name, params) in [("client", RANK_CLIENT), ("defaults", RANK_FULL)] {
            out.push((format!("{kind:?} {name}"), measure(t, &args_of(t, params))));
        }
    }
    out
}

#[test]
fn every_text_slot_reads_against_the_pixels_under_it() {
    let mut failures = Vec::new();
    let mut slots = 0;
    for (case, measures) in cases() {
        for m in measures {
            slots += 1;
            eprintln!(
                "{case}: {:?} designed {:.2}, drawn {:.2} (floor {})",
                m.slot, m.designed, m.ratio, m.floor
            );
            if m.ratio < m.floor {
                failures.push(format!(
                    "{case}: {:?} {:.2}:1 < {}:1",
                    m.slot, m.ratio, m.floor
                ));
            }
        }
    }
    // 7 × 13 welcome cards of 4 lines, 9 × 2 rank cards of several.
    assert!(slots >= 7 * 13 * 4 + 9 * 2 * 3, "only {slots} slots");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The measure sees unreadable text: white on white is 1:1, black on white
/// 21:1.
#[test]
fn the_measure_sees_white_on_white() {
    assert!((ratio([255; 3], [255; 3]) - 1.0).abs() < 1e-9);
    assert!((ratio([0; 3], [255; 3]) - 21.0).abs() < 1e-9);
    assert_eq!(over([0, 0, 0, 128], [255; 3]), [127; 3]);
}

/// The first bar layer of `layers`, through [`Layer::When`].
fn bar_of(layers: &[Layer]) -> Option<&BarSlot> {
    layers.iter().find_map(|l| match l {
        Layer::Bar(slot) => Some(slot),
        Layer::When { layer, .. } => bar_of(std::slice::from_ref(&**layer)),
        _ => None,
    })
}

/// The published client's `cbar` (without `ccxp`) is the bar's colour: the
/// reached part in it, the track a faint shade of it, quieter than the
/// fill on every rank design; with `ccxp` too, each is as given.
#[test]
fn a_bar_colour_given_alone_colours_the_progress_and_quiets_the_track() {
    for kind in super::rank_tests::RANKS {
        let t = kind.template();
        let bar = bar_of(t.layers).unwrap();
        let (track, fill) = bar_inks(bar, &args_of(t, RANK_CLIENT));
        assert_eq!(fill, [0x58, 0x65, 0xf2, 255], "{kind:?}");
        assert_eq!(&track[..3], &fill[..3], "{kind:?}");
        assert!(track[3] < 100, "{kind:?}: track {track:?}");
        let both: Vec<(&str, &str)> = RANK_CLIENT
            .iter()
            .copied()
            .chain([("ccxp", "ff0000")])
            .collect();
        let (track, fill) = bar_inks(bar, &args_of(t, &both));
        assert_eq!(track, [0x58, 0x65, 0xf2, 255], "{kind:?}");
        assert_eq!(fill, [0xff, 0, 0, 255], "{kind:?}");
    }
}

#[test]
fn an_ink_said_to_read_over_anything_reads_over_every_background() {
    use super::contrast::reads_over_anything;
    // Every grey, and colours across the cube: the luminances between any
    // fill and outline are all met closely.
    let mut backgrounds: Vec<[u8; 3]> = (0..=255).map(|v| [v, v, v]).collect();
    for r in (0..=255).step_by(17) {
        for g in (0..=255).step_by(17) {
            for b in (0..=255).step_by(51) {
                backgrounds.push([r, g, b]);
            }
        }
    }
    let colours = [
        [255, 255, 255, 255],
        [0, 0, 0, 255],
        [255, 230, 0, 255],
        [128, 128, 128, 255],
        [88, 101, 242, 255],
        [255, 255, 255, 200],
    ];
    let mut said = 0;
    for size in [20.0, 60.0] {
        for fill in colours {
            for outline in colours {
                let ink = (fill, Some((outline, 0.1 * size)));
                if !reads_over_anything(ink, size) {
                    continue;
                }
                said += 1;
                let worst = backgrounds
                    .iter()
                    .map(|&u| ratio(over(fill, u), u).max(ratio(over(outline, u), u)))
                    .fold(f64::INFINITY, f64::min);
                assert!(worst >= floor(size), "{ink:?} at {size}: {worst}");
            }
        }
    }
    // White in black reads at every size; white in grey, a translucent
    // fill and no outline are measured instead.
    assert!(said >= 4, "{said}");
    for size in [20.0, 60.0] {
        let white = [255, 255, 255, 255];
        assert!(reads_over_anything(
            (white, Some(([0, 0, 0, 255], 0.1 * size))),
            size
        ));
        assert!(!reads_over_anything(
            (white, Some(([128, 128, 128, 255], 0.1 * size))),
            size
        ));
        assert!(!reads_over_anything(
            ([255, 255, 255, 200], Some(([0, 0, 0, 255], 0.1 * size))),
            size
        ));
        assert!(!reads_over_anything((white, None), size));
        // An outline too thin to carry the glyph does not count.
        assert!(!reads_over_anything(
            (white, Some(([0, 0, 0, 255], 0.001 * size))),
            size
        ));
    }
}
