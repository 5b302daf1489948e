//! `[[param]]` tables: typed parameters with their bounds and defaults.

use std::ops::Range;

use toml::Spanned;

use super::super::format::ParamFile;
use super::super::{Checker, MAX_PARAMS, MAX_TEXT_CHARS, leak_str};
use super::{MAX_LIST, Params, R, leak, parse_colour};
use crate::template::{ParamKind, ParamSpec};

pub(super) fn params(c: &Checker, list: &[Spanned<ParamFile>]) -> R<Params> {
    if list.len() > MAX_PARAMS {
        return Err(c.err(
            list[MAX_PARAMS].span(),
            "param",
            format!("at most {MAX_PARAMS} parameters"),
        ));
    }
    let mut out = Params(Vec::new());
    for (i, p) in list.iter().enumerate() {
        let at = format!("param[{i}]");
        let spec = param(c, &at, p.get_ref())?;
        if out.get(spec.name).is_some() {
            return Err(c.err(
                p.get_ref().name.span(),
                &format!("{at}.name"),
                format!("a second parameter named `{}`", spec.name),
            ));
        }
        out.0.push(Box::leak(Box::new(spec)));
    }
    Ok(out)
}

/// Parameter names are query parameter names: a letter, then letters,
/// digits or `_`, at most 32.
pub(super) fn param_name_ok(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 32
}

