//! The closed sets of content types, one enum per URL group.
//!
//! A `:type` path segment is parsed into one of these enums before anything
//! else happens; an unknown segment becomes [`UnknownType`] and is never used
//! to build a file path. `ALL` lists the variants in the order of the
//! service specification, which is the order of the listing endpoints.
//!
//! A few types also answer to an alias that clients use (`raccoon` for
//! `racoon`): `parse` accepts it, `ALIASES` lists it, and it never appears in
//! `NAMES`, `ALL` or `as_str`, so listings and responses keep the
//! specification's spelling.

use std::fmt;
use std::str::FromStr;

use crate::quote::excerpt;

/// The URL groups that have typed content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// `/animu/:type`: anime reaction gif links.
    Animu,
    /// `/animal/:type`: an animal picture and a fact.
    Animal,
    /// `/facts/:type`: a fact.
    Facts,
    /// `/img/:type`: a picture link.
    Img,
}

impl Group {
    /// The group's path segment (`animu`, `animal`, `facts`, `img`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Animu => "animu",
            Self::Animal => "animal",
            Self::Facts => "facts",
            Self::Img => "img",
        }
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! content_kind {
    (
        $(#[$meta:meta])*
        $name:ident in $group:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $slug:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every variant, in the specification's order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];
            /// The path segments of [`Self::ALL`], same order.
            pub const NAMES: &'static [&'static str] = &[$($slug),+];
            /// Other path segments accepted by [`Self::parse`] (never listed),
            /// each with the type it stands for.
            pub const ALIASES: &'static [(&'static str, Self)] = &[$($(($alias, Self::$variant),)*)+];
            /// How many variants there are.
            pub const COUNT: usize = Self::ALL.len();
            /// The URL group this type belongs to.
            pub const GROUP: Group = Group::$group;

            /// The path segment naming this type.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $slug),+
                }
            }

            /// Position in [`Self::ALL`]; dense, for table indexing.
            pub const fn index(self) -> usize {
                self as usize
            }

            /// Parses a path segment (a name or an alias); exact,
            /// case-sensitive match only.
            pub fn parse(segment: &str) -> Result<Self, UnknownType> {
                match segment {
                    $($slug $(| $alias)* => Ok(Self::$variant),)+
                    _ => Err(UnknownType::new(Group::$group, segment, Self::NAMES)),
                }
            }
        }

        impl FromStr for $name {
            type Err = UnknownType;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

content_kind! {
    /// `/animu/:type`: a reaction gif category. (`/animu/quote` is its own
    /// endpoint, not a type, and is not listed by `/animu`.)
    AnimuType in Animu {
        /// `nom`
        Nom => "nom",
        /// `poke`
        Poke => "poke",
        /// `cry`
        Cry => "cry",
        /// `kiss`
        Kiss => "kiss",
        /// `pat`
        Pat => "pat",
        /// `hug`
        Hug => "hug",
        /// `wink`
        Wink => "wink",
        /// `face-palm`
        FacePalm => "face-palm",
    }
}

content_kind! {
    /// `/animal/:type`: an animal with pictures and facts.
    AnimalType in Animal {
        /// `fox`
        Fox => "fox",
        /// `cat`
        Cat => "cat",
        /// `birb`
        Birb => "birb",
        /// `panda`
        Panda => "panda",
        /// `red_panda`
        RedPanda => "red_panda",
        /// `racoon` (alias `raccoon`)
        Racoon => "racoon" | "raccoon",
        /// `koala`
        Koala => "koala",
        /// `kangaroo`
        Kangaroo => "kangaroo",
        /// `whale`
        Whale => "whale",
        /// `dog`
        Dog => "dog",
        /// `bird`
        Bird => "bird",
    }
}

content_kind! {
    /// `/facts/:type`: an animal with facts.
    FactType in Facts {
        /// `cat`
        Cat => "cat",
        /// `fox`
        Fox => "fox",
        /// `birb`
        Birb => "birb",
        /// `panda`
        Panda => "panda",
        /// `koala`
        Koala => "koala",
        /// `kangaroo`
        Kangaroo => "kangaroo",
        /// `racoon` (alias `raccoon`)
        Racoon => "racoon" | "raccoon",
        /// `giraffe`
        Giraffe => "giraffe",
        /// `whale`
        Whale => "whale",
        /// `elephant`
        Elephant => "elephant",
        /// `dog`
        Dog => "dog",
        /// `bird`
        Bird => "bird",
        /// `red_panda`
        RedPanda => "red_panda",
    }
}

content_kind! {
    /// `/img/:type`: a picture category (`mouse_creature` is the mascot).
    ImgType in Img {
        /// `fox`
        Fox => "fox",
        /// `cat`
        Cat => "cat",
        /// `birb`
        Birb => "birb",
        /// `panda`
        Panda => "panda",
        /// `red_panda`
        RedPanda => "red_panda",
        /// `mouse_creature`: the mascot.
        MouseCreature => "mouse_creature",
        /// `racoon` (alias `raccoon`)
        Racoon => "racoon" | "raccoon",
        /// `koala`
        Koala => "koala",
        /// `kangaroo`
        Kangaroo => "kangaroo",
        /// `whale`
        Whale => "whale",
        /// `dog`
        Dog => "dog",
        /// `bird`
        Bird => "bird",
    }
}

impl AnimalType {
    /// The fact type whose facts accompany this animal's pictures.
    pub const fn fact_type(self) -> FactType {
        match self {
            Self::Fox => FactType::Fox,
            Self::Cat => FactType::Cat,
            Self::Birb => FactType::Birb,
            Self::Panda => FactType::Panda,
            Self::RedPanda => FactType::RedPanda,
            Self::Racoon => FactType::Racoon,
            Self::Koala => FactType::Koala,
            Self::Kangaroo => FactType::Kangaroo,
            Self::Whale => FactType::Whale,
            Self::Dog => FactType::Dog,
            Self::Bird => FactType::Bird,
        }
    }
}

/// A group that can hold self-hosted media files (`/media/<group>/...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MediaGroup {
    /// `img`
    Img,
    /// `animal`
    Animal,
    /// `animu`
    Animu,
}

