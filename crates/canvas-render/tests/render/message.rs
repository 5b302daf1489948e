//! Goldens of the chat message card, with the 256 × 256 avatar: dark and
//! light, a bot tag and a reply line, every mark of its markup, and
//! Arabic, CJK and emoji text.

use canvas_render::RgbaImage;
use canvas_render::template::TemplateKind;

/// One test per case, and the list of case names in [`CASES`].
macro_rules! golden {
    ($($name:ident => $render:expr;)*) => {
        $(
            #[test]
            fn $name() {
                crate::render(stringify!($name), $render);
            }
        )*
        /// Every golden case of this file, by name.
        pub const CASES: &[&str] = &[$(stringify!($name)),*];
    };
}

fn message(params: &[(&str, &str)]) -> RgbaImage {
    crate::still(TemplateKind::Message, params)
}

golden! {
    message_dark_bot => message(&[
        ("username", "Ferris"),
        ("color", "e67e22"),
        ("bot", "true"),
        ("timestamp", "2026-11-29T08:15:00Z"),
        ("text", "**Build passed** on *main*: ~~3 failures~~ 0 failures, see `cargo xtask test` @here 🎉"),
    ]);
    message_light_reply => message(&[
        ("username", "Ana"),
        ("theme", "light"),
        ("timestamp", "2026-11-29T20:15:00+05:30"),
        ("reply_username", "Ferris"),
        ("reply_color", "1abc9c"),
        ("reply_text", "did anyone see the **release notes**? they are long and the line is cut with an ellipsis at the card's edge"),
        ("text", "Yes, _twice_. The second read was better."),
    ]);
    message_arabic => message(&[
        ("username", "فاطمة"),
        ("text", "مرحبا **بالعالم**! هذه رسالة طويلة تلتف على عدة أسطر لترى كيف ينمو الإطار مع النص 🌙 @سارة"),
    ]);
    message_cjk_emoji => message(&[
        ("username", "ユウキ 🤠"),
        ("theme", "light"),
        ("text", "你好世界 **太棒了** 👍🏽 `コード` ~~削除~~ 안녕하세요 🐎🌸\nsecond line"),
    ]);
}
