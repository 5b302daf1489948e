//! [`ContentPack`]: the validated content, and the uniform random picks.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use rand::Rng;

use crate::error::PackError;
use crate::kind::{AnimalType, AnimuType, FactType, Group, ImgType, LinkSlot};
use crate::layout;
use crate::media::MediaLibrary;
use crate::quote::excerpt;
use crate::source::{PackOrigin, PackSource};

/// The longest link the loader accepts, in bytes.
pub const MAX_LINK_BYTES: usize = 2048;

/// An anime quote. Text is stored in one allocation per quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    id: u32,
    /// `anime \t name \t quote`
    text: Box<str>,
    anime_end: u32,
    name_end: u32,
}

impl Quote {
    /// Builds a quote; no field may contain a tab or a line break.
    pub fn new(id: u32, anime: &str, name: &str, quote: &str) -> Self {
        let text = format!("{anime}\t{name}\t{quote}").into_boxed_str();
        Self::from_parts(id, text, anime.len(), anime.len() + 1 + name.len())
    }

    fn from_parts(id: u32, text: Box<str>, anime_end: usize, name_end: usize) -> Self {
        let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Self {
            id,
            text,
            anime_end: to_u32(anime_end),
            name_end: to_u32(name_end),
        }
    }

    /// The quote's id, unique within its pack.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The anime's title.
    pub fn anime(&self) -> &str {
        &self.text[..self.anime_end as usize]
    }

    /// The speaker.
    pub fn name(&self) -> &str {
        &self.text[self.anime_end as usize + 1..self.name_end as usize]
    }

    /// The quote itself.
    pub fn quote(&self) -> &str {
        &self.text[self.name_end as usize + 1..]
    }
}

/// One `/animal/:type` answer: a picture and a fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimalEntry<'a> {
    /// URL of a picture of the animal.
    pub image: &'a str,
    /// A fact about the animal.
    pub fact: &'a str,
}

type List = Vec<Box<str>>;

/// A validity check applied to each entry of a file (links).
type EntryCheck = fn(&str) -> Result<(), String>;

/// All content, validated: every type has at least one entry, every link is
/// an absolute http(s) URL, no entry repeats within a type, quote ids are
/// unique. Immutable once built except for [`ContentPack::add_media`].
#[derive(Debug, Clone)]
pub struct ContentPack {
    origin: PackOrigin,
    facts: [List; FactType::COUNT],
    img: [List; ImgType::COUNT],
    animal: [List; AnimalType::COUNT],
    animu: [List; AnimuType::COUNT],
    quotes: Vec<Quote>,
}

/// Entry counts of a pack, for logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackSummary {
    /// Facts over all fact types.
    pub facts: usize,
    /// Links over all img, animal and animu types.
    pub links: usize,
    /// Quotes.
    pub quotes: usize,
}

impl ContentPack {
    /// Loads and validates the pack held by `source`.
    pub fn load(source: &dyn PackSource) -> Result<Self, PackError> {
        let pack_name = source.origin().to_string();
        let loader = Loader {
            source,
            pack: &pack_name,
        };

        let mut facts: [List; FactType::COUNT] = std::array::from_fn(|_| Vec::new());
        for &t in FactType::ALL {
            let file = layout::facts(t);
            let mut seen = HashMap::new();
            let list = &mut facts[t.index()];
            loader.read_lines(&file, true, list, &mut seen, None)?;
            let more = layout::more_facts(t);
            loader.read_lines(&more, false, list, &mut seen, None)?;
            if list.is_empty() {
                return Err(loader.empty(file, Group::Facts, t.as_str()));
            }
        }

        let mut img: [List; ImgType::COUNT] = std::array::from_fn(|_| Vec::new());
        let mut animal: [List; AnimalType::COUNT] = std::array::from_fn(|_| Vec::new());
        let mut animu: [List; AnimuType::COUNT] = std::array::from_fn(|_| Vec::new());
        for slot in LinkSlot::all() {
            let (list, group) = match slot {
                LinkSlot::Img(t) => (&mut img[t.index()], Group::Img),
                LinkSlot::Animal(t) => (&mut animal[t.index()], Group::Animal),
                LinkSlot::Animu(t) => (&mut animu[t.index()], Group::Animu),
            };
            let file = layout::links(slot);
            loader.read_lines(&file, true, list, &mut HashMap::new(), Some(check_link))?;
            if list.is_empty() {
                return Err(loader.empty(file, group, slot.type_name()));
            }
        }

        let quotes = loader.read_quotes()?;
        Ok(Self {
            origin: source.origin(),
            facts,
            img,
            animal,
            animu,
            quotes,
        })
    }

