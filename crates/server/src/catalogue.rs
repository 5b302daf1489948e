//! The one catalogue of what the service serves by name: the URL names of
//! filters, misc images, templates (overlays and the animated `/premium`
//! images) and content types, all read from the domain enums, and the
//! canvas image groups.
//!
//! The routes parse names through it, the rate limiter classes paths with
//! it ([`is_canvas_image`]), and tests hold the OpenAPI catalogue and the
//! the book's endpoint guide to it. A template's URL name belongs to the
//! server: [`TEMPLATES`] maps each [`TemplateKind`] to its group and name
//! (the misc cards under [`MISC_GROUP`]), and tests fail when a kind has
//! no name.

use canvas_render::template::{ParamSpec, Template, TemplateKind};
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
/// Prefix of the animated effects on an avatar (`/canvas/effect/{name}`).
pub const EFFECT_GROUP: &str = "/canvas/effect";
/// Names of `/canvas/misc/{name}` that answer as a template of another
/// group: the original API's client calls the spin effect a misc image.
pub const MISC_ALIASES: [(&str, TemplateKind); 1] = [("spin", TemplateKind::Spin)];
/// The rank cards, numbered (`/premium/rankcard/{template}`), inside
/// [`PREMIUM_GROUP`].
pub const RANKCARD_GROUP: &str = "/premium/rankcard";

/// Prefix of the welcome cards (`/welcome/img/{template}/{background}`).
pub const WELCOME_GROUP: &str = "/welcome/img";
/// The welcome cards again under the `/canvas` prefix the original's docs
/// also use (`/canvas/welcome/img/{template}/{background}`).
pub const WELCOME_ALIAS_GROUP: &str = "/canvas/welcome/img";
/// The welcome cards over a custom background (`/premium/welcome/{template}?bg=`),
/// below [`PREMIUM_GROUP`].
pub const PREMIUM_WELCOME: &str = "/premium/welcome";

/// Prefix of the memes (`/canvas/meme/{name}`): the two-avatar memes take
/// the second picture as `avatar2` ([`SECOND_AVATAR`]).
pub const MEME_GROUP: &str = "/canvas/meme";
/// Prefix of the captions over any picture (`/canvas/caption/{name}`):
/// the picture is `avatar` or [`CAPTION_IMAGE_PARAM`].
pub const CAPTION_GROUP: &str = "/canvas/caption";
/// The query parameter a caption takes its picture from instead of
/// `avatar` (exactly one of the two).
pub const CAPTION_IMAGE_PARAM: &str = "image";
/// The query parameter of the two-avatar memes' second picture,
/// required by every template of [`MEME_GROUP`] that draws one.
pub const SECOND_AVATAR: &str = canvas_render::template::SECOND_AVATAR;

/// The parameter of `kind` whose absent value the server draws from the
/// pair of pictures' URLs (`ship`'s `percent`:
/// [`canvas_render::template::ship_percent`]), if any.
pub fn pair_seeded(kind: TemplateKind) -> Option<&'static str> {
    (kind == TemplateKind::Ship).then_some(canvas_render::template::SHIP_PERCENT)
}

/// The operators' templates (`/canvas/custom/{name}`, `--templates`).
pub const CUSTOM_GROUP: &str = "/canvas/custom";
/// The preview group of the operators' templates
/// (`/previews/custom/<name>.png`, `.gif` for an animated one).
pub const CUSTOM_PREVIEWS: &str = "custom";

/// The preview of the operator's template `name`.
pub fn custom_preview(name: &str, animated: bool) -> String {
    let ext = if animated { "gif" } else { "png" };
    format!("{PREVIEW_GROUP}/{CUSTOM_PREVIEWS}/{name}.{ext}")
}

/// The group of the templates served right under `/canvas` (its path
/// the group and the name: [`MESSAGE`]). Not a prefix of its own: the
/// rate limiter classes those paths one by one ([`is_canvas_image`]).
pub const CANVAS_ROOT: &str = "/canvas";
/// The chat message card (`/canvas/message`), the template `message` of
/// [`CANVAS_ROOT`].
pub const MESSAGE: &str = "/canvas/message";

