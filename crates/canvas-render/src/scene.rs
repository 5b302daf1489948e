//! Scene compositions: meme templates and profile cards built around an
//! avatar and a few text parameters.
//!
//! Every scene has a fixed output size ([`Scene::size`]) except `post` and
//! `video-comment`, cards that grow with their text; all art is drawn in
//! code with tiny-skia or comes from our own SVG in `assets/art/`, and text
//! uses the bundled fonts only. Rendering is deterministic: dates, times and
//! counters are parameters with fixed defaults, never read from a clock, so the
//! same input always gives the same pixels (golden tests, caching).
//!
//! | Scene | Size | Avatar | Text parameters (cap, characters) |
//! |---|---|---|---|
//! | [`Scene::Post`] | 1200 × 471–1400 | round | [`PostParams`] |
//! | [`Scene::VideoComment`] | 1200 × 227–800 | round | [`VideoCommentParams`] |
//!
//! `sage`, `sage2`, `horny`, `simpcard` and `namecard` are templates
//! ([`crate::template::TemplateKind`]); the caps below are theirs too.
//!
//! Scenes that use an avatar draw a neutral grey silhouette when none is
//! given. Text longer than its cap is a [`RenderError::TextTooLong`]; text that
//! fits the cap but not the box is shrunk, then cut with "…" (at a
//! grapheme-cluster boundary).
//!
//! **Cards that fit their text.** `post` draws its comment at 52 px and
//! `video-comment` at 34 px, wrapped to the card's width; the card ends right
//! below the text: one line gives the compact card (1200 × 471 and
//! 1200 × 227), each further line adds about 79 px and 51 px. A comment taller
//! than the room left at the largest height ([`POST_MAX_HEIGHT`],
//! [`VIDEO_COMMENT_MAX_HEIGHT`]) is shrunk to fit it (down to 20 px and 16 px
//! text), then cut with "…".
//!
//! ```
//! use canvas_render::scene::{render_scene, PostParams, Scene};
//! let avatar = canvas_render::solid(64, 64, [200, 40, 90]).unwrap();
//! let scene = Scene::Post(PostParams::new("ferris", "Ferris", "Slow and steady."));
//! let img = render_scene(&scene, Some(&avatar)).unwrap();
//! assert_eq!(img.dimensions(), scene.size());
//!
//! let too_long = Scene::Post(PostParams::new("ferris", "Ferris", "a".repeat(10_000)));
//! assert!(render_scene(&too_long, None).is_err());
//! ```

mod cards;
mod social;

/// The caps of the cards drawn as templates, where they always were.
pub use crate::template::{
    MAX_BIRTHDAY_CHARS, MAX_CAPTION_CHARS, MAX_DESCRIPTION_CHARS, MAX_QUOTE_CHARS,
};
pub use social::{POST_MAX_HEIGHT, POST_WIDTH, VIDEO_COMMENT_MAX_HEIGHT, VIDEO_COMMENT_WIDTH};

use std::str::FromStr;

use crate::text::check_length;
use crate::{RenderError, RgbaImage};

/// Cap on usernames and display names, in characters.
pub const MAX_USERNAME_CHARS: usize = crate::text::MAX_NAME_CHARS;
/// Cap on post and video comments, in characters.
pub const MAX_COMMENT_CHARS: usize = 1000;
/// Cap on the date/time labels of [`PostParams`] and [`VideoCommentParams`].
pub const MAX_LABEL_CHARS: usize = 64;

/// Colour theme of the [`Scene::Post`] card. More themes may come in minor
/// releases, hence `#[non_exhaustive]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
#[non_exhaustive]
pub enum PostTheme {
    /// White background, dark text (the default).
    #[default]
    Light,
    /// Dark blue-grey background.
    Dim,
    /// Black background.
    Dark,
}

