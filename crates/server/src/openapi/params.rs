//! An operation's parameters as the document lists them: the catalogue's
//! own ([`Endpoint::params`]: path parameters, `avatar`, `bg`, the filters'
//! and the misc scenes' parameters), then every parameter of the templates
//! the operation draws, read from their [`ParamSpec`]s, then `format` and
//! `quality` on a canvas image. A template's parameter is written in one
//! place, its spec: name, bounds, default and documentation come from it,
//! the example from the template's sample arguments.

use std::borrow::Cow;

use canvas_render::template::{
    Args, Layer, Paint, ParamKind, ParamSpec, Piece, RowItem, Template, Value, When,
};

use super::catalogue::{Endpoint, FORMAT, In, Kind, Param, QUALITY, Success};
use crate::catalogue;

/// One documented parameter.
#[derive(Debug, Clone)]
pub struct ParamDoc {
    /// Exact name.
    pub name: &'static str,
    /// Query or path.
    pub location: In,
    /// Whether a request without it is refused (400).
    pub required: bool,
    /// Accepted values.
    pub kind: Kind,
    /// One line for the document and the playground.
    pub description: Cow<'static, str>,
    /// A value that works (the playground pre-fills it).
    pub example: Cow<'static, str>,
    /// The value used when absent, if any.
    pub default: Option<Cow<'static, str>>,
}

impl From<&Param> for ParamDoc {
    fn from(p: &Param) -> ParamDoc {
        ParamDoc {
            name: p.name,
            location: p.location,
            required: p.required,
            kind: p.kind,
            description: Cow::Borrowed(p.description),
            example: Cow::Borrowed(p.example),
            default: p.default.map(Cow::Borrowed),
        }
    }
}

/// A template an operation draws: its URL name, the template and the
/// arguments its preview is drawn with (the parameters' examples).
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The URL name (`petpet`, a card's number).
    pub name: &'static str,
    /// The template.
    pub template: &'static Template,
    /// Its sample arguments (`None`: no examples).
    pub sample: Option<Args>,
}

/// Every parameter of the operation `e`, in the document's order.
pub fn parameters(e: &Endpoint) -> Vec<ParamDoc> {
    let templates = catalogue::templates_of_operation(e.path);
    let group = templates.first().map_or("", |(g, _, _)| *g);
    let drawn: Vec<Drawn> = templates
        .iter()
        .map(|(_, name, kind)| Drawn {
            name,
            template: kind.template(),
            sample: Some(kind.sample_args()),
        })
        .collect();
    with_templates(e, group, &drawn)
}

/// [`parameters`] of an operation drawing `drawn`, read from `group`.
pub fn with_templates(e: &Endpoint, group: &str, drawn: &[Drawn]) -> Vec<ParamDoc> {
    let canvas = matches!(e.ok, Success::CanvasImage);
    e.params
        .iter()
        .map(ParamDoc::from)
        .chain(template_params(group, drawn))
        .chain(canvas.then(|| ParamDoc::from(&FORMAT)))
        .chain(canvas.then(|| ParamDoc::from(&QUALITY)))
        .collect()
}

/// The query parameters of `drawn` (templates of one group sharing their
/// parameters' names and kinds, as the cards do), in the first one's
/// order. A default that differs between them is listed per template in
/// the description ("default per design 1–9: …") instead of as the
/// schema's default.
pub fn template_params(group: &str, drawn: &[Drawn]) -> Vec<ParamDoc> {
    let Some(first) = drawn.first() else {
        return Vec::new();
    };
    catalogue::template_query_params(group, first.template)
        .map(|spec| {
            let specs: Vec<&ParamSpec> = drawn
                .iter()
                .filter_map(|d| d.template.params.iter().find(|s| s.name == spec.name))
                .collect();
            let defaults: Vec<Option<String>> = specs.iter().map(|s| default_of(s.kind)).collect();
            let same = defaults.windows(2).all(|w| w[0] == w[1]);
            let mut description = Cow::Borrowed(spec.doc);
            if !same && let (Some(a), Some(b)) = (drawn.first(), drawn.last()) {
                let listed: Vec<&str> = defaults
                    .iter()
                    .map(|d| d.as_deref().unwrap_or("none"))
                    .collect();
                description = Cow::Owned(format!(
                    "{}; default per design {}–{}: {}",
                    spec.doc,
                    a.name,
                    b.name,
                    listed.join(", ")
                ));
            }
            let default = match &defaults[..] {
                [Some(d), ..] if same && !absent_differs(first.template, spec) => {
                    Some(Cow::Owned(d.clone()))
                }
                _ => None,
            };
            ParamDoc {
                name: spec.name,
                location: In::Query,
                required: catalogue::is_required(first.template, spec.name),
                kind: kind_of(spec.kind),
                description,
                example: Cow::Owned(
                    first
                        .sample
                        .as_ref()
                        .and_then(|a| a.get(spec.name))
                        .map(|v| value_text(spec.kind, v))
                        .unwrap_or_default(),
                ),
                default,
            }
        })
        .collect()
}

