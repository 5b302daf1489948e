//! The render test-suite: golden images and property tests.
//!
//! # Golden images
//!
//! Each case renders one image from inputs generated in code (no third-party
//! pictures, no system fonts) and compares it with
//! `tests/reference/<case>.png`:
//!
//! * **tolerance**: for every pixel, alpha and each colour channel
//!   *premultiplied by alpha* (`c · a / 255`, what is actually visible) may
//!   differ by at most [`TOLERANCE`] (= 2) from the reference, which absorbs
//!   rounding differences between CPUs (tiny-skia's SIMD paths, float
//!   resampling) and the meaningless colour of (nearly) transparent pixels;
//!   any larger difference, or a different size, fails;
//! * **regenerate**: `UPDATE_REFS=1 cargo test -p canvas-render --test render`
//!   rewrites the references of every case run (look at them before
//!   committing!);
//! * **on mismatch** a side-by-side image *reference | actual | difference*
//!   is written to `tests/render/failures/<case>.png` (git-ignored); in the
//!   difference panel, pixels within tolerance are dim grey and the others
//!   red, brighter for larger differences.
//!
//! Adding a case is one line in the [`golden!`] list below: `name => expr;`
//! where `expr` evaluates to an [`RgbaImage`].
//!
//! # Properties
//!
//! [`properties`] checks filter invariants on random images with proptest.

mod animated;
mod corpus;
mod effects;
#[cfg(feature = "files")]
mod files;
mod memes_one;
mod message;
mod properties;
#[path = "../../src/template/rank_args.rs"]
mod rank_args;

use std::path::{Path, PathBuf};

use canvas_render::template::{
    TemplateKind, plan_frames_with, render_planned_frames_with, render_template,
    render_template_frames,
};
use canvas_render::text::{self, FontFace, TextBox, TextStyle};
use canvas_render::{
    Brightness, Filter, PrideFlag, RgbaImage, Threshold, apply, circle, heart, pride,
};
use image::Rgba;
use rank_args::{RANK_CLIENT, RANK_FULL};

/// Largest accepted difference per channel between a render and its reference.
const TOLERANCE: u8 = 2;

/// One test per case, plus the list of case names in [`CASES`].
macro_rules! golden {
    ($($name:ident => $render:expr;)*) => {
        $(
            #[test]
            fn $name() {
                render(stringify!($name), $render);
            }
        )*
        /// Every golden case, by name.
        pub(crate) const CASES: &[&str] = &[$(stringify!($name)),*];
    };
}

mod captions;