impl FromStr for PostTheme {
    type Err = RenderError;
    /// Parses `light`, `dim` or `dark` (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "light" => Ok(PostTheme::Light),
            "dim" => Ok(PostTheme::Dim),
            "dark" => Ok(PostTheme::Dark),
            _ => Err(RenderError::InvalidParameter {
                field: "theme",
                reason: "expected light, dim or dark",
            }),
        }
    }
}

/// Parameters of the microblog post card ([`Scene::Post`]).
///
/// Made with [`PostParams::new`] (or [`Default`]) and the chainable setters;
/// the fields can be read and changed, but the struct is
/// `#[non_exhaustive]` (a new parameter is a minor release), so it cannot be
/// written as a literal outside this crate.
///
/// ```
/// use canvas_render::scene::{PostParams, PostTheme, Scene};
/// let params = PostParams::new("ferris", "Ferris the Crab", "hello")
///     .theme(PostTheme::Dark)
///     .likes(7);
/// assert_eq!((params.likes, params.reposts), (7, 1337));
/// let scene = Scene::Post(params);
/// assert_eq!(scene.size(), (1200, 471)); // one line: the compact card
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PostParams {
    /// The handle, drawn as `@username` (≤ [`MAX_USERNAME_CHARS`]).
    pub username: String,
    /// The display name, drawn bold (≤ [`MAX_USERNAME_CHARS`]).
    pub displayname: String,
    /// The post text (≤ [`MAX_COMMENT_CHARS`]); shrinks to fit the card.
    pub comment: String,
    /// Colour theme.
    pub theme: PostTheme,
    /// The timestamp line under the text (≤ [`MAX_LABEL_CHARS`]).
    /// Default `"4:20 PM · Apr 20, 2024"`.
    pub date: String,
    /// Repost counter. Default 1 337.
    pub reposts: u64,
    /// Quote counter. Default 42.
    pub quotes: u64,
    /// Like counter. Default 12 800 (drawn `12.8K`).
    pub likes: u64,
    /// Reply counter, drawn first in the counter row when set. Default
    /// `None` (not drawn).
    pub replies: Option<u64>,
}

impl Default for PostParams {
    fn default() -> Self {
        PostParams {
            username: String::new(),
            displayname: String::new(),
            comment: String::new(),
            theme: PostTheme::Light,
            date: "4:20 PM · Apr 20, 2024".into(),
            reposts: 1337,
            quotes: 42,
            likes: 12_800,
            replies: None,
        }
    }
}

impl PostParams {
    /// A post by `username` (drawn `@username`) and `displayname` saying
    /// `comment`, with the default theme, date and counters.
    pub fn new(
        username: impl Into<String>,
        displayname: impl Into<String>,
        comment: impl Into<String>,
    ) -> Self {
        PostParams {
            username: username.into(),
            displayname: displayname.into(),
            comment: comment.into(),
            ..PostParams::default()
        }
    }

    /// Sets the colour theme.
    #[must_use]
    pub fn theme(mut self, theme: PostTheme) -> Self {
        self.theme = theme;
        self
    }

    /// Sets the timestamp line.
    #[must_use]
    pub fn date(mut self, date: impl Into<String>) -> Self {
        self.date = date.into();
        self
    }

    /// Sets the repost counter.
    #[must_use]
    pub fn reposts(mut self, n: u64) -> Self {
        self.reposts = n;
        self
    }

    /// Sets the quote counter.
    #[must_use]
    pub fn quotes(mut self, n: u64) -> Self {
        self.quotes = n;
        self
    }

    /// Sets the like counter.
    #[must_use]
    pub fn likes(mut self, n: u64) -> Self {
        self.likes = n;
        self
    }

    /// Sets the reply counter (drawn first in the counter row).
    #[must_use]
    pub fn replies(mut self, n: u64) -> Self {
        self.replies = Some(n);
        self
    }
}

