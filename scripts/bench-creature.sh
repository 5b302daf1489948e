#!/usr/bin/env bash
# Cost of a creature JSON answer, by scripts/bench-content.sh's method:
# throughput of GET /creature/dex?id=pikachu on `menagerie` against the
# bare actix-web handler (crates/server/examples/bare.rs) serving the very
# bytes menagerie answers, side by side in one run with the same load tool
# (wrk), release builds, 127.0.0.1 only, one worker each, `wrk -t1`. Not run
# in CI.
#
#   DATA=<dir with reference-db.bin> scripts/bench-creature.sh [rounds] [seconds] [connections]   (7 8 32)
#
# BEFORE=<another menagerie binary> adds it as a third server (e.g. a build
# of an older commit), so before and after are measured in the same run.
# Every round runs each server once, the order flipped every other round;
# the medians and their ratios to bare are printed, with the load average.
# NO_BUILD=1 skips the build (binaries from $CARGO_TARGET_DIR or target/).
set -euo pipefail
ROUNDS=${1:-7}
SECS=${2:-8}
CONNS=${3:-32}
URL_PATH=${URL_PATH:-/creature/dex?id=pikachu}
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk not found (apt-get install -y wrk)" >&2; exit 1; }
[ -f "${DATA:-}/reference-db.bin" ] || { echo "DATA must name a directory with reference-db.bin (cargo xtask data)" >&2; exit 1; }
TARGET=${CARGO_TARGET_DIR:-target}
[ "${NO_BUILD:-}" = 1 ] || cargo build --release -q -p server --bin menagerie --example bare
TMP=$(mktemp -d)
cp "$TARGET/release/examples/bare" "$TARGET/release/menagerie" "$TMP/"
[ -z "${BEFORE:-}" ] || cp "$BEFORE" "$TMP/before"
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"' EXIT
serve() { # binary port
  "$1" --bind "127.0.0.1:$2" --workers 1 --data-dir "$DATA" --log-level warn & PIDS+=($!)
}
wait_for() { # port
  for _ in $(seq 200); do curl -sf "http://127.0.0.1:$1$URL_PATH" >/dev/null && return; sleep 0.1; done
  echo "port $1 does not answer $URL_PATH" >&2; exit 1
}
serve "$TMP/menagerie" 18092; wait_for 18092
curl -sf "http://127.0.0.1:18092$URL_PATH" > "$TMP/body.json"
"$TMP/bare" 127.0.0.1:18091 1 "$TMP/body.json" & PIDS+=($!); wait_for 18091
PORTS="18091 18092"
if [ -n "${BEFORE:-}" ]; then
  serve "$TMP/before" 18093; wait_for 18093; PORTS="$PORTS 18093"
  cmp -s "$TMP/body.json" <(curl -sf "http://127.0.0.1:18093$URL_PATH") \
    && echo "before and after answer the same bytes" || { echo "before and after bodies differ" >&2; exit 1; }
fi
echo "body: $(wc -c < "$TMP/body.json") bytes"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
rps() { wrk -t1 -c"$CONNS" -d"${SECS}s" "http://127.0.0.1:$1$URL_PATH" | awk '/Requests\/sec/ {print $2}'; }
for port in $PORTS; do wrk -t1 -c"$CONNS" -d2s "http://127.0.0.1:$port$URL_PATH" >/dev/null; done
B=(); A=(); O=()
for r in $(seq "$ROUNDS"); do
  o=0
  if [ $((r % 2)) = 1 ]; then
    b=$(rps 18091); a=$(rps 18092); [ -z "${BEFORE:-}" ] || o=$(rps 18093)
  else
    [ -z "${BEFORE:-}" ] || o=$(rps 18093); a=$(rps 18092); b=$(rps 18091)
  fi
  awk -v r="$r" -v b="$b" -v a="$a" -v o="$o" 'BEGIN {
    printf "round %d: bare %.0f, menagerie %.0f (%.2f)", r, b, a, a / b
    if (o > 0) printf ", before %.0f (%.2f)", o, o / b
    printf " req/s\n" }'
  B+=("$b"); A+=("$a"); O+=("$o")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mb=$(median "${B[@]}"); ma=$(median "${A[@]}"); mo=$(median "${O[@]}")
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v n="$ROUNDS" -v s="$SECS" -v c="$CONNS" -v b="$mb" -v a="$ma" -v o="$mo" -v p="$URL_PATH" 'BEGIN {
  printf "medians of %d rounds x %d s, %d connections, 1 worker (wrk -t1), %s:\n", n, s, c, p
  printf "  bare %.0f req/s, menagerie %.0f req/s, ratio %.2f\n", b, a, a / b
  if (o > 0) printf "  before: menagerie %.0f req/s, ratio %.2f\n", o, o / b }'
