//! Template files: broken folders give errors naming file, line and field;
//! art and fonts load within their caps; the worked examples of
//! `examples/templates/` load and render; a growing card grows.

use std::path::{Path, PathBuf};

use canvas_render::template::file::{self, FileError, MAX_ART_BYTES};

fn broken(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/broken-templates")
        .join(case)
}

/// The errors of loading a broken folder, shown as the CLI shows them.
fn errors(case: &str) -> Vec<FileError> {
    match file::load_dir(&broken(case)) {
        Ok(t) => panic!("{case}: loaded {} templates", t.len()),
        Err(e) => e,
    }
}

/// The one error of a case, checked for its file name, line and field,
/// and its message for `words`.
fn assert_one(case: &str, file_name: &str, line: usize, field: &str, words: &str) {
    let errors = errors(case);
    assert_eq!(errors.len(), 1, "{case}: {errors:?}");
    let e = &errors[0];
    let shown = e.to_string();
    assert_eq!(e.file.file_name().unwrap(), file_name, "{shown}");
    assert_eq!(e.line, line, "{shown}");
    assert_eq!(e.field, field, "{shown}");
    assert!(e.message.contains(words), "{shown}");
    assert!(
        shown.contains(&format!("{file_name}:{line}: {field}: ")),
        "{shown}"
    );
}

#[test]
fn an_unknown_field_is_named_at_its_line() {
    assert_one(
        "unknown-field",
        "card.toml",
        14,
        "colour",
        "unknown field `colour`",
    );
}

#[test]
fn a_layer_without_its_size_is_refused() {
    assert_one(
        "missing-layer-size",
        "card.toml",
        10,
        "layer[1].place",
        "needs its size and place",
    );
}

#[test]
fn an_svg_referring_outside_itself_is_refused() {
    assert_one(
        "svg-external-reference",
        "card.toml",
        12,
        "layer[1].file",
        "`badge.svg`: an SVG may not refer to anything outside itself",
    );
}

#[test]
fn art_over_its_pixel_cap_is_refused() {
    assert_one(
        "art-over-cap",
        "card.toml",
        10,
        "layer[0].file",
        "4000×4000 pixels is over the cap",
    );
}

#[test]
fn a_name_used_twice_names_both_files() {
    assert_one(
        "duplicate-name",
        "b.toml",
        2,
        "name",
        "`greeting` is also the name of",
    );
    let e = &errors("duplicate-name")[0];
    assert!(e.message.ends_with("a.toml (line 2)"), "{e}");
}

#[test]
fn a_parameter_without_bounds_is_refused() {
    assert_one(
        "unbounded-parameter",
        "card.toml",
        7,
        "param[0].max",
        "needs both `min` and `max`",
    );
}

/// A scratch folder of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const PICTURE_CARD: &str = r#"format = 1
name = "picture"
size = [64, 64]

[[layer]]
kind = "art"
place = [{ x = 0, y = 0, w = 64, h = 64 }]
file = "ART"
"#;

