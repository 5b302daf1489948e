//! Goldens of the captions over any picture: each over a wide, a tall or a
//! square picture, every text-bearing one with Arabic, CJK and emoji.

use canvas_render::RgbaImage;
use canvas_render::template::{TemplateKind, render_template};

use super::{avatar, render};

golden! {
    caption_wide_scripts => caption(TemplateKind::Caption, (320, 200), &[("text", "when the build is green 🎉 مرحبا بالجميع 你好世界")]);
    caption_tall_lines => caption(TemplateKind::Caption, (200, 320), &[("text", "me explaining to my cat why the borrow checker is right")]);
    impact_square_scripts => caption(TemplateKind::Impact, (320, 320), &[("top", "one does not simply 😂"), ("bottom", "مرحبا 你好")]);
    impact_wide => caption(TemplateKind::Impact, (320, 160), &[("top", "top text"), ("bottom", "bottom text")]);
    motivate_scripts => caption(TemplateKind::Motivate, (320, 240), &[("title", "Patience 🐢"), ("text", "الصبر مفتاح الفرج · 忍耐は力なり")]);
    speechbubble_square => caption(TemplateKind::SpeechBubble, (320, 320), &[]);
}

/// `kind` over the synthetic picture of `size` with `params`.
fn caption(kind: TemplateKind, (w, h): (u32, u32), params: &[(&str, &str)]) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    render_template(t, &args, Some(&avatar(w, h))).unwrap()
}
