//! The benchmark page's charts and tables, drawn from the committed
//! figures of the bench runs (`docs/bench/figures.json`).
//!
//! Each comparison of the file (a title, the peer, how and when it was
//! measured, the command that reruns it, and per scenario Menagerie's and
//! the peer's figure) becomes one SVG chart, `docs/src/benchmarks/<id>.svg`
//! (how many times as fast as the peer, on a log scale), and one section of
//! the block between the `figures` markers of `docs/src/benchmarks.md`.
//! The SVGs are drawn by plotters' SVG backend: text is left to the
//! browser's sans-serif font, so no font file is read or needed.

use std::path::Path;

use anyhow::{Context, Result, bail};
use plotters::prelude::*;
use serde_json::Value;

/// The committed figures, relative to the repository root.
pub const FIGURES: &str = "docs/bench/figures.json";
const PAGE: &str = "docs/src/benchmarks.md";
const CHARTS: &str = "docs/src/benchmarks";
const BEGIN: &str =
    "<!-- figures:begin (drawn from docs/bench/figures.json by `cargo xtask book`) -->";
const END: &str = "<!-- figures:end -->";
/// The bars' colour.
const BAR: RGBColor = RGBColor(0x62, 0x46, 0xEA);

/// One scenario's figures.
#[derive(Debug)]
struct Row {
    label: String,
    menagerie: f64,
    peer: f64,
    bytes: Option<(String, String)>,
}

/// One comparison with a peer.
#[derive(Debug)]
struct Comparison {
    id: String,
    title: String,
    peer: String,
    setup: String,
    measured: String,
    commit: String,
    command: String,
    unit: String,
    higher_is_better: bool,
    rows: Vec<Row>,
}

impl Row {
    /// How many times as fast as the peer.
    fn ratio(&self, higher_is_better: bool) -> f64 {
        if higher_is_better {
            self.menagerie / self.peer
        } else {
            self.peer / self.menagerie
        }
    }
}

fn text(v: &Value, key: &str) -> Result<String> {
    v[key]
        .as_str()
        .map(str::to_owned)
        .with_context(|| format!("{FIGURES}: `{key}` missing or not text"))
}

fn number(v: &Value, key: &str) -> Result<f64> {
    v[key]
        .as_f64()
        .filter(|x| x.is_finite() && *x > 0.0)
        .with_context(|| format!("{FIGURES}: `{key}` missing or not a positive number"))
}

