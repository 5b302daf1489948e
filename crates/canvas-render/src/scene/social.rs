//! Social cards: the microblog `post` and the `video-comment`.

use tiny_skia::{Color, PathBuilder};

use super::cards::heart;
use super::{PostParams, PostTheme, VideoCommentParams};
use crate::RenderError;
use crate::RgbaImage;
use crate::paint::{Avatar, Canvas, circle_path, rect_path, rgba, rrect_path, text_rgb};
use crate::text::format_count;
use crate::text::{self, FontFace, TextBox, TextLayout, TextStyle, VAlign};

/// Width of the `post` card, pixels.
pub const POST_WIDTH: u32 = 1200;
/// The tallest `post` card, pixels: a comment whose text is taller than the
/// room left at this height shrinks (down to 20 px text) to fit it.
pub const POST_MAX_HEIGHT: u32 = 1400;
/// Width of the `video-comment` card, pixels.
pub const VIDEO_COMMENT_WIDTH: u32 = 1200;
/// The tallest `video-comment` card, pixels (longer comments shrink down to
/// 16 px text to fit).
pub const VIDEO_COMMENT_MAX_HEIGHT: u32 = 800;

/// Top of the post body text, and the room the date, counters and actions
/// take below it.
const POST_BODY_TOP: f32 = 200.0;
const POST_FOOTER: f32 = 200.0;
const POST_PAD: f32 = 56.0;
/// The same for the video comment.
const VC_BODY_TOP: f32 = 88.0;
const VC_FOOTER: f32 = 92.0;
const VC_TEXT_X: f32 = 164.0;

/// The body text of a card that grows with it: laid out at the style's size
/// when it fits under `max_height` (the card then ends right below it), else
/// shrunk to fit that height. Returns the layout and the height of its box.
fn growing_body(
    comment: &str,
    style: &TextStyle,
    width: f32,
    max_height: f32,
    min_size: f32,
) -> Result<(TextLayout, f32), RenderError> {
    let natural = text::layout_text(comment, style, width)?;
    if natural.height() <= max_height {
        let h = natural.height();
        return Ok((natural, h));
    }
    let fitted = text::fit_text(
        comment,
        style,
        TextBox::new(0.0, 0.0, width, max_height),
        min_size,
    )?;
    Ok((fitted, max_height))
}

fn post_body_style(theme: PostTheme) -> TextStyle {
    TextStyle::new(FontFace::Regular, 52.0)
        .color(text_rgb(palette(theme).text))
        .line_spacing(1.12)
}

fn post_body(p: &PostParams) -> Result<(TextLayout, f32), RenderError> {
    growing_body(
        &p.comment,
        &post_body_style(p.theme),
        POST_WIDTH as f32 - 2.0 * POST_PAD,
        POST_MAX_HEIGHT as f32 - POST_BODY_TOP - POST_FOOTER,
        20.0,
    )
}

/// The height of a `post` card for its comment.
pub(super) fn post_height(p: &PostParams) -> u32 {
    match post_body(p) {
        Ok((_, body)) => (POST_BODY_TOP + body + POST_FOOTER).ceil() as u32,
        Err(_) => POST_MAX_HEIGHT,
    }
}

fn video_comment_body_style() -> TextStyle {
    TextStyle::new(FontFace::Regular, 34.0)
        .color(text_rgb(0xf1f1f1))
        .line_spacing(1.1)
        .valign(VAlign::Top)
}

fn video_comment_body(v: &VideoCommentParams) -> Result<(TextLayout, f32), RenderError> {
    growing_body(
        &v.comment,
        &video_comment_body_style(),
        VIDEO_COMMENT_WIDTH as f32 - VC_TEXT_X - 48.0,
        VIDEO_COMMENT_MAX_HEIGHT as f32 - VC_BODY_TOP - VC_FOOTER,
        16.0,
    )
}

/// The height of a `video-comment` card for its comment.
pub(super) fn video_comment_height(v: &VideoCommentParams) -> u32 {
    match video_comment_body(v) {
        Ok((_, body)) => (VC_BODY_TOP + body + VC_FOOTER).ceil() as u32,
        Err(_) => VIDEO_COMMENT_MAX_HEIGHT,
    }
}

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
    let (layout, body_h) = post_body(p)?;
    let w = POST_WIDTH as f32;
    let height = (POST_BODY_TOP + body_h + POST_FOOTER).ceil();
    let pal = palette(p.theme);
    let mut c = Canvas::new(POST_WIDTH, height as u32)?;
    c.color(&rect_path(0.0, 0.0, w, height), rgba(pal.bg, 255));
    let pad = POST_PAD;
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
        &format!(
            "@{}",
            crate::text::isolate(p.username.trim_start_matches('@'))
        ),
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
    // Body text: the card grows with it (shrinking only past the tallest card).
    c.draw_layout(
        &layout,
        &post_body_style(p.theme),
        TextBox::new(pad, POST_BODY_TOP, w - 2.0 * pad, body_h),
    );
    // Date, counters, actions, right below the body.
    let y = POST_BODY_TOP + body_h;
    let muted = TextStyle::new(FontFace::Regular, 30.0).color(text_rgb(pal.muted));
    c.line(&p.date, &muted, pad, y + 14.0, w - 2.0 * pad)?;
    let border = rgba(pal.border, 255);
    c.color(&rect_path(pad, y + 68.0, w - 2.0 * pad, 2.0), border);
    let mut x = pad;
    let bold = TextStyle::new(FontFace::Bold, 30.0).color(text_rgb(pal.text));
    let replies = p.replies.map(|n| (n, "Replies"));
    for (n, label) in replies.into_iter().chain([
        (p.reposts, "Reposts"),
        (p.quotes, "Quotes"),
        (p.likes, "Likes"),
    ]) {
        x += c.line(&format_count(n), &bold, x, y + 84.0, 300.0)? + 10.0;
        x += c.line(label, &muted, x, y + 84.0, 300.0)? + 36.0;
    }
    c.color(&rect_path(pad, y + 140.0, w - 2.0 * pad, 2.0), border);
    let icon = rgba(pal.muted, 255);
    let slot = (w - 2.0 * pad) / 4.0;
    let iy = y + 152.0;
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
    let (layout, body_h) = video_comment_body(v)?;
    let w = VIDEO_COMMENT_WIDTH as f32;
    let h = (VC_BODY_TOP + body_h + VC_FOOTER).ceil();
    let mut c = Canvas::new(VIDEO_COMMENT_WIDTH, h as u32)?;
    c.color(&rect_path(0.0, 0.0, w, h), rgba(0x0f0f0f, 255));
    let av = Avatar::prepare(avatar, 96, false)?;
    c.fill(
        &circle_path(88.0, 88.0, 48.0),
        &av.paint(40.0, 40.0, 96.0, 0.0),
    );
    let x = VC_TEXT_X;
    let name = TextStyle::new(FontFace::Bold, 30.0).color(text_rgb(0xf1f1f1));
    let nw = c.line(
        &format!(
            "@{}",
            crate::text::isolate(v.username.trim_start_matches('@'))
        ),
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
    c.draw_layout(
        &layout,
        &video_comment_body_style(),
        TextBox::new(x, VC_BODY_TOP, w - x - 48.0, body_h),
    );
    let icon = rgba(0xf1f1f1, 255);
    let ry = VC_BODY_TOP + body_h + 22.0;
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
