//! Integration tests of the content crate: type parsing, pack loading and
//! validation, random draws, self-hosted media.

mod draws;
mod kinds;
mod load;
mod media;

use std::path::PathBuf;

use content::{ContentPack, DirPack, MemoryPack, PackSource};

/// `fixtures/content`, the hand-made test pack.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/content")
}

/// The fixture pack copied into memory, to be altered by a test.
pub fn fixture_memory() -> MemoryPack {
    let dir = DirPack::new(fixture_dir());
    let mut pack = MemoryPack::new("fixture");
    for file in content::layout::all_files() {
        if let Some(text) = dir.read(&file).unwrap() {
            pack.insert(file, text.into_owned());
        }
    }
    pack
}

/// The fixture pack, loaded.
pub fn fixture_pack() -> ContentPack {
    ContentPack::load(&DirPack::new(fixture_dir())).expect("fixture pack loads")
}
