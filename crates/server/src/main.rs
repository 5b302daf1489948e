//! The `menagerie` binary: read settings, start tracing, run.

use clap::Parser;
use server::{Settings, run, telemetry};

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let settings = Settings::parse();
    telemetry::init(&settings);
    run(settings).await
}
