"""Writes small animated seeds for the `animated_decode` fuzz target with
Pillow: GIFs (frame sub-rectangles, every disposal, transparency, loop
counts), APNGs (blending, disposal, plays) and animated WebPs (lossy and
lossless). Run from `fuzz/`: `python3 seeds/make_animated_seeds.py`."""

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).parent / "animated_decode"


def frames(n, size, mode="RGBA"):
    out = []
    for k in range(n):
        im = Image.new(mode, size, (0, 0, 0, 0) if mode == "RGBA" else 0)
        d = ImageDraw.Draw(im)
        x = (k * 3) % size[0]
        d.rectangle([x, 1, x + size[0] // 3, size[1] // 2], fill=(255, 40 * k % 256, 0, 255))
        d.ellipse([1, size[1] // 2, size[0] // 2, size[1] - 1], fill=(0, 0, 255, 128 + k * 20))
        out.append(im)
    return out


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    f = frames(4, (12, 10))
    # GIF: Pillow crops each frame to what changed (sub-rectangles).
    f[0].save(OUT / "loop_forever.gif", save_all=True, append_images=f[1:],
              duration=[10, 0, 70, 65535 // 10 * 10], loop=0, disposal=[0, 1, 2, 3])
    f[0].save(OUT / "plays_twice.gif", save_all=True, append_images=f[1:3],
              duration=40, loop=2, disposal=2, transparency=0)
    p = [im.convert("P") for im in frames(3, (9, 9))]
    p[0].save(OUT / "no_loop.gif", save_all=True, append_images=p[1:], duration=100)
    # APNG: blending over, disposal to previous / background.
    f[0].save(OUT / "blend.apng", format="PNG", save_all=True, append_images=f[1:],
              duration=[50, 120, 30, 0], loop=3, disposal=[0, 2, 1, 0], blend=[0, 1, 1, 0])
    g = [im.convert("LA") for im in frames(2, (6, 5))]
    g[0].save(OUT / "grey_alpha.apng", format="PNG", save_all=True, append_images=g[1:],
              duration=100, loop=0)
    # Animated WebP, lossless and lossy.
    f[0].save(OUT / "lossless.webp", save_all=True, append_images=f[1:],
              duration=[80, 250, 0, 40], loop=4, lossless=True)
    f[0].save(OUT / "lossy.webp", save_all=True, append_images=f[1:3],
              duration=60, loop=0, quality=30, minimize_size=False, allow_mixed=False)


if __name__ == "__main__":
    main()
