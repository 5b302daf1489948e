//! The wise old turtle scenes: `sage` and `sage2`.

use std::sync::LazyLock;

use tiny_skia::{Color, PathBuilder, Pixmap, Transform};

use crate::RenderError;
use crate::paint::{Canvas, TURTLE, base_layer, circle_path, ground, rgba, rrect_path};
use crate::text::{Align, FontFace, TextBox, TextStyle, VAlign};

static SAGE_BASE: LazyLock<Pixmap> = LazyLock::new(|| base_layer(sage_base()));
static SAGE2_BASE: LazyLock<Pixmap> = LazyLock::new(|| base_layer(sage2_base()));

pub(super) fn sage(quote: &str) -> Result<Canvas, RenderError> {
    let mut c = Canvas::from_layer(&SAGE_BASE);
    let style = TextStyle::new(FontFace::SerifItalic, 54.0)
        .color([0x3b, 0x25, 0x10, 255])
        .valign(VAlign::Middle)
        .line_spacing(1.05);
    c.text(
        quote,
        &style,
        TextBox::new(610.0, 150.0, 510.0, 330.0),
        18.0,
    )?;
    Ok(c)
}

/// The sage card without its quote (drawn once, then cached).
fn sage_base() -> Result<Canvas, RenderError> {
    let mut c = Canvas::backdrop(
        1200,
        630,
        (1200.0, 630.0),
        &[(0.0, rgba(0xfff4dc, 255)), (1.0, rgba(0xf2cf8f, 255))],
    )?;
    c.glow(260.0, 200.0, 520.0, 0xffffff, 140);
    let sand = ground(520.0, (200.0, 490.0), (380.0, 500.0), (560.0, 540.0), 630.0);
    c.color(&sand, rgba(0xc9a86a, 160));
    // Turtle, 420×380 art scaled to ~500 wide.
    draw_turtle(&mut c, 1.18, 20.0, 6.0);
    // Quote.
    let panel = rrect_path(560.0, 50.0, 600.0, 530.0, 28.0);
    c.color(&panel, Color::from_rgba8(255, 255, 255, 150));
    let mark = TextStyle::new(FontFace::SerifItalic, 180.0).color([0xc2, 0x7c, 0x2c, 200]);
    c.line("\u{201C}", &mark, 580.0, 10.0, 200.0)?;
    let by = TextStyle::new(FontFace::Bold, 28.0)
        .color([0x8a, 0x55, 0x1d, 255])
        .align(Align::Right);
    c.line("\u{2014} the old turtle", &by, 610.0, 510.0, 510.0)?;
    Ok(c)
}

pub(super) fn sage2(quote: &str) -> Result<Canvas, RenderError> {
    let mut c = Canvas::from_layer(&SAGE2_BASE);
    let style = TextStyle::new(FontFace::SerifItalic, 56.0)
        .color([0x1e, 0x29, 0x3b, 255])
        .align(Align::Center)
        .valign(VAlign::Middle)
        .line_spacing(1.05);
    c.text(quote, &style, TextBox::new(80.0, 70.0, 640.0, 270.0), 16.0)?;
    Ok(c)
}

/// The sage2 scene without its quote (drawn once, then cached).
fn sage2_base() -> Result<Canvas, RenderError> {
    let mut c = Canvas::backdrop(
        800,
        800,
        (0.0, 800.0),
        &[
            (0.0, rgba(0x0b1a3a, 255)),
            (0.7, rgba(0x23386b, 255)),
            (1.0, rgba(0x3d4f7a, 255)),
        ],
    )?;
    // Stars, deterministic.
    let mut seed: u32 = 0x2545_f491;
    for _ in 0..70 {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let x = (seed % 800) as f32;
        let y = ((seed >> 10) % 520) as f32;
        let r = 0.8 + ((seed >> 20) % 3) as f32 * 0.7;
        c.color(
            &circle_path(x, y, r),
            Color::from_rgba8(255, 255, 240, 120 + ((seed >> 4) % 120) as u8),
        );
    }
    // Moon.
    c.glow(660.0, 620.0, 200.0, 0xfff3c4, 90);
    c.color(&circle_path(660.0, 620.0, 70.0), rgba(0xfff6d8, 255));
    c.color(&circle_path(640.0, 600.0, 12.0), rgba(0xeadfb8, 255));
    c.color(&circle_path(684.0, 640.0, 9.0), rgba(0xeadfb8, 255));
    let hill = ground(700.0, (200.0, 640.0), (520.0, 660.0), (800.0, 740.0), 800.0);
    c.color(&hill, rgba(0x14284f, 255));
    draw_turtle(&mut c, 0.95, 40.0, 30.0);
    // Speech bubble.
    let bubble = rrect_path(40.0, 40.0, 720.0, 330.0, 40.0);
    let mut tail = PathBuilder::new();
    tail.move_to(300.0, 360.0);
    tail.line_to(360.0, 470.0);
    tail.line_to(380.0, 360.0);
    tail.close();
    let tail = tail.finish().expect("tail");
    c.color(&bubble, rgba(0xfffaf0, 255));
    c.color(&tail, rgba(0xfffaf0, 255));
    Ok(c)
}

/// The turtle art (420×380) at `scale`, its left edge at `x` and its bottom
/// `lift` pixels above the canvas's bottom edge.
fn draw_turtle(c: &mut Canvas, scale: f32, x: f32, lift: f32) {
    let bottom = c.pixmap.height() as f32;
    c.svg(
        &TURTLE,
        Transform::from_row(scale, 0.0, 0.0, scale, x, bottom - 380.0 * scale - lift),
    );
}
