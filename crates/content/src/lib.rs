//! Content packs: facts, image links, gif links and anime quotes, validated
//! at load and drawn uniformly at random.
//!
//! * [`kind`]: the closed sets of types ([`AnimuType`], [`AnimalType`],
//!   [`FactType`], [`ImgType`]) parsed from `:type` path segments;
//! * [`ContentPack`]: the validated content and the random picks, loaded from
//!   a [`PackSource`]: the pack embedded in the binary ([`embedded_pack`]) or
//!   a directory ([`DirPack`]) such as the one `cargo xtask data` generates;
//! * [`layout`]: the file names of a pack;
//! * [`MediaLibrary`]: operator-hosted image files added to the link lists.
//!
//! The random source is a parameter (`R: rand::Rng`), so tests draw from a
//! seeded generator. This crate knows nothing of HTTP.
//!
//! ```
//! use content::{ContentPack, FactType};
//! let pack = ContentPack::load(&content::embedded_pack()).unwrap();
//! let t: FactType = "cat".parse().unwrap();
//! assert!(!pack.random_fact(t, &mut rand::rng()).is_empty());
//! assert!("unicorn".parse::<FactType>().unwrap_err().to_string().contains("cat, fox"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod embedded;
pub mod error;
pub mod kind;
pub mod layout;
pub mod media;
pub mod pack;
mod quote;
pub mod source;

pub use embedded::embedded_pack;
pub use error::{MediaError, PackError, UnknownType};
pub use kind::{AnimalType, AnimuType, FactType, Group, ImgType, LinkSlot, MediaGroup};
pub use media::{MediaFile, MediaKind, MediaLibrary, SkippedMedia};
pub use pack::{AnimalEntry, ContentPack, PackSummary, Quote, check_link};
pub use source::{DirPack, MemoryPack, PackOrigin, PackSource};

/// The name of the embedded pack's [`MemoryPack`].
pub(crate) const EMBEDDED_NAME: &str = "embedded";
