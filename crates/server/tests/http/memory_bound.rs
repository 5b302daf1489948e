//! The memory bound the operators' guide states (`docs/src/operating/
//! limits.md`) is the sum of its terms, the figure the load test checks
//! and the alert fires on, and its art term holds every piece of template
//! art the process keeps: a new card or meme whose art outgrows the term
//! fails here until the guide says so.

use canvas_render::template::Art;

fn repo_file(path: &str) -> String {
    let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The number at the start of `cell` when it is in MiB ("10.3 MiB",
/// "**1,419 MiB**").
fn mib(cell: &str) -> Option<f64> {
    let cell = cell.trim().trim_start_matches("**");
    let end = cell
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(cell.len());
    let (number, rest) = cell.split_at(end);
    rest.trim_start().starts_with("MiB").then_some(())?;
    number.replace(',', "").parse().ok()
}

/// The guide's stated bound and its table's terms (name, MiB, text).
fn stated() -> (f64, Vec<(String, f64, String)>) {
    let page = repo_file("docs/src/operating/limits.md");
    let section = &page[page
        .find("## The memory bound")
        .expect("the memory bound section")..];
    let bold = &section[section.find("**").expect("the bound in bold") + 2..];
    let bound = mib(&bold[..bold.find("**").expect("closing bold")]).expect("the bound in MiB");
    let table = &section[section.find("| term |").expect("the table of terms")..];
    let terms = table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').collect();
            let value = mib(cells[2]).unwrap_or_else(|| panic!("a term in MiB: {l}"));
            (cells[1].trim().to_owned(), value, cells[3].to_owned())
        })
        .collect();
    (bound, terms)
}

#[test]
fn the_stated_bound_is_the_sum_of_its_terms() {
    let (bound, terms) = stated();
    let sum: f64 = terms.iter().map(|(_, v, _)| v).sum();
    assert!(
        (sum - bound).abs() < 1.0,
        "the terms add up to {sum} MiB, the guide states {bound} MiB: {terms:?}"
    );
}

#[test]
fn the_load_test_and_the_alert_check_the_stated_bound() {
    let (bound, _) = stated();
    let bound = bound.round() as u64;
    let loadtest = repo_file("xtask/src/loadtest.rs");
    assert!(
        loadtest.contains(&format!(
            "default_value_t = {bound})]\n    pub memory_bound_mib"
        )),
        "`cargo xtask loadtest --memory-bound-mib` defaults to {bound}"
    );
    let rule = repo_file("deploy/kubernetes/components/monitoring/prometheusrule.yaml");
    assert!(
        rule.contains(&format!("0.9 * {bound} * 1024 * 1024")),
        "the memory alert fires at 90 % of {bound} MiB"
    );
}

#[test]
fn the_art_term_holds_every_piece_of_art_the_process_keeps() {
    let (_, terms) = stated();
    let (_, stated_mib, text) = terms
        .iter()
        .find(|(name, _, _)| name == "template art")
        .expect("a template art term");
    let bytes: u64 = Art::ALL
        .iter()
        .map(|a| {
            let (w, h) = a.size();
            u64::from(w) * u64::from(h) * 4
        })
        .sum();
    // Petpet's hand at its placements: under 1 MiB, said beside the term.
    let kept = bytes as f64 / 1048576.0 + 1.0;
    assert!(
        kept <= *stated_mib,
        "the art kept takes up to {kept:.1} MiB, the guide's term is {stated_mib} MiB"
    );
    assert!(
        text.contains(&format!("{} pieces", Art::ALL.len())),
        "the art term counts {} pieces: {text}",
        Art::ALL.len()
    );
}
