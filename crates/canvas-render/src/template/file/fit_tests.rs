//! Template files whose canvas follows their picture (`fit`), with cuts
//! and wedges: one read and drawn, and each misuse refused, naming its
//! field.

use std::path::Path;

use super::*;
use crate::limits::solid;
use crate::template::{FitSlot, Layer, Shape, render_template};

fn parse_str(text: &str) -> Result<LoadedTemplate, FileError> {
    parse(Path::new("test.toml"), text, Path::new("."))
}

const BUBBLE: &str = r##"format = 1
name = "bubble"
size = [100, 100]

[[layer]]
kind = "fit"
area = [0, 0, 100, 100]
sides = [64, 256]

[[layer]]
kind = "cut"
shape = "wedge(0.5)"
area = [0, 0, 100, 40]
paint = { color = "#000000" }
"##;

#[test]
fn a_fitted_file_reads_and_follows_its_picture() {
    let t = parse_str(BUBBLE).unwrap().template;
    assert!(matches!(
        t.layers[0],
        Layer::Fit(FitSlot {
            min_side: 64,
            max_side: 256,
            ..
        })
    ));
    assert!(matches!(t.layers[1], Layer::Cut(s) if s.shape == Shape::Wedge(0.5)));
    let args = t.args(|_| None).unwrap();
    let img = render_template(t, &args, Some(&solid(300, 150, [9, 99, 199]).unwrap())).unwrap();
    assert_eq!(img.dimensions(), (256, 128));
    assert_eq!(img.get_pixel(128, 2).0[3], 0, "cut at the wedge's base");
    assert_eq!(img.get_pixel(5, 60).0, [9, 99, 199, 255]);
}

#[test]
fn each_misuse_of_fit_is_refused_naming_its_field() {
    let fit = "[[layer]]\nkind = \"fit\"\narea = [0, 0, 100, 100]\nsides = [64, 256]\n";
    let cases: &[(String, &str, &str)] = &[
        (
            "[[layer]]\nkind = \"fit\"\narea = [0, 0, 100, 50]\nsides = [64, 256]\n".to_owned(),
            "layer[0].area",
            "width and height equal",
        ),
        (
            "[[layer]]\nkind = \"fit\"\narea = [0, 0, 100, 100]\nsides = [300, 200]\n".to_owned(),
            "layer[0].sides",
            "shortest ≤ longest",
        ),
        (
            "[[layer]]\nkind = \"fit\"\narea = [0, 0, 100, 100]\n".to_owned(),
            "layer[0].sides",
            "needs `sides`",
        ),
        (
            format!("[timeline]\nframes = 2\n\n{fit}"),
            "layer[0].kind",
            "a still without a camera",
        ),
        (format!("{fit}\n{fit}"), "layer[1].kind", "no other `fit`"),
        (
            format!("{fit}\n[[layer]]\nkind = \"avatar\"\nplace = [{{ x = 0, y = 0, w = 10, h = 10 }}]\n"),
            "layer[1].kind",
            "no avatar",
        ),
        (
            "[[layer]]\nkind = \"cut\"\nshape = \"wedge(2)\"\narea = [0, 0, 10, 10]\npaint = { color = \"#000000\" }\n".to_owned(),
            "layer[0].shape",
            "wedge(f) with f from 0 to 1",
        ),
    ];
    for (body, field, words) in cases {
        let text = format!("format = 1\nname = \"t\"\nsize = [100, 100]\n{body}");
        let e = parse_str(&text).map(|_| ()).unwrap_err();
        assert_eq!(e.field, *field, "{e}\n{text}");
        assert!(e.message.contains(words), "{e}");
    }
}
