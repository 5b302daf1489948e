#!/usr/bin/env bash
# Load measurements of the canvas endpoints against the Pillow reference
# service, in one run, on loopback. See docs/benchmarks-history/server.md ("Canvas").
#
# Usage: bash crates/server/benches/load/canvas.sh [duration=15s] [conns=32]
# Needs: wrk, a release build (cargo build --release -p server), and a
# Python with Pillow+numpy in $PILLOW_PY (default ../shared/bench/venv/bin/python).
# Every process started here is stopped by its PID on exit.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../../.." && pwd)"
BENCH="${SHARED_BENCH:-$ROOT/../shared/bench}"
[ -d "$BENCH" ] || BENCH="$ROOT/../../shared/bench"   # from a git worktree
PY="${PILLOW_PY:-$BENCH/venv/bin/python}"
BIN="${MENAGERIE_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/menagerie}"
DUR=${1:-15s}; C=${2:-32}
PORT0=${PORT0:-28180}; ORIGIN=$PORT0; PILLOW=$((PORT0+1)); SLOW=$((PORT0+2)); SVC=$((PORT0+3))
PIDS=()
# (a process killed by SIGTERM makes `wait` return 143: never let that stop the loop)
cleanup() { set +e; for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done; for p in "${PIDS[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null; done; true; }
trap cleanup EXIT
# A server left over on one of these ports would be measured instead of ours.
for port in $ORIGIN $PILLOW $SLOW $SVC; do
  if curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/"; then echo "port $port is taken (set PORT0)"; exit 1; fi
done
wait_port() { for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0; sleep 0.1; done; echo "port $1 not up"; exit 1; }
# CPU time the hypervisor gave to other guests (steal) during a step, in %
# of all CPU time: a shared host stalls every thread in flight, and tail
# latencies follow it (see docs/benchmarks-history/server.md).
cpu_ticks() { awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $9}' /proc/stat; }
WRK() {
  local t0 t1
  t0=$(cpu_ticks)
  wrk -t2 -c"$1" -d"$2" --timeout 10s --latency "${@:3}" | grep -E "Latency|50%|90%|99%|Requests/sec|requests in|Socket|Non-2xx"
  t1=$(cpu_ticks)
  echo "$t0 $t1" | awk '{d=$3-$1; printf "    host steal during the step: %.1f %%\n", (d > 0 ? 100*($4-$2)/d : 0)}'
}

python3 -m http.server "$ORIGIN" --bind 127.0.0.1 --directory "$BENCH/avatars" >/dev/null 2>&1 &
PIDS+=($!); wait_port $ORIGIN
AV="http://127.0.0.1:$ORIGIN/avatar_512.png"

"$BIN" --bind 127.0.0.1:$SVC --allow-private-avatars --output-cache-mb 0 --data-dir "$ROOT/fixtures/data" --log-level warn >/dev/null 2>&1 &
SP=$!; PIDS+=($SP); wait_port $SVC
kill -0 "$SP" || { echo "menagerie did not start (port $SVC taken?)"; exit 1; }

FILTERS="blue blurple blurple2 blur pixelate brightness color green greyscale invert invertgreyscale red sepia threshold"
PATHS=(); for f in $FILTERS; do PATHS+=("/canvas/filter/$f?avatar=$AV"); done
for p in "${PATHS[@]}"; do
  code=$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$SVC$p")
  [ "$code" = 200 ] || { echo "warm-up $p -> $code"; exit 1; }
done; echo "warm-up: 14 filters answer 200, avatar cached"

echo "# $(date -u +%FT%TZ) nproc=$(nproc) wrk -t2 -c$C -d$DUR; wrk, origin and service share the 2 cores"
echo; echo "## menagerie: 14 filters rotating, cached 512x512 avatar, no output cache"
WRK "$C" "$DUR" -s "$HERE/rotate.lua" "http://127.0.0.1:$SVC" -- "${PATHS[@]}"
echo "    peak RSS menagerie: $(awk '/VmHWM/{print $2" "$3}' /proc/$SP/status)"

if [ -n "${MIXED:-}" ]; then
  # Mixed load for the memory cap: filters, shapes, scenes and JSON over 300
  # distinct avatar URLs (the origin ignores the query), so the avatar cache
  # keeps filling and evicting.
  MP=()
  for i in $(seq 300); do
    f=$(echo $FILTERS | cut -d' ' -f$(( i % 14 + 1 )))
    MP+=("/canvas/filter/$f?avatar=$AV%3Fv%3D$i")
    [ $((i % 3)) = 0 ] && MP+=("/canvas/misc/circle?avatar=$AV%3Fv%3D$i" "/canvas/misc/namecard?username=u$i&birthday=today&description=mixed&avatar=$AV%3Fv%3D$i")
    MP+=("/canvas/rgb?hex=4B007D" "/canvas/hex?rgb=1,2,$((i % 256))")
  done
  echo; echo "## menagerie mixed load for $MIXED, 32 conns, 300 avatars, cache 256 MiB"
  WRK "$C" "$MIXED" -s "$HERE/rotate.lua" "http://127.0.0.1:$SVC" -- "${MP[@]}"
  echo "    peak RSS menagerie: $(awk '/VmHWM/{print $2" "$3}' /proc/$SP/status)"
fi

OPS="greyscale invert sepia blur pixelate brightness threshold color blurple"
PP=(); for o in $OPS; do PP+=("/filter/$o?avatar=$AV"); done
(cd "$BENCH" && exec "$PY" pillow_server.py --port $PILLOW --procs 2) >/dev/null 2>&1 &
PS=$!; PIDS+=($PS); wait_port $PILLOW
echo; echo "## pillow_server.py --procs 2: its 9 filters rotating, same avatar"
WRK "$C" "$DUR" -s "$HERE/rotate.lua" "http://127.0.0.1:$PILLOW" -- "${PP[@]}"
kill $PS; wait $PS 2>/dev/null || true

python3 "$HERE/slow_host.py" $SLOW &
PIDS+=($!); sleep 0.5
echo; echo "## menagerie JSON (/canvas/rgb) while 200 clients hang on a never-answering avatar host"
python3 "$HERE/hang_clients.py" "http://127.0.0.1:$SVC" "http://127.0.0.1:$SLOW" 200 20 &
HC=$!; sleep 3
WRK 8 10s "http://127.0.0.1:$SVC/canvas/rgb?hex=4B007D"
wait $HC
echo "    peak RSS menagerie: $(awk '/VmHWM/{print $2" "$3}' /proc/$SP/status)"
