use std::path::Path;

use content::{
    AnimalType, AnimuType, ContentPack, ImgType, LinkSlot, MediaError, MediaKind, MediaLibrary,
};

use crate::fixture_pack;

fn touch(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn file_names_are_checked() {
    assert_eq!(MediaKind::from_file_name("cat-1.PNG"), Some(MediaKind::Png));
    assert_eq!(MediaKind::from_file_name("a_b.jpeg"), Some(MediaKind::Jpeg));
    assert_eq!(MediaKind::from_file_name("x.jpg"), Some(MediaKind::Jpeg));
    assert_eq!(MediaKind::from_file_name("hug.gif"), Some(MediaKind::Gif));
    assert_eq!(MediaKind::from_file_name("w.webp"), Some(MediaKind::Webp));
    for bad in [
        "",
        ".png",
        ".hidden.png",
        "..png",
        "a..png",
        "../a.png",
        "a/b.png",
        "a\\b.png",
        "a b.png",
        "a.svg",
        "a.html",
        "a",
        "a.png.exe",
        "ä.png",
        "a%2e.png",
        "-a.png",
    ] {
        assert_eq!(MediaKind::from_file_name(bad), None, "{bad:?}");
    }
    assert_eq!(
        MediaKind::from_file_name(&format!("{}.png", "a".repeat(200))),
        None
    );
    assert_eq!(MediaKind::Webp.mime(), "image/webp");
}

#[test]
fn scan_lists_only_safe_files_of_known_types() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    touch(root, "img/cat/b.png", b"png");
    touch(root, "img/cat/a.jpg", b"jpg");
    touch(root, "img/cat/notes.txt", b"no");
    touch(root, "img/cat/.hidden.png", b"no");
    touch(root, "img/cat/sub/c.png", b"no");
    touch(root, "img/unicorn/u.png", b"no");
    touch(root, "facts/cat/f.png", b"no");
    touch(root, "animu/face-palm/fp.gif", b"gif");
    touch(root, "animal/red_panda/r.webp", b"webp");
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc/passwd", root.join("img/cat/link.png")).unwrap();

    let lib = MediaLibrary::scan(root, "https://cdn.example.org/menagerie/").unwrap();
    assert_eq!(lib.len(), 4);
    assert_eq!(lib.base_url(), "https://cdn.example.org/menagerie");
    let cat = LinkSlot::Img(ImgType::Cat);
    assert_eq!(
        lib.links(cat).collect::<Vec<_>>(),
        [
            "https://cdn.example.org/menagerie/media/img/cat/a.jpg",
            "https://cdn.example.org/menagerie/media/img/cat/b.png"
        ]
    );
    let file = lib.get(cat, "b.png").unwrap();
    assert_eq!((file.kind, file.len), (MediaKind::Png, 3));
    assert_eq!(std::fs::read(&file.path).unwrap(), b"png");
    for missing in [
        "notes.txt",
        ".hidden.png",
        "link.png",
        "../cat/b.png",
        "sub",
        "B.png",
    ] {
        assert!(lib.get(cat, missing).is_none(), "{missing}");
    }
    assert!(lib.get(LinkSlot::Img(ImgType::Dog), "b.png").is_none());
    assert!(
        lib.get(LinkSlot::Animu(AnimuType::FacePalm), "fp.gif")
            .is_some()
    );
    assert!(
        lib.get(LinkSlot::Animal(AnimalType::RedPanda), "r.webp")
            .is_some()
    );
    let skipped: Vec<String> = lib
        .skipped()
        .iter()
        .map(|s| s.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for name in ["notes.txt", ".hidden.png", "sub"] {
        assert!(
            skipped.contains(&name.to_owned()),
            "{name} not reported: {skipped:?}"
        );
    }
    #[cfg(unix)]
    assert!(skipped.contains(&"link.png".to_owned()));
}

#[test]
fn media_links_join_their_type() {
    let dir = tempfile::tempdir().unwrap();
    touch(dir.path(), "animu/hug/mine.gif", b"gif");
    let lib = MediaLibrary::scan(dir.path(), "http://127.0.0.1:8080").unwrap();
    let mut pack: ContentPack = fixture_pack();
    let slot = LinkSlot::Animu(AnimuType::Hug);
    let before = pack.links(slot).len();
    pack.add_media(&lib);
    pack.add_media(&lib);
    assert_eq!(pack.links(slot).len(), before + 1);
    assert_eq!(
        &*pack.links(slot)[before],
        "http://127.0.0.1:8080/media/animu/hug/mine.gif"
    );
    assert_eq!(pack.summary().links, fixture_pack().summary().links + 1);
}

#[test]
fn bad_settings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for url in [
        "ftp://x.org",
        "/media",
        "https://x.org/?a=1",
        "https://u:p@x.org",
        "not a url",
    ] {
        let err = MediaLibrary::scan(dir.path(), url).unwrap_err();
        assert!(
            matches!(err, MediaError::BadPublicUrl { .. }),
            "{url}: {err}"
        );
    }
    let err = MediaLibrary::scan(&dir.path().join("absent"), "https://x.org").unwrap_err();
    assert!(err.to_string().starts_with("media dir "), "{err}");
    touch(dir.path(), "file", b"");
    let err = MediaLibrary::scan(&dir.path().join("file"), "https://x.org").unwrap_err();
    assert!(err.to_string().ends_with("not a directory"), "{err}");
}
