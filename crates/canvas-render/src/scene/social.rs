//! Social cards: the microblog `post` and the `video-comment`.

use tiny_skia::{Color, PathBuilder};

use super::cards::heart;
use super::paint::{Avatar, Canvas, circle_path, rect_path, rgba, rrect_path, text_rgb};
use super::{PostParams, PostTheme, VideoCommentParams, format_count};
use crate::RenderError;
use crate::RgbaImage;
use crate::text::{FontFace, TextBox, TextStyle, VAlign};

struct Palette {
    bg: u32,
    text: u32,
    muted: u32,
    border: u32,
}

fn palette(theme: PostTheme) -> Palette {
    match theme {
        PostTheme::Light => Palette {
            bg: 0xffffff,
            text: 0x0f1419,
            muted: 0x536471,
            border: 0xeff3f4,
        },
        PostTheme::Dim => Palette {
            bg: 0x15202b,
            text: 0xf7f9f9,
            muted: 0x8b98a5,
            border: 0x38444d,
        },
        PostTheme::Dark => Palette {
            bg: 0x000000,
            text: 0xe7e9ea,
            muted: 0x71767b,
            border: 0x2f3336,
        },
    }
}

fn reply_icon(c: &mut Canvas, x: f32, y: f32, col: Color) {
    let mut pb = PathBuilder::new();
    pb.move_to(x + 6.0, y + 26.0);
    pb.line_to(x + 2.0, y + 34.0);
    pb.line_to(x + 14.0, y + 28.0);
    pb.line_to(x + 26.0, y + 28.0);
    pb.quad_to(x + 36.0, y + 28.0, x + 36.0, y + 18.0);
    pb.line_to(x + 36.0, y + 12.0);
    pb.quad_to(x + 36.0, y + 2.0, x + 26.0, y + 2.0);
    pb.line_to(x + 12.0, y + 2.0);
    pb.quad_to(x + 2.0, y + 2.0, x + 2.0, y + 12.0);
    pb.line_to(x + 2.0, y + 18.0);
    pb.quad_to(x + 2.0, y + 24.0, x + 6.0, y + 26.0);
    pb.close();
    c.stroke(&pb.finish().expect("reply"), col, 3.0);
}

fn repost_icon(c: &mut Canvas, x: f32, y: f32, col: Color) {
    let mut pb = PathBuilder::new();
    pb.move_to(x + 8.0, y + 28.0);
    pb.line_to(x + 8.0, y + 8.0);
    pb.line_to(x + 28.0, y + 8.0);
    pb.move_to(x + 2.0, y + 22.0);
    pb.line_to(x + 8.0, y + 29.0);
    pb.line_to(x + 14.0, y + 22.0);
    pb.move_to(x + 32.0, y + 8.0);
    pb.line_to(x + 32.0, y + 28.0);
    pb.line_to(x + 12.0, y + 28.0);
    pb.move_to(x + 26.0, y + 14.0);
    pb.line_to(x + 32.0, y + 7.0);
    pb.line_to(x + 38.0, y + 14.0);
    c.stroke(&pb.finish().expect("repost"), col, 3.0);
}

fn share_icon(c: &mut Canvas, x: f32, y: f32, col: Color) {
    let mut pb = PathBuilder::new();
    pb.move_to(x + 4.0, y + 20.0);
    pb.line_to(x + 4.0, y + 32.0);
    pb.line_to(x + 34.0, y + 32.0);
    pb.line_to(x + 34.0, y + 20.0);
    pb.move_to(x + 19.0, y + 24.0);
    pb.line_to(x + 19.0, y + 2.0);
    pb.move_to(x + 10.0, y + 11.0);
    pb.line_to(x + 19.0, y + 2.0);
    pb.line_to(x + 28.0, y + 11.0);
    c.stroke(&pb.finish().expect("share"), col, 3.0);
}