/// Template parameters a request must give (absent or blank: a 400
/// naming it), by template: a message's `text`.
pub const REQUIRED_PARAMS: [(TemplateKind, &str); 1] = [(TemplateKind::Message, "text")];

/// Whether the parameter `name` of `template` is one a request must give
/// ([`REQUIRED_PARAMS`]).
pub fn is_required(template: &Template, name: &str) -> bool {
    REQUIRED_PARAMS
        .iter()
        .any(|(k, n)| *n == name && std::ptr::eq(k.template(), template))
}

/// Query parameters of every canvas image, which no template's parameter
/// may be named as.
pub const SERVER_PARAMS: &[&str] = &["avatar", "format", "quality"];

/// Every canvas image group: the rate limiter's `canvas` class.
pub const CANVAS_GROUPS: [&str; 11] = [
    CUSTOM_GROUP,
    MEME_GROUP,
    CAPTION_GROUP,
    EFFECT_GROUP,
    MISC_GROUP,
    FILTER_GROUP,
    OVERLAY_GROUP,
    OVERLAY_ALIAS_GROUP,
    PREMIUM_GROUP,
    WELCOME_GROUP,
    WELCOME_ALIAS_GROUP,
];

/// Whether `path` is a canvas image (the rate limiter's `canvas` budget):
/// anything below one of the [`CANVAS_GROUPS`], and [`COLORVIEWER`].
pub fn is_canvas_image(path: &str) -> bool {
    CANVAS_GROUPS
        .iter()
        .any(|g| path.strip_prefix(g).is_some_and(|r| r.starts_with('/')))
        || path == COLORVIEWER
        || path == MESSAGE
}