/// Parameters of the video-site comment ([`Scene::VideoComment`]).
///
/// Made with [`VideoCommentParams::new`] (or [`Default`]) and the chainable
/// setters; `#[non_exhaustive]` like [`PostParams`].
///
/// ```
/// use canvas_render::scene::VideoCommentParams;
/// let params = VideoCommentParams::new("ferris", "great video").time("just now");
/// assert_eq!((params.time.as_str(), params.likes), ("just now", 2400));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct VideoCommentParams {
    /// The commenter, drawn as `@username` (≤ [`MAX_USERNAME_CHARS`]).
    pub username: String,
    /// The comment (≤ [`MAX_COMMENT_CHARS`]); shrinks to fit.
    pub comment: String,
    /// The age label next to the name (≤ [`MAX_LABEL_CHARS`]). Default `"2 hours ago"`.
    pub time: String,
    /// Like counter. Default 2 400 (drawn `2.4K`).
    pub likes: u64,
}

impl Default for VideoCommentParams {
    fn default() -> Self {
        VideoCommentParams {
            username: String::new(),
            comment: String::new(),
            time: "2 hours ago".into(),
            likes: 2400,
        }
    }
}

impl VideoCommentParams {
    /// A comment by `username` (drawn `@username`), with the default age
    /// label and like counter.
    pub fn new(username: impl Into<String>, comment: impl Into<String>) -> Self {
        VideoCommentParams {
            username: username.into(),
            comment: comment.into(),
            ..VideoCommentParams::default()
        }
    }

    /// Sets the age label next to the name.
    #[must_use]
    pub fn time(mut self, time: impl Into<String>) -> Self {
        self.time = time.into();
        self
    }

    /// Sets the like counter.
    #[must_use]
    pub fn likes(mut self, n: u64) -> Self {
        self.likes = n;
        self
    }
}

/// A composition and its text parameters. See the [module docs](self) for
/// sizes and caps.
///
/// The enum is `#[non_exhaustive]`, and so are its parameter structs: build
/// them with [`PostParams::new`] and [`VideoCommentParams::new`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scene {
    /// A microblog post card.
    Post(PostParams),
    /// A dark-theme video-site comment.
    VideoComment(VideoCommentParams),
}

/// Which composition a [`Scene`] is, without its parameters.
///
/// [`SceneKind::ALL`] lists every kind, in the order of the [`Scene`]
/// variants, so callers can build their own tables (URL names, docs, menus)
/// over the scenes without matching on parameters. New scenes may be added in
/// minor releases, hence `#[non_exhaustive]`.
///
/// ```
/// use canvas_render::scene::{Scene, SceneKind};
/// let post = Scene::Post(canvas_render::scene::PostParams::new("a", "b", "c"));
/// assert_eq!(post.kind(), SceneKind::Post);
/// assert_eq!(SceneKind::ALL.len(), 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SceneKind {
    /// [`Scene::Post`].
    Post,
    /// [`Scene::VideoComment`].
    VideoComment,
}

impl SceneKind {
    /// Every kind, in the order of the [`Scene`] variants.
    pub const ALL: [SceneKind; 2] = [SceneKind::Post, SceneKind::VideoComment];
}

impl Scene {
    /// The scene's [`SceneKind`]: which composition it is, without parameters.
    pub fn kind(&self) -> SceneKind {
        match self {
            Scene::Post(_) => SceneKind::Post,
            Scene::VideoComment(_) => SceneKind::VideoComment,
        }
    }