/// The values of a flag.
const BOOL_VALUES: &[&str] = &["true", "false"];

/// The document's kind of a spec's kind.
fn kind_of(kind: ParamKind) -> Kind {
    match kind {
        ParamKind::Text { max_chars, .. } => {
            Kind::Text(u32::try_from(max_chars).unwrap_or(u32::MAX))
        }
        ParamKind::Bool { .. } => Kind::Enum(BOOL_VALUES),
        ParamKind::Int { min, max, .. } => Kind::Integer(min as f64, max as f64),
        ParamKind::Colour { .. } => Kind::Hex,
        ParamKind::Choice { options, .. } => Kind::Enum(options),
        ParamKind::Time => Kind::Text(
            u32::try_from(canvas_render::template::MAX_TIMESTAMP_CHARS).unwrap_or(u32::MAX),
        ),
    }
}

/// A spec's default as a client would send it (`None`: an empty text).
fn default_of(kind: ParamKind) -> Option<String> {
    match kind {
        ParamKind::Text { default, .. } => (!default.is_empty()).then(|| default.to_owned()),
        ParamKind::Bool { default } => Some(default.to_string()),
        ParamKind::Int { default, .. } => Some(default.to_string()),
        ParamKind::Colour { default } => Some(format!("{default:06X}")),
        ParamKind::Choice { options, default } => options.get(default).map(|o| (*o).to_owned()),
        ParamKind::Time => None,
    }
}

/// A parsed value as a client would send it.
fn value_text(kind: ParamKind, value: &Value) -> String {
    match (value, kind) {
        (Value::Text(t), _) => t.clone(),
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(n), _) => n.to_string(),
        (Value::Colour([r, g, b]), _) => format!("{r:02X}{g:02X}{b:02X}"),
        (Value::Choice(i), ParamKind::Choice { options, .. }) => {
            options.get(*i).copied().unwrap_or_default().to_owned()
        }
        (Value::Choice(_), _) => String::new(),
    }
}

/// Whether the template draws anything differently when `spec` is absent
/// than when it is given its default: a piece of text shown only when it
/// was given ([`Piece::IfGiven`]), a bar's colours read by whether they
/// were given, or a layer or text shown only when it is set
/// ([`When`], [`Piece::IfSet`]: given and not 0) while its default is
/// not 0. Then the document gives no default: none would act as absence.
fn absent_differs(template: &Template, spec: &ParamSpec) -> bool {
    let name = spec.name;
    // A parameter the server draws from the pair of pictures when absent
    // (`ship`'s `percent`) has no fixed default.
    if catalogue::TEMPLATES.iter().any(|(_, _, k)| {
        std::ptr::eq(k.template(), template) && catalogue::pair_seeded(*k) == Some(name)
    }) {
        return true;
    }
    // `is_set` reads a 0 as absent: a default of 0 acts as absence.
    let set_differs = !matches!(spec.kind, ParamKind::Int { default: 0, .. });
    let pieces = |list: &[Piece]| -> bool {
        fn any(list: &[Piece], f: &dyn Fn(&Piece) -> bool) -> bool {
            list.iter().any(|p| {
                f(p) || match p {
                    Piece::IfSet { pieces, .. } | Piece::IfGiven { pieces, .. } => any(pieces, f),
                    _ => false,
                }
            })
        }
        any(list, &|p| match p {
            Piece::IfGiven { param, .. } => *param == name,
            Piece::IfSet { param, .. } => *param == name && set_differs,
            _ => false,
        })
    };
    fn layer(l: &Layer, name: &str, set_differs: bool, pieces: &dyn Fn(&[Piece]) -> bool) -> bool {
        match l {
            Layer::When { when, layer: inner } => {
                matches!(when, When::Set(p) | When::Unset(p) if *p == name && set_differs)
                    || layer(inner, name, set_differs, pieces)
            }
            Layer::Text(s) | Layer::PaintedText { slot: s, .. } | Layer::PaletteText(s, _) => {
                pieces(s.pieces)
            }
            Layer::Bar(bar) => [bar.track, bar.fill]
                .iter()
                .any(|p| matches!(p, Paint::Param { param, .. } if *param == name)),
            Layer::Row(row) => items(row.items, name, set_differs),
            _ => false,
        }
    }
    /// Whether a row item is drawn by whether `name` was given or set (a
    /// name in its colour when given, the theme's when not).
    fn items(list: &[RowItem], name: &str, set_differs: bool) -> bool {
        list.iter().any(|i| match i {
            RowItem::When(when, inner) => {
                matches!(when, When::Given(p) if *p == name)
                    || matches!(when, When::Set(p) | When::Unset(p) if *p == name && set_differs)
                    || items(inner, name, set_differs)
            }
            _ => false,
        })
    }
    template
        .layers
        .iter()
        .any(|l| layer(l, name, set_differs, &pieces))
}