/// The group and URL name of every template, in [`TemplateKind::ALL`]
/// order: the overlays under [`OVERLAY_GROUP`] (and its alias), the
/// animated images under [`PREMIUM_GROUP`], the welcome cards `1`–`7`
/// under [`WELCOME_GROUP`] (and its alias, and [`PREMIUM_WELCOME`] with a
/// custom background), the rank cards under [`RANKCARD_GROUP`], the misc
/// images drawn as templates under [`MISC_GROUP`] (also in [`Misc::all`]),
/// the memes under [`MEME_GROUP`], the captions over any picture under
/// [`CAPTION_GROUP`], the effects under [`EFFECT_GROUP`], the chat
/// message card under [`CANVAS_ROOT`] ([`MESSAGE`]).
pub const TEMPLATES: [(&str, &str, TemplateKind); 72] = [
    (OVERLAY_GROUP, "comrade", TemplateKind::Comrade),
    (OVERLAY_GROUP, "gay", TemplateKind::Gay),
    (OVERLAY_GROUP, "glass", TemplateKind::Glass),
    (OVERLAY_GROUP, "jail", TemplateKind::Jail),
    (OVERLAY_GROUP, "passed", TemplateKind::Passed),
    (OVERLAY_GROUP, "triggered", TemplateKind::Triggered),
    (OVERLAY_GROUP, "wasted", TemplateKind::Wasted),
    (PREMIUM_GROUP, "petpet", TemplateKind::Petpet),
    (PREMIUM_GROUP, "amongus", TemplateKind::Amongus),
    (WELCOME_GROUP, "1", TemplateKind::Welcome1),
    (WELCOME_GROUP, "2", TemplateKind::Welcome2),
    (WELCOME_GROUP, "3", TemplateKind::Welcome3),
    (WELCOME_GROUP, "4", TemplateKind::Welcome4),
    (WELCOME_GROUP, "5", TemplateKind::Welcome5),
    (WELCOME_GROUP, "6", TemplateKind::Welcome6),
    (WELCOME_GROUP, "7", TemplateKind::Welcome7),
    (RANKCARD_GROUP, "1", TemplateKind::Rank1),
    (RANKCARD_GROUP, "2", TemplateKind::Rank2),
    (RANKCARD_GROUP, "3", TemplateKind::Rank3),
    (RANKCARD_GROUP, "4", TemplateKind::Rank4),
    (RANKCARD_GROUP, "5", TemplateKind::Rank5),
    (RANKCARD_GROUP, "6", TemplateKind::Rank6),
    (RANKCARD_GROUP, "7", TemplateKind::Rank7),
    (RANKCARD_GROUP, "8", TemplateKind::Rank8),
    (RANKCARD_GROUP, "9", TemplateKind::Rank9),
    (MISC_GROUP, "sage", TemplateKind::Sage),
    (MISC_GROUP, "sage2", TemplateKind::Sage2),
    (MISC_GROUP, "horny", TemplateKind::Horny),
    (MISC_GROUP, "simpcard", TemplateKind::Simpcard),
    (MISC_GROUP, "namecard", TemplateKind::Namecard),
    (MISC_GROUP, "nobitches", TemplateKind::NoBitches),
    (MISC_GROUP, "its-so-stupid", TemplateKind::ItsSoStupid),
    (MISC_GROUP, "lolice", TemplateKind::Lolice),
    (MISC_GROUP, "series", TemplateKind::Series),
    (MISC_GROUP, "lied", TemplateKind::Lied),
    (MISC_GROUP, "post", TemplateKind::Post),
    (MISC_GROUP, "video-comment", TemplateKind::VideoComment),
    (MEME_GROUP, "wanted", TemplateKind::Wanted),
    (MEME_GROUP, "rip", TemplateKind::Rip),
    (MEME_GROUP, "trash", TemplateKind::Trash),
    (MEME_GROUP, "delete", TemplateKind::Delete),
    (MEME_GROUP, "beautiful", TemplateKind::Beautiful),
    (MEME_GROUP, "stonks", TemplateKind::Stonks),
    (MEME_GROUP, "ship", TemplateKind::Ship),
    (MEME_GROUP, "kiss", TemplateKind::Kiss),
    (MEME_GROUP, "slap", TemplateKind::Slap),
    (MEME_GROUP, "hug", TemplateKind::Hug),
    (MEME_GROUP, "fuse", TemplateKind::Fuse),
    (MEME_GROUP, "vs", TemplateKind::Vs),
    (MEME_GROUP, "heart-locket", TemplateKind::HeartLocket),
    (CAPTION_GROUP, "caption", TemplateKind::Caption),
    (CAPTION_GROUP, "impact", TemplateKind::Impact),
    (CAPTION_GROUP, "motivate", TemplateKind::Motivate),
    (CAPTION_GROUP, "speechbubble", TemplateKind::SpeechBubble),
    (EFFECT_GROUP, "spin", TemplateKind::Spin),
    (EFFECT_GROUP, "shake", TemplateKind::Shake),
    (EFFECT_GROUP, "zoom", TemplateKind::Zoom),
    (EFFECT_GROUP, "rainbow", TemplateKind::Rainbow),
    (EFFECT_GROUP, "wave", TemplateKind::Wave),
    (EFFECT_GROUP, "ripple", TemplateKind::Ripple),
    (EFFECT_GROUP, "wiggle", TemplateKind::Wiggle),
    (EFFECT_GROUP, "swirl", TemplateKind::Swirl),
    (EFFECT_GROUP, "melt", TemplateKind::Melt),
    (EFFECT_GROUP, "bounce", TemplateKind::Bounce),
    (EFFECT_GROUP, "shear", TemplateKind::Shear),
    (EFFECT_GROUP, "roll", TemplateKind::Roll),
    (EFFECT_GROUP, "boil", TemplateKind::Boil),
    (EFFECT_GROUP, "glitch", TemplateKind::Glitch),
    (EFFECT_GROUP, "globe", TemplateKind::Globe),
    (EFFECT_GROUP, "magik", TemplateKind::Magik),
    (EFFECT_GROUP, "deepfry", TemplateKind::Deepfry),
    (CANVAS_ROOT, "message", TemplateKind::Message),
];