golden! {
    // Filters, on the 128 × 128 synthetic avatar (which has transparent parts).
    filter_blue => filter(Filter::Blue);
    filter_blur => filter(Filter::Blur);
    filter_blurple => filter(Filter::Blurple);
    filter_blurple2 => filter(Filter::Blurple2);
    filter_brightness_default => filter(Filter::Brightness(Brightness::DEFAULT));
    filter_brightness_75 => filter(Filter::Brightness(Brightness::new(75.0).unwrap()));
    filter_color_default => filter(Filter::Color(Filter::DEFAULT_COLOR));
    filter_color_orange => filter(Filter::Color([255, 140, 0]));
    filter_green => filter(Filter::Green);
    filter_greyscale => filter(Filter::Greyscale);
    filter_invert => filter(Filter::Invert);
    filter_invertgreyscale => filter(Filter::InvertGreyscale);
    filter_pixelate => filter(Filter::Pixelate);
    filter_red => filter(Filter::Red);
    filter_sepia => filter(Filter::Sepia);
    filter_threshold_default => filter(Filter::Threshold(Threshold::DEFAULT));
    filter_threshold_60 => filter(Filter::Threshold(Threshold::new(60.0).unwrap()));
    filter_blur_large => apply(&Filter::Blur, &avatar(512, 512)).unwrap();
    filter_pixelate_large => apply(&Filter::Pixelate, &avatar(512, 512)).unwrap();
    // Shapes: a wide avatar (cropped to fill) and a small one (scaled up).
    shape_circle => circle(&avatar(200, 150)).unwrap();
    shape_circle_small => circle(&avatar(40, 40)).unwrap();
    shape_heart => heart(&avatar(200, 150)).unwrap();
    shape_pride_bisexual => pride(&avatar(200, 150), PrideFlag::Bisexual).unwrap();
    shape_pride_lesbian => pride(&avatar(200, 150), PrideFlag::Lesbian).unwrap();
    shape_pride_lgbt => pride(&avatar(200, 150), PrideFlag::Lgbt).unwrap();
    shape_pride_nonbinary => pride(&avatar(200, 150), PrideFlag::Nonbinary).unwrap();
    shape_pride_pansexual => pride(&avatar(200, 150), PrideFlag::Pansexual).unwrap();
    shape_pride_transgender => pride(&avatar(150, 220), PrideFlag::Transgender).unwrap();
    // Animated GIF output: a frame of a 4-frame moving avatar, as decoded.
    gif_frame_greyscale => animated::gif_frame(|f| apply(&Filter::Greyscale, f).unwrap(), 2);
    gif_frame_sepia => animated::gif_frame(|f| apply(&Filter::Sepia, f).unwrap(), 1);
    gif_frame_circle => animated::gif_frame(|f| circle(f).unwrap(), 3);
    // Scenes, at their fixed sizes, with the 256 × 256 avatar.
    scene_horny => template(TemplateKind::Horny, 0, &[]);
    scene_its_so_stupid => still(TemplateKind::ItsSoStupid, &[("dog", "my sleep schedule")]);
    scene_lied => still(TemplateKind::Lied, &[("username", "Ferris")]);
    scene_lied_anonymous => still(TemplateKind::Lied, &[]);
    scene_lolice => still(TemplateKind::Lolice, &[]);
    scene_namecard => template(TemplateKind::Namecard, 0, &[
        ("username", "Ferris the Crab"),
        ("birthday", "May 15"),
        ("description", "Systems programmer, part-time crustacean. Γειά σου, Привет! Likes long walks on the beach."),
    ]);
    scene_namecard_no_avatar => no_avatar(TemplateKind::Namecard, &[("username", "Nobody")]);
    scene_nobitches => still(TemplateKind::NoBitches, &[("no", "no bitches?"), ("bottomtext", "only tests")]);
    scene_sage => template(TemplateKind::Sage, 0, &[("quote", "The river does not hurry, yet it arrives.")]);
    scene_sage2 => template(TemplateKind::Sage2, 0, &[("quote", "Slow is smooth, and smooth is fast.")]);
    scene_simpcard => template(TemplateKind::Simpcard, 0, &[]);
    scene_series => still(TemplateKind::Series, &[]);
    scene_post_light => template(TemplateKind::Post, 0, &[
        ("username", "ferris"),
        ("displayname", "Ferris the Crab"),
        ("comment", "just rewrote it in Rust and it's 40x faster. no regrets."),
    ]);
    scene_post_dim_long => template(TemplateKind::Post, 0, &[
        ("username", "ferris"),
        ("displayname", "Ferris"),
        ("comment", "Wrapping, shrink-to-fit and the fallback chain: Ελληνικά, кириллица, שלום, 😀, e\u{301}, tofu 中. ".repeat(8).as_str()),
        ("theme", "dim"),
    ]);
    scene_post_dark => template(TemplateKind::Post, 0, &[
        ("username", "night_owl"),
        ("displayname", "Night Owl"),
        ("comment", "it is 3am and the build is green"),
        ("theme", "dark"),
        ("retweets", "7"),
        ("replies", "0"),
        ("likes", "1250000"),
    ]);
    scene_video_comment => template(TemplateKind::VideoComment, 0, &[
        ("username", "ferris"),
        ("comment", "The part at 12:34 where the borrow checker finally clicked... chef's kiss."),
    ]);
    // Every script, and lines that mix them (text drawn on a plain card).
    text_latin_greek_cyrillic => text_card(&["Ferris the Crab — café, naïve, Łódź", "Γειά σου κόσμε · Привет, мир!"]);
    text_arabic => text_card(&["سارة 🌸", "مرحبا بالجميع، كيف حالكم؟", "مریم · چطوری؟ ١٢٣"]);
    text_hebrew => text_card(&["שלום עולם", "שבת שלום 🕯️ · מה נשמע?"]);
    text_devanagari_bengali_tamil => text_card(&["नमस्ते दुनिया · क्षत्रिय", "আমি তোমাকে ভালোবাসি", "வணக்கம் தமிழ்"]);
    text_thai => text_card(&["สวัสดีครับ ขอบคุณค่ะ", "กรุงเทพมหานคร"]);
    text_cjk => text_card(&["✨ユウキ✨ 今日はいい天気", "你好世界 · 繁體中文 · 謝謝", "안녕하세요 감사합니다"]);
    text_emoji => text_card(&["👨‍👩‍👧‍👦 👍🏻👍🏽👍🏿 1️⃣#️⃣ 🇯🇵🇧🇷🇺🇦", "❤️‍🔥 🏳️‍🌈 🐈‍⬛ 🧑🏿‍🚀 😂 🦀"]);
    text_mixed_direction => text_card(&["abc שלום עולם xyz 123", "My name is سارة and I live in London", "אני גר ב-Berlin מאז 2019"]);
    text_meme_outline_scripts => text_meme("NO ユウキ? سارة 🌸");
    scene_namecard_unicode => template(TemplateKind::Namecard, 0, &[
        ("username", "✨ユウキ✨"),
        ("birthday", "4月1日"),
        ("description", "ゲームと猫が好き 🐱 · I also speak العربية and עברית · 한국어 공부 중!"),
    ]);
    scene_post_arabic_compact => template(TemplateKind::Post, 0, &[
        ("username", "sara"),
        ("displayname", "سارة 🌸"),
        ("comment", "مرحبا بالجميع 👋"),
    ]);
    scene_post_mixed_tall => template(TemplateKind::Post, 0, &[
        ("username", "polyglot"),
        ("displayname", "Polyglot 🌍"),
        ("comment", "Thank you धन्यवाद شكرا תודה 谢谢 ありがとう 감사합니다 ขอบคุณ Спасибо 🙏 ".repeat(5).as_str()),
        ("theme", "dark"),
    ]);
    scene_video_comment_tall => template(TemplateKind::VideoComment, 0, &[
        ("username", "ユウキ"),
        ("comment", "First! 🎉 この動画最高でした。The part at 12:34 where the borrow checker finally clicked... chef's kiss. ".repeat(4).as_str()),
    ]);
    scene_its_so_stupid_unicode => still(TemplateKind::ItsSoStupid, &[("dog", "我的作息 😴")]);
    scene_lied_unicode => still(TemplateKind::Lied, &[("username", "محمد ✨")]);
    scene_lied_hebrew => still(TemplateKind::Lied, &[("username", "שלום")]);
    scene_nobitches_unicode => still(TemplateKind::NoBitches, &[("no", "ผู้หญิงไม่มี?"), ("bottomtext", "नहीं 💀")]);
    scene_sage_hebrew => template(TemplateKind::Sage, 0, &[("quote", "הנהר אינו ממהר, ובכל זאת הוא מגיע.")]);
    scene_sage2_korean => template(TemplateKind::Sage2, 0, &[("quote", "천천히 가는 것이 빠르게 가는 것이다 🐢")]);
    // Templates (overlays, petpet, amongus) with the 256 × 256 avatar; the
    // animated ones at a still frame and a moving one.
    template_comrade => template(TemplateKind::Comrade, 0, &[]);
    template_gay => template(TemplateKind::Gay, 0, &[]);
    template_glass => template(TemplateKind::Glass, 0, &[]);
    template_jail => template(TemplateKind::Jail, 0, &[]);
    template_passed => template(TemplateKind::Passed, 0, &[]);
    template_wasted => template(TemplateKind::Wasted, 0, &[]);
    template_triggered_0 => template(TemplateKind::Triggered, 0, &[]);
    template_triggered_3 => template(TemplateKind::Triggered, 3, &[]);
    template_petpet_0 => template(TemplateKind::Petpet, 0, &[]);
    template_petpet_5 => template(TemplateKind::Petpet, 5, &[]);
    template_amongus_12 => template(TemplateKind::Amongus, 12, &[("username", "Ferris")]);
    template_amongus_29 => template(TemplateKind::Amongus, 29, &[("username", "Ferris"), ("impostor", "true")]);
    template_amongus_arabic => template(TemplateKind::Amongus, 29, &[("username", "محمد ✨")]);
    template_amongus_hebrew => template(TemplateKind::Amongus, 29, &[("username", "שלום"), ("impostor", "true")]);
    template_amongus_custom => template(TemplateKind::Amongus, 29, &[("custom", "Soheab was not The Impostor.")]);
    // Welcome cards at half size (600 × 300: small goldens), each over
    // another background, and every background once.
    welcome_1 => welcome(TemplateKind::Welcome1, &[("background", "space"), ("username", "Ferris the Crab"), ("guildName", "Rustaceans"), ("memberCount", "1234")]);
    welcome_2 => welcome(TemplateKind::Welcome2, &[("background", "blobday"), ("textcolor", "pink"), ("username", "✨ユウキ✨"), ("guildName", "ゲーム部"), ("memberCount", "88")]);
    welcome_3 => welcome(TemplateKind::Welcome3, &[("background", "gaming1"), ("textcolor", "yellow"), ("type", "leave"), ("username", "سارة 🌸"), ("guildName", "مجتمع المطورين")]);
    welcome_4 => welcome(TemplateKind::Welcome4, &[("background", "sunset"), ("textcolor", "orange"), ("username", "An extraordinarily long display name that will not fit"), ("guildName", "Rustaceans"), ("memberCount", "999999999")]);
    welcome_5 => welcome(TemplateKind::Welcome5, &[("background", "night"), ("username", "שלום עולם"), ("guildName", "Book Club 📚"), ("memberCount", "42")]);
    welcome_6 => welcome(TemplateKind::Welcome6, &[("background", "rainbow"), ("textcolor", "black"), ("username", "Ferris"), ("guildName", "Rainbow Road")]);
    welcome_7 => welcome(TemplateKind::Welcome7, &[("background", "gaming4"), ("textcolor", "red"), ("type", "leave"), ("username", "xX_Pro_Gamer_Xx"), ("guildName", "Esports Arena"), ("memberCount", "12345")]);
    welcome_1_arabic => welcome(TemplateKind::Welcome1, &[("background", "space"), ("username", "محمد ✨"), ("guildName", "مجتمع المطورين"), ("memberCount", "1234")]);
    welcome_6_hebrew => welcome(TemplateKind::Welcome6, &[("background", "night"), ("type", "leave"), ("username", "שלום"), ("guildName", "מועדון הספר 📚"), ("memberCount", "42")]);
    welcome_backgrounds => background_sheet();
    // Rank cards: the published client's call (no rank, no tag), every
    // parameter, and names in other scripts.
    rank_1_client => rank_card(TemplateKind::Rank1, RANK_CLIENT);
    rank_2_full => rank_card(TemplateKind::Rank2, RANK_FULL);
    rank_3_client => rank_card(TemplateKind::Rank3, RANK_CLIENT);
    rank_4_full => rank_card(TemplateKind::Rank4, RANK_FULL);
    rank_5_client => rank_card(TemplateKind::Rank5, RANK_CLIENT);
    rank_6_full => rank_card(TemplateKind::Rank6, RANK_FULL);
    rank_7_client => rank_card(TemplateKind::Rank7, RANK_CLIENT);
    rank_8_full => rank_card(TemplateKind::Rank8, RANK_FULL);
    rank_9_client => rank_card(TemplateKind::Rank9, RANK_CLIENT);
    rank_1_arabic_emoji => rank_card(TemplateKind::Rank1, &[("username", "سارة 🌸✨"), ("rank", "1"), ("level", "99"), ("cxp", "9999"), ("nxp", "10000")]);
    rank_2_hebrew => rank_card(TemplateKind::Rank2, &[("username", "שלום עולם"), ("discriminator", "1234"), ("level", "42"), ("rank", "3"), ("cxp", "12345"), ("nxp", "20000")]);
    rank_4_arabic => rank_card(TemplateKind::Rank4, &[("username", "محمد ✨"), ("discriminator", "0420"), ("level", "7"), ("rank", "18"), ("cxp", "900"), ("nxp", "1500")]);
    // The effects: every one as a row of three frames, 64 px each.
    effects_sheet => effects::sheet();
    rank_6_long_cjk => rank_card(TemplateKind::Rank6, &[("username", "✨ユウキ✨ 今日はいい天気 ゲームと猫が好き 🐱 한국어 공부 중"), ("discriminator", "0"), ("cxp", "1250000"), ("nxp", "2000000"), ("level", "250"), ("rank", "12345")]);
    // Two-avatar memes over the two sample pictures (the fox and the cat).
    pair_ship => pair(TemplateKind::Ship, 0, &[("percent", "72")]);
    pair_ship_0 => pair(TemplateKind::Ship, 0, &[("percent", "0")]);
    pair_ship_100 => pair(TemplateKind::Ship, 0, &[("percent", "100")]);
    pair_kiss => pair(TemplateKind::Kiss, 0, &[]);
    pair_slap => pair(TemplateKind::Slap, 0, &[]);
    pair_hug => pair(TemplateKind::Hug, 0, &[]);
    pair_fuse => pair(TemplateKind::Fuse, 0, &[]);
    pair_vs => pair(TemplateKind::Vs, 0, &[]);
    pair_heart_locket_0 => pair(TemplateKind::HeartLocket, 0, &[]);
    pair_heart_locket_5 => pair(TemplateKind::HeartLocket, 5, &[]);
    pair_heart_locket_7 => pair(TemplateKind::HeartLocket, 7, &[]);
    pair_heart_locket_23 => pair(TemplateKind::HeartLocket, 23, &[]);
}

