//! The `menagerie` binary: read settings, start tracing, run.

use clap::Parser;
use server::{Settings, run, telemetry};

/// mimalloc keeps freed pages for reuse: the render threads allocate and
/// free megabyte-sized image buffers for every request, which the system
/// allocator hands back to the kernel and faults in again.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let settings = Settings::parse();
    telemetry::init(&settings);
    run(settings).await
}