/// The URL names of the welcome backgrounds (the `{background}` segment),
/// canvas-render's list.
pub const WELCOME_BACKGROUNDS: [&str; 13] = canvas_render::template::WELCOME_BACKGROUNDS;

/// Whether `name` is a welcome background's URL name (exactly, as every
/// path name).
pub fn is_welcome_background(name: &str) -> bool {
    WELCOME_BACKGROUNDS.contains(&name)
}

/// The template named `name` in `group` ([`OVERLAY_ALIAS_GROUP`] resolves
/// as [`OVERLAY_GROUP`], [`WELCOME_ALIAS_GROUP`] and [`PREMIUM_WELCOME`] as
/// [`WELCOME_GROUP`]).
pub fn template(group: &str, name: &str) -> Option<TemplateKind> {
    let group = match group {
        OVERLAY_ALIAS_GROUP => OVERLAY_GROUP,
        WELCOME_ALIAS_GROUP | PREMIUM_WELCOME => WELCOME_GROUP,
        other => other,
    };
    TEMPLATES
        .iter()
        .find(|(g, n, _)| *g == group && *n == name)
        .map(|(_, _, k)| *k)
}

/// The template parameter a welcome card's path gives (its
/// `{background}`); the custom-background cards ([`PREMIUM_WELCOME`]) draw
/// its default under their own image. Never read from the query.
pub const WELCOME_PATH_PARAM: &str = "background";

/// The parameters of `template` that a request to `group` gives in its
/// query: every one of its specs but [`WELCOME_PATH_PARAM`] on the
/// welcome groups.
pub fn template_query_params(
    group: &str,
    template: &'static Template,
) -> impl Iterator<Item = &'static ParamSpec> + use<> {
    let welcome = matches!(group, WELCOME_GROUP | WELCOME_ALIAS_GROUP | PREMIUM_WELCOME);
    template
        .params
        .iter()
        .filter(move |p| !(welcome && p.name == WELCOME_PATH_PARAM))
}

/// The templates an operation documented at `path` draws, with the group
/// they are read from: the one a path names (`/premium/petpet`), or every
/// template of the group when a path parameter picks it
/// (`/premium/rankcard/{template}`, `/welcome/img/{template}/{background}`).
pub fn templates_of_operation(path: &str) -> Vec<(&'static str, &'static str, TemplateKind)> {
    const GROUPS: [&str; 13] = [
        MISC_GROUP,
        MEME_GROUP,
        CAPTION_GROUP,
        EFFECT_GROUP,
        OVERLAY_GROUP,
        OVERLAY_ALIAS_GROUP,
        PREMIUM_GROUP,
        RANKCARD_GROUP,
        PREMIUM_WELCOME,
        WELCOME_GROUP,
        WELCOME_ALIAS_GROUP,
        FILTER_GROUP,
        CANVAS_ROOT,
    ];
    // The longest group the path is below (`/premium/rankcard`, not `/premium`).
    let Some((group, rest)) = GROUPS
        .iter()
        .filter_map(|g| Some((*g, path.strip_prefix(g)?.strip_prefix('/')?)))
        .max_by_key(|(g, _)| g.len())
    else {
        return Vec::new();
    };
    let first = rest.split('/').next().unwrap_or_default();
    let named = |name: &'static str| template(group, name).map(|k| (group, name, k));
    if first.starts_with('{') {
        template_names(group).filter_map(named).collect()
    } else {
        template_names(group)
            .filter(|n| *n == first)
            .filter_map(named)
            .collect()
    }
}

