#!/usr/bin/env bash
# A long match split into shards run by GNU parallel, then merged.
#
#   scripts/cluster/parallel-match.sh OUT_DIR SHARDS [parallel options...]
#
# On this machine:       scripts/cluster/parallel-match.sh runs/m1 16 -j 2
# Over ssh (each host needs the same gulbara binary at $B and a shared or
# returned OUT_DIR; `--return` copies each shard file back):
#   scripts/cluster/parallel-match.sh runs/m1 64 --sshlogin 8/host1,8/host2
#
# Edit ENGINES, GAMES and SEED below (or set them in the environment;
# ENGINES is then split at spaces, and MATCH_EXTRA adds match options such
# as --luck-adjust). The merged report equals the one the unsharded
# `gulbara match` with the same arguments prints, bit for bit.
set -euo pipefail
out=${1:?OUT_DIR}; shards=${2:?SHARDS}; shift 2
B=${B:-target/release/gulbara}
GAMES=${GAMES:-10000}
SEED=${SEED:-1}
if [ -n "${ENGINES:-}" ]; then
    read -r -a engines <<<"$ENGINES"
else
    engines=(--engine "cmd=$B" name=net-1ply option.engine.ply=2
             --engine "cmd=$B" name=net-0ply option.engine.ply=1)
fi
read -r -a extra <<<"${MATCH_EXTRA:-}"
# Remote shards write on their host; --return brings the files back.
ret=()
case " $* " in *" --sshlogin "* | *" -S "*) ret=(--return "$out/shard-{}.json") ;; esac
mkdir -p "$out"
seq 0 $((shards - 1)) | parallel --will-cite --halt now,fail=1 "$@" "${ret[@]}" \
    "$B" match "${engines[@]}" "${extra[@]}" --games "$GAMES" --seed "$SEED" --no-progress \
        --shard "{}/$shards" --out "$out/shard-{}.json" '>' /dev/null
"$B" merge "$out"/shard-*.json --out "$out/merged.json"
