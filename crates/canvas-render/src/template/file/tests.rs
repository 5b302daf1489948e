use std::path::Path;

use super::*;
use crate::template::{Layer, RowItem, When};

fn parse_str(text: &str) -> Result<LoadedTemplate, FileError> {
    parse(Path::new("test.toml"), text, Path::new("."))
}

#[test]
fn every_builtin_writes_and_reads_back_equal() {
    for (name, t) in builtins() {
        let text = to_toml(&name, t);
        let loaded = parse_str(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(loaded.name, name);
        assert_eq!(loaded.template, t, "{name}:\n{text}");
    }
}

#[test]
fn every_art_has_a_distinct_name_that_finds_it() {
    for (i, art) in Art::ALL.iter().enumerate() {
        assert_eq!(*art as usize, i, "Art::ALL is in declaration order");
        assert!(is_valid_name(art.name()), "{}", art.name());
        assert_eq!(Art::from_name(art.name()), Some(*art));
    }
}

/// The fields a derived `Deserialize` asks for: its `deserialize_struct`
/// call, caught by a deserializer that records it.
fn fields<'de, T: serde::Deserialize<'de>>() -> Vec<&'static str> {
    use serde::de::value::Error;
    use serde::de::{self, Visitor};
    struct Recorder<'a>(&'a mut Vec<&'static str>);
    impl<'de> de::Deserializer<'de> for Recorder<'_> {
        type Error = Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Error> {
            self.0.extend_from_slice(fields);
            Err(de::Error::custom("recorded"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }
    let mut out = Vec::new();
    let _ = T::deserialize(Recorder(&mut out));
    out
}

fn guide() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/operating/templates.md");
    std::fs::read_to_string(path).unwrap()
}

/// The tables of the section under the heading containing `heading`: each
/// table's header cells and its rows' cells.
fn tables(page: &str, heading: &str) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let start = page
        .lines()
        .position(|l| l.starts_with('#') && l.contains(heading))
        .unwrap_or_else(|| panic!("no heading with {heading}"));
    let cells = |l: &str| -> Vec<String> {
        l.trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect()
    };
    let mut out: Vec<(Vec<String>, Vec<Vec<String>>)> = Vec::new();
    let mut in_table = false;
    for line in page.lines().skip(start + 1) {
        if line.starts_with('#') {
            break;
        }
        if line.starts_with('|') {
            if !in_table {
                out.push((cells(line), Vec::new()));
                in_table = true;
            } else if !line.starts_with("| ---") {
                out.last_mut().unwrap().1.push(cells(line));
            }
        } else {
            in_table = false;
        }
    }
    out
}

/// The names in the first column of the section's `| field |` table.
fn documented_fields(page: &str, heading: &str) -> Vec<String> {
    let tables = tables(page, heading);
    let (_, rows) = tables
        .iter()
        .find(|(header, _)| header[0] == "field")
        .unwrap_or_else(|| panic!("no field table under {heading}"));
    rows.iter()
        .map(|r| r[0].trim_matches('`').to_owned())
        .collect()
}

