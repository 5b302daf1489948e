//! The one catalogue of what the service serves by name: the URL names of
//! filters, misc images, templates (overlays and the animated `/premium`
//! images) and content types, all read from the domain enums, and the
//! canvas image groups.
//!
//! The routes parse names through it, the rate limiter classes paths with
//! it ([`is_canvas_image`]), and tests hold the OpenAPI catalogue and the
//! README's lists to it. A scene's URL name belongs to the server: the table
//! [`SCENES`] maps it to canvas-render's [`SceneKind`], [`TEMPLATES`] each
//! [`TemplateKind`] to its group and name, and tests fail when a kind has
//! no name.

use canvas_render::scene::SceneKind;
use canvas_render::template::TemplateKind;
use canvas_render::{Filter, PrideFlag};

/// Prefix of the filter images (`/canvas/filter/{name}`).
pub const FILTER_GROUP: &str = "/canvas/filter";
/// Prefix of the other images (`/canvas/misc/{name}`).
pub const MISC_GROUP: &str = "/canvas/misc";
/// The colour square, an image outside the groups.
pub const COLORVIEWER: &str = "/canvas/colorviewer";
/// Prefix of the overlays (`/canvas/overlay/{name}`).
pub const OVERLAY_GROUP: &str = "/canvas/overlay";
/// The overlays again under the plural spelling clients also send
/// (`/canvas/overlays/{name}`).
pub const OVERLAY_ALIAS_GROUP: &str = "/canvas/overlays";
/// Prefix of the animated template images (`/premium/{name}`; the
/// original's path, open to everyone here).
pub const PREMIUM_GROUP: &str = "/premium";
/// The rank cards, numbered (`/premium/rankcard/{template}`), inside
/// [`PREMIUM_GROUP`].
pub const RANKCARD_GROUP: &str = "/premium/rankcard";

/// Every canvas image group: the rate limiter's `canvas` class.
pub const CANVAS_GROUPS: [&str; 5] = [
    MISC_GROUP,
    FILTER_GROUP,
    OVERLAY_GROUP,
    OVERLAY_ALIAS_GROUP,
    PREMIUM_GROUP,
];

/// Whether `path` is a canvas image (the rate limiter's `canvas` budget):
/// anything below one of the [`CANVAS_GROUPS`], and [`COLORVIEWER`].
pub fn is_canvas_image(path: &str) -> bool {
    CANVAS_GROUPS
        .iter()
        .any(|g| path.strip_prefix(g).is_some_and(|r| r.starts_with('/')))
        || path == COLORVIEWER
}

/// URL name of every scene, in [`SceneKind::ALL`] order.
pub const SCENES: [(&str, SceneKind); 12] = [
    ("horny", SceneKind::Horny),
    ("its-so-stupid", SceneKind::ItsSoStupid),
    ("lied", SceneKind::Lied),
    ("lolice", SceneKind::Lolice),
    ("namecard", SceneKind::Namecard),
    ("nobitches", SceneKind::NoBitches),
    ("sage", SceneKind::Sage),
    ("sage2", SceneKind::Sage2),
    ("simpcard", SceneKind::Simpcard),
    ("series", SceneKind::Series),
    ("post", SceneKind::Post),
    ("video-comment", SceneKind::VideoComment),
];

/// The group and URL name of every template, in [`TemplateKind::ALL`]
/// order: the overlays under [`OVERLAY_GROUP`] (and its alias), the
/// animated images under [`PREMIUM_GROUP`], the rank cards under
/// [`RANKCARD_GROUP`].
pub const TEMPLATES: [(&str, &str, TemplateKind); 18] = [
    (OVERLAY_GROUP, "comrade", TemplateKind::Comrade),
    (OVERLAY_GROUP, "gay", TemplateKind::Gay),
    (OVERLAY_GROUP, "glass", TemplateKind::Glass),
    (OVERLAY_GROUP, "jail", TemplateKind::Jail),
    (OVERLAY_GROUP, "passed", TemplateKind::Passed),
    (OVERLAY_GROUP, "triggered", TemplateKind::Triggered),
    (OVERLAY_GROUP, "wasted", TemplateKind::Wasted),
    (PREMIUM_GROUP, "petpet", TemplateKind::Petpet),
    (PREMIUM_GROUP, "amongus", TemplateKind::Amongus),
    (RANKCARD_GROUP, "1", TemplateKind::Rank1),
    (RANKCARD_GROUP, "2", TemplateKind::Rank2),
    (RANKCARD_GROUP, "3", TemplateKind::Rank3),
    (RANKCARD_GROUP, "4", TemplateKind::Rank4),
    (RANKCARD_GROUP, "5", TemplateKind::Rank5),
    (RANKCARD_GROUP, "6", TemplateKind::Rank6),
    (RANKCARD_GROUP, "7", TemplateKind::Rank7),
    (RANKCARD_GROUP, "8", TemplateKind::Rank8),
    (RANKCARD_GROUP, "9", TemplateKind::Rank9),
];

