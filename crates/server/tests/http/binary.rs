//! The `menagerie` binary itself: it runs with glibc's memory settings
//! (two arenas, buffers of 1 MiB or more mapped alone) unless the operator
//! set `MALLOC_ARENA_MAX`.

#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts the binary on a free loopback port with an empty data directory,
/// `env` added and `MALLOC_*` removed otherwise, and waits until it
/// listens.
fn start(env: &[(&str, &str)]) -> (Child, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_menagerie"));
    cmd.args(["--bind", "127.0.0.1:0", "--log-level", "info", "--data-dir"])
        .arg(data.path())
        .env_remove("MALLOC_ARENA_MAX")
        .env_remove("MALLOC_MMAP_THRESHOLD_")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    // The log goes to stdout or stderr depending on the settings: watch both.
    let (tx, rx) = std::sync::mpsc::channel();
    for pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                if line.contains("listening") {
                    let _ = tx.send(());
                }
            }
        });
    }
    if rx.recv_timeout(std::time::Duration::from_secs(60)).is_err() {
        let _ = child.kill();
        panic!("the server did not start listening");
    }
    (child, data)
}

/// The environment of the running process, as `NAME=value` strings.
fn environment(child: &Child) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{}/environ", child.id())).unwrap();
    raw.split(|b| *b == 0)
        .filter(|v| !v.is_empty())
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .collect()
}

#[test]
fn the_server_runs_with_the_glibc_memory_settings() {
    let (mut child, _data) = start(&[]);
    let env = environment(&child);
    let _ = child.kill();
    let _ = child.wait();
    assert!(env.contains(&"MALLOC_ARENA_MAX=2".to_owned()), "{env:?}");
    assert!(
        env.contains(&"MALLOC_MMAP_THRESHOLD_=1048576".to_owned()),
        "{env:?}"
    );
}

#[test]
fn an_operators_malloc_arena_max_wins() {
    let (mut child, _data) = start(&[("MALLOC_ARENA_MAX", "4")]);
    let env = environment(&child);
    let _ = child.kill();
    let _ = child.wait();
    assert!(env.contains(&"MALLOC_ARENA_MAX=4".to_owned()), "{env:?}");
    assert!(
        !env.iter().any(|v| v.starts_with("MALLOC_MMAP_THRESHOLD_=")),
        "{env:?}"
    );
}
