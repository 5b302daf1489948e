#!/usr/bin/env bash
# Cost of the production middleware stack (metrics, compression negotiation,
# hygiene/ETag, rate-limit check, request log): wrk against a bare actix-web
# handler returning a fixed fact (crates/server/examples/bare.rs, no
# middleware) and against menagerie's /facts/cat (a random pick through
# every middleware), side by side, 1 worker each, same run; also with
# rate limiting switched on.
# Not run in CI.  DURATION=10s CONNS=32 by default.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
CONNS=${CONNS:-32}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --release --quiet --package server --bin menagerie --example bare
T=${CARGO_TARGET_DIR:-$PWD/target}/release
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
"$T/examples/bare" 127.0.0.1:18190 1 & PIDS+=($!)
"$T/menagerie" --bind 127.0.0.1:18191 --workers 1 --data-dir fixtures/data --log-level warn & PIDS+=($!)
"$T/menagerie" --bind 127.0.0.1:18192 --workers 1 --data-dir fixtures/data --log-level warn \
    --rate-limit 1000000000 & PIDS+=($!)
sleep 1
URI=/facts/cat
rps() { wrk -t2 -c"$CONNS" -d"$DURATION" "http://127.0.0.1:$1$URI" | awk '/Requests\/sec/ {print $2}'; }
wrk -t1 -c4 -d2s "http://127.0.0.1:18191$URI" >/dev/null
for round in 1 2; do
    BARE=$(rps 18190); FULL=$(rps 18191); LIMITED=$(rps 18192)
    awk -v b="$BARE" -v f="$FULL" -v l="$LIMITED" -v r="$round" 'BEGIN {
        printf "round %d: bare actix %.0f req/s | menagerie %.0f req/s (%.2fx) | with rate limiting on %.0f req/s (%.2fx)\n",
            r, b, f, f / b, l, l / b }'
done
