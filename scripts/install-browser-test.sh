#!/usr/bin/env bash
# Installs what the playground's browser test needs: Debian's Chromium (when
# missing) and playwright-core from the committed e2e/package-lock.json.
# Playwright never downloads a browser of its own here: the test drives
# /usr/bin/chromium. Safe to run repeatedly. `cargo xtask test` runs it in CI.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    echo "install-browser-test: installing Debian's chromium"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
chromium --version

if ! command -v npm >/dev/null 2>&1; then
    echo "install-browser-test: npm is required (Node.js 18 or later)" >&2
    exit 1
fi
echo "install-browser-test: npm ci in e2e/"
(cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
