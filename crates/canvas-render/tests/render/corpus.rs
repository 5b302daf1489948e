//! The text corpus: realistic display names, gamer tags and chat messages in
//! many scripts (`tests/render/corpus.txt`, one entry a line, `\n` for a line
//! break inside an entry). Every entry is laid out in boxes the size of the
//! scenes' text boxes, and
//!
//! * no `.notdef` ("tofu") glyph is drawn for a character a bundled font
//!   covers (entries may hold characters no font covers; they are counted
//!   and listed, and must stay rare);
//! * no layout overflows its box: every line is at most the box's width and
//!   the block at most its height.

use canvas_render::text::{self, FontFace, TextBox, TextStyle};

fn corpus() -> Vec<String> {
    include_str!("corpus.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.replace("\\n", "\n"))
        .collect()
}

/// Characters that draw nothing on purpose (joiners, selectors, tag
/// characters, line breaks): never counted as covered or uncovered.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(c as u32, 0x200B..=0x200F | 0x2060..=0x206F | 0xFE00..=0xFE0F | 0xE0000..=0xE007F | 0x20E3)
}

#[test]
fn corpus_is_large_and_varied() {
    let entries = corpus();
    assert!(entries.len() >= 300, "{} entries", entries.len());
    // Several scripts, each with many entries.
    let has = |lo: u32, hi: u32| {
        entries
            .iter()
            .filter(|e| e.chars().any(|c| (lo..=hi).contains(&(c as u32))))
            .count()
    };
    for (name, lo, hi, min) in [
        ("Arabic", 0x0600, 0x06FF, 25),
        ("Hebrew", 0x0590, 0x05FF, 20),
        ("Devanagari", 0x0900, 0x097F, 15),
        ("Thai", 0x0E00, 0x0E7F, 15),
        ("kana", 0x3040, 0x30FF, 20),
        ("Han", 0x4E00, 0x9FFF, 40),
        ("Hangul", 0xAC00, 0xD7A3, 20),
        ("Cyrillic", 0x0400, 0x04FF, 15),
        ("emoji", 0x1F300, 0x1FAFF, 60),
    ] {
        assert!(has(lo, hi) >= min, "{name}: {}", has(lo, hi));
    }
}

#[test]
fn corpus_draws_no_tofu_for_covered_characters_and_never_overflows() {
    let entries = corpus();
    let styles = [
        // post body, namecard name, meme caption, quote
        (
            TextStyle::new(FontFace::Regular, 52.0),
            TextBox::new(0.0, 0.0, 1088.0, 360.0),
            20.0,
        ),
        (
            TextStyle::new(FontFace::Bold, 40.0),
            TextBox::new(0.0, 0.0, 300.0, 60.0),
            10.0,
        ),
        (
            TextStyle::meme(56.0),
            TextBox::new(0.0, 0.0, 380.0, 120.0),
            12.0,
        ),
        (
            TextStyle::new(FontFace::SerifItalic, 48.0),
            TextBox::new(0.0, 0.0, 640.0, 300.0),
            14.0,
        ),
    ];
    let mut distinct = std::collections::BTreeSet::new();
    let mut uncovered = std::collections::BTreeSet::new();
    let mut tofu_in_covered = Vec::new();
    let mut glyphs = 0usize;
    for entry in &entries {
        let mut covered = true;
        for c in entry.chars().filter(|&c| !invisible(c)) {
            distinct.insert(c);
            if !text::has_glyph(c) {
                uncovered.insert(c);
                covered = false;
            }
        }
        for (style, area, min) in &styles {
            let l = text::fit_text(entry, style, *area, *min).unwrap();
            let outline = style.outline.map(|o| o.width * 2.0).unwrap_or(0.0);
            assert!(
                l.width() <= area.width - outline + 0.01,
                "{entry:?} is {} wide in a {} px box",
                l.width(),
                area.width
            );
            assert!(
                l.height() <= area.height + 0.01,
                "{entry:?} is {} high in a {} px box",
                l.height(),
                area.height
            );
            glyphs += l.glyph_count();
            if covered && l.missing_glyphs() > 0 {
                tofu_in_covered.push((entry.clone(), l.missing_glyphs()));
            }
            // Wrapping at any width never overflows either, except for a
            // line of one glyph wider than the width (a cluster is not split).
            for width in [37.0, 120.0, 333.0] {
                let w = text::layout_text(entry, style, width).unwrap();
                for (line, glyphs) in w.line_sizes() {
                    assert!(
                        line <= width + 0.01 || glyphs == 1,
                        "{entry:?} at {width}: {line} px, {glyphs} glyphs"
                    );
                }
            }
        }
    }
    println!(
        "corpus: {} entries, {} distinct characters, {} covered, {} uncovered {:?}, {} glyphs drawn, tofu in covered entries: {}",
        entries.len(),
        distinct.len(),
        distinct.len() - uncovered.len(),
        uncovered.len(),
        uncovered,
        glyphs,
        tofu_in_covered.len()
    );
    assert!(
        tofu_in_covered.is_empty(),
        "tofu drawn: {tofu_in_covered:?}"
    );
    // Coverage of the corpus itself: at most 1 % of its distinct characters
    // lack a font.
    assert!(
        uncovered.len() * 100 <= distinct.len(),
        "uncovered: {uncovered:?}"
    );
}

