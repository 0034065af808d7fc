#!/usr/bin/env python3
"""Checks colours in a chromium screenshot of an `umpire draw` SVG.

usage: svg_pixels.py FILE.svg FILE.png "TITLE=#rrggbb" ... | "bar:AFTER|PREFIX=#rrggbb" ... | cells
Each TITLE is the <title> of a hex polygon ("BB5: woods"); the pixel a third of the way from the
hex's centre towards its bottom edge (clear of the name label and the counters) must have the
colour, within a tolerance. A "bar:" spec (an `umpire odds` chart) names the first
<rect class="bar"> after the text AFTER whose <title> starts with PREFIX; its centre pixel must
have the colour. "cells" (an `umpire sweep` heat map) checks every <rect class="cell">: a pixel
just inside its top-left corner (clear of the value printed at its centre) must have the cell's
own fill, so each cell is drawn where the SVG puts it, in its colour. The PNG is decoded here (zlib only) so no imaging library is needed.
"""
import re
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "unsupported PNG format"
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    svg, png = open(sys.argv[1]).read(), sys.argv[2]
    width, height, bpp, rows = read_png(png)
    failed = 0
    for spec in sys.argv[3:]:
        if spec == "cells":
            cells = re.findall(r'<rect class="cell" x="([^"]+)" y="([^"]+)" width="[^"]+" height="[^"]+" '
                               r'fill="(#[0-9a-f]{6})"><title>([^<]*)', svg)
            if not cells:
                print("FAIL: no heat-map cells in the SVG")
                failed += 1
            for cx, cy, fill, title in cells:
                x, y = int(float(cx)) + 4, int(float(cy)) + 4
                got = tuple(rows[y][x * bpp:x * bpp + 3]) if 0 <= x < width and 0 <= y < height else None
                want = tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
                ok = got is not None and all(abs(g - w) <= 16 for g, w in zip(got, want))
                if not ok:
                    print("FAIL cell %s at (%d, %d): got %s, want %s" % (title, x, y, got, fill))
                failed += not ok
            print("%s %d heat-map cells in their colours" % ("ok  " if cells and not failed else "FAIL", len(cells)))
            continue
        title, colour = spec.rsplit("=", 1)
        if title.startswith("bar:"):
            after, prefix = title[4:].split("|", 1)
            start = svg.find(after)
            m = re.compile(r'<rect class="bar" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"[^>]*><title>'
                           + re.escape(prefix)).search(svg, max(start, 0))
            if start < 0 or not m:
                print("FAIL: no bar %r after %r in the SVG" % (prefix, after))
                failed += 1
                continue
            bx, by, bw, bh = map(float, m.groups())
            pts = [(bx, by), (bx + bw, by + bh)]
            cx, cy, bottom = bx + bw / 2, by + bh / 2, by + bh / 2
        else:
            m = None
        m = m or re.search(r'<polygon class="hex [^"]*"[^>]*? points="([^"]+)"[^>]*><title>' + re.escape(title) + "</title>", svg)
        if not m:
            print("FAIL: no hex titled %r in the SVG" % title)
            failed += 1
            continue
        if not title.startswith("bar:"):
            pts = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts)
            bottom = max(p[1] for p in pts)
        x, y = int(round(cx)), int(round(cy + (bottom - cy) / 3))
        if not (0 <= x < width and 0 <= y < height):
            print("FAIL: %s at (%d, %d) is outside the %dx%d screenshot" % (title, x, y, width, height))
            failed += 1
            continue
        got = tuple(rows[y][x * bpp:x * bpp + 3])
        want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        ok = all(abs(g - w) <= 16 for g, w in zip(got, want))
        print("%s %s at (%d, %d): got #%02x%02x%02x, want %s" % ("ok  " if ok else "FAIL", title, x, y, *got, colour))
        failed += not ok
    sys.exit(1 if failed else 0)


main()
