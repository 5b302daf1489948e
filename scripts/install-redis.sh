#!/usr/bin/env bash
# Installs Debian's redis-server (when missing) for the shared rate-limit
# test (crates/server/tests/http/shared_limit.rs), which starts its own
# in-memory instance on a free loopback port; no service is started or
# configured here. Prints the binary's path last. Safe to run repeatedly.
# `cargo xtask test` runs it.
set -euo pipefail

if ! command -v redis-server >/dev/null 2>&1 && [ ! -x /usr/bin/redis-server ]; then
    echo "install-redis: installing Debian's redis-server" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >&2
fi
bin="$(command -v redis-server || echo /usr/bin/redis-server)"
"$bin" --version >&2
echo "$bin"
