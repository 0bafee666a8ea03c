#!/usr/bin/env bash
# Ask a running `gulbara serve` for the best move over TCP, with bash's
# /dev/tcp (no other tools needed).
#
#   gulbara serve --listen 127.0.0.1:7667 &
#   scripts/bestmove.sh 65                              # start position, roll 6-5
#   scripts/bestmove.sh 31 "startpos moves 65 24/13"    # after a move list
#   HOST=127.0.0.1 PORT=7667 PLY=1 scripts/bestmove.sh 44 "board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3"
#
# Prints the bestmove line; exits non-zero on an error line or a timeout.
set -euo pipefail
roll=${1:?usage: bestmove.sh <roll like 65> [position arguments]}
position=${2:-startpos}
host=${HOST:-127.0.0.1}
port=${PORT:-7667}
ply=${PLY:-2}
timeout_s=${TIMEOUT:-60}

exec 3<>"/dev/tcp/$host/$port"
printf 'set engine.ply %s\nposition %s\ndice %s %s\ngo\n' \
    "$ply" "$position" "${roll:0:1}" "${roll:1:1}" >&3
status=1
while IFS= read -r -t "$timeout_s" line <&3; do
    line=${line%$'\r'}
    case $line in
        bestmove*) echo "$line"; status=0; break ;;
        error*) echo "$line" >&2; break ;;
    esac
done
printf 'quit\n' >&3 || true
exec 3<&-
exit $status
