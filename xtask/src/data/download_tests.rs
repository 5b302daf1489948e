//! The download run end to end against a loopback mirror in the upstream
//! layout (`<owner>/<repo>/<commit>/<path>`), serving the fixtures or
//! `../shared/data`, with corrupted files, missing files and dropped
//! connections.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::*;
use crate::repo_root;

/// How the mirror answers for one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Serve {
    /// The file, honouring `Range: bytes=N-`.
    Plain,
    /// The file with one byte changed (same length).
    Corrupt,
    /// The first request gets the full `Content-Length` but half the body,
    /// then the connection is closed; later requests as `Plain`.
    DropOnce,
    /// Every request: the connection is closed without an answer.
    DropAlways,
    /// The file, ignoring `Range` (always 200 and the whole file).
    NoRange,
}

/// The requests a mirror saw: (path, `Range` header).
type Log = Mutex<Vec<(String, Option<String>)>>;

/// A loopback HTTP/1.1 server, one connection at a time.
struct Mirror {
    addr: SocketAddr,
    log: Arc<Log>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Mirror {
    /// Serves `files` (URL path without the leading `/` → file and behaviour).
    fn start(files: HashMap<String, (PathBuf, Serve)>) -> Mirror {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log2, stop2) = (log.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut seen: HashMap<String, usize> = HashMap::new();
            for conn in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let _ = answer(conn, &files, &log2, &mut seen);
            }
        });
        Mirror {
            addr,
            log,
            stop,
            thread: Some(thread),
        }
    }

    fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn requests(&self) -> Vec<(String, Option<String>)> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Mirror {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn answer(
    mut conn: TcpStream,
    files: &HashMap<String, (PathBuf, Serve)>,
    log: &Log,
    seen: &mut HashMap<String, usize>,
) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut range = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        match line.split_once(':') {
            Some((name, value)) if name.eq_ignore_ascii_case("range") => {
                range = Some(value.trim().to_owned());
            }
            _ => {}
        }
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .trim_start_matches('/')
        .to_owned();
    log.lock().unwrap().push((path.clone(), range.clone()));
    let count = {
        let n = seen.entry(path.clone()).or_default();
        *n += 1;
        *n
    };
    let Some((file, serve)) = files.get(&path) else {
        conn.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found",
        )?;
        return Ok(());
    };
    let mut body = std::fs::read(file)?;
    let len = body.len();
    match serve {
        Serve::DropAlways => {
            conn.shutdown(Shutdown::Both)?;
            return Ok(());
        }
        Serve::DropOnce if count == 1 => {
            write!(
                conn,
                "HTTP/1.1 200 OK\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
            )?;
            conn.write_all(&body[..len / 2])?;
            conn.flush()?;
            conn.shutdown(Shutdown::Both)?;
            return Ok(());
        }
        Serve::Corrupt => body[len / 2] ^= 0x20,
        _ => {}
    }
    let from = match (
        serve,
        range.as_deref().and_then(|r| r.strip_prefix("bytes=")),
    ) {
        (Serve::NoRange, _) | (_, None) => None,
        (_, Some(r)) => r.trim_end_matches('-').parse::<usize>().ok(),
    };
    match from {
        Some(start) if start < len => {
            write!(
                conn,
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {start}-{}/{len}\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n",
                len - 1,
                len - start
            )?;
            conn.write_all(&body[start..])?;
        }
        Some(_) => write!(
            conn,
            "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len}\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n"
        )?,
        None => {
            write!(
                conn,
                "HTTP/1.1 200 OK\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
            )?;
            conn.write_all(&body)?;
        }
    }
    conn.flush()
}

const COMMIT: &str = "bbef3d99ddfa8277f726414c89b471267aef8a8e";

fn sha256_of(path: &Path) -> [u8; 32] {
    Sha256::digest(std::fs::read(path).unwrap()).into()
}

/// A pin by SHA-256 for a fixture file, as PokeAPI/pokeapi would hold it.
fn fixture_pin(name: &str) -> Pinned {
    let file = repo_root().join("fixtures/pokeapi").join(name);
    Pinned {
        repo: "PokeAPI/pokeapi".into(),
        commit: COMMIT.into(),
        path: format!("data/v2/csv/{name}"),
        local: format!("pokeapi/{name}"),
        size: std::fs::metadata(&file).unwrap().len(),
        check: Check::Sha256(sha256_of(&file)),
    }
}

fn fixture_file(pin: &Pinned) -> PathBuf {
    repo_root()
        .join("fixtures/pokeapi")
        .join(pin.local.trim_start_matches("pokeapi/"))
}

