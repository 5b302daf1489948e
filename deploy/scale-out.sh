#!/usr/bin/env bash
# Scale-out check on loopback: one vs two replicas behind nginx, and the
# cache hit ratio. Not run in CI.
#
#   deploy/scale-out.sh            # 10 s per phase
#   DURATION=20s deploy/scale-out.sh
#
# Installs Debian's nginx and wrk when missing, builds the release binary,
# starts two replicas (1 worker each) on 127.0.0.1:18181/18182 and nginx on
# 127.0.0.1:18180 with deploy/menagerie.nginx.conf (ports, paths and the
# replica list rewritten for a private prefix), then drives load with wrk:
#   1. direct to replica 1 (no proxy), distinct URLs;
#   2. nginx → one replica, distinct URLs (every request a cache miss);
#   3. nginx → two replicas, distinct URLs;
#   4. nginx → two replicas, 64 URLs rotating (the cache answers).
# Everything it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${DURATION:-10s}
CONNS=${CONNS:-32}
PORT_NGINX=18180
PORT_A=18181
PORT_B=18182

need() { command -v "$1" >/dev/null 2>&1 || command -v "/usr/sbin/$1" >/dev/null 2>&1; }
if ! need nginx || ! need wrk; then
    echo "scale-out: installing nginx and wrk from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx wrk >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

echo "scale-out: building the release binary"
cargo build --release --quiet --package server --bin menagerie
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/menagerie
DATA=$ROOT/data
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

start_replica() {
    "$BIN" --bind "127.0.0.1:$1" --workers 1 --data-dir "$DATA" --log-level warn \
        --trusted-proxy 127.0.0.1/32 >"$WORK/replica-$1.log" 2>&1 &
    PIDS+=($!)
}
wait_up() {
    for _ in $(seq 100); do
        if exec 3<>"/dev/tcp/127.0.0.1/$1" 2>/dev/null; then exec 3>&- 3<&-; return 0; fi
        sleep 0.1
    done
    echo "scale-out: nothing listens on $1" >&2; exit 1
}

# nginx config: the deploy snippet with loopback ports, a private cache and
# log, and the given replicas.
nginx_conf() { # $1.. = replica ports
    local servers=""
    for p in "$@"; do servers+="    server 127.0.0.1:$p max_fails=3 fail_timeout=5s;\n"; done
    mkdir -p "$WORK/cache" "$WORK/tmp"
    sed -e "s#/var/cache/nginx/menagerie#$WORK/cache#" \
        -e "s#/var/log/nginx/menagerie.log#$WORK/access.log#" \
        -e "s#listen 80;#listen 127.0.0.1:$PORT_NGINX;#" \
        -e '/server 127.0.0.1:808[0-9]/d' \
        -e "s#least_conn;#least_conn;\n$servers#" \
        deploy/menagerie.nginx.conf >"$WORK/menagerie.conf"
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
        "$NGINX" -p "$WORK" -c "$WORK/nginx.conf" -s reload
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
