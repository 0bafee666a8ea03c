# The batch loop shared by the scripts that run inside GNU Backgammon
# (scripts/gnubg_ids.py, scripts/gnubg_legal.py): read one case a line from
# the file named by an environment variable, answer each with one line
# (`error MESSAGE` when the case raises: the batch goes on), end with a line
# `done`, and write the answers under the output file's name only when the
# batch is over (through NAME.part), so a reader never sees half a batch.
#
# gnubg runs a script with `-p FILE` without `__file__` and with only gnubg's
# own folders on sys.path, so a script imports this one with
#
#   sys.path.insert(0, os.path.dirname(os.path.abspath(sys._getframe().f_code.co_filename)))
#   import gnubg_batch

import os
import sys

import gnubg


def run(name, in_var, out_var, setup, one_case):
    """Runs the batch: the `setup` gnubg commands, then `one_case(line)`
    (its answer line, without the newline) for each non-blank input line.
    On an error outside a case, says so on stderr as `NAME: MESSAGE` and
    exits 1."""
    try:
        src = os.environ[in_var]
        dst = os.environ[out_var]
        for c in setup:
            gnubg.command(c)
        with open(src) as f, open(dst + ".part", "w") as out:
            for line in f:
                if not line.strip():
                    continue
                try:
                    out.write(one_case(line) + "\n")
                except Exception as e:  # reported per case, the batch goes on
                    out.write("error %s\n" % str(e).replace("\n", " "))
            out.write("done\n")
        os.rename(dst + ".part", dst)
    except Exception as e:
        sys.stderr.write("%s: %s\n" % (name, e))
        sys.exit(1)