/// Frame `frame` of a two-avatar meme over the sample avatar and the
/// second sample picture, with `params`.
fn pair(kind: TemplateKind, frame: usize, params: &[(&str, &str)]) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    let (a, b) = (
        canvas_render::sample::avatar(),
        canvas_render::sample::avatar2(),
    );
    let plan = plan_frames_with(t, &args, &[0], &[0]);
    let mut frames = Vec::new();
    render_planned_frames_with(t, &args, &[(&a, 0)], &[(&b, 0)], &plan, None, |f, _| {
        frames.push(f);
        Ok(())
    })
    .unwrap();
    frames.swap_remove(frame)
}

/// A welcome card with the 256 × 256 avatar and `params`, at half size.
fn welcome(kind: TemplateKind, params: &[(&str, &str)]) -> RgbaImage {
    let img = template(kind, 0, params);
    image::imageops::resize(&img, 600, 300, image::imageops::FilterType::Triangle)
}

/// Every welcome background under card 6 (whose top half is bare
/// background), 200 × 100 each, four to a row.
fn background_sheet() -> RgbaImage {
    let names = canvas_render::template::WELCOME_BACKGROUNDS;
    let mut sheet = RgbaImage::new(800, 400);
    for (i, bg) in names.iter().enumerate() {
        let img = template(TemplateKind::Welcome6, 0, &[("background", bg)]);
        let small = image::imageops::resize(&img, 200, 100, image::imageops::FilterType::Triangle);
        image::imageops::overlay(
            &mut sheet,
            &small,
            (i % 4) as i64 * 200,
            (i / 4) as i64 * 100,
        );
    }
    sheet
}