#[test]
fn the_guide_documents_every_field_and_nothing_else() {
    use super::format::*;
    let page = guide();
    let sections: [(&str, Vec<&str>); 13] = [
        ("Top level", fields::<Doc>()),
        ("`[timeline]`", fields::<TimelineFile>()),
        ("`[camera]`", fields::<CameraFile>()),
        ("`[[param]]`", fields::<ParamFile>()),
        ("`[[layer]]`", fields::<LayerFile>()),
        ("Placements", fields::<PlaceFile>()),
        ("Paint:", fields::<PaintFile>()),
        ("`tint`", fields::<TintFile>()),
        ("`outline`", fields::<OutlineFile>()),
        ("`reveal`", fields::<RevealFile>()),
        ("`palette`", fields::<PaletteFile>()),
        ("Text pieces", fields::<PieceFile>()),
        ("Row items", fields::<ItemFile>()),
    ];
    for (heading, accepted) in sections {
        assert!(!accepted.is_empty(), "{heading}");
        let mut documented = documented_fields(&page, heading);
        let mut accepted: Vec<String> = accepted.iter().map(|f| (*f).to_owned()).collect();
        documented.sort();
        accepted.sort();
        assert_eq!(documented, accepted, "the fields under {heading}");
    }
    // Every kind of layer and of row item, with every field it takes.
    for (heading, table) in [
        ("`[[layer]]`", super::convert::LAYER_FIELDS),
        ("Row items", super::convert::ITEM_FIELDS),
    ] {
        let kinds = tables(&page, heading)
            .into_iter()
            .find(|(header, _)| header[0] == "kind")
            .expect("the table of kinds")
            .1;
        assert_eq!(kinds.len(), table.len(), "the kinds under {heading}");
        for (kind, takes) in table {
            let row = kinds
                .iter()
                .find(|r| r[0] == format!("`{kind}`"))
                .unwrap_or_else(|| panic!("no row for {kind} under {heading}"));
            for field in *takes {
                assert!(
                    row[1].contains(&format!("`{field}`")),
                    "{kind} takes {field}"
                );
            }
        }
    }
    // The kinds a growing text's `below` holds.
    let section = &page[page
        .find("### A card that grows")
        .expect("the grow section")..];
    for kind in super::convert::BELOW_KINDS {
        assert!(section.contains(&format!("`{kind}`")), "below takes {kind}");
    }
    // Every built-in art name and face, and the caps as the constants say.
    for art in Art::ALL {
        assert!(
            page.contains(&format!("`{}`", art.name())),
            "{}",
            art.name()
        );
    }
    for (face, _) in super::convert::FACES {
        assert!(page.contains(&format!("`{face}`")), "{face}");
    }
    let side = (MAX_ART_PIXELS as f64).sqrt() as u64;
    for cap in [
        format!("at most {} MiB", MAX_ART_BYTES >> 20),
        format!("{side} × {side} pixels"),
        format!("at most {} MiB each", MAX_FONT_BYTES >> 20),
        format!("at most {} KiB", MAX_FILE_BYTES >> 10),
        format!("1 to {MAX_CANVAS_SIDE} pixels"),
        format!("at most {MAX_PARAMS}"),
        format!("at most {MAX_LAYERS}"),
        format!("1 to {MAX_TEXT_CHARS}"),
        format!("at most {MAX_TEMPLATES} of them"),
        format!("`format = {FORMAT}`"),
        format!("1 to {}", crate::template::MAX_TEMPLATE_FRAMES),
    ] {
        assert!(page.contains(&cap), "the guide says {cap:?}");
    }
}

#[test]
fn every_toml_example_in_the_guide_parses() {
    let page = guide();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/templates");
    let mut blocks = 0;
    let mut rest = page.as_str();
    while let Some(start) = rest.find("```toml\n") {
        let body = &rest[start + 8..];
        let end = body.find("```").expect("a closed block");
        let block = &body[..end];
        toml::from_str::<toml::Table>(block).unwrap_or_else(|e| panic!("{e}\n{block}"));
        if block.contains("format = ") {
            parse(Path::new("guide.md"), block, &examples).unwrap_or_else(|e| panic!("{e}"));
        }
        blocks += 1;
        rest = &body[end + 3..];
    }
    assert!(blocks >= 5, "{blocks} TOML examples");
}

const HEAD: &str = "format = 1\nname = \"t\"\nsize = [100, 100]\n";

