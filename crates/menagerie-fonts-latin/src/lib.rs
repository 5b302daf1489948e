//! Latin, Greek and Cyrillic faces for [canvas-render](https://crates.io/crates/canvas-render),
//! as byte slices compiled into the binary (`include_bytes!`): nothing is
//! read from the file system at run time, and a font costs resident memory
//! only for the pages that are read.
//!
//! Every font keeps its own licence, shipped beside it in `fonts/`:
//! - LICENSE-Noto-OFL.txt (SIL Open Font License 1.1: the Noto faces)
//! - LICENSE-DejaVu.txt (the Bitstream Vera licence; DejaVu changes are in the public domain)
//! - LICENSE-RobotoSlab-Apache-2.0.txt (Apache License 2.0: Roboto Slab)
//!
//! ```
//! for (file, bytes) in menagerie_fonts_latin::FONTS {
//!     let sfnt = file.ends_with(".ttf") && bytes.starts_with(&[0, 1, 0, 0]);
//!     let cff = file.ends_with(".otf") && bytes.starts_with(b"OTTO");
//!     assert!(sfnt || cff);
//! }
//! ```

#![no_std]

/// Noto Sans, regular (400) (`fonts/NotoSans-Regular.ttf`).
pub static NOTO_SANS_REGULAR: &[u8] = include_bytes!("../fonts/NotoSans-Regular.ttf");

/// Noto Sans, bold (700) (`fonts/NotoSans-Bold.ttf`).
pub static NOTO_SANS_BOLD: &[u8] = include_bytes!("../fonts/NotoSans-Bold.ttf");

/// Noto Serif, italic (`fonts/NotoSerif-Italic.ttf`).
pub static NOTO_SERIF_ITALIC: &[u8] = include_bytes!("../fonts/NotoSerif-Italic.ttf");

/// DejaVu Sans: Latin, Greek, Cyrillic, Armenian, Georgian, arrows, box drawing, dingbats (`fonts/DejaVuSans.ttf`).
pub static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// DejaVu Sans, condensed bold (canvas-render's meme captions) (`fonts/DejaVuSansCondensed-Bold.ttf`).
pub static DEJAVU_SANS_CONDENSED_BOLD: &[u8] =
    include_bytes!("../fonts/DejaVuSansCondensed-Bold.ttf");

/// DejaVu Sans Mono: monospace (canvas-render's inline code) (`fonts/DejaVuSansMono.ttf`).
pub static DEJAVU_SANS_MONO: &[u8] = include_bytes!("../fonts/DejaVuSansMono.ttf");
/// Roboto Slab, bold (700): a heavy slab serif (canvas-render's game-style
/// banner lettering) (`fonts/RobotoSlab-Bold.otf`).
pub static ROBOTO_SLAB_BOLD: &[u8] = include_bytes!("../fonts/RobotoSlab-Bold.otf");

/// Every font of the crate as (file name, bytes), in the order canvas-render
/// adds them to its font database.
pub static FONTS: [(&str, &[u8]); 7] = [
    ("NotoSans-Regular.ttf", NOTO_SANS_REGULAR),
    ("NotoSans-Bold.ttf", NOTO_SANS_BOLD),
    ("NotoSerif-Italic.ttf", NOTO_SERIF_ITALIC),
    ("DejaVuSans.ttf", DEJAVU_SANS),
    ("DejaVuSansCondensed-Bold.ttf", DEJAVU_SANS_CONDENSED_BOLD),
    ("DejaVuSansMono.ttf", DEJAVU_SANS_MONO),
    ("RobotoSlab-Bold.otf", ROBOTO_SLAB_BOLD),
];
