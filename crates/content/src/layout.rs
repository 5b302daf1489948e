//! The file names of a content pack, relative to its root.
//!
//! ```text
//! facts/<fact type>.txt          our own facts, one per line (required)
//! more-facts/<fact type>.txt     third-party facts, one per line (optional)
//! links/img/<img type>.txt       absolute http(s) URLs, one per line (required)
//! links/animal/<animal type>.txt
//! links/animu/<animu type>.txt
//! quotes/quotes.tsv              id TAB anime TAB name TAB quote (required)
//! ```
//!
//! In every file, blank lines and lines starting with `#` are skipped, and
//! facts and links are trimmed. The same layout serves the embedded pack
//! (`assets/content/`) and the generated one (`data/content/`).

use crate::kind::{FactType, LinkSlot};

/// Our own facts for `t`.
pub fn facts(t: FactType) -> String {
    format!("facts/{}.txt", t.as_str())
}

/// Third-party facts for `t` (optional file).
pub fn more_facts(t: FactType) -> String {
    format!("more-facts/{}.txt", t.as_str())
}

/// The link list of `slot`.
pub fn links(slot: LinkSlot) -> String {
    format!("links/{}/{}.txt", slot.group().as_str(), slot.type_name())
}

/// The quotes table.
pub const QUOTES: &str = "quotes/quotes.tsv";

/// Every file name a complete pack may hold, required ones and optional ones.
pub fn all_files() -> Vec<String> {
    let mut files: Vec<String> = FactType::ALL.iter().map(|&t| facts(t)).collect();
    files.extend(FactType::ALL.iter().map(|&t| more_facts(t)));
    files.extend(LinkSlot::all().map(links));
    files.push(QUOTES.to_owned());
    files
}