fn load_with_art(
    case: &str,
    art_name: &str,
    art: &[u8],
) -> Result<file::LoadedTemplate, FileError> {
    let dir = scratch(case);
    std::fs::write(dir.join(art_name), art).unwrap();
    let path = dir.join("card.toml");
    std::fs::write(&path, PICTURE_CARD.replace("ART", art_name)).unwrap();
    let result = file::load_file(&path);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn png(w: u32, h: u32, rgba: [u8; 4]) -> Vec<u8> {
    let img = canvas_render::RgbaImage::from_pixel(w, h, image::Rgba(rgba));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

#[test]
fn png_webp_and_svg_art_draw_their_pixels() {
    use canvas_render::template::render_template;
    let red = png(16, 16, [220, 20, 20, 255]);
    let mut webp = std::io::Cursor::new(Vec::new());
    canvas_render::RgbaImage::from_pixel(8, 8, image::Rgba([20, 200, 40, 255]))
        .write_to(&mut webp, image::ImageFormat::WebP)
        .unwrap();
    let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#1030e0"/></svg>"##;
    for (name, bytes, want) in [
        ("a.png", red, [220, 20, 20]),
        ("a.webp", webp.into_inner(), [20, 200, 40]),
        ("a.svg", svg.to_vec(), [16, 48, 224]),
    ] {
        let t = load_with_art(name, name, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let args = t.template.args(|_| None).unwrap();
        let img = render_template(t.template, &args, None).unwrap();
        assert_eq!(img.dimensions(), (64, 64));
        let p = img.get_pixel(32, 32).0;
        for c in 0..3 {
            assert!(p[c].abs_diff(want[c]) <= 2, "{name}: {p:?}");
        }
        assert_eq!(p[3], 255, "{name}");
    }
}

#[test]
fn art_files_over_their_byte_cap_or_data_uris_are_refused() {
    let big = vec![b' '; MAX_ART_BYTES as usize + 1];
    let e = load_with_art("big", "big.svg", &big).unwrap_err();
    assert!(e.message.contains("over its cap"), "{e}");
    assert_eq!(e.field, "layer[0].file");
    let data = br##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image width="10" height="10" xlink:href="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4="/></svg>"##;
    let e = load_with_art("data", "data.svg", data).unwrap_err();
    assert!(
        e.message
            .contains("may not refer to anything outside itself"),
        "{e}"
    );
    let e = load_with_art("url", "url.svg", br##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image width="10" height="10" href="https://example.com/a.png"/></svg>"##).unwrap_err();
    assert!(e.message.contains("https://example.com/a.png"), "{e}");
    let e = load_with_art("path", "../x.png", b"").unwrap_err();
    assert!(e.message.contains("named without a path"), "{e}");
}

#[test]
fn an_unknown_format_version_is_refused_before_its_fields() {
    let e = file::parse(
        Path::new("next.toml"),
        "format = 2\nname = \"x\"\nsomething_new = true\n",
        Path::new("."),
    )
    .unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (1, "format"), "{e}");
    assert!(e.message.contains("format 2 is not known"), "{e}");
}

#[test]
fn loading_the_same_content_again_gives_the_same_template() {
    let text = PICTURE_CARD
        .replace("[[layer]]\nkind = \"art\"", "[[layer]]\nkind = \"avatar\"")
        .replace("file = \"ART\"\n", "");
    let a = file::parse(Path::new("a.toml"), &text, Path::new(".")).unwrap();
    let b = file::parse(Path::new("b.toml"), &text, Path::new(".")).unwrap();
    assert!(std::ptr::eq(a.template, b.template));
    assert_eq!(b.path, Path::new("b.toml"));
    let changed = text.replace("w = 64", "w = 63");
    let c = file::parse(Path::new("a.toml"), &changed, Path::new(".")).unwrap();
    assert!(!std::ptr::eq(a.template, c.template));
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/templates")
}

/// A drawn avatar: a face-like disc on a diagonal gradient.
fn avatar() -> canvas_render::RgbaImage {
    canvas_render::RgbaImage::from_fn(128, 128, |x, y| {
        let (dx, dy) = (x as f32 - 64.0, y as f32 - 56.0);
        if dx * dx + dy * dy < 30.0 * 30.0 {
            image::Rgba([250, 214, 170, 255])
        } else {
            image::Rgba([(60 + x) as u8, (90 + y / 2) as u8, 200, 255])
        }
    })
}

/// Where to write what the examples render, to look at them:
/// `TEMPLATE_EXAMPLES_OUT=/tmp/x cargo test -p canvas-render --test render files::`.
fn out_dir() -> Option<PathBuf> {
    std::env::var_os("TEMPLATE_EXAMPLES_OUT").map(PathBuf::from)
}

#[test]
fn the_worked_examples_load_and_render() {
    use canvas_render::template::{render_template, render_template_frames};
    let loaded = file::load_dir(&examples()).unwrap_or_else(|e| {
        panic!(
            "{}",
            e.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    let names: Vec<&str> = loaded.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["chat-message", "harbor-welcome", "level-up"]);
    assert!(canvas_render::text::font_families().contains(&"Lobster Two".to_owned()));
    let face = avatar();

    // The welcome card: its own art, font and colours; the member line
    // only with a member number.
    let welcome = loaded[1].template;
    let args = |count: &'static str| {
        welcome
            .args(move |n| match n {
                "username" => Some("Ferris"),
                "count" => Some(count),
                _ => None,
            })
            .unwrap()
    };
    let with = render_template(welcome, &args("1234"), Some(&face)).unwrap();
    let without = render_template(welcome, &args(""), Some(&face)).unwrap();
    assert_eq!(with.dimensions(), (1000, 400));
    let differing =
        |a: &canvas_render::RgbaImage, b: &canvas_render::RgbaImage, rows: std::ops::Range<u32>| {
            rows.flat_map(|y| (0..a.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| a.get_pixel(x, y) != b.get_pixel(x, y))
                .count()
        };
    assert!(
        differing(&with, &without, 248..298) > 500,
        "the member line"
    );
    assert_eq!(
        differing(&with, &without, 0..240),
        0,
        "nothing else changes"
    );
    // The title is drawn in the accent colour: gold by default.
    let gold = (86..176)
        .flat_map(|y| (320..740).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = with.get_pixel(x, y).0;
            p[0] > 230 && (190..=225).contains(&p[1]) && p[2] < 130
        })
        .count();
    assert!(gold > 800, "{gold} gold pixels in the title");

    // The animated badge: 16 frames of 60 ms, each different (the rays
    // turn, the avatar pulses), the title typed out by frame 9.
    let badge = loaded[2].template;
    let args = badge.args(|n| (n == "level").then_some("12")).unwrap();
    let frames = render_template_frames(badge, &args, &[(&face, 0)], None).unwrap();
    assert_eq!(frames.len(), 16);
    assert!(
        frames
            .iter()
            .all(|(f, d)| f.dimensions() == (400, 400) && *d == 60)
    );
    for pair in frames.windows(2) {
        assert_ne!(pair[0].0, pair[1].0);
    }
    assert!(
        differing(&frames[0].0, &frames[9].0, 272..336) > 500,
        "typed out"
    );

    if let Some(dir) = out_dir() {
        std::fs::create_dir_all(&dir).unwrap();
        with.save(dir.join("harbor-welcome.png")).unwrap();
        for i in [0, 4, 9, 12] {
            frames[i]
                .0
                .save(dir.join(format!("level-up-{i}.png")))
                .unwrap();
        }
    }
}

/// A picture of a file under typed text: the frames given as changed
/// rectangles compose to the frames drawn one by one, and the template's
/// GIF is the GIF of those frames, as for the built-ins.
#[test]
fn file_art_takes_the_same_frame_paths_as_built_in_art() {
    use canvas_render::animation::Deadline;
    use canvas_render::template::{
        plan_frames, render_patched_frames, render_template_frames, render_template_gif,
    };
    let dir = scratch("patched");
    std::fs::write(dir.join("bg.png"), png(40, 20, [30, 60, 120, 255])).unwrap();
    let text = r#"format = 1
name = "typed"
size = [240, 120]

[timeline]
frames = 8
delay_ms = 50

[[layer]]
kind = "art"
file = "bg.png"
place = [{ x = 0, y = 0, w = 240, h = 120 }]

[[layer]]
kind = "avatar"
place = [{ x = 10, y = 10, w = 100, h = 100 }]
mask = "circle"

[[layer]]
kind = "text"
text = [{ lit = "typed out" }]
face = "bold"
size = 28
area = [116, 30, 120, 60]
reveal = { from = 1, to = 7 }
"#;
    let path = dir.join("typed.toml");
    std::fs::write(&path, text).unwrap();
    let loaded = file::load_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let t = loaded.template;
    let args = t.args(|_| None).unwrap();
    let face = avatar();
    let avatar = [(&face, 0)];
    let plan = plan_frames(t, &args, &[0]);
    let patched = render_patched_frames(t, &args, &avatar, &[], &plan, None)
        .unwrap()
        .expect("typed text over still layers is drawn as changed rectangles");
    let drawn = render_template_frames(t, &args, &avatar, None).unwrap();
    let composed = patched.composed();
    assert_eq!(composed.len(), 8);
    for (k, ((frame, delay), (c, d))) in drawn.iter().zip(&composed).enumerate() {
        assert!(c == frame, "frame {k}");
        assert_eq!(d, delay);
    }
    // The background is the picture's colour, scaled to the canvas.
    assert_eq!(drawn[0].0.get_pixel(200, 110).0, [30, 60, 120, 255]);
    let deadline = Deadline::after(std::time::Duration::from_secs(600));
    let gif = render_template_gif(
        t,
        &args,
        &avatar,
        &[],
        &plan,
        canvas_render::Loops::Infinite,
        &deadline,
    )
    .unwrap();
    let (frames, delays): (Vec<_>, Vec<_>) = drawn.into_iter().unzip();
    let whole =
        canvas_render::encode_gif(&frames, &delays, canvas_render::Loops::Infinite, &deadline)
            .unwrap();
    assert!(gif == whole, "{} bytes, {} drawn", gif.len(), whole.len());
}

/// A text in the folder's own font is drawn in it; a family the template
/// did not bring (nor the server has) is refused, and so are a font over
/// its cap and a file that is no font.
#[test]
fn a_template_font_draws_its_family() {
    use canvas_render::template::render_template;
    let card = |face: &str, fonts: &str| {
        format!(
            "format = 1\nname = \"font\"\nsize = [300, 80]\n{fonts}\n[[layer]]\nkind = \"text\"\ntext = [{{ lit = \"Welcome\" }}]\n{face}\nsize = 48\narea = [0, 0, 300, 80]\n"
        )
    };
    let render = |text: &str| {
        let t = file::parse(Path::new("font.toml"), text, &examples())
            .unwrap_or_else(|e| panic!("{e}"));
        let args = t.template.args(|_| None).unwrap();
        render_template(t.template, &args, None).unwrap()
    };
    let own = render(&card(
        "family = \"Lobster Two\"",
        "fonts = [\"Lobster.otf\"]",
    ));
    let regular = render(&card("face = \"regular\"", ""));
    let inked = |img: &canvas_render::RgbaImage| img.pixels().filter(|p| p.0[3] > 128).count();
    assert!(inked(&own) > 500 && inked(&regular) > 500);
    let differing = own
        .pixels()
        .zip(regular.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(differing > 1000, "{differing} pixels differ");

    // Without `fonts`, another template's font is not this one's.
    let e = file::parse(
        Path::new("font.toml"),
        &card("family = \"Lobster Two\"", ""),
        &examples(),
    )
    .unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (8, "layer[0].family"), "{e}");
    assert!(e.message.contains("no font family `Lobster Two`"), "{e}");

    let dir = scratch("fonts");
    std::fs::write(
        dir.join("big.ttf"),
        vec![0u8; file::MAX_FONT_BYTES as usize + 1],
    )
    .unwrap();
    std::fs::write(dir.join("junk.otf"), b"not a font at all").unwrap();
    for (font, words) in [("big.ttf", "over its cap"), ("junk.otf", "junk.otf")] {
        let e = file::parse(
            Path::new("font.toml"),
            &card("face = \"bold\"", &format!("fonts = [\"{font}\"]")),
            &dir,
        )
        .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (4, "fonts"), "{e}");
        assert!(e.message.contains(words), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The chat message grows with its text: one line gives a short card, a
/// longer text a taller one (at most the template's 600 pixels, where the
/// longest shrinks to fit), and the reaction under the message moves down
/// with it, drawn only when there are likes.
#[test]
fn a_growing_template_renders_taller_with_a_longer_text() {
    use canvas_render::template::render_template;
    let chat = file::load_file(&examples().join("chat-message.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .template;
    let face = avatar();
    let render = |message: &str, likes: &str| {
        let args = chat
            .args(|n| match n {
                "message" => Some(message),
                "likes" => Some(likes),
                _ => None,
            })
            .unwrap();
        let size = chat.size_for(&args);
        let image = render_template(chat, &args, Some(&face)).unwrap();
        assert_eq!(image.dimensions(), size);
        image
    };
    let short = render("Hi!", "3");
    let long = render(&"a rather long message that wraps ".repeat(8), "3");
    let longest = render(&"word ".repeat(200), "3");
    let (hs, hl) = (short.height(), long.height());
    assert_eq!(short.width(), 800);
    assert!((150..260).contains(&hs), "one line: {hs} pixels");
    assert!(hl > hs + 60, "{hl} is not taller than {hs}");
    assert!(hl < 600, "{hl}");
    assert_eq!(longest.height(), 600);
    // The reaction's pill ends 80 pixels above the bottom edge on each
    // card: its tint is at the same distance from the bottom.
    let pill = |img: &canvas_render::RgbaImage| img.get_pixel(128 + 100, img.height() - 50).0;
    assert_eq!(pill(&short), pill(&long));
    assert_ne!(pill(&short), [0x31, 0x33, 0x38, 255], "the pill is drawn");
    let no_likes = render("Hi!", "");
    assert_eq!(no_likes.height(), hs);
    assert_eq!(
        pill(&no_likes),
        [0x31, 0x33, 0x38, 255],
        "no pill without likes"
    );

    if let Some(dir) = out_dir() {
        std::fs::create_dir_all(&dir).unwrap();
        short.save(dir.join("chat-message-short.png")).unwrap();
        long.save(dir.join("chat-message-long.png")).unwrap();
        longest.save(dir.join("chat-message-longest.png")).unwrap();
    }
}