fn url_path(pin: &Pinned) -> String {
    format!("{}/{}/{}", pin.repo, pin.commit, pin.path)
}

fn options(base: String, cache: &Path) -> Options {
    Options {
        base,
        cache: cache.to_path_buf(),
        attempts: 3,
        retry_pause: Duration::ZERO,
        progress: false,
    }
}

/// Every fixture CSV pinned; `pokemon_moves.csv` by header and row count
/// (as the rebuilt upstream files are), with a git blob id it does not have.
fn fixture_pins() -> Vec<Pinned> {
    let mut names: Vec<String> = std::fs::read_dir(repo_root().join("fixtures/pokeapi"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".csv"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| {
            let mut pin = fixture_pin(n);
            if n == "pokemon_moves.csv" {
                let text = std::fs::read_to_string(fixture_file(&pin)).unwrap();
                let mut lines = text.lines();
                pin.check = Check::Csv {
                    header: lines.next().unwrap().to_owned(),
                    rows: lines.count() as u64,
                    git_blob: [0; 20],
                };
            }
            pin
        })
        .collect()
}

fn serve_all(pins: &[Pinned], special: &[(&str, Serve)]) -> Mirror {
    let files = pins
        .iter()
        .map(|p| {
            let serve = special
                .iter()
                .find(|(name, _)| p.local.ends_with(name))
                .map_or(Serve::Plain, |(_, s)| *s);
            (url_path(p), (fixture_file(p), serve))
        })
        .collect();
    Mirror::start(files)
}

#[test]
fn the_fixtures_download_through_a_mirror_build_and_a_rerun_fetches_nothing() {
    let pins = fixture_pins();
    assert!(pins.len() > 30, "{} fixture files", pins.len());
    let mirror = serve_all(&pins, &[("pokemon_species.csv", Serve::DropOnce)]);
    let cache = tempfile::tempdir().unwrap();

    let report = fetch(&pins, &options(mirror.base(), cache.path())).unwrap();
    assert_eq!(report.fetched, pins.len());
    assert_eq!(report.cached, 0);
    for pin in &pins {
        let got = std::fs::read(cache.path().join(&pin.local)).unwrap();
        assert_eq!(
            got,
            std::fs::read(fixture_file(pin)).unwrap(),
            "{}",
            pin.local
        );
        assert!(!part_path(&cache.path().join(&pin.local)).exists());
    }
    // The dropped transfer was resumed where it broke off.
    let species: Vec<Option<String>> = mirror
        .requests()
        .into_iter()
        .filter(|(p, _)| p.ends_with("/pokemon_species.csv"))
        .map(|(_, r)| r)
        .collect();
    let half = fixture_pins()
        .iter()
        .find(|p| p.local.ends_with("/pokemon_species.csv"))
        .unwrap()
        .size
        / 2;
    assert_eq!(species, [None, Some(format!("bytes={half}-"))]);

    // The cache is a source directory the build reads.
    let out = tempfile::tempdir().unwrap();
    (super::super::pokeapi::STEP.build)(&cache.path().join("pokeapi"), out.path()).unwrap();
    let db = reference_db::ReferenceDb::load(out.path()).unwrap();
    assert_eq!(db.lookup_creature("025").unwrap().slug, "pikachu");

    // A rerun checks the cache and asks the mirror for nothing.
    let before = mirror.requests().len();
    let again = fetch(&pins, &options(mirror.base(), cache.path())).unwrap();
    assert_eq!(
        again,
        Report {
            fetched: 0,
            cached: pins.len(),
            bytes: 0
        }
    );
    assert_eq!(mirror.requests().len(), before);
}

#[test]
fn a_corrupted_file_fails_its_check_and_is_not_kept() {
    let pins = vec![fixture_pin("pokemon.csv")];
    let mirror = serve_all(&pins, &[("pokemon.csv", Serve::Corrupt)]);
    let cache = tempfile::tempdir().unwrap();
    let err = fetch(&pins, &options(mirror.base(), cache.path())).unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains(&pins[0].url(&mirror.base())), "{msg}");
    assert!(msg.contains("SHA-256"), "{msg}");
    assert!(msg.contains("deleted"), "{msg}");
    let dest = cache.path().join("pokeapi/pokemon.csv");
    assert!(!dest.exists() && !part_path(&dest).exists());
}

