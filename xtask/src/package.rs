//! `cargo xtask package`: proves that the crates meant for other projects
//! can be published, as one of CI's steps (`cargo xtask test`).
//!
//! 1. `cargo package --no-verify` of every published crate ([`PUBLISHED`])
//!    into `target/package/*.crate`: each must stay under [`MAX_CRATE_BYTES`]
//!    (crates.io refuses more than 10 MiB; the rest is margin for growth);
//! 2. `cargo publish --dry-run` of them all together: packed again, and the
//!    packed sources of each built on their own (the verify build), the
//!    crates not yet on the registry resolved among themselves (what cargo
//!    unpacked and built of them in an earlier dry run is removed first: it
//!    would be used again, however the crates changed). The packed
//!    manifests carry no profile, so the verify build is given the
//!    workspace's dev profile ([`VERIFY_PROFILE`]): the dependencies the
//!    test step built are reused, not built again unoptimised;
//! 3. the outside consumer, `examples/render-gallery`, without canvas-render's
//!    bundled fonts: tested, then run with a font of its own (the default
//!    build is tested by `cargo test --workspace`).

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::{cargo, repo_root, run_cmd};

/// The crates published for other projects, dependencies first.
pub const PUBLISHED: &[&str] = &[
    "png-writer",
    "menagerie-fonts-latin",
    "menagerie-fonts-scripts",
    "menagerie-fonts-emoji-people",
    "menagerie-fonts-emoji-things",
    "canvas-render",
];

/// The largest `.crate` accepted: 9.5 MiB, under crates.io's 10 MiB.
pub const MAX_CRATE_BYTES: u64 = 19 << 19;

/// The workspace's `[profile.dev]` settings, as `--config` values for the
/// verify build (a test checks them against `Cargo.toml`).
const VERIFY_PROFILE: &[&str] = &[
    "profile.dev.debug=\"line-tables-only\"",
    "profile.dev.package.\"*\".opt-level=2",
    "profile.dev.package.\"*\".debug=0",
];

/// The font the gallery without bundled fonts is given.
const GALLERY_FONT: &str = "crates/menagerie-fonts-latin/fonts/NotoSerif-Italic.ttf";

/// Arguments of `cargo xtask package`.
#[derive(Debug, clap::Args)]
pub struct PackageArgs {}

/// Runs every step.
pub fn run(_: &PackageArgs) -> Result<()> {
    let start = Instant::now();
    let mut package = cargo();
    package.args(["package", "--no-verify", "--allow-dirty"]);
    for krate in PUBLISHED {
        package.args(["-p", krate]);
    }
    run_cmd(&mut package)?;
    let dir = crate::target_dir().join("package");
    let mut sizes = Vec::new();
    for krate in PUBLISHED {
        let version = workspace_version()?;
        let path = dir.join(format!("{krate}-{version}.crate"));
        let bytes = std::fs::metadata(&path)
            .with_context(|| format!("{} was not packed", path.display()))?
            .len();
        sizes.push((krate.to_string(), bytes));
    }
    eprintln!("\npackage: packed sizes (limit {MAX_CRATE_BYTES} bytes)");
    for (krate, bytes) in &sizes {
        eprintln!(
            "  {krate:<30} {bytes:>10} bytes  {:>5.2} MiB",
            *bytes as f64 / (1u64 << 20) as f64
        );
    }
    check_sizes(&sizes)?;

    forget_unpacked_sources(&cargo_home()?, &workspace_version()?)?;
    forget_registry_builds(&crate::target_dir().join("debug/.fingerprint"))?;
    let mut publish = cargo();
    publish.args(["publish", "--dry-run", "--allow-dirty"]);
    for setting in VERIFY_PROFILE {
        publish.args(["--config", setting]);
    }
    for krate in PUBLISHED {
        publish.args(["-p", krate]);
    }
    run_cmd(&mut publish)?;
    let publish_time = start.elapsed();

    let gallery_start = Instant::now();
    run_cmd(cargo().args(["test", "-p", "render-gallery", "--no-default-features"]))?;
    let out = crate::target_dir().join("render-gallery-own-font");
    run_cmd(
        cargo()
            .args(["run", "-p", "render-gallery", "--no-default-features", "--"])
            .arg(&out)
            .arg("--font")
            .arg(repo_root().join(GALLERY_FONT)),
    )?;
    eprintln!(
        "\npackage: size check and dry-run publish {:.0} s, gallery without bundled fonts {:.0} s; \
         its images are in {}",
        publish_time.as_secs_f64(),
        gallery_start.elapsed().as_secs_f64(),
        Path::new(&out).display()
    );
    Ok(())
}