/// Each broken body after [`HEAD`]: the line (of the whole file), the
/// field and words of its error.
#[test]
fn semantic_errors_name_their_line_and_field() {
    let cases: &[(&str, usize, &str, &str)] = &[
        (
            "[[param]]\nname = \"n\"\ntype = \"int\"\nmin = 0\nmax = 9\ndoc = \"d\"\n\n[[layer]]\nkind = \"text\"\ntext = [{ param = \"m\" }]\nsize = 10\narea = [0, 0, 10, 10]\n",
            13,
            "layer[0].text[0].param",
            "no parameter named `m`",
        ),
        (
            "[[param]]\nname = \"n\"\ntype = \"int\"\nmin = 0\nmax = 9\ndoc = \"d\"\n\n[[layer]]\nkind = \"shape\"\nshape = \"rect\"\narea = [0, 0, 10, 10]\npaint = { param = \"n\" }\n",
            15,
            "layer[0].paint.param",
            "`n` is not a colour parameter",
        ),
        (
            "[[layer]]\nkind = \"avatar\"\nplace = [{ x = 0, y = 0, w = 10, h = 10 }]\nsize = 12\n",
            7,
            "layer[0].size",
            "a layer of kind `avatar` has no `size`",
        ),
        (
            "[[layer]]\nkind = \"text\"\ntext = [{ lit = \"a\" }]\nsize = 10\n",
            4,
            "layer[0].area",
            "needs its box",
        ),
        (
            "[[layer]]\nkind = \"avatar\"\nwhen = [\"nobody\"]\nplace = [{ x = 0, y = 0, w = 10, h = 10 }]\n",
            6,
            "layer[0].when",
            "no parameter named `nobody`",
        ),
        (
            "[[layer]]\nkind = \"art\"\nart = \"no-such-art\"\nplace = [{ x = 0, y = 0, w = 10, h = 10 }]\n",
            6,
            "layer[0].art",
            "no built-in art named `no-such-art`",
        ),
        (
            "[[layer]]\nkind = \"sparkles\"\n",
            5,
            "layer[0].kind",
            "`sparkles` is not a kind of layer",
        ),
        (
            "[[param]]\nname = \"t\"\ntype = \"text\"\ndoc = \"d\"\n",
            6,
            "param[0].max_chars",
            "needs `max_chars`",
        ),
        (
            "[[layer]]\nkind = \"text\"\ntext = [{ lit = \"a\", yes = \"b\" }]\nsize = 10\narea = [0, 0, 10, 10]\n",
            6,
            "layer[0].text[0]",
            "`yes` does not go with `lit`",
        ),
        (
            "[timeline]\nframes = 2\n\n[[layer]]\nkind = \"avatar\"\nplace = [{ x = 0, y = 0, w = 10, h = 10 }, { x = 0, y = 0, w = 10, h = 10 }, { x = 0, y = 0, w = 10, h = 10 }]\n",
            9,
            "layer[0].place",
            "one placement, or one per frame (2); got 3",
        ),
    ];
    for (body, line, field, words) in cases {
        let text = format!("{HEAD}{body}");
        let e = parse_str(&text).map(|_| ()).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (*line, *field), "{e}\n{text}");
        assert!(e.message.contains(words), "{e}");
        assert_eq!(
            e.to_string(),
            format!("test.toml:{line}: {field}: {}", e.message)
        );
    }
    let no_size = parse_str("format = 1\nname = \"x\"\n").unwrap_err();
    assert_eq!(no_size.field, "size", "{no_size}");
    assert!(
        no_size.message.contains("missing field `size`"),
        "{no_size}"
    );
    let no_kind = parse_str(&format!("{HEAD}\n[[layer]]\nplace = []\n")).unwrap_err();
    assert_eq!(
        (no_kind.line, no_kind.field.as_str()),
        (5, "kind"),
        "{no_kind}"
    );
    let bad_name = parse_str("format = 1\nname = \"Bad_Name\"\nsize = [1, 1]\n").unwrap_err();
    assert_eq!((bad_name.line, bad_name.field.as_str()), (2, "name"));
    let no_format = parse_str("name = \"x\"\n").unwrap_err();
    assert_eq!(no_format.field, "format");
}

/// A text parameter `m`, an int `n` and a choice `theme` (two options).
const FLOW_PARAMS: &str = "[[param]]\nname = \"m\"\ntype = \"text\"\nmax_chars = 50\ndoc = \"d\"\n\n[[param]]\nname = \"n\"\ntype = \"int\"\nmin = 0\nmax = 9\ndoc = \"d\"\n\n[[param]]\nname = \"theme\"\ntype = \"choice\"\noptions = [\"light\", \"dark\"]\ndoc = \"d\"\n";

