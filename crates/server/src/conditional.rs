//! Entity tags and `If-None-Match`: the one implementation of conditional
//! requests, for JSON and images alike.
//!
//! * [`body_tag`]: the tag of a response body (weak for bodies that
//!   compression may change, strong for images), which the middleware gives
//!   cacheable responses that carry none and the creature engine computes
//!   once per record;
//! * [`strong_tag_of`]: a strong tag from a value standing for the content
//!   (the canvas images hash their job, avatar digest and server version, so
//!   a 304 needs no rendering);
//! * [`none_match`]: whether an `If-None-Match` field matches a tag, by
//!   RFC 9110 §13.1.2: `*` alone matches any current representation;
//!   otherwise the field is a comma-separated list of entity tags compared
//!   weakly (a `W/` prefix on either side is ignored). A `*` inside a list is
//!   not an entity tag and matches nothing, and the list is read up to its
//!   first malformed member.
//!
//! Pure functions over strings: no HTTP types, so the engine may use them.

use std::hash::{DefaultHasher, Hash, Hasher};

/// The entity tag of a body: `"<hash>-<length>"`, prefixed `W/` when
/// `weak`. The hash is SipHash with fixed keys ([`DefaultHasher::new`]),
/// so a body always gets the same tag within a build.
pub fn body_tag(body: &[u8], weak: bool) -> String {
    let mut hasher = DefaultHasher::new();
    hasher.write(body);
    format!(
        "{}\"{:016x}-{:x}\"",
        if weak { "W/" } else { "" },
        hasher.finish(),
        body.len()
    )
}

/// A strong entity tag from `content`'s hash: `"<hash>"`.
pub fn strong_tag_of(content: &impl Hash) -> String {
    let mut hasher = DefaultHasher::new();
    content.hash(&mut hasher);
    format!("\"{:016x}\"", hasher.finish())
}

/// Whether the `If-None-Match` field value `if_none_match` matches `etag`
/// (weak comparison; see the module docs).
pub fn none_match(if_none_match: &str, etag: &str) -> bool {
    let field = if_none_match.trim();
    if field == "*" {
        return true;
    }
    let Some(etag) = opaque(etag.trim()) else {
        return false;
    };
    let mut rest = field;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            return false;
        }
        let Some((tag, after)) = next_tag(rest) else {
            return false;
        };
        if tag == etag {
            return true;
        }
        rest = after;
    }
}

/// The opaque part of a whole entity tag (`W/"x"` and `"x"` give `"x"`).
fn opaque(tag: &str) -> Option<&str> {
    match next_tag(tag) {
        Some((opaque, "")) => Some(opaque),
        _ => None,
    }
}

/// The first entity tag of `s` (its opaque part, quotes included) and what
/// follows it; `None` when `s` does not start with one.
fn next_tag(s: &str) -> Option<(&str, &str)> {
    let s = s.strip_prefix("W/").unwrap_or(s);
    let inner = s.strip_prefix('"')?;
    let end = inner.find('"')? + 2;
    Some(s.split_at(end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_comparison_ignores_w_on_either_side() {
        for tag in ["\"abc\"", "W/\"abc\""] {
            for inm in ["\"abc\"", "W/\"abc\"", " \"abc\" "] {
                assert!(none_match(inm, tag), "{inm} vs {tag}");
            }
            assert!(!none_match("\"abd\"", tag));
            assert!(!none_match("\"ab\"", tag));
            assert!(!none_match("abc", tag), "an unquoted tag is not a tag");
        }
    }

    #[test]
    fn lists_match_any_member() {
        let tag = "\"00ff\"";
        assert!(none_match("\"aa\", W/\"00ff\"", tag));
        assert!(none_match("\"aa\",\"bb\",\t\"00ff\"", tag));
        assert!(
            none_match(",, \"00ff\" ,", tag),
            "empty members are skipped"
        );
        assert!(!none_match("\"aa\", \"bb\"", tag));
        // A comma is a valid tag character: the list is split on quotes.
        assert!(none_match("\"a,b\", \"00ff\"", tag));
        assert!(none_match("\"a,b\"", "\"a,b\""));
        assert!(!none_match("\"a\"", "\"a,b\""));
    }

    #[test]
    fn star_matches_only_alone() {
        assert!(none_match("*", "\"x\""));
        assert!(none_match(" * ", "W/\"x\""));
        assert!(!none_match("\"y\", *", "\"x\""), "* in a list is not a tag");
        assert!(!none_match("*, \"y\"", "\"x\""));
    }

    #[test]
    fn malformed_fields_and_tags_match_nothing() {
        assert!(!none_match("", "\"x\""));
        assert!(!none_match("\"x", "\"x\""));
        assert!(
            !none_match("garbage \"x\"", "\"x\""),
            "read up to the first bad member"
        );
        assert!(!none_match("\"x\"", "x"), "a bad own tag never matches");
        assert!(!none_match("\"x\"", "\"x\" junk"));
    }

    #[test]
    fn tags_are_stable_and_distinguish_content() {
        let a = body_tag(b"{\"a\":1}", true);
        assert_eq!(a, body_tag(b"{\"a\":1}", true));
        assert!(a.starts_with("W/\"") && a.ends_with("-7\""), "{a}");
        assert_ne!(a, body_tag(b"{\"a\":2}", true));
        let strong = body_tag(b"png", false);
        assert!(strong.starts_with('"'), "{strong}");
        assert!(none_match(&a, &a) && none_match(&strong, &strong));

        let s = strong_tag_of(&("1.0", "Filter(Sepia)", Some(1u64)));
        assert_eq!(s, strong_tag_of(&("1.0", "Filter(Sepia)", Some(1u64))));
        assert_ne!(s, strong_tag_of(&("1.0", "Filter(Sepia)", Some(2u64))));
        assert!(s.starts_with('"') && s.ends_with('"') && s.len() == 18);
    }
}
