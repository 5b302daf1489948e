#!/usr/bin/env bash
# Server start to first /creature answer, and resident memory, with the full
# creature reference, against a baseline start of the same binary without
# the reference (an empty data dir, first answer from /health).
#
# Usage: crates/reference-db/benches/server-start.sh [DATA_DIR] [RUNS]
# Needs: a release build (`cargo build --release -p server`), curl, a data
# dir built by `cargo xtask data` (default: data/ at the repository root).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
data="${1:-$root/data}"
runs="${2:-10}"
bin="${CARGO_TARGET_DIR:-$root/target}/release/menagerie"
port=18787
empty="$(mktemp -d)"
trap 'rm -rf "$empty"' EXIT
[ -f "$data/reference-db.bin" ] || { echo "no $data/reference-db.bin: run cargo xtask data" >&2; exit 1; }

# one start: prints "<ms to first 200 answer> <RSS MB after that answer>"
measure() {
  local dir="$1" url="$2" start end pid rss
  start=$(date +%s%N)
  "$bin" --data-dir "$dir" --bind "127.0.0.1:$port" --log-level error &
  pid=$!
  for _ in $(seq 5000); do
    if curl -sf -o /dev/null "$url"; then break; fi
    sleep 0.001
  done
  end=$(date +%s%N)
  rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$(( (end - start) / 1000000 )) $(( rss / 1024 ))"
}

echo "run  with-reference(ms,MB)  baseline-no-reference(ms,MB)"
for i in $(seq "$runs"); do
  with=$(measure "$data" "http://127.0.0.1:$port/creature/dex?id=pikachu")
  base=$(measure "$empty" "http://127.0.0.1:$port/health")
  echo "$i    $with    $base"
done
