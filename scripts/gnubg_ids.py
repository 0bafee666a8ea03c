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

sys.path.insert(0, os.path.dirname(os.path.abspath(sys._getframe().f_code.co_filename)))

import gnubg  # noqa: E402
import gnubg_batch  # noqa: E402


def one_case(line):
    gnubg.command("set xgid " + line.strip())
    return "ok %s %s" % (gnubg.positionid(), gnubg.matchid())


gnubg_batch.run(
    "gnubg_ids.py",
    "GNUBG_IDS_IN",
    "GNUBG_IDS_OUT",
    ["set player 0 human", "set player 1 human", "new game"],
    one_case,
)
