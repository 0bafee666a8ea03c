#!/usr/bin/env bash
# One labelling sitting for supervised training (docs/TRAINING.md):
# resumes from the labels committed under data/training/VARIANT/genG,
# labels for MINUTES on THREADS threads, and adds the sitting's labels
# there as a new closed shard, labels/SITTING.txt.gz (labels.txt.gz holds
# those of the sittings before shards; no file is ever rewritten), with the
# manifest's counts brought up to date.
# LABEL_SHARD=I/N labels only the positions whose index is I modulo N
# (an even sample of the generation first, where labels are slow).
#
#   scripts/label-sitting.sh VARIANT GEN [MINUTES] [THREADS]
#
# GEN may carry a suffix naming another set of the same generation's
# positions (`1-turns`: data/training/VARIANT/gen1-turns); the manifest's
# generation is its number.
#
# The rollout settings of a generation are fixed in its label-args file,
# so every sitting labels alike; the positions come from its
# positions.txt.gz (`gulbara positions`, the command in the manifest).
set -euo pipefail
variant=${1:?usage: label-sitting.sh VARIANT GEN [MINUTES] [THREADS]}
gen=${2:?usage: label-sitting.sh VARIANT GEN [MINUTES] [THREADS]}
minutes=${3:-60}
threads=${4:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/data/training/$variant/gen$gen
work=${LABEL_WORK:-$root/target/label/$variant-gen$gen}
bin=${GULBARA:-$root/target/release/gulbara}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
case $work in /*) ;; *) work=$PWD/$work ;; esac
[ -x "$bin" ] || (cd "$root" && cargo build --release --quiet)
mkdir -p "$work"
gunzip -c "$dir/positions.txt.gz" > "$work/positions.txt"
# The working file starts as every committed label; what the sitting
# appends after them is its shard.
labels_of() {
    [ ! -f "$dir/labels.txt.gz" ] || gunzip -c "$dir/labels.txt.gz"
    for f in "$dir"/labels/*.txt.gz; do [ ! -f "$f" ] || gunzip -c "$f"; done
}
labels_of > "$work/labels.txt"
before=$(wc -l < "$work/labels.txt")
read -r -a args < "$dir/label-args"
# A weights file in label-args is named from the repository's root.
cd "$root"
"$bin" label --variant "$variant" --positions "$work/positions.txt" \
    --out "$work/labels.txt" --threads "$threads" --minutes "$minutes" "${args[@]}" \
    ${LABEL_SHARD:+--shard "$LABEL_SHARD"}
mkdir -p "$dir/labels"
shard=$dir/labels/$(date -u +%Y%m%dT%H%M%SZ).txt.gz
tail -n +"$((before + 1))" "$work/labels.txt" | sort -n -k1,1 > "$work/sitting.txt"
if [ -s "$work/sitting.txt" ]; then
    gzip -9n < "$work/sitting.txt" > "$shard.new"
    mv "$shard.new" "$shard"
fi
labelled=$(labels_of | wc -l)
positions=$(grep -vc '^#' "$work/positions.txt")
header=$(head -1 "$work/positions.txt")
cat > "$dir/manifest.json" <<JSON
{
  "game": "$variant",
  "generation": ${gen%%-*},
  "set": "gen$gen",
  "positions": $positions,
  "labelled": $labelled,
  "found_by": "${header#\# }",
  "label_settings": "$(cat "$dir/label-args")",
  "updated": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON
echo "gen$gen $variant: $labelled of $positions positions labelled"