/// The template named `name` in `group` ([`OVERLAY_ALIAS_GROUP`] resolves
/// as [`OVERLAY_GROUP`]).
pub fn template(group: &str, name: &str) -> Option<TemplateKind> {
    let group = if group == OVERLAY_ALIAS_GROUP {
        OVERLAY_GROUP
    } else {
        group
    };
    TEMPLATES
        .iter()
        .find(|(g, n, _)| *g == group && *n == name)
        .map(|(_, _, k)| *k)
}

/// URL names of the templates of `group` (the alias lists the overlays).
pub fn template_names(group: &str) -> impl Iterator<Item = &'static str> + '_ {
    TEMPLATES
        .iter()
        .filter(move |(g, _, _)| {
            *g == group || (group == OVERLAY_ALIAS_GROUP && *g == OVERLAY_GROUP)
        })
        .map(|(_, n, _)| *n)
}

/// One image of `/canvas/misc/{name}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misc {
    /// `circle`.
    Circle,
    /// `heart`.
    Heart,
    /// A pride ring, named by its flag.
    Pride(PrideFlag),
    /// A scene, named in [`SCENES`].
    Scene(SceneKind),
}

impl Misc {
    /// Every misc image with its URL name: `circle`, `heart`, the pride
    /// flags ([`PrideFlag::ALL`]), then the scenes ([`SCENES`]).
    pub fn all() -> impl Iterator<Item = (&'static str, Misc)> {
        [("circle", Misc::Circle), ("heart", Misc::Heart)]
            .into_iter()
            .chain(
                PrideFlag::ALL
                    .into_iter()
                    .map(|f| (f.name(), Misc::Pride(f))),
            )
            .chain(SCENES.into_iter().map(|(n, k)| (n, Misc::Scene(k))))
    }

    /// The misc image of that URL name.
    pub fn from_name(name: &str) -> Option<Misc> {
        Misc::all().find(|(n, _)| *n == name).map(|(_, m)| m)
    }
}

/// URL names of the filters ([`Filter::ALL`]).
pub fn filter_names() -> impl Iterator<Item = &'static str> {
    Filter::ALL.iter().map(Filter::name)
}

/// URL names of the misc images ([`Misc::all`]).
pub fn misc_names() -> impl Iterator<Item = &'static str> {
    Misc::all().map(|(n, _)| n)
}

/// Every content group's path segment with its type names, in the spec's
/// order (the content crate's `NAMES`).
pub const CONTENT_TYPES: [(&str, &[&str]); 4] = [
    ("animu", content::AnimuType::NAMES),
    ("animal", content::AnimalType::NAMES),
    ("facts", content::FactType::NAMES),
    ("img", content::ImgType::NAMES),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scene_kind_has_one_url_name() {
        let kinds: Vec<SceneKind> = SCENES.iter().map(|(_, k)| *k).collect();
        assert_eq!(kinds, SceneKind::ALL);
    }

    #[test]
    fn every_template_kind_has_one_group_and_name() {
        let kinds: Vec<TemplateKind> = TEMPLATES.iter().map(|(_, _, k)| *k).collect();
        assert_eq!(kinds, TemplateKind::ALL);
        for (group, name, kind) in TEMPLATES {
            assert_eq!(template(group, name), Some(kind));
            if group == OVERLAY_GROUP {
                assert_eq!(template(OVERLAY_ALIAS_GROUP, name), Some(kind));
            }
        }
        assert_eq!(template(PREMIUM_GROUP, "jail"), None);
        assert_eq!(template(OVERLAY_GROUP, "petpet"), None);
        assert_eq!(template_names(OVERLAY_ALIAS_GROUP).count(), 7);
        assert_eq!(template_names(PREMIUM_GROUP).count(), 2);
        assert_eq!(
            template_names(RANKCARD_GROUP).collect::<Vec<_>>(),
            ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
        );
        assert_eq!(template(RANKCARD_GROUP, "0"), None);
        assert_eq!(template(PREMIUM_GROUP, "1"), None);
    }

    #[test]
    fn misc_names_are_unique_and_round_trip() {
        let names: Vec<&str> = misc_names().collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
        for (name, misc) in Misc::all() {
            assert_eq!(Misc::from_name(name), Some(misc));
        }
        assert_eq!(Misc::from_name("Circle"), None);
        assert_eq!(names.len(), 2 + PrideFlag::ALL.len() + SceneKind::ALL.len());
    }

    #[test]
    fn canvas_images_are_classed_by_group() {
        for canvas in [
            "/canvas/filter/sepia",
            "/canvas/misc/circle",
            "/canvas/misc/x",
            "/canvas/colorviewer",
            "/canvas/overlay/jail",
            "/canvas/overlays/jail",
            "/premium/petpet",
            "/premium/rankcard/1",
        ] {
            assert!(is_canvas_image(canvas), "{canvas}");
        }
        for other in [
            "/canvas/filter",
            "/canvas/filterx/a",
            "/canvas/rgb",
            "/canvas/hex",
            "/canvas/colorviewer/x",
            "/canvas/overlay",
            "/premiumx/a",
            "/facts/cat",
        ] {
            assert!(!is_canvas_image(other), "{other}");
        }
    }
}
