//! Renders the images of the sharp-comparison scenarios (`cargo xtask
//! bench-compare`) and every filter's output (`filter-<name>`) from the
//! shared bench avatars, prints the bytes of each one's PNG and writes the
//! PNGs to a directory, so the PNG writer can be
//! measured on exactly these images (`cargo run --release -p png-writer
//! --example encode_files -- <dir>/*.png`).
//!
//! Run: `cargo run --release -p canvas-render --example png_scenarios --
//! [<avatar dir>] [<out dir>]`; the avatar directory defaults to
//! `shared/bench/avatars` beside (or above, for a git worktree) the
//! workspace, the output directory to `target/png-scenarios`.

use std::path::PathBuf;

use canvas_render::{Filter, RgbaImage, Threshold, apply, circle, encode_png};

fn load(path: &PathBuf) -> RgbaImage {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    canvas_render::image::load_from_memory_with_format(
        &bytes,
        canvas_render::image::ImageFormat::Png,
    )
    .expect("a PNG")
    .into_rgba8()
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let avatars = args.next().unwrap_or_else(|| {
        ["..", "../.."]
            .map(|up| root.join(up).join("shared/bench/avatars"))
            .into_iter()
            .find(|p| p.join("avatar_512.png").exists())
            .expect("the shared bench avatars")
    });
    let out = args
        .next()
        .unwrap_or_else(|| root.join("target/png-scenarios"));
    std::fs::create_dir_all(&out).expect("output directory");
    let a512 = load(&avatars.join("avatar_512.png"));
    let a1024 = load(&avatars.join("avatar_1024.png"));
    let scenarios: [(&str, RgbaImage); 6] = [
        (
            "mix512-color",
            apply(&Filter::Color(Filter::DEFAULT_COLOR), &a512).unwrap(),
        ),
        (
            "mix512-threshold",
            apply(&Filter::Threshold(Threshold::DEFAULT), &a512).unwrap(),
        ),
        ("grey512", apply(&Filter::Greyscale, &a512).unwrap()),
        ("blur512", apply(&Filter::Blur, &a512).unwrap()),
        ("circle1024", circle(&a1024).unwrap()),
        (
            "color1024",
            apply(&Filter::Color(Filter::DEFAULT_COLOR), &a1024).unwrap(),
        ),
    ];
    let filters = Filter::ALL
        .iter()
        .map(|f| (format!("filter-{}", f.name()), apply(f, &a512).unwrap()));
    let all = scenarios
        .into_iter()
        .map(|(name, img)| (name.to_owned(), img))
        .chain(filters);
    for (name, img) in all {
        let png = encode_png(&img).unwrap();
        println!(
            "{name}: {}x{}, colour type {}, {} bytes",
            img.width(),
            img.height(),
            png[25],
            png.len()
        );
        std::fs::write(out.join(format!("{name}.png")), &png).expect("written");
    }
}
