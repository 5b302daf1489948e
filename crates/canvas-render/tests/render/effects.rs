//! The effects' golden sheet: each effect a row of frames 0, 5 and 10
//! (deepfry its one frame), 64 px each, over the synthetic avatar.

use canvas_render::RgbaImage;
use canvas_render::template::{Layer, TemplateKind, render_template_frames};

/// Side of one frame on the sheet.
const SIDE: u32 = 64;
/// Frames shown per effect.
const SHOWN: [usize; 3] = [0, 5, 10];

pub fn sheet() -> RgbaImage {
    let kinds: Vec<TemplateKind> = TemplateKind::ALL
        .into_iter()
        .filter(|k| matches!(k.template().layers, [Layer::Effect(_)]))
        .collect();
    let a = super::avatar(160, 160);
    let mut out = RgbaImage::new(SIDE * SHOWN.len() as u32, SIDE * kinds.len() as u32);
    let side = SIDE.to_string();
    for (row, kind) in kinds.iter().enumerate() {
        let t = kind.template();
        let args = t.args(|n| (n == "size").then_some(side.as_str())).unwrap();
        let frames = render_template_frames(t, &args, &[(&a, 0)], None).unwrap();
        for (col, &i) in SHOWN.iter().enumerate() {
            let Some((frame, _)) = frames.get(i) else {
                continue;
            };
            image::imageops::replace(
                &mut out,
                frame,
                i64::from(col as u32 * SIDE),
                i64::from(row as u32 * SIDE),
            );
        }
    }
    out
}
