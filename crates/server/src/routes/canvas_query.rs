//! The query string of the canvas image endpoints, read generically: every
//! `name=value` pair as sent (percent-decoded as actix's `Query` decodes
//! any query), looked up by name. A template's parameters are read by the
//! names of its [`ParamSpec`](canvas_render::template::ParamSpec)s, so a
//! parameter added to a template needs nothing here.
//!
//! A parameter an endpoint reads may be given once: a second value of a
//! name in [`read_names`] is refused as a malformed query (400), with the
//! message serde gives a duplicated field. Names no endpoint reads are
//! ignored, as before, whatever their count.

use std::sync::LazyLock;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use crate::catalogue;
use crate::error::ApiError;

/// The query parameters of the canvas images that are not a template's:
/// the avatar, the second image, the output and the filters' own.
pub const OWN_PARAMS: &[&str] = &[
    "avatar",
    "avatar2",
    "bg",
    "image",
    "format",
    "quality",
    "brightness",
    "color",
    "threshold",
];

/// Every query parameter some canvas endpoint reads: [`OWN_PARAMS`] and
/// the query parameters of every built-in template
/// ([`catalogue::template_query_params`]).
pub fn read_names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut names: Vec<&'static str> = OWN_PARAMS.to_vec();
        for (group, _, kind) in catalogue::TEMPLATES {
            for spec in catalogue::template_query_params(group, kind.template()) {
                if !names.contains(&spec.name) {
                    names.push(spec.name);
                }
            }
        }
        names
    });
    &NAMES
}

/// The query of a canvas image request: its pairs in order.
#[derive(Debug, Default)]
pub struct CanvasQuery {
    pairs: Vec<(String, String)>,
}

impl CanvasQuery {
    /// A query of these pairs (the previews' sample parameters).
    pub fn of(pairs: &[(&str, &str)]) -> CanvasQuery {
        CanvasQuery {
            pairs: pairs
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    /// The raw value of `name`, as sent (`None` when absent).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name`, trimmed; absent, empty and blank alike are a
    /// 400 naming it ([`crate::routing::required`]).
    pub fn required(&self, name: &'static str, expected: &'static str) -> Result<&str, ApiError> {
        match self.get(name).map(str::trim) {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(ApiError::MissingParam { name, expected }),
        }
    }

    /// Refuses a second value of any of `names` (the parameters of an
    /// operator's template, unknown to `read_names`) as a duplicated
    /// field is refused when the query is read.
    pub fn check_once<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> Result<(), ApiError> {
        for name in names {
            if self
                .pairs
                .iter()
                .filter(|(n, _)| n == name)
                .nth(1)
                .is_some()
            {
                return Err(ApiError::MalformedQuery(format!(
                    "Query deserialize error: duplicate field `{name}`"
                )));
            }
        }
        Ok(())
    }

    /// The value of `name` as an owned `Option`, as the scenes read it.
    pub fn owned(&self, name: &str) -> Option<String> {
        self.get(name).map(str::to_owned)
    }
}

impl<'de> Deserialize<'de> for CanvasQuery {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Pairs;

        impl<'de> Visitor<'de> for Pairs {
            type Value = CanvasQuery;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a query string")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CanvasQuery, A::Error> {
                let mut pairs: Vec<(String, String)> = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, String>()? {
                    if let Some(read) = read_names().iter().find(|n| **n == name)
                        && pairs.iter().any(|(n, _)| *n == name)
                    {
                        return Err(de::Error::duplicate_field(read));
                    }
                    pairs.push((name, value));
                }
                Ok(CanvasQuery { pairs })
            }
        }

        deserializer.deserialize_map(Pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(q: &str) -> Result<CanvasQuery, String> {
        actix_web::web::Query::<CanvasQuery>::from_query(q)
            .map(actix_web::web::Query::into_inner)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn values_are_percent_decoded_and_read_by_exact_name() {
        let q = parse("guildName=Caf%C3%A9+Club&membercount=3&x=1&x=2").unwrap();
        assert_eq!(q.get("guildName"), Some("Café Club"));
        assert_eq!(q.get("guildname"), None);
        assert_eq!(q.get("memberCount"), None);
        assert_eq!(q.get("x"), Some("1"));
        assert_eq!(parse("avatar").unwrap().get("avatar"), Some(""));
    }

    #[test]
    fn a_read_parameter_given_twice_is_refused_as_serde_refuses_a_field() {
        for name in ["avatar", "format", "dog", "delay", "guildName", "ctag"] {
            assert_eq!(
                parse(&format!("{name}=1&{name}=2")).unwrap_err(),
                format!("Query deserialize error: duplicate field `{name}`"),
            );
        }
        // The welcome cards' background comes from the path, never the query.
        assert!(parse("background=a&background=b").is_ok());
    }

    #[test]
    fn every_template_parameter_is_read() {
        for (group, _, kind) in catalogue::TEMPLATES {
            for spec in catalogue::template_query_params(group, kind.template()) {
                assert!(read_names().contains(&spec.name), "{}", spec.name);
            }
        }
    }
}