/// Lines of text drawn black on a white 720 px card, one line each, 34 px.
fn text_card(lines: &[&str]) -> RgbaImage {
    let style = TextStyle::new(FontFace::Regular, 34.0).color([20, 20, 30, 255]);
    let h = 24 + lines.len() as u32 * 56;
    let mut img = canvas_render::solid(720, h, [255, 255, 255]).unwrap();
    for (i, line) in lines.iter().enumerate() {
        let area = TextBox::new(16.0, 12.0 + i as f32 * 56.0, 688.0, 56.0);
        let layout = text::layout_text(line, &style, area.width).unwrap();
        assert_eq!(layout.missing_glyphs(), 0, "{line}");
        assert_eq!(layout.line_count(), 1, "{line}");
        text::draw_layout(&mut img, &layout, &style, area);
    }
    img
}

/// A meme caption (outlined) over a coloured card.
fn text_meme(caption: &str) -> RgbaImage {
    let style = TextStyle::meme(72.0);
    let mut img = canvas_render::solid(720, 200, [60, 120, 200]).unwrap();
    let area = TextBox::new(10.0, 10.0, 700.0, 180.0);
    let layout = text::fit_text(caption, &style, area, 12.0).unwrap();
    assert_eq!(layout.missing_glyphs(), 0);
    text::draw_layout(&mut img, &layout, &style, area);
    img
}

