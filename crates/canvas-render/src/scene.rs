//! Scene compositions: meme templates and profile cards built around an
//! avatar and a few text parameters.
//!
//! Every scene has a fixed output size ([`Scene::size`]); all art is drawn
//! in code with tiny-skia or comes from our own SVG in `assets/art/`, and
//! text uses the bundled fonts only. Rendering is deterministic, so the
//! same input always gives the same pixels (golden tests, caching). The
//! social cards `post` and `video-comment` are templates
//! ([`crate::template::TemplateKind::Post`]).
//!
//! | Scene | Size | Avatar | Text parameters (cap, characters) |
//! |---|---|---|---|
//! | [`Scene::Horny`] | 900×560 | licence photo | none |
//! | [`Scene::ItsSoStupid`] | 800×800 | held up in panel 4 | `dog` ([`MAX_CAPTION_CHARS`]) |
//! | [`Scene::Lied`] | 600×600 | greyscale | optional `username` ([`MAX_USERNAME_CHARS`]) |
//! | [`Scene::Lolice`] | 900×600 | mugshot | none |
//! | [`Scene::Namecard`] | 1680×800 | round | `username`, `birthday`, `description` |
//! | [`Scene::NoBitches`] | 800×800 | not used | `no`, `bottomtext` ([`MAX_CAPTION_CHARS`]) |
//! | [`Scene::Sage`] | 1200×630 | not used | `quote` ([`MAX_QUOTE_CHARS`]) |
//! | [`Scene::Sage2`] | 800×800 | not used | `quote` ([`MAX_QUOTE_CHARS`]) |
//! | [`Scene::Simpcard`] | 900×560 | card photo | none |
//! | [`Scene::Series`] | 700×800 | disc-case cover | none |
//!
//! Scenes that use an avatar draw a neutral grey silhouette when none is
//! given. Text longer than its cap is a [`RenderError::TextTooLong`]; text that
//! fits the cap but not the box is shrunk, then cut with "…" (at a
//! grapheme-cluster boundary).
//!
//! ```
//! use canvas_render::scene::{render_scene, Scene};
//! let avatar = canvas_render::solid(64, 64, [200, 40, 90]).unwrap();
//! let scene = Scene::sage("Slow and steady.");
//! let img = render_scene(&scene, Some(&avatar)).unwrap();
//! assert_eq!(img.dimensions(), scene.size());
//!
//! let too_long = Scene::sage("a".repeat(10_000));
//! assert!(render_scene(&too_long, None).is_err());
//! ```

mod cards;
pub(crate) mod memes;
mod sage;

use crate::text::check_length;
use crate::{RenderError, RgbaImage};

/// Cap on usernames and display names, in characters.
pub const MAX_USERNAME_CHARS: usize = crate::text::MAX_NAME_CHARS;
/// Cap on meme captions (`dog`, `no`, `bottomtext`), in characters.
pub const MAX_CAPTION_CHARS: usize = 200;
/// Cap on `quote` (sage, sage2), in characters.
pub const MAX_QUOTE_CHARS: usize = 500;
/// Cap on the namecard `birthday` (free text such as "March 3" or "2000-03-03").
pub const MAX_BIRTHDAY_CHARS: usize = 64;
/// Cap on the namecard `description`, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;

/// A composition and its text parameters. See the [module docs](self) for
/// sizes and caps.
///
/// The enum and its variants with named fields are `#[non_exhaustive]`, so
/// that scenes and parameters can be added in minor releases: make those
/// variants with their constructors ([`Scene::sage`], [`Scene::namecard`],
/// ...), and match them with `..`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scene {
    /// A pink "horny licence" ID card with the avatar as its photo.
    Horny,
    /// A four-panel comic; in the last panel the avatar is held up with `dog`
    /// written above it.
    #[non_exhaustive]
    ItsSoStupid {
        /// The caption above the held-up avatar.
        dog: String,
    },
    /// A greyscale, vignetted panel of the avatar captioned "`username` lied."
    /// (or "You lied." when no username is given; the endpoint has no
    /// username parameter, so callers may pass `None`).
    #[non_exhaustive]
    Lied {
        /// Who lied.
        username: Option<String>,
    },
    /// A police mugshot of the avatar in front of a height chart, with
    /// red-and-blue siren glow.
    Lolice,
    /// A 1680×800 profile card: round avatar, name, birthday, description.
    #[non_exhaustive]
    Namecard {
        /// Name, one line, shrinks to fit.
        username: String,
        /// Birthday as free text (no format imposed), one line.
        birthday: String,
        /// Description, wrapped and shrunk to fit.
        description: String,
    },
    /// A smug cartoon face with outlined meme captions: `no` on top,
    /// `bottomtext` below, both upper-cased. Takes no avatar.
    #[non_exhaustive]
    NoBitches {
        /// Top caption.
        no: String,
        /// Bottom caption.
        bottomtext: String,
    },
    /// The wise old turtle beside the quote, on a warm landscape card.
    #[non_exhaustive]
    Sage {
        /// The quote.
        quote: String,
    },
    /// The wise old turtle under a night sky, saying the quote in a speech bubble.
    #[non_exhaustive]
    Sage2 {
        /// The quote.
        quote: String,
    },
    /// A lilac "simp card" membership card with the avatar as its photo.
    Simpcard,
    /// The avatar as the cover of a disc case held up in two hands.
    Series,
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
/// assert_eq!(Scene::Horny.kind(), SceneKind::Horny);
/// assert_eq!(SceneKind::ALL.len(), 10);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SceneKind {
    /// [`Scene::Horny`].
    Horny,
    /// [`Scene::ItsSoStupid`].
    ItsSoStupid,
    /// [`Scene::Lied`].
    Lied,
    /// [`Scene::Lolice`].
    Lolice,
    /// [`Scene::Namecard`].
    Namecard,
    /// [`Scene::NoBitches`].
    NoBitches,
    /// [`Scene::Sage`].
    Sage,
    /// [`Scene::Sage2`].
    Sage2,
    /// [`Scene::Simpcard`].
    Simpcard,
    /// [`Scene::Series`].
    Series,
}