/// URL names of the templates of `group` (the overlay alias lists the
/// overlays, the welcome alias and [`PREMIUM_WELCOME`] the welcome cards).
pub fn template_names(group: &str) -> impl Iterator<Item = &'static str> + '_ {
    TEMPLATES
        .iter()
        .filter(move |(g, _, _)| {
            *g == group
                || (group == OVERLAY_ALIAS_GROUP && *g == OVERLAY_GROUP)
                || (matches!(group, WELCOME_ALIAS_GROUP | PREMIUM_WELCOME) && *g == WELCOME_GROUP)
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
    /// A template, named in [`TEMPLATES`] under [`MISC_GROUP`].
    Template(TemplateKind),
}

impl Misc {
    /// Every misc image with its URL name: `circle`, `heart`, the pride
    /// flags ([`PrideFlag::ALL`]), then the templates of [`MISC_GROUP`]
    /// ([`TEMPLATES`]).
    pub fn all() -> impl Iterator<Item = (&'static str, Misc)> {
        [("circle", Misc::Circle), ("heart", Misc::Heart)]
            .into_iter()
            .chain(
                PrideFlag::ALL
                    .into_iter()
                    .map(|f| (f.name(), Misc::Pride(f))),
            )
            .chain(
                TEMPLATES
                    .into_iter()
                    .filter(|(g, _, _)| *g == MISC_GROUP)
                    .map(|(_, n, k)| (n, Misc::Template(k))),
            )
    }

    /// The misc image of that URL name (or of an alias, [`MISC_ALIASES`]).
    pub fn from_name(name: &str) -> Option<Misc> {
        Misc::all()
            .find(|(n, _)| *n == name)
            .map(|(_, m)| m)
            .or_else(|| {
                MISC_ALIASES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, k)| Misc::Template(*k))
            })
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

/// Prefix of the previews (`/previews/{group}/{file}`).
pub const PREVIEW_GROUP: &str = "/previews";

/// One image endpoint of the catalogue and its preview: the endpoint's
/// answer to built-in sample inputs.
#[derive(Debug, Clone)]
pub struct ImageEndpoint {
    /// Its URL group ([`FILTER_GROUP`], [`MISC_GROUP`], [`OVERLAY_GROUP`],
    /// [`PREMIUM_GROUP`], [`RANKCARD_GROUP`], [`WELCOME_GROUP`]), or
    /// [`COLORVIEWER`] itself.
    pub group: &'static str,
    /// Its URL name within the group (`colorviewer` for [`COLORVIEWER`],
    /// the template's number for a card).
    pub name: &'static str,
    /// The image's path (`/canvas/misc/circle`, `/premium/rankcard/3`,
    /// `/welcome/img/1/space`).
    pub path: String,
    /// The documented operation that serves it: [`path`](Self::path)
    /// itself, or the pattern whose path parameters pick the image
    /// (`/premium/rankcard/{template}`), which names its previews in
    /// `x-previews` rather than `x-preview`.
    pub operation: String,
    /// The values of the operation's path parameters for this image
    /// (`template`, and `background` for a welcome card); empty for an
    /// operation with one path.
    pub path_params: Vec<(&'static str, &'static str)>,
    /// The preview's path: [`PREVIEW_GROUP`], the group's short name, the
    /// name and the extension of the endpoint's default answer
    /// (`/previews/misc/circle.png`, `/previews/premium/petpet.gif`,
    /// `/previews/rankcard/3.png`, `/previews/welcome/3.png`,
    /// `/previews/welcome-background/space.png`).
    pub preview: String,
    /// Whether the image moves for a still avatar (its preview is a GIF).
    pub animated: bool,
}

impl ImageEndpoint {
    /// The welcome background this preview is drawn over, if it is a
    /// welcome card.
    pub fn background(&self) -> Option<&'static str> {
        self.path_params
            .iter()
            .find(|(n, _)| *n == "background")
            .map(|(_, v)| *v)
    }
}

/// The welcome background the welcome templates' previews are drawn over
/// (each background also has a preview of its own, under [`WELCOME_PREVIEW_TEMPLATE`]).
pub const WELCOME_PREVIEW_BACKGROUND: &str = "space";
/// The welcome template the backgrounds' previews are drawn with: the
/// bottom card, which leaves the most of the background in view.
pub const WELCOME_PREVIEW_TEMPLATE: &str = "6";
/// The preview group of the welcome templates.
pub const WELCOME_PREVIEWS: &str = "welcome";
/// The preview group of the welcome backgrounds.
pub const WELCOME_BACKGROUND_PREVIEWS: &str = "welcome-background";

/// Every image endpoint with its preview, read from the lists above:
/// [`COLORVIEWER`], the misc images, the filters, the overlays, the
/// `/premium` templates, the rank cards (`/previews/rankcard/<n>.png`), the
/// welcome cards (each template over [`WELCOME_PREVIEW_BACKGROUND`],
/// `/previews/welcome/<n>.png`) and the welcome backgrounds (template
/// [`WELCOME_PREVIEW_TEMPLATE`] over each,
/// `/previews/welcome-background/<name>.png`). The aliases (overlays,
/// `/canvas/welcome/img`) serve the same images, so they have no previews
/// of their own; the custom-background cards (`/premium/welcome`) are the
/// welcome templates over a fetched image, previewed by the templates.
pub fn image_endpoints() -> &'static [ImageEndpoint] {
    static ALL: std::sync::LazyLock<Vec<ImageEndpoint>> = std::sync::LazyLock::new(|| {
        let ext = |animated: bool| if animated { "gif" } else { "png" };
        let entry = |group: &'static str, name: &'static str, animated: bool| {
            let path = if group == COLORVIEWER {
                COLORVIEWER.to_owned()
            } else {
                format!("{group}/{name}")
            };
            let short = if group == COLORVIEWER {
                "canvas"
            } else {
                group.rsplit('/').next().unwrap_or(group)
            };
            let (operation, path_params) = if group == RANKCARD_GROUP {
                (format!("{group}/{{template}}"), vec![("template", name)])
            } else {
                (path.clone(), Vec::new())
            };
            ImageEndpoint {
                group,
                name,
                operation,
                path_params,
                path,
                preview: format!("{PREVIEW_GROUP}/{short}/{name}.{}", ext(animated)),
                animated,
            }
        };
        let welcome = |template: &'static str,
                       background: &'static str,
                       preview: String,
                       animated: bool| ImageEndpoint {
            group: WELCOME_GROUP,
            name: template,
            path: format!("{WELCOME_GROUP}/{template}/{background}"),
            operation: format!("{WELCOME_GROUP}/{{template}}/{{background}}"),
            path_params: vec![("template", template), ("background", background)],
            preview: format!("{preview}.{}", ext(animated)),
            animated,
        };
        let welcome_animated = template(WELCOME_GROUP, WELCOME_PREVIEW_TEMPLATE)
            .is_some_and(|k| k.template().is_animated());
        // The templates right under `/canvas` come with the colour square:
        // their previews share its group.
        let root = TEMPLATES
            .iter()
            .filter(|(g, _, _)| *g == CANVAS_ROOT)
            .map(|(g, n, k)| entry(g, n, k.template().is_animated()));
        std::iter::once(entry(COLORVIEWER, "colorviewer", false))
            .chain(root)
            .chain(Misc::all().map(|(n, m)| {
                let animated = matches!(m, Misc::Template(k) if k.template().is_animated());
                entry(MISC_GROUP, n, animated)
            }))
            .chain(filter_names().map(|n| entry(FILTER_GROUP, n, false)))
            // The misc templates are among the misc images above, the
            // ones under `/canvas` after the colour square.
            .chain(
                TEMPLATES
                    .iter()
                    .filter(|(g, _, _)| *g != MISC_GROUP && *g != CANVAS_ROOT)
                    .map(|(g, n, k)| {
                        let animated = k.template().is_animated();
                        if *g == WELCOME_GROUP {
                            welcome(
                                n,
                                WELCOME_PREVIEW_BACKGROUND,
                                format!("{PREVIEW_GROUP}/{WELCOME_PREVIEWS}/{n}"),
                                animated,
                            )
                        } else {
                            entry(g, n, animated)
                        }
                    }),
            )
            .chain(WELCOME_BACKGROUNDS.iter().map(|b| {
                welcome(
                    WELCOME_PREVIEW_TEMPLATE,
                    b,
                    format!("{PREVIEW_GROUP}/{WELCOME_BACKGROUND_PREVIEWS}/{b}"),
                    welcome_animated,
                )
            }))
            .collect()
    });
    &ALL
}

