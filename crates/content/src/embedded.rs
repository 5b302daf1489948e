//! The default pack, compiled into the binary from `assets/content/`, so the
//! service always answers even without a generated data directory.
//!
//! Every file of [`crate::layout`] that the pack has is listed here; a test
//! checks that no required file is missing from the list.

use crate::source::MemoryPack;

macro_rules! embed {
    ($($file:literal),+ $(,)?) => {
        &[$(($file, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/content/", $file)))),+]
    };
}

/// `(pack-relative name, text)` of every embedded file.
static FILES: &[(&str, &str)] = embed![
    "facts/cat.txt",
    "facts/fox.txt",
    "facts/birb.txt",
    "facts/panda.txt",
    "facts/koala.txt",
    "facts/kangaroo.txt",
    "facts/racoon.txt",
    "facts/giraffe.txt",
    "facts/whale.txt",
    "facts/elephant.txt",
    "facts/dog.txt",
    "facts/bird.txt",
    "facts/red_panda.txt",
    "more-facts/cat.txt",
    "links/img/fox.txt",
    "links/img/cat.txt",
    "links/img/birb.txt",
    "links/img/panda.txt",
    "links/img/red_panda.txt",
    "links/img/mouse_creature.txt",
    "links/img/racoon.txt",
    "links/img/koala.txt",
    "links/img/kangaroo.txt",
    "links/img/whale.txt",
    "links/img/dog.txt",
    "links/img/bird.txt",
    "links/animal/fox.txt",
    "links/animal/cat.txt",
    "links/animal/birb.txt",
    "links/animal/panda.txt",
    "links/animal/red_panda.txt",
    "links/animal/racoon.txt",
    "links/animal/koala.txt",
    "links/animal/kangaroo.txt",
    "links/animal/whale.txt",
    "links/animal/dog.txt",
    "links/animal/bird.txt",
    "links/animu/nom.txt",
    "links/animu/poke.txt",
    "links/animu/cry.txt",
    "links/animu/kiss.txt",
    "links/animu/pat.txt",
    "links/animu/hug.txt",
    "links/animu/wink.txt",
    "links/animu/face-palm.txt",
    "quotes/quotes.tsv",
];

/// The embedded default pack, ready for [`crate::ContentPack::load`].
/// No text is copied: the pack borrows the binary's static data.
pub fn embedded_pack() -> MemoryPack {
    let mut pack = MemoryPack::new(crate::EMBEDDED_NAME);
    for &(file, text) in FILES {
        pack.insert(file, text);
    }
    pack
}

#[cfg(test)]
mod tests {
    use super::FILES;
    use crate::{FactType, LinkSlot, layout};

    #[test]
    fn every_required_file_is_embedded() {
        let names: Vec<&str> = FILES.iter().map(|(f, _)| *f).collect();
        let mut required: Vec<String> = FactType::ALL.iter().map(|&t| layout::facts(t)).collect();
        required.extend(LinkSlot::all().map(layout::links));
        required.push(layout::QUOTES.to_owned());
        for file in required {
            assert!(names.contains(&file.as_str()), "{file} is not embedded");
        }
    }
}