impl SceneKind {
    /// Every kind, in the order of the [`Scene`] variants.
    pub const ALL: [SceneKind; 10] = [
        SceneKind::Horny,
        SceneKind::ItsSoStupid,
        SceneKind::Lied,
        SceneKind::Lolice,
        SceneKind::Namecard,
        SceneKind::NoBitches,
        SceneKind::Sage,
        SceneKind::Sage2,
        SceneKind::Simpcard,
        SceneKind::Series,
    ];
}

impl Scene {
    /// [`Scene::ItsSoStupid`] with the caption `dog`.
    pub fn its_so_stupid(dog: impl Into<String>) -> Self {
        Scene::ItsSoStupid { dog: dog.into() }
    }

    /// [`Scene::Lied`], captioned "`username` lied." (or "You lied.").
    pub fn lied(username: Option<String>) -> Self {
        Scene::Lied { username }
    }

    /// [`Scene::Namecard`].
    pub fn namecard(
        username: impl Into<String>,
        birthday: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        Scene::Namecard {
            username: username.into(),
            birthday: birthday.into(),
            description: description.into(),
        }
    }

    /// [`Scene::NoBitches`] with its top and bottom captions.
    pub fn nobitches(no: impl Into<String>, bottomtext: impl Into<String>) -> Self {
        Scene::NoBitches {
            no: no.into(),
            bottomtext: bottomtext.into(),
        }
    }

    /// [`Scene::Sage`] saying `quote`.
    pub fn sage(quote: impl Into<String>) -> Self {
        Scene::Sage {
            quote: quote.into(),
        }
    }

    /// [`Scene::Sage2`] saying `quote`.
    pub fn sage2(quote: impl Into<String>) -> Self {
        Scene::Sage2 {
            quote: quote.into(),
        }
    }

    /// The scene's [`SceneKind`]: which composition it is, without parameters.
    pub fn kind(&self) -> SceneKind {
        match self {
            Scene::Horny => SceneKind::Horny,
            Scene::ItsSoStupid { .. } => SceneKind::ItsSoStupid,
            Scene::Lied { .. } => SceneKind::Lied,
            Scene::Lolice => SceneKind::Lolice,
            Scene::Namecard { .. } => SceneKind::Namecard,
            Scene::NoBitches { .. } => SceneKind::NoBitches,
            Scene::Sage { .. } => SceneKind::Sage,
            Scene::Sage2 { .. } => SceneKind::Sage2,
            Scene::Simpcard => SceneKind::Simpcard,
            Scene::Series => SceneKind::Series,
        }
    }

    /// The output size, `(width, height)` in pixels (see the table in [the
    /// module docs](self)).
    pub fn size(&self) -> (u32, u32) {
        match self {
            Scene::Horny | Scene::Simpcard => (900, 560),
            Scene::ItsSoStupid { .. } | Scene::NoBitches { .. } | Scene::Sage2 { .. } => (800, 800),
            Scene::Lied { .. } => (600, 600),
            Scene::Lolice => (900, 600),
            Scene::Namecard { .. } => (1680, 800),
            Scene::Sage { .. } => (1200, 630),
            Scene::Series => (700, 800),
        }
    }

    /// Whether the scene draws the avatar (`nobitches`, `sage` and `sage2` do not).
    pub fn uses_avatar(&self) -> bool {
        !matches!(
            self,
            Scene::NoBitches { .. } | Scene::Sage { .. } | Scene::Sage2 { .. }
        )
    }

