#!/usr/bin/env bash
# Cost of menagerie's routing and middleware stack (request log, metrics,
# compression negotiation, hygiene/ETag, rate-limit check): throughput of
# GET /facts/cat on `menagerie` against a bare actix-web handler returning a
# fixed JSON body of the same size (crates/server/examples/bare.rs, no
# state, no middleware), side by side in one run with the same load tool
# (wrk), release builds, 127.0.0.1 only. Not run in CI.
#
#   scripts/bench-content.sh [rounds] [seconds] [connections]    (7 8 32)
#
# Three comparisons, each a ratio menagerie / bare (target of issue 6: >= 0.8
# for the first):
#   1 worker     both servers `--workers 1`, `wrk -t1`;
#   rate limit   the same menagerie with rate limiting on (a quota no
#                client reaches), against the same bare run;
#   2 workers    both servers with 2 workers, `wrk -t2`.
# menagerie runs on the embedded content pack (an empty data dir) with the
# request log filtered out (`--log-level warn`). Every round runs each
# variant once, bare and menagerie alternating, the order flipped every other
# round so that drift on a shared machine hits both sides; the medians of
# the rounds and their ratios are printed, with the load average.
# NO_BUILD=1 skips the build (binaries from $CARGO_TARGET_DIR or target/).
set -euo pipefail
ROUNDS=${1:-7}
SECS=${2:-8}
CONNS=${3:-32}
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk not found (apt-get install -y wrk)" >&2; exit 1; }
TARGET=${CARGO_TARGET_DIR:-target}
[ "${NO_BUILD:-}" = 1 ] || cargo build --release -q -p server --bin menagerie --example bare
# Private copies: the target dir may be shared with other worktrees.
TMP=$(mktemp -d)
cp "$TARGET/release/examples/bare" "$TARGET/release/menagerie" "$TMP/"
mkdir "$TMP/data"
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"' EXIT
ours() { # port workers [extra flags]
  local port=$1 workers=$2; shift 2
  "$TMP/menagerie" --bind "127.0.0.1:$port" --workers "$workers" --data-dir "$TMP/data" \
    --log-level warn "$@" & PIDS+=($!)
}
"$TMP/bare" 127.0.0.1:18081 1 & PIDS+=($!)
ours 18082 1
ours 18083 1 --rate-limit 1000000000
"$TMP/bare" 127.0.0.1:18084 2 & PIDS+=($!)
ours 18085 2
for port in 18081 18082 18083 18084 18085; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/facts/cat" >/dev/null && break; sleep 0.1; done
  curl -sf "http://127.0.0.1:$port/facts/cat" >/dev/null || { echo "port $port does not answer /facts/cat" >&2; exit 1; }
done
echo "sample: $(curl -s http://127.0.0.1:18082/facts/cat)"
echo "rate limit on: $(curl -si http://127.0.0.1:18083/facts/cat | grep -i '^ratelimit:' | tr -d '\r')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# port wrk-threads -> req/s
rps() { wrk -t"$2" -c"$CONNS" -d"${SECS}s" "http://127.0.0.1:$1/facts/cat" | awk '/Requests\/sec/ {print $2}'; }
for port in 18081 18082 18083; do wrk -t1 -c"$CONNS" -d2s "http://127.0.0.1:$port/facts/cat" >/dev/null; done
for port in 18084 18085; do wrk -t2 -c"$CONNS" -d2s "http://127.0.0.1:$port/facts/cat" >/dev/null; done
B1=(); O1=(); L1=(); B2=(); O2=()
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then
    b1=$(rps 18081 1); o1=$(rps 18082 1); l1=$(rps 18083 1); b2=$(rps 18084 2); o2=$(rps 18085 2)
  else
    o2=$(rps 18085 2); b2=$(rps 18084 2); l1=$(rps 18083 1); o1=$(rps 18082 1); b1=$(rps 18081 1)
  fi
  awk -v r="$r" -v b1="$b1" -v o1="$o1" -v l1="$l1" -v b2="$b2" -v o2="$o2" 'BEGIN {
    printf "round %d: 1 worker: bare %.0f, menagerie %.0f (%.2f) | rate limit on %.0f (%.2f) | 2 workers: bare %.0f, menagerie %.0f (%.2f) req/s\n",
      r, b1, o1, o1 / b1, l1, l1 / b1, b2, o2, o2 / b2 }'
  B1+=("$b1"); O1+=("$o1"); L1+=("$l1"); B2+=("$b2"); O2+=("$o2")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mb1=$(median "${B1[@]}"); mo1=$(median "${O1[@]}"); ml1=$(median "${L1[@]}")
mb2=$(median "${B2[@]}"); mo2=$(median "${O2[@]}")
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v n="$ROUNDS" -v s="$SECS" -v c="$CONNS" -v b1="$mb1" -v o1="$mo1" -v l1="$ml1" -v b2="$mb2" -v o2="$mo2" 'BEGIN {
  printf "medians of %d rounds x %d s, %d connections:\n", n, s, c
  printf "  1 worker (wrk -t1):  bare %.0f req/s, menagerie /facts/cat %.0f req/s, ratio %.2f\n", b1, o1, o1 / b1
  printf "  rate limiting on:    menagerie /facts/cat %.0f req/s, ratio %.2f\n", l1, l1 / b1
  printf "  2 workers (wrk -t2): bare %.0f req/s, menagerie /facts/cat %.0f req/s, ratio %.2f\n", b2, o2, o2 / b2 }'