#[test]
fn a_csv_pin_rejects_a_file_with_other_rows() {
    let mut pins = fixture_pins();
    pins.retain(|p| p.local.ends_with("pokemon_moves.csv"));
    let Check::Csv { rows, .. } = &mut pins[0].check else {
        panic!("a CSV pin")
    };
    *rows += 1;
    let mirror = serve_all(&pins, &[]);
    let cache = tempfile::tempdir().unwrap();
    let msg = format!(
        "{:#}",
        fetch(&pins, &options(mirror.base(), cache.path())).unwrap_err()
    );
    assert!(msg.contains("records after the header where"), "{msg}");
    assert!(!cache.path().join("pokeapi/pokemon_moves.csv").exists());
}

#[test]
fn a_missing_file_stops_the_download_naming_its_url_and_the_way_out() {
    // The real entry point with the committed pins, against a mirror that
    // has none of the files.
    let mirror = Mirror::start(HashMap::new());
    let cache = tempfile::tempdir().unwrap();
    let err = super::super::download_sources(&super::super::SourceArgs {
        source: None,
        mirror: Some(format!("{}/", mirror.base())),
        cache: Some(cache.path().to_path_buf()),
    })
    .unwrap_err();
    let msg = format!("{err:#}");
    let first = &parse_pins(PINS).unwrap()[0];
    assert!(msg.contains(&first.url(&mirror.base())), "{msg}");
    assert!(msg.contains("HTTP 404"), "{msg}");
    assert!(msg.contains("--source DIR"), "{msg}");
    assert!(msg.contains("--mirror URL"), "{msg}");
    // Not found is final: one request, no retries, nothing kept.
    assert_eq!(mirror.requests().len(), 1);
    assert!(!cache.path().join(&first.local).exists());
}

#[test]
fn a_connection_dropped_on_every_try_gives_up_naming_the_url() {
    let pins = vec![fixture_pin("types.csv")];
    let mirror = serve_all(&pins, &[("types.csv", Serve::DropAlways)]);
    let cache = tempfile::tempdir().unwrap();
    let msg = format!(
        "{:#}",
        fetch(&pins, &options(mirror.base(), cache.path())).unwrap_err()
    );
    assert!(msg.contains(&pins[0].url(&mirror.base())), "{msg}");
    assert!(msg.contains("gave up after 3 tries"), "{msg}");
    assert_eq!(mirror.requests().len(), 3);
}

#[test]
fn no_server_at_all_is_a_clear_error() {
    let addr = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    }; // closed again: connections are refused
    let pins = vec![fixture_pin("types.csv")];
    let cache = tempfile::tempdir().unwrap();
    let base = format!("http://{addr}");
    let msg = format!(
        "{:#}",
        fetch(&pins, &options(base.clone(), cache.path())).unwrap_err()
    );
    assert!(msg.contains(&pins[0].url(&base)), "{msg}");
    assert!(msg.contains("gave up after 3 tries"), "{msg}");
}

/// `moves.csv` pinned and served as `serve`, with `part` already in the
/// cache as the `.part` of an earlier run: (pins, the file, mirror, cache, destination).
fn with_part(
    part: impl Fn(&[u8]) -> Vec<u8>,
    serve: Serve,
) -> (Vec<Pinned>, Vec<u8>, Mirror, tempfile::TempDir, PathBuf) {
    let pins = vec![fixture_pin("moves.csv")];
    let bytes = std::fs::read(fixture_file(&pins[0])).unwrap();
    let mirror = serve_all(&pins, &[("moves.csv", serve)]);
    let cache = tempfile::tempdir().unwrap();
    let dest = cache.path().join("pokeapi/moves.csv");
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::write(part_path(&dest), part(&bytes)).unwrap();
    (pins, bytes, mirror, cache, dest)
}

#[test]
fn a_part_file_left_by_an_interrupted_run_is_resumed() {
    let (pins, bytes, mirror, cache, dest) = with_part(|b| b[..100].to_vec(), Serve::Plain);
    let report = fetch(&pins, &options(mirror.base(), cache.path())).unwrap();
    assert_eq!(report.bytes, bytes.len() as u64 - 100);
    assert_eq!(std::fs::read(&dest).unwrap(), bytes);
    assert_eq!(
        mirror.requests(),
        [(url_path(&pins[0]), Some("bytes=100-".to_owned()))]
    );
}

#[test]
fn a_full_length_part_file_that_fails_its_check_is_fetched_again() {
    let (pins, bytes, mirror, cache, dest) = with_part(|b| vec![b'x'; b.len()], Serve::Plain);
    fetch(&pins, &options(mirror.base(), cache.path())).unwrap();
    assert_eq!(std::fs::read(&dest).unwrap(), bytes);
    assert_eq!(mirror.requests(), [(url_path(&pins[0]), None)]);
}

