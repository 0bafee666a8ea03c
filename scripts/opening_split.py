#!/usr/bin/env python3
"""A match's ppg split by the starter's first roll.

    scripts/opening_split.py GAME ROLLS FILE.json[.xz] ...

ROLLS: the first rolls to set apart, larger die first, comma-separated
(`52,63`). Each file's pairs (a `gulbara match --out` file of GAME, plain or
xz) are split by the first roll of their games (both games of a pair share
it), found from the pair's dice seed by `examples/opening_rolls.rs` (build
it first: `cargo build --release --example opening_rolls`). Prints the first
engine's ppg ± standard error over the pairs of each part.
"""

import json
import lzma
import subprocess
import sys

from paired_ppg import mean_se  # scripts/ is on the path when run as scripts/opening_split.py


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    game = sys.argv[1]
    apart = {(int(r[0]), int(r[1])) for r in sys.argv[2].split(",")}
    for path in sys.argv[3:]:
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt") as f:
            pairs = json.load(f)["pairs"]
        seeds = "\n".join(str(p["dice_seed"]) for p in pairs)
        out = subprocess.run(
            ["target/release/examples/opening_rolls", game],
            input=seeds,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        roll = {}
        for line in out.splitlines():
            seed, _starter, hi, lo = line.split()
            roll[int(seed)] = (int(hi), int(lo))
        parts = ([], [])
        for p in pairs:
            x = sum(g["points"] for g in p["games"]) / len(p["games"])
            parts[0 if roll[p["dice_seed"]] in apart else 1].append(x)
        text = []
        for name, xs in zip((sys.argv[2], "other first rolls"), parts):
            if len(xs) > 1:
                m, se = mean_se(xs)
                text.append(f"{name}: {m:+.4f} ± {se:.4f} ({2 * len(xs)} games)")
        print(f"{path}: " + "; ".join(text))


if __name__ == "__main__":
    main()
