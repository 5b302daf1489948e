#!/usr/bin/env bash
# What counting rate limits in Redis adds per request: two release servers
# with rate limiting on and a quota no load reaches, one counting in memory
# (`off`), one in a local redis-server (`on`, `--rate-limit-redis`), measured
# with wrk in alternating rounds in one run; prints req/s, p50 and p99 of
# each round, the medians' ratios and each server's peak RSS. One client
# (wrk on 127.0.0.1), so every check in Redis hits the same key: the worst
# case for the script.
#
#   scripts/bench-redis-limit.sh [BIN] [SECONDS] [ROUNDS] [PATH]
#
# CONNECTIONS (environment, default 16) sets wrk's connections: 1 gives the
# latency one request adds without queueing behind others.
# BIN defaults to $CARGO_TARGET_DIR/release/menagerie (or target/...);
# needs wrk and redis-server (scripts/install-redis.sh). Not run in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
bin="${1:-$target/release/menagerie}"
secs="${2:-10}"
rounds="${3:-3}"
path="${4:-/canvas/rgb?hex=4B007D}"
conns="${CONNECTIONS:-16}"
threads=$(( conns < 2 ? 1 : 2 ))
command -v wrk >/dev/null || { echo "wrk not found (apt-get install -y wrk)" >&2; exit 1; }
redis_bin="$(bash scripts/install-redis.sh)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

data="$(mktemp -d)"
rport="$(free_port)"
"$redis_bin" --port "$rport" --bind 127.0.0.1 --save "" --appendonly no >/dev/null 2>&1 &
pids=($!)
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT

start() { # name port extra-args...
    local port="$2"; shift 2
    "$bin" --bind "127.0.0.1:$port" --data-dir "$data" --log-level warn \
        --rate-limit 10000000 "$@" >/dev/null 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$port/health" >/dev/null && return 0
        sleep 0.1
    done
    echo "server on $port did not start" >&2; exit 1
}
off_port="$(free_port)"; start off "$off_port"
on_port="$(free_port)"; start on "$on_port" --rate-limit-redis "redis://127.0.0.1:$rport"
# Wait until the `on` server counts in Redis.
for _ in $(seq 100); do
    curl -s "http://127.0.0.1:$on_port/metrics" | grep -q '^menagerie_rate_limit_redis_fallback 0' && break
    sleep 0.1
done
curl -s "http://127.0.0.1:$on_port/metrics" | grep -q '^menagerie_rate_limit_redis_fallback 0' \
    || { echo "the server never reached Redis" >&2; exit 1; }

# wrk's latency distribution → "req/s p50_ms p99_ms"
measure() {
    wrk -t"$threads" -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$1$path" | awk '
        function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
        $1=="50%" { p50=ms($2) } $1=="99%" { p99=ms($2) } $1=="Requests/sec:" { rps=$2 }
        / Non-2xx/ { bad=$NF }
        END { if (bad) { print "non-2xx answers: " bad > "/dev/stderr"; exit 1 } printf "%.0f %.3f %.3f\n", rps, p50, p99 }'
}
echo "path $path, ${secs} s per run, wrk -t$threads -c$conns, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-4s %10s %9s %9s\n' round srv 'req/s' 'p50 ms' 'p99 ms'
: >"$data/off"; : >"$data/on"
for r in $(seq "$rounds"); do
    order=(off on); [ $((r % 2)) -eq 0 ] && order=(on off)
    for s in "${order[@]}"; do
        port="$off_port"; [ "$s" = on ] && port="$on_port"
        read -r rps p50 p99 < <(measure "$port")
        echo "$rps $p50 $p99" >>"$data/$s"
        printf '%-6s %-4s %10s %9s %9s\n' "$r" "$s" "$rps" "$p50" "$p99"
    done
done
median() { sort -n | awk '{ a[NR]=$1 } END { print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2 }'; }
for col in 1 2 3; do
    off="$(cut -d' ' -f$col "$data/off" | median)"; on="$(cut -d' ' -f$col "$data/on" | median)"
    name=$(echo "req/s p50 p99" | cut -d' ' -f$col)
    awk -v n="$name" -v a="$off" -v b="$on" 'BEGIN { printf "median %-5s off %9s  on %9s  on/off %.2f×\n", n, a, b, b/a }'
done
# Peak resident memory of each server over the whole run (VmHWM).
hwm() { awk '/^VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
echo "peak RSS  off $(hwm "${pids[1]}") MiB  on $(hwm "${pids[2]}") MiB"