#[test]
fn a_server_ignoring_ranges_gets_the_file_again_from_the_start() {
    // A part that does not even match the start of the file.
    let (pins, bytes, mirror, cache, dest) = with_part(|_| vec![b'x'; 100], Serve::NoRange);
    fetch(&pins, &options(mirror.base(), cache.path())).unwrap();
    assert_eq!(std::fs::read(&dest).unwrap(), bytes);
    assert_eq!(
        mirror.requests(),
        [(url_path(&pins[0]), Some("bytes=100-".to_owned()))]
    );
}

#[test]
fn a_cached_file_that_fails_its_check_is_fetched_again() {
    let pins = vec![fixture_pin("stats.csv")];
    let mirror = serve_all(&pins, &[]);
    let cache = tempfile::tempdir().unwrap();
    let dest = cache.path().join("pokeapi/stats.csv");
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::write(&dest, "id,identifier\n").unwrap();
    let report = fetch(&pins, &options(mirror.base(), cache.path())).unwrap();
    assert_eq!((report.fetched, report.cached), (1, 0));
    assert_eq!(
        std::fs::read(&dest).unwrap(),
        std::fs::read(fixture_file(&pins[0])).unwrap()
    );
}

#[test]
fn csv_checks_count_records_and_accept_the_upstream_blob() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.csv");
    // Two records, the second with a line break inside a quoted field.
    std::fs::write(&file, "a,b\n1,2\n3,\"x\ny\"\n").unwrap();
    let pin = |header: &str, rows, git_blob| Pinned {
        repo: "o/r".into(),
        commit: COMMIT.into(),
        path: "t.csv".into(),
        local: "t.csv".into(),
        size: 1,
        check: Check::Csv {
            header: header.into(),
            rows,
            git_blob,
        },
    };
    assert_eq!(
        verify(&pin("a,b", 2, [0; 20]), &file).unwrap(),
        Verdict::Good
    );
    assert!(matches!(
        verify(&pin("a,b", 3, [0; 20]), &file).unwrap(),
        Verdict::Bad(_)
    ));
    assert!(matches!(
        verify(&pin("a,c", 2, [0; 20]), &file).unwrap(),
        Verdict::Bad(_)
    ));
    // `git hash-object` of "hello\n": the upstream file itself passes
    // whatever its header and rows.
    std::fs::write(&file, "hello\n").unwrap();
    let blob = hex::<20>("ce013625030ba8dba906f756967f9e9ca394464a", "t").unwrap();
    assert_eq!(verify(&pin("a,b", 2, blob), &file).unwrap(), Verdict::Good);
    assert!(matches!(
        verify(&pin("a,b", 2, [0; 20]), &file).unwrap(),
        Verdict::Bad(_)
    ));
}

#[test]
fn the_committed_pins_parse_and_cover_every_import_only_source() {
    let pins = parse_pins(PINS).unwrap();
    let locals: std::collections::HashSet<&str> = pins.iter().map(|p| p.local.as_str()).collect();
    assert_eq!(locals.len(), pins.len(), "a local path twice");
    for needed in [
        "pokeapi/LICENSE.md",
        "pokeapi/pokemon.csv",
        "content/dog-facts-ducngn/data.json",
        "content/neutra-hecate946/facts.csv",
        "content/less-real-anime-quotes/lessreal-data.csv",
    ] {
        assert!(locals.contains(needed), "{needed} not pinned");
    }
    let csv: Vec<&str> = pins
        .iter()
        .filter(|p| matches!(p.check, Check::Csv { .. }))
        .map(|p| p.local.as_str())
        .collect();
    assert_eq!(
        csv,
        [
            "pokeapi/item_flavor_text.csv",
            "pokeapi/move_flavor_text.csv",
            "pokeapi/pokemon_moves.csv",
            "pokeapi/pokemon_species_flavor_text.csv"
        ]
    );
    assert_eq!(
        pins[0].url(UPSTREAM),
        format!("{UPSTREAM}/PokeAPI/pokeapi/{COMMIT}/LICENSE.md")
    );
}