    /// Where the pack was loaded from.
    pub fn origin(&self) -> &PackOrigin {
        &self.origin
    }

    /// Entry counts.
    pub fn summary(&self) -> PackSummary {
        let count = |lists: &[List]| lists.iter().map(Vec::len).sum::<usize>();
        PackSummary {
            facts: count(&self.facts),
            links: count(&self.img) + count(&self.animal) + count(&self.animu),
            quotes: self.quotes.len(),
        }
    }

    /// Appends the self-hosted files of `media` to their types' link lists
    /// (skipping links already present).
    pub fn add_media(&mut self, media: &MediaLibrary) {
        for slot in LinkSlot::all() {
            let list = self.links_mut(slot);
            for link in media.links(slot) {
                if !list.iter().any(|l| **l == *link) {
                    list.push(link.into_boxed_str());
                }
            }
        }
    }

    fn links_mut(&mut self, slot: LinkSlot) -> &mut List {
        match slot {
            LinkSlot::Img(t) => &mut self.img[t.index()],
            LinkSlot::Animal(t) => &mut self.animal[t.index()],
            LinkSlot::Animu(t) => &mut self.animu[t.index()],
        }
    }

    /// Every fact of `t`, in pack order.
    pub fn facts(&self, t: FactType) -> &[Box<str>] {
        &self.facts[t.index()]
    }

    /// Every link of `slot`, in pack order (self-hosted media last).
    pub fn links(&self, slot: LinkSlot) -> &[Box<str>] {
        match slot {
            LinkSlot::Img(t) => &self.img[t.index()],
            LinkSlot::Animal(t) => &self.animal[t.index()],
            LinkSlot::Animu(t) => &self.animu[t.index()],
        }
    }

    /// Every quote, in pack order.
    pub fn quotes(&self) -> &[Quote] {
        &self.quotes
    }

    /// A fact about `t`, drawn uniformly.
    pub fn random_fact<R: Rng + ?Sized>(&self, t: FactType, rng: &mut R) -> &str {
        &self.facts(t)[self.random_fact_index(t, rng)]
    }

    /// The position in [`facts`](Self::facts)`(t)` of a fact drawn
    /// uniformly: for callers that keep something per fact (the server
    /// keeps each fact's response body).
    pub fn random_fact_index<R: Rng + ?Sized>(&self, t: FactType, rng: &mut R) -> usize {
        rng.random_range(0..self.facts(t).len())
    }

    /// A picture link for `/img/t`, drawn uniformly.
    pub fn random_img<R: Rng + ?Sized>(&self, t: ImgType, rng: &mut R) -> &str {
        pick(self.links(LinkSlot::Img(t)), rng)
    }

    /// A gif link for `/animu/t`, drawn uniformly.
    pub fn random_animu<R: Rng + ?Sized>(&self, t: AnimuType, rng: &mut R) -> &str {
        pick(self.links(LinkSlot::Animu(t)), rng)
    }

    /// A picture and a fact for `/animal/t`, each drawn uniformly and
    /// independently.
    pub fn random_animal<R: Rng + ?Sized>(&self, t: AnimalType, rng: &mut R) -> AnimalEntry<'_> {
        let image = pick(self.links(LinkSlot::Animal(t)), rng);
        let fact = pick(self.facts(t.fact_type()), rng);
        AnimalEntry { image, fact }
    }

    /// A quote, drawn uniformly.
    pub fn random_quote<R: Rng + ?Sized>(&self, rng: &mut R) -> &Quote {
        &self.quotes[rng.random_range(0..self.quotes.len())]
    }
}

/// Uniform pick; the lists are never empty (checked at load).
fn pick<'a, R: Rng + ?Sized>(list: &'a [Box<str>], rng: &mut R) -> &'a str {
    &list[rng.random_range(0..list.len())]
}

/// Checks that `link` is an absolute http(s) URL with a host, no
/// credentials and no whitespace, at most [`MAX_LINK_BYTES`] long.
pub fn check_link(link: &str) -> Result<(), String> {
    if link.len() > MAX_LINK_BYTES {
        return Err(format!("longer than {MAX_LINK_BYTES} bytes"));
    }
    if link.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("contains whitespace or control characters".to_owned());
    }
    let url = url::Url::parse(link).map_err(|e| format!("not an absolute URL ({e})"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("scheme {:?} is not http or https", url.scheme()));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("has no host".to_owned());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("carries credentials".to_owned());
    }
    Ok(())
}

