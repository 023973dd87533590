#!/usr/bin/env python3
"""A ray-traced stand-in for a photo of a physical board (docs/scan.md, "Photos").

This machine has no camera, so the photo examples and the photo test fixtures
are POV-Ray renders of a wooden board with turned pieces, seen from White's
side at an angle, with soft shadows. The script writes the scene for a FEN
placement and prints the picture coordinates of the playing area's four
corners (top-left, top-right, bottom-right, bottom-left as seen), computed
with the same camera, so `tarpon scan photo --corners` can be given exactly
what a person would click.

    python3 arena/scan/photo_scene.py PLACEMENT OUT.pov [--width 960 --height 720]
        [--camera X,Y,Z] [--light X,Y,Z] [--seed N]
    povray +IOUT.pov +OOUT.png +W960 +H720 +A0.1 -D

Board squares are 1 unit, a1 at the origin corner (0, 0, 0), files along +x,
ranks along +z; y is up (POV-Ray's left-handed axes).
"""

import argparse
import math
import random

PIECES = {
    # (parts, height) in units of a square; each part is a POV-Ray object
    # string positioned with its base at y = 0 around the square's centre.
    "p": """union {
  cylinder { <0,0,0>, <0,0.06,0>, 0.30 }
  cone { <0,0.06,0>, 0.22, <0,0.40,0>, 0.09 }
  torus { 0.12, 0.035 translate <0,0.40,0> }
  sphere { <0,0.52,0>, 0.14 }
}""",
    "r": """union {
  cylinder { <0,0,0>, <0,0.08,0>, 0.34 }
  cone { <0,0.08,0>, 0.26, <0,0.55,0>, 0.19 }
  difference {
    cylinder { <0,0.55,0>, <0,0.72,0>, 0.24 }
    cylinder { <0,0.62,0>, <0,0.80,0>, 0.15 }
    box { <-0.3,0.64,-0.04>, <0.3,0.80,0.04> }
    box { <-0.04,0.64,-0.3>, <0.04,0.80,0.3> }
  }
}""",
    "n": """union {
  cylinder { <0,0,0>, <0,0.08,0>, 0.34 }
  cone { <0,0.08,0>, 0.26, <0,0.36,0>, 0.17 }
  box { <-0.10,0.30,-0.18>, <0.10,0.72,0.12> rotate <-12,0,0> translate <0,0,0.02> }
  box { <-0.09,0.52,-0.36>, <0.09,0.70,-0.04> rotate <-20,0,0> }
  cone { <0,0.70,0.02>, 0.06, <0,0.80,0.04>, 0.0 }
}""",
    "b": """union {
  cylinder { <0,0,0>, <0,0.08,0>, 0.32 }
  cone { <0,0.08,0>, 0.24, <0,0.55,0>, 0.09 }
  torus { 0.12, 0.035 translate <0,0.55,0> }
  sphere { <0,0.70,0>, 0.15 scale <1,1.35,1> translate <0,-0.22,0> }
  sphere { <0,0.84,0>, 0.045 }
}""",
    "q": """union {
  cylinder { <0,0,0>, <0,0.08,0>, 0.36 }
  cone { <0,0.08,0>, 0.28, <0,0.78,0>, 0.10 }
  torus { 0.15, 0.04 translate <0,0.76,0> }
  cone { <0,0.78,0>, 0.10, <0,0.92,0>, 0.22 }
  sphere { <0,0.97,0>, 0.07 }
}""",
    "k": """union {
  cylinder { <0,0,0>, <0,0.08,0>, 0.36 }
  cone { <0,0.08,0>, 0.28, <0,0.85,0>, 0.11 }
  torus { 0.16, 0.04 translate <0,0.83,0> }
  cone { <0,0.85,0>, 0.11, <0,0.98,0>, 0.21 }
  box { <-0.035,0.98,-0.035>, <0.035,1.20,0.035> }
  box { <-0.10,1.07,-0.035>, <0.10,1.13,0.035> }
}""",
}


def placement_squares(placement):
    """Yields (file, rank, letter) for each piece of a FEN placement field."""
    for row, text in enumerate(placement.split("/")):
        rank = 7 - row
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            else:
                yield file, rank, ch
                file += 1


