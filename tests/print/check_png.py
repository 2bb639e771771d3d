#!/usr/bin/env python3
"""Check a screenshot is a whole, non-blank PNG: signature, chunk CRCs,
IHDR size, every scanline decoded (filters 0-4), more than one colour, and
(given COLOUR as #rrggbb) at least MIN pixels of exactly that colour, which
is how the test knows the SVG bar chart was drawn.

usage: check_png.py FILE.png WIDTH HEIGHT [COLOUR MIN]"""
import struct
import sys
import zlib


def fail(msg):
    print(f"check_png: {msg}")
    sys.exit(1)


def chunks(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG (bad signature)")
    pos = 8
    while pos + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if len(body) != length or zlib.crc32(kind + body) != crc:
            fail(f"chunk {kind!r} at {pos} is cut short or has a bad CRC")
        yield kind, body
        if kind == b"IEND":
            return
        pos += 12 + length
    fail("no IEND: the file is cut short")


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    colour = bytes.fromhex(sys.argv[4].lstrip("#")) if len(sys.argv) > 4 else None
    min_px = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    with open(path, "rb") as f:
        data = f.read()
    idat, ihdr = b"", None
    for kind, body in chunks(data):
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if not ihdr:
        fail("no IHDR")
    w, h, depth, ctype, _, _, interlace = ihdr
    if (w, h) != (want_w, want_h):
        fail(f"size {w}x{h}, want {want_w}x{want_h}")
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail(f"unexpected format: depth {depth}, colour type {ctype}, interlace {interlace}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    if len(raw) != h * (stride + 1):
        fail(f"{len(raw)} bytes of pixels, want {h * (stride + 1)}")
    prev = bytearray(stride)
    colours = set()
    hits = 0
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                ul = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + paeth(left, prev[i], ul)) & 255
        elif ftype != 0:
            fail(f"scanline {y}: unknown filter {ftype}")
        if len(colours) < 64 or colour:
            px = [bytes(line[i:i + 3]) for i in range(0, stride, bpp)]
            if len(colours) < 64:
                colours.update(px)
            if colour:
                hits += px.count(colour)
        prev = line
    if len(colours) < 2:
        fail("the screenshot is blank (one colour)")
    if colour and hits < min_px:
        fail(f"only {hits} pixels of #{colour.hex()} (the bar colour), want {min_px} or more")
    print(f"check_png: {path}: {w}x{h}, {len(colours)}{'+' if len(colours) >= 64 else ''} "
          f"colours" + (f", {hits} pixels of #{colour.hex()}" if colour else ""))


if __name__ == "__main__":
    main()