#[cfg(test)]
mod tests {
    use canvas_render::template::TemplateKind;

    use super::*;
    use crate::openapi::catalogue::ENDPOINTS;

    fn endpoint(path: &str) -> &'static Endpoint {
        ENDPOINTS.iter().find(|e| e.path == path).expect(path)
    }

    fn names(e: &Endpoint) -> Vec<&'static str> {
        parameters(e).iter().map(|p| p.name).collect()
    }

    #[test]
    fn a_templates_parameters_come_from_its_specs_in_order() {
        assert_eq!(
            names(endpoint("/premium/amongus")),
            [
                "avatar", "username", "impostor", "custom", "format", "quality"
            ]
        );
        assert_eq!(
            names(endpoint("/welcome/img/{template}/{background}")),
            [
                "template",
                "background",
                "avatar",
                "type",
                "textcolor",
                "username",
                "guildName",
                "memberCount",
                "format",
                "quality"
            ]
        );
        // The custom-background cards draw the default background.
        assert!(!names(endpoint("/premium/welcome/{template}")).contains(&"background"));
        assert_eq!(
            names(endpoint("/canvas/overlay/jail")),
            ["avatar", "format", "quality"]
        );
    }

    #[test]
    fn kinds_defaults_and_examples_follow_the_spec() {
        let amongus = parameters(endpoint("/premium/amongus"));
        let get = |name: &str| amongus.iter().find(|p| p.name == name).unwrap().clone();
        assert!(matches!(get("impostor").kind, Kind::Enum(BOOL_VALUES)));
        assert_eq!(get("impostor").default.as_deref(), Some("false"));
        assert_eq!(get("username").default.as_deref(), Some("Someone"));
        assert_eq!(get("username").example, "Ada");
        assert_eq!(get("custom").default, None);
        let welcome = parameters(endpoint("/welcome/img/{template}/{background}"));
        let count = welcome.iter().find(|p| p.name == "memberCount").unwrap();
        // Absent draws no member line: not the same as any count.
        assert_eq!(count.default, None);
        assert!(matches!(count.kind, Kind::Integer(1.0, _)));
        assert_eq!(count.example, "1843");
        let rank = parameters(endpoint("/premium/rankcard/{template}"));
        // Absent or 0 alike hide the rank: its default is 0.
        let r = rank.iter().find(|p| p.name == "rank").unwrap();
        assert_eq!(r.default.as_deref(), Some("0"));
        let cxp = rank.iter().find(|p| p.name == "cxp").unwrap();
        assert_eq!(cxp.default.as_deref(), Some("0"));
        let petpet = parameters(endpoint("/premium/petpet"));
        let delay = petpet.iter().find(|p| p.name == "delay").unwrap();
        assert!(matches!(delay.kind, Kind::Integer(20.0, 1000.0)));
        assert_eq!(delay.default.as_deref(), Some("40"));
    }

    #[test]
    fn a_default_that_differs_by_design_is_listed_per_design() {
        let rank = parameters(endpoint("/premium/rankcard/{template}"));
        let cbg = rank.iter().find(|p| p.name == "cbg").unwrap();
        assert_eq!(cbg.default, None);
        let defaults: Vec<String> = catalogue::template_names(catalogue::RANKCARD_GROUP)
            .map(|n| {
                let kind = catalogue::template(catalogue::RANKCARD_GROUP, n).unwrap();
                default_of(
                    kind.template()
                        .params
                        .iter()
                        .find(|s| s.name == "cbg")
                        .unwrap()
                        .kind,
                )
                .unwrap()
            })
            .collect();
        assert!(
            cbg.description.ends_with(&format!(
                "; default per design 1–9: {}",
                defaults.join(", ")
            )),
            "{}",
            cbg.description
        );
    }

    #[test]
    fn no_catalogue_entry_repeats_a_template_parameter_by_hand() {
        for e in ENDPOINTS {
            for (group, _, kind) in catalogue::templates_of_operation(e.path) {
                for spec in catalogue::template_query_params(group, kind.template()) {
                    assert!(
                        !e.params.iter().any(|p| p.name == spec.name),
                        "{}: {} is the template's own",
                        e.path,
                        spec.name
                    );
                }
            }
        }
        // Every template is drawn by some documented operation.
        for (group, name, kind) in catalogue::TEMPLATES {
            assert!(
                ENDPOINTS
                    .iter()
                    .any(|e| catalogue::templates_of_operation(e.path)
                        .iter()
                        .any(|(_, _, k)| *k == kind)),
                "{group}/{name}"
            );
        }
        assert!(TemplateKind::ALL.len() == catalogue::TEMPLATES.len());
    }
}
