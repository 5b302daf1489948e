# syntax=docker/dockerfile:1.7
#
# Menagerie: multi-stage build, data built into the image, runs as non-root.
#
#   docker build --build-context data-source=../shared/data -t menagerie .
#   docker run --rm -p 8080:8080 menagerie
#
# The `data-source` build context is the source data directory (`pokeapi/`,
# `content/`...; see README "Data"). It is only mounted while
# `cargo xtask data` runs: the import-only sources never enter an image
# layer, only the generated runtime data does.

ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=bookworm

FROM rust:${RUST_VERSION}-${DEBIAN_RELEASE} AS build
WORKDIR /src
COPY . .
RUN --mount=type=bind,from=data-source,target=/data-source,readonly \
    --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo xtask data --source /data-source --out /out/data \
 && cargo build --release --locked --package server --bin menagerie \
 && install -D target/release/menagerie /out/menagerie

FROM debian:${DEBIAN_RELEASE}-slim AS runtime
# The stable release's current ca-certificates, whatever its exact version.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin menagerie
COPY --from=build /out/menagerie /usr/local/bin/menagerie
COPY --from=build /out/data /srv/menagerie/data
USER 10001:10001
# glibc malloc: two arenas, and buffers of 1 MiB or more (decoded avatars,
# rendered images) mapped on their own, so their memory goes back to the
# system when freed (README "Deployment", measured in BENCHMARKS.md).
ENV MENAGERIE_BIND=0.0.0.0:8080 \
    MENAGERIE_DATA_DIR=/srv/menagerie/data \
    MENAGERIE_LOG_FORMAT=json \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=1048576
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/menagerie"]