/// A rank card over a flat two-tone avatar (small references).
fn rank_card(kind: TemplateKind, params: &[(&str, &str)]) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    let a = RgbaImage::from_fn(128, 128, |_, y| {
        if y < 80 {
            Rgba([240, 190, 110, 255])
        } else {
            Rgba([70, 110, 200, 255])
        }
    });
    render_template(t, &args, Some(&a)).unwrap()
}

/// Frame `frame` of a template with the 256 × 256 avatar and `params`.
fn template(kind: TemplateKind, frame: usize, params: &[(&str, &str)]) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    let a = avatar(256, 256);
    let mut frames = render_template_frames(t, &args, &[(&a, 0)], None).unwrap();
    frames.swap_remove(frame).0
}

/// A still template without an avatar (its grey silhouette) and `params`.
fn no_avatar(kind: TemplateKind, params: &[(&str, &str)]) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    render_template(t, &args, None).unwrap()
}

/// A still template (a former scene: its golden keeps the scene's name)
/// rendered with the 256 × 256 avatar and `params`.
fn still(kind: TemplateKind, params: &[(&str, &str)]) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    render_template(t, &args, Some(&avatar(256, 256))).unwrap()
}

/// A filter applied to the standard 128 × 128 avatar.
fn filter(filter: Filter) -> RgbaImage {
    apply(&filter, &avatar(128, 128)).unwrap()
}

