//! An outside user of `canvas-render` and `png-writer`: renders one image of
//! each kind (a filter, a shape, a quote card, a profile card, text, and raw pixels
//! through the PNG writer) into a folder, using nothing but the crates' public
//! API.
//!
//! `cargo run -p render-gallery -- OUT_DIR [AVATAR.png] [--font FONT.ttf]`:
//! without an avatar file a generated one is used. With `--font`, the font
//! is added to canvas-render's font database (`text::add_font`) and every
//! face is drawn in its family (`text::set_face_family`).
//!
//! Built with `--no-default-features`, canvas-render comes without its
//! bundled fonts (`default-features = false`): then `--font` is needed, and
//! the text is drawn in that font alone.

use std::path::{Path, PathBuf};

use canvas_render::image::{self, Rgba, RgbaImage};
use canvas_render::template::{TemplateKind, render_template};
use canvas_render::text::{self, Align, FontFace, TextBox, TextStyle, VAlign};
use canvas_render::{Filter, PrideFlag, RenderError, apply, circle, encode_png, pride};

fn main() {
    let mut positional = Vec::new();
    let mut font = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--font" {
            font = args.next().map(PathBuf::from);
        } else {
            positional.push(arg);
        }
    }
    let mut positional = positional.into_iter();
    let Some(out) = positional.next().map(PathBuf::from) else {
        eprintln!("usage: render-gallery OUT_DIR [AVATAR.png] [--font FONT.ttf]");
        std::process::exit(2);
    };
    if let Some(path) = font {
        match use_font(&path) {
            Ok(families) => eprintln!("font {}: {}", path.display(), families.join(", ")),
            Err(e) => {
                eprintln!("render-gallery: font {}: {e}", path.display());
                std::process::exit(1);
            }
        }
    }
    let avatar = match positional.next() {
        // Decoding is the `image` crate's job (re-exported by canvas-render,
        // its `png` feature on).
        Some(path) => match image::open(&path) {
            Ok(img) => img.to_rgba8(),
            Err(e) => {
                eprintln!("cannot read {}: {e}", Path::new(&path).display());
                std::process::exit(1);
            }
        },
        None => generated_avatar(),
    };
    match render_all(&avatar, &out) {
        Ok(files) => {
            for f in files {
                println!("{}", f.display());
            }
        }
        Err(e) => {
            eprintln!("render-gallery: {e}");
            std::process::exit(1);
        }
    }
}

/// A 256 px avatar: a diagonal gradient with a round face.
fn generated_avatar() -> RgbaImage {
    RgbaImage::from_fn(256, 256, |x, y| {
        let (dx, dy) = (x as i32 - 128, y as i32 - 110);
        if dx * dx + dy * dy < 60 * 60 {
            Rgba([240, 200, 160, 255])
        } else {
            Rgba([(x / 2) as u8, 80, (y / 2 + 100) as u8, 255])
        }
    })
}

/// Adds the font file at `path` to canvas-render's font database and draws
/// every face in its (first) family; returns the families it holds.
fn use_font(path: &Path) -> Result<Vec<String>, GalleryError> {
    let families = text::add_font(std::fs::read(path)?)?;
    for face in [
        FontFace::Regular,
        FontFace::Bold,
        FontFace::Meme,
        FontFace::SerifItalic,
    ] {
        text::set_face_family(face, &families[0]);
    }
    Ok(families)
}

/// Why the gallery could not be written.
#[derive(Debug)]
enum GalleryError {
    Render(RenderError),
    Encode(png_writer::EncodeError),
    Io(std::io::Error),
}

impl std::fmt::Display for GalleryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GalleryError::Render(e) => write!(f, "render: {e}"),
            GalleryError::Encode(e) => write!(f, "encode: {e}"),
            GalleryError::Io(e) => write!(f, "write: {e}"),
        }
    }
}

impl From<RenderError> for GalleryError {
    fn from(e: RenderError) -> Self {
        GalleryError::Render(e)
    }
}

impl From<png_writer::EncodeError> for GalleryError {
    fn from(e: png_writer::EncodeError) -> Self {
        GalleryError::Encode(e)
    }
}

impl From<std::io::Error> for GalleryError {
    fn from(e: std::io::Error) -> Self {
        GalleryError::Io(e)
    }
}

