//! Goldens of the one-avatar memes (`wanted`, `rip`, `trash`, `delete`,
//! `beautiful`, `stonks`), with the 256 × 256 avatar: their defaults, and
//! Arabic, CJK and emoji in their text slots.

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

fn still(kind: TemplateKind, params: &[(&str, &str)]) -> RgbaImage {
    crate::still(kind, params)
}

golden! {
    meme_wanted => still(TemplateKind::Wanted, &[("name", "Ferris the Crab"), ("reward", "1500000")]);
    meme_wanted_blank => still(TemplateKind::Wanted, &[]);
    meme_wanted_arabic => still(TemplateKind::Wanted, &[("name", "محمد الصقر 🌵"), ("reward", "0")]);
    meme_wanted_cjk_emoji => still(TemplateKind::Wanted, &[("name", "ユウキ 🤠🐎"), ("reward", "1000000000000")]);
    meme_rip => still(TemplateKind::Rip, &[("text", "Here lies my sleep schedule"), ("years", "1999 – 2024")]);
    meme_rip_blank => still(TemplateKind::Rip, &[]);
    meme_rip_arabic => still(TemplateKind::Rip, &[("text", "ارقد بسلام يا صديقي 🕊️"), ("years", "٢٠٠١ – ٢٠٢٤")]);
    meme_rip_cjk_emoji => still(TemplateKind::Rip, &[("text", "安らかに眠れ 💀🪦 我的周末"), ("years", "2024年 – 永遠")]);
    meme_trash => still(TemplateKind::Trash, &[]);
    meme_delete => still(TemplateKind::Delete, &[]);
    meme_delete_named => still(TemplateKind::Delete, &[("filename", "我的作业_最终版 (3) 📁.png")]);
    meme_beautiful => still(TemplateKind::Beautiful, &[]);
    meme_beautiful_arabic => still(TemplateKind::Beautiful, &[("title", "الموناليزا ✨")]);
    meme_stonks => still(TemplateKind::Stonks, &[]);
    meme_stonks_caption => still(TemplateKind::Stonks, &[("text", "not stonks 📉")]);
}
