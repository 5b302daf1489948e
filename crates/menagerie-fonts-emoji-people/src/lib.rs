//! Colour emoji, part 1 of 2 (people) for [canvas-render](https://crates.io/crates/canvas-render),
//! as byte slices compiled into the binary (`include_bytes!`): nothing is
//! read from the file system at run time, and a font costs resident memory
//! only for the pages that are read.
//!
//! Noto Color Emoji packs to about 10.2 MB, over crates.io's 10 MiB limit,
//! so it is split in two crates, this one and `menagerie-fonts-emoji-things`, along its
//! own substitutions: two characters that meet in one sequence (ZWJ,
//! skin tone, flag, keycap, tag sequence) are in the same part, and the
//! joiners and modifiers are in both. Give a text engine both, "Noto Color
//! Emoji People" first, and every sequence is drawn as by the whole font.
//!
//! Every font keeps its own licence, shipped beside it in `fonts/`:
//! - LICENSE-Noto-OFL.txt (SIL Open Font License 1.1)
//!
//! ```
//! for (file, bytes) in menagerie_fonts_emoji_people::FONTS {
//!     assert!(file.ends_with(".ttf") && bytes.starts_with(&[0, 1, 0, 0]));
//! }
//! ```

#![no_std]

/// Noto Color Emoji People: people, smileys with sequences, gestures, families, professions and every emoji a ZWJ or skin-tone sequence joins to them (`fonts/NotoColorEmoji-People.ttf`).
pub static NOTO_COLOR_EMOJI_PEOPLE: &[u8] = include_bytes!("../fonts/NotoColorEmoji-People.ttf");

/// Every font of the crate as (file name, bytes), in the order canvas-render
/// adds them to its font database.
pub static FONTS: [(&str, &[u8]); 1] = [("NotoColorEmoji-People.ttf", NOTO_COLOR_EMOJI_PEOPLE)];
