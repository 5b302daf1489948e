#!/usr/bin/env bash
# Cost of the connection guard (crates/server/src/http_guard.rs), by
# scripts/bench-content.sh's method: two release builds of `menagerie`, the
# current one and BEFORE (a build without the guard, e.g. of `b468b96`),
# side by side in one run with the same load tool (wrk), 127.0.0.1 only, one
# worker each, `wrk -t1 --latency`, keep-alive. Not run in CI.
#
#   BEFORE=<menagerie binary> DATA=<dir with reference-db.bin> \
#     scripts/bench-guard.sh [rounds] [seconds] [connections]   (5 6 32)
#
# Paths: /health, /facts/cat, /creature/dex?id=pikachu and, when AVATARS
# names a directory holding avatar_512.png, /canvas/filter/greyscale on a cached
# 512 px avatar from a local origin (no output cache: every request renders
# and encodes). Every round runs each build once per path, the order flipped
# every other round; the medians of req/s and p99 and their ratios
# after / before are printed, with the load average.
# NO_BUILD=1 skips the build (binary from $CARGO_TARGET_DIR or target/).
set -euo pipefail
ROUNDS=${1:-5}
SECS=${2:-6}
CONNS=${3:-32}
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk not found (apt-get install -y wrk)" >&2; exit 1; }
[ -x "${BEFORE:-}" ] || { echo "BEFORE must name a menagerie binary built without the guard" >&2; exit 1; }
[ -f "${DATA:-}/reference-db.bin" ] || { echo "DATA must name a directory with reference-db.bin (cargo xtask data)" >&2; exit 1; }
TARGET=${CARGO_TARGET_DIR:-target}
[ "${NO_BUILD:-}" = 1 ] || cargo build --release -q -p server --bin menagerie
AVATARS=${AVATARS:-}
TMP=$(mktemp -d)
cp "$TARGET/release/menagerie" "$TMP/after"
cp "$BEFORE" "$TMP/before"
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"' EXIT
PATHS=(/health /facts/cat "/creature/dex?id=pikachu")
if [ -n "$AVATARS" ] && [ -f "$AVATARS/avatar_512.png" ]; then
  python3 -m http.server 18100 --bind 127.0.0.1 --directory "$AVATARS" >/dev/null 2>&1 & PIDS+=($!)
  PATHS+=("/canvas/filter/greyscale?avatar=http://127.0.0.1:18100/avatar_512.png")
fi
serve() { # binary port
  "$1" --bind "127.0.0.1:$2" --workers 1 --data-dir "$DATA" --log-level warn \
    --allow-private-avatars --output-cache-mb 0 & PIDS+=($!)
}
serve "$TMP/before" 18101
serve "$TMP/after" 18102
for port in 18101 18102; do
  for p in "${PATHS[@]}"; do
    for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port$p" >/dev/null && break; sleep 0.1; done
    curl -sf "http://127.0.0.1:$port$p" >/dev/null || { echo "port $port does not answer $p" >&2; exit 1; }
  done
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# port path -> "req/s p99-in-ms"
run() {
  wrk -t1 -c"$CONNS" -d"${SECS}s" --latency "http://127.0.0.1:$1$2" | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /^ +99%/ { p99 = ms($2) } /Requests\/sec/ { rps = $2 } END { printf "%s %.3f\n", rps, p99 }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for p in "${PATHS[@]}"; do
  for port in 18101 18102; do wrk -t1 -c"$CONNS" -d2s "http://127.0.0.1:$port$p" >/dev/null; done
  BR=(); BP=(); AR=(); AP=()
  for r in $(seq "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then b=$(run 18101 "$p"); a=$(run 18102 "$p")
    else a=$(run 18102 "$p"); b=$(run 18101 "$p"); fi
    read -r br bp <<<"$b"; read -r ar ap <<<"$a"
    BR+=("$br"); BP+=("$bp"); AR+=("$ar"); AP+=("$ap")
    awk -v p="$p" -v r="$r" -v br="$br" -v bp="$bp" -v ar="$ar" -v ap="$ap" 'BEGIN {
      printf "%s round %d: before %.0f req/s p99 %.2f ms | after %.0f req/s p99 %.2f ms | req/s %.3f\n",
        p, r, br, bp, ar, ap, ar / br }'
  done
  mbr=$(median "${BR[@]}"); mbp=$(median "${BP[@]}"); mar=$(median "${AR[@]}"); map=$(median "${AP[@]}")
  awk -v p="$p" -v br="$mbr" -v bp="$mbp" -v ar="$mar" -v ap="$map" 'BEGIN {
    printf "MEDIAN %s: before %.0f req/s p99 %.2f ms | after %.0f req/s p99 %.2f ms | after/before req/s %.3f, p99 %.2f\n",
      p, br, bp, ar, ap, ar / br, ap / bp }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians of $ROUNDS rounds x $SECS s, $CONNS connections, 1 worker each (wrk -t1)"