    /// The output size for this content, `(width, height)` in pixels: fixed
    /// for every scene but `post` and `video-comment`, whose height follows
    /// their text (see the table in [the module docs](self)). It lays the text
    /// out to know, so call it only when the size is needed before rendering.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Scene::Post(p) => (social::POST_WIDTH, social::post_height(p)),
            Scene::VideoComment(v) => {
                (social::VIDEO_COMMENT_WIDTH, social::video_comment_height(v))
            }
        }
    }

    /// Whether the scene draws the avatar (both cards do).
    pub fn uses_avatar(&self) -> bool {
        true
    }

    /// Checks every text parameter against its cap. [`render_scene`] calls
    /// this first; call it yourself to reject input before fetching an avatar.
    pub fn validate(&self) -> Result<(), RenderError> {
        match self {
            Scene::Post(p) => {
                check_length("username", &p.username, MAX_USERNAME_CHARS)?;
                check_length("displayname", &p.displayname, MAX_USERNAME_CHARS)?;
                check_length("comment", &p.comment, MAX_COMMENT_CHARS)?;
                check_length("date", &p.date, MAX_LABEL_CHARS)
            }
            Scene::VideoComment(v) => {
                check_length("username", &v.username, MAX_USERNAME_CHARS)?;
                check_length("comment", &v.comment, MAX_COMMENT_CHARS)?;
                check_length("time", &v.time, MAX_LABEL_CHARS)
            }
        }
    }
}

