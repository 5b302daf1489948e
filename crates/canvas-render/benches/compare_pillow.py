#!/usr/bin/env python3
"""Runs the canvas-render criterion benches and Pillow's pillow_ref.py in
alternation (the machine is noisy), then prints a markdown table of medians
and ratios for docs/benchmarks-history/canvas-render.md.

Usage (from the workspace root, with a Pillow venv, see ../shared/bench/README.md):

    python3 crates/canvas-render/benches/compare_pillow.py \
        --pillow-python /work/venv-pillow/bin/python \
        --bench-dir ../shared/bench --rounds 3

Medians: criterion's median estimate (target/criterion/*/new/estimates.json),
Pillow's median of runs. Each cell is the median over rounds.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

# our benchmark -> Pillow row it is compared with
FILTERS = {
    "blue": "greyscale", "green": "greyscale", "red": "greyscale", "greyscale": "greyscale",
    "invertgreyscale": "greyscale", "invert": "invert", "sepia": "sepia",
    "blur": "blur_sigma5", "pixelate": "pixelate_8", "brightness": "brightness_1.5",
    "threshold": "threshold_128", "color": "tint_#5865F2",
    "blurple": "blurple_lut", "blurple2": "blurple_lut",
}
OTHERS = {
    "codec/decode": "decode_png",
    "codec/encode_avatar": "encode_png_level1",
    "shape/circle": "circle_crop_aa",
    "shape/pride_lgbt": "pride_overlay",
    "pipeline/dec+greyscale+enc": "PIPE dec+greyscale+enc1",
    "pipeline/dec+circle+enc": "PIPE dec+circle_crop_aa+enc1",
    "pipeline/dec+blur+enc": "PIPE dec+blur_sigma5+enc1",
}


def run_rust(target_dir, criterion_args):
    out = subprocess.run(["cargo", "bench", "-p", "canvas-render", "--bench", "canvas", "--"]
                         + criterion_args, capture_output=True, text=True, check=True)
    sizes = next((l for l in out.stderr.splitlines() + out.stdout.splitlines() if l.startswith("avatar:")), "")
    res = {}
    for name in [f"filter/{f}" for f in FILTERS] + list(OTHERS) + ["shape/heart"]:
        path = os.path.join(target_dir, "criterion", name, "new", "estimates.json")
        with open(path) as f:
            res[name] = json.load(f)["median"]["point_estimate"] / 1e6  # ns -> ms
    return res, sizes


def run_pillow(python, bench_dir):
    out = subprocess.run([python, "pillow_ref.py", "--sizes", "512", "--min-time", "1.0"],
                         cwd=bench_dir, capture_output=True, text=True, check=True).stdout
    res, meta = {}, []
    for line in out.splitlines():
        m = re.match(r"\|\s*(.+?)\s*\|\s*([\d.]+)\s*\(", line)
        if m:
            res[m.group(1)] = float(m.group(2))
        elif line.startswith("#"):
            meta.append(line)
    return res, meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pillow-python", required=True)
    ap.add_argument("--bench-dir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true",
                    help="criterion: 1 s warm-up, 2 s measurement (about 1 min a round)")
    args = ap.parse_args()
    target_dir = os.environ.get("CARGO_TARGET_DIR", "target")
    rust, pil, sizes, meta = [], [], "", []
    for i in range(args.rounds):
        print(f"round {i + 1}: rust", file=sys.stderr)
        r, sizes = run_rust(target_dir, ["--warm-up-time", "1", "--measurement-time", "2"] if args.quick else [])
        rust.append(r)
        print(f"round {i + 1}: pillow", file=sys.stderr)
        p, meta = run_pillow(args.pillow_python, args.bench_dir)
        pil.append(p)
    med = lambda rows, k: statistics.median(row[k] for row in rows)

    print("\n".join(meta))
    print(sizes)
    print("\n| operation | canvas-render ms | Pillow op | Pillow ms | Pillow / ours |")
    print("|---|---:|---|---:|---:|")
    sum_r = sum_p = 0.0
    for f, p in FILTERS.items():
        r, q = med(rust, f"filter/{f}"), med(pil, p)
        sum_r, sum_p = sum_r + r, sum_p + q
        print(f"| filter {f} | {r:.3f} | {p} | {q:.3f} | {q / r:.1f}x |")
    print(f"| **sum of 14 filters** | **{sum_r:.3f}** | | **{sum_p:.3f}** | **{sum_p / sum_r:.1f}x** |")
    for name, p in OTHERS.items():
        r, q = med(rust, name), med(pil, p)
        print(f"| {name} | {r:.3f} | {p} | {q:.3f} | {q / r:.1f}x |")
    print(f"| shape/heart | {med(rust, 'shape/heart'):.3f} | | | |")


if __name__ == "__main__":
    main()
