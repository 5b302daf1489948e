//! Chat markup: a growing text's `**bold**`, `*italic*`, `_italic_`,
//! `~~strike~~`, `` `code` `` and `@mentions` read into plain text and
//! the spans of each look ([`Markup`]), for [`text::fit_rich`].

use std::ops::Range;

use super::{Args, Markup};
use crate::text::SpanLook;

/// The marks on a piece of chat markup ([`parse_markup`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Marks {
    /// `**bold**`.
    pub bold: bool,
    /// `*italic*` or `_italic_`.
    pub italic: bool,
    /// `~~strike-through~~`.
    pub strike: bool,
    /// `` `inline code` `` (no other mark inside).
    pub code: bool,
    /// `@mention`: "@" and a name of letters, digits, `_`, `.` and `-`
    /// (not ending in `.` or `-`), after a space, punctuation or the start.
    pub mention: bool,
}

/// The characters a backslash makes literal.
const ESCAPABLE: &[char] = &['*', '_', '~', '`', '@', '\\'];

/// Reads chat markup: the plain text drawn and the marked byte ranges of
/// it, in order, each with its marks (unmarked text has no span).
///
/// A marker opens only when its closing marker follows (with text
/// between); otherwise it is literal. `_` opens and closes only at a word's
/// edge (`snake_case` stays). Marks nest and may overlap. Inside code,
/// nothing else is read. A backslash before `*`, `_`, `~`, `` ` ``, `@` or
/// `\` writes that character literally.
///
/// ```
/// use canvas_render::template::parse_markup;
/// let (text, spans) = parse_markup("hi **you** and `x`");
/// assert_eq!(text, "hi you and x");
/// assert_eq!(spans.len(), 2);
/// assert!(spans[0].1.bold && spans[1].1.code);
/// assert_eq!(&text[spans[0].0.clone()], "you");
/// ```
pub fn parse_markup(src: &str) -> (String, Vec<(Range<usize>, Marks)>) {
    let chars: Vec<(usize, char)> = src.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|c| c.1);
    let rest = |i: usize| chars.get(i).map_or("", |&(b, _)| &src[b..]);
    let mut out = String::with_capacity(src.len());
    let mut spans: Vec<(Range<usize>, Marks)> = Vec::new();
    let mut marks = Marks::default();
    let push = |out: &mut String, spans: &mut Vec<(Range<usize>, Marks)>, s: &str, m: Marks| {
        if s.is_empty() {
            return;
        }
        let start = out.len();
        out.push_str(s);
        if m == Marks::default() {
            return;
        }
        match spans.last_mut() {
            Some((r, last)) if *last == m && r.end == start => r.end = out.len(),
            _ => spans.push((start..out.len(), m)),
        }
    };
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let next = at(i + 1);
        let prev = i.checked_sub(1).and_then(at);
        // An escape.
        if c == '\\'
            && let Some(n) = next.filter(|n| ESCAPABLE.contains(n))
        {
            let mut buf = [0u8; 4];
            push(&mut out, &mut spans, n.encode_utf8(&mut buf), marks);
            i += 2;
            continue;
        }
        // Inline code: everything up to the next backtick, literally.
        if c == '`'
            && let Some(len) = rest(i + 1).find('`').filter(|&n| n > 0)
        {
            let from = chars[i].0 + 1;
            let code = &src[from..from + len];
            let m = Marks {
                code: true,
                ..Marks::default()
            };
            push(
                &mut out,
                &mut spans,
                code,
                Marks {
                    strike: marks.strike,
                    ..m
                },
            );
            i += 1 + code.chars().count() + 1;
            continue;
        }
        // Bold and strike-through: double markers.
        if (c == '*' || c == '~') && next == Some(c) {
            let pair = if c == '*' { "**" } else { "~~" };
            let on = if c == '*' { marks.bold } else { marks.strike };
            let closes_later = rest(i + 2).find(pair).is_some_and(|n| n > 0);
            if on || closes_later {
                if c == '*' {
                    marks.bold = !on;
                } else {
                    marks.strike = !on;
                }
                i += 2;
                continue;
            }
        }
        // Italic: single markers (`_` at a word's edge only).
        if c == '*' && next != Some('*') || c == '_' {
            let edge_ok =
                c == '*' || (marks.italic && !word(next)) || (!marks.italic && !word(prev));
            let closes_later = rest(i + 1).char_indices().any(|(k, d)| {
                k > 0 && d == c && (c == '*' || !word(src[chars[i].0 + 1 + k + 1..].chars().next()))
            });
            if edge_ok && (marks.italic || closes_later) {
                marks.italic = !marks.italic;
                i += 1;
                continue;
            }
        }
        // A mention.
        if c == '@' && !word(prev) {
            let name: String = rest(i + 1)
                .chars()
                .take_while(|d| d.is_alphanumeric() || matches!(d, '_' | '.' | '-'))
                .collect();
            let name = name.trim_end_matches(['.', '-']);
            if !name.is_empty() {
                let m = Marks {
                    mention: true,
                    ..marks
                };
                push(&mut out, &mut spans, "@", m);
                push(&mut out, &mut spans, name, m);
                i += 1 + name.chars().count();
                continue;
            }
        }
        let mut buf = [0u8; 4];
        push(&mut out, &mut spans, c.encode_utf8(&mut buf), marks);
        i += 1;
    }
    (out, spans)
}

/// The look of each span for these arguments: bold, slanted, struck,
/// monospaced code on its chip, a mention in its colour on its chip.
pub(super) fn looks(
    markup: &Markup,
    args: &Args,
    spans: Vec<(Range<usize>, Marks)>,
) -> Vec<(Range<usize>, SpanLook)> {
    let (mention, mention_chip, code_chip) = (
        markup.mention.rgba(args),
        markup.mention_chip.rgba(args),
        markup.code_chip.rgba(args),
    );
    spans
        .into_iter()
        .map(|(r, m)| {
            let look = SpanLook {
                bold: m.bold,
                italic: m.italic,
                mono: m.code,
                strike: m.strike,
                color: m.mention.then_some(mention),
                chip: if m.code {
                    Some(code_chip)
                } else {
                    m.mention.then_some(mention_chip)
                },
            };
            (r, look)
        })
        .collect()
}