    /// Checks every text parameter against its cap. [`render_scene`] calls
    /// this first; call it yourself to reject input before fetching an avatar.
    pub fn validate(&self) -> Result<(), RenderError> {
        match self {
            Scene::Horny | Scene::Lolice | Scene::Simpcard | Scene::Series => Ok(()),
            Scene::ItsSoStupid { dog } => check_length("dog", dog, MAX_CAPTION_CHARS),
            Scene::Lied { username } => match username {
                Some(u) => check_length("username", u, MAX_USERNAME_CHARS),
                None => Ok(()),
            },
            Scene::Namecard {
                username,
                birthday,
                description,
            } => {
                check_length("username", username, MAX_USERNAME_CHARS)?;
                check_length("birthday", birthday, MAX_BIRTHDAY_CHARS)?;
                check_length("description", description, MAX_DESCRIPTION_CHARS)
            }
            Scene::NoBitches { no, bottomtext } => {
                check_length("no", no, MAX_CAPTION_CHARS)?;
                check_length("bottomtext", bottomtext, MAX_CAPTION_CHARS)
            }
            Scene::Sage { quote } | Scene::Sage2 { quote } => {
                check_length("quote", quote, MAX_QUOTE_CHARS)
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
/// use canvas_render::scene::{render_scene, Scene};
/// let img = render_scene(&Scene::sage2("Patience."), None).unwrap();
/// assert_eq!(img.dimensions(), (800, 800));
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
        Scene::Horny => cards::licence(cards::Card::Horny, avatar)?,
        Scene::Simpcard => cards::licence(cards::Card::Simp, avatar)?,
        Scene::Namecard {
            username,
            birthday,
            description,
        } => cards::namecard(avatar, username, birthday, description)?,
        Scene::ItsSoStupid { dog } => memes::its_so_stupid(avatar, dog)?,
        Scene::Lied { username } => return memes::lied(avatar, username.as_deref()),
        Scene::Lolice => memes::lolice(avatar)?,
        Scene::NoBitches { no, bottomtext } => memes::nobitches(no, bottomtext)?,
        Scene::Series => memes::series(avatar)?,
        Scene::Sage { quote } => sage::sage(quote)?,
        Scene::Sage2 { quote } => sage::sage2(quote)?,
    };
    Ok(canvas.into_image())
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn all_scenes() -> Vec<Scene> {
        vec![
            Scene::Horny,
            Scene::ItsSoStupid {
                dog: "my code".into(),
            },
            Scene::Lied {
                username: Some("Ferris".into()),
            },
            Scene::Lolice,
            Scene::Namecard {
                username: "Ferris".into(),
                birthday: "May 15".into(),
                description: "Crab.".into(),
            },
            Scene::NoBitches {
                no: "no tests?".into(),
                bottomtext: "".into(),
            },
            Scene::Sage {
                quote: "Patience.".into(),
            },
            Scene::Sage2 {
                quote: "Patience.".into(),
            },
            Scene::Simpcard,
            Scene::Series,
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
    fn caps_give_typed_errors() {
        let long = |n| "x".repeat(n);
        let cases = [
            (
                Scene::ItsSoStupid {
                    dog: long(MAX_CAPTION_CHARS + 1),
                },
                "dog",
            ),
            (
                Scene::Lied {
                    username: Some(long(MAX_USERNAME_CHARS + 1)),
                },
                "username",
            ),
            (
                Scene::Sage2 {
                    quote: long(MAX_QUOTE_CHARS + 1),
                },
                "quote",
            ),
            (
                Scene::Namecard {
                    username: "a".into(),
                    birthday: "b".into(),
                    description: long(MAX_DESCRIPTION_CHARS + 1),
                },
                "description",
            ),
        ];
        for (scene, field) in cases {
            match render_scene(&scene, None) {
                Err(RenderError::TextTooLong { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{:?}: {other:?}", scene.kind()),
            }
        }
    }

    #[test]
    fn bad_avatars_are_errors() {
        let empty = RgbaImage::new(0, 0);
        assert_eq!(
            render_scene(&Scene::Horny, Some(&empty)),
            Err(RenderError::EmptyImage)
        );
        let tall = RgbaImage::new(1, 9000);
        assert!(matches!(
            render_scene(&Scene::Horny, Some(&tall)),
            Err(RenderError::TooLarge { .. })
        ));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn arbitrary_text_renders(text in "\\PC{0,120}|[\\u{0}-\\u{2fff}]{0,60}") {
            let scenes = [
                Scene::NoBitches { no: text.clone(), bottomtext: text.clone() },
                Scene::Namecard { username: text.clone(), birthday: text.clone(), description: text.clone() },
            ];
            for s in scenes {
                let r = render_scene(&s, None);
                let ok = r.is_ok() || matches!(r, Err(RenderError::TextTooLong { .. }));
                proptest::prop_assert!(ok, "{:?}", r.err());
            }
        }
    }
}
