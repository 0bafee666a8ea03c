# Reads XGIDs into GNU Backgammon and writes back gnubg's own Position ID
# and Match ID of each, so that tests/gnubg_external.rs can check gulbara's
# Position IDs, Match IDs and XGIDs against gnubg's.
#
#   GNUBG_IDS_IN=xgids.txt GNUBG_IDS_OUT=ids.txt \
#       gnubg -t -q -r -p scripts/gnubg_ids.py </dev/null
#
# Input: one XGID a line. Output: one line a case, `ok POSITIONID MATCHID`
# or `error MESSAGE`, then a last line `done`.
#
# gnubg 1.07 takes an XGID with `set xgid`; it asks whether to swap the
# players when the side on roll is on top, so the input always has the
# side on roll at the bottom (turn 1), as gulbara writes it.

import os
import sys

import gnubg


def main():
    src = os.environ["GNUBG_IDS_IN"]
    dst = os.environ["GNUBG_IDS_OUT"]
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("new game")
    with open(src) as f, open(dst + ".part", "w") as out:
        for line in f:
            x = line.strip()
            if not x:
                continue
            try:
                gnubg.command("set xgid " + x)
                out.write("ok %s %s\n" % (gnubg.positionid(), gnubg.matchid()))
            except Exception as e:  # reported per case, the batch goes on
                out.write("error %s\n" % str(e).replace("\n", " "))
        out.write("done\n")
    os.rename(dst + ".part", dst)


try:
    main()
except Exception as e:
    sys.stderr.write("gnubg_ids.py: %s\n" % e)
    sys.exit(1)
