//! Renders the images of the sharp-comparison scenarios (`cargo xtask
//! bench-compare`) and every filter's output (`filter-<name>`), prints the
//! bytes of each one's PNG and writes the PNGs to a directory, so the PNG
//! writer can be measured on exactly these images (`cargo run --release -p
//! png-writer --example encode_files -- <dir>/*.png`).
//!
//! Run: `cargo run --release -p canvas-render --example png_scenarios --
//! [<avatar dir>] [<out dir>]`. The avatar directory holds
//! `avatar_512.png` and `avatar_1024.png` (for example the peer
//! comparison's photo avatars); without one, the benches' drawn avatar is
//! used at both sizes. The output directory defaults to `png-scenarios` in
//! the cargo target directory.

// The benches' drawn avatar.
#[path = "../benches/support/mod.rs"]
mod support;

use std::path::PathBuf;

use canvas_render::{Filter, RgbaImage, Threshold, apply, circle, encode_png};

fn load(path: &PathBuf) -> RgbaImage {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    support::decode(&bytes)
}

fn main() {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (a512, a1024) = match args.next() {
        Some(dir) => (
            load(&dir.join("avatar_512.png")),
            load(&dir.join("avatar_1024.png")),
        ),
        None => (support::drawn(512), support::drawn(1024)),
    };
    let out = args.next().unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"))
            .join("png-scenarios")
    });
    std::fs::create_dir_all(&out).expect("output directory");
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