#[test]
fn corpus_names_render_in_posts_within_the_card() {
    // Every tenth entry as a display name and comment, through the template.
    use canvas_render::template::{TemplateKind, render_template};
    let t = TemplateKind::Post.template();
    for entry in corpus().iter().step_by(10) {
        let comment = entry.repeat(3);
        let args = t
            .args(|n| match n {
                "username" => Some("user"),
                "displayname" => Some(entry.as_str()),
                "comment" => Some(comment.as_str()),
                _ => None,
            })
            .unwrap();
        let img = render_template(t, &args, None).unwrap();
        assert_eq!(img.dimensions(), t.size_for(&args), "{entry:?}");
    }
}

#[test]
fn corpus_fits_every_text_slot_of_every_welcome_card() {
    use canvas_render::template::{Layer, TemplateKind, render_template};
    let entries = corpus();
    let names: Vec<&String> = entries.iter().filter(|e| !e.contains('\n')).collect();
    for kind in TemplateKind::WELCOME {
        let t = kind.template();
        let mut slots = 0;
        for layer in t.layers {
            let slot = match layer {
                Layer::Text(s) | Layer::PaletteText(s, _) => s,
                _ => continue,
            };
            slots += 1;
            let (x, y, w, h) = slot.area;
            let area = TextBox::new(x, y, w, h);
            let mut style = TextStyle::new(slot.face, slot.size);
            if let Some((c, width)) = slot.outline {
                style = style.outline(c, width);
            }
            for entry in &names {
                let l = text::fit_text(entry, &style, area, slot.min_size).unwrap();
                let outline = style.outline.map(|o| o.width * 2.0).unwrap_or(0.0);
                assert!(
                    l.width() <= w - outline + 0.01 && l.height() <= h + 0.01,
                    "{kind:?}: {entry:?} is {}×{} in {w}×{h}",
                    l.width(),
                    l.height()
                );
                assert_eq!(l.line_count(), 1, "{kind:?}: {entry:?} stays on one line");
                let covered = entry.chars().all(|c| invisible(c) || text::has_glyph(c));
                assert!(
                    !covered || l.missing_glyphs() == 0,
                    "{kind:?}: tofu in {entry:?}"
                );
            }
        }
        assert_eq!(slots, 4, "{kind:?}");
        // A sample through the whole card, as username and server name.
        let avatar = canvas_render::solid(64, 64, [90, 120, 200]).unwrap();
        for entry in names.iter().step_by(25) {
            let name: String = entry.chars().take(64).collect();
            let args = t
                .args(|n| match n {
                    "username" => Some(name.as_str()),
                    "guildName" => Some(name.as_str()),
                    _ => None,
                })
                .unwrap();
            let img = render_template(t, &args, Some(&avatar)).unwrap();
            assert_eq!(img.dimensions(), (1200, 600));
        }
    }
}

/// Whether the pieces hold a text parameter (a name or a tag).
fn names_text(pieces: &[canvas_render::template::Piece]) -> bool {
    use canvas_render::template::Piece;
    pieces.iter().any(|p| match p {
        Piece::Param(_) => true,
        Piece::IfSet { pieces, .. } => names_text(pieces),
        _ => false,
    })
}

#[test]
fn corpus_fits_every_text_slot_of_every_rank_card_without_tofu() {
    use canvas_render::template::{TemplateKind, render_template};
    let entries = corpus();
    let ranks = TemplateKind::ALL
        .into_iter()
        .filter(|k| format!("{k:?}").starts_with("Rank"))
        .collect::<Vec<_>>();
    assert_eq!(ranks.len(), 9);
    let mut tofu = Vec::new();
    for kind in &ranks {
        for slot in kind.template().text_slots() {
            let mut style = TextStyle::new(slot.face, slot.size);
            if let Some((c, w)) = slot.outline {
                style = style.outline(c, w);
            }
            let (x, y, w, h) = slot.area;
            let area = TextBox::new(x, y, w, h);
            for entry in &entries {
                let l = text::fit_text(entry, &style, area, slot.min_size).unwrap();
                assert!(
                    l.width() <= w + 0.01 && l.height() <= h + 0.01,
                    "{kind:?}: {entry:?} is {}×{} in a {w}×{h} box",
                    l.width(),
                    l.height()
                );
                // One line: names shrink, then are cut, never wrapped.
                assert!(
                    !names_text(slot.pieces) || entry.contains('\n') || l.line_count() == 1,
                    "{kind:?}: {entry:?} takes {} lines in a {w}×{h} box",
                    l.line_count()
                );
                let covered = entry
                    .chars()
                    .filter(|&c| !invisible(c))
                    .all(text::has_glyph);
                if covered && l.missing_glyphs() > 0 {
                    tofu.push((format!("{kind:?}"), entry.clone()));
                }
            }
        }
    }
    assert!(tofu.is_empty(), "tofu drawn: {tofu:?}");
    // Every tenth entry as the name (and a long tag) on every card.
    let avatar = canvas_render::solid(64, 64, [90, 120, 200]).unwrap();
    for entry in entries.iter().step_by(10) {
        let name: String = entry.chars().take(64).collect();
        for kind in &ranks {
            let t = kind.template();
            let args = t
                .args(|n| match n {
                    "username" => Some(name.as_str()),
                    "discriminator" => Some("12345678"),
                    "rank" => Some("1000000000"),
                    "level" => Some("999999999"),
                    _ => None,
                })
                .unwrap();
            let img = render_template(t, &args, Some(&avatar)).unwrap();
            assert_eq!(img.dimensions(), (900, 300), "{kind:?} {entry:?}");
        }
    }
}
