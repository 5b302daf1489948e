#!/usr/bin/env bash
# Animated avatars, side by side: Menagerie vs the sharp (libvips) peer (sharp_server.js here, the
# shared peer plus animated pipelines). A 128x128, 60-frame GIF (make_animated_avatar.js) goes through
# greyscale and through circle; both servers answer an animated GIF. wrk drives each server in turn,
# the order alternating every round.
#
# Usage: bash run_animated.sh [rounds=3] [duration=20s]
# Env:   MENAGERIE_DIR (project root with target/release/menagerie; default: four levels up),
#        CONNS_GREY (default 8), CONNS_CIRCLE (default 4), OUT (default results/<UTC time>),
#        SCENARIOS (default "grey circle"), DRAIN_S (default 30).
# Needs: node 20 + `npm ci` here, wrk, curl, python3. Stops only the processes it started.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${1:-3}; DUR=${2:-20s}
MAIN=${MENAGERIE_DIR:-$(cd "$HERE/../../../../.." && pwd)}
CG=${CONNS_GREY:-8}; CC=${CONNS_CIRCLE:-4}
OUT=${OUT:-$HERE/results/$(date -u +%Y%m%dT%H%M%SZ)}
M=18140; O=18141; S=18142
mkdir -p "$OUT"
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done; true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
wait_url() { for _ in $(seq 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "not up: $1" >&2; exit 1; }

[ -x "$MAIN/target/release/menagerie" ] || { echo "no $MAIN/target/release/menagerie" >&2; exit 1; }
[ -d "$HERE/node_modules/sharp" ] || (cd "$HERE" && npm ci --no-audit --no-fund >/dev/null)
[ -f "$HERE/avatars/anim_128x60.gif" ] || (cd "$HERE" && node make_animated_avatar.js)

python3 -m http.server $O --bind 127.0.0.1 --directory "$HERE/avatars" >"$OUT/origin.log" 2>&1 & PIDS+=($!)
(cd "$MAIN" && exec ./target/release/menagerie --bind 127.0.0.1:$M --allow-private-avatars \
   --output-cache-mb 0 --log-level warn >"$OUT/menagerie.log" 2>&1) & PIDS+=($!)
(cd "$HERE" && exec node sharp_server.js --port $S --workers 2 --concurrency 1 >"$OUT/sharp.log" 2>&1) & PIDS+=($!)
for u in http://127.0.0.1:$O/ http://127.0.0.1:$M/ http://127.0.0.1:$S/; do wait_url "$u"; done

A=http://127.0.0.1:$O/anim_128x60.gif
url() { # server scenario
  case $1:$2 in
    menagerie:grey) echo "http://127.0.0.1:$M/canvas/filter/greyscale?avatar=$A";;
    menagerie:circle) echo "http://127.0.0.1:$M/canvas/misc/circle?avatar=$A";;
    sharp:grey) echo "http://127.0.0.1:$S/filter/greyscale?avatar=$A";;
    sharp:circle) echo "http://127.0.0.1:$S/filter/circle?avatar=$A";;
  esac
}
{
  echo "# $(date -u +%FT%TZ) $(nproc) CPUs; wrk -t2 -d$DUR --timeout 60s; grey c$CG, circle c$CC; rounds=$ROUNDS"
  echo "# menagerie $(cd "$MAIN" && git rev-parse --short HEAD 2>/dev/null); sharp/libvips $(cd "$HERE" && node -e "const s=require('sharp');console.log(s.versions.sharp+'/'+s.versions.vips)")"
} | tee "$OUT/meta.txt"

# Output sizes and frame counts, and warm the avatar caches.
echo -e "scenario\tserver\thttp\tbytes\ttype" >"$OUT/sizes.tsv"
read -r -a SCEN <<<"${SCENARIOS:-grey circle}"
for sc in "${SCEN[@]}"; do for sv in menagerie sharp; do
  r=$(curl -s -o "$OUT/${sc}_${sv}.gif" -w '%{http_code}\t%{size_download}\t%{content_type}' "$(url $sv $sc)")
  echo -e "$sc\t$sv\t$r" >>"$OUT/sizes.tsv"
done; done
column -t -s$'\t' "$OUT/sizes.tsv"

echo -e "round\tscenario\tserver\trps\tp50\tp99\tnon2xx" >"$OUT/runs.tsv"
for r in $(seq "$ROUNDS"); do
  for sc in "${SCEN[@]}"; do
    c=$CG; [ $sc = circle ] && c=$CC
    order=(menagerie sharp); [ $((r % 2)) = 0 ] && order=(sharp menagerie)
    for sv in "${order[@]}"; do
      sleep 2
      f="$OUT/wrk_${r}_${sc}_${sv}.txt"
      wrk -t2 -c"$c" -d"$DUR" --timeout 60s --latency "$(url $sv $sc)" >"$f" 2>&1
      rps=$(awk '/Requests\/sec/ {print $2}' "$f")
      p50=$(awk '$1=="50%" {print $2}' "$f"); p99=$(awk '$1=="99%" {print $2}' "$f")
      bad=$(awk '/Non-2xx/ {print $5}' "$f")
      echo -e "$r\t$sc\t$sv\t$rps\t$p50\t$p99\t${bad:-0}" | tee -a "$OUT/runs.tsv"
      # sharp keeps working on the requests wrk abandoned (a circle takes seconds): let it
      # finish before the next server is measured
      [ $sv = sharp ] && [ $sc = circle ] && sleep "${DRAIN_S:-30}"
    done
  done
done
python3 - "$OUT/runs.tsv" <<'PY' | tee "$OUT/summary.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
print("| scenario | Menagerie req/s (median) | sharp req/s (median) | ratio | rounds |")
print("|---|---:|---:|---:|---|")
for sc in ("grey", "circle"):
    m = [float(r["rps"]) for r in rows if r["scenario"] == sc and r["server"] == "menagerie"]
    s = [float(r["rps"]) for r in rows if r["scenario"] == sc and r["server"] == "sharp"]
    if m and s:
        mm, ms = statistics.median(m), statistics.median(s)
        ratio = f"{mm / ms:.1f}x" if ms > 0 else "sharp finished no request in the run"
        print(f"| {sc} | {mm:.1f} | {ms:.2f} | {ratio} | M {m} / s {s} |")
PY
