#!/usr/bin/env python3
"""A book-diagram glyph on a white square (pgn2web's 32-px PNGs) as a sprite:
the white reached from the border around the glyph's outline becomes
transparent, the outline keeps its ink, a White piece's inside stays white.
Usage: diagram_sprite.py GLYPH_ON_WHITE_SQUARE.png SPRITE.png
Standard library only (the PNG is read and written here), so fetch_art.sh
needs nothing more."""
import struct
import sys
import zlib
from collections import deque

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def read_grey(path):
    """Width, height and rows of grey levels (0-255) of a non-interlaced
    8- or 16-bit PNG."""
    data = open(path, "rb").read()
    if data[:8] != PNG_SIGNATURE:
        sys.exit(f"{path}: not a PNG")
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = head
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    if depth not in (8, 16) or interlace:
        sys.exit(f"{path}: {depth}-bit or interlaced PNGs are not read here")
    bpp = channels * depth // 8
    stride = width * bpp
    raw = zlib.decompress(idat)
    colours = min(3, channels)
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            predictor = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
            line[i] = (line[i] + predictor) & 255
        prev = line
        step = depth // 8  # the high byte of a 16-bit sample comes first
        rows.append([sum(line[(x * channels + k) * step] for k in range(colours)) // colours
                     for x in range(width)])
    return width, height, rows


def write_rgba(path, width, height, rgba):
    raw = b"".join(b"\0" + bytes(rgba[y * width * 4:(y + 1) * width * 4]) for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
                + chunk(b"IEND", b""))


def main(source, target):
    width, height, grey = read_grey(source)
    inside = lambda x, y: 0 <= x < width and 0 <= y < height
    # Light pixels connected to the border are the square around the glyph.
    outside = [[False] * width for _ in range(height)]
    todo = deque((x, y) for y in range(height) for x in range(width)
                 if x in (0, width - 1) or y in (0, height - 1))
    while todo:
        x, y = todo.popleft()
        if inside(x, y) and not outside[y][x] and grey[y][x] >= 128:
            outside[y][x] = True
            todo.extend(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
    rgba = bytearray()
    for y in range(height):
        for x in range(width):
            edge = any(inside(x + dx, y + dy) and outside[y + dy][x + dx]
                       for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            if outside[y][x]:
                rgba += bytes((0, 0, 0, 0))
            elif edge:  # the outline: black ink, its grey as coverage
                rgba += bytes((0, 0, 0, 255 - grey[y][x]))
            else:
                rgba += bytes((grey[y][x],) * 3 + (255,))
    write_rgba(target, width, height, rgba)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