/// A growing text filling a 100-pixel-high canvas, `extra` lines in its
/// table.
fn grow_layer(extra: &str) -> String {
    format!(
        "\n[[layer]]\nkind = \"grow\"\ntext = [{{ param = \"m\" }}]\nsize = 10\narea = [0, 0, 100, 90]\npaint = {{ color = \"#000000\" }}\nmargin = 10\n{extra}"
    )
}

/// Errors of growing texts, rows and their items, each after [`HEAD`] and
/// [`FLOW_PARAMS`] (lines 4 to 21): the line, the field and words of the
/// error.
#[test]
fn flow_errors_name_their_line_and_field() {
    let row =
        |items: &str| format!("\n[[layer]]\nkind = \"row\"\nat = [0, 0]\nitems = [\n{items}]\n");
    let deep = (0..6).fold(
        "{ kind = \"art\", art = \"hand\", advance = 1 }".to_owned(),
        |inner, _| format!("{{ kind = \"group\", when = [\"m\"], items = [{inner}] }}"),
    );
    let many = "{ kind = \"art\", art = \"hand\", advance = 1 },\n".repeat(65);
    let cases: Vec<(String, usize, &str, &str)> = vec![
        (
            grow_layer(
                "\n[[layer.below]]\nkind = \"avatar\"\nplace = [{ x = 0, y = 0, w = 10, h = 10 }]\n",
            ),
            32,
            "layer[0].below[0].kind",
            "a layer of kind `avatar` cannot move with a growing text",
        ),
        (
            grow_layer(
                "\n[[layer.below]]\nkind = \"art\"\nfile = \"logo.png\"\nplace = [{ x = 0, y = 0, w = 10, h = 10 }]\n",
            ),
            33,
            "layer[0].below[0].file",
            "a picture file cannot move with a growing text",
        ),
        (
            format!("{}{}", grow_layer(""), grow_layer("")),
            32,
            "layer[1].kind",
            "at most one `grow` layer",
        ),
        (
            grow_layer("").replace("[0, 0, 100, 90]", "[0, 0, 100, 50]"),
            27,
            "layer[0].area",
            "the template's height 100; got 60",
        ),
        (
            grow_layer("line_spacing = 2\n")
                .replace("[0, 0, 100, 90]", "[0, 0, 100, 15]")
                .replace("margin = 10", "margin = 85"),
            27,
            "layer[0].area",
            "at least one line",
        ),
        (
            grow_layer("line_spacing = 9\n"),
            30,
            "layer[0].line_spacing",
            "from 0.5 to 3",
        ),
        (
            grow_layer("when = [\"m\"]\n"),
            30,
            "layer[0].when",
            "always drawn",
        ),
        (
            grow_layer("").replace("paint = { color = \"#000000\" }", "color = \"#000000\""),
            28,
            "layer[0].color",
            "a layer of kind `grow` has no `color`",
        ),
        (
            format!("\n[timeline]\nframes = 2\n{}", grow_layer("")),
            27,
            "layer[0].kind",
            "a still canvas",
        ),
        (
            row("{ kind = \"art\", art = \"hand\", advance = 1, size = 3 },\n"),
            27,
            "layer[0].items[0].size",
            "a row item of kind `art` has no `size`",
        ),
        (
            row(
                "{ kind = \"text\", text = [{ lit = \"a\" }], size = 10, max_width = 50, paint = { pick = \"m\", colors = [\"#000000\", \"#ffffff\"] } },\n",
            ),
            27,
            "layer[0].items[0].paint.pick",
            "`m` is not a choice parameter",
        ),
        (
            row(
                "{ kind = \"text\", text = [{ lit = \"a\" }], size = 10, max_width = 50, paint = { pick = \"theme\", colors = [\"#000000\"] } },\n",
            ),
            27,
            "layer[0].items[0].paint.colors",
            "one entry per option of `theme` (2); got 1",
        ),
        (
            row(
                "{ kind = \"text\", text = [{ handle = \"n\" }], size = 10, max_width = 50, paint = { color = \"#000000\" } },\n",
            ),
            27,
            "layer[0].items[0].text[0].handle",
            "`n` is not a text parameter",
        ),
        (
            row(
                "{ kind = \"text\", text = [{ lit = \"a\" }], size = 10, paint = { color = \"#000000\" } },\n",
            ),
            27,
            "layer[0].items[0].max_width",
            "this row item needs `max_width`",
        ),
        (
            row("{ kind = \"group\", when = [\"?nobody\"], items = [] },\n"),
            27,
            "layer[0].items[0].when",
            "no parameter named `nobody`",
        ),
        (
            row(&format!("{deep},\n")),
            27,
            "layer[0].items[0].items[0].items[0].items[0].items[0].items",
            "groups nest at most 4 deep",
        ),
        (row(&many), 91, "layer[0].items", "at most 64 items"),
        (
            "\n[[layer]]\nkind = \"row\"\nitems = []\n".to_owned(),
            23,
            "layer[0].at",
            "a row needs where it starts",
        ),
    ];
    for (body, line, field, words) in &cases {
        let text = format!("{HEAD}{FLOW_PARAMS}{body}");
        let e = parse_str(&text).map(|_| ()).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (*line, *field), "{e}\n{text}");
        assert!(e.message.contains(words), "{e}");
        assert_eq!(
            e.to_string(),
            format!("test.toml:{line}: {field}: {}", e.message)
        );
    }
}

