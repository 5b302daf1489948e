#!/usr/bin/env bash
# Scale-out check on loopback: replicas behind nginx, throughput and cache
# hit ratios. Not run in CI.
#
#   deploy/scale-out.sh            # 10 s per phase (part 1), 30 s per cell (part 2)
#   DURATION=20s MATRIX_DURATION=60s deploy/scale-out.sh
#   PART=2 deploy/scale-out.sh     # only the replica matrix
#
# Installs Debian's nginx, wrk and curl when missing, builds the release binary,
# starts replicas (1 worker, 1 render thread each) on 127.0.0.1:18181-18183
# and nginx on 127.0.0.1:18180 with deploy/menagerie.nginx.conf (ports, paths
# and the replica list rewritten for a private prefix), then drives load
# with wrk.
#
# Part 1, the proxy cache (two replicas):
#   1. direct to replica 1 (no proxy), distinct URLs;
#   2. nginx → one replica, distinct URLs (every request a cache miss);
#   3. nginx → two replicas, distinct URLs;
#   4. nginx → two replicas, 64 URLs rotating (the cache answers).
#
# Part 2, the replica matrix: 1, 2 and 3 replicas (started afresh for every
# cell: cold caches) behind nginx with its response cache OFF, balanced by
# least connections or by a consistent hash of the `avatar` query parameter
# (`hash $arg_avatar consistent`, what the Kubernetes BackendTrafficPolicy
# does). The workload: canvas filters over AVATARS (3000) distinct 256×256
# avatars served by nginx from a loopback directory, drawn Zipf-like
# (exponent ZIPF_S, 1.0: the most popular avatar is asked about 1 time in 9,
# half the requests go to the top 1 %), the filter drawn from six. For each
# cell: total throughput, throughput per replica, and the avatar-cache hit
# ratio summed from every replica's /metrics.
#
# Everything it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${DURATION:-10s}
CONNS=${CONNS:-32}
PORT_NGINX=18180
PORT_A=18181
PORT_B=18182
PORT_C=18183
PORT_AVATARS=18179
PART=${PART:-all}
MATRIX_DURATION=${MATRIX_DURATION:-30s}
AVATARS=${AVATARS:-3000}
ZIPF_S=${ZIPF_S:-1.0}

need() { command -v "$1" >/dev/null 2>&1 || command -v "/usr/sbin/$1" >/dev/null 2>&1; }
if ! need nginx || ! need wrk || ! need curl; then
    echo "scale-out: installing nginx, wrk and curl from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx wrk curl >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -z "${BIN:-}" ]; then # BIN= measures another build
    echo "scale-out: building the release binary"
    cargo build --release --quiet --package server --bin menagerie
    BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/menagerie
fi
DATA=${DATA:-$ROOT/data}
[ -d "$DATA" ] || DATA=$ROOT/fixtures/data

WORK=$(mktemp -d /tmp/menagerie-scale-out.XXXXXX)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

declare -A REPLICA_PID
start_replica() {
    "$BIN" --bind "127.0.0.1:$1" --workers 1 --render-threads 1 --data-dir "$DATA" \
        --log-level warn --trusted-proxy 127.0.0.1/32 --allow-private-avatars \
        >"$WORK/replica-$1.log" 2>&1 &
    PIDS+=($!)
    REPLICA_PID[$1]=$!
}
stop_replica() {
    kill "${REPLICA_PID[$1]}" 2>/dev/null || true
    wait "${REPLICA_PID[$1]}" 2>/dev/null || true
}
wait_up() {
    for _ in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "scale-out: nothing listens on $1" >&2; exit 1
}

