//! Forgiving lookup keys and text clean-up.
//!
//! The rules are documented on [`lookup_key`].

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Reduces a name or query to its lookup key. The key of a slug is the
/// slug itself.
///
/// # Rules
///
/// A query and every name of a record (slug, English display name, form
/// names) are reduced to the same key, so all of these meet:
///
/// 1. Unicode compatibility decomposition (NFKD), then combining marks are
///    dropped: accents fold (`Flabébé` → `flabebe`, `POKéMON` → `pokemon`).
/// 2. Letters are lower-cased.
/// 3. Apostrophes (`'`, `’`, `ʼ`) vanish: `Farfetch’d` → `farfetchd`.
/// 4. `♀` and `♂` become `-f` and `-m` (`Nidoran♀` → `nidoran-f`, the slug).
/// 5. Every other character that is not a letter or digit (spaces,
///    underscores, hyphens, dots, colons, commas...) is a separator; runs of
///    separators become one `-`, and leading or trailing ones are dropped:
///    `Mr. Mime`, `mr_mime` and ` MR--MIME ` all become `mr-mime`.
///
/// Plain ASCII input (the common case) skips the Unicode decomposition.
///
/// ```
/// use reference_db::lookup_key;
/// assert_eq!(lookup_key("Karate Chop"), "karate-chop");
/// assert_eq!(lookup_key("Flabébé"), "flabebe");
/// assert_eq!(lookup_key("Mr. Mime"), "mr-mime");
/// assert_eq!(lookup_key("NIDORAN♀"), "nidoran-f");
/// ```
pub fn lookup_key(input: &str) -> String {
    let mut key = String::with_capacity(input.len());
    let mut pending_separator = false;
    let push = |key: &mut String, ch: char, pending: &mut bool| {
        if ch.is_alphanumeric() {
            if *pending && !key.is_empty() {
                key.push('-');
            }
            *pending = false;
            if ch.is_ascii() {
                key.push(ch.to_ascii_lowercase());
            } else {
                key.extend(ch.to_lowercase());
            }
        } else if matches!(ch, '\'' | '’' | 'ʼ' | '`' | '´') {
            // apostrophes vanish without separating
        } else if ch == '♀' || ch == '♂' {
            if !key.is_empty() {
                key.push('-');
            }
            key.push(if ch == '♀' { 'f' } else { 'm' });
            *pending = false;
        } else {
            *pending = true;
        }
    };
    if input.is_ascii() {
        for ch in input.chars() {
            push(&mut key, ch, &mut pending_separator);
        }
    } else {
        for ch in input.nfkd().filter(|c| !is_combining_mark(*c)) {
            push(&mut key, ch, &mut pending_separator);
        }
    }
    key
}

/// Cleans game text (flavor text, effect prose) for display.
///
/// The games' text carries layout: line breaks, form feeds and soft hyphens.
/// A soft hyphen (U+00AD) followed by a line break joins the word
/// (`fore\u{ad}\nlegs` → `forelegs`); a plain hyphen at a line end keeps the
/// hyphen and joins (`self-\ndestruct` → `self-destruct`); any other soft
/// hyphen is dropped; every other run of whitespace (line breaks, form
/// feeds, tabs, double spaces) becomes one space; the ends are trimmed.
#[cfg(any(feature = "builder", test))]
pub(crate) fn clean_game_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut pending_space = false;
    while let Some(ch) = chars.next() {
        match ch {
            '\u{ad}' | '-' => {
                let mut joined_break = false;
                while let Some(&next) = chars.peek() {
                    if matches!(next, '\n' | '\r' | '\u{c}') {
                        joined_break = true;
                        chars.next();
                    } else {
                        break;
                    }
                }
                if ch == '-' {
                    if pending_space && !out.is_empty() {
                        out.push(' ');
                    }
                    pending_space = false;
                    out.push('-');
                } else if joined_break {
                    // the soft hyphen and its break vanish: the word joins
                }
                if joined_break {
                    // skip indentation after the joined break
                    while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                        chars.next();
                    }
                }
            }
            c if c.is_whitespace() => pending_space = true,
            c => {
                if pending_space && !out.is_empty() {
                    out.push(' ');
                }
                pending_space = false;
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_fold_case_separators_and_accents() {
        assert_eq!(lookup_key("pikachu"), "pikachu");
        assert_eq!(lookup_key("Pikachu"), "pikachu");
        assert_eq!(lookup_key("karate_chop"), "karate-chop");
        assert_eq!(lookup_key("  Karate   Chop "), "karate-chop");
        assert_eq!(lookup_key("KARATE-CHOP"), "karate-chop");
        assert_eq!(lookup_key("Flabébé"), "flabebe");
        assert_eq!(lookup_key("FLABÉBÉ"), "flabebe");
        assert_eq!(lookup_key("Farfetch’d"), "farfetchd");
        assert_eq!(lookup_key("Type: Null"), "type-null");
        assert_eq!(lookup_key("Nidoran♂"), "nidoran-m");
        assert_eq!(
            lookup_key("10,000,000 Volt Thunderbolt"),
            "10-000-000-volt-thunderbolt"
        );
        assert_eq!(lookup_key("--"), "");
        assert_eq!(lookup_key(""), "");
        assert_eq!(lookup_key("ｐｉｋａｃｈｕ"), "pikachu");
    }

    proptest::proptest! {
        /// Keys never panic, hold no separator at the ends or twice in a
        /// row, and are fixed points: a key is its own key.
        #[test]
        fn keys_are_canonical(input in "\\PC{0,24}|[A-Za-z _.'-]{0,24}") {
            let key = lookup_key(&input);
            proptest::prop_assert!(!key.starts_with('-') && !key.ends_with('-') && !key.contains("--"), "{key:?}");
            proptest::prop_assert_eq!(lookup_key(&key), key.clone());
        }
    }

    #[test]
    fn game_text_breaks_are_normalised() {
        assert_eq!(
            clean_game_text("Pounds with fore\u{ad}\nlegs or tail."),
            "Pounds with forelegs or tail."
        );
        assert_eq!(
            clean_game_text("A strange seed was\nplanted on its\u{c}back at birth."),
            "A strange seed was planted on its back at birth."
        );
        assert_eq!(clean_game_text("self-\ndestruct"), "self-destruct");
        assert_eq!(
            clean_game_text("Inflicts damage.  User’s rate"),
            "Inflicts damage. User’s rate"
        );
        assert_eq!(clean_game_text("soft\u{ad}hyphen"), "softhyphen");
        assert_eq!(clean_game_text("  edges \n"), "edges");
        assert_eq!(clean_game_text("a - b"), "a - b");
    }
}