#[test]
fn given_conditions_and_groups_read_as_the_model_has_them() {
    let text = format!(
        "{HEAD}{FLOW_PARAMS}\n[[layer]]\nkind = \"row\"\nat = [1, 2]\nitems = [{{ kind = \"group\", when = [\"?n\", \"!m\", \"!?m\"], items = [{{ kind = \"art\", art = \"hand\", advance = 5 }}] }}]\n"
    );
    let t = parse_str(&text).unwrap().template;
    let Layer::Row(row) = &t.layers[0] else {
        panic!("{:?}", t.layers[0])
    };
    assert_eq!(row.items.len(), 1);
    let RowItem::When(When::Given("n"), inner) = row.items[0] else {
        panic!("{:?}", row.items[0])
    };
    assert!(matches!(
        inner,
        [RowItem::When(
            When::Unset("m"),
            [RowItem::When(
                When::Absent("m"),
                [RowItem::Art { advance: 5.0, .. }]
            )]
        )]
    ));
}
/// A camera's backdrop read from a file (the guide's example) draws under
/// the picture: every frame is full; a backdrop takes art, shapes and the
/// avatar only.
#[test]
fn a_camera_backdrop_from_a_file_fills_every_frame() {
    let text = r##"
format = 1
name = "shaky"
size = [512, 512]

[timeline]
frames = 4
delay_ms = 40

[camera]
content = [488, 376]
offsets = [[14, 6], [24, 24], [16, 6], [0, 8]]

[[camera.backdrop]]
kind = "shape"
shape = "rect"
area = [0, 0, 512, 512]
paint = { color = "#2a0000" }

[[camera.backdrop]]
kind = "avatar"
place = [{ x = 0, y = 0, w = 512, h = 512 }]
tint = { color = "#ff1a1a", strength = 0.5 }

[[layer]]
kind = "avatar"
place = [{ x = 0, y = 0, w = 488, h = 488 }]
"##;
    let camera = &text[text.find("[camera]").unwrap()..text.find("\n[[layer]]").unwrap()];
    assert!(guide().contains(camera), "the guide's example");
    let t = parse_str(text).unwrap().template;
    assert_eq!(t.camera.unwrap().backdrop.len(), 2);
    let args = t.args(|_| None).unwrap();
    let avatar = image::RgbaImage::from_fn(64, 64, |x, _| {
        image::Rgba([200, 180, 40, if x < 8 { 0 } else { 255 }])
    });
    let frames = crate::template::render_template_frames(t, &args, &[(&avatar, 0)], None).unwrap();
    assert_eq!(frames.len(), 4);
    for (k, (frame, _)) in frames.iter().enumerate() {
        assert!(frame.pixels().all(|p| p[3] == 255), "frame {k}");
    }
    let text_in_backdrop = text.replacen("kind = \"shape\"", "kind = \"text\"", 1);
    let e = parse_str(&text_in_backdrop).unwrap_err().to_string();
    assert!(e.contains("camera.backdrop[0].kind"), "{e}");
}
