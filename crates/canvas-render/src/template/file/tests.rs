use std::path::Path;

use super::*;

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
