# One-line recipes; every one is a plain cargo command you can run without just.

# Build the data if missing and run the server (release build).
serve *ARGS:
    cargo xtask serve -- {{ARGS}}

# Every check CI runs.
test:
    cargo xtask test

# Build the runtime data directory from the source data.
data *ARGS:
    cargo xtask data {{ARGS}}

# Criterion benchmarks (release build).
bench:
    cargo bench --workspace

# Regenerate the book's endpoint pages and charts, build it (mdBook) and check its links.
book *ARGS:
    cargo xtask book {{ARGS}}
