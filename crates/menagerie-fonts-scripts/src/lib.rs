//! Script, symbol and CJK fallback fonts for [canvas-render](https://crates.io/crates/canvas-render),
//! as byte slices compiled into the binary (`include_bytes!`): nothing is
//! read from the file system at run time, and a font costs resident memory
//! only for the pages that are read.
//!
//! Every font keeps its own licence, shipped beside it in `fonts/`:
//! - LICENSE-Noto-OFL.txt (SIL Open Font License 1.1: the Noto faces)
//! - LICENSE-WenQuanYi-Apache-2.0.txt (Apache License 2.0: WenQuanYi Micro Hei)
//!
//! ```
//! for (file, bytes) in menagerie_fonts_scripts::FONTS {
//!     assert!(file.ends_with(".ttf") && bytes.starts_with(&[0, 1, 0, 0]));
//! }
//! ```

#![no_std]

/// Noto Sans Arabic, regular (`fonts/NotoSansArabic-Regular.ttf`).
pub static NOTO_SANS_ARABIC_REGULAR: &[u8] = include_bytes!("../fonts/NotoSansArabic-Regular.ttf");

/// Noto Sans Arabic, bold (`fonts/NotoSansArabic-Bold.ttf`).
pub static NOTO_SANS_ARABIC_BOLD: &[u8] = include_bytes!("../fonts/NotoSansArabic-Bold.ttf");

/// Noto Sans Hebrew, regular (`fonts/NotoSansHebrew-Regular.ttf`).
pub static NOTO_SANS_HEBREW_REGULAR: &[u8] = include_bytes!("../fonts/NotoSansHebrew-Regular.ttf");

/// Noto Sans Hebrew, bold (`fonts/NotoSansHebrew-Bold.ttf`).
pub static NOTO_SANS_HEBREW_BOLD: &[u8] = include_bytes!("../fonts/NotoSansHebrew-Bold.ttf");

/// Noto Sans Devanagari, regular (`fonts/NotoSansDevanagari-Regular.ttf`).
pub static NOTO_SANS_DEVANAGARI_REGULAR: &[u8] =
    include_bytes!("../fonts/NotoSansDevanagari-Regular.ttf");

/// Noto Sans Devanagari, bold (`fonts/NotoSansDevanagari-Bold.ttf`).
pub static NOTO_SANS_DEVANAGARI_BOLD: &[u8] =
    include_bytes!("../fonts/NotoSansDevanagari-Bold.ttf");

/// Noto Sans Bengali (`fonts/NotoSansBengali-Regular.ttf`).
pub static NOTO_SANS_BENGALI_REGULAR: &[u8] =
    include_bytes!("../fonts/NotoSansBengali-Regular.ttf");

/// Noto Sans Tamil (`fonts/NotoSansTamil-Regular.ttf`).
pub static NOTO_SANS_TAMIL_REGULAR: &[u8] = include_bytes!("../fonts/NotoSansTamil-Regular.ttf");

/// Noto Sans Thai, regular (`fonts/NotoSansThai-Regular.ttf`).
pub static NOTO_SANS_THAI_REGULAR: &[u8] = include_bytes!("../fonts/NotoSansThai-Regular.ttf");

/// Noto Sans Thai, bold (`fonts/NotoSansThai-Bold.ttf`).
pub static NOTO_SANS_THAI_BOLD: &[u8] = include_bytes!("../fonts/NotoSansThai-Bold.ttf");

/// Noto Sans Symbols (`fonts/NotoSansSymbols-Regular.ttf`).
pub static NOTO_SANS_SYMBOLS_REGULAR: &[u8] =
    include_bytes!("../fonts/NotoSansSymbols-Regular.ttf");

/// Noto Sans Symbols 2 (`fonts/NotoSansSymbols2-Regular.ttf`).
pub static NOTO_SANS_SYMBOLS2_REGULAR: &[u8] =
    include_bytes!("../fonts/NotoSansSymbols2-Regular.ttf");

/// WenQuanYi Micro Hei: Chinese (simplified and traditional), Japanese kana, Korean Hangul (`fonts/WenQuanYiMicroHei.ttf`).
pub static WENQUANYI_MICRO_HEI: &[u8] = include_bytes!("../fonts/WenQuanYiMicroHei.ttf");

/// Noto Sans Math (the styled letters of "fancy text") (`fonts/NotoSansMath-Regular.ttf`).
pub static NOTO_SANS_MATH_REGULAR: &[u8] = include_bytes!("../fonts/NotoSansMath-Regular.ttf");

/// Noto Sans Javanese (`fonts/NotoSansJavanese-Regular.ttf`).
pub static NOTO_SANS_JAVANESE_REGULAR: &[u8] =
    include_bytes!("../fonts/NotoSansJavanese-Regular.ttf");

/// Noto Serif Tibetan (`fonts/NotoSerifTibetan-Regular.ttf`).
pub static NOTO_SERIF_TIBETAN_REGULAR: &[u8] =
    include_bytes!("../fonts/NotoSerifTibetan-Regular.ttf");

/// Every font of the crate as (file name, bytes), in the order canvas-render
/// adds them to its font database.
pub static FONTS: [(&str, &[u8]); 16] = [
    ("NotoSansArabic-Regular.ttf", NOTO_SANS_ARABIC_REGULAR),
    ("NotoSansArabic-Bold.ttf", NOTO_SANS_ARABIC_BOLD),
    ("NotoSansHebrew-Regular.ttf", NOTO_SANS_HEBREW_REGULAR),
    ("NotoSansHebrew-Bold.ttf", NOTO_SANS_HEBREW_BOLD),
    (
        "NotoSansDevanagari-Regular.ttf",
        NOTO_SANS_DEVANAGARI_REGULAR,
    ),
    ("NotoSansDevanagari-Bold.ttf", NOTO_SANS_DEVANAGARI_BOLD),
    ("NotoSansBengali-Regular.ttf", NOTO_SANS_BENGALI_REGULAR),
    ("NotoSansTamil-Regular.ttf", NOTO_SANS_TAMIL_REGULAR),
    ("NotoSansThai-Regular.ttf", NOTO_SANS_THAI_REGULAR),
    ("NotoSansThai-Bold.ttf", NOTO_SANS_THAI_BOLD),
    ("NotoSansSymbols-Regular.ttf", NOTO_SANS_SYMBOLS_REGULAR),
    ("NotoSansSymbols2-Regular.ttf", NOTO_SANS_SYMBOLS2_REGULAR),
    ("WenQuanYiMicroHei.ttf", WENQUANYI_MICRO_HEI),
    ("NotoSansMath-Regular.ttf", NOTO_SANS_MATH_REGULAR),
    ("NotoSansJavanese-Regular.ttf", NOTO_SANS_JAVANESE_REGULAR),
    ("NotoSerifTibetan-Regular.ttf", NOTO_SERIF_TIBETAN_REGULAR),
];