/// Removes the sources cargo unpacked of the published crates in earlier
/// dry runs. The dry run resolves the published crates among themselves
/// through a local registry (`target/package/tmp-registry`), and cargo
/// unpacks what it takes from there under
/// `$CARGO_HOME/registry/src/-<hash>/<crate>-<version>`, then never unpacks a
/// crate of that version again: after a published crate's API changed, the
/// verify build of a crate using it would build against the earlier
/// sources (a fresh machine, such as CI's, has none). Only local registries
/// are looked at: a registry reached over the network has its host in that
/// directory's name, a local one a name starting with `-`.
fn forget_unpacked_sources(home: &Path, version: &str) -> Result<()> {
    let Ok(registries) = std::fs::read_dir(home.join("registry/src")) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for krate in PUBLISHED {
            let unpacked = registry.path().join(format!("{krate}-{version}"));
            if unpacked.is_dir() {
                std::fs::remove_dir_all(&unpacked)
                    .with_context(|| format!("removing {}", unpacked.display()))?;
            }
        }
    }
    Ok(())
}

/// Removes the fingerprints of the published crates built from that local
/// registry in earlier dry runs, so they are built again from the sources
/// just packed: cargo takes a registry crate of the same version as
/// unchanged and does not look at its sources. A build from a registry is
/// told apart by its dependency file, which lists no source file of the
/// crate (a build from a path lists its `src/` files).
fn forget_registry_builds(fingerprints: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(fingerprints) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(krate) = PUBLISHED.iter().find(|k| {
            name.strip_prefix(**k)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
        }) else {
            continue;
        };
        let dep_info = entry
            .path()
            .join(format!("dep-lib-{}", krate.replace('-', "_")));
        let Ok(listed) = std::fs::read(&dep_info) else {
            continue;
        };
        if !listed.windows(4).any(|w| w == b"src/") {
            std::fs::remove_dir_all(entry.path())
                .with_context(|| format!("removing {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Cargo's home: `$CARGO_HOME`, else `~/.cargo`.
fn cargo_home() -> Result<std::path::PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .context("neither CARGO_HOME nor HOME is set")
}

/// The workspace's `version` (every published crate inherits it).
fn workspace_version() -> Result<String> {
    let manifest = std::fs::read_to_string(repo_root().join("Cargo.toml"))?;
    let section = manifest
        .split("[workspace.package]")
        .nth(1)
        .context("no [workspace.package] in Cargo.toml")?;
    let line = section
        .lines()
        .find(|l| l.trim_start().starts_with("version"))
        .context("no workspace version")?;
    let version = line
        .split('"')
        .nth(1)
        .context("the workspace version is a string")?;
    Ok(version.to_owned())
}

/// Fails naming every crate over [`MAX_CRATE_BYTES`].
fn check_sizes(sizes: &[(String, u64)]) -> Result<()> {
    let over: Vec<String> = sizes
        .iter()
        .filter(|(_, bytes)| *bytes > MAX_CRATE_BYTES)
        .map(|(krate, bytes)| format!("{krate}: {bytes} bytes"))
        .collect();
    if !over.is_empty() {
        bail!(
            "packed crates over {MAX_CRATE_BYTES} bytes (9.5 MiB; crates.io refuses more than \
             10 MiB):\n{}",
            over.join("\n")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_limit_is_nine_and_a_half_mib() {
        assert_eq!(MAX_CRATE_BYTES, 9_961_472);
        let ok = [("a".to_string(), MAX_CRATE_BYTES)];
        assert!(check_sizes(&ok).is_ok());
        let big = [
            ("a".to_string(), 10),
            ("emoji".to_string(), MAX_CRATE_BYTES + 1),
        ];
        let err = check_sizes(&big).unwrap_err().to_string();
        assert!(err.contains("emoji: 9961473 bytes"), "{err}");
        assert!(!err.contains("a: 10"), "{err}");
    }

    #[test]
    fn only_published_crates_unpacked_from_local_registries_are_forgotten() {
        let home = std::env::temp_dir().join(format!("xtask-cargo-home-{}", std::process::id()));
        let src = home.join("registry/src");
        let dirs = [
            "-0123abcd/png-writer-0.1.0",
            "-0123abcd/canvas-render-0.1.0",
            "-0123abcd/png-writer-0.0.9",
            "-0123abcd/serde-1.0.0",
            "index.crates.io-1949cf8c6b5b557f/png-writer-0.1.0",
        ];
        for d in dirs {
            std::fs::create_dir_all(src.join(d).join("src")).unwrap();
        }
        forget_unpacked_sources(&home, "0.1.0").unwrap();
        let left: Vec<bool> = dirs.iter().map(|d| src.join(d).is_dir()).collect();
        std::fs::remove_dir_all(&home).unwrap();
        assert_eq!(left, [false, false, true, true, true]);
        // No registry unpacked yet: nothing to do.
        forget_unpacked_sources(&home, "0.1.0").unwrap();
    }

    #[test]
    fn only_registry_builds_of_published_crates_are_forgotten() {
        let dir = std::env::temp_dir().join(format!("xtask-fingerprints-{}", std::process::id()));
        let builds = [
            (
                "png-writer-0123456789abcdef",
                "dep-lib-png_writer",
                &b"\x01crates/png-writer/src/lib.rs"[..],
            ),
            (
                "png-writer-fedcba9876543210",
                "dep-lib-png_writer",
                &b"\x00"[..],
            ),
            (
                "menagerie-fonts-latin-00112233445566aa",
                "dep-lib-menagerie_fonts_latin",
                &b""[..],
            ),
            ("serde-0123456789abcdef", "dep-lib-serde", &b""[..]),
        ];
        for (d, file, content) in builds {
            std::fs::create_dir_all(dir.join(d)).unwrap();
            std::fs::write(dir.join(d).join(file), content).unwrap();
        }
        forget_registry_builds(&dir).unwrap();
        let left: Vec<bool> = builds
            .iter()
            .map(|(d, _, _)| dir.join(d).is_dir())
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(left, [true, false, false, true]);
    }

    #[test]
    fn the_verify_build_has_the_workspace_dev_profile() {
        let manifest = std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
        let section = |name: &str| -> Vec<String> {
            let start = manifest.find(name).unwrap_or_else(|| panic!("no {name}"));
            manifest[start + name.len()..]
                .lines()
                .take_while(|l| !l.starts_with('['))
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map(|l| l.replace(' ', ""))
                .collect()
        };
        let mut expected: Vec<String> = section("[profile.dev]\n")
            .into_iter()
            .map(|l| format!("profile.dev.{l}"))
            .chain(
                section("[profile.dev.package.\"*\"]\n")
                    .into_iter()
                    .map(|l| format!("profile.dev.package.\"*\".{l}")),
            )
            .collect();
        expected.sort();
        let mut given: Vec<String> = VERIFY_PROFILE.iter().map(|s| s.to_string()).collect();
        given.sort();
        assert_eq!(given, expected);
    }

    #[test]
    fn every_published_crate_is_a_publishable_workspace_member() {
        for krate in PUBLISHED {
            let manifest =
                std::fs::read_to_string(repo_root().join("crates").join(krate).join("Cargo.toml"))
                    .unwrap_or_else(|e| panic!("{krate}: {e}"));
            assert!(!manifest.contains("publish = false"), "{krate}");
        }
        assert_eq!(workspace_version().unwrap(), env!("CARGO_PKG_VERSION"));
    }
}
