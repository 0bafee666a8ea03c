#!/usr/bin/env python3
"""Rewrites the description of a gulbara weights file (GBNN, src/eval/net/mod.rs), format 1 or 2.

`gulbara train` resumes a folder's checkpoint.gbnn and reads from its description the game
(`game=plakoto`) and how many games it has done (`games=N`). This gives a supervised network
(one hidden layer or two) the description of a run at 0 games. Format 2's header has one u32
more after the description's length: the second layer's units.

Usage: describe.py IN OUT "new description"
"""
import struct
import sys

src, dst, text = sys.argv[1:4]
data = open(src, "rb").read()
if data[:4] != b"GBNN":
    sys.exit(f"{src}: not a GBNN weights file")
fmt, layout, inputs, hidden, outputs, n = struct.unpack("<6I", data[4:28])
if fmt == 1:
    hidden2, head = 0, 28
    sizes = inputs * hidden + hidden + outputs * hidden + outputs
elif fmt == 2:
    (hidden2,) = struct.unpack("<I", data[28:32])
    head = 32
    sizes = inputs * hidden + hidden + hidden2 * hidden + hidden2 + outputs * hidden2 + outputs
else:
    sys.exit(f"{src}: format {fmt}, not 1 or 2")
body = data[head + n:]
if len(body) != 4 * sizes:
    sys.exit(f"{src}: {len(body)} bytes of weights, not {4 * sizes}")
desc = text.encode()
extra = struct.pack("<I", hidden2) if fmt == 2 else b""
out = data[:4] + struct.pack("<6I", fmt, layout, inputs, hidden, outputs, len(desc)) + extra + desc + body
open(dst, "wb").write(out)
print(f"{dst}: format {fmt}, layout {layout}, {inputs} inputs, {hidden}+{hidden2} hidden, {outputs} outputs: {text}")