/// Renders `scene` at its size ([`Scene::size`]).
///
/// `avatar` may be any size (it is centre-cropped to a square and scaled);
/// it is ignored by scenes that draw none, and replaced by a grey silhouette
/// when `None`. Errors: [`RenderError::TextTooLong`] for over-long text,
/// [`RenderError::EmptyImage`]/[`RenderError::TooLarge`] for an avatar with
/// no pixels or beyond [`crate::MAX_DIMENSION`].
///
/// ```
/// use canvas_render::scene::{render_scene, PostParams, PostTheme, Scene};
/// let theme: PostTheme = "dark".parse().unwrap();
/// let post = Scene::Post(PostParams::new("ferris", "Ferris the Crab", "Just shipped 1.0 🦀").theme(theme));
/// let img = render_scene(&post, None).unwrap();
/// assert_eq!(img.dimensions(), (1200, 471)); // one line: the compact card
/// assert_eq!(img.get_pixel(5, 5).0, [0, 0, 0, 255]); // dark theme background
/// ```
pub fn render_scene(scene: &Scene, avatar: Option<&RgbaImage>) -> Result<RgbaImage, RenderError> {
    scene.validate()?;
    // Scenes draw their fixed text once per process, with the fonts there then.
    crate::text::check_fonts()?;
    let avatar = if scene.uses_avatar() { avatar } else { None };
    if let Some(a) = avatar {
        crate::limits::check_size(a.width(), a.height())?;
    }
    let canvas = match scene {
        Scene::Post(p) => social::post(avatar, p)?,
        Scene::VideoComment(v) => social::video_comment(avatar, v)?,
    };
    Ok(canvas.into_image())
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn all_scenes() -> Vec<Scene> {
        vec![
            Scene::Post(PostParams::default()),
            Scene::VideoComment(VideoCommentParams::default()),
        ]
    }

    #[test]
    fn every_scene_has_its_size_and_a_kind() {
        let avatar = crate::limits::solid(300, 200, [10, 120, 200]).unwrap();
        for scene in all_scenes() {
            let img = render_scene(&scene, Some(&avatar)).unwrap();
            assert_eq!(img.dimensions(), scene.size(), "{:?}", scene.kind());
            let none = render_scene(&scene, None).unwrap();
            assert_eq!(none.dimensions(), scene.size());
            if scene.uses_avatar() {
                assert_ne!(img, none, "{:?} draws the avatar", scene.kind());
            } else {
                assert_eq!(img, none, "{:?} ignores the avatar", scene.kind());
            }
        }
    }

    #[test]
    fn kinds_list_every_scene_once_in_variant_order() {
        let kinds: Vec<SceneKind> = all_scenes().iter().map(Scene::kind).collect();
        assert_eq!(kinds, SceneKind::ALL);
    }

    #[test]
    fn cards_grow_with_their_text_up_to_their_maximum() {
        let post = |comment: &str| {
            Scene::Post(PostParams {
                comment: comment.into(),
                ..PostParams::default()
            })
        };
        let video = |comment: &str| {
            Scene::VideoComment(VideoCommentParams {
                comment: comment.into(),
                ..VideoCommentParams::default()
            })
        };
        // One line: the compact cards of the module docs.
        assert_eq!(post("").size(), (POST_WIDTH, 471));
        assert_eq!(post("hi 👋").size(), (POST_WIDTH, 471));
        assert_eq!(video("").size(), (VIDEO_COMMENT_WIDTH, 227));
        // Each further line adds about 79 and 51 px.
        let step = post("a\nb").size().1 - 471;
        assert!((78..=80).contains(&step), "{step}");
        let step = video("a\nb").size().1 - 227;
        assert!((50..=52).contains(&step), "{step}");
        // Longer text, taller card; never past the maximum.
        let mut last = 0;
        for n in [1, 20, 60, 120, 250, 500] {
            let h = post(&"word ".repeat(n)).size().1;
            assert!(h >= last && h <= POST_MAX_HEIGHT, "{n}: {h}");
            last = h;
        }
        assert_eq!(last, POST_MAX_HEIGHT);
        let full = post(&"x".repeat(MAX_COMMENT_CHARS));
        let img = render_scene(&full, None).unwrap();
        assert_eq!(img.dimensions(), (POST_WIDTH, POST_MAX_HEIGHT));
        assert_eq!(
            video(&"word ".repeat(200)).size(),
            (VIDEO_COMMENT_WIDTH, VIDEO_COMMENT_MAX_HEIGHT)
        );
    }

    #[test]
    fn rendering_is_deterministic() {
        let avatar = crate::limits::solid(64, 64, [250, 120, 0]).unwrap();
        let s = Scene::Post(PostParams {
            comment: "hello".into(),
            ..PostParams::default()
        });
        assert_eq!(
            render_scene(&s, Some(&avatar)).unwrap(),
            render_scene(&s, Some(&avatar)).unwrap()
        );
    }

    #[test]
    fn caps_give_typed_errors() {
        let long = |n| "x".repeat(n);
        let cases = [
            (
                Scene::Post(PostParams {
                    comment: long(MAX_COMMENT_CHARS + 1),
                    ..PostParams::default()
                }),
                "comment",
            ),
            (
                Scene::VideoComment(VideoCommentParams {
                    username: long(65),
                    ..VideoCommentParams::default()
                }),
                "username",
            ),
        ];
        for (scene, field) in cases {
            match render_scene(&scene, None) {
                Err(RenderError::TextTooLong { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{:?}: {other:?}", scene.kind()),
            }
        }
        // Exactly at the cap is fine.
        let ok = Scene::Post(PostParams {
            comment: long(MAX_COMMENT_CHARS),
            ..PostParams::default()
        });
        assert!(render_scene(&ok, None).is_ok());
    }

    #[test]
    fn bad_avatars_are_errors() {
        let empty = RgbaImage::new(0, 0);
        assert_eq!(
            render_scene(&Scene::Post(PostParams::default()), Some(&empty)),
            Err(RenderError::EmptyImage)
        );
        let tall = RgbaImage::new(1, 9000);
        assert!(matches!(
            render_scene(&Scene::Post(PostParams::default()), Some(&tall)),
            Err(RenderError::TooLarge { .. })
        ));
    }

    #[test]
    fn themes_parse() {
        assert_eq!("DIM".parse::<PostTheme>(), Ok(PostTheme::Dim));
        assert_eq!(
            "".parse::<PostTheme>().unwrap_err(),
            RenderError::InvalidParameter {
                field: "theme",
                reason: "expected light, dim or dark"
            }
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn arbitrary_text_renders(text in "\\PC{0,120}|[\\u{0}-\\u{2fff}]{0,60}") {
            let scenes = [
                Scene::Post(PostParams { username: text.clone(), displayname: text.clone(), comment: text.clone(), ..PostParams::default() }),
            ];
            for s in scenes {
                let r = render_scene(&s, None);
                let ok = r.is_ok() || matches!(r, Err(RenderError::TextTooLong { .. }));
                proptest::prop_assert!(ok, "{:?}", r.err());
            }
        }
    }
}
