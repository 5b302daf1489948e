#!/usr/bin/env bash
# Installs Debian's prometheus package (when promtool is missing) for
# `cargo xtask deploy-check`, which runs `promtool check rules` on the
# monitoring component's alerts. No Prometheus service is configured or
# started here. Prints promtool's path last. Safe to run repeatedly.
set -euo pipefail

if ! command -v promtool >/dev/null 2>&1; then
    echo "install-promtool: installing Debian's prometheus (for promtool)" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >&2
fi
bin="$(command -v promtool)"
"$bin" --version >&2
echo "$bin"