fn param(c: &Checker, at: &str, p: &ParamFile) -> R<ParamSpec> {
    let name = p.name.get_ref();
    if !param_name_ok(name) {
        return Err(c.err(
            p.name.span(),
            &format!("{at}.name"),
            format!("`{name}`: a letter, then letters, digits or `_`, at most 32"),
        ));
    }
    if p.doc.get_ref().trim().is_empty() {
        return Err(c.err(
            p.doc.span(),
            &format!("{at}.doc"),
            "describe the parameter in one line",
        ));
    }
    let field = |f: &str| format!("{at}.{f}");
    // Fields that this type does not take.
    let refuse = |present: bool, span: Option<Range<usize>>, f: &str, kind: &str| -> R<()> {
        if present {
            Err(c.err(
                span.unwrap_or(p.kind.span()),
                &field(f),
                format!("a parameter of type `{kind}` has no `{f}`"),
            ))
        } else {
            Ok(())
        }
    };
    fn span_of<T>(s: &Option<Spanned<T>>) -> Option<std::ops::Range<usize>> {
        s.as_ref().map(Spanned::span)
    }
    let kind_name = p.kind.get_ref().as_str();
    let default = p.default.as_ref();
    let bad_default = |want: &str| {
        c.err(
            default.map_or(p.kind.span(), |d| d.span()),
            &field("default"),
            format!("the default must be {want}"),
        )
    };
    let kind = match kind_name {
        "text" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "text")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "text")?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "text",
            )?;
            let Some(max_chars) = &p.max_chars else {
                return Err(c.err(
                    p.kind.span(),
                    &field("max_chars"),
                    "a text parameter needs `max_chars`, its cap in characters",
                ));
            };
            let max = *max_chars.get_ref() as usize;
            if !(1..=MAX_TEXT_CHARS).contains(&max) {
                return Err(c.err(
                    max_chars.span(),
                    &field("max_chars"),
                    format!("must be 1 to {MAX_TEXT_CHARS}"),
                ));
            }
            let default = match default.map(|d| d.get_ref()) {
                None => "",
                Some(toml::Value::String(s)) if s.chars().count() <= max => leak_str(s),
                Some(_) => return Err(bad_default(&format!("text of at most {max} characters"))),
            };
            ParamKind::Text {
                max_chars: max,
                default,
            }
        }
        "bool" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "bool")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "bool")?;
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "bool",
            )?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "bool",
            )?;
            let default = match default.map(|d| d.get_ref()) {
                None => false,
                Some(toml::Value::Boolean(b)) => *b,
                Some(_) => return Err(bad_default("true or false")),
            };
            ParamKind::Bool { default }
        }
        "int" => {
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "int",
            )?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "int",
            )?;
            let (Some(min), Some(max)) = (&p.min, &p.max) else {
                return Err(c.err(
                    p.kind.span(),
                    &field(if p.min.is_none() { "min" } else { "max" }),
                    "an int parameter needs both `min` and `max`",
                ));
            };
            let (min, max_v) = (*min.get_ref(), *max.get_ref());
            if min > max_v {
                return Err(c.err(
                    max.span(),
                    &field("max"),
                    format!("{max_v} is below min {min}"),
                ));
            }
            let default = match default.map(|d| d.get_ref()) {
                None => min,
                Some(toml::Value::Integer(n)) => match u64::try_from(*n) {
                    Ok(n) if (min..=max_v).contains(&n) => n,
                    _ => {
                        return Err(bad_default(&format!(
                            "a whole number from {min} to {max_v}"
                        )));
                    }
                },
                Some(_) => {
                    return Err(bad_default(&format!(
                        "a whole number from {min} to {max_v}"
                    )));
                }
            };
            ParamKind::Int {
                min,
                max: max_v,
                default,
            }
        }
        "colour" | "color" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "colour")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "colour")?;
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "colour",
            )?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "colour",
            )?;
            let default = match default.map(|d| d.get_ref()) {
                None => 0xffffff,
                Some(toml::Value::String(s)) => match parse_colour(s) {
                    Some([r, g, b, 255]) if s.len() == 7 => {
                        u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)
                    }
                    _ => return Err(bad_default("a colour \"#rrggbb\"")),
                },
                Some(_) => return Err(bad_default("a colour \"#rrggbb\"")),
            };
            ParamKind::Colour { default }
        }
        "time" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "time")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "time")?;
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "time",
            )?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "time",
            )?;
            refuse(
                default.is_some(),
                default.map(|d| d.span()),
                "default",
                "time",
            )?;
            ParamKind::Time
        }
        "choice" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "choice")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "choice")?;
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "choice",
            )?;
            let Some(options) = &p.options else {
                return Err(c.err(
                    p.kind.span(),
                    &field("options"),
                    "a choice parameter needs `options`, its accepted names",
                ));
            };
            let list = options.get_ref();
            let ok = |o: &String| {
                !o.is_empty()
                    && o.len() <= 32
                    && o.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'
                    })
            };
            if list.is_empty() || list.len() > MAX_LIST || !list.iter().all(ok) {
                return Err(c.err(
                    options.span(),
                    &field("options"),
                    format!("1 to {MAX_LIST} names of lower-case letters, digits, `-` or `_`"),
                ));
            }
            if let Some(dup) = list
                .iter()
                .enumerate()
                .find(|(i, o)| list[..*i].contains(o))
            {
                return Err(c.err(
                    options.span(),
                    &field("options"),
                    format!("`{}` twice", dup.1),
                ));
            }
            let default = match default.map(|d| d.get_ref()) {
                None => 0,
                Some(toml::Value::String(s)) => match list.iter().position(|o| o == s) {
                    Some(i) => i,
                    None => return Err(bad_default("one of the options")),
                },
                Some(_) => return Err(bad_default("one of the options")),
            };
            ParamKind::Choice {
                options: leak(list.iter().map(|o| leak_str(o)).collect()),
                default,
            }
        }
        other => {
            return Err(c.err(
                p.kind.span(),
                &field("type"),
                format!("`{other}` is not a type: text, bool, int, colour, time or choice"),
            ));
        }
    };
    let expected = match &p.expected {
        Some(e) => leak_str(e.get_ref()),
        None => leak_str(&expected_for(&kind)),
    };
    Ok(ParamSpec {
        name: leak_str(name),
        kind,
        doc: leak_str(p.doc.get_ref()),
        expected,
    })
}

/// The message of a bad value when a file gives no `expected`.
pub(in super::super) fn expected_for(kind: &ParamKind) -> String {
    match kind {
        ParamKind::Text { max_chars, .. } => format!("text of at most {max_chars} characters"),
        ParamKind::Bool { .. } => "true or false".to_owned(),
        ParamKind::Int { min, max, .. } => format!("a whole number from {min} to {max}"),
        ParamKind::Colour { .. } => "a colour, six hexadecimal digits RRGGBB".to_owned(),
        ParamKind::Choice { options, .. } => format!("one of {}", options.join(", ")),
        ParamKind::Time => {
            "an ISO 8601 timestamp such as 2026-11-29T08:15:00Z (an offset such as +05:30 instead of Z)"
                .to_owned()
        }
    }
}