/// Renders the gallery into `out` and returns the files written.
fn render_all(avatar: &RgbaImage, out: &Path) -> Result<Vec<PathBuf>, GalleryError> {
    std::fs::create_dir_all(out)?;
    let mut written = Vec::new();
    let mut save = |name: &str, png: Vec<u8>| -> Result<(), GalleryError> {
        let path = out.join(name);
        std::fs::write(&path, png)?;
        written.push(path);
        Ok(())
    };

    // A filter: same size, new colours.
    save(
        "filter-sepia.png",
        encode_png(&apply(&Filter::Sepia, avatar)?)?,
    )?;
    // Shapes: 512 × 512, transparent outside.
    save("shape-circle.png", encode_png(&circle(avatar)?)?)?;
    save(
        "shape-pride.png",
        encode_png(&pride(avatar, PrideFlag::Transgender)?)?,
    )?;
    // A template: a fixed-size composition with text, its parameters
    // checked against their caps.
    let sage = TemplateKind::Sage.template();
    let quote = sage.args(|_| Some("Slow and steady wins the race."))?;
    save(
        "scene-sage.png",
        encode_png(&render_template(sage, &quote, None)?)?,
    )?;
    // A profile card around the avatar.
    let namecard = TemplateKind::Namecard.template();
    let about = namecard.args(|name| match name {
        "username" => Some("Yuki Tanaka"),
        "birthday" => Some("1 April"),
        "description" => Some(
            "Collects shiny stones, answers every message with a sticker and never misses a full moon.",
        ),
        _ => None,
    })?;
    save(
        "card-namecard.png",
        encode_png(&render_template(namecard, &about, Some(avatar))?)?,
    )?;
    // Text on any image, shrunk to fit its box.
    let mut card = canvas_render::solid(480, 160, [250, 246, 236])?;
    let style = TextStyle::new(FontFace::Bold, 64.0)
        .color([40, 30, 90, 255])
        .align(Align::Center)
        .valign(VAlign::Middle);
    let area = TextBox::new(16.0, 16.0, 448.0, 128.0);
    let layout = text::fit_text("Hello from outside the workspace!", &style, area, 12.0)?;
    text::draw_layout(&mut card, &layout, &style, area);
    save("text.png", encode_png(&card)?)?;
    // Raw RGBA pixels straight to the PNG writer, no `image` types needed.
    let (w, h) = (64u32, 64u32);
    let rgba: Vec<u8> = (0..w * h)
        .flat_map(|i| [(i % w * 4) as u8, (i / w * 4) as u8, 160, 255])
        .collect();
    save("encode-gradient.png", png_writer::encode_rgba(w, h, &rgba)?)?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the gallery written into `dir`, then removes it.
    fn check_gallery(dir: &Path, files: &[PathBuf]) {
        let sizes: Vec<(u32, u32)> = files
            .iter()
            .map(|f| image::open(f).unwrap().to_rgba8().dimensions())
            .collect();
        assert_eq!(
            sizes,
            [
                (256, 256),
                (512, 512),
                (512, 512),
                (1200, 630),
                (1680, 800),
                (480, 160),
                (64, 64)
            ]
        );
        // The circle's corners are transparent black: nothing hidden.
        let round = image::open(dir.join("shape-circle.png"))
            .unwrap()
            .to_rgba8();
        assert_eq!(round.get_pixel(0, 0).0, [0, 0, 0, 0]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn temp_dir() -> PathBuf {
        std::env::temp_dir().join(format!("render-gallery-{}", std::process::id()))
    }

    #[cfg(feature = "bundled-fonts")]
    #[test]
    fn writes_one_decodable_image_of_each_kind() {
        let dir = temp_dir();
        let files = render_all(&generated_avatar(), &dir).unwrap();
        check_gallery(&dir, &files);
    }

    /// A font of our own: the serif italic of the repository's Latin font
    /// crate, read from its file as any user font would be.
    #[cfg(not(feature = "bundled-fonts"))]
    const OWN_FONT: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/menagerie-fonts-latin/fonts/NotoSerif-Italic.ttf"
    );

    #[cfg(not(feature = "bundled-fonts"))]
    #[test]
    fn without_bundled_fonts_text_is_drawn_in_the_font_given() {
        use canvas_render::text::{TextLayout, layout_text};
        let style = TextStyle::new(FontFace::Bold, 30.0);
        // No font yet: a clear error, from a text call and from a scene.
        assert_eq!(layout_text("hi", &style, 200.0), Err(RenderError::NoFonts));
        let dir = temp_dir();
        assert!(matches!(
            render_all(&generated_avatar(), &dir),
            Err(GalleryError::Render(RenderError::NoFonts))
        ));
        assert!(!text::has_glyph('a'));
        assert_eq!(text::add_font(vec![0u8; 64]), Err(RenderError::InvalidFont));
        assert_eq!(text::font_families(), Vec::<String>::new());

        assert_eq!(use_font(Path::new(OWN_FONT)).unwrap(), ["Noto Serif"]);
        assert_eq!(text::font_families(), ["Noto Serif"]);
        assert_eq!(text::fallback_order().last().unwrap(), "Noto Serif");
        let l: TextLayout = layout_text("Hello, world", &style, 400.0).unwrap();
        assert_eq!(l.missing_glyphs(), 0);
        // What the font lacks is tofu, counted, not an error.
        assert_eq!(
            layout_text("中🌸", &style, 400.0).unwrap().missing_glyphs(),
            2
        );
        let files = render_all(&generated_avatar(), &dir).unwrap();
        check_gallery(&dir, &files);

        // A thread that laid text out before sees a font added later.
        let (ask, asked) = std::sync::mpsc::channel::<()>();
        let (tell, told) = std::sync::mpsc::channel();
        let worker = std::thread::spawn(move || {
            let style = TextStyle::new(FontFace::Regular, 30.0);
            for () in asked {
                let l = layout_text("नमस्ते", &style, 400.0).unwrap();
                tell.send(l.missing_glyphs()).unwrap();
            }
        });
        ask.send(()).unwrap();
        assert!(told.recv().unwrap() > 0, "Noto Serif has no Devanagari");
        let devanagari = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../crates/menagerie-fonts-scripts/fonts/NotoSansDevanagari-Regular.ttf"
        );
        let added = text::add_font(std::fs::read(devanagari).unwrap()).unwrap();
        assert_eq!(added, ["Noto Sans Devanagari"]);
        ask.send(()).unwrap();
        assert_eq!(
            told.recv().unwrap(),
            0,
            "the worker's engine has the new font"
        );
        drop(ask);
        worker.join().unwrap();
    }
}
