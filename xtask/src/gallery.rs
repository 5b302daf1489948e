//! `cargo xtask gallery`: one contact sheet of every preview (the server's
//! `contact_sheet` example, release build), written to
//! `<target>/gallery/contact-sheet.png` (or `--out`): a reviewer sees every
//! card, effect and animation at once. Not committed: it is rebuilt from
//! the code whenever it is wanted.

use std::path::PathBuf;

use anyhow::Result;

use crate::{cargo, run_cmd, target_dir};

/// Arguments of `cargo xtask gallery`.
#[derive(Debug, clap::Args)]
pub struct GalleryArgs {
    /// Where to write the sheet (PNG); default `<target>/gallery/contact-sheet.png`.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Builds and runs the example that draws the sheet.
pub fn run(args: &GalleryArgs) -> Result<()> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| target_dir().join("gallery").join("contact-sheet.png"));
    run_cmd(
        cargo()
            .args([
                "run",
                "--release",
                "-p",
                "server",
                "--example",
                "contact_sheet",
                "--",
            ])
            .arg(&out),
    )
}