def project(point, camera, look_at, angle_deg, width, height):
    """The picture pixel of a scene point, as POV-Ray's perspective camera
    draws it (`right x*width/height`, `up y`, horizontal field `angle`)."""
    d = [look_at[i] - camera[i] for i in range(3)]
    n = math.sqrt(sum(c * c for c in d))
    d = [c / n for c in d]
    sky = [0.0, 1.0, 0.0]
    # Left-handed axes: right = sky x direction, up = direction x right.
    right = [sky[1] * d[2] - sky[2] * d[1], sky[2] * d[0] - sky[0] * d[2], sky[0] * d[1] - sky[1] * d[0]]
    n = math.sqrt(sum(c * c for c in right))
    right = [c / n for c in right]
    up = [d[1] * right[2] - d[2] * right[1], d[2] * right[0] - d[0] * right[2], d[0] * right[1] - d[1] * right[0]]
    v = [point[i] - camera[i] for i in range(3)]
    r = sum(v[i] * right[i] for i in range(3))
    u = sum(v[i] * up[i] for i in range(3))
    f = sum(v[i] * d[i] for i in range(3))
    focal = (width / 2) / math.tan(math.radians(angle_deg) / 2)
    return (width / 2 + focal * r / f, height / 2 - focal * u / f)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("placement")
    parser.add_argument("out")
    parser.add_argument("--width", type=int, default=960)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--camera", default="4.6,8.2,-5.6")
    parser.add_argument("--look-at", default="4,0,3.7")
    parser.add_argument("--angle", type=float, default=52.0)
    parser.add_argument("--light", default="-6,14,-4")
    parser.add_argument("--seed", type=int, default=1, help="small random turns and offsets of the pieces")
    args = parser.parse_args()
    camera = [float(v) for v in args.camera.split(",")]
    look_at = [float(v) for v in args.look_at.split(",")]
    light = [float(v) for v in args.light.split(",")]
    rng = random.Random(args.seed)

    out = []
    out.append(f"""// Written by arena/scan/photo_scene.py for {args.placement}
#version 3.7;
global_settings {{ assumed_gamma 1.0 }}
camera {{ perspective location <{camera[0]},{camera[1]},{camera[2]}> look_at <{look_at[0]},{look_at[1]},{look_at[2]}>
  right x*{args.width}/{args.height} angle {args.angle} }}
light_source {{ <{light[0]},{light[1]},{light[2]}> color rgb <1,0.97,0.9>*1.1
  area_light <2,0,0>, <0,0,2>, 5, 5 adaptive 1 jitter }}
light_source {{ <12,9,-10> color rgb <0.35,0.37,0.42> shadowless }}
background {{ color rgb <0.55,0.57,0.6> }}
// the table
plane {{ y, -0.15 pigment {{ wood turbulence 0.3 color_map {{ [0 color rgb <0.36,0.22,0.12>] [1 color rgb <0.25,0.14,0.07>] }}
  scale <0.5,0.5,8> rotate <0,90,0> }} finish {{ specular 0.2 roughness 0.05 }} }}
// the frame around the playing area
difference {{
  box {{ <-0.55,-0.15,-0.55>, <8.55,0.0,8.55> }}
  box {{ <0,-0.2,0>, <8,0.1,8> }}
  pigment {{ color rgb <0.30,0.16,0.08> }} finish {{ specular 0.3 roughness 0.03 }}
}}
#declare Light = texture {{ pigment {{ wood turbulence 0.1 color_map {{ [0 color rgb <0.93,0.80,0.58>] [1 color rgb <0.85,0.70,0.48>] }}
  scale 0.08 rotate <0,0,90> }} finish {{ specular 0.25 roughness 0.04 }} }}
#declare Dark = texture {{ pigment {{ wood turbulence 0.15 color_map {{ [0 color rgb <0.52,0.30,0.16>] [1 color rgb <0.42,0.23,0.11>] }}
  scale 0.08 rotate <0,0,90> }} finish {{ specular 0.25 roughness 0.04 }} }}
#declare WhitePiece = texture {{ pigment {{ color rgb <0.92,0.88,0.78> }} finish {{ specular 0.5 roughness 0.02 diffuse 0.8 }} }}
#declare BlackPiece = texture {{ pigment {{ color rgb <0.09,0.07,0.06> }} finish {{ specular 0.6 roughness 0.015 diffuse 0.7 }} }}
""")
    for file in range(8):
        for rank in range(8):
            tex = "Dark" if (file + rank) % 2 == 0 else "Light"
            out.append(f"box {{ <{file},-0.05,{rank}>, <{file + 1},0,{rank + 1}> texture {{ {tex} }} }}")
    for file, rank, letter in placement_squares(args.placement):
        shape = PIECES[letter.lower()]
        tex = "WhitePiece" if letter.isupper() else "BlackPiece"
        # Knights face the other side; every piece a little turned and off centre.
        turn = (180 if letter.isupper() else 0) + rng.uniform(-25, 25)
        dx, dz = rng.uniform(-0.06, 0.06), rng.uniform(-0.06, 0.06)
        out.append(f"object {{ {shape} texture {{ {tex} }} rotate <0,{turn:.1f},0> "
                   f"translate <{file + 0.5 + dx:.3f},0,{rank + 0.5 + dz:.3f}> }}")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    # The playing area's corners as seen: a8 side is far (top), White's near.
    corners = [(0, 0, 8), (8, 0, 8), (8, 0, 0), (0, 0, 0)]
    pixels = [project(c, camera, look_at, args.angle, args.width, args.height) for c in corners]
    print(" ".join(f"{x:.1f},{y:.1f}" for x, y in pixels))


if __name__ == "__main__":
    main()
