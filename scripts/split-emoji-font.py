#!/usr/bin/env python3
"""Splits Noto Color Emoji (CBDT/CBLC) into two fonts that each pack into a
crate well under crates.io's 10 MiB limit, without changing one bitmap.

    pip install fonttools==4.68.0
    scripts/split-emoji-font.py NotoColorEmoji.ttf OUT_DIR

Writes OUT_DIR/NotoColorEmoji-People.ttf (family "Noto Color Emoji People")
and OUT_DIR/NotoColorEmoji-Things.ttf (family "Noto Color Emoji Things").

The split follows the font's own substitutions (GSUB): two characters that
meet in one ligature (a ZWJ sequence, a skin tone, a flag, a keycap, a tag
sequence) or one contextual rule end up in the same font, so every sequence
the original font draws is drawn whole by one of the two. "People" is the
largest such group (people, gestures and everything a ZWJ sequence joins to
them: professions, families, hair, animals and objects of the ZWJ list);
"Things" is the rest (flags, keycaps, animals, food, objects, symbols). The
joiners that sequences share (ZWJ, VS15/VS16, the skin-tone modifiers, the
keycap mark and the tag characters) are in both. Every glyph keeps its
bitmap bytes, metrics and advance, and the fonts keep the original's line
metrics, so text drawn through the pair (People first) is pixel-identical
to text drawn with the original font.
"""
import sys
from collections import defaultdict

from fontTools import subset
from fontTools.ttLib import TTFont

SHARED = {0x20, 0x200D, 0xFE0E, 0xFE0F, 0x20E3}  # space: default ignorables become it
SHARED |= set(range(0x1F3FB, 0x1F400))  # skin-tone modifiers
SHARED |= set(range(0xE0020, 0xE0080))  # tag characters


def groups(font):
    """Union-find over glyphs joined by a substitution (shared glyphs left out)."""
    cmap = font.getBestCmap()
    shared = {cmap[c] for c in SHARED if c in cmap}
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(glyphs):
        glyphs = [g for g in glyphs if g not in shared]
        for a, b in zip(glyphs, glyphs[1:]):
            parent[find(a)] = find(b)

    for lookup in font["GSUB"].table.LookupList.Lookup:
        for st in lookup.SubTable:
            if lookup.LookupType == 1:
                for a, b in st.mapping.items():
                    join([a, b])
            elif lookup.LookupType == 2:
                for a, out in st.mapping.items():
                    join([a, *out])
            elif lookup.LookupType == 4:
                for first, ligs in st.ligatures.items():
                    for lig in ligs:
                        join([first, *lig.Component, lig.LigGlyph])
            elif lookup.LookupType in (5, 6):
                # The contextual rules of this font are closed over one group
                # already (regional indicators; a tag sequence after the black
                # flag); their coverage joins them again to be sure.
                join(list(st.Coverage.glyphs))
            else:
                sys.exit(f"unexpected GSUB lookup type {lookup.LookupType}")
    return cmap, shared, find


def bitmap_bytes(font):
    sizes = defaultdict(int)
    for strike in font["CBDT"].strikeData:
        for name, bmp in strike.items():
            sizes[name] += len(bmp.data)
    return sizes


def write(src, out, unicodes, family):
    font = TTFont(src)
    opts = subset.Options()
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.glyph_names = False
    opts.recalc_bounds = False
    opts.recalc_timestamp = False
    opts.drop_tables = []
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=sorted(unicodes))
    sub.subset(font)
    name = font["name"]
    for rec in name.names:
        if rec.nameID in (1, 16):
            rec.string = family
        elif rec.nameID == 4:
            rec.string = family
        elif rec.nameID == 6:
            rec.string = family.replace(" ", "")
    font.save(out)


def main():
    src, out_dir = sys.argv[1], sys.argv[2]
    font = TTFont(src)
    cmap, shared, find = groups(font)
    sizes = bitmap_bytes(font)
    weight = defaultdict(int)
    for glyph in font.getGlyphOrder():
        if glyph not in shared:
            weight[find(glyph)] += sizes.get(glyph, 0)
    people = max(weight, key=weight.get)
    shared_cps = set(SHARED)  # FE0F is no cmap entry: its sequences are in the format 14 subtable
    first = {c for c, g in cmap.items() if c not in SHARED and find(g) == people}
    rest = {c for c in cmap if c not in SHARED and c not in first}
    write(src, f"{out_dir}/NotoColorEmoji-People.ttf", first | shared_cps, "Noto Color Emoji People")
    write(src, f"{out_dir}/NotoColorEmoji-Things.ttf", rest | shared_cps, "Noto Color Emoji Things")
    print(f"people: {len(first)} characters, things: {len(rest)}, shared: {len(shared_cps)}")


if __name__ == "__main__":
    main()
