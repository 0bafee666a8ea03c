#!/usr/bin/env python3
"""Rewrites the description of a gulbara weights file (GBNN, src/eval/net/mod.rs).

`gulbara train` resumes a folder's checkpoint.gbnn and reads from its description the game
(`game=plakoto`) and how many games it has done (`games=N`). Generation 2 started TD(λ) from a
supervised network: this gives that network the description of a run at 0 games.

Usage: describe.py IN OUT "new description"
"""
import struct
import sys

src, dst, text = sys.argv[1:4]
data = open(src, "rb").read()
if data[:4] != b"GBNN":
    sys.exit(f"{src}: not a GBNN weights file")
fmt, layout, inputs, hidden, outputs, n = struct.unpack("<6I", data[4:28])
body = data[28 + n:]
if len(body) != 4 * (inputs * hidden + hidden + outputs * hidden + outputs):
    sys.exit(f"{src}: {len(body)} bytes of weights, not {inputs}x{hidden}x{outputs}")
desc = text.encode()
open(dst, "wb").write(data[4 * 0:4] + struct.pack("<6I", fmt, layout, inputs, hidden, outputs, len(desc)) + desc + body)
print(f"{dst}: layout {layout}, {inputs} inputs, {hidden} hidden, {outputs} outputs: {text}")