fn parse(doc: &Value) -> Result<Vec<Comparison>> {
    let list = doc["comparisons"]
        .as_array()
        .with_context(|| format!("{FIGURES}: no `comparisons` list"))?;
    list.iter()
        .map(|c| {
            let rows = c["rows"]
                .as_array()
                .with_context(|| format!("{FIGURES}: a comparison without `rows`"))?
                .iter()
                .map(|r| {
                    Ok(Row {
                        label: text(r, "label")?,
                        menagerie: number(r, "menagerie")?,
                        peer: number(r, "peer")?,
                        bytes: text(r, "menagerie_bytes")
                            .ok()
                            .zip(text(r, "peer_bytes").ok()),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let id = text(c, "id")?;
            if id.is_empty() || !id.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-') {
                bail!("{FIGURES}: id `{id}`: letters, digits and `-` only");
            }
            Ok(Comparison {
                id,
                title: text(c, "title")?,
                peer: text(c, "peer")?,
                setup: text(c, "setup")?,
                measured: text(c, "measured")?,
                commit: text(c, "commit")?,
                command: text(c, "command")?,
                unit: text(c, "unit")?,
                higher_is_better: c["higher_is_better"].as_bool().unwrap_or(true),
                rows,
            })
        })
        .collect()
}

/// The figures file, read.
pub fn read_figures(root: &Path) -> Result<Value> {
    let path = root.join(FIGURES);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// One comparison's chart as SVG text.
fn chart(c: &Comparison) -> Result<String> {
    let n = c.rows.len();
    let height = 100 + 36 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let max = c
            .rows
            .iter()
            .map(|r| r.ratio(c.higher_is_better))
            .fold(1.0, f64::max);
        // The next power of ten above the largest bar and its label.
        let top = 10f64.powf((max * 2.5).log10().ceil()).max(10.0);
        let labels: Vec<&str> = c.rows.iter().map(|r| r.label.as_str()).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(&c.title, ("sans-serif", 20))
            .margin(14)
            .margin_right(36)
            .x_label_area_size(40)
            .y_label_area_size(250)
            .build_cartesian_2d((1.0..top).log_scale(), (0..n).into_segmented())
            .map_err(plot_error)?;
        // Row 0 at the top.
        let label_of = |v: &SegmentValue<usize>| match v {
            SegmentValue::CenterOf(i) if *i < n => labels[n - 1 - i].to_owned(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&label_of)
            .x_label_formatter(&|x| format!("{x}×"))
            .x_desc(format!(
                "Menagerie, times as fast as {} (log scale; {})",
                c.peer,
                if c.higher_is_better {
                    format!("{} / {}'s {}", c.unit, c.peer, c.unit)
                } else {
                    format!("{}'s time / Menagerie's", c.peer)
                }
            ))
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(plot_error)?;
        let ratios: Vec<f64> = c.rows.iter().map(|r| r.ratio(c.higher_is_better)).collect();
        // One series a bar, in row order: a histogram of several bars draws
        // them in hash order, and the same figures must give the same file.
        for (i, r) in ratios.iter().enumerate() {
            chart
                .draw_series(
                    Histogram::horizontal(&chart)
                        .style(BAR.filled())
                        .margin(7)
                        .baseline(1.0)
                        .data([(n - 1 - i, *r)]),
                )
                .map_err(plot_error)?;
        }
        let style = ("sans-serif", 14).into_font().into_text_style(&root).pos(
            plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Left,
                plotters::style::text_anchor::VPos::Center,
            ),
        );
        chart
            .draw_series(ratios.iter().enumerate().map(|(i, r)| {
                Text::new(
                    ratio_text(*r),
                    (r * 1.08, SegmentValue::CenterOf(n - 1 - i)),
                    style.clone(),
                )
            }))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

fn plot_error<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing a chart: {e:?}")
}

fn ratio_text(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}×")
    } else {
        format!("{r:.1}×")
    }
}

fn figure(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.1}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// The page's block of sections, one per comparison.
fn block(list: &[Comparison]) -> String {
    let mut out = format!("{BEGIN}\n");
    for c in list {
        let bytes = c.rows.iter().any(|r| r.bytes.is_some());
        out.push_str(&format!(
            "\n## {}\n\n![{}: Menagerie, times as fast as {}](benchmarks/{}.svg)\n\n",
            c.title, c.title, c.peer, c.id
        ));
        out.push_str(&format!(
            "| scenario | Menagerie {u} | {p} {u} | Menagerie, times as fast |{}\n|---|--:|--:|--:|{}\n",
            if bytes { " bytes Menagerie / peer |" } else { "" },
            if bytes { "--:|" } else { "" },
            u = c.unit,
            p = c.peer,
        ));
        for r in &c.rows {
            out.push_str(&format!(
                "| {} | {} | {} | **{}** |",
                r.label,
                figure(r.menagerie),
                figure(r.peer),
                ratio_text(r.ratio(c.higher_is_better))
            ));
            if let Some((m, p)) = &r.bytes {
                out.push_str(&format!(" {m} / {p} |"));
            } else if bytes {
                out.push_str(" |");
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "\n{} Measured {} on commit `{}`.\nRerun: `{}`.\n",
            c.setup, c.measured, c.commit, c.command
        ));
    }
    out.push('\n');
    out.push_str(END);
    out
}

/// The files the figures give: each chart's path and text, and the page.
fn outputs(root: &Path) -> Result<Vec<(std::path::PathBuf, String)>> {
    let list = parse(&read_figures(root)?)?;
    let mut out = Vec::new();
    for c in &list {
        out.push((root.join(CHARTS).join(format!("{}.svg", c.id)), chart(c)?));
    }
    let page_path = root.join(PAGE);
    let page = std::fs::read_to_string(&page_path)
        .with_context(|| format!("reading {}", page_path.display()))?;
    let (Some(b), Some(e)) = (page.find(BEGIN), page.find(END)) else {
        bail!("{PAGE} lacks the figures markers ({BEGIN} … {END})");
    };
    let page = format!("{}{}{}", &page[..b], block(&list), &page[e + END.len()..]);
    out.push((page_path, page));
    Ok(out)
}

/// Draws the charts and rewrites the page's figures, removing charts of
/// comparisons no longer in the file.
pub fn write(root: &Path) -> Result<()> {
    let files = outputs(root)?;
    let dir = root.join(CHARTS);
    std::fs::create_dir_all(&dir)?;
    for e in std::fs::read_dir(&dir)? {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "svg") && !files.iter().any(|(f, _)| *f == p) {
            std::fs::remove_file(&p)?;
        }
    }
    for (path, text) in files {
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    eprintln!("book: charts drawn from {FIGURES}");
    Ok(())
}

/// Fails when a committed chart or the page's figures are not what the
/// figures file gives.
pub fn check(root: &Path) -> Result<()> {
    let mut stale = Vec::new();
    for (path, text) in outputs(root)? {
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(
                path.strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string(),
            );
        }
    }
    if !stale.is_empty() {
        bail!(
            "not drawn from {FIGURES} as committed: {} (run `cargo xtask book --no-pages`)",
            stale.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures() -> Value {
        serde_json::json!({ "comparisons": [{
            "id": "still", "title": "Still images", "peer": "sharp", "setup": "Loopback.",
            "measured": "today", "commit": "abc1234", "command": "cargo xtask bench-compare HEAD",
            "unit": "req/s", "higher_is_better": true,
            "rows": [
                { "name": "a", "label": "greyscale", "menagerie": 1200.0, "peer": 50.0 },
                { "name": "b", "label": "blur", "menagerie": 600.0, "peer": 60.0,
                  "menagerie_bytes": "10", "peer_bytes": "20" }
            ]
        }, {
            "id": "ops", "title": "Operations", "peer": "Pillow", "setup": "Criterion.",
            "measured": "today", "commit": "abc1234", "command": "python3 x.py",
            "unit": "ms", "higher_is_better": false,
            "rows": [{ "name": "c", "label": "circle", "menagerie": 0.2, "peer": 50.0 }]
        }]})
    }

    #[test]
    fn each_comparison_is_a_chart_and_a_table() {
        let list = parse(&figures()).unwrap();
        let svg = chart(&list[0]).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        for t in ["Still images", "greyscale", "blur", "24.0×", "10.0×"] {
            assert!(svg.contains(t), "{t} not in the chart");
        }
        // The time comparison is inverted: 50 / 0.2.
        assert!(chart(&list[1]).unwrap().contains("250×"));
        // No font file is read: the text is left to the browser.
        assert!(svg.contains("font-family=\"sans-serif\""));
        let md = block(&list);
        assert!(
            md.contains("| greyscale | 1200.0 | 50.00 | **24.0×** | |"),
            "{md}"
        );
        assert!(
            md.contains("| blur | 600.0 | 60.00 | **10.0×** | 10 / 20 |"),
            "{md}"
        );
        assert!(
            md.contains("| circle | 0.200 | 50.00 | **250×** |\n"),
            "{md}"
        );
        assert!(
            md.contains("![Operations: Menagerie, times as fast as Pillow](benchmarks/ops.svg)")
        );
        assert!(md.contains("Rerun: `cargo xtask bench-compare HEAD`."));
    }

    #[test]
    fn a_chart_is_the_same_file_every_time() {
        let list = parse(&read_figures(&crate::repo_root()).unwrap()).unwrap();
        for c in &list {
            let first = chart(c).unwrap();
            for _ in 0..5 {
                assert_eq!(chart(c).unwrap(), first, "{}", c.id);
            }
        }
    }

    #[test]
    fn charts_are_written_then_checked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("docs/bench")).unwrap();
        std::fs::create_dir_all(root.join("docs/src")).unwrap();
        std::fs::write(root.join(FIGURES), figures().to_string()).unwrap();
        std::fs::write(
            root.join(PAGE),
            format!("# B\n\n{BEGIN}\nold\n{END}\n\nEnd.\n"),
        )
        .unwrap();
        assert!(check(root).is_err());
        write(root).unwrap();
        check(root).unwrap();
        let page = std::fs::read_to_string(root.join(PAGE)).unwrap();
        assert!(
            page.starts_with("# B\n\n") && page.ends_with("\n\nEnd.\n") && !page.contains("old")
        );
        // A changed figure makes the committed chart stale.
        let mut f = figures();
        f["comparisons"][0]["rows"][0]["peer"] = serde_json::json!(40.0);
        std::fs::write(root.join(FIGURES), f.to_string()).unwrap();
        let err = check(root).unwrap_err().to_string();
        assert!(
            err.contains("still.svg") && err.contains("benchmarks.md"),
            "{err}"
        );
    }

    #[test]
    fn the_committed_figures_parse() {
        let list = parse(&read_figures(&crate::repo_root()).unwrap()).unwrap();
        assert!(list.iter().any(|c| c.peer == "sharp") && list.iter().any(|c| c.peer == "Pillow"));
    }
}
