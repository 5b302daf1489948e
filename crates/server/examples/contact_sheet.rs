//! One image of every preview the playground's gallery shows, for a
//! reviewer to see the whole surface at once: still previews as a grid of
//! labelled thumbnails, animated ones as a strip of frames each (evenly
//! spaced through the animation, each labelled with its time), over a
//! checkerboard so transparency shows.
//!
//! `cargo xtask gallery` runs it and writes
//! `<target>/gallery/contact-sheet.png`; by hand:
//! `cargo run --release -p server --example contact_sheet -- OUT.png`.
//!
//! Each preview is drawn by the server in process, exactly as
//! `/previews/...` answers it (its sample avatar, no fetch).

use std::io::Cursor;
use std::path::PathBuf;

use actix_web::test;
use canvas_render::text::{Align, FontFace, TextBox, TextStyle, VAlign, draw_layout, layout_text};
use image::codecs::gif::GifDecoder;
use image::imageops::{self, FilterType};
use image::{AnimationDecoder, Rgba, RgbaImage};
use server::catalogue::image_endpoints;
use server::{AppState, Settings, create_app};

/// The sheet's width.
const WIDTH: u32 = 1920;
/// Still previews to a row.
const COLUMNS: u32 = 6;
/// Frames of an animation shown.
const FRAMES: usize = 8;
/// Room for a label under a thumbnail.
const LABEL: u32 = 28;
const GAP: u32 = 12;
const BACKGROUND: [u8; 3] = [28, 30, 36];

fn main() {
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("contact-sheet.png"));
    let previews = actix_rt::System::new().block_on(previews());
    let sheet = sheet(&previews);
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).expect("the output's folder");
    }
    sheet.save(&out).expect("the contact sheet written");
    let animated = previews.iter().filter(|p| p.frames.len() > 1).count();
    println!(
        "{}: {} previews ({} animated), {}×{}",
        out.display(),
        previews.len(),
        animated,
        sheet.width(),
        sheet.height()
    );
}

/// One preview: its path and its frames with the time each starts at (ms).
struct Preview {
    path: String,
    frames: Vec<(RgbaImage, u32)>,
}

async fn previews() -> Vec<Preview> {
    let data = tempfile::tempdir().expect("a temporary directory");
    let mut settings = Settings::for_tests(data.path());
    settings.animation_render_ms = 120_000;
    let app = test::init_service(create_app(AppState::load(settings).expect("state loads"))).await;
    let mut out = Vec::new();
    for e in image_endpoints() {
        let req = test::TestRequest::get().uri(&e.preview).to_request();
        let res = test::call_service(&app, req).await;
        assert!(res.status().is_success(), "{}: {}", e.preview, res.status());
        let body = test::read_body(res).await;
        let frames = if e.preview.ends_with(".gif") {
            let decoder = GifDecoder::new(Cursor::new(&body[..]))
                .unwrap_or_else(|err| panic!("{}: {err}", e.preview));
            let mut at = 0;
            decoder
                .into_frames()
                .map(|f| {
                    let f = f.unwrap_or_else(|err| panic!("{}: {err}", e.preview));
                    let (n, d) = f.delay().numer_denom_ms();
                    let start = at;
                    at += n / d.max(1);
                    (f.into_buffer(), start)
                })
                .collect()
        } else {
            let img = image::load_from_memory(&body)
                .unwrap_or_else(|err| panic!("{}: {err}", e.preview))
                .to_rgba8();
            vec![(img, 0)]
        };
        out.push(Preview {
            path: e.path.clone(),
            frames,
        });
    }
    out
}

/// `img` scaled to fit `w` × `h`, aspect kept.
fn fit(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let scale = (w as f32 / img.width() as f32).min(h as f32 / img.height() as f32);
    let (tw, th) = (
        ((img.width() as f32 * scale).round() as u32).max(1),
        ((img.height() as f32 * scale).round() as u32).max(1),
    );
    imageops::resize(img, tw, th, FilterType::Triangle)
}

/// Draws `img` over a checkerboard at (x, y) in a `w` × `h` box, centred.
fn place(sheet: &mut RgbaImage, img: &RgbaImage, x: u32, y: u32, w: u32, h: u32) {
    let thumb = fit(img, w, h);
    let (ox, oy) = (x + (w - thumb.width()) / 2, y + (h - thumb.height()) / 2);
    for ty in 0..thumb.height() {
        for tx in 0..thumb.width() {
            let light = ((tx / 8) + (ty / 8)) % 2 == 0;
            let c = if light { 70 } else { 54 };
            sheet.put_pixel(ox + tx, oy + ty, Rgba([c, c, c, 255]));
        }
    }
    imageops::overlay(sheet, &thumb, i64::from(ox), i64::from(oy));
}

fn label(sheet: &mut RgbaImage, text: &str, x: u32, y: u32, w: u32, align: Align) {
    let style = TextStyle::new(FontFace::Regular, 16.0)
        .color([220, 224, 232, 255])
        .align(align)
        .valign(VAlign::Middle);
    let area = TextBox::new(x as f32, y as f32, w as f32, LABEL as f32);
    let layout = layout_text(text, &style, area.width).expect("a label lays out");
    draw_layout(sheet, &layout, &style, area);
}

fn sheet(previews: &[Preview]) -> RgbaImage {
    let cell = (WIDTH - GAP) / COLUMNS - GAP;
    let cell_h = cell * 3 / 4;
    let stills: Vec<&Preview> = previews.iter().filter(|p| p.frames.len() == 1).collect();
    let animated: Vec<&Preview> = previews.iter().filter(|p| p.frames.len() > 1).collect();
    let still_rows = u32::try_from(stills.len())
        .expect("a few previews")
        .div_ceil(COLUMNS);
    let frame_w = (WIDTH - GAP) / FRAMES as u32 - GAP;
    let frame_h = frame_w * 3 / 4;
    let strip_h = LABEL + frame_h + LABEL + GAP;
    let height = GAP
        + still_rows * (cell_h + LABEL + GAP)
        + u32::try_from(animated.len()).expect("a few previews") * strip_h;
    let mut sheet = RgbaImage::from_pixel(
        WIDTH,
        height,
        Rgba([BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 255]),
    );
    for (i, p) in stills.iter().enumerate() {
        let i = u32::try_from(i).expect("a few previews");
        let x = GAP + (i % COLUMNS) * (cell + GAP);
        let y = GAP + (i / COLUMNS) * (cell_h + LABEL + GAP);
        place(&mut sheet, &p.frames[0].0, x, y, cell, cell_h);
        label(&mut sheet, &p.path, x, y + cell_h, cell, Align::Center);
    }
    let mut y = GAP + still_rows * (cell_h + LABEL + GAP);
    for p in animated {
        let n = p.frames.len();
        label(
            &mut sheet,
            &format!("{}: {n} frames", p.path),
            GAP,
            y,
            WIDTH - 2 * GAP,
            Align::Left,
        );
        let shown = FRAMES.min(n);
        for k in 0..shown {
            let (frame, at) = &p.frames[k * n / shown];
            let x = GAP + u32::try_from(k).expect("a few frames") * (frame_w + GAP);
            place(&mut sheet, frame, x, y + LABEL, frame_w, frame_h);
            label(
                &mut sheet,
                &format!("{at} ms"),
                x,
                y + LABEL + frame_h,
                frame_w,
                Align::Center,
            );
        }
        y += strip_h;
    }
    sheet
}