#[test]
fn the_pins_parser_rejects_unsafe_paths_and_bad_digests() {
    let repo = format!("repo o/r {COMMIT}\n");
    let sha = "0".repeat(64);
    assert!(parse_pins(&format!("{repo}a.csv ../a.csv 1 sha256:{sha}")).is_err());
    assert!(parse_pins(&format!("{repo}a.csv /tmp/a.csv 1 sha256:{sha}")).is_err());
    assert!(parse_pins(&format!("{repo}a.csv a.csv 1 sha256:{}", &sha[1..])).is_err());
    assert!(parse_pins(&format!("a.csv a.csv 1 sha256:{sha}")).is_err());
    assert!(parse_pins(&format!("{repo}a.csv a.csv ~1 sha256:{sha}")).is_err());
    assert_eq!(
        parse_pins(&format!("{repo}a.csv x/a.csv 1 sha256:{sha}"))
            .unwrap()
            .len(),
        1
    );
}

/// The committed pins against a mirror of `../shared/data`: every file
/// downloads and passes its check (runs where the source data is present;
/// required in CI).
#[test]
fn the_committed_pins_hold_for_a_mirror_of_the_shared_source_data() {
    let shared = repo_root().join("../shared/data");
    if !shared.is_dir() {
        assert!(
            !crate::in_ci(),
            "CI must check the pins against ../shared/data"
        );
        eprintln!("../shared/data absent: the pins are not checked against the source data");
        return;
    }
    let pins = parse_pins(PINS).unwrap();
    let files = pins
        .iter()
        .map(|p| (url_path(p), (shared.join(&p.local), Serve::Plain)))
        .collect();
    let mirror = Mirror::start(files);
    let cache = tempfile::tempdir().unwrap();
    let report = fetch(&pins, &options(mirror.base(), cache.path())).unwrap();
    assert_eq!(report.fetched, pins.len());
    for pin in &pins {
        if let Check::Sha256(_) = pin.check {
            assert_eq!(
                std::fs::metadata(cache.path().join(&pin.local))
                    .unwrap()
                    .len(),
                pin.size,
                "{}",
                pin.local
            );
        }
    }
}

#[test]
fn the_data_dir_and_the_download_cache_are_git_ignored() {
    for path in [
        "data/reference-db.bin",
        "data/content/quotes/quotes.tsv",
        "target/data-sources/pokeapi/pokemon_moves.csv",
        "target/data-sources/pokeapi/pokemon_moves.csv.part",
        "target/full-data/reference-db.bin",
        "target/fixture-data/reference-db.bin",
    ] {
        let status = std::process::Command::new("git")
            .args(["check-ignore", "--quiet", "--no-index", path])
            .current_dir(repo_root())
            .status();
        match status.map(|s| s.code()) {
            Ok(Some(0)) => {}
            Ok(Some(1)) => panic!("{path} is not git-ignored"),
            other => {
                eprintln!("git check-ignore unavailable ({other:?}): ignore rules not checked");
                return;
            }
        }
    }
}

/// The newcomer's case: a fresh clone with no `../shared` beside it and the
/// upstream host reachable (a loopback mirror). The source found is the
/// download cache, and the variables `cargo xtask test` gives the tests
/// name the very folder the full data was built from, so the full-data
/// tests rebuild the same bytes from it (they once looked in `../shared`
/// and failed).
#[test]
fn a_fresh_clone_online_tests_against_the_downloaded_source() {
    let pins = fixture_pins();
    let mirror = serve_all(&pins, &[]);
    let parent = tempfile::tempdir().unwrap();
    let clone = parent.path().join("menagerie");
    std::fs::create_dir(&clone).unwrap();
    assert!(!parent.path().join("shared").exists());
    let cache = parent.path().join("menagerie/target/data-sources");
    let from = super::super::SourceArgs {
        source: None,
        mirror: Some(mirror.base()),
        cache: Some(cache.clone()),
    };
    let source = super::super::source_dir_in(&clone, &from, &pins).unwrap();
    assert_eq!(source, cache, "the download cache is the source");
    let full = clone.join("target/full-data");
    super::super::build(&source, &full).unwrap();

    let env: std::collections::HashMap<_, _> = crate::data::full_data_env(&full, &source)
        .into_iter()
        .collect();
    assert_eq!(env["MENAGERIE_FULL_DATA"], full);
    // What `full_build_is_deterministic` (reference-db) does with them.
    let named = env["MENAGERIE_FULL_DATA_SOURCE"].join("pokeapi");
    assert!(named.join("pokemon.csv").is_file(), "{}", named.display());
    let again = tempfile::tempdir().unwrap();
    (super::super::pokeapi::STEP.build)(&named, again.path()).unwrap();
    let file = reference_db::DATASET_FILE_NAME;
    assert!(
        std::fs::read(again.path().join(file)).unwrap()
            == std::fs::read(env["MENAGERIE_FULL_DATA"].join(file)).unwrap(),
        "a rebuild from the named source differs from the full data"
    );
}