/// A deterministic synthetic avatar of any size: a diagonal colour gradient,
/// a face (skin disc, eyes, smile), a stripe pattern, a soft dark band and a
/// transparent top-right corner fading in, so filters see every hue, fine
/// detail, smooth ramps and partial alpha.
pub fn avatar(width: u32, height: u32) -> RgbaImage {
    let s = width.min(height) as f32;
    RgbaImage::from_fn(width, height, |x, y| {
        let (u, v) = (
            (x as f32 + 0.5) / width as f32,
            (y as f32 + 0.5) / height as f32,
        );
        // Background: a diagonal sweep through magenta, blue and teal.
        let t = (u + v) / 2.0;
        let mut c = [
            255.0 * (1.0 - t) * 0.9 + 30.0 * t,
            60.0 + 140.0 * (u * 3.0).sin().abs() * t,
            120.0 + 135.0 * t,
        ];
        // Thin stripes across the lower part.
        if v > 0.8 && ((x + 2 * y) / 3) % 4 == 0 {
            c = [250.0, 230.0, 60.0];
        }
        // The face, centred, with two eyes and a smile.
        let (fx, fy) = (
            (x as f32 + 0.5) - width as f32 / 2.0,
            (y as f32 + 0.5) - height as f32 * 0.48,
        );
        let face_r = s * 0.3;
        let d = (fx * fx + fy * fy).sqrt();
        if d < face_r {
            let shade = 1.0 - 0.25 * (d / face_r).powi(2);
            c = [233.0 * shade, 190.0 * shade, 160.0 * shade];
            for ex in [-0.35, 0.35] {
                let (dx, dy) = (fx - ex * face_r, fy + 0.2 * face_r);
                if (dx * dx + dy * dy).sqrt() < face_r * 0.12 {
                    c = [40.0, 30.0, 35.0];
                }
            }
            let smile = (fx * fx + (fy - 0.05 * face_r).powi(2)).sqrt();
            if fy > 0.2 * face_r && (smile - 0.55 * face_r).abs() < face_r * 0.06 {
                c = [150.0, 30.0, 40.0];
            }
        }
        // A soft darker band (smooth ramp for blur and threshold).
        let band = (-((v - 0.15) * 12.0).powi(2)).exp();
        for ch in &mut c {
            *ch *= 1.0 - 0.6 * band;
        }
        // Transparent top-right corner, fading in along the diagonal.
        let alpha = ((1.0 - u + v - 0.35) * 4.0).clamp(0.0, 1.0);
        let q = |f: f32| f.round().clamp(0.0, 255.0) as u8;
        Rgba([q(c[0]), q(c[1]), q(c[2]), q(alpha * 255.0)])
    })
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn reference_path(case: &str) -> PathBuf {
    crate_dir()
        .join("tests/reference")
        .join(format!("{case}.png"))
}

fn failure_path(case: &str) -> PathBuf {
    crate_dir()
        .join("tests/render/failures")
        .join(format!("{case}.png"))
}

/// Compares `actual` with the case's reference (or rewrites it when
/// `UPDATE_REFS=1`); panics with a clear message on a mismatch.
pub fn render(case: &str, actual: RgbaImage) {
    let reference = reference_path(case);
    if std::env::var_os("UPDATE_REFS").is_some_and(|v| v == "1") {
        save_png(&reference, &actual);
        return;
    }
    let expected = match image::open(&reference) {
        Ok(img) => img.to_rgba8(),
        Err(e) => panic!(
            "{case}: cannot read {} ({e}); run `UPDATE_REFS=1 cargo test -p canvas-render --test render` to create it",
            reference.display()
        ),
    };
    let failure = failure_path(case);
    if expected.dimensions() != actual.dimensions() {
        save_png(&failure, &side_by_side(&expected, &actual));
        panic!(
            "{case}: size {:?} differs from the reference's {:?}; see {}",
            actual.dimensions(),
            expected.dimensions(),
            failure.display()
        );
    }
    let (bad, worst) = compare(&expected, &actual);
    if bad > 0 {
        save_png(&failure, &side_by_side(&expected, &actual));
        panic!(
            "{case}: {bad} pixels differ from the reference by more than {TOLERANCE} (worst {worst}); see {}",
            failure.display()
        );
    }
    // A stale failure image from an earlier run would mislead.
    let _ = std::fs::remove_file(&failure);
}

/// Number of pixels with a channel beyond tolerance, and the largest difference.
fn compare(expected: &RgbaImage, actual: &RgbaImage) -> (usize, u8) {
    let mut bad = 0;
    let mut worst = 0;
    for (e, a) in expected.pixels().zip(actual.pixels()) {
        let d = channel_diff(e, a);
        worst = worst.max(d);
        if d > TOLERANCE {
            bad += 1;
        }
    }
    (bad, worst)
}

/// The largest difference between two pixels' alpha and alpha-premultiplied
/// colour channels.
fn channel_diff(e: &Rgba<u8>, a: &Rgba<u8>) -> u8 {
    let pre = |p: &Rgba<u8>, c: usize| ((u16::from(p.0[c]) * u16::from(p.0[3]) + 127) / 255) as u8;
    let colour = (0..3)
        .map(|c| pre(e, c).abs_diff(pre(a, c)))
        .max()
        .unwrap_or(0);
    colour.max(e.0[3].abs_diff(a.0[3]))
}

/// reference | actual | difference, on a checkerboard so alpha shows.
fn side_by_side(expected: &RgbaImage, actual: &RgbaImage) -> RgbaImage {
    let gap = 8;
    let w = expected.width().max(actual.width());
    let h = expected.height().max(actual.height());
    let mut out = RgbaImage::from_fn(3 * w + 2 * gap, h, |x, y| {
        if (x / 8 + y / 8) % 2 == 0 {
            Rgba([200, 200, 200, 255])
        } else {
            Rgba([150, 150, 150, 255])
        }
    });
    let mut put = |img: &RgbaImage, x0: u32| {
        for (x, y, p) in img.enumerate_pixels() {
            let bg = *out.get_pixel(x0 + x, y);
            out.put_pixel(x0 + x, y, over(bg, *p));
        }
    };
    put(expected, 0);
    put(actual, w + gap);
    if expected.dimensions() == actual.dimensions() {
        for (x, y, e) in expected.enumerate_pixels() {
            let d = channel_diff(e, actual.get_pixel(x, y));
            let p = if d > TOLERANCE {
                Rgba([128u8.saturating_add(d / 2), 0, 0, 255])
            } else {
                Rgba([40, 40, 40, 255])
            };
            out.put_pixel(2 * (w + gap) + x, y, p);
        }
    }
    out
}

fn over(bg: Rgba<u8>, fg: Rgba<u8>) -> Rgba<u8> {
    let a = u16::from(fg.0[3]);
    let mix = |f: u8, b: u8| ((u16::from(f) * a + u16::from(b) * (255 - a) + 127) / 255) as u8;
    Rgba([
        mix(fg.0[0], bg.0[0]),
        mix(fg.0[1], bg.0[1]),
        mix(fg.0[2], bg.0[2]),
        255,
    ])
}

fn save_png(path: &Path, img: &RgbaImage) {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::File::create(path).unwrap();
    PngEncoder::new_with_quality(
        std::io::BufWriter::new(file),
        CompressionType::Best,
        FilterType::Adaptive,
    )
    .write_image(
        img.as_raw(),
        img.width(),
        img.height(),
        image::ExtendedColorType::Rgba8,
    )
    .unwrap();
}

/// Every reference PNG belongs to a case (a renamed case leaves no stale file),
/// and the synthetic avatar is what the cases think it is.
#[test]
fn references_match_cases() {
    let dir = crate_dir().join("tests/reference");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let stem = name.strip_suffix(".png").unwrap_or(&name);
        assert!(
            CASES.contains(&stem)
                || memes_one::CASES.contains(&stem)
                || message::CASES.contains(&stem)
                || captions::CASES.contains(&stem),
            "tests/reference/{name} has no golden case"
        );
    }
    let a = avatar(128, 128);
    assert_eq!(
        a.get_pixel(127, 0).0[3],
        0,
        "top-right corner is transparent"
    );
    assert_eq!(
        a.get_pixel(0, 127).0[3],
        255,
        "bottom-left corner is opaque"
    );
}

/// The harness itself catches differences beyond tolerance and writes a diff.
#[test]
fn harness_detects_a_mismatch() {
    let a = avatar(16, 16);
    let mut b = a.clone();
    b.get_pixel_mut(3, 4).0[1] ^= 0x40;
    assert_eq!(compare(&a, &b), (1, 0x40));
    let mut c = a.clone();
    c.get_pixel_mut(3, 4).0[2] = c.get_pixel(3, 4).0[2].saturating_add(TOLERANCE);
    assert_eq!(compare(&a, &c).0, 0);
    // The colour of a transparent pixel is invisible, so it never counts.
    let clear = RgbaImage::from_pixel(1, 1, Rgba([0, 0, 0, 0]));
    let white_clear = RgbaImage::from_pixel(1, 1, Rgba([255, 255, 255, 0]));
    assert_eq!(compare(&clear, &white_clear), (0, 0));
    let diff = side_by_side(&a, &b);
    assert_eq!(diff.dimensions(), (3 * 16 + 16, 16));
    assert_eq!(diff.get_pixel(2 * 24 + 3, 4).0[0], 128 + 0x20);
}