struct Loader<'a> {
    source: &'a dyn PackSource,
    pack: &'a str,
}

impl Loader<'_> {
    fn read(
        &self,
        file: &str,
        required: bool,
    ) -> Result<Option<std::borrow::Cow<'_, str>>, PackError> {
        match self.source.read(file)? {
            Some(text) => Ok(Some(text)),
            None if required => Err(PackError::MissingFile {
                pack: self.pack.to_owned(),
                file: file.to_owned(),
            }),
            None => Ok(None),
        }
    }

    /// Appends the entries of `file` to `list`, refusing repeats (tracked in
    /// `seen` across calls) and, with `check`, invalid entries.
    fn read_lines(
        &self,
        file: &str,
        required: bool,
        list: &mut List,
        seen: &mut HashMap<Box<str>, usize>,
        check: Option<EntryCheck>,
    ) -> Result<(), PackError> {
        let Some(text) = self.read(file, required)? else {
            return Ok(());
        };
        for (index, raw) in text.lines().enumerate() {
            let entry = raw.trim();
            if entry.is_empty() || entry.starts_with('#') {
                continue;
            }
            let line = index + 1;
            if let Some(check) = check {
                check(entry).map_err(|reason| PackError::InvalidLink {
                    pack: self.pack.to_owned(),
                    file: file.to_owned(),
                    line,
                    entry: excerpt(entry),
                    reason,
                })?;
            }
            match seen.entry(entry.into()) {
                Entry::Occupied(_) => {
                    return Err(PackError::DuplicateEntry {
                        pack: self.pack.to_owned(),
                        file: file.to_owned(),
                        line,
                        entry: excerpt(entry),
                    });
                }
                Entry::Vacant(v) => {
                    v.insert(line);
                }
            }
            list.push(entry.into());
        }
        Ok(())
    }

    fn empty(&self, file: String, group: Group, type_name: &'static str) -> PackError {
        PackError::EmptyType {
            pack: self.pack.to_owned(),
            file,
            group,
            type_name,
        }
    }

    fn read_quotes(&self) -> Result<Vec<Quote>, PackError> {
        let file = layout::QUOTES;
        let text = self.read(file, true)?.unwrap_or_default();
        let mut quotes = Vec::with_capacity(text.len() / 160);
        let mut ids: HashMap<u32, usize> = HashMap::with_capacity(text.len() / 160);
        for (index, raw) in text.lines().enumerate() {
            if raw.trim().is_empty() || raw.starts_with('#') {
                continue;
            }
            let line = index + 1;
            let malformed = |reason| PackError::MalformedQuote {
                pack: self.pack.to_owned(),
                file: file.to_owned(),
                line,
                entry: excerpt(raw),
                reason,
            };
            let (id, rest) = raw
                .split_once('\t')
                .ok_or_else(|| malformed("expected 4 tab-separated fields"))?;
            let id: u32 = id
                .parse()
                .map_err(|_| malformed("id is not a non-negative integer"))?;
            let mut fields = rest.splitn(3, '\t');
            let (Some(anime), Some(name), Some(quote)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(malformed("expected 4 tab-separated fields"));
            };
            if quote.contains('\t') {
                return Err(malformed("more than 4 tab-separated fields"));
            }
            if [anime, name, quote].iter().any(|f| f.trim().is_empty()) {
                return Err(malformed("empty field"));
            }
            match ids.entry(id) {
                Entry::Occupied(first) => {
                    return Err(PackError::DuplicateQuoteId {
                        pack: self.pack.to_owned(),
                        file: file.to_owned(),
                        line,
                        id,
                        first_line: *first.get(),
                    });
                }
                Entry::Vacant(v) => {
                    v.insert(line);
                }
            }
            let quote_text: Box<str> = rest.trim_end_matches('\r').into();
            quotes.push(Quote::from_parts(
                id,
                quote_text,
                anime.len(),
                anime.len() + 1 + name.len(),
            ));
        }
        if quotes.is_empty() {
            return Err(PackError::EmptyType {
                pack: self.pack.to_owned(),
                file: file.to_owned(),
                group: Group::Animu,
                type_name: "quote",
            });
        }
        Ok(quotes)
    }
}