# nginx config: the deploy snippet with loopback ports, a private cache and
# log, and the given replicas.
# BALANCE (default least_conn) replaces the upstream's balancing line;
# PROXY_CACHE=off turns the response cache off.
nginx_conf() { # $1.. = replica ports
    local servers=""
    for p in "$@"; do servers+="    server 127.0.0.1:$p max_fails=3 fail_timeout=5s;\n"; done
    mkdir -p "$WORK/cache" "$WORK/tmp"
    sed -e "s#/var/cache/nginx/menagerie#$WORK/cache#" \
        -e "s#/var/log/nginx/menagerie.log#$WORK/access.log#" \
        -e "s#listen 80;#listen 127.0.0.1:$PORT_NGINX;#" \
        -e '/server 127.0.0.1:808[0-9]/d' \
        -e "s#least_conn;#${BALANCE:-least_conn};\n$servers#" \
        -e "s#proxy_cache menagerie;#proxy_cache ${PROXY_CACHE:-menagerie};#" \
        deploy/menagerie.nginx.conf >"$WORK/menagerie.conf"
    # The loopback avatar host: every /avatars/N.png a file of its own.
    cat >>"$WORK/menagerie.conf" <<AVATARS
server {
    listen 127.0.0.1:$PORT_AVATARS;
    access_log off;
    root $WORK/avatars;
    location /avatars/ { types { image/png png; } }
}
AVATARS
    cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
user $(id -un);
events { worker_connections 4096; }
http {
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    include $WORK/menagerie.conf;
}
CONF
}
start_nginx() {
    nginx_conf "$@"
    if [ -f "$WORK/nginx.pid" ]; then
        "$NGINX" -p "$WORK" -c "$WORK/nginx.conf" -s reload 2>/dev/null
        sleep 1
    else
        "$NGINX" -p "$WORK" -c "$WORK/nginx.conf"
    fi
    wait_up $PORT_NGINX
}

cat >"$WORK/distinct.lua" <<'LUA'
-- Every request a different colour: nothing can come from a cache.
local next_id = 0
function setup(thread) next_id = next_id + 1; thread:set("id", next_id) end
function init(args) math.randomseed(os.time() * 100 + id) end
request = function()
    return wrk.format("GET", string.format("/canvas/colorviewer?hex=%06X", math.random(0, 0xFFFFFF)))
end
LUA
cat >"$WORK/rotating.lua" <<'LUA'
-- 64 colours in rotation; counts X-Cache-Status: HIT.
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) hits = 0; total = 0; i = 0 end
request = function()
    i = (i + 1) % 64
    return wrk.format("GET", string.format("/canvas/colorviewer?hex=%06X", i * 0x040404))
end
function response(status, headers, body)
    total = total + 1
    if (headers["X-Cache-Status"] or headers["x-cache-status"]) == "HIT" then hits = hits + 1 end
end
function done(summary, latency, requests)
    local h, t = 0, 0
    for _, th in ipairs(threads) do h = h + th:get("hits"); t = t + th:get("total") end
    io.write(string.format("cache hit ratio: %.4f (%d of %d responses)\n", h / math.max(t, 1), h, t))
end
LUA

run_wrk() { # $1 = label, $2 = port, $3 = script
    local out
    out=$(wrk -t2 -c"$CONNS" -d"$DURATION" --latency -s "$WORK/$3" "http://127.0.0.1:$2" 2>&1)
    local rps p99
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p99=$(awk '$1=="99%" {print $2}' <<<"$out")
    printf '%-44s %12s req/s   p99 %s\n' "$1" "$rps" "$p99"
    grep -E "cache hit ratio|Non-2xx|Socket errors" <<<"$out" | sed 's/^/    /' || true
    eval "RPS_$4=$rps"
}

