//! Text layout of canvas-render: laying out, fitting and drawing arbitrary
//! user text (any script, controls, huge words) never panics, and a fitted
//! layout respects its font-size floor.
#![no_main]

use canvas_render::text::{self, FontFace, TextBox, TextStyle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, rest)) = data.split_first() else {
        return;
    };
    let Ok(s) = std::str::from_utf8(rest) else {
        return;
    };
    if s.len() > 2048 {
        return;
    }
    let face = match knobs % 4 {
        0 => FontFace::Regular,
        1 => FontFace::Bold,
        2 => FontFace::Meme,
        _ => FontFace::SerifItalic,
    };
    let size = 10.0 + f32::from(knobs / 4) * 1.5;
    let style = TextStyle::new(face, size).outline([0, 0, 0, 255], 2.0);
    let area = TextBox::new(4.0, 4.0, 120.0, 60.0);
    // Layout sanitises the text itself; only control characters may leave
    // nothing to lay out.
    let blank = s.chars().all(char::is_control);
    let _ = text::layout_text(s, &style, 40.0 + f32::from(knobs));
    if let Ok(layout) = text::fit_text(s, &style, area, 10.0) {
        assert!(layout.font_size() >= 10.0 - f32::EPSILON || blank);
        let mut img = canvas_render::solid(128, 68, [255, 255, 255]).expect("small canvas");
        text::draw_layout(&mut img, &layout, &style, area);
    }
});
