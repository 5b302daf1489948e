//! Each template's sample arguments: the values a preview of it is drawn
//! with. A template listed here declares the parameters it wants shown
//! (a name instead of a placeholder); any other template, and any
//! parameter not listed, is previewed with its defaults, so a new template
//! has a preview with no entry here.

use super::{Args, TemplateKind};

/// The sample values of `kind`'s parameters, by name (only those that
/// differ from the defaults).
fn samples(kind: TemplateKind) -> &'static [(&'static str, &'static str)] {
    use TemplateKind::*;
    match kind {
        Amongus => &[("username", "Ada")],
        Welcome1 | Welcome2 | Welcome3 | Welcome4 | Welcome5 | Welcome6 | Welcome7 => WELCOME,
        Rank1 | Rank2 | Rank3 | Rank4 | Rank5 | Rank6 | Rank7 | Rank8 | Rank9 => RANK,
        Sage | Sage2 => &[("quote", "Patience is a form of action.")],
        Namecard => &[
            ("username", "Ada"),
            ("birthday", "10 December"),
            (
                "description",
                "Writes the first programs; likes looms and algebra",
            ),
        ],
        NoBitches => &[("no", "no bugs?"), ("bottomtext", "ship it")],
        ItsSoStupid => &[("dog", "Foxes are just cats that went to college")],
        Lied => &[("username", "Ada")],
        Post => POST,
        VideoComment => VIDEO_COMMENT,
        Wanted => &[("name", "Ada Lovelace"), ("reward", "25000")],
        Rip => &[
            ("text", "She only wanted one more feature"),
            ("years", "1815 – 1852"),
        ],
        Delete => &[("filename", "ada_lovelace.png")],
        Beautiful => &[("title", "Portrait of Ada")],
        Caption => &[("text", "when the tests pass on the first try")],
        Impact => &[("top", "one does not simply"), ("bottom", "ship on friday")],
        Motivate => &[
            ("title", "Patience"),
            ("text", "the build will finish eventually"),
        ],
        Ship => &[("percent", "72")],
        Message => MESSAGE,
        Spin | Shake | Zoom | Rainbow | Wave | Ripple | Wiggle | Swirl | Melt | Bounce | Shear
        | Roll | Boil | Glitch | Globe | Magik | Deepfry => EFFECT,
        _ => &[],
    }
}

/// An effect's sample: half the default side, so its preview (16 frames)
/// stays small.
const EFFECT: &[(&str, &str)] = &[("size", "128")];

const MESSAGE: &[(&str, &str)] = &[
    ("username", "Ada"),
    (
        "text",
        "The engine **weaves** *algebraic* patterns, as the `loom` weaves ~~leaves~~ flowers. @Charles 🌸",
    ),
    ("timestamp", "1843-09-05T10:30:00Z"),
    ("color", "e67e22"),
];

/// A welcome card's sample: a named member joining a named server, with
/// the member line shown (the background comes from the preview's path).
const WELCOME: &[(&str, &str)] = &[
    ("username", "Ada Lovelace"),
    ("guildName", "Analytical Engines"),
    ("memberCount", "1843"),
];

/// The sample comment of the social cards: two lines on a post.
const COMMENT: &str =
    "The engine weaves algebraic patterns just as the loom weaves flowers and leaves.";

/// A post's sample: a named author, every counter shown.
const POST: &[(&str, &str)] = &[
    ("username", "Ada"),
    ("displayname", "Ada Lovelace"),
    ("comment", COMMENT),
    ("replies", "42"),
    ("likes", "12300"),
    ("retweets", "1337"),
];

/// A video comment's sample.
const VIDEO_COMMENT: &[(&str, &str)] = &[("username", "Ada"), ("comment", COMMENT)];

/// A rank card's sample: every line shown, the bar a third full.
const RANK: &[(&str, &str)] = &[
    ("username", "Ada"),
    ("discriminator", "1815"),
    ("cxp", "3420"),
    ("nxp", "10000"),
    ("level", "12"),
    ("rank", "3"),
];

impl TemplateKind {
    /// The arguments a preview of this template is drawn with: its declared
    /// samples, defaults for the rest.
    ///
    /// ```
    /// use canvas_render::template::{TemplateKind, Value};
    ///
    /// let args = TemplateKind::Amongus.sample_args();
    /// assert_eq!(args.get("username"), Some(&Value::Text("Ada".into())));
    /// assert_eq!(args.get("impostor"), Some(&Value::Bool(false)));
    /// ```
    pub fn sample_args(self) -> Args {
        self.sample_args_with(&[])
    }

    /// The sample arguments with some parameters fixed by the caller (a
    /// welcome card's `background`, which its path picks), each of which
    /// wins over the template's own sample.
    ///
    /// ```
    /// use canvas_render::template::{TemplateKind, Value};
    ///
    /// let args = TemplateKind::Welcome3.sample_args_with(&[("background", "sunset")]);
    /// let sunset = canvas_render::template::WELCOME_BACKGROUNDS
    ///     .iter()
    ///     .position(|b| *b == "sunset")
    ///     .unwrap();
    /// assert_eq!(args.get("background"), Some(&Value::Choice(sunset)));
    /// ```
    pub fn sample_args_with(self, fixed: &[(&str, &str)]) -> Args {
        let samples = samples(self);
        let value = |name: &str| {
            fixed
                .iter()
                .chain(samples)
                .find(|(n, _)| *n == name)
                .map(|(_, v)| *v)
        };
        match self.template().args(value) {
            Ok(args) => args,
            // A sample that fails its own parameter's check (caught by the
            // tests): the defaults, which always pass.
            Err(_) => self.template().args(|_| None).unwrap_or(Args {
                values: Vec::new(),
                given: Vec::new(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_names_a_parameter_and_passes_its_check() {
        for kind in TemplateKind::ALL {
            let t = kind.template();
            for (name, value) in samples(kind) {
                assert!(t.params.iter().any(|p| p.name == *name), "{kind:?}: {name}");
                assert!(
                    t.args(|n| (n == *name).then_some(*value)).is_ok(),
                    "{kind:?}: {name}"
                );
            }
            assert_eq!(kind.sample_args().values.len(), t.params.len(), "{kind:?}");
        }
    }
}