mkdir -p "$WORK/avatars/avatars"
echo "scale-out: writing $AVATARS distinct 256x256 avatars"
python3 - "$WORK/avatars/avatars" "$AVATARS" <<'PY'
# Distinct 256x256 RGB PNGs: one gradient XORed with a byte pattern whose
# content and period come from the index, so no two decode to the same pixels.
import struct, sys, zlib
out, n = sys.argv[1], int(sys.argv[2])
side, row = 256, 256 * 3
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
base = bytes((x * 3 + c * 85 + y) % 256 for y in range(side) for x in range(side) for c in range(3))
head = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
for i in range(n):
    period = 7 + i % 61
    seq = bytes((i * 37 + k * (i % 13 + 1) * 29) % 256 for k in range(period))
    pattern = (seq * (len(base) // period + 1))[: len(base)]
    pixels = (int.from_bytes(base, "big") ^ int.from_bytes(pattern, "big")).to_bytes(len(base), "big")
    raw = b"".join(b"\0" + pixels[y * row:(y + 1) * row] for y in range(side))
    with open(f"{out}/{i}.png", "wb") as f:
        f.write(head + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
PY

if [ "$PART" != 2 ]; then
start_replica $PORT_A
start_replica $PORT_B
wait_up $PORT_A
wait_up $PORT_B
echo "scale-out: replicas on $PORT_A and $PORT_B (1 worker each), nginx on $PORT_NGINX; $(nproc) cores; $CONNS connections, $DURATION per phase; data: $DATA"
# Warm-up.
wrk -t1 -c4 -d2s -s "$WORK/distinct.lua" "http://127.0.0.1:$PORT_A" >/dev/null

run_wrk "1. direct to one replica, distinct URLs" $PORT_A distinct.lua direct
start_nginx $PORT_A
run_wrk "2. nginx -> 1 replica, distinct URLs" $PORT_NGINX distinct.lua one
start_nginx $PORT_A $PORT_B
run_wrk "3. nginx -> 2 replicas, distinct URLs" $PORT_NGINX distinct.lua two
run_wrk "4. nginx -> 2 replicas, 64 URLs (cached)" $PORT_NGINX rotating.lua cached
echo
awk -v a="$RPS_one" -v b="$RPS_two" -v c="$RPS_cached" \
    'BEGIN { printf "two replicas / one replica: %.2fx; cached / two replicas: %.2fx\n", b / a, c / b }'
for p in $PORT_A $PORT_B; do stop_replica $p; done
fi

[ "$PART" = 1 ] && exit 0

cat >"$WORK/zipf.lua" <<LUA
-- Canvas filters over $AVATARS avatars drawn Zipf-like (exponent $ZIPF_S).
local n, s = $AVATARS, $ZIPF_S
local filters = { "sepia", "greyscale", "invert", "blur", "pixelate", "blurple" }
local cdf = {}
local next_id = 0
function setup(thread) next_id = next_id + 1; thread:set("id", next_id) end
function init(args)
    math.randomseed(20261126 + id)
    local total = 0
    for k = 1, n do total = total + 1 / k ^ s; cdf[k] = total end
    for k = 1, n do cdf[k] = cdf[k] / total end
end
local function pick()
    local u, lo, hi = math.random(), 1, n
    while lo < hi do
        local mid = math.floor((lo + hi) / 2)
        if cdf[mid] < u then lo = mid + 1 else hi = mid end
    end
    return lo - 1
end
request = function()
    local avatar = string.format("http://127.0.0.1:$PORT_AVATARS/avatars/%d.png", pick())
    local filter = filters[math.random(#filters)]
    return wrk.format("GET", "/canvas/filter/" .. filter .. "?avatar=" .. avatar)
end
LUA

metrics() { # $1 = port: the replica's /metrics
    curl -sf "http://127.0.0.1:$1/metrics"
}
metric() { # $1 = port, $2 = metric name: its value (summed over series)
    metrics "$1" | awk -v m="$2" '$1 == m || index($1, m "{") == 1 { v += $2 } END { printf "%d", v }'
}
ok_2xx() { # $1 = port: canvas filter answers with status 200
    metrics "$1" | awk '/^menagerie_http_requests_total\{/ && /canvas\/filter/ && /status="200"/ { v += $2 } END { printf "%d", v }'
}

PORTS=($PORT_A $PORT_B $PORT_C)
echo
echo "scale-out: replica matrix, $MATRIX_DURATION per cell, $CONNS connections, $AVATARS avatars (Zipf $ZIPF_S), nginx response cache off; $(nproc) cores; load: $(uptime | sed 's/.*load average: //')"
printf '| routing | replicas | req/s total | req/s per replica | 200s per replica | avatar-cache hit ratio | non-2xx |\n'
printf '|---|---|---|---|---|---|---|\n'
for balance in least_conn 'hash $arg_avatar consistent'; do
    for n in 1 2 3; do
        active=("${PORTS[@]:0:$n}")
        for p in "${active[@]}"; do start_replica "$p"; done
        for p in "${active[@]}"; do wait_up "$p"; done
        BALANCE=$balance PROXY_CACHE=off start_nginx "${active[@]}"
        out=$(wrk -t2 -c"$CONNS" -d"$MATRIX_DURATION" -s "$WORK/zipf.lua" "http://127.0.0.1:$PORT_NGINX" 2>&1)
        if grep -q "zipf.lua:" <<<"$out"; then echo "$out" >&2; exit 1; fi
        rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
        non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
        hits=0; misses=0; shares=""
        for p in "${active[@]}"; do
            h=$(metric "$p" menagerie_avatar_cache_hits_total)
            m=$(metric "$p" menagerie_avatar_cache_misses_total)
            hits=$((hits + h)); misses=$((misses + m))
            shares+="${shares:+ / }$(ok_2xx "$p")"
        done
        awk -v b="$balance" -v n="$n" -v r="$rps" -v h="$hits" -v m="$misses" -v s="$shares" -v e="${non2xx:-0}" \
            'BEGIN { printf "| %s | %d | %.0f | %.0f | %s | %.3f (%d of %d) | %s |\n", b, n, r, r / n, s, h / (h + m), h, h + m, e }'
        for p in "${active[@]}"; do stop_replica "$p"; done
    done
done
