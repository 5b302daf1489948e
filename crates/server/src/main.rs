//! The `menagerie` binary: read settings, start tracing, run; or
//! `menagerie templates check DIR`, which validates a templates folder.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use server::{Settings, run, telemetry};

fn main() -> ExitCode {
    if std::env::args_os().nth(1).is_some_and(|a| a == "templates") {
        return templates(TemplatesCli::parse_from(std::env::args_os().skip(1)));
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc_memory::run_tuned();
    let result = actix_web::rt::System::new().block_on(async {
        let settings = Settings::parse();
        telemetry::init(&settings);
        run(settings).await
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("menagerie: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `menagerie templates`: work on a folder of template files.
#[derive(Debug, Parser)]
#[command(name = "menagerie templates")]
struct TemplatesCli {
    #[command(subcommand)]
    command: TemplatesCommand,
}

#[derive(Debug, Subcommand)]
enum TemplatesCommand {
    /// Loads every template file of DIR as `--templates DIR` would, without
    /// starting the server: prints the names, or each error as
    /// `file:line: field: message` and exits with status 1.
    Check {
        /// The folder.
        dir: PathBuf,
    },
}

fn templates(cli: TemplatesCli) -> ExitCode {
    match cli.command {
        TemplatesCommand::Check { dir } => match server::engine::templates::check(&dir) {
            Ok(names) => {
                println!(
                    "{}: {} template(s) ok: {}",
                    dir.display(),
                    names.len(),
                    names.join(", ")
                );
                ExitCode::SUCCESS
            }
            Err(errors) => {
                for e in &errors {
                    eprintln!("{e}");
                }
                eprintln!("{}: {} error(s)", dir.display(), errors.len());
                ExitCode::FAILURE
            }
        },
    }
}

/// glibc's allocator keeps freed memory in per-thread arenas, and after the
/// first large buffer is freed it serves buffers of up to 32 MiB from them
/// too, so the frames of decoded and rendered images stay resident: under
/// `cargo xtask loadtest --hostile-memory --animated` the peak RSS was 3.3
/// GiB this way against 0.9 GiB with two arenas and buffers of 1 MiB or
/// more mapped on their own (returned to the system when freed). Those
/// settings are read from the environment when the process starts, so the
/// binary runs itself again with them, once, unless `MALLOC_ARENA_MAX` is
/// already set (any value: the operator's choice wins).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc_memory {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// The settings: two arenas; buffers of 1 MiB or more mapped alone.
    const SETTINGS: [(&str, &str); 2] = [
        ("MALLOC_ARENA_MAX", "2"),
        ("MALLOC_MMAP_THRESHOLD_", "1048576"),
    ];

    /// Replaces this process by itself with [`SETTINGS`] in its
    /// environment (same PID, arguments and `argv[0]`), unless
    /// `MALLOC_ARENA_MAX` is set. If that fails, the server runs as it is.
    pub fn run_tuned() {
        if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
            return;
        }
        let Ok(exe) = std::env::current_exe() else {
            return;
        };
        let mut args = std::env::args_os();
        let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
        let mut cmd = Command::new(&exe);
        cmd.arg0(arg0).args(args);
        for (name, value) in SETTINGS {
            if std::env::var_os(name).is_none() {
                cmd.env(name, value);
            }
        }
        // Only returns on failure.
        let err = cmd.exec();
        eprintln!("menagerie: running without the glibc memory settings ({err})");
    }
}
