#!/usr/bin/env bash
# Throughput of GET /facts/cat on `menagerie` against a bare actix-web handler
# returning a fixed JSON body (crates/server/examples/bare.rs), side by side in
# one run with the same load tool (wrk), release builds, 127.0.0.1 only.
#
#   scripts/bench-content.sh [rounds] [seconds] [connections]
#
# Both servers run with one worker; wrk runs one thread. Rounds alternate
# bare/menagerie so drift on a shared machine hits both; the medians and their
# ratio are printed. Target: ratio >= 0.8.
set -euo pipefail
ROUNDS=${1:-3}
SECS=${2:-10}
CONNS=${3:-32}
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk not found (apt-get install -y wrk)" >&2; exit 1; }
TARGET=${CARGO_TARGET_DIR:-target}
cargo build --release -q -p server --bin menagerie --example bare
# Private copies: the target dir may be shared with other worktrees.
EMPTY=$(mktemp -d)
cp "$TARGET/release/examples/bare" "$TARGET/release/menagerie" "$EMPTY/"
"$EMPTY/bare" 127.0.0.1:18081 1 &
BARE=$!
# An empty data dir: the embedded content pack; request logs off (warn level).
mkdir "$EMPTY/data"
"$EMPTY/menagerie" --bind 127.0.0.1:18082 --workers 1 --data-dir "$EMPTY/data" --log-level warn &
OURS=$!
trap 'kill $BARE $OURS 2>/dev/null; rm -rf "$EMPTY"' EXIT
for port in 18081 18082; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/facts/cat" >/dev/null && break; sleep 0.1; done
  curl -sf "http://127.0.0.1:$port/facts/cat" >/dev/null || { echo "port $port does not answer /facts/cat" >&2; exit 1; }
done
echo "sample: $(curl -s http://127.0.0.1:18082/facts/cat)"
rps() { wrk -t1 -c"$CONNS" -d"${SECS}s" "http://127.0.0.1:$1/facts/cat" | awk '/Requests\/sec/ {print $2}'; }
wrk -t1 -c"$CONNS" -d2s http://127.0.0.1:18081/facts/cat >/dev/null
wrk -t1 -c"$CONNS" -d2s http://127.0.0.1:18082/facts/cat >/dev/null
B=(); O=()
for r in $(seq "$ROUNDS"); do
  b=$(rps 18081); o=$(rps 18082)
  echo "round $r: bare $b req/s, menagerie /facts/cat $o req/s"
  B+=("$b"); O+=("$o")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mb=$(median "${B[@]}"); mo=$(median "${O[@]}")
echo "median: bare $mb req/s, menagerie $mo req/s, ratio $(awk -v o="$mo" -v b="$mb" 'BEGIN {printf "%.2f", o/b}')"
