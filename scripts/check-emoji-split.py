#!/usr/bin/env python3
"""Checks that the two parts written by scripts/split-emoji-font.py draw every
emoji and sequence exactly as the whole font does.

    pip install fonttools==4.68.0 uharfbuzz
    scripts/check-emoji-split.py NotoColorEmoji.ttf People.ttf Things.ttf

Sequences: every character of the cmap, every ligature of the GSUB with its
components (and again with VS16 after each character that has an emoji
variation sequence), each character with VS16, every pair of regional
indicators and the three subdivision flags. Each is shaped with HarfBuzz
with the whole font and with the parts (People first, Things when People
leaves a .notdef), and the bitmaps and advances must be the same.
"""
import itertools
import sys

import uharfbuzz as hb
from fontTools.ttLib import TTFont


def load(path):
    font = TTFont(path)
    bitmaps = {}
    for strike in font["CBDT"].strikeData:
        for name, bmp in strike.items():
            bitmaps[name] = bmp.data
    shaper = hb.Font(hb.Face(hb.Blob.from_file_path(path)))
    return font, font.getGlyphOrder(), bitmaps, shaper


def shape(f, text):
    _, order, _, shaper = f
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(shaper, buf, {})
    return [(order[i.codepoint], p.x_advance) for i, p in zip(buf.glyph_infos, buf.glyph_positions)]


def sequences(font):
    cmap = font.getBestCmap()
    rev = {}
    for c, g in cmap.items():
        rev.setdefault(g, c)
    seqs = {chr(c) for c in cmap}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        if lookup.LookupType != 4:
            continue
        for st in lookup.SubTable:
            for first, ligs in st.ligatures.items():
                for lig in ligs:
                    comps = [first, *lig.Component]
                    if all(g in rev for g in comps):
                        seqs.add("".join(chr(rev[g]) for g in comps))
    with_vs = set()
    for table in font["cmap"].tables:
        if table.format == 14:
            for vs, entries in table.uvsDict.items():
                for base, _ in entries:
                    with_vs.add(base)
                    seqs.add(chr(base) + chr(vs))
    for s in list(seqs):
        seqs.add("".join(c + ("\ufe0f" if ord(c) in with_vs else "") for c in s))
    ris = [chr(c) for c in range(0x1F1E6, 0x1F200)]
    seqs.update(a + b for a, b in itertools.product(ris, ris))
    for tag in ["gbeng", "gbsct", "gbwls"]:
        seqs.add("\U0001F3F4" + "".join(chr(0xE0000 + ord(ch)) for ch in tag) + "\U000E007F")
    return seqs


def main():
    whole, people, things = (load(p) for p in sys.argv[1:4])
    bad = 0
    seqs = sequences(whole[0])
    for s in sorted(seqs):
        want = [(whole[2].get(g), adv) for g, adv in shape(whole, s)]
        if any(g == ".notdef" for g, _ in shape(whole, s)):
            continue  # not drawn by the whole font either
        got = None
        for part in (people, things):
            r = shape(part, s)
            if all(g != ".notdef" for g, _ in r):
                got = [(part[2].get(g), adv) for g, adv in r]
                break
        if got != want:
            bad += 1
            print("differs:", " ".join(f"U+{ord(c):04X}" for c in s))
    print(f"{len(seqs)} sequences, {bad} drawn differently")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