pub(super) fn post(avatar: Option<&RgbaImage>, p: &PostParams) -> Result<Canvas, RenderError> {
    let (w, h) = (1200.0, 760.0);
    let pal = palette(p.theme);
    let mut c = Canvas::new(1200, 760)?;
    c.color(&rect_path(0.0, 0.0, w, h), rgba(pal.bg, 255));
    let pad = 56.0;
    // Header.
    let av = Avatar::prepare(avatar, 112, false)?;
    c.fill(
        &circle_path(pad + 56.0, pad + 56.0, 56.0),
        &av.paint(pad, pad, 112.0, 0.0),
    );
    let name = TextStyle::new(FontFace::Bold, 40.0).color(text_rgb(pal.text));
    let display = if p.displayname.trim().is_empty() {
        p.username.as_str()
    } else {
        p.displayname.as_str()
    };
    c.line(display, &name, pad + 140.0, pad + 4.0, 860.0)?;
    let handle = TextStyle::new(FontFace::Regular, 34.0).color(text_rgb(pal.muted));
    c.line(
        &format!("@{}", p.username.trim_start_matches('@')),
        &handle,
        pad + 140.0,
        pad + 58.0,
        860.0,
    )?;
    for i in 0..3 {
        c.color(
            &circle_path(w - pad - 40.0 + i as f32 * 14.0, pad + 30.0, 4.0),
            rgba(pal.muted, 255),
        );
    }
    // Body text: large, shrinking for long posts.
    let body = TextStyle::new(FontFace::Regular, 52.0)
        .color(text_rgb(pal.text))
        .line_spacing(1.12);
    c.text(
        &p.comment,
        &body,
        TextBox::new(pad, 200.0, w - 2.0 * pad, 360.0),
        20.0,
    )?;
    // Date, counters, actions.
    let muted = TextStyle::new(FontFace::Regular, 30.0).color(text_rgb(pal.muted));
    c.line(&p.date, &muted, pad, 574.0, w - 2.0 * pad)?;
    let border = rgba(pal.border, 255);
    c.color(&rect_path(pad, 628.0, w - 2.0 * pad, 2.0), border);
    let mut x = pad;
    let bold = TextStyle::new(FontFace::Bold, 30.0).color(text_rgb(pal.text));
    for (n, label) in [
        (p.reposts, "Reposts"),
        (p.quotes, "Quotes"),
        (p.likes, "Likes"),
    ] {
        x += c.line(&format_count(n), &bold, x, 644.0, 300.0)? + 10.0;
        x += c.line(label, &muted, x, 644.0, 300.0)? + 36.0;
    }
    c.color(&rect_path(pad, 700.0, w - 2.0 * pad, 2.0), border);
    let icon = rgba(pal.muted, 255);
    let slot = (w - 2.0 * pad) / 4.0;
    let iy = 712.0;
    reply_icon(&mut c, pad + slot * 0.5 - 20.0, iy, icon);
    repost_icon(&mut c, pad + slot * 1.5 - 20.0, iy, icon);
    let like = heart(pad + slot * 2.5, iy + 18.0, 38.0);
    c.color(&like, rgba(0xf91880, 255));
    share_icon(&mut c, pad + slot * 3.5 - 20.0, iy, icon);
    Ok(c)
}

fn thumb(c: &mut Canvas, x: f32, y: f32, down: bool, col: Color) {
    // A thumbs-up drawn in a 36×36 box; flipped vertically for thumbs-down.
    let f = |yy: f32| if down { y + 36.0 - yy } else { y + yy };
    let mut pb = PathBuilder::new();
    pb.move_to(x + 2.0, f(16.0));
    pb.line_to(x + 9.0, f(16.0));
    pb.line_to(x + 9.0, f(34.0));
    pb.line_to(x + 2.0, f(34.0));
    pb.close();
    pb.move_to(x + 12.0, f(16.0));
    pb.line_to(x + 18.0, f(4.0));
    pb.quad_to(x + 24.0, f(3.0), x + 23.0, f(10.0));
    pb.line_to(x + 21.0, f(15.0));
    pb.line_to(x + 31.0, f(15.0));
    pb.quad_to(x + 36.0, f(16.0), x + 34.0, f(21.0));
    pb.line_to(x + 30.0, f(32.0));
    pb.quad_to(x + 29.0, f(34.0), x + 26.0, f(34.0));
    pb.line_to(x + 12.0, f(34.0));
    pb.close();
    c.stroke(&pb.finish().expect("thumb"), col, 2.6);
}

pub(super) fn video_comment(
    avatar: Option<&RgbaImage>,
    v: &VideoCommentParams,
) -> Result<Canvas, RenderError> {
    let (w, h) = (1200.0, 360.0);
    let mut c = Canvas::new(1200, 360)?;
    c.color(&rect_path(0.0, 0.0, w, h), rgba(0x0f0f0f, 255));
    let av = Avatar::prepare(avatar, 96, false)?;
    c.fill(
        &circle_path(88.0, 88.0, 48.0),
        &av.paint(40.0, 40.0, 96.0, 0.0),
    );
    let x = 164.0;
    let name = TextStyle::new(FontFace::Bold, 30.0).color(text_rgb(0xf1f1f1));
    let nw = c.line(
        &format!("@{}", v.username.trim_start_matches('@')),
        &name,
        x,
        36.0,
        700.0,
    )?;
    let muted = TextStyle::new(FontFace::Regular, 28.0).color(text_rgb(0xaaaaaa));
    c.line(
        &v.time,
        &muted,
        x + nw + 16.0,
        38.0,
        (w - x - nw - 56.0).max(40.0),
    )?;
    let body = TextStyle::new(FontFace::Regular, 34.0)
        .color(text_rgb(0xf1f1f1))
        .line_spacing(1.1)
        .valign(VAlign::Top);
    c.text(
        &v.comment,
        &body,
        TextBox::new(x, 88.0, w - x - 48.0, 180.0),
        16.0,
    )?;
    let icon = rgba(0xf1f1f1, 255);
    let ry = 290.0;
    thumb(&mut c, x, ry, false, icon);
    let lw = c.line(&format_count(v.likes), &muted, x + 48.0, ry - 2.0, 160.0)?;
    thumb(&mut c, x + 48.0 + lw + 30.0, ry + 2.0, true, icon);
    let reply = TextStyle::new(FontFace::Bold, 28.0).color(text_rgb(0xf1f1f1));
    let rx = x + 48.0 + lw + 30.0 + 36.0 + 40.0;
    c.color(
        &rrect_path(rx - 18.0, ry - 8.0, 116.0, 52.0, 26.0),
        Color::from_rgba8(255, 255, 255, 24),
    );
    c.line("Reply", &reply, rx, ry - 2.0, 120.0)?;
    Ok(c)
}