/// The previews of the operation documented at `operation` whose path
/// parameters pick the image (`/premium/rankcard/{template}`,
/// `/welcome/img/{template}/{background}`): OpenAPI's `x-previews`.
pub fn previews_of_operation(operation: &str) -> impl Iterator<Item = &'static ImageEndpoint> + '_ {
    image_endpoints()
        .iter()
        .filter(move |e| !e.path_params.is_empty() && e.operation == operation)
}

/// The image endpoint whose preview is at `path`.
pub fn preview(path: &str) -> Option<&'static ImageEndpoint> {
    image_endpoints().iter().find(|e| e.preview == path)
}

/// The preview of the image endpoint at `path` (an endpoint of the
/// overlay alias has its singular spelling's preview).
pub fn preview_of(path: &str) -> Option<&'static str> {
    let path = match path.strip_prefix(OVERLAY_ALIAS_GROUP) {
        Some(rest) if rest.starts_with('/') => format!("{OVERLAY_GROUP}{rest}"),
        _ => path.to_owned(),
    };
    image_endpoints()
        .iter()
        .find(|e| e.path_params.is_empty() && e.path == path)
        .map(|e| e.preview.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for group in [WELCOME_GROUP, WELCOME_ALIAS_GROUP, PREMIUM_WELCOME] {
            assert_eq!(
                template_names(group).collect::<Vec<_>>(),
                ["1", "2", "3", "4", "5", "6", "7"]
            );
            assert_eq!(template(group, "4"), Some(TemplateKind::Welcome4));
            assert_eq!(template(group, "8"), None);
        }
        assert_eq!(template(PREMIUM_GROUP, "1"), None);
        assert!(is_welcome_background("stars2") && !is_welcome_background("Stars2"));
        assert_eq!(
            template_names(RANKCARD_GROUP).collect::<Vec<_>>(),
            ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
        );
        assert_eq!(template(RANKCARD_GROUP, "0"), None);
        assert_eq!(template(MEME_GROUP, "rip"), Some(TemplateKind::Rip));
        assert_eq!(template(MISC_GROUP, "rip"), None);
        assert_eq!(template(MEME_GROUP, "Rip"), None);
        assert_eq!(
            template(MEME_GROUP, "heart-locket"),
            Some(TemplateKind::HeartLocket)
        );
        for name in ["ship", "kiss", "slap", "hug", "fuse", "vs", "heart-locket"] {
            let kind = template(MEME_GROUP, name).unwrap();
            assert_eq!(
                kind.template().image_source(),
                Some(SECOND_AVATAR),
                "{name}"
            );
        }
        assert_eq!(pair_seeded(TemplateKind::Ship), Some("percent"));
        assert_eq!(pair_seeded(TemplateKind::Kiss), None);
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
        assert_eq!(
            names.len(),
            2 + PrideFlag::ALL.len() + template_names(MISC_GROUP).count()
        );
        assert_eq!(
            Misc::from_name("sage"),
            Some(Misc::Template(TemplateKind::Sage))
        );
        assert_eq!(
            template(MISC_GROUP, "namecard"),
            Some(TemplateKind::Namecard)
        );
        assert_eq!(
            Misc::from_name("lied"),
            Some(Misc::Template(TemplateKind::Lied))
        );
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
            "/premium/welcome/1",
            "/welcome/img/1/space",
            "/canvas/welcome/img/7/sunset",
            "/canvas/custom/harbor-welcome",
            "/canvas/meme/wanted",
            "/canvas/caption/impact",
            "/canvas/meme/ship",
            "/canvas/message",
        ] {
            assert!(is_canvas_image(canvas), "{canvas}");
        }
        for other in [
            "/canvas/filter",
            "/canvas/filterx/a",
            "/canvas/rgb",
            "/canvas/hex",
            "/canvas/colorviewer/x",
            "/canvas/message/x",
            "/canvas/overlay",
            "/premiumx/a",
            "/welcome/img",
            "/welcomex/img/1/a",
            "/facts/cat",
        ] {
            assert!(!is_canvas_image(other), "{other}");
        }
    }

    #[test]
    fn every_image_endpoint_has_one_preview() {
        let all = image_endpoints();
        assert_eq!(
            all.len(),
            // The misc templates are counted once, among the misc images.
            1 + misc_names().count() + filter_names().count() + TEMPLATES.len()
                - template_names(MISC_GROUP).count()
                + WELCOME_BACKGROUNDS.len()
        );
        for e in all {
            assert_eq!(preview(&e.preview).map(|p| &p.path), Some(&e.path));
            assert!(e.preview.starts_with("/previews/"), "{}", e.preview);
            if e.path_params.is_empty() {
                assert_eq!(preview_of(&e.path), Some(e.preview.as_str()));
                assert_eq!(e.operation, e.path);
            } else {
                // The operation's pattern with the parameters filled in is
                // the image's path, and the operation lists the preview.
                let filled = e.path_params.iter().fold(e.operation.clone(), |p, (n, v)| {
                    p.replace(&format!("{{{n}}}"), v)
                });
                assert_eq!(filled, e.path);
                assert!(
                    previews_of_operation(&e.operation).any(|p| p.preview == e.preview),
                    "{}",
                    e.preview
                );
                assert_eq!(preview_of(&e.path), None);
            }
        }
        // Every template has a preview of its own, whatever its group, of
        // the template itself.
        for (group, name, kind) in TEMPLATES {
            let of_template: Vec<_> = all
                .iter()
                .filter(|e| template(e.group, e.name) == Some(kind))
                .collect();
            assert!(!of_template.is_empty(), "{group}/{name}");
        }
        // Every welcome background has one, and so do the rank cards'
        // and welcome cards' operations.
        for b in WELCOME_BACKGROUNDS {
            assert!(
                all.iter().any(|e| e.background() == Some(b)
                    && e.preview == format!("/previews/welcome-background/{b}.png")),
                "{b}"
            );
        }
        assert_eq!(
            previews_of_operation("/premium/rankcard/{template}")
                .map(|e| e.preview.as_str())
                .collect::<Vec<_>>(),
            (1..=9)
                .map(|n| format!("/previews/rankcard/{n}.png"))
                .collect::<Vec<_>>()
        );
        assert_eq!(
            previews_of_operation("/welcome/img/{template}/{background}").count(),
            7 + 13
        );
        assert_eq!(
            preview("/previews/welcome/4.png").map(|e| e.path.as_str()),
            Some("/welcome/img/4/space")
        );
        assert_eq!(
            preview("/previews/welcome-background/sunset.png").map(|e| e.path.as_str()),
            Some("/welcome/img/6/sunset")
        );
        assert_eq!(previews_of_operation("/canvas/misc/circle").count(), 0);
        assert_eq!(
            preview_of("/canvas/meme/heart-locket"),
            Some("/previews/meme/heart-locket.gif")
        );
        assert_eq!(
            preview_of("/canvas/meme/ship"),
            Some("/previews/meme/ship.png")
        );
        assert_eq!(
            preview_of("/canvas/misc/circle"),
            Some("/previews/misc/circle.png")
        );
        assert_eq!(
            preview_of("/canvas/overlays/triggered"),
            Some("/previews/overlay/triggered.gif")
        );
        assert_eq!(
            preview_of("/premium/petpet"),
            Some("/previews/premium/petpet.gif")
        );
        assert_eq!(
            preview_of("/canvas/colorviewer"),
            Some("/previews/canvas/colorviewer.png")
        );
        assert_eq!(
            preview_of("/canvas/message"),
            Some("/previews/canvas/message.png")
        );
        assert_eq!(
            template(CANVAS_ROOT, "message"),
            Some(TemplateKind::Message)
        );
        assert!(is_required(TemplateKind::Message.template(), "text"));
        assert!(!is_required(TemplateKind::Message.template(), "username"));
        assert!(!is_required(TemplateKind::Post.template(), "text"));
        assert_eq!(preview_of("/canvas/hex"), None);
        assert!(preview("/previews/misc/circle.gif").is_none());
    }
}