impl MediaGroup {
    /// Every media group.
    pub const ALL: &'static [Self] = &[Self::Img, Self::Animal, Self::Animu];
    /// Path segments of [`Self::ALL`].
    pub const NAMES: &'static [&'static str] = &["img", "animal", "animu"];

    /// The group's path segment.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Img => "img",
            Self::Animal => "animal",
            Self::Animu => "animu",
        }
    }

    /// The path segments of the types in this group, specification order.
    pub const fn type_names(self) -> &'static [&'static str] {
        match self {
            Self::Img => ImgType::NAMES,
            Self::Animal => AnimalType::NAMES,
            Self::Animu => AnimuType::NAMES,
        }
    }

    /// Parses a path segment.
    pub fn parse(segment: &str) -> Result<Self, UnknownType> {
        match segment {
            "img" => Ok(Self::Img),
            "animal" => Ok(Self::Animal),
            "animu" => Ok(Self::Animu),
            _ => Err(UnknownType::media_group(segment)),
        }
    }
}

/// One link list of the pack: a group and a type of that group.
///
/// Used to address the link tables and the self-hosted media folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkSlot {
    /// `/img/:type` pictures.
    Img(ImgType),
    /// `/animal/:type` pictures.
    Animal(AnimalType),
    /// `/animu/:type` gifs.
    Animu(AnimuType),
}

impl LinkSlot {
    /// Parses `<group>/<type>` path segments (as in `/media/<group>/<type>/...`).
    pub fn parse(group: &str, type_segment: &str) -> Result<Self, UnknownType> {
        Ok(match MediaGroup::parse(group)? {
            MediaGroup::Img => Self::Img(ImgType::parse(type_segment)?),
            MediaGroup::Animal => Self::Animal(AnimalType::parse(type_segment)?),
            MediaGroup::Animu => Self::Animu(AnimuType::parse(type_segment)?),
        })
    }

    /// Every slot: all img types, then all animal types, then all animu types.
    pub fn all() -> impl Iterator<Item = Self> {
        ImgType::ALL
            .iter()
            .map(|&t| Self::Img(t))
            .chain(AnimalType::ALL.iter().map(|&t| Self::Animal(t)))
            .chain(AnimuType::ALL.iter().map(|&t| Self::Animu(t)))
    }

    /// The slot's group.
    pub const fn group(self) -> MediaGroup {
        match self {
            Self::Img(_) => MediaGroup::Img,
            Self::Animal(_) => MediaGroup::Animal,
            Self::Animu(_) => MediaGroup::Animu,
        }
    }

    /// The slot's type segment.
    pub const fn type_name(self) -> &'static str {
        match self {
            Self::Img(t) => t.as_str(),
            Self::Animal(t) => t.as_str(),
            Self::Animu(t) => t.as_str(),
        }
    }
}

impl fmt::Display for LinkSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.group().as_str(), self.type_name())
    }
}

/// A path segment that names no known type of its group.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {given:?}; valid {what}s: {}", valid.join(", "))]
pub struct UnknownType {
    what: &'static str,
    group: Option<Group>,
    given: String,
    valid: &'static [&'static str],
}

impl UnknownType {
    pub(crate) fn new(group: Group, given: &str, valid: &'static [&'static str]) -> Self {
        let what = match group {
            Group::Animu => "animu type",
            Group::Animal => "animal type",
            Group::Facts => "fact type",
            Group::Img => "img type",
        };
        Self {
            what,
            group: Some(group),
            given: excerpt(given),
            valid,
        }
    }

    pub(crate) fn media_group(given: &str) -> Self {
        Self {
            what: "media group",
            group: None,
            given: excerpt(given),
            valid: MediaGroup::NAMES,
        }
    }

    /// The group whose type was unknown (`None` for an unknown media group).
    pub fn group(&self) -> Option<Group> {
        self.group
    }

    /// The valid segments, specification order.
    pub fn valid(&self) -> &'static [&'static str] {
        self.valid
    }

    /// The segment that was given (shortened if long).
    pub fn given(&self) -> &str {
        &self.given
    }
}
